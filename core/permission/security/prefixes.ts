/**
 * Transparent prefixes: commands that run the rest of their arguments as a
 * command (`env`, `nice -n 5`, `timeout 10`, `nohup`, `call`, `start`), so the
 * rules judge the wrapped command instead.
 *
 * @module
 */
import type { Word } from "./types.ts";

type Skip = (args: Word[]) => number | null;

/** Options that take a value, per prefix; `null` result = not a prefix use. */
const PREFIXES: Record<string, Skip> = {
  env: (a) =>
    a.some((w) => /^(-S|--split-string)/.test(w.text))
      ? null
      : skipOptions(a, ["u", "C", "unset", "chdir", "P"], (t) => /^[A-Za-z_]\w*=/.test(t)),
  command: (a) => (a.some((w) => /^-[a-z]*[vV]/.test(w.text)) ? null : skipOptions(a, [])),
  builtin: (a) => skipOptions(a, []),
  exec: (a) => skipOptions(a, ["a"]),
  nohup: (a) => skipOptions(a, []),
  nice: (a) => skipOptions(a, ["n", "adjustment"], (t) => /^-\d+$/.test(t)),
  renice: () => null,
  timeout: (a) => skipOptions(a, ["s", "k", "signal", "kill-after"], undefined, 1),
  gtimeout: (a) => skipOptions(a, ["s", "k", "signal", "kill-after"], undefined, 1),
  time: (a) => skipOptions(a, ["f", "o", "format", "output"]),
  stdbuf: (a) => skipOptions(a, ["i", "o", "e", "input", "output", "error"]),
  ionice: (a) => skipOptions(a, ["c", "n", "p", "class", "classdata"]),
  setsid: (a) => skipOptions(a, []),
  unbuffer: (a) => skipOptions(a, []),
  chronic: (a) => skipOptions(a, []),
  nocache: (a) => skipOptions(a, []),
  caffeinate: (a) => skipOptions(a, ["t", "w"]),
  busybox: (a) => skipOptions(a, []),
  call: (a) => (a.length > 0 ? 0 : null),
  start: skipStart,
};

/**
 * How many arguments after the command word belong to the prefix, so the
 * wrapped command starts at `words[1 + n]`; null when `name` is not a
 * transparent prefix here or wraps nothing.
 *
 * @example
 * ```ts
 * prefixArgs("nice", words("-n 5 rm -rf /")); // 2
 * ```
 */
export function prefixArgs(name: string, args: Word[], shell: string): number | null {
  if (shell === "powershell" && name === "start-process") return null;
  const skip = PREFIXES[name];
  if (!skip) return null;
  if (name === "start" && shell !== "cmd") return null;
  if (name === "call" && shell !== "cmd") return null;
  const n = skip(args);
  return n === null || n >= args.length ? null : n;
}

/**
 * Skips options (`-x`, `--long`, `--long=v`), the values of the options in
 * `valued`, words accepted by `extra` (e.g. `VAR=val`), then `positional`
 * plain words (e.g. the duration of `timeout`).
 */
function skipOptions(
  args: Word[],
  valued: string[],
  extra?: (t: string) => boolean,
  positional = 0,
): number | null {
  let i = 0;
  while (i < args.length) {
    const t = args[i].text;
    if (t === "--") return i + 1 + positional;
    if (extra?.(t)) {
      i++;
    } else if (t.startsWith("--")) {
      i += !t.includes("=") && valued.includes(t.slice(2)) ? 2 : 1;
    } else if (t.startsWith("-") && t.length > 1) {
      i += t.length === 2 && valued.includes(t.slice(1)) ? 2 : 1;
    } else break;
  }
  return i + positional;
}

/** cmd's `start ["title"] [/options] command`. */
function skipStart(args: Word[]): number | null {
  let i = 0;
  if (args[0] && (args[0].text === "" || /\s/.test(args[0].text))) i++;
  while (i < args.length && args[i].text.startsWith("/")) {
    i += /^\/(d|node|affinity)$/i.test(args[i].text) ? 2 : 1;
  }
  return i;
}
