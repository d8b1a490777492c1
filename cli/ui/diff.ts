/**
 * A coloured unified diff of a file change, for the approval prompt and
 * dry-run summaries; and a call's whole preview (diffs, or the command with
 * its folder and what confines it) for the approval and step prompts.
 *
 * @module
 */
import { createTwoFilesPatch } from "diff";
import type { Preview } from "../../interfaces/tool.ts";
import type { Palette } from "./colors.ts";
import { visible, visibleDeep } from "../../core/protocol/visible.ts";

/** The preview as lines for a prompt; none for a call without one. */
export function renderPreview(raw: Preview, c: Palette): string[] {
  const p = visibleDeep(raw);
  if (p.kind === "edit") return [renderDiff(p.path, p.before, p.after, c)];
  if (p.kind === "multi_edit") return p.files.map((f) => renderDiff(f.path, f.before, f.after, c));
  if (p.kind !== "exec") return [];
  const lines = [`  ${c.dim("in")} ${p.cwd}\n  ${c.bold("$ " + p.command)}`];
  if (p.confinement) lines.push(`  ${c.dim(p.confinement)}`);
  return lines;
}

/** Renders `before` → `after` of `path` as a unified diff (null = absent). */
export function renderDiff(
  path: string,
  before: string | null,
  after: string | null,
  c: Palette,
): string {
  [path, before, after] = [visible(path), before && visible(before), after && visible(after)];
  const patch = createTwoFilesPatch(
    before === null ? "/dev/null" : `a/${path}`,
    after === null ? "/dev/null" : `b/${path}`,
    before ?? "",
    after ?? "",
    undefined,
    undefined,
    { context: 3 },
  );
  // Drop the "Index:" / "===" preamble; keep the ---/+++ lines that name the file.
  const lines = patch.split("\n").filter((l) => !/^(Index: |={10,}$)/.test(l));
  return lines.map((l) => colorLine(l, c)).join("\n").trimEnd();
}

function colorLine(line: string, c: Palette): string {
  if (line.startsWith("+++") || line.startsWith("---")) return c.bold(line);
  if (line.startsWith("+")) return c.green(line);
  if (line.startsWith("-")) return c.red(line);
  if (line.startsWith("@@")) return c.cyan(line);
  return line;
}
