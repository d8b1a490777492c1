/**
 * A tool list's lookups by name, made once per list. A scanner is made for
 * every reply, and making these again each time cost ~0.1 ms of the agent's
 * turn (25 tools, cold code). Lists are replaced, not changed in place, when
 * the tools change (a list whose length changed is indexed again).
 *
 * @example
 * ```ts
 * const { byName, names } = specIndex(tools);
 * byName.get("read_file")?.params;
 * names.has("write_to_file");
 * ```
 * @module
 */
import type { ToolSpec } from "../../interfaces/tool.ts";

/** A tool list by name. */
export interface SpecIndex {
  readonly list: readonly ToolSpec[];
  readonly byName: ReadonlyMap<string, ToolSpec>;
  readonly names: ReadonlySet<string>;
}

const made = new WeakMap<readonly ToolSpec[], SpecIndex & { length: number }>();

/** The lookups of `specs` (the same object for the same list). */
export function specIndex(specs: readonly ToolSpec[]): SpecIndex {
  const known = made.get(specs);
  if (known !== undefined && known.length === specs.length) return known;
  const byName = new Map(specs.map((s) => [s.name, s]));
  const index = { list: specs, byName, names: new Set(byName.keys()), length: specs.length };
  made.set(specs, index);
  return index;
}
