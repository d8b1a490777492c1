/**
 * `replace_in_file`: SEARCH/REPLACE blocks applied in order, all or nothing.
 *
 * @module
 */
import * as z from "zod";
import { defineTool, fail } from "./define.ts";
import { diffLabel, previewEdit, runEdit } from "./edit_common.ts";
import { pathArg } from "./file_io.ts";
import { parseSearchReplace } from "./text_match.ts";

/** Edits a file with SEARCH/REPLACE blocks (read it first). */
export const replaceInFile = defineTool({
  name: "replace_in_file",
  kind: "write",
  description: "Apply SEARCH/REPLACE blocks (see the example) in order; each must match once.",
  params: [
    { name: "path", description: "File path", required: true },
    { name: "diff", description: "SEARCH/REPLACE blocks", required: true, bulk: true },
  ],
  schema: z.object({ path: pathArg, diff: z.string() }),
  example: {
    path: "src/app.ts",
    diff: "<<<<<<< SEARCH\nconst port = 3000;\n=======\nconst port = 8080;\n>>>>>>> REPLACE",
  },
  async preview(args, ctx) {
    const parsed = parseSearchReplace(args.diff);
    return parsed.ok ? await previewEdit(ctx, args.path, parsed.blocks) : { kind: "none" };
  },
  async execute(args, ctx) {
    const parsed = parseSearchReplace(args.diff);
    if (!parsed.ok) return fail("invalid_diff", parsed.message);
    return await runEdit(ctx, args.path, parsed.blocks, diffLabel);
  },
});
