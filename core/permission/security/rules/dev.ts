/**
 * Warn rules for risky but ordinary work: history rewriting, publishing,
 * killing processes, global installs, per-user configuration, bulk data
 * deletion.
 *
 * @module
 */
import { cmdSwitch, hasOption, lowerArgs, operands, psValues } from "../flags.ts";
import { resolvedPath } from "../paths.ts";
import type { RuleContext, Segment, Word } from "../types.ts";
import { changedFiles, defineRule, gitCommand, verb } from "./helpers.ts";
import { registryWrite } from "./machine.ts";

/** History rewriting and discarding work in git. */
export const gitHistory = defineRule(
  "git-history",
  "warn",
  "high",
  "Rewriting or discarding git history or work: push --force, reset --hard, clean -f, branch -D, checkout -f, checkout -- <paths>, restore, filter-branch, stash clear",
  (seg) => {
    const g = gitCommand(seg);
    if (!g) return null;
    const r = g.rest;
    const has = (short: string, long: string[]) => hasOption(r, short, long);
    const found = (g.sub === "push" &&
      (has("fd", ["force", "force-with-lease", "force-if-includes", "mirror", "delete", "prune"]) ||
        operands(r).some((a) => a.text.startsWith("+") || a.text.startsWith(":")))) ||
      (g.sub === "reset" && has("", ["hard", "merge"])) ||
      (g.sub === "clean" && has("f", ["force"])) ||
      (g.sub === "branch" &&
        (has("D", []) || has("dm", ["delete", "move"]) && has("f", ["force"]))) ||
      ((g.sub === "checkout" || g.sub === "switch") && has("f", ["force", "discard-changes"])) ||
      discardsChanges(g.sub, r) ||
      (g.sub === "stash" && /^(clear|drop)$/.test(operands(r)[0]?.text ?? "")) ||
      (g.sub === "reflog" && /^(expire|delete)$/.test(operands(r)[0]?.text ?? "")) ||
      (g.sub === "update-ref" && has("d", [])) ||
      g.sub === "filter-branch" || g.sub === "filter-repo";
    return found ? `Rewrites or discards git history: ${seg.text}` : null;
  },
);

/** `git checkout [--] <paths>` and `git restore <paths>` (not only --staged) throw away edits. */
function discardsChanges(sub: string, rest: Word[]): boolean {
  const t = rest.map((w) => w.text);
  if (sub === "checkout") return t.includes("--") || (t.length > 0 && t.every((x) => x === "."));
  if (sub !== "restore") return false;
  const staged = t.some((x) => /^(-S|--staged)$/.test(x));
  const worktree = t.some((x) => /^(-W|--worktree)$/.test(x));
  return operands(rest).length > 0 && (!staged || worktree);
}

const PUBLISH_VERBS: Record<string, RegExp> = {
  npm: /^(publish|unpublish|deprecate)$/,
  pnpm: /^publish$/,
  yarn: /^(publish|npm)$/,
  bun: /^publish$/,
  cargo: /^(publish|yank)$/,
  docker: /^push$/,
  podman: /^push$/,
  buildah: /^push$/,
  twine: /^upload$/,
  gem: /^(push|yank)$/,
  deno: /^publish$/,
  jsr: /^publish$/,
  poetry: /^publish$/,
  flit: /^publish$/,
  hatch: /^publish$/,
  uv: /^publish$/,
  mvn: /^deploy$/,
  gradle: /^publish/,
  gradlew: /^publish/,
  nuget: /^push$/,
  helm: /^push$/,
  vsce: /^publish$/,
  ovsx: /^publish$/,
  firebase: /^deploy$/,
  vercel: /^(deploy|--prod)$/,
  netlify: /^deploy$/,
  fly: /^deploy$/,
  flyctl: /^deploy$/,
  terraform: /^apply$/,
  pulumi: /^up$/,
  cdk: /^deploy$/,
  serverless: /^deploy$/,
  sls: /^deploy$/,
};

/** Publishing packages, images, releases; deploying. */
export const publish = defineRule(
  "publish",
  "warn",
  "high",
  "Publishing or deploying (npm publish, cargo publish, docker push, twine upload, gh release create, terraform apply)",
  (seg) => {
    const args = lowerArgs(seg);
    const v = verb(seg, ["-C", "--prefix"]).sub;
    if (PUBLISH_VERBS[seg.name]?.test(v)) return `Publishes or deploys: ${seg.text}`;
    if (seg.name === "vercel" && args.includes("--prod")) {
      return `Deploys to production: ${seg.text}`;
    }
    if ((seg.name === "docker" || seg.name === "podman") && args.includes("--push")) {
      return `Publishes an image: ${seg.text}`;
    }
    if (
      seg.name === "gh" && args[0] === "release" &&
      /^(create|upload|edit|delete)$/.test(args[1] ?? "")
    ) return `Publishes a release: ${seg.text}`;
    if (seg.name === "dotnet" && args[0] === "nuget" && args[1] === "push") {
      return `Publishes a package: ${seg.text}`;
    }
    if (
      /^python/.test(seg.name) && args[0] === "-m" && args[1] === "twine" && args[2] === "upload"
    ) return `Publishes a package: ${seg.text}`;
    if (/^(npx|bunx|pnpx)$/.test(seg.name) && args.includes("publish")) {
      return `Publishes a package: ${seg.text}`;
    }
    return null;
  },
);

/** Killing processes. */
export const kill = defineRule(
  "kill",
  "warn",
  "medium",
  "Killing processes (kill, pkill, killall, taskkill, Stop-Process)",
  (seg) => {
    if (seg.name === "kill" && seg.args.some((a) => /^-[lL]$|^--(list|table)$/.test(a.text))) {
      return null;
    }
    if (/^(kill|killall|pkill|xkill|skill|taskkill|tskill|stop-process)$/.test(seg.name)) {
      return `Kills processes: ${seg.text}`;
    }
    if (seg.name === "fuser" && hasOption(seg.args, "k", ["kill"])) {
      return `Kills processes: ${seg.text}`;
    }
    return null;
  },
);

const SYSTEM_PACKAGES =
  /^(apt|apt-get|aptitude|yum|dnf|zypper|apk|snap|flatpak|port|brew|choco|winget|scoop|pkg|emerge|xbps-install|nix-env)$/;
const INSTALL_VERBS =
  /^(install|reinstall|remove|uninstall|purge|upgrade|dist-upgrade|full-upgrade|autoremove|add|del|update|tap|link|unlink|i|in|rm|erase)$/;

/** Installing globally or into the system. */
export const globalInstall = defineRule(
  "global-install",
  "warn",
  "medium",
  "Global or system-wide installs (npm i -g, pip install --user, cargo install, go install, apt install, brew install, Install-Module)",
  (seg) => {
    const n = seg.name;
    const args = lowerArgs(seg);
    const v = verb(seg).sub;
    const global = hasOption(seg.args, "g", ["global"]) || args.includes("--location=global");
    if (/^(npm|pnpm|bun)$/.test(n) && global) return `Global install: ${seg.text}`;
    if (n === "yarn" && args[0] === "global") return `Global install: ${seg.text}`;
    if (
      (n === "deno" || n === "dotnet") && global &&
      args.some((a) => a === "install" || a === "uninstall" || a === "tool")
    ) return `Global install: ${seg.text}`;
    if (/^(cargo|go|gem|pipx)$/.test(n) && (v === "install" || v === "uninstall")) {
      return `Global install: ${seg.text}`;
    }
    if (n === "uv" && args[0] === "tool" && args[1] === "install") {
      return `Global install: ${seg.text}`;
    }
    if (
      /^pip[0-9.]*$/.test(n) &&
      args.some((a) => /^--(user|break-system-packages|system|target|root)$/.test(a))
    ) return `Installs outside the project: ${seg.text}`;
    if (SYSTEM_PACKAGES.test(n) && INSTALL_VERBS.test(v)) {
      return `System package change: ${seg.text}`;
    }
    if (
      n === "pacman" &&
      seg.args.some((a) => /^-[SRU]/.test(a.text) || /^--(sync|remove|upgrade)$/.test(a.text))
    ) return `System package change: ${seg.text}`;
    if (
      (n === "dpkg" || n === "rpm") &&
      seg.args.some((a) => /^-[iUreP]|^--(install|remove|purge|erase|upgrade)/.test(a.text))
    ) return `System package change: ${seg.text}`;
    if (
      n === "msiexec" && cmdSwitch(seg.args, "i") ||
      /^(install|uninstall|update)-(module|package|script|psresource)$/.test(n)
    ) return `System-wide install: ${seg.text}`;
    if (n === "composer" && args[0] === "global") return `Global install: ${seg.text}`;
    if (
      n === "nix-env" &&
      seg.args.some((a) => /^-[a-zA-Z]*[ieu]|^--(install|uninstall|upgrade)$/.test(a.text))
    ) {
      return `System package change: ${seg.text}`;
    }
    return null;
  },
);

const USER_FILES =
  /(^|\/)\.(bashrc|bash_profile|bash_login|bash_logout|profile|zshrc|zshenv|zprofile|zlogin|zlogout|kshrc|cshrc|tcshrc|inputrc|gitconfig|npmrc|yarnrc|pypirc|netrc|curlrc|wgetrc|vimrc|tmux\.conf|xinitrc|xprofile)$|(^|\/)\.ssh(\/|$)|(^|\/)\.config\/(fish\/config\.fish|autostart\/|systemd\/user\/|git\/config)|(^|\/)\.gnupg\/|(^|\/)documents\/(windows)?powershell\/.*profile\.ps1$|^\$profile/i;
const USER_HIVE = /^(hkcu|hkey_current_user)(:|\\|\/|$)|^registry::hkey_current_user/i;

function touchesUserFile(seg: Segment, ctx: RuleContext): string | null {
  const hit = changedFiles(seg, true).find((t) => {
    if (/^\$profile/i.test(t.text)) return true;
    const p = t.literal ? resolvedPath(t.text, ctx) : null;
    const home = resolvedPath(ctx.home, ctx);
    return p !== null && home !== null && p.startsWith(home + "/") &&
      USER_FILES.test(p.slice(home.length));
  });
  return hit ? `Changes per-user configuration "${hit.text}"` : null;
}

/** Per-user configuration: global git config, shell rc files, ~/.ssh, crontab, HKCU, setx. */
export const userConfig = defineRule(
  "user-config",
  "warn",
  "medium",
  "Per-user configuration: git config --global, shell rc files, ~/.ssh, crontab, HKCU registry, setx, scheduled tasks, defaults write",
  (seg, ctx) => {
    const n = seg.name;
    const args = lowerArgs(seg);
    const g = gitCommand(seg);
    if (
      g?.sub === "config" && hasOption(g.rest, "", ["global", "system"]) &&
      !g.rest.some((a) => /^(--get.*|--list|-l|--show-.*)$/.test(a.text))
    ) {
      return `Changes global git configuration: ${seg.text}`;
    }
    if (n === "crontab" && !args.includes("-l")) return `Changes the user's crontab: ${seg.text}`;
    if (n === "setx") return `Changes user environment variables: ${seg.text}`;
    if (n === "schtasks" && /^\/(create|change|delete)$/.test(args[0] ?? "")) {
      return `Changes scheduled tasks: ${seg.text}`;
    }
    if (/^(register|unregister|set)-scheduledtask$/.test(n)) {
      return `Changes scheduled tasks: ${seg.text}`;
    }
    if (n === "defaults" && /^(write|delete|import)$/.test(args[0] ?? "")) {
      return `Changes user defaults: ${seg.text}`;
    }
    if ((n === "gsettings" || n === "dconf") && /^(set|reset|write|load)$/.test(args[0] ?? "")) {
      return `Changes desktop settings: ${seg.text}`;
    }
    if (
      n === "systemctl" && args.includes("--user") &&
      /(enable|disable|start|stop|mask)/.test(args.join(" "))
    ) return `Changes user services: ${seg.text}`;
    if (
      n === "set-executionpolicy" &&
      !psValues(seg.args, "scope").some((s) => /^process$/i.test(s.text))
    ) return `Changes the PowerShell execution policy: ${seg.text}`;
    return registryWrite(seg, USER_HIVE) ?? touchesUserFile(seg, ctx);
  },
);
