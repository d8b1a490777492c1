/**
 * Reads the edit-block corpus in tests/fixtures/blocks/: one `.case` file per
 * case, in sections:
 *
 * - `=== file <path> [crlf] [noeol]` — a file before the reply;
 * - `=== reply [crlf]` — the reply;
 * - `=== expect <path> [crlf] [noeol]` — a file after a successful apply;
 * - `=== gone <path>` — a file the reply deletes;
 * - `=== error <kind> <block>` — the expected failure (nothing changes).
 *
 * Section text is its lines, each ending in a newline; `crlf` turns the line
 * breaks into CRLF and `noeol` drops the last one. Lines before the first
 * section starting with `#` describe the case.
 */

/** One corpus case. */
export interface BlockCase {
  name: string;
  about: string;
  files: Record<string, string>;
  reply: string;
  expect: Record<string, string | null>;
  error?: { kind: string; block: number };
}

const CORPUS = new URL("../../fixtures/blocks/", import.meta.url);
const HEAD = /^=== (file|reply|expect|gone|error)(?: (.*))?$/;

/** Every case, sorted by name. */
export async function loadCases(): Promise<BlockCase[]> {
  const names: string[] = [];
  for await (const e of Deno.readDir(CORPUS)) if (e.name.endsWith(".case")) names.push(e.name);
  names.sort();
  return await Promise.all(
    names.map(async (n) => readCase(n, await Deno.readTextFile(new URL(n, CORPUS)))),
  );
}

/** Parses one case file. */
export function readCase(name: string, text: string): BlockCase {
  const c: BlockCase = { name, about: "", files: {}, reply: "", expect: {} };
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  let i = 0;
  const about: string[] = [];
  while (i < lines.length && !HEAD.test(lines[i])) about.push(lines[i++].replace(/^#\s*/, ""));
  c.about = about.join(" ");
  while (i < lines.length) {
    const [, kind, rest = ""] = HEAD.exec(lines[i++])!;
    const body: string[] = [];
    while (i < lines.length && !HEAD.test(lines[i])) body.push(lines[i++]);
    const { path, flags } = splitFlags(rest);
    const content = render(body, flags);
    if (kind === "file") c.files[path] = content;
    else if (kind === "reply") c.reply = content;
    else if (kind === "expect") c.expect[path] = content;
    else if (kind === "gone") c.expect[path] = null;
    else {
      const [k, n] = rest.split(" ");
      c.error = { kind: k, block: Number(n) };
    }
  }
  return c;
}

function splitFlags(rest: string): { path: string; flags: Set<string> } {
  const words = rest.split(" ");
  const flags = new Set<string>();
  while (words.length > 1 && ["crlf", "noeol"].includes(words[words.length - 1])) {
    flags.add(words.pop()!);
  }
  return { path: words.join(" "), flags };
}

function render(body: string[], flags: Set<string>): string {
  if (body.length === 0) return "";
  const eol = flags.has("crlf") ? "\r\n" : "\n";
  const text = body.map((l) => l + eol).join("");
  return flags.has("noeol") ? text.slice(0, -eol.length) : text;
}
