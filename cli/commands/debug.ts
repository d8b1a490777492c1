/**
 * `minoc debug last [--json]`: the timings per phase and the errors of the
 * last session run in debug mode, read from `.minoc/logs/debug.log`.
 *
 * `minoc debug parse`: shows what a model's reply means to minoc's tool-call
 * parser. Reads one reply on stdin (raw UTF-8, CRLF kept) and prints the
 * call, "no call", or the parse error.
 *
 * - `--json` prints `{"tool":"…","params":{…}}`, `{"tool":null,"params":{}}`
 *   or `{"error":"unclosed"}`, with `"dialect"` when the call was not in the
 *   canonical form.
 * - `--batch` reads JSON lines `{"id","input"}` and prints one result line per
 *   input, with its `id`.
 * - `--chunks` reads a JSON array of strings and feeds them in order, as a
 *   stream.
 *
 * @module
 */
import { join } from "node:path";
import { Command } from "@commander-js/extra-typings";
import type { ParseResult, ToolSpec } from "../../interfaces/tool.ts";
import { CallScanner, parseReply, type StreamUpdate } from "../../core/protocol/xml.ts";
import { CliError, type CliIO, EXIT } from "../io.ts";
import { debugApplyCommand } from "./debug_apply.ts";
import { visible } from "../../core/protocol/visible.ts";

/** A parse result in the `--json` shape. */
export type JsonResult =
  | { tool: string; params: Record<string, string | string[]>; dialect?: string }
  | { tool: null; params: Record<string, never> }
  | { error: string; dialect?: string };

/** Converts a parse result to the `--json` shape. */
export function toJsonResult(result: ParseResult): JsonResult {
  if (result.kind === "none") return { tool: null, params: {} };
  const d = result.dialect;
  const dialect = d === undefined || d === "canonical" ? {} : { dialect: d };
  if (result.kind === "error") return { error: result.error, ...dialect };
  return { tool: result.call.tool, params: result.call.params, ...dialect };
}

const DIALECT_HELP = `
Besides minoc's own form, the parser reads the tool-call formats open models
are trained on (dialect ids as in the session file and "minoc history stats"):
  hermes_json     <tool_call>{"name": …, "arguments": …}</tool_call> (Qwen2.5/3, Hermes)
  qwen3_coder     <tool_call><function=NAME><parameter=P>…</parameter></function>
  llama_function  <function=NAME>{…}</function> (Llama 3.1)
  anthropic_xml   <function_calls><invoke name="NAME"><parameter name="P">…
  glm4            <tool_call>NAME<arg_key>P</arg_key><arg_value>…</arg_value>
  mistral         [TOOL_CALLS][{…}] or [TOOL_CALLS]NAME[ARGS]{…}
  llama3_json     <|python_tag|>{"name": …, "parameters": …}
  granite         <|tool_call|>[{…}]
  internlm        <|action_start|><|plugin|>{…}<|action_end|>
  kimi_k2         <|tool_call_begin|>functions.NAME:0<|tool_call_argument_begin|>{…}
  deepseek        <｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME + a JSON fence
  phi4_functools  functools[{…}]
  pythonic        [read_file(path="a")] ending the reply (Llama 3.2, Llama 4)
  json_fence      a \`\`\`json fence with {"name": …} that ends the reply
  bare_json       a JSON object naming a known tool that ends the reply
  bare_xml        <TOOL><P>…</P></TOOL> without <tool_call>, ending the reply
Reasoning (<think>, <thinking>, <reasoning>, or a reply that starts inside
reasoning and shows only </think>) is split off first: no call is taken from
it, nor from inline code. Two calls, whatever their dialects, are an error.`;

interface ParseOptions {
  json?: boolean;
  batch?: boolean;
  chunks?: boolean;
}

/**
 * The `debug` command with its `parse` subcommand. `specs` is called when the
 * command runs, so building the program does not load the tools.
 *
 * @example
 * ```ts
 * program.addCommand(debugCommand(io, () => tools));
 * ```
 */
export function debugCommand(
  io: CliIO,
  specs: () => readonly ToolSpec[],
  logsDir: () => Promise<string> = defaultLogsDir,
): Command {
  const last = new Command("last")
    .description("summarise the timings and errors of the last session run with --debug")
    .option("--json", "print the summary as one JSON object")
    .action(async (opts) => {
      await debugLast(io, await logsDir(), opts.json === true);
    });
  const parse = new Command("parse")
    .description("parse one model reply from stdin and print the tool call it holds")
    .option("--json", "print the result as one JSON object")
    .option("--batch", 'read JSON lines {"id","input"} and print one JSON result line each')
    .option("--chunks", "read a JSON array of strings and feed them in order, as a stream")
    .addHelpText("after", DIALECT_HELP)
    .action(async (opts) => {
      await debugParse(io, specs(), opts);
    });
  return new Command("debug")
    .description("tools for looking at what minoc makes of a model's output")
    .addCommand(parse)
    .addCommand(debugApplyCommand(io))
    .addCommand(last);
}

/** Prints the last debug session's summary from `logsDir`. */
export async function debugLast(io: CliIO, logsDir: string, json: boolean): Promise<void> {
  const { formatSessionSummary, lastSessionSummary } = await import(
    "../../core/history/debug_summary.ts"
  );
  const summary = await lastSessionSummary(logsDir);
  if (!summary) {
    throw new CliError(
      `No debug records in "${join(logsDir, "debug.log")}": run minoc with --debug first`,
      EXIT.failed,
    );
  }
  io.out(json ? `${JSON.stringify(summary)}\n` : formatSessionSummary(summary));
}

async function defaultLogsDir(): Promise<string> {
  const { homeInputs, homePaths, resolveHome } = await import("../../core/config/paths.ts");
  return homePaths((await resolveHome(homeInputs())).dir).logs;
}

/** Runs `debug parse` with the given options. */
export async function debugParse(
  io: CliIO,
  specs: readonly ToolSpec[],
  opts: ParseOptions,
): Promise<void> {
  if (opts.batch && opts.chunks) {
    throw new CliError("Use either --batch or --chunks, not both", EXIT.usage);
  }
  const input = await io.readStdin();
  if (opts.batch) return batch(io, specs, input);
  const scanner = new CallScanner(specs);
  const updates = (opts.chunks ? readChunks(input) : [input]).map((c) => scanner.push(c));
  const result = scanner.finish();
  if (!opts.json && opts.chunks) io.out(visible(renderStream(updates, scanner.finalProse())));
  print(io, result, opts.json === true);
  const reasoning = scanner.reasoning();
  if (!opts.json && reasoning !== "") {
    io.out(
      `Reasoning (never parsed for calls): ${reasoning.length} character${
        reasoning.length === 1 ? "" : "s"
      }\n`,
    );
  }
}

function print(io: CliIO, result: ParseResult, json: boolean): void {
  io.out(json ? `${JSON.stringify(toJsonResult(result))}\n` : visible(renderResult(result)));
}

function batch(io: CliIO, specs: readonly ToolSpec[], input: string): void {
  const lines = input.split("\n");
  lines.forEach((raw, k) => {
    const line = raw.trim();
    if (line === "") return;
    const item = parseJson(line, `line ${k + 1} of standard input`);
    if (typeof item !== "object" || item === null || typeof item.input !== "string") {
      throw new CliError(
        `Cannot read line ${k + 1} of standard input: field "input" must be a string`,
        EXIT.usage,
      );
    }
    const result = toJsonResult(parseReply(item.input, specs));
    io.out(`${JSON.stringify({ id: item.id ?? null, ...result })}\n`);
  });
}

function readChunks(input: string): string[] {
  const value = parseJson(input, "standard input");
  if (!Array.isArray(value) || !value.every((c) => typeof c === "string")) {
    throw new CliError(
      "Cannot read standard input: --chunks expects a JSON array of strings",
      EXIT.usage,
    );
  }
  return value;
}

// deno-lint-ignore no-explicit-any
function parseJson(text: string, where: string): any {
  try {
    return JSON.parse(text);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    const at = /position (\d+)/.exec(why);
    const line = at && !/\(line \d+/.test(why) ? ` (line ${lineOf(text, Number(at[1]))})` : "";
    throw new CliError(`Invalid JSON on ${where}: ${why}${line}`, EXIT.usage);
  }
}

function lineOf(text: string, pos: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i >= 0 && i < pos; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/** A human-readable rendering of a parse result. */
export function renderResult(result: ParseResult): string {
  if (result.kind === "none") return "No tool call: the reply is a final answer to the user.\n";
  if (result.kind === "error") {
    const tool = result.tool === undefined ? "" : ` (tool "${result.tool}")`;
    return `Parse error ${result.error}${tool}: ${result.message}\n`;
  }
  const d = result.dialect;
  const lines = [
    `Tool call: ${result.call.tool}${d && d !== "canonical" ? ` (dialect ${d})` : ""}`,
  ];
  if (result.notice !== undefined) lines.push(`  note: ${result.notice}`);
  for (const [name, value] of Object.entries(result.call.params)) {
    if (typeof value === "string") lines.push(...renderValue(name, value));
    else value.forEach((v, k) => lines.push(...renderValue(`${name}[${k}]`, v)));
  }
  return `${lines.join("\n")}\n`;
}

function renderValue(name: string, value: string): string[] {
  if (!value.includes("\n")) return [`  ${name}: ${JSON.stringify(value)}`];
  const rows = value.split("\n");
  const head = `  ${name}: ${rows.length} lines, ${value.length} characters`;
  return [head, ...rows.map((r) => `    | ${r.replaceAll("\r", "\\r")}`)];
}

function renderStream(updates: readonly StreamUpdate[], finalProse: string): string {
  const lines = [`Stream: ${updates.length} chunks`];
  for (const u of updates) {
    if (u.prose !== "") lines.push(`  prose: ${JSON.stringify(u.prose)}`);
    if (u.call !== undefined) lines.push(`  call: ${u.call}`);
    if (u.reasoning !== undefined) lines.push(`  reasoning: ${JSON.stringify(u.reasoning)}`);
  }
  if (finalProse !== "") lines.push(`  prose at the end: ${JSON.stringify(finalProse)}`);
  return `${lines.join("\n")}\n`;
}
