/**
 * `read_file`: a text file with numbered lines, or a part of it.
 *
 * @module
 */
import * as z from "zod";
import { defineTool, fail, ok } from "./define.ts";
import { pathArg, readText } from "./file_io.ts";
import { displayPath, plural, resolvePath } from "./paths.ts";
import { renderLines } from "./read_view.ts";

/** Lines shown by one call at most. */
export const READ_MAX_LINES = 2000;
/** Characters shown by one call at most (below the dispatcher's output cap). */
export const READ_MAX_CHARS = 50_000;

/** Reads a text file (or lines `start_line`..`end_line`) and records the read for the guard. */
export const readFile = defineTool({
  name: "read_file",
  kind: "read",
  description: "Read a text file, lines numbered (not part of the file); long files come in parts.",
  params: [
    { name: "path", description: "File path", required: true },
    {
      name: "start_line",
      description: "First line (from 1)",
      required: false,
      type: "integer",
    },
    { name: "end_line", description: "Last line", required: false, type: "integer" },
  ],
  schema: z.object({
    path: pathArg,
    start_line: z.number().int().min(1).optional(),
    end_line: z.number().int().min(1).optional(),
  }),
  example: { path: "src/main.ts" },
  async execute(args, ctx) {
    const abs = resolvePath(ctx, args.path);
    const shown = displayPath(ctx, abs);
    const got = await readText(ctx, abs, "; use list_files or search_files to find the right path");
    if (!got.ok) return got.result;
    ctx.files.remember(abs, got.info);
    const view = renderLines(shown, got.text, {
      start: args.start_line,
      end: args.end_line,
      maxLines: READ_MAX_LINES,
      maxChars: READ_MAX_CHARS,
    });
    if (!view.ok) return fail("invalid_args", view.message);
    const part = view.from === 1 && view.to === view.total
      ? plural(view.total, "line")
      : `lines ${view.from}-${view.to} of ${view.total}`;
    return ok(view.text, `Read ${shown} (${view.total === 0 ? "empty" : part})`);
  },
});
