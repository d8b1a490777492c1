/**
 * `bridge_request`: answers the copy/paste bridge's directives — the files a
 * chat asked for with `<<<REQUEST_FILE: path>>>` / `<<<REQUEST_FILES>>>`
 * (their full text, fenced, for the next prompt) and a
 * `<<<SWITCH_MODE: browse|edit>>>` (acknowledged; the bridge reads the mode
 * from the conversation).
 *
 * Like `apply_edit_blocks`, the loop calls it for a reply (never the model by
 * XML), so it is not in `mod.ts`; the session adds it in the bridge.
 *
 * @module
 */
import * as z from "zod";
import type { ToolContext } from "../../interfaces/tool.ts";
import { fencedFile } from "./project_summary.ts";
import { defineTool, fail, ok } from "./define.ts";
import { pathArg, readText } from "./file_io.ts";
import { displayPath, plural, resolvePath } from "./paths.ts";

/** Files one request answers. */
export const REQUEST_MAX_FILES = 40;
/** Characters of file text one answer carries. */
export const REQUEST_MAX_CHARS = 200_000;

const schema = z.object({
  path: z.array(pathArg).max(REQUEST_MAX_FILES, `at most ${REQUEST_MAX_FILES} files per request`)
    .optional(),
  mode: z.enum(["browse", "edit"]).optional(),
});

/** Answers file requests and mode switches of the bridge. */
export const bridgeRequest = defineTool({
  name: "bridge_request",
  kind: "read",
  description: "Send requested files to the chat, and switch between browse and edit mode.",
  params: [
    { name: "path", description: "A requested file", required: false, multiple: true },
    { name: "mode", description: "browse or edit", required: false },
  ],
  schema,
  example: { path: "src/main.ts" },
  async execute(args, ctx) {
    const parts: string[] = [];
    if (args.mode) parts.push(modeText(args.mode));
    const paths = [...new Set((args.path ?? []).map((p) => resolvePath(ctx, p)))];
    if (paths.length === 0) return ok(parts.join("\n"), `${args.mode ?? "browse"} mode`);
    let failed = 0;
    let used = 0;
    for (const abs of paths) {
      const s = await section(ctx, abs, REQUEST_MAX_CHARS - used);
      if (!s.ok) failed++;
      used += s.text.length;
      parts.push(s.text);
    }
    const display = `Sent ${paths.length - failed} of ${plural(paths.length, "requested file")}`;
    const output = parts.join("\n\n");
    return failed === paths.length && !args.mode
      ? fail("not_found", output, display)
      : ok(output, display);
  },
});

function modeText(mode: "browse" | "edit"): string {
  return mode === "edit"
    ? "Edit mode: from now on each message carries the full contents of the project's files."
    : "Browse mode: from now on each message carries only the project summary.";
}

async function section(
  ctx: ToolContext,
  abs: string,
  room: number,
): Promise<{ ok: boolean; text: string }> {
  const shown = displayPath(ctx, abs).replaceAll("\\", "/");
  const got = await readText(ctx, abs);
  if (!got.ok) return { ok: false, text: `### ${shown}\n${got.result.output}` };
  ctx.files.remember(abs, got.info);
  const text = fencedFile(shown, got.text);
  if (text.length > room) {
    return {
      ok: false,
      text: `### ${shown}\nNot sent: it would pass the size limit of one answer ` +
        `(${REQUEST_MAX_CHARS} characters); ask for fewer files at a time`,
    };
  }
  return { ok: true, text };
}
