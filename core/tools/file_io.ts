/**
 * File reading and writing shared by the file tools, including the
 * read-modify-write guard: an existing file may be overwritten or edited
 * only when the agent has read its current version in this session (or
 * wrote it itself).
 *
 * @example
 * ```ts
 * const got = await readText(ctx, abs);
 * if (!got.ok) return got.result;
 * const refused = guardFresh(ctx, abs, got.info);
 * ```
 * @module
 */
import { dirname } from "node:path";
import * as z from "zod";
import type { FileInfo, ToolContext, ToolResult } from "../../interfaces/tool.ts";
import { fail } from "./define.ts";
import { decodeText, displayPath, encodeText, formatBytes } from "./paths.ts";

/** Text files larger than this are not read whole by the tools. */
export const MAX_TEXT_BYTES = 50 * 1024 * 1024;

/** Schema of a path parameter: trimmed, not empty, no NUL byte (no file system accepts one). */
export const pathArg = z.string().trim().min(1, "must not be empty").refine(
  (p) => !p.includes("\0"),
  "must not contain a NUL byte (\\0): no file name can hold one",
);

/** A text file's content, or the failure to give the model. */
export type TextRead =
  | { ok: true; text: string; info: FileInfo }
  | { ok: false; result: ToolResult };

/** Reads `abs` as text: missing, directory, binary and very large files are failures. */
export async function readText(ctx: ToolContext, abs: string, hint = ""): Promise<TextRead> {
  const shown = displayPath(ctx, abs);
  const info = await ctx.fs.stat(abs);
  if (!info) {
    return { ok: false, result: fail("not_found", `File "${shown}" does not exist${hint}`) };
  }
  if (info.isDirectory) {
    const msg = `"${shown}" is a directory, not a file; use list_files to see what it holds`;
    return { ok: false, result: fail("is_directory", msg) };
  }
  if (!info.isFile) {
    const msg = `"${shown}" is not a regular file (a pipe, device or socket): ` +
      "only regular files can be read or edited";
    return { ok: false, result: fail("not_regular_file", msg) };
  }
  if (info.size > MAX_TEXT_BYTES) {
    return { ok: false, result: tooLarge(shown, formatBytes(info.size)) };
  }
  // Counted as read, not as stat said: the file may grow meanwhile.
  const bytes = await ctx.fs.readFile(abs, { maxBytes: MAX_TEXT_BYTES });
  if (bytes.length > MAX_TEXT_BYTES) {
    return { ok: false, result: tooLarge(shown, `over ${formatBytes(MAX_TEXT_BYTES)} as read`) };
  }
  const text = decodeText(bytes);
  if (text === null) {
    const msg = `"${shown}" is a binary file (${
      formatBytes(info.size)
    }); only text files can be read or edited`;
    return { ok: false, result: fail("binary_file", msg) };
  }
  return { ok: true, text, info };
}

function tooLarge(shown: string, size: string): ToolResult {
  const msg = `"${shown}" is too large to read whole (${size}); ` +
    "use search_files to find the lines you need, or execute_command with head, tail or sed";
  return fail("too_large", msg);
}

/**
 * The guard: a refusal unless the agent's last read or write of `abs` is
 * still what is on disk (`info`), else null.
 */
export function guardFresh(ctx: ToolContext, abs: string, info: FileInfo): ToolResult | null {
  const state = ctx.files.check(abs, info);
  if (state === "fresh") return null;
  const shown = displayPath(ctx, abs);
  const why = state === "unread"
    ? `you have not read "${shown}" in this session`
    : `"${shown}" changed on disk since you last read it`;
  return fail(
    "read_first",
    `Refused: ${why}. Read it first with read_file, then retry with its current content in mind`,
    `Refused to change ${shown}: read it first`,
  );
}

/** Writes `text` to `abs` (parent directories created) and records it as fresh. */
export async function writeTracked(ctx: ToolContext, abs: string, text: string): Promise<void> {
  await ctx.fs.mkdir(dirname(abs), { recursive: true });
  await ctx.fs.writeFile(abs, encodeText(text));
  const info = await ctx.fs.stat(abs);
  if (info) ctx.files.remember(abs, info);
}
