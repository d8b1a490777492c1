/**
 * `list_files`: what a directory holds, sorted, directories marked with `/`.
 * `.gitignore` files are honoured; `.git` and `node_modules` are never listed.
 * A recursive listing past the cap keeps the shallowest entries, so the
 * model sees the layout first.
 *
 * @module
 */
import * as z from "zod";
import { defineTool, fail, ok } from "./define.ts";
import { pathArg } from "./file_io.ts";
import { displayPath, plural, resolvePath } from "./paths.ts";
import { type WalkEntry, walkTree } from "./walk.ts";

/** Entries shown at most. */
export const LIST_MAX_ENTRIES = 500;
/** A recursive walk stops counting after this many entries. */
export const LIST_WALK_LIMIT = 100_000;

/** Lists a directory, optionally recursively. */
export const listFiles = defineTool({
  name: "list_files",
  kind: "read",
  description: "List a directory, with subfolders if recursive=true; ignored files left out.",
  params: [
    {
      name: "path",
      description: "Directory (. for the working directory)",
      required: true,
    },
    {
      name: "recursive",
      description: "true to include subfolders",
      required: false,
      type: "boolean",
    },
  ],
  schema: z.object({ path: pathArg, recursive: z.boolean().optional() }),
  example: { path: ".", recursive: "false" },
  async execute(args, ctx) {
    const abs = resolvePath(ctx, args.path);
    const shown = displayPath(ctx, abs);
    const info = await ctx.fs.stat(abs);
    if (!info) return fail("not_found", `Directory "${shown}" does not exist`);
    if (!info.isDirectory) {
      return fail(
        "not_a_directory",
        `"${shown}" is a file, not a directory; use read_file to read it`,
      );
    }
    const recursive = args.recursive ?? false;
    const entries: WalkEntry[] = [];
    const summary = await walkTree(
      {
        fs: ctx.fs,
        root: abs,
        cwd: ctx.cwd,
        recursive,
        signal: ctx.signal,
        maxEntries: LIST_WALK_LIMIT,
      },
      (e) => void entries.push(e),
    );
    const shownEntries = pick(entries);
    const lines = shownEntries.map((e) => (e.isDirectory ? `${e.rel}/` : e.rel));
    const left = entries.length - shownEntries.length;
    const count = plural(entries.length, "entry", "entries");
    const head = `${shown}/${recursive ? " (recursive)" : ""}: ${
      summary.truncated ? "more than " : ""
    }${count}`;
    const notes: string[] = [];
    if (left > 0 || summary.truncated) {
      notes.push(
        `[${left.toLocaleString("en-US")}${
          summary.truncated ? "+" : ""
        } more not shown; list a subdirectory, or use search_files]`,
      );
    }
    if (summary.ignored > 0) {
      notes.push(`[${plural(summary.ignored, "path")} left out by .gitignore]`);
    }
    if (entries.length === 0) lines.push("(empty)");
    const output = [head, ...lines, ...notes].join("\n");
    return ok(
      output,
      `Listed ${shown}: ${entries.length} entries${left > 0 ? ` (${lines.length} shown)` : ""}`,
    );
  },
});

/** The entries to show: all when few, else the shallowest, back in walk (tree) order. */
function pick(entries: readonly WalkEntry[]): WalkEntry[] {
  if (entries.length <= LIST_MAX_ENTRIES) return [...entries];
  const order = new Map(entries.map((e, i) => [e, i]));
  return [...entries]
    .sort((a, b) => a.depth - b.depth || order.get(a)! - order.get(b)!)
    .slice(0, LIST_MAX_ENTRIES)
    .sort((a, b) => order.get(a)! - order.get(b)!);
}
