/**
 * What a report may show: every text goes through the log redaction (API
 * keys, bearer tokens, key-like fields) plus header-like secrets, and with
 * `redactPaths` every home directory becomes `~`.
 *
 * @example
 * ```ts
 * const scrub = scrubber({ redactPaths: true, homes: ["/home/ana"] });
 * scrub("cat /home/ana/.npmrc"); // "cat ~/.npmrc"
 * ```
 * @module
 */
import { REDACTED, redactText } from "../redact.ts";

/** Options of {@link scrubber}. */
export interface ScrubOptions {
  /** Replace home directories with `~`. */
  redactPaths: boolean;
  /** Home directories known for sure (the current user's); others are matched by shape. */
  homes?: readonly string[];
}

/** Secret-looking header or field values: `X-Auth-Token: …`, `password=…`, `Cookie: …` (quotes escaped too). */
const SECRET_FIELD =
  /\b((?:[\w-]*(?:token|secret|password|passwd|cookie|session[_-]?key|private[_-]?key)[\w-]*)\\*["']?\s*[:=]\s*\\*["']?)[^\s"'&,;}\\]+/gi;
/** Home directories by shape: `/home/x`, `/Users/x`, `C:\Users\x` (also with forward slashes). */
const HOME_SHAPES = [
  /\/home\/[^/\s"'`]+/g,
  /\/Users\/[^/\s"'`]+/g,
  /\b[A-Za-z]:[\\/]+Users[\\/]+[^\\/\s"'`]+/g,
];

/** A function that makes one text safe to show. */
export type Scrub = (text: string) => string;

/** The scrubber for `o`. */
export function scrubber(o: ScrubOptions): Scrub {
  const homes = (o.homes ?? []).filter((h) => h.length > 1).sort((a, b) => b.length - a.length);
  return (text) => {
    let out = redactText(text).replace(SECRET_FIELD, `$1${REDACTED}`);
    if (!o.redactPaths) return out;
    for (const home of homes) out = out.split(home).join("~");
    for (const shape of HOME_SHAPES) out = out.replace(shape, "~");
    return out;
  };
}

/** The current user's home directories from the environment (HOME, USERPROFILE). */
export function knownHomes(): string[] {
  const out: string[] = [];
  for (const name of ["HOME", "USERPROFILE"]) {
    try {
      const value = Deno.env.get(name);
      if (value) out.push(value.replace(/[\\/]+$/, ""));
    } catch {
      // no env permission: the shapes still match
    }
  }
  return out;
}
