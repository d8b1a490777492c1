/**
 * Turns a command as written into the segments the rules judge: skips
 * transparent prefixes, normalises the command word, and follows code the
 * command runs (see `nested.ts`).
 *
 * @module
 */
import type { ReadContext } from "./context.ts";
import { normaliseName } from "./names.ts";
import { envWords } from "./env_code.ts";
import { runNested } from "./nested.ts";
import { prefixArgs } from "./prefixes.ts";
import { resolvedPath } from "./paths.ts";
import { outputOf, worst } from "./sources.ts";
import type { RawCommand, Segment, Source } from "./types.ts";

/** The segment a command became (null for a bare redirection) and what it writes to stdout. */
export interface Emitted {
  seg: Segment | null;
  out: Source;
}

/**
 * Records `raw` (and everything it runs) as segments in `rc`.
 *
 * @example
 * ```ts
 * const { seg } = emit({ shell: "bash", words, text: "nice rm -rf /", writes: [], stdin: null }, rc);
 * seg?.name; // "rm"
 * ```
 */
export function emit(raw: RawCommand, rc: ReadContext): Emitted {
  let words = raw.words;
  for (let hop = 0; hop < 16 && words.length > 0; hop++) {
    const head = words[0];
    if (!head.literal) return dynamic(raw, words, rc);
    const name = normaliseName(head.text, raw.shell);
    const skip = prefixArgs(name, words.slice(1), raw.shell);
    if (skip === null) return record(raw, name, words, rc);
    if (name === "env") {
      raw = { ...raw, env: [...raw.env ?? [], ...envWords(words.slice(1, 1 + skip))] };
    }
    words = words.slice(1 + skip);
  }
  if (raw.writes.length === 0 && !raw.reads?.length) {
    return { seg: null, out: raw.stdin ?? { kind: "program", detail: raw.text } };
  }
  return record(raw, "", [{ text: "", literal: true, sources: [] }], rc);
}

function record(
  raw: RawCommand,
  name: string,
  words: RawCommand["words"],
  rc: ReadContext,
): Emitted {
  const seg: Segment = {
    shell: raw.shell,
    name,
    rawName: words[0].text,
    args: words.slice(1),
    text: raw.text,
    writes: raw.writes,
    stdin: raw.stdin,
    reads: raw.reads,
    pipeline: raw.pipeline ?? raw.text,
    cwd: rc.cwd,
    ...(raw.env?.length ? { env: raw.env } : {}),
  };
  rc.segments.push(seg);
  changeDirectory(seg, rc);
  runNested(seg, rc, emit);
  return { seg, out: outputOf(seg) };
}

const CD = new Set(["cd", "chdir", "pushd", "set-location", "push-location"]);

/** Follows `cd` so later segments resolve relative paths where they will run. */
function changeDirectory(seg: Segment, rc: ReadContext): void {
  if (!CD.has(seg.name)) return;
  const target = seg.args.find((a) => !/^(-[A-Za-z]+|\/d)$/i.test(a.text));
  if (!target) {
    if (seg.shell === "bash") rc.cwd = rc.rules.home;
    return;
  }
  const next = target.literal && target.text !== "-"
    ? resolvedPath(target.text, { cwd: rc.cwd, home: rc.rules.home })
    : null;
  rc.cwd = next ?? "";
}

function dynamic(raw: RawCommand, words: RawCommand["words"], rc: ReadContext): Emitted {
  const head = words[0];
  const seg: Segment = {
    shell: raw.shell,
    name: "",
    rawName: head.text,
    args: words.slice(1),
    text: raw.text,
    writes: raw.writes,
    stdin: raw.stdin,
    reads: raw.reads,
    pipeline: raw.pipeline ?? raw.text,
    dynamic: true,
    cwd: rc.cwd,
    code: worst(head.sources) ?? { kind: "variable", detail: head.text },
  };
  rc.segments.push(seg);
  return { seg, out: { kind: "program", detail: raw.text } };
}
