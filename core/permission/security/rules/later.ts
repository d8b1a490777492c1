/**
 * Code stored where git runs it later: a hook, the repository's own
 * configuration, or a `git config` key whose value git runs (or that points
 * git at hooks or more configuration). Such code runs on the user's next git
 * command, outside this session, its sandbox and its approvals, so storing it
 * asks, even under `--yes`.
 *
 * @module
 */
import { configAssignment, isGitCodeKey } from "../git_code.ts";
import { resolvedPath } from "../paths.ts";
import type { RuleContext, Segment } from "../types.ts";
import { changedFiles, defineRule, gitCommand } from "./helpers.ts";

/** Inside a `.git` folder (a submodule's or worktree's too): a hook, or a config file. */
const GIT_RUNS = /(^|\/)\.git\/(?:.+\/)?(?:hooks\/[^/]+|config|config\.worktree)$/i;

/** Hooks and git's configuration, written by any command or file tool; `git config` of a code key. */
export const gitCode = defineRule(
  "git-code",
  "warn",
  "high",
  "Code git runs later: writing a hook or a repository's git config, git config of a key git runs (core.fsmonitor, core.hooksPath, alias.x=!…, filters, include.path)",
  (seg, ctx) => storedKey(seg) ?? writtenPlace(seg, ctx),
);

/** `git config [--local|--worktree|--file F] [set] KEY VALUE` with a key git runs. */
function storedKey(seg: Segment): string | null {
  const g = gitCommand(seg);
  if (g?.sub !== "config") return null;
  // Global and system configuration are the user's (rule user-config).
  if (g.rest.some((w) => w.text === "--global" || w.text === "--system")) return null;
  const { key, value } = configAssignment(g.rest) ?? {};
  if (!key || !value || !isGitCodeKey(key.text)) return null;
  // An alias runs a program only with `!`; a credential helper, with `!` or a path.
  if (/^alias\./i.test(key.text) && !value.text.startsWith("!")) return null;
  if (/^credential/i.test(key.text) && !/^!|[\\/]/.test(value.text)) return null;
  return `Stores a command git runs on later git commands (${key.text}): ${seg.text}`;
}

function writtenPlace(seg: Segment, ctx: RuleContext): string | null {
  const hit = changedFiles(seg).find((t) => {
    const p = t.literal ? resolvedPath(t.text, ctx) : null;
    return p !== null && GIT_RUNS.test(p);
  });
  return hit ? `Writes "${hit.text}", which git runs or reads on later git commands` : null;
}
