/**
 * Splits streamed reply prose into what the model says and what it thinks:
 * text inside `<thinking>…</thinking>` is a thought (ACP
 * `agent_thought_chunk`), the rest is the message. A tag cut across two
 * chunks is held back until it is whole.
 *
 * @example
 * ```ts
 * const s = new ThoughtSplitter();
 * s.push("<think"); // []
 * s.push("ing>plan</thinking>Hi"); // [{ thought: true, text: "plan" }, { thought: false, text: "Hi" }]
 * ```
 * @module
 */

/** A run of text, and whether it is a thought. */
export interface Segment {
  thought: boolean;
  text: string;
}

const OPEN = "<thinking>";
const CLOSE = "</thinking>";

/** The splitter; one per reply stream. */
export class ThoughtSplitter {
  #thought = false;
  #held = "";

  /** Feeds a chunk; returns the segments now known. */
  push(chunk: string): Segment[] {
    let rest = this.#held + chunk;
    this.#held = "";
    const out: Segment[] = [];
    while (rest !== "") {
      const tag = this.#thought ? CLOSE : OPEN;
      const at = rest.indexOf(tag);
      if (at >= 0) {
        add(out, this.#thought, rest.slice(0, at));
        rest = rest.slice(at + tag.length);
        this.#thought = !this.#thought;
        continue;
      }
      const keep = partialTail(rest, tag);
      add(out, this.#thought, rest.slice(0, rest.length - keep));
      this.#held = rest.slice(rest.length - keep);
      break;
    }
    return out;
  }

  /** Ends the reply: returns what was held back; the next reply starts outside a thought. */
  flush(): Segment[] {
    const out: Segment[] = [];
    add(out, this.#thought, this.#held);
    this.#held = "";
    this.#thought = false;
    return out;
  }
}

function add(out: Segment[], thought: boolean, text: string): void {
  if (text !== "") out.push({ thought, text });
}

/** Length of the longest end of `text` that starts `tag`. */
function partialTail(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (tag.startsWith(text.slice(text.length - n))) return n;
  }
  return 0;
}
