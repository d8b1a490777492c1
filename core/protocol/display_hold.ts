/**
 * Keeps a dialect call off the screen while it streams: prose passes line by
 * line, and from the first line that starts like a call in another dialect
 * (a JSON object, `[TOOL_CALLS]`, `<|…|>`, `<function…`, `<invoke`, a known
 * tool's element, a ```json fence) everything is held until the end of the
 * reply, when the parser knows what was a call. A fence or a tool element
 * that closes and is followed by more text cannot be a call (those count
 * only at the end of a reply): it is released then. Each character is looked
 * at a bounded number of times.
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
  /** While holding a fence or an element: how it closes, whether it did, how far lines were read. */
  #weak: Weak | null = null;
  /** The line not yet ended holds the closer's mark (see {@link unread}). */
  #suspect = false;
  #scan = 0;
  /** The held text from `#scan` on: the line not yet ended. */
  #open = "";
  #line = "";
  #tail = "";
  #decided = false;
  #inFence = false;
  #element = "";
  #elementFirst: readonly number[] = NO_CODES;
  #tools: ReadonlySet<string>;

  constructor(tools: ReadonlySet<string>) {
    this.#tools = tools;
  }

  /** Feeds prose; returns what may be shown now. */
  push(text: string): string {
    if (this.#holding) return this.#more(text);
    let out = "";
    let i = 0;
    while (i < text.length) {
      const nl = text.indexOf("\n", i);
      const j = nl < 0 ? text.length : nl + 1;
      if (this.#decided) {
        const seg = this.#tail + text.slice(i, j);
        this.#tail = "";
        if (this.#rest(seg, nl < 0, (t) => out += t, text.slice(j))) break;
      } else {
        this.#line += text.slice(i, j);
        const verdict = this.#classify(nl >= 0);
        if (verdict !== "prose" && verdict !== "open") {
          const held = this.#line + text.slice(j);
          this.#line = "";
          this.#holding = true;
          this.#weak = verdict === "call" ? null : this.#weakFor(verdict);
          this.released += out.length;
          return out + this.#more(held);
        }
        if (verdict === "prose") {
          const line = this.#line;
          this.#line = "";
          this.#decided = true;
          if (this.#rest(line, nl < 0, (t) => out += t, text.slice(j))) break;
        }
      }
      if (nl >= 0) this.#decided = false;
      i = j;
    }
    this.released += out.length;
    return out;
  }

  /**
   * Releases a prose line's `seg` up to a strong marker in it (then holds
   * from the marker, with `after`, and returns true); an unfinished line
   * keeps a possible marker's first characters back.
   */
  #rest(seg: string, open: boolean, out: (t: string) => void, after: string): boolean {
    const m = seg.search(MID_LINE);
    if (m >= 0) {
      out(seg.slice(0, m));
      this.#holding = true;
      this.held = seg.slice(m) + after;
      return true;
    }
    const p = open ? partialMarker(seg) : seg.length;
    out(seg.slice(0, p));
    this.#tail = seg.slice(p);
    return false;
  }

  /**
   * A line starting with a backtick: a closing fence is prose; an opening
   * fence for JSON or XML (or with no language) may hold a call.
   */
  #fence(t: string, complete: boolean): Verdict {
    if (!complete) return t.length > MAX_UNDECIDED ? "prose" : "open";
    if (!t.startsWith("```")) return "prose";
    if (this.#inFence) {
      this.#inFence = false;
      return "prose";
    }
    if (/^```[ \t]*(json|tool_call|xml)?[ \t]*\r?\n?$/i.test(t)) return "fence";
    this.#inFence = true;
    return "prose";
  }

  /**
   * Held text grows; a closed fence or element followed by more text is
   * released. Only the new text is searched for line ends, and the line
   * being read is kept apart (`#open`): reading the growing held text itself
   * would flatten it again for every chunk (quadratic work).
   */
  #more(text: string): string {
    const start = this.held.length;
    this.held += text;
    const w = this.#weak;
    if (w === null) return "";
    let i = 0;
    for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n", i)) {
      const a = this.#scan;
      const line = this.#open + text.slice(i, nl + 1);
      this.#open = "";
      i = nl + 1;
      this.#scan = start + i;
      if (!w.closed) w.closed = w.close(line, a === 0);
      else if (line.trim() !== "") {
        // More text after the block: it was not a call. Show it; read on from here.
        const held = this.held;
        const shown = held.slice(0, a);
        this.held = "";
        this.#holding = false;
        this.#weak = null;
        this.#suspect = false;
        this.#scan = 0;
        this.#decided = false;
        this.released += shown.length;
        return shown + this.push(held.slice(a));
      }
    }
    const rest = i === 0 ? text : text.slice(i);
    if (i > 0) this.#suspect = false;
    if (!this.#suspect && w.mark !== "") this.#suspect = rest.indexOf(w.mark) >= 0;
    this.#open += rest;
    return "";
  }

  /**
   * How a held fence, JSON block or element closes, and the one character
   * every closing line holds (none for JSON: such holds are read line by line).
   */
  #weakFor(kind: "fence" | "json" | "element"): Weak {
    const mark = kind === "fence" ? "`" : kind === "element" ? "<" : "";
    return { close: this.#closer(kind), closed: false, mark };
  }

  /** How a held fence, JSON block or element closes. */
  #closer(kind: "fence" | "json" | "element"): (line: string, first: boolean) => boolean {
    if (kind === "fence") return (line, first) => !first && /^[ \t]*```[ \t]*\r?\n?$/.test(line);
    if (kind === "json") return (line) => /^[ \t]*\}[ \t]*\r?\n?$/.test(line);
    const end = `</${this.#element}>`;
    return (line) => line.includes(end);
  }

  /** End of the reply: the undecided line and everything held. */
  flush(): string {
    const rest = this.#tail + this.#line + this.held;
    this.#tail = "";
    this.#line = "";
    this.held = "";
    return rest;
  }

  /**
   * Whether text that holds no {@link heeds} tag and no backtick would only
   * be held: a call in another dialect is held to the end, or a fence or an
   * element is held, not closed, and the line being read holds no mark of
   * its closer (the hold then reads such text when the next chunk comes).
   */
  get unread(): boolean {
    const w = this.#weak;
    return this.#holding && (w === null || (!w.closed && w.mark !== "" && !this.#suspect));
  }

  /** While {@link unread}: the first letters of the tags a closer begins with (by character code). */
  get heeds(): readonly number[] {
    return this.#weak === null || this.#element === "" ? NO_CODES : this.#elementFirst;
  }

  /** Whether everything after the released text is held. */
  get holding(): boolean {
    return this.#holding;
  }

  #classify(complete: boolean): Verdict {
    const t = this.#line.replace(/^[ \t]+/, "");
    if (t === "" || t === "\n") return complete ? "prose" : "open";
    const c = t[0];
    if (c === "{") return brace(t, complete);
    if (c === "[") return bracket(t, complete);
    if (c === "`") return this.#fence(t, complete);
    if (c === "f" && "functools[".startsWith(t.slice(0, 10))) {
      return t.length >= 10 || complete ? (t.startsWith("functools[") ? "call" : "prose") : "open";
    }
    if (c !== "<") return "prose";
    const m = /^<\/?([A-Za-z_|｜][^\s>=/]*)([\s>=/])?/.exec(t);
    if (m === null) return complete || t.length > 2 ? "prose" : "open";
    if (m[2] === undefined && !complete && t.length < MAX_UNDECIDED) return "open";
    const name = m[1];
    if (name.startsWith("|") || name.startsWith("｜") || DIALECT_TAGS.has(name)) return "call";
    if (!this.#tools.has(name) || t[1] === "/") return "prose";
    this.#element = name;
    this.#elementFirst = [name.charCodeAt(0)];
    return "element";
  }
}

/** A held fence or element: how it closes, whether it did, the character its closer holds. */
interface Weak {
  close: (line: string, first: boolean) => boolean;
  closed: boolean;
  mark: string;
}

const NO_CODES: readonly number[] = [];

const MID_LINE = /<\||<｜|\[TOOL_CALLS\]|<function[=_]|functools\[/;

const MARKERS = ["<|", "<｜", "[TOOL_CALLS]", "<function=", "<function_", "functools["];

/** Where a marker cut off at the end of `seg` may start (`seg.length` when none). */
function partialMarker(seg: string): number {
  for (let p = Math.max(0, seg.length - 11); p < seg.length; p++) {
    const t = seg.slice(p);
    if (MARKERS.some((m) => m.startsWith(t))) return p;
  }
  return seg.length;
}

type Verdict = "call" | "fence" | "json" | "element" | "prose" | "open";

/**
 * A line starting with `{`: a call when its first key names a tool
 * (`name`, `function`, `tool`, `tool_name`); a lone `{` may open a
 * pretty-printed call (held, released once it closes and text follows).
 */
function brace(t: string, complete: boolean): Verdict {
  const key = /^\{\s*"([^"]*)"/.exec(t);
  if (key !== null) return /^(name|function|tool|tool_name)$/.test(key[1]) ? "call" : "prose";
  if (/^\{\s*$/.test(t)) return complete ? "json" : "open";
  return !complete && /^\{\s*"[^"]*$/.test(t) && t.length < MAX_UNDECIDED ? "open" : "prose";
}

function bracket(t: string, complete: boolean): "call" | "prose" | "open" {
  if (/^\[\s*\{/.test(t) || t.startsWith("[TOOL_CALLS]") || /^\[[A-Za-z_][\w.]*\(/.test(t)) {
    return "call";
  }
  if (!complete && /^\[[A-Za-z_][\w.]*$/.test(t.trimEnd()) && t.length < 80) return "open";
  if (/^\[\s*$/.test(t) || "[TOOL_CALLS]".startsWith(t.trimEnd())) {
    return complete ? "prose" : "open";
  }
  return "prose";
}
