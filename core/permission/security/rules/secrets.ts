/**
 * Commands that name an `.env` file (`cat .env`, `grep KEY .env.local`,
 * `source .env`, `Get-Content .env`, `cp .env /tmp`) or one of the user's
 * credential stores (`cat ~/.ssh/id_rsa`, `$HOME/.aws/credentials`,
 * `/etc/shadow`, `/proc/$PPID/environ`), or that show other programs'
 * environments or command lines (`ps eww`, `ps -E`, `wmic process get
 * CommandLine`, `Get-CimInstance Win32_Process`), where minoc's own key is:
 * its secrets would reach the command's output and so the model, so the
 * command asks whatever the permission rules say.
 *
 * @module
 */
import { inCredentialStore, inSecretEnvFile } from "../../../tools/env_files.ts";
import { resolvedPath } from "../paths.ts";
import type { RuleContext, Segment, Word } from "../types.ts";
import { defineRule } from "./helpers.ts";

/** Programs that read a private key without showing it (`ssh-keygen -y` prints the public key). */
const KEY_USERS = new Set(["ssh-keygen", "ssh-add"]);

/** A command that names a secret `.env*` file or a credential store. */
export const secretFiles = defineRule(
  "secret-files",
  "warn",
  "medium",
  "Commands that name an .env file or a credential store, whose secrets would be shown to the model",
  (seg, ctx) => {
    // These read a key only to use it or to print its public half.
    if (KEY_USERS.has(seg.name)) return null;
    const words = [...seg.args, ...seg.writes, ...seg.reads ?? []];
    const hit = words.find((w) => namesSecret(w, ctx));
    if (hit) return `Names the secret file "${hit.text}"`;
    return showsProcesses(seg);
  },
);

function secret(path: string): boolean {
  return inSecretEnvFile(path) || inCredentialStore(path);
}

/** A process's file that holds secrets, by its name alone (see {@link namesSecret}). */
const PROCESS_FILE = /(^|[\\/])(environ|mem|cmdline)$/;

/** A file of a process's folder whose name is known only at run time (`/proc/$PPID/$f`). */
const PROCESS_DIR_UNKNOWN = /(^|\/)proc\/[^/]+\/(task\/[^/]+\/)?[^/]*\$[^/]*$/;

/**
 * Whether `w` (or a part of it after `=`) is a secret file: as written, or
 * relative to the directory a `cd` moved to (`cd ~/.aws && cat credentials`).
 * Where that directory, or the word's own directory, is known only when the
 * command runs (`cd /proc/$PPID && cat environ`, `$p/environ`), a process's
 * `environ`, `mem` or `cmdline` counts by its name, and any file of a
 * process's folder whose name is computed (`/proc/$PPID/$f`).
 */
function namesSecret(w: Word, ctx: RuleContext): boolean {
  return w.text.split("=").some((part) => {
    if (secret(part)) return true;
    const at = w.literal ? resolvedPath(part, ctx) : null;
    if (at !== null) return secret(at);
    return PROCESS_FILE.test(part) || (!w.literal && PROCESS_DIR_UNKNOWN.test(part));
  });
}

/** `ps`'s options that add each process's environment: BSD `e` (`ps eww`, `auxe`), or `-E`. */
const PS_ENVIRONMENT = /^([A-Za-z]*e[A-Za-z]*|-[A-Za-z]*E[A-Za-z]*)$/;

/** PowerShell's process list with command lines: WMI's, or `Get-Process`'s `CommandLine`. */
const PS_COMMAND_LINES = /win32_process|(get-process|\bgps\b)[^]*commandline/i;

/** Why `seg` shows other programs' environments or command lines, or null. */
function showsProcesses(seg: Segment): string | null {
  const args = seg.args.map((w) => w.text.toLowerCase());
  if (seg.name === "ps" && seg.args.some((a) => PS_ENVIRONMENT.test(a.text))) {
    return "Shows the environment of running programs (minoc's key is in its own)";
  }
  const wmic = seg.name === "wmic" && args.includes("process");
  if (wmic || (seg.shell === "powershell" && PS_COMMAND_LINES.test(seg.pipeline))) {
    return "Shows the command lines of running programs (a key given on one is shown)";
  }
  return null;
}
