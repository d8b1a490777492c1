/**
 * Values of bash words from the tree-sitter tree: quotes removed, escapes
 * decoded (`\sudo`, `$'\x73udo'`), literal variables substituted, and
 * command substitutions read as code that runs before the command.
 *
 * @module
 */
import type { Node } from "web-tree-sitter";
import { worst } from "./source_rank.ts";
import type { Source, Word } from "./types.ts";

/** What word evaluation needs from the reader. */
export interface WordEnv {
  /** The value of a variable if known now. */
  lookup(name: string): string | undefined;
  /** Where an unknown variable's value came from, if recorded (`X=$(curl …)`). */
  origin(name: string): Source | undefined;
  /** Reads a `$(…)`, backtick or `<(…)` body as code; returns its output. */
  substitute(node: Node): Source;
  /** `${name@P}`: reads the variable's value as a prompt string (its substitutions run). */
  prompt?(name: string): Source;
}

/**
 * The value of a word-like node.
 *
 * @example
 * ```ts
 * wordOf(node /* s''udo *\/, env).text; // "sudo"
 * ```
 */
export function wordOf(node: Node, env: WordEnv): Word {
  switch (node.type) {
    case "word":
      return lit(unescapeBare(node.text));
    case "number":
    case "brace_expression":
      return lit(node.text);
    case "raw_string":
      return lit(node.text.slice(1, -1));
    case "ansi_c_string":
      return lit(decodeAnsiC(node.text.slice(2, -1)));
    case "string":
    case "translated_string":
      return joinParts(node.children.filter((c) => c.type !== '"' && c.type !== '$"'), env, true);
    case "concatenation":
      return joinParts(node.children, env, false);
    case "simple_expansion":
    case "expansion":
      return expansion(node, env);
    case "command_substitution": {
      const out = env.substitute(node);
      if (out.kind === "literal") return lit(out.text.replace(/\n+$/, ""));
      return { text: node.text, literal: false, sources: [out] };
    }
    case "process_substitution":
      return { text: node.text, literal: false, sources: [env.substitute(node)] };
    default:
      return opaque(node, env);
  }
}

function joinParts(parts: Node[], env: WordEnv, quoted: boolean): Word {
  let text = "";
  let literal = true;
  const sources: Source[] = [];
  for (const p of parts) {
    const w = quoted && p.type === "string_content" ? lit(unescapeQuoted(p.text)) : wordOf(p, env);
    text += w.text;
    literal &&= w.literal;
    sources.push(...w.sources);
  }
  return { text, literal, sources };
}

function expansion(node: Node, env: WordEnv): Word {
  const promptOf = /^\$\{([A-Za-z_]\w*)@P\}$/.exec(node.text);
  if (promptOf && env.prompt) {
    const out = env.prompt(promptOf[1]);
    return { text: node.text, literal: false, sources: [out] };
  }
  const inner = node.namedChildren.filter((c) => c !== null);
  const simple = inner.length === 1 &&
    (inner[0].type === "variable_name" || inner[0].type === "special_variable_name");
  const plain = node.type === "simple_expansion" || /^\$\{[A-Za-z_]\w*\}$/.test(node.text);
  if (simple && plain) {
    const value = env.lookup(inner[0].text);
    if (value !== undefined) return lit(value);
  }
  const w = opaque(node, env);
  const origin = simple ? env.origin(inner[0].text) : undefined;
  const fallback: Source = origin ?? { kind: "variable", detail: node.text };
  return { ...w, sources: w.sources.length > 0 ? w.sources : [fallback] };
}

/** A part whose value is unknown; substitutions inside still run. */
function opaque(node: Node, env: WordEnv): Word {
  const sources: Source[] = [];
  for (const sub of node.descendantsOfType(["command_substitution", "process_substitution"])) {
    if (sub && !hasSubstitutionAncestor(sub, node)) sources.push(env.substitute(sub));
  }
  const src = worst(sources);
  return { text: node.text, literal: false, sources: src ? [src] : [] };
}

function hasSubstitutionAncestor(node: Node, stop: Node): boolean {
  for (let p = node.parent; p && p.id !== stop.id; p = p.parent) {
    if (p.type === "command_substitution" || p.type === "process_substitution") return true;
  }
  return false;
}

function lit(text: string): Word {
  return { text, literal: true, sources: [] };
}

/** Removes backslash escapes of an unquoted word (`\sudo` → `sudo`, `\;` → `;`). */
export function unescapeBare(text: string): string {
  return text.replace(/\\\n/g, "").replace(/\\(.)/gs, "$1");
}

function unescapeQuoted(text: string): string {
  return text.replace(/\\\n/g, "").replace(/\\([\\"$`])/g, "$1");
}

const C_ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
};

/** Decodes the body of `$'…'` (`\x73`, `\163`, `\u0073`, `\n`). */
export function decodeAnsiC(body: string): string {
  return body.replace(
    /\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs,
    (_, e: string) => {
      if (/^[xuU]/.test(e)) return String.fromCodePoint(parseInt(e.slice(1), 16));
      if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8));
      if (e.startsWith("c")) return String.fromCharCode(e.charCodeAt(1) & 31);
      return C_ESCAPES[e] ?? e;
    },
  );
}
