/**
 * Keeps a dialect call off the screen while it streams: prose passes line by
 * line, and from the first line that starts like a call in another dialect
 * (a JSON object, `[TOOL_CALLS]`, `<|…|>`, `<function…`, `<invoke`, a known
 * tool's element, a ```json fence) everything is held until the end of the
 * reply, when the parser knows what was a call. Each character is looked at
 * a bounded number of times.
 *
 * @module
 */

const MAX_UNDECIDED = 80;
const DIALECT_TAGS = new Set(["function_calls", "invoke", "tool_call", "function"]);

/**
 * The hold, fed with prose that the canonical scanner released.
 *
 * @example
 * ```ts
 * const h = new DisplayHold(new Set(["read_file"]));
 * h.push("Reading.\n{\"name\": \"read_file\""); // "Reading.\n"
 * h.held; // "{\"name\": \"read_file\""
 * ```
 */
export class DisplayHold {
  /** Characters released so far. */
  released = 0;
  /** Text held since the first line that looked like a call. */
  held = "";
  #holding = false;
  #line = "";
  #decided = false;
  #tools: ReadonlySet<string>;

  constructor(tools: ReadonlySet<string>) {
    this.#tools = tools;
  }

  /** Feeds prose; returns what may be shown now. */
  push(text: string): string {
    if (this.#holding) {
      this.held += text;
      return "";
    }
    let out = "";
    let i = 0;
    while (i < text.length) {
      const nl = text.indexOf("\n", i);
      const j = nl < 0 ? text.length : nl + 1;
      if (this.#decided) out += text.slice(i, j);
      else {
        this.#line += text.slice(i, j);
        const verdict = this.#classify(nl >= 0);
        if (verdict === "call") {
          this.#holding = true;
          this.held = this.#line + text.slice(j);
          this.#line = "";
          break;
        }
        if (verdict === "prose") {
          out += this.#line;
          this.#line = "";
          this.#decided = true;
        }
      }
      if (nl >= 0) this.#decided = false;
      i = j;
    }
    this.released += out.length;
    return out;
  }

  /** End of the reply: the undecided line and everything held. */
  flush(): string {
    const rest = this.#line + this.held;
    this.#line = "";
    this.held = "";
    return rest;
  }

  /** Whether everything after the released text is held. */
  get holding(): boolean {
    return this.#holding;
  }

  #classify(complete: boolean): "call" | "prose" | "open" {
    const t = this.#line.replace(/^[ \t]+/, "");
    if (t === "" || t === "\n") return complete ? "prose" : "open";
    const c = t[0];
    if (c === "{") return "call";
    if (c === "[") return bracket(t, complete);
    if (c === "`") {
      if (!complete) return t.length > 12 ? "prose" : "open";
      return /^```\s*(json|tool_call|xml)?\s*$/i.test(t) ? "call" : "prose";
    }
    if (c === "f" && "functools[".startsWith(t.slice(0, 10))) {
      return t.length >= 10 || complete ? (t.startsWith("functools[") ? "call" : "prose") : "open";
    }
    if (c !== "<") return "prose";
    const m = /^<\/?([A-Za-z_|｜][^\s>=/]*)([\s>=/])?/.exec(t);
    if (m === null) return complete || t.length > 2 ? "prose" : "open";
    if (m[2] === undefined && !complete && t.length < MAX_UNDECIDED) return "open";
    const name = m[1];
    if (name.startsWith("|") || name.startsWith("｜")) return "call";
    return DIALECT_TAGS.has(name) || this.#tools.has(name) ? "call" : "prose";
  }
}

function bracket(t: string, complete: boolean): "call" | "prose" | "open" {
  if (/^\[\s*\{/.test(t) || t.startsWith("[TOOL_CALLS]")) return "call";
  if (/^\[\s*$/.test(t) || "[TOOL_CALLS]".startsWith(t.trimEnd())) {
    return complete ? "prose" : "open";
  }
  return "prose";
}
