/**
 * `run_skill_script`: runs one script under a skill's `scripts/` in the
 * sandbox (see core/skills/sandbox.ts). Only the script's JSON summary and
 * the files it produced under `build/` come back — never its source.
 *
 * `args` is a JSON array of strings (`["--title", "Q3 review"]`) or words
 * with shell-style quotes (`--title "Q3 review"`); nothing is expanded.
 *
 * @module
 */
import * as z from "zod";
import { defineTool, fail } from "./define.ts";

const schema = z.object({
  name: z.string().trim().min(1, "must not be empty"),
  script: z.string().trim().min(1, "must not be empty"),
  args: z.string().optional(),
});

type Args = z.infer<typeof schema>;

/** Runs a skill's script and returns its summary and produced files. */
export const runSkillScript = defineTool<Args>({
  name: "run_skill_script",
  kind: "exec",
  description:
    "Run a skill's script (path under its scripts/; args: JSON array or quoted words); it writes only under build/ and returns a JSON summary.",
  params: [
    { name: "name", description: "The skill's name", required: true },
    {
      name: "script",
      description: "The script's path under scripts/, e.g. make_deck.py",
      required: true,
    },
    {
      name: "args",
      description: 'Arguments: a JSON array of strings, or words with quotes, e.g. --title "Q3"',
      required: false,
    },
  ],
  schema,
  example: { name: "slide-deck", script: "make_deck.py", args: '--title "Q3 review"' },
  async execute(args, ctx) {
    if (!ctx.skills) return fail("no_skills", "No skills are installed in this session");
    const argv = splitArgs(args.args ?? "");
    if (!argv.ok) return fail("invalid_args", argv.message);
    return await ctx.skills.run(
      { name: args.name, script: args.script, args: argv.words },
      ctx.signal,
    );
  },
  async preview(args, ctx) {
    const argv = splitArgs(args.args ?? "");
    if (!ctx.skills || !argv.ok) return { kind: "none" };
    return await ctx.skills.preview({ name: args.name, script: args.script, args: argv.words });
  },
});

/** Reads `args`: a JSON array of strings, or words split at spaces with '…' and "…" quotes. */
export function splitArgs(
  text: string,
): { ok: true; words: string[] } | { ok: false; message: string } {
  const t = text.trim();
  if (t === "") return { ok: true, words: [] };
  if (t.startsWith("[")) {
    try {
      const v = JSON.parse(t);
      if (Array.isArray(v) && v.every((x) => typeof x === "string" || typeof x === "number")) {
        return { ok: true, words: v.map(String) };
      }
    } catch {
      // not JSON: read as words below
    }
  }
  const words: string[] = [];
  let word: string | null = null;
  let quote: string | null = null;
  for (const ch of t) {
    if (quote) {
      if (ch === quote) quote = null;
      else word += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      word ??= "";
    } else if (/\s/.test(ch)) {
      if (word !== null) words.push(word);
      word = null;
    } else word = (word ?? "") + ch;
  }
  if (quote) return { ok: false, message: `Unterminated ${quote} quote in args "${text}"` };
  if (word !== null) words.push(word);
  return { ok: true, words };
}
