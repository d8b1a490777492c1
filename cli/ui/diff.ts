/**
 * A coloured unified diff of a file change, for the approval prompt and
 * dry-run summaries.
 *
 * @module
 */
import { createTwoFilesPatch } from "diff";
import type { Palette } from "./colors.ts";

/** Renders `before` → `after` of `path` as a unified diff (null = absent). */
export function renderDiff(
  path: string,
  before: string | null,
  after: string | null,
  c: Palette,
): string {
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
