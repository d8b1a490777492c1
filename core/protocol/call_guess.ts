/**
 * Names the tool of a call written in another dialect from its first few
 * hundred characters, for the live line while the call streams (the
 * canonical form has its own, richer summary). Display only: the parser
 * decides at the end of the reply.
 *
 * @module
 */

const LOOK = 400;

const NAME = new RegExp(
  [
    String.raw`"name"\s*:\s*"([\w.-]+)"`,
    String.raw`<function=([\w.-]+)`,
    String.raw`<invoke\s+name=["']([\w.-]+)`,
    String.raw`<tool_call>\s*([\w.-]+)\s*(?:<arg_key>|\n)`,
    String.raw`\[TOOL_CALLS\]\s*([\w.-]+)\[`,
    String.raw`functions\.([\w.-]+):`,
    String.raw`<｜tool▁sep｜>([\w.-]+)`,
    String.raw`^\s*\[([\w.-]+)\(`,
    String.raw`^\s*<([\w.-]+)>`,
  ].join("|"),
  "gm",
);

/**
 * Looks at the start of a call once per push until it finds a known tool's
 * name or has seen {@link LOOK} characters.
 *
 * @example
 * ```ts
 * const g = new CallGuess(new Set(["read_file"]));
 * g.look('<tool_call>\n{"name": "read_file"'); // "read_file"
 * ```
 */
export class CallGuess {
  #tools: ReadonlySet<string>;
  #done = false;

  constructor(tools: ReadonlySet<string>) {
    this.#tools = tools;
  }

  /** Whether looking is over (a name was found or too much text seen). */
  get done(): boolean {
    return this.#done;
  }

  /** The tool named at the start of `call` (the call's text so far), once; else null. */
  look(call: string): string | null {
    if (this.#done) return null;
    for (const m of call.slice(0, LOOK).matchAll(NAME)) {
      const name = m.slice(1).find((g) => g !== undefined);
      if (name !== undefined && this.#tools.has(name)) {
        this.#done = true;
        return name;
      }
    }
    if (call.length > LOOK) this.#done = true;
    return null;
  }
}
