/**
 * `apply_edit_blocks`: applies a reply's edit blocks (`<<<FILE>>>`,
 * `<<<DIFF>>>`, `<<<DELETE>>>`, see core/protocol/bridge_format.ts) as one
 * change: all or nothing, one combined preview for approval, one undo group.
 *
 * The model does not call it by XML: the loop calls it with the whole reply
 * when the reply holds edit blocks and no tool call (`--edit-format blocks`,
 * the bridge). So it is not in `mod.ts`; the session adds it when blocks are
 * on. Its `path` argument is derived from the blocks, so the gates see every
 * path the change touches.
 *
 * @module
 */
import * as z from "zod";
import type { FileChange, Preview, ToolContext } from "../../interfaces/tool.ts";
import {
  type AppliedBlocks,
  applyBlocks,
  blockPaths,
  type FileEdit,
  parseBlocks,
} from "../protocol/bridge_format.ts";
import { defineTool, fail, ok } from "./define.ts";
import { writeTracked } from "./file_io.ts";
import { countLines, decodeText, displayPath, plural, resolvePath } from "./paths.ts";

const schema = z
  .object({ blocks: z.string(), path: z.array(z.string()).optional() })
  .transform((a) => {
    const paths = blockPaths(a.blocks);
    return { blocks: a.blocks, path: paths.length > 0 ? paths : ["."] };
  });
type Args = z.infer<typeof schema>;

/** Applies edit blocks. */
export const applyEditBlocks = defineTool({
  name: "apply_edit_blocks",
  kind: "write",
  description:
    "Apply the edit blocks of a reply (<<<FILE>>>, <<<DIFF>>>, <<<DELETE>>>) as one change, all or nothing.",
  params: [
    { name: "blocks", description: "The reply holding the blocks", required: true, bulk: true },
    {
      name: "path",
      description: "The paths the blocks touch (derived from the blocks)",
      required: false,
      multiple: true,
    },
  ],
  schema,
  example: { blocks: "<<<DELETE: old.txt>>>\n" },
  async preview(args, ctx): Promise<Preview> {
    const plan = await planBlocks(args, ctx);
    if (!plan.ok) return { kind: "none" };
    return {
      kind: "multi_edit",
      files: plan.changes.map((c) => ({ ...c, path: resolvePath(ctx, c.path) })),
    };
  },
  async execute(args, ctx) {
    const plan = await planBlocks(args, ctx);
    if (!plan.ok) {
      return fail(
        plan.error,
        `${plan.message}. Nothing was written: no block of this reply was applied. ` +
          "Send all the blocks again, corrected.",
        `Edit blocks not applied: ${plan.message}`,
      );
    }
    if (plan.changes.length === 0) {
      return ok("The edit blocks change nothing: every file already has that content");
    }
    const changes = await writeAll(ctx, plan.changes);
    return { ...ok(report(ctx, plan.changes), display(ctx, plan.changes)), changes };
  },
});

/** Parses and applies the blocks in memory against the files as `ctx.fs` has them. */
async function planBlocks(args: Args, ctx: ToolContext): Promise<AppliedBlocks> {
  const parsed = parseBlocks(args.blocks);
  if (!parsed.ok) return parsed;
  return await applyBlocks(parsed.blocks, async (p) => {
    const abs = resolvePath(ctx, p);
    const info = await ctx.fs.stat(abs);
    if (!info?.isFile) return null;
    return decodeText(await ctx.fs.readFile(abs));
  });
}

/** Writes every change; when one fails, the ones already written are put back. */
async function writeAll(ctx: ToolContext, edits: readonly FileEdit[]): Promise<FileChange[]> {
  const done: FileEdit[] = [];
  try {
    for (const e of edits) {
      await put(ctx, resolvePath(ctx, e.path), e.after);
      done.push(e);
    }
  } catch (error) {
    for (const e of done.reverse()) {
      await put(ctx, resolvePath(ctx, e.path), e.before).catch(() => {});
    }
    throw error;
  }
  return edits.map((e) => ({
    path: resolvePath(ctx, e.path),
    action: e.before === null ? "create" : e.after === null ? "delete" : "modify",
  }));
}

async function put(ctx: ToolContext, abs: string, text: string | null): Promise<void> {
  if (text === null) {
    if (await ctx.fs.stat(abs)) await ctx.fs.remove(abs);
    return;
  }
  await writeTracked(ctx, abs, text);
}

function report(ctx: ToolContext, edits: readonly FileEdit[]): string {
  const lines = edits.map((e) => {
    const shown = displayPath(ctx, resolvePath(ctx, e.path));
    if (e.before === null) return `- created ${shown} (${plural(countLines(e.after!), "line")})`;
    if (e.after === null) return `- deleted ${shown}`;
    return `- modified ${shown} (${plural(countLines(e.after), "line")})`;
  });
  return `Applied the edit blocks: ${plural(edits.length, "file")} changed\n${lines.join("\n")}`;
}

function display(ctx: ToolContext, edits: readonly FileEdit[]): string {
  const names = edits.map((e) => displayPath(ctx, resolvePath(ctx, e.path)));
  return `Changed ${plural(edits.length, "file")}: ${names.join(", ")}`;
}
