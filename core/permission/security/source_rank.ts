/**
 * Ranks where text that runs as code comes from: network > decoded >
 * program > variable > file > literal. Shared by the word reader and the
 * source tracker.
 *
 * @example
 * ```ts
 * worst([{ kind: "literal", text: "x", shell: "bash" }, { kind: "network", detail: "curl u" }]);
 * // the network source
 * ```
 * @module
 */
import type { Source } from "./types.ts";

const SEVERITY: Record<Source["kind"], number> = {
  literal: 0,
  file: 1,
  variable: 2,
  program: 3,
  decoded: 4,
  network: 5,
};

/** The worse of two sources for code: network > decoded > program > variable > file > literal. */
export function worse(a: Source | undefined, b: Source | undefined): Source | undefined {
  if (!a) return b;
  if (!b) return a;
  return SEVERITY[b.kind] > SEVERITY[a.kind] ? b : a;
}

/** The worst of several sources. */
export function worst(sources: readonly Source[]): Source | undefined {
  return sources.reduce<Source | undefined>((acc, s) => worse(acc, s), undefined);
}
