/**
 * The "pythonic" tool-call dialect of Llama 3.2 and Llama 4 (vLLM's
 * `pythonic` parser): a Python list of calls with keyword arguments,
 * `[read_file(path="src/main.ts")]`. Only literals are read (strings,
 * numbers, `True`/`False`/`None`, lists of them); anything else is not a call.
 *
 * @module
 */
import type { XmlCall } from "./dialect_xml.ts";

/** The calls of `text` (a whole `[…]` list), or null when it is not such a list. */
export function pythonCalls(text: string): XmlCall[] | null {
  const r = new Reader(text.trim());
  if (!r.eat("[")) return null;
  const calls: XmlCall[] = [];
  while (true) {
    const call = r.call();
    if (call === null) return null;
    calls.push(call);
    if (r.eat(",")) continue;
    return r.eat("]") && r.done() ? calls : null;
  }
}

class Reader {
  #s: string;
  #i = 0;

  constructor(s: string) {
    this.#s = s;
  }

  done(): boolean {
    this.#space();
    return this.#i === this.#s.length;
  }

  eat(c: string): boolean {
    this.#space();
    if (this.#s[this.#i] !== c) return false;
    this.#i++;
    return true;
  }

  call(): XmlCall | null {
    const name = this.#name();
    if (name === null || !this.eat("(")) return null;
    const params: Record<string, unknown> = {};
    if (this.eat(")")) return { name, params };
    while (true) {
      const key = this.#name();
      if (key === null || !this.eat("=")) return null;
      const value = this.#value();
      if (value === undefined) return null;
      params[key] = value;
      if (this.eat(",")) continue;
      return this.eat(")") ? { name, params } : null;
    }
  }

  #space(): void {
    while (this.#i < this.#s.length && /\s/.test(this.#s[this.#i])) this.#i++;
  }

  #name(): string | null {
    this.#space();
    const m = /^[A-Za-z_][\w.]*/.exec(this.#s.slice(this.#i, this.#i + 80));
    if (m === null) return null;
    this.#i += m[0].length;
    return m[0];
  }

  /** A literal; undefined when there is none. */
  #value(): unknown {
    this.#space();
    const c = this.#s[this.#i];
    if (c === '"' || c === "'") return this.#string(c);
    if (c === "[") {
      this.#i++;
      const list: unknown[] = [];
      if (this.eat("]")) return list;
      while (true) {
        const v = this.#value();
        if (v === undefined) return undefined;
        list.push(v);
        if (this.eat(",")) continue;
        return this.eat("]") ? list : undefined;
      }
    }
    const m = /^(-?\d+(?:\.\d+)?|True|False|None)\b/.exec(this.#s.slice(this.#i, this.#i + 40));
    if (m === null) return undefined;
    this.#i += m[0].length;
    return m[0] === "True"
      ? true
      : m[0] === "False"
      ? false
      : m[0] === "None"
      ? null
      : Number(m[0]);
  }

  #string(quote: string): string | undefined {
    const s = this.#s;
    let out = "";
    for (let i = this.#i + 1; i < s.length; i++) {
      const c = s[i];
      if (c === quote) {
        this.#i = i + 1;
        return out;
      }
      if (c !== "\\") {
        out += c;
        continue;
      }
      const e = s[++i];
      out += e === "n" ? "\n" : e === "t" ? "\t" : e === "r" ? "\r" : e;
    }
    return undefined;
  }
}
