/**
 * `edit_file`: replace one exact piece of a file (`old` → `new`), or apply
 * SEARCH/REPLACE blocks given as `diff`.
 *
 * @module
 */
import * as z from "zod";
import type { Replacement } from "./text_match.ts";
import { defineTool, fail } from "./define.ts";
import { type BlockLabel, diffLabel, oldLabel, previewEdit, runEdit } from "./edit_common.ts";
import { pathArg } from "./file_io.ts";
import { parseSearchReplace } from "./text_match.ts";

const schema = z
  .object({
    path: pathArg,
    old: z.string().optional(),
    new: z.string().optional(),
    diff: z.string().optional(),
  })
  .superRefine((a, check) => {
    const pair = a.old !== undefined || a.new !== undefined;
    let message = "";
    if (a.diff !== undefined && pair) message = "give either <diff>, or <old> and <new>, not both";
    else if (a.diff === undefined && !pair) message = "give <old> and <new> (or <diff>)";
    else if (pair && (a.old === undefined || a.new === undefined)) {
      message = "<old> and <new> go together";
    }
    if (message) check.addIssue({ code: "custom", message });
  });
type Args = z.infer<typeof schema>;

type Blocks = { ok: true; blocks: Replacement[]; label: BlockLabel } | {
  ok: false;
  message: string;
};

function blocksOf(args: Args): Blocks {
  if (args.diff === undefined) {
    return {
      ok: true,
      blocks: [{ search: args.old ?? "", replace: args.new ?? "" }],
      label: oldLabel,
    };
  }
  const parsed = parseSearchReplace(args.diff);
  return parsed.ok ? { ok: true, blocks: parsed.blocks, label: diffLabel } : parsed;
}

/** Replaces text in a file you have read. */
export const editFile = defineTool({
  name: "edit_file",
  kind: "write",
  description:
    "Replace old (exact, unique text of the file) with new, or apply diff (SEARCH/REPLACE blocks).",
  params: [
    { name: "path", description: "File path", required: true },
    {
      name: "old",
      description: "Exact text to replace, enough to be unique",
      required: false,
    },
    { name: "new", description: "Replacement (empty to delete)", required: false },
    {
      name: "diff",
      description: "SEARCH/REPLACE blocks instead of old/new",
      required: false,
      bulk: true,
    },
  ],
  schema,
  example: { path: "src/app.ts", old: "const port = 3000;", new: "const port = 8080;" },
  async preview(args, ctx) {
    const b = blocksOf(args);
    return b.ok ? await previewEdit(ctx, args.path, b.blocks) : { kind: "none" };
  },
  async execute(args, ctx) {
    const b = blocksOf(args);
    if (!b.ok) return fail("invalid_diff", b.message);
    return await runEdit(ctx, args.path, b.blocks, b.label);
  },
});
