/**
 * Splits a streaming reply into visible text and reasoning: a `<think>`,
 * `<thinking>` or `<reasoning>` block that opens at the start of a line runs
 * to its closing tag (or to the end of the reply). When a chat template has
 * already opened `<think>` for the model, the reply starts inside reasoning
 * and only a `</think>` shows it: the first closing tag met before any opener
 * turns everything before it into reasoning (`reset`).
 *
 * Each character is looked at once; a tag cut across chunks is held back
 * (at most one tag's length), so every chunking gives the same split.
 *
 * @module
 */

const OPEN = ["<think>", "<thinking>", "<reasoning>"];
const CLOSE = ["</think>", "</thinking>", "</reasoning>"];

/** What one chunk adds. */
export interface SplitUpdate {
  /** New visible text. */
  visible: string;
  /** New reasoning text. */
  reasoning: string;
  /**
   * A closing tag came before any opener: every visible text returned by
   * earlier pushes, and `before`, was reasoning too.
   */
  reset?: boolean;
  /** With `reset`: the text of this chunk before the closing tag. */
  before?: string;
}

/**
 * The streaming splitter.
 *
 * @example
 * ```ts
 * const s = new ReasoningSplitter();
 * s.push("<think>plan</th"); // { visible: "", reasoning: "plan" }
 * s.push("ink>\nDone.");     // { visible: "\nDone.", reasoning: "" }
 * ```
 */
export class ReasoningSplitter {
  #inside = -1; // index of the open tag's kind, or -1
  #opened = false; // an opener or an orphan closer was seen
  #lineStart = true; // only spaces so far on the visible line
  #pending = "";

  /** Feeds the next chunk. */
  push(chunk: string): SplitUpdate {
    const text = this.#pending + chunk;
    this.#pending = "";
    const out: SplitUpdate = { visible: "", reasoning: "" };
    let i = 0;
    while (i < text.length) {
      const j = text.indexOf("<", i);
      this.#emit(out, text.slice(i, j < 0 ? text.length : j));
      if (j < 0) break;
      const tag = this.#tagAt(text, j);
      if (tag === null) {
        this.#pending = text.slice(j);
        break;
      }
      if (tag === "") {
        this.#emit(out, "<");
        i = j + 1;
        continue;
      }
      this.#onTag(out, tag);
      i = j + tag.length;
    }
    return out;
  }

  /** End of the reply: a held partial tag is plain text. */
  end(): SplitUpdate {
    const out: SplitUpdate = { visible: "", reasoning: "" };
    this.#emit(out, this.#pending);
    this.#pending = "";
    return out;
  }

  #emit(out: SplitUpdate, text: string): void {
    if (text === "") return;
    if (this.#inside >= 0) {
      out.reasoning += text;
      return;
    }
    out.visible += text;
    const nl = text.lastIndexOf("\n");
    const tail = nl < 0 ? text : text.slice(nl + 1);
    if (nl >= 0) this.#lineStart = true;
    if (/[^ \t\r]/.test(tail)) this.#lineStart = false;
  }

  /** The tag of interest at `j`: the tag, `""` when none, null when the text may still become one. */
  #tagAt(text: string, j: number): string | null {
    const rest = text.length - j;
    const names = this.#inside >= 0
      ? [CLOSE[this.#inside]]
      : [...(this.#lineStart ? OPEN : []), ...(this.#opened ? [] : CLOSE)];
    let partial = false;
    for (const name of names) {
      if (rest >= name.length) {
        if (text.startsWith(name, j)) return name;
      } else if (name.startsWith(text.slice(j))) partial = true;
    }
    return partial ? null : "";
  }

  #onTag(out: SplitUpdate, tag: string): void {
    const open = OPEN.indexOf(tag);
    if (open >= 0) {
      this.#inside = open;
      this.#opened = true;
      return;
    }
    if (this.#inside >= 0) {
      this.#inside = -1;
      return;
    }
    // An orphan closer: the reply began inside reasoning.
    this.#opened = true;
    out.before = out.visible;
    out.visible = "";
    out.reset = true;
  }
}
