/**
 * `delete_file`: removes a file, or a directory with everything in it when
 * `recursive` is true. A symlink is removed itself, never what it points to.
 *
 * @module
 */
import { parse } from "node:path";
import * as z from "zod";
import type { Preview } from "../../interfaces/tool.ts";
import { defineTool, fail, ok } from "./define.ts";
import { pathArg } from "./file_io.ts";
import { decodeText, displayPath, resolvePath } from "./paths.ts";

/** Text files up to this size are shown whole in the approval preview. */
const PREVIEW_MAX_BYTES = 256 * 1024;

/** Deletes a file, or a directory tree with `recursive=true`. */
export const deleteFile = defineTool({
  name: "delete_file",
  kind: "write",
  description: "Delete a file, or a folder and all in it with recursive=true.",
  params: [
    {
      name: "path",
      description: "File or folder",
      required: true,
    },
    {
      name: "recursive",
      description: "true to delete a folder",
      required: false,
      type: "boolean",
    },
  ],
  schema: z.object({ path: pathArg, recursive: z.boolean().optional() }),
  example: { path: "tmp/old.txt" },
  async preview(args, ctx): Promise<Preview> {
    const abs = resolvePath(ctx, args.path);
    const info = await ctx.fs.stat(abs);
    if (!info) return { kind: "none" };
    let before: string | null = null;
    if (info.isFile && !info.isSymlink && info.size <= PREVIEW_MAX_BYTES) {
      const bytes = await ctx.fs.readFile(abs, { maxBytes: PREVIEW_MAX_BYTES });
      before = bytes.length > PREVIEW_MAX_BYTES ? null : decodeText(bytes);
    }
    return { kind: "edit", path: abs, before, after: null };
  },
  async execute(args, ctx) {
    const abs = resolvePath(ctx, args.path);
    const shown = displayPath(ctx, abs);
    const info = await ctx.fs.stat(abs);
    if (!info) return fail("not_found", `"${shown}" does not exist; nothing was deleted`);
    if (abs === resolvePath(ctx, ".") || abs === parse(abs).root) {
      return fail("refused", `Refusing to delete "${abs}": it is the working directory or a root`);
    }
    const tree = info.isDirectory && !info.isSymlink;
    if (tree && args.recursive !== true) {
      return fail(
        "is_directory",
        `"${shown}" is a directory; pass recursive=true to delete it and everything in it`,
      );
    }
    await ctx.fs.remove(abs, { recursive: tree });
    const what = tree ? `directory "${shown}" and everything in it` : `"${shown}"`;
    return {
      ...ok(`Deleted ${what}`, `Deleted ${shown}${tree ? "/" : ""}`),
      changes: [{ path: abs, action: "delete" }],
    };
  },
});
