/**
 * A workflow's blackboard: artifacts registered by one step (`key → kind,
 * path, summary`) for later steps to read. Putting a key again replaces it.
 *
 * @example
 * ```ts
 * const board = createBlackboard();
 * board.put({ key: "deck", kind: "file", path: "build/deck.html", summary: "12 slides" });
 * board.get("deck")?.path; // "build/deck.html"
 * ```
 * @module
 */
import type { Blackboard, BlackboardEntry } from "../../interfaces/tool.ts";

/** A blackboard that tells `onChange` after every put. */
export function createBlackboard(onChange?: (entries: BlackboardEntry[]) => void): Blackboard {
  const entries = new Map<string, BlackboardEntry>();
  return {
    put(entry) {
      entries.set(entry.key, { ...entry });
      onChange?.([...entries.values()]);
    },
    get: (key) => entries.get(key),
    list: () => [...entries.values()].map((e) => ({ ...e })),
  };
}

/** The blackboard as lines for the model: `- key (kind) path: summary`. */
export function formatBlackboard(entries: readonly BlackboardEntry[]): string {
  if (entries.length === 0) return "(the blackboard is empty)";
  return entries
    .map((e) => `- ${e.key} (${e.kind})${e.path ? ` ${e.path}` : ""}: ${e.summary}`)
    .join("\n");
}
