/**
 * The paths guard: a path that resolves outside the working directory
 * (after `..` and symlinks; a file that does not exist yet is resolved
 * through its nearest existing parent, dangling symlinks followed) asks
 * every time, whatever the rules; so does a write to `.git/`, `.minoc/` or
 * an `.env*` file.
 *
 * @example
 * ```ts
 * const paths = await resolveReal([subjectPath(cwd, "../x", cwd)], cwd);
 * const finding = guardPaths(paths, { cwd: await realDir(cwd), write: true });
 * if (finding) console.log(finding.reason);
 * ```
 * @module
 */
import { basename, dirname, join, resolve } from "node:path";
import { projectRelative, type SubjectPath } from "./rules.ts";
import { inCredentialStore, inSecretEnvFile } from "../tools/env_files.ts";
import { exists } from "../tools/fs_port.ts";

/** Why the guard asks. */
export interface GuardFinding {
  reason: string;
  rule: string;
  /** Set when an allow rule may still let the call run (reading `.env*` files). */
  rulesMayAllow?: boolean;
  /**
   * Set when `--yes` must not approve it: a write outside the working directory, where the
   * sandbox refuses commands too, or into `.git/` or `.minoc/`. (A path that cannot be resolved is not firm: a write through
   * a symlink loop or a NUL byte fails in the tool itself.)
   */
  firm?: boolean;
}

/** Names that ask on every write. */
const PROTECTED_DIRS = [".git", ".minoc"];
const MAX_LINKS = 40;

/**
 * The real path of `abs`: symlinks resolved, and for a path that does not
 * exist, its nearest existing parent's real path plus the rest. Null when it
 * cannot be resolved (a symlink loop, a file used as a directory, no access).
 *
 * The file system is asked synchronously: each gate resolves a few paths per
 * call, a `realpath` takes microseconds, and each asynchronous call would
 * wait ~40 µs for a worker thread on the agent's own turn.
 */
export function realPathOf(abs: string): Promise<string | null> {
  return Promise.resolve(realPathSync(abs));
}

function realPathSync(abs: string): string | null {
  const rest: string[] = [];
  let p = abs;
  let hops = 0;
  for (;;) {
    // A path written usually does not exist yet: one stat, then the links above it.
    try {
      if (exists(p)) {
        const real = Deno.realPathSync(p);
        return rest.length ? join(real, ...rest) : real;
      }
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) return null;
    }
    const link = danglingLink(p);
    if (link === undefined) return null;
    if (link !== null) {
      if (++hops > MAX_LINKS) return null;
      p = resolve(dirname(p), link);
      continue;
    }
    const parent = dirname(p);
    if (parent === p) return join(p, ...rest);
    rest.unshift(basename(p));
    p = parent;
  }
}

/** The target of the link at `p`; null when nothing is there (or no link); undefined when it cannot be asked. */
function danglingLink(p: string): string | null | undefined {
  try {
    const st = Deno.lstatSync(p);
    return st.isSymlink ? Deno.readLinkSync(p) : null;
  } catch (e) {
    return e instanceof Deno.errors.NotFound ? null : undefined;
  }
}

/** The real path of a directory that exists (the working directory), or itself. */
export async function realDir(dir: string): Promise<string> {
  return await realPathOf(dir) ?? dir;
}

/** Fills in `real` and `realRel` (relative to `realProject`, the project directory's real path). */
export async function resolveReal(
  paths: readonly SubjectPath[],
  realProject: string,
): Promise<SubjectPath[]> {
  return await Promise.all(paths.map(async (p) => {
    const real = await realPathOf(p.abs);
    return {
      ...p,
      real: real ?? undefined,
      realRel: real === null ? null : projectRelative(realProject, real),
    };
  }));
}

/**
 * Judges resolved paths: outside the (real) working directory asks; so does
 * a write to a protected name. Null when the guard has nothing to say.
 */
export function guardPaths(
  paths: readonly SubjectPath[],
  o: { cwd: string; realCwd: string; write: boolean },
): GuardFinding | null {
  if (!o.write) {
    // Keys and passwords kept for the user (~/.ssh, ~/.aws, /etc/shadow…), wherever they are.
    const key = paths.find((p) => inCredentialStore(p.abs) || inCredentialStore(p.real ?? ""));
    if (key) {
      return {
        reason: `"${key.abs}" holds keys or passwords that would be sent to the model: ` +
          "reading it asks unless a rule allows it",
        rule: "paths guard: secret file",
        rulesMayAllow: true,
      };
    }
  }
  for (const p of paths) {
    if (p.real === undefined) {
      return {
        reason:
          `"${p.abs}" cannot be resolved (a symlink loop or no access): such paths ask every time`,
        rule: "paths guard: unresolvable path",
      };
    }
    const inside = projectRelative(o.cwd, p.abs) !== null &&
      projectRelative(o.realCwd, p.real) !== null;
    if (!inside) {
      const to = p.real === p.abs ? "" : ` (to "${p.real}")`;
      return {
        reason: `"${p.abs}" resolves outside the working directory${to}: such paths ask every time`,
        rule: "paths guard: outside the working directory",
        ...(o.write ? { firm: true } : {}),
      };
    }
  }
  if (!o.write) return secretRead(paths, o);
  for (const p of paths) {
    const hit = [projectRelative(o.cwd, p.abs), projectRelative(o.realCwd, p.real ?? p.abs)]
      .find((rel) => rel !== null && isProtected(rel));
    if (hit) {
      return {
        reason: `writes to "${hit}" ask every time (.git/, .minoc/ and .env* files are protected)`,
        rule: "paths guard: protected path",
        // .git/ (hooks, config) and .minoc/ (rules, settings) act after the session, outside its
        // sandbox: --yes does not approve a write there.
        ...(inOwnState(hit) ? { firm: true } : {}),
      };
    }
  }
  return null;
}

/** Reading an `.env*` file asks unless a rule allows it: it holds secrets the model would see. */
function secretRead(
  paths: readonly SubjectPath[],
  o: { cwd: string; realCwd: string },
): GuardFinding | null {
  for (const p of paths) {
    const hit = [projectRelative(o.cwd, p.abs), projectRelative(o.realCwd, p.real ?? p.abs)]
      .find((rel) => rel !== null && inSecretEnvFile(rel));
    if (hit) {
      return {
        reason:
          `"${hit}" may hold secrets (API keys, passwords) that would be sent to the model: ` +
          "reading .env files asks unless a rule allows it",
        rule: "paths guard: secret file",
        rulesMayAllow: true,
      };
    }
  }
  return null;
}

/** Whether a project-relative path (with `/`) is in `.git/` or `.minoc/`. */
function inOwnState(rel: string): boolean {
  return rel.toLowerCase().split("/").some((s) => PROTECTED_DIRS.includes(s));
}

/** Whether a project-relative path (with `/`) is in `.git/` or `.minoc/`, or is (or is in) an `.env*` entry. */
export function isProtected(rel: string): boolean {
  return rel.toLowerCase().split("/").some((s) =>
    PROTECTED_DIRS.includes(s) || s.startsWith(".env")
  );
}
