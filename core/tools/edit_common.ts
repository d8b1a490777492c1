/**
 * What `edit_file` and `replace_in_file` share: read the file, apply the
 * guard, apply the replacements all-or-nothing, write, and tell the model
 * what happened (with the new lines when whitespace-tolerant matching moved
 * or re-indented them).
 *
 * @example
 * ```ts
 * return await runEdit(ctx, args.path, blocks, diffLabel);
 * ```
 * @module
 */
import type { Preview, ToolContext, ToolResult } from "../../interfaces/tool.ts";
import { fail, ok } from "./define.ts";
import { guardFresh, readText, writeTracked } from "./file_io.ts";
import { countLines, displayPath, plural, resolvePath, splitLines } from "./paths.ts";
import { type AppliedEdit, applyReplacements, type Replacement } from "./text_match.ts";

/** Names block `i` of `n` in messages, e.g. "SEARCH block 2 of 3". */
export type BlockLabel = (i: number, n: number) => string;

/** Labels for SEARCH/REPLACE diffs. */
export const diffLabel: BlockLabel = (
  i,
  n,
) => (n > 1 ? `SEARCH block ${i + 1} of ${n}` : "The SEARCH block");

/** Labels for `<old>`/`<new>` pairs. */
export const oldLabel: BlockLabel = () => "The <old> text";

const SNIPPET_LINES = 20;

/** Applies `blocks` to the file at `path` and writes it; every failure leaves the file untouched. */
export async function runEdit(
  ctx: ToolContext,
  path: string,
  blocks: readonly Replacement[],
  label: BlockLabel,
): Promise<ToolResult> {
  const abs = resolvePath(ctx, path);
  const shown = displayPath(ctx, abs);
  const got = await readText(ctx, abs, "; use write_to_file to create it");
  if (!got.ok) return got.result;
  const refused = guardFresh(ctx, abs, got.info);
  if (refused) return refused;
  const applied = applyReplacements(got.text, blocks);
  if (!applied.ok) {
    const name = label(applied.block, blocks.length);
    let msg: string;
    if (applied.code === "no_match") {
      const order = applied.block > 0
        ? " Blocks apply in order, each to the file as changed by the blocks before it."
        : "";
      msg = `${name} was not found in "${shown}". ${applied.detail} Copy the lines exactly from ` +
        `the current file (read_file shows it; leave out the line numbers).${order}`;
    } else if (applied.code === "multiple_matches") {
      msg = `${name} is ambiguous in "${shown}". ${applied.detail}`;
    } else if (applied.code === "indentation") {
      msg = `${name} was refused for "${shown}". ${applied.detail} Copy the lines with their ` +
        `exact indentation from the current file (read_file shows it).`;
    } else {
      msg = `${name} is empty. ${applied.detail}`;
    }
    return fail(
      applied.code,
      `${msg} Nothing was changed`,
      `Edit of ${shown} failed: ${applied.code}`,
    );
  }
  await writeTracked(ctx, abs, applied.text);
  const lines = plural(countLines(applied.text), "line");
  const count = plural(blocks.length, "block");
  const out = [`Edited "${shown}": ${count} applied; it now has ${lines}.`];
  out.push(...tolerantNotes(applied.text, applied.edits, label));
  return {
    ...ok(out.join("\n"), `Edited ${shown} (${count})`),
    changes: [{ path: abs, action: "modify" }],
  };
}

/** The edit as the approval prompt shows it; unchanged text when the edit would fail. */
export async function previewEdit(
  ctx: ToolContext,
  path: string,
  blocks: readonly Replacement[],
): Promise<Preview> {
  const abs = resolvePath(ctx, path);
  const got = await readText(ctx, abs);
  if (!got.ok) return { kind: "none" };
  const applied = applyReplacements(got.text, blocks);
  return { kind: "edit", path: abs, before: got.text, after: applied.ok ? applied.text : got.text };
}

function tolerantNotes(text: string, edits: readonly AppliedEdit[], label: BlockLabel): string[] {
  const notes: string[] = [];
  const lines = splitLines(text);
  edits.forEach((e, i) => {
    if (e.how === "exact" || e.how === "empty_file") return;
    const how = e.how === "indentation"
      ? "matched with indentation ignored; the new lines were moved by the same offset"
      : "matched with trailing whitespace ignored";
    const name = label(i, edits.length).replace(/^The /, "the ");
    if (e.lineCount === 0) return void notes.push(`Note: ${name} ${how}; its lines were removed.`);
    notes.push(
      `Note: ${name} ${how}. Lines ${e.startLine}-${e.startLine + e.lineCount - 1} now read:`,
    );
    const end = Math.min(e.startLine - 1 + e.lineCount, e.startLine - 1 + SNIPPET_LINES);
    for (let n = e.startLine; n <= end; n++) notes.push(`${n}\t${lines[n - 1]}`);
  });
  return notes;
}
