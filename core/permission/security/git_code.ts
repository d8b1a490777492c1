/**
 * git configuration keys whose value git runs as a shell command
 * (`alias.x = !…`, `core.fsmonitor`, `core.pager`, `core.sshCommand`, filter
 * and merge drivers, …), however they are given: `git -c`, `git config`, or
 * the environment (`GIT_CONFIG_PARAMETERS`, `GIT_CONFIG_KEY_<n>`).
 *
 * @module
 */
import type { ReadContext } from "./context.ts";
import { worst } from "./sources.ts";
import type { Source, Word } from "./types.ts";

const GIT_CODE_KEY = new RegExp(
  "^(?:alias\\..+|core\\.(?:fsmonitor|pager|sshcommand|editor|askpass|gitproxy|hookspath)|" +
    "sequence\\.editor|pager\\..+|diff\\.external|diff\\..+\\.(?:textconv|command)|" +
    "merge\\..+\\.driver|filter\\..+\\.(?:clean|smudge|process)|credential(?:\\..+)?\\.helper|" +
    "gpg(?:\\..+)?\\.program|uploadpack\\.packobjectshook|remote\\..+\\.(?:receivepack|uploadpack)|" +
    "(?:diff|merge)tool\\..+\\.cmd|web\\.browser|browser\\..+\\.cmd|sendemail\\..+|" +
    "include\\.path|includeif\\..+\\.path)$",
  "i",
);

/** Keys whose value names where code comes from, not the code itself (hooks, included files). */
const GIT_CODE_PLACE = /^(?:core\.hookspath|include\.path|includeif\..+\.path)$/i;

/** Options of `git config` that take the next word as their value. */
const CONFIG_VALUED = /^(-f|--file|--blob|--type|--default|--comment|--value)$/;

/**
 * The key and value that `git config [options] [set] KEY VALUE` stores, from
 * the words after `config`; null for a read, an unset or a listing.
 */
export function configAssignment(args: readonly Word[]): { key: Word; value: Word } | null {
  const ops: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const t = args[i].text;
    if (CONFIG_VALUED.test(t)) i++;
    else if (!t.startsWith("-")) ops.push(args[i]);
  }
  const [key, value] = ops[0]?.text === "set" ? ops.slice(1) : ops;
  return key && value ? { key, value } : null;
}

/** Whether git runs the value of `key` (or code from the place it names). */
export function isGitCodeKey(key: string): boolean {
  return GIT_CODE_KEY.test(key);
}

/**
 * Reads the command git would run for `key = value`, as bash; returns the
 * value's origin when it is not known now (the caller marks the segment).
 */
export function gitKeyCode(key: string, value: Word, rc: ReadContext): Source | null {
  if (!GIT_CODE_KEY.test(key) || GIT_CODE_PLACE.test(key)) return null;
  if (/^(alias\.|credential)/i.test(key) && !value.text.startsWith("!")) return null;
  if (!value.literal) {
    return worst(value.sources) ?? { kind: "variable", detail: `${key}=${value.text}` };
  }
  rc.read(value.text.replace(/^!/, ""), "bash", {});
  return null;
}
