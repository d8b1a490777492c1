/**
 * `read_files`: several text files in one call, a section each; a file that
 * cannot be read gets its error in its section and the others still come.
 *
 * @module
 */
import * as z from "zod";
import type { ToolContext } from "../../interfaces/tool.ts";
import { defineTool, fail, ok } from "./define.ts";
import { errorText } from "./dispatch.ts";
import { pathArg, readText } from "./file_io.ts";
import { displayPath, resolvePath } from "./paths.ts";
import { READ_MAX_CHARS, READ_MAX_LINES } from "./read_file.ts";
import { renderLines } from "./read_view.ts";

/** Files one call may read. */
export const READ_FILES_MAX = 20;

/** Reads up to 20 text files, sharing the output budget of one `read_file`. */
export const readFiles = defineTool({
  name: "read_files",
  kind: "read",
  description: "Read several files at once.",
  params: [
    {
      name: "path",
      description: "File path; repeat for more",
      required: true,
      multiple: true,
    },
  ],
  schema: z.object({
    path: z.array(pathArg).min(1, "give at least one <path>").max(
      READ_FILES_MAX,
      `at most ${READ_FILES_MAX} files per call`,
    ),
  }),
  example: { path: "src/a.ts" },
  async execute(args, ctx) {
    const paths = [...new Set(args.path.map((p) => resolvePath(ctx, p)))];
    const budget = Math.max(4000, Math.floor(READ_MAX_CHARS / paths.length));
    const sections: string[] = [];
    let failed = 0;
    let firstCode = "";
    for (const abs of paths) {
      const s = await section(ctx, abs, budget);
      sections.push(s.text);
      if (!s.ok) {
        failed++;
        firstCode ||= s.code;
      }
    }
    const output = sections.join("\n\n");
    const display = `Read ${paths.length - failed} of ${paths.length} files`;
    return failed === paths.length ? fail(firstCode, output, display) : ok(output, display);
  },
});

async function section(
  ctx: ToolContext,
  abs: string,
  maxChars: number,
): Promise<{ ok: boolean; code: string; text: string }> {
  const shown = displayPath(ctx, abs);
  const head = `==> ${shown} <==`;
  const fault = (code: string, why: string) => ({
    ok: false,
    code,
    text: `${head}\nError: ${why}`,
  });
  try {
    const got = await readText(ctx, abs);
    if (!got.ok) return fault(got.result.code ?? "error", got.result.output);
    ctx.files.remember(abs, got.info);
    const view = renderLines(shown, got.text, { maxLines: READ_MAX_LINES, maxChars });
    if (!view.ok) return fault("invalid_args", view.message);
    const rows = view.body === "" ? "" : `\n${view.body}`;
    return { ok: true, code: "", text: `==> ${view.header} <==${rows}` };
  } catch (e) {
    return fault("exception", `cannot read "${shown}": ${errorText(e)}`);
  }
}
