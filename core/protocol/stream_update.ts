/**
 * What the terminal may show after a chunk of a streamed reply, shared by
 * the canonical scanner and the layered one.
 *
 * @module
 */

/** What the terminal may show after a chunk. */
export interface StreamUpdate {
  /** New prose to display (never raw tool-call markup). */
  prose: string;
  /** One-line live summary of the call, e.g. `write_to_file notes.md`; only when it changed. */
  call?: string;
  /** New reasoning text (from `<think>` and the like), shown apart and folded. */
  reasoning?: string;
}

/** No update. */
export const NOTHING: StreamUpdate = Object.freeze({ prose: "" });
