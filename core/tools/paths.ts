/**
 * Small helpers the file tools share: resolving and showing paths, telling
 * text from binary, counting lines.
 *
 * @example
 * ```ts
 * const abs = resolvePath(ctx, "src/main.ts");
 * displayPath(ctx, abs); // "src/main.ts"
 * ```
 * @module
 */
import { isAbsolute, relative, resolve, sep } from "node:path";
import type { ToolContext } from "../../interfaces/tool.ts";

/** How many leading bytes decide whether a file is binary. */
export const SNIFF_BYTES = 8192;

/**
 * An absolute path for `p`, relative paths taken from `ctx.cwd`. `~` is not
 * expanded (it is an ordinary name). Throws on an empty path; tool schemas
 * reject empty paths before this is reached.
 */
export function resolvePath(ctx: Pick<ToolContext, "cwd">, p: string): string {
  if (p.trim() === "") throw new RangeError("Path must not be empty");
  return isAbsolute(p) ? resolve(p) : resolve(ctx.cwd, p);
}

/** `abs` relative to `ctx.cwd` when inside it (`.` for cwd itself), else absolute. */
export function displayPath(ctx: Pick<ToolContext, "cwd">, abs: string): string {
  const rel = relative(ctx.cwd, abs);
  if (rel === "") return ".";
  if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return abs;
  return rel;
}

/** Whether `parent` is `child` or one of its ancestors (both absolute). */
export function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

const strictDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const looseDecoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** True when the first 8 KB hold a NUL byte or are not valid UTF-8. */
export function isBinary(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, SNIFF_BYTES);
  if (head.indexOf(0) >= 0) return true;
  try {
    // stream: a multi-byte character cut at the 8 KB edge is not an error.
    new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(head, { stream: true });
    return false;
  } catch {
    return true;
  }
}

/**
 * The text of a file, or null when it is binary. Invalid UTF-8 after the
 * first 8 KB becomes U+FFFD. A byte-order mark is kept, so writing the text
 * back keeps it too.
 */
export function decodeText(bytes: Uint8Array): string | null {
  return decodeTextWith(looseDecoder, bytes);
}

/**
 * `decodeText` with the caller's lenient decoder (created with
 * `ignoreBOM: true`). Self-contained, so it can run inside a worker. The NUL
 * test runs on the decoded text (a fast native scan) within its first 8,192
 * characters; big files are tested on their bytes first, to avoid decoding
 * large binaries.
 */
export function decodeTextWith(loose: TextDecoder, bytes: Uint8Array): string | null {
  if (bytes.length > 1048576 && bytes.subarray(0, 8192).indexOf(0) >= 0) return null;
  const text = loose.decode(bytes);
  const nul = text.indexOf("\0");
  if (nul >= 0 && nul < 8192) return null;
  const bad = text.indexOf("\uFFFD");
  if (bad < 0 || bad >= 8192) return text;
  try {
    new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes.subarray(0, 8192), {
      stream: true,
    });
    return text;
  } catch {
    return null;
  }
}

/** Strict UTF-8 decoding; throws on invalid bytes. */
export function decodeStrict(bytes: Uint8Array): string {
  return strictDecoder.decode(bytes);
}

const encoder = new TextEncoder();

/** UTF-8 bytes of `text`. */
export function encodeText(text: string): Uint8Array {
  return encoder.encode(text);
}

/** Lines in `text`: 0 when empty; a final newline does not start a new line. */
export function countLines(text: string): number {
  if (text === "") return 0;
  let n = 1;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) n++;
  return text.endsWith("\n") ? n - 1 : n;
}

/** `text` split into lines, without their line breaks (a `\r` before `\n` is dropped too). */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines.map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
}

/** True when every line break in `text` is `\r\n` (and there is at least one). */
export function isCrlf(text: string): boolean {
  let crlf = 0;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) {
    if (text.charCodeAt(i - 1) !== 13) return false;
    crlf++;
  }
  return crlf > 0;
}

/** `n` with a noun: `plural(2, "file")` is `"2 files"`, `plural(1, "entry", "entries")` is `"1 entry"`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  // Digits grouped by hand: the first toLocaleString costs ~25 ms (ICU set-up) in a tool call.
  const [whole, fraction] = String(n).split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",") + (fraction ? `.${fraction}` : "");
  return `${grouped} ${n === 1 ? one : many}`;
}

/** A byte count for people: `812 B`, `14.2 KB`, `3.1 MB`. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
