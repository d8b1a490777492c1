/**
 * Reads bash (and sh/zsh) code with tree-sitter-bash: every simple command
 * in lists, pipelines, `if`/loops, subshells, groups, functions and
 * substitutions becomes a segment; pipes carry what each stage writes.
 *
 * @module
 */
import type { Node, Parser } from "web-tree-sitter";
import { type WordEnv, wordOf } from "./bash_words.ts";
import { addFinding, type ReadContext } from "./context.ts";
import { assignedVariable } from "./env_code.ts";
import { emit } from "./expand.ts";
import { literal, worst } from "./sources.ts";
import type { EnvAssignment, Source, Word } from "./types.ts";

const EMPTY: Word = { text: "", literal: true, sources: [] };

const PARSE_ERROR = "parse-error";
const FORK_BOMB = "fork-bomb";

/**
 * Reads `text` as bash into `rc` and returns what it writes to stdout.
 *
 * @example
 * ```ts
 * readBash(await bashParser(), "echo hi | sudo tee /etc/x", rc);
 * rc.segments.map((s) => s.name); // ["echo", "sudo"]
 * ```
 */
export function readBash(parser: Parser, text: string, rc: ReadContext): Source {
  const tree = parser.parse(text);
  if (!tree) {
    addFinding(rc, PARSE_ERROR, "The command could not be parsed", text);
    return { kind: "program", detail: text };
  }
  try {
    if (tree.rootNode.hasError) {
      const bad = tree.rootNode.descendantsOfType(["ERROR"])[0] ?? tree.rootNode;
      addFinding(
        rc,
        PARSE_ERROR,
        "The command is not valid shell syntax, so it cannot be checked reliably",
        bad.text || text,
      );
    }
    return new BashWalker(rc).visit(tree.rootNode) ?? literal("", "bash");
  } finally {
    tree.delete();
  }
}

class BashWalker implements WordEnv {
  constructor(private readonly rc: ReadContext) {}

  lookup(name: string): string | undefined {
    if (name === "HOME") return this.rc.rules.home;
    if (name === "PWD") return this.rc.rules.cwd;
    return this.rc.vars.get(name);
  }

  origin(name: string): Source | undefined {
    return this.rc.taint.get(name);
  }

  substitute(node: Node): Source {
    return this.visitChildren(node) ?? literal("", "bash");
  }

  /** `${x@P}` expands x's value as a prompt, running the substitutions in it. */
  prompt(name: string): Source {
    const value = this.rc.vars.get(name);
    return this.rc.read(value ?? `eval "$${name}"`, "bash", { sameScope: true });
  }

  visit(node: Node, stdin: Source | null = null, pipeline?: string): Source | undefined {
    switch (node.type) {
      case "command":
        return this.command(node, [], stdin, pipeline);
      case "redirected_statement":
        return this.redirected(node, stdin, pipeline);
      case "pipeline":
        return this.pipeline(node);
      case "variable_assignment":
        return this.assign(node);
      case "declaration_command":
        node.namedChildren.forEach((c) =>
          c?.type === "variable_assignment" ? this.assign(c) : this.words(c)
        );
        return undefined;
      case "unset_command":
        node.namedChildren.forEach((c) => c && this.rc.vars.delete(c.text));
        return undefined;
      case "function_definition":
        this.forkBomb(node);
        return this.visitChildren(node);
      case "comment":
        return undefined;
      default:
        return this.visitChildren(node);
    }
  }

  private visitChildren(node: Node): Source | undefined {
    let out: Source | undefined;
    for (const c of node.namedChildren) {
      if (!c) continue;
      out = isWordLike(c) ? (this.words(c), out) : this.visit(c) ?? out;
    }
    return out;
  }

  /** Evaluates a word for the substitutions it runs. */
  private words(node: Node | null): Word | undefined {
    return node ? wordOf(node, this) : undefined;
  }

  /** An unquoted `$X` or `$(…)` is split on IFS (blanks unless set), as bash does. */
  private split(node: Node): Word[] {
    const w = wordOf(node, this);
    const unquoted = /^(simple_expansion|expansion|command_substitution)$/.test(node.type);
    const parts = unquoted && w.literal ? splitIfs(w.text, this.rc.vars.get("IFS")) : [w.text];
    if (parts.length < 2) return [w];
    return parts.map((text) => ({ text, literal: true, sources: [] }));
  }

  private pipeline(node: Node, first: Source | null = null): Source | undefined {
    let input: Source | null = first;
    const text = outermost(node).text;
    for (const stage of stages(node)) input = this.visit(stage, input, text) ?? null;
    return input ?? undefined;
  }

  private assign(node: Node): undefined {
    const name = node.childForFieldName("name")?.text;
    const value = node.childForFieldName("value");
    const w = value ? wordOf(value, this) : { text: "", literal: true, sources: [] };
    if (name && !node.text.includes("+=")) {
      if (w.literal) this.rc.vars.set(name, w.text);
      else this.rc.vars.delete(name);
      const origin = w.literal ? undefined : worst(w.sources);
      if (origin) this.rc.taint.set(name, origin);
      else this.rc.taint.delete(name);
      assignedVariable(name, w, this.rc, this.rc.vars); // later commands may run it
    }
    return undefined;
  }

  private redirected(node: Node, stdin: Source | null, pipeline?: string): Source | undefined {
    const body = node.childForFieldName("body");
    const redirects = node.childrenForFieldName("redirect");
    if (body?.type === "command") return this.command(body, redirects, stdin, pipeline);
    const out = body ? this.visit(body, stdin, pipeline) : undefined;
    const { writes, reads } = this.redirects(redirects);
    if (writes.length > 0 || reads.length > 0) {
      const raw = {
        shell: "bash" as const,
        words: [],
        text: node.text,
        writes,
        reads,
        stdin: null,
      };
      emit({ ...raw, pipeline }, this.rc);
    }
    return out;
  }

  private command(node: Node, outer: Node[], stdin: Source | null, pipeline?: string): Source {
    const words: Word[] = [];
    const inner: Node[] = [];
    const env: EnvAssignment[] = [];
    for (let i = 0; i < node.childCount; i++) {
      const c = node.child(i);
      const field = node.fieldNameForChild(i);
      if (!c) continue;
      if (c.type === "variable_assignment") {
        const value = this.words(c.childForFieldName("value")) ?? EMPTY;
        env.push({ name: c.childForFieldName("name")?.text ?? "", value });
      } else if (field === "redirect") inner.push(c);
      else if (c.type === "command_name") words.push(...this.split(c.namedChildren[0] ?? c));
      else if (field === "argument") words.push(...this.split(c));
    }
    const r = this.redirects([...inner, ...outer]);
    const text = outer.length > 0 ? node.parent?.text ?? node.text : node.text;
    const raw = {
      shell: "bash" as const,
      words,
      text,
      writes: r.writes,
      stdin: r.stdin ?? stdin,
      reads: r.reads,
      pipeline,
      ...(env.length > 0 ? { env } : {}),
    };
    const out = emit(raw, this.rc).out;
    for (const next of r.then) {
      if (next.type === "pipeline") this.pipeline(next, out);
      else this.visit(next);
    }
    return out;
  }

  /** Writes and stdin of redirections; `then` holds code tree-sitter nests in a heredoc line. */
  private redirects(
    nodes: Node[],
  ): { writes: Word[]; reads: Word[]; stdin: Source | null; then: Node[] } {
    const writes: Word[] = [];
    const reads: Word[] = [];
    const then: Node[] = [];
    let stdin: Source | null = null;
    for (const r of nodes) {
      if (r.type === "herestring_redirect") {
        const w = wordOf(r.namedChildren[0] ?? r, this);
        stdin = w.literal
          ? literal(w.text, "bash")
          : worst(w.sources) ?? { kind: "variable", detail: w.text };
      } else if (r.type === "heredoc_redirect") {
        stdin = this.heredoc(r);
        const rest = r.namedChildren.filter((c) =>
          c && !/^heredoc_(start|body|end)$/.test(c.type)
        ) as Node[];
        writes.push(...this.redirects(rest.filter((c) => c.type === "file_redirect")).writes);
        then.push(...rest.filter((c) => !c.type.endsWith("_redirect")));
      } else if (r.type === "file_redirect") {
        const dest = r.childForFieldName("destination");
        const op = r.children.find((c) => c && !c.isNamed)?.type ?? ">";
        if (!dest) continue;
        const w = wordOf(dest, this);
        if (op === "<") {
          reads.push(w);
          stdin = w.literal ? { kind: "file", detail: w.text } : worst(w.sources) ?? null;
        } else if (/>/.test(op) && !/^(\d+|-)$/.test(w.text)) writes.push(w);
      }
    }
    return { writes, reads, stdin, then };
  }

  private heredoc(node: Node): Source {
    const body = node.namedChildren.find((c) => c?.type === "heredoc_body");
    if (!body) return literal("", "bash");
    for (const c of body.namedChildren) if (c && c.type !== "heredoc_content") wordOf(c, this);
    return literal(body.text, "bash");
  }

  private forkBomb(node: Node): void {
    const name = node.childForFieldName("name")?.text;
    const body = node.childForFieldName("body");
    if (!name || !body) return;
    const calls = body.descendantsOfType(["command_name"]).filter((c) => c?.text === name).length;
    if (calls >= 2) {
      addFinding(
        this.rc,
        FORK_BOMB,
        `Function "${name}" starts copies of itself (fork bomb)`,
        node.text,
      );
    }
  }
}

/** The stages of a pipeline, with pipelines nested by tree-sitter flattened. */
function stages(node: Node): Node[] {
  return node.namedChildren.flatMap((c) =>
    !c || c.type === "comment" ? [] : c.type === "pipeline" ? stages(c) : [c]
  );
}

/** The outermost pipeline or redirection around `node`, whose text is the whole pipeline. */
function outermost(node: Node): Node {
  let top = node;
  while (
    top.parent && (top.parent.type === "pipeline" || top.parent.type === "redirected_statement")
  ) top = top.parent;
  return top;
}

function isWordLike(node: Node): boolean {
  return [
    "word",
    "string",
    "raw_string",
    "concatenation",
    "simple_expansion",
    "expansion",
    "number",
  ]
    .includes(node.type) ||
    node.type === "command_substitution" || node.type === "process_substitution";
}

/** Fields of an unquoted expansion: split on the characters of IFS (space, tab, newline unset). */
function splitIfs(text: string, ifs = " \t\n"): string[] {
  if (ifs === "") return [text];
  const chars = [...ifs].map((c) => c.replace(/[\\\]^-]/g, "\\$&")).join("");
  return text.split(new RegExp(`[${chars}]+`)).filter((f) => f !== "");
}
