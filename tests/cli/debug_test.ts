import assert from "node:assert/strict";
import { Command } from "@commander-js/extra-typings";
import { debugCommand } from "../../cli/commands/debug.ts";
import { CliError, EXIT, memoryIO } from "../../cli/io.ts";
import { SPECS } from "../core/protocol/specs.ts";

/** Runs `debug <args>` in-process on `stdin`; returns the IO with its output. */
async function run(args: string[], stdin: string) {
  const io = memoryIO(stdin);
  const program = new Command().exitOverride().configureOutput({
    writeOut: (s) => io.out(s),
    writeErr: (s) => io.err(s),
    getOutHasColors: () => false,
    getErrHasColors: () => false,
  });
  program.addCommand(debugCommand(io, () => SPECS));
  await program.parseAsync(["debug", ...args], { from: "user" });
  return io;
}

const WRITE = "Saving.\r\n<tool_call>\r\n<write_to_file>\r\n<path>notes.md</path>\r\n" +
  "<content>\r\nline 1\r\n<b>&amp;</b>\r\n</content>\r\n</write_to_file>\r\n</tool_call>\r\n";

Deno.test("`debug parse --json` prints the call with raw values, CRLF kept", async () => {
  const io = await run(["parse", "--json"], WRITE);
  assert.equal(
    io.stdout,
    '{"tool":"write_to_file","params":{"path":"notes.md","content":"line 1\\r\\n<b>&amp;</b>"}}\n',
  );
  assert.equal(io.exitCode, EXIT.ok);
});

Deno.test("`debug parse --json` prints no call and errors in their fixed shapes", async () => {
  assert.equal(
    (await run(["parse", "--json"], "Just an answer.")).stdout,
    '{"tool":null,"params":{}}\n',
  );
  const cut = "<tool_call><write_to_file><path>a</path><content>x";
  assert.equal((await run(["parse", "--json"], cut)).stdout, '{"error":"unclosed"}\n');
  const two = "<tool_call><read_file><path>a</path></read_file></tool_call><tool_call>";
  assert.equal((await run(["parse", "--json"], two)).stdout, '{"error":"multiple_tool_calls"}\n');
});

Deno.test("`debug parse` prints a readable result by default", async () => {
  const call = await run(["parse"], WRITE);
  assert.equal(
    call.stdout,
    'Tool call: write_to_file\n  path: "notes.md"\n  content: 2 lines, 20 characters\n' +
      "    | line 1\\r\n    | <b>&amp;</b>\n",
  );
  const none = await run(["parse"], "No call here.");
  assert.match(none.stdout, /^No tool call/);
  const bad = await run(["parse"], "<tool_call><rm_rf></rm_rf></tool_call>");
  assert.equal(bad.stdout, 'Parse error unknown_tool (tool "rm_rf"): Unknown tool "rm_rf"\n');
});

Deno.test("`debug parse --batch` prints one result line per input with its id", async () => {
  const lines = [
    { id: "a", input: WRITE },
    { id: 7, input: "hello" },
    { id: "c", input: "<tool_call><read_files><path>x</path><path>y</path></read_files>" },
  ].map((l) => JSON.stringify(l)).join("\r\n") + "\n\n";
  const io = await run(["parse", "--batch"], lines);
  assert.deepEqual(io.stdout.trimEnd().split("\n").map((l) => JSON.parse(l)), [
    {
      id: "a",
      tool: "write_to_file",
      params: { path: "notes.md", content: "line 1\r\n<b>&amp;</b>" },
    },
    { id: 7, tool: null, params: {} },
    { id: "c", tool: "read_files", params: { path: ["x", "y"] } },
  ]);
});

Deno.test("`debug parse --batch` agrees with the corpus", async () => {
  const corpus = await Deno.readTextFile(
    new URL("../fixtures/protocol/corpus.jsonl", import.meta.url),
  );
  const io = await run(["parse", "--batch"], corpus);
  const expected = corpus.trim().split("\n").map((l) => {
    const c = JSON.parse(l);
    return { id: c.id, ...c.expected };
  });
  const got = io.stdout.trim().split("\n").map((l) => {
    const { dialect: _, ...rest } = JSON.parse(l);
    return rest;
  });
  assert.deepEqual(got, expected);
});

Deno.test("`debug parse --batch` names the dialect of every dialect corpus reply", async () => {
  const corpus = await Deno.readTextFile(
    new URL("../fixtures/protocol/dialects.jsonl", import.meta.url),
  );
  const io = await run(["parse", "--batch"], corpus);
  const expected = corpus.trim().split("\n").map((l) => {
    const c = JSON.parse(l);
    const calls = "tool" in c.expected && c.expected.tool !== null;
    const dialect = c.dialect && (calls || "error" in c.expected) ? { dialect: c.dialect } : {};
    return { id: c.id, ...c.expected, ...dialect };
  });
  assert.deepEqual(io.stdout.trim().split("\n").map((l) => JSON.parse(l)), expected);
});

Deno.test("`debug parse --help` names the dialects", async () => {
  const p = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("../../main.ts", import.meta.url).pathname,
      "debug",
      "parse",
      "--help",
    ],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  });
  const out = new TextDecoder().decode((await p.output()).stdout);
  for (
    const d of ["hermes_json", "qwen3_coder", "anthropic_xml", "mistral", "bare_xml", "</think>"]
  ) {
    assert.ok(out.includes(d), `${d} missing from:\n${out}`);
  }
});

Deno.test("`debug parse --chunks` feeds the chunks as a stream", async () => {
  const chunks = JSON.stringify([
    "Saving.\n<tool_",
    "call>\n<write_to_file><path>a.md</pa",
    "th>",
    "<content>x</content></write_to_file>",
  ]);
  const json = await run(["parse", "--chunks", "--json"], chunks);
  assert.equal(json.stdout, '{"tool":"write_to_file","params":{"path":"a.md","content":"x"}}\n');
  const human = await run(["parse", "--chunks"], chunks);
  assert.equal(
    human.stdout,
    'Stream: 4 chunks\n  prose: "Saving.\\n"\n  call: write_to_file\n  call: write_to_file a.md\n' +
      'Tool call: write_to_file\n  path: "a.md"\n  content: "x"\n',
  );
});

Deno.test("`debug parse` rejects bad JSON on stdin with exit code 2 naming the line", async () => {
  const batch = '{"id":"a","input":"x"}\n{"id":"b",\n';
  await assert.rejects(run(["parse", "--batch"], batch), (e) => {
    assert.ok(e instanceof CliError);
    assert.equal(e.exitCode, EXIT.usage);
    assert.match(e.message, /^Invalid JSON on line 2 of standard input/);
    return true;
  });
  await assert.rejects(
    run(["parse", "--batch"], '{"id":"a"}\n'),
    /line 1 .*"input" must be a string/,
  );
  await assert.rejects(run(["parse", "--chunks"], '[\n"a",\n"b" "c"]'), (e) => {
    assert.ok(e instanceof CliError);
    assert.equal(e.exitCode, EXIT.usage);
    assert.match(e.message, /^Invalid JSON on standard input: .*line 3/);
    return true;
  });
  await assert.rejects(run(["parse", "--chunks"], '["a", 1]'), /array of strings/);
  await assert.rejects(run(["parse", "--batch", "--chunks"], ""), /either --batch or --chunks/);
});
