/**
 * Rules about deleting and re-permissioning paths: protected paths block,
 * recursive deletes outside the project warn, permission changes warn.
 *
 * @module
 */
import { cmdSwitch, hasOption, operands, psSwitch } from "../flags.ts";
import { classifyPath, isSystemPath, resolvedPath } from "../paths.ts";
import type { RuleContext, Segment, Word } from "../types.ts";
import { defineRule, psPaths } from "./helpers.ts";

const SWITCH = /^\/[a-z](:.*)?$/i;

interface DeleteOp {
  targets: Word[];
  recursive: boolean;
  forced: boolean;
}

/** What a segment deletes, in its own flag spelling; null when it deletes nothing. */
export function deleteOp(seg: Segment): DeleteOp | null {
  const a = seg.args;
  switch (seg.name) {
    case "rm":
      return {
        targets: operands(a),
        recursive: hasOption(a, "rR", ["recursive"]),
        forced: hasOption(a, "f", ["force"]),
      };
    case "rd":
    case "rmdir":
      if (seg.shell === "bash" && !cmdSwitch(a, "s")) return null;
      return {
        targets: a.filter((w) => !SWITCH.test(w.text)),
        recursive: cmdSwitch(a, "s"),
        forced: cmdSwitch(a, "q"),
      };
    case "del":
    case "erase": {
      const forced = cmdSwitch(a, "q") || cmdSwitch(a, "f");
      return {
        targets: a.filter((w) => !SWITCH.test(w.text)),
        recursive: cmdSwitch(a, "s"),
        forced,
      };
    }
    case "remove-item": {
      const named = psPaths(seg);
      const piped = seg.stdin && seg.stdin.kind !== "literal" ? seg.stdin.paths ?? [] : [];
      const targets = named.length > 0 ? named : piped;
      return { targets, recursive: psSwitch(a, "recurse"), forced: psSwitch(a, "force") };
    }
    case "shred":
    case "srm": {
      const targets = operands(a).filter((w) => !w.text.startsWith("/dev/"));
      return { targets, recursive: hasOption(a, "r", ["recursive"]), forced: true };
    }
    case "rsync":
      if (!a.some((w) => w.text.startsWith("--delete"))) return null;
      return { targets: operands(a).slice(-1), recursive: true, forced: true };
    default:
      return null;
  }
}

/** Recursive or forced delete of a protected path. */
export const deleteProtected = defineRule(
  "delete-protected",
  "block",
  "critical",
  "Recursive or forced delete of a protected path: /, system directories, the home directory and its entries, drive roots, C:\\Windows, C:\\Users",
  (seg, ctx) => {
    if (seg.args.some((w) => w.text === "--no-preserve-root")) {
      return "Delete with --no-preserve-root";
    }
    const op = deleteOp(seg);
    if (op && (op.recursive || op.forced)) {
      const hit = op.targets.find((t) => classifyPath(t, ctx) === "protected");
      if (hit) {
        return `${op.recursive ? "Recursive" : "Forced"} delete of protected path ${
          shown(hit, ctx)
        }`;
      }
    }
    return movesProtected(seg, ctx);
  },
);

/** `mv /etc …`, `mv ~ …`: moving a protected directory away is deleting it. */
function movesProtected(seg: Segment, ctx: RuleContext): string | null {
  if (seg.name !== "mv" && seg.name !== "move-item" && seg.name !== "move") return null;
  const ops = seg.name === "move-item" ? psPaths(seg) : operands(seg.args).slice(0, -1);
  const hit = ops.find((t) => classifyPath(t, ctx) === "protected" && !/[*?]/.test(t.text));
  return hit ? `Moving protected path ${shown(hit, ctx)} away` : null;
}

/** Recursive delete outside the working directory, or of a path known only at run time. */
export const deleteOutside = defineRule(
  "delete-outside",
  "warn",
  "high",
  "Recursive delete outside the working directory, or of a path only known when the command runs",
  (seg, ctx) => {
    const op = deleteOp(seg);
    if (!op || !op.recursive) return null;
    for (const t of op.targets) {
      const c = classifyPath(t, ctx);
      if (
        c === "outside" && resolvedPath(t.text, ctx) === resolvedPath(ctx.project ?? ctx.cwd, ctx)
      ) {
        return `Recursive delete of the working directory itself: "${t.text}"`;
      }
      if (c === "outside") {
        return `Recursive delete outside the working directory: ${shown(t, ctx)}`;
      }
      if (c === "unknown") return `Recursive delete of a path only known at run time: "${t.text}"`;
    }
    return null;
  },
);

const PERMISSION_COMMANDS = new Set([
  "chmod",
  "chown",
  "chgrp",
  "setfacl",
  "chattr",
  "icacls",
  "cacls",
  "takeown",
  "set-acl",
]);

function permissionTargets(seg: Segment): { targets: Word[]; recursive: boolean } | null {
  if (!PERMISSION_COMMANDS.has(seg.name)) return null;
  if (["icacls", "cacls", "takeown"].includes(seg.name)) {
    const recursive = cmdSwitch(seg.args, "t") || cmdSwitch(seg.args, "r");
    if (seg.name !== "takeown") return { targets: seg.args.slice(0, 1), recursive };
    return {
      targets: seg.args.filter((_, i) => seg.args[i - 1]?.text.toLowerCase() === "/f"),
      recursive,
    };
  }
  if (seg.name === "set-acl") return { targets: psPaths(seg), recursive: false };
  const ops = operands(seg.args);
  return { targets: ops.slice(1), recursive: hasOption(seg.args, "R", ["recursive"]) };
}

/** Changing permissions or ownership of a protected path. */
export const permissionsProtected = defineRule(
  "permissions-protected",
  "block",
  "critical",
  "Changing permissions or ownership of system files, or recursively of a protected path",
  (seg, ctx) => {
    const p = permissionTargets(seg);
    if (!p) return null;
    for (const t of p.targets) {
      if (isSystemPath(t, ctx)) return `Permission change on system path "${t.text}"`;
      if (p.recursive && classifyPath(t, ctx) === "protected") {
        return `Recursive permission change on protected path ${shown(t, ctx)}`;
      }
    }
    return null;
  },
);

/** Any other permission or ownership change. */
export const permissions = defineRule(
  "permissions",
  "warn",
  "medium",
  "Changing file permissions or ownership (chmod, chown, icacls, takeown)",
  (seg) => (permissionTargets(seg) ? `Permission change: ${seg.text}` : null),
);

/** `"~/x" (/home/me/x)`: the argument and, when different, where it points. */
function shown(t: Word, ctx: RuleContext): string {
  const full = resolvedPath(t.text, ctx);
  return full && full !== t.text ? `"${t.text}" (${full})` : `"${t.text}"`;
}
