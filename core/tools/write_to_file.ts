/**
 * `write_to_file`: creates or overwrites a file, parent directories created.
 * Overwriting needs a fresh read (the read-modify-write guard). The text gets
 * a final line break when it has none, and an existing CRLF file keeps CRLF.
 *
 * @module
 */
import * as z from "zod";
import type { FileInfo, Preview, ToolContext } from "../../interfaces/tool.ts";
import { defineTool, fail, ok } from "./define.ts";
import { guardFresh, pathArg, writeTracked } from "./file_io.ts";
import { countLines, decodeText, displayPath, isCrlf, plural, resolvePath } from "./paths.ts";

interface WritePlan {
  abs: string;
  info: FileInfo | null;
  /** Current text; null when the file is new or binary. */
  before: string | null;
  after: string;
}

const schema = z.object({ path: pathArg, content: z.string() });
type Args = z.infer<typeof schema>;

/** Writes a whole file. */
export const writeToFile = defineTool({
  name: "write_to_file",
  kind: "write",
  description: "Create a file, or replace all of one (read it first), with the complete content.",
  params: [
    { name: "path", description: "File path", required: true },
    { name: "content", description: "The complete content", required: true, bulk: true },
  ],
  schema,
  example: { path: "notes.md", content: "# Notes\n" },
  async preview(args, ctx): Promise<Preview> {
    const plan = await planWrite(args, ctx);
    return { kind: "edit", path: plan.abs, before: plan.before, after: plan.after };
  },
  async execute(args, ctx) {
    const plan = await planWrite(args, ctx);
    const shown = displayPath(ctx, plan.abs);
    if (plan.info?.isDirectory) {
      return fail("is_directory", `"${shown}" is a directory; choose a file path`);
    }
    if (plan.info) {
      const refused = guardFresh(ctx, plan.abs, plan.info);
      if (refused && plan.before === null) {
        const why = `"${shown}" is a binary file; delete it with delete_file first to replace it`;
        return fail("read_first", `Refused: ${why}`, `Refused to overwrite binary ${shown}`);
      }
      if (refused) return refused;
    }
    await writeTracked(ctx, plan.abs, plan.after);
    const lines = plural(countLines(plan.after), "line");
    const verb = plan.info ? "Overwrote" : "Created";
    return {
      ...ok(`${verb} "${shown}" (${lines})`, `${verb} ${shown} (${lines})`),
      changes: [{ path: plan.abs, action: plan.info ? "modify" : "create" }],
    };
  },
});

async function planWrite(args: Args, ctx: ToolContext): Promise<WritePlan> {
  const abs = resolvePath(ctx, args.path);
  const info = await ctx.fs.stat(abs);
  const before = info?.isFile ? decodeText(await ctx.fs.readFile(abs)) : null;
  let after = args.content;
  if (before !== null && isCrlf(before) && !after.includes("\r\n")) {
    after = after.replaceAll("\n", "\r\n");
  }
  if (after !== "" && !after.endsWith("\n")) {
    after += before !== null && isCrlf(before) ? "\r\n" : "\n";
  }
  return { abs, info, before, after };
}
