import assert from "node:assert/strict";
import type { AgentEvent, ChatMessage } from "../../../interfaces/agent.ts";
import type { ToolCall } from "../../../interfaces/tool.ts";
import { compactContext, fitContext, shortenOutput } from "../../../core/agent/context.ts";
import { classify, type ContextDeps } from "../../../core/agent/context_kinds.ts";
import { SUMMARY_PROMPT } from "../../../core/agent/context_summary.ts";
import { resultMessage } from "../../../core/protocol/call_text.ts";
import { countMessages } from "../../../core/agent/tokens.ts";
import { createOpenAIProvider } from "../../../core/llm/openai.ts";
import { nullRecorder } from "../../../core/history/recorder.ts";
import { type ScriptedReply, startServer, type TestServer } from "../../support/server.ts";

const INSTRUCTIONS = [
  "Add logging to src/a.ts",
  "Also make the tests pass",
  "Now write the docs in README.md",
];

function result(tool: string, params: Record<string, string>, output: string): ChatMessage {
  const call: ToolCall = { tool, params };
  return { role: "user", content: resultMessage(call, { ok: true, output, display: "" }) };
}

function lines(prefix: string, n: number): string {
  return Array.from({ length: n }, (_, i) => `${prefix} line ${i + 1}: some content here`)
    .join("\n");
}

const say = (text: string): ChatMessage => ({ role: "assistant", content: text });

/** A session with noisy outputs, two reads of a.ts and three instructions. */
function conversation(prose = "Looking."): ChatMessage[] {
  return [
    { role: "system", content: "You are a coding agent." },
    { role: "user", content: INSTRUCTIONS[0] },
    say(`${prose}\n<tool_call>...`),
    result("read_file", { path: "src/a.ts" }, lines("OLD a.ts", 40)),
    say(`${prose}\n<tool_call>...`),
    result("execute_command", { command: "npm test" }, lines("test output", 400)),
    say(prose),
    { role: "user", content: INSTRUCTIONS[1] },
    say(`${prose}\n<tool_call>...`),
    result("read_file", { path: "src/a.ts" }, lines("NEW a.ts", 40)),
    say(`${prose}\n<tool_call>...`),
    result("read_file", { path: "src/b.ts" }, lines("b.ts", 20)),
    say(`${prose}\n<tool_call>...`),
    result("search_files", { pattern: "log" }, lines("match", 300)),
    say(prose),
    { role: "user", content: INSTRUCTIONS[2] },
    say("Writing."),
    result("list_files", { path: "." }, "README.md\nsrc/"),
  ];
}

function deps(server: TestServer, window: number, events: AgentEvent[] = []): ContextDeps {
  return {
    provider: createOpenAIProvider({
      baseURL: server.baseUrl,
      apiKey: "k",
      params: { model: "test-model" },
    }),
    recorder: nullRecorder(),
    emit: (e) => events.push(e),
    context: { window },
  };
}

function allText(messages: ChatMessage[]): string {
  return messages.map((m) => m.content).join("\n");
}

async function withServer(replies: ScriptedReply[], fn: (s: TestServer) => Promise<void>) {
  await using server = await startServer({ replies });
  await fn(server);
}

Deno.test("`classify()` tells tool results and feedback from user instructions", () => {
  const c = conversation();
  assert.equal(classify(c[0], 0).kind, "system");
  assert.equal(classify(c[1], 1).kind, "instruction");
  assert.deepEqual(classify(c[3], 3), { kind: "output", fileKey: "read_file src/a.ts" });
  assert.deepEqual(classify(c[5], 5), { kind: "output" });
  assert.equal(
    classify({ role: "user", content: "Tool call error (unclosed): x" }, 4).kind,
    "output",
  );
  assert.equal(classify(c[2], 2).kind, "assistant");
});

Deno.test("`shortenOutput()` keeps the header, head and tail of a long output", () => {
  const long = result("execute_command", { command: "npm test" }, lines("out", 100));
  const short = shortenOutput(long)!;
  assert.match(short.content, /^\[execute_command npm test\] Result:\nout line 1:/);
  assert.match(short.content, /88 lines of this output were removed/);
  assert.match(short.content, /out line 100: some content here$/);
  assert.equal(shortenOutput(short), null, "never shortened twice");
  assert.equal(shortenOutput(result("list_files", {}, "a\nb")), null, "short outputs stay");
});

Deno.test("`fitContext()` leaves a conversation under the limit alone and asks nothing", async () => {
  await withServer([], async (server) => {
    const convo = { messages: conversation() };
    const before = allText(convo.messages);
    const used = await countMessages(convo.messages);
    const report = await fitContext(
      deps(server, Math.ceil(used / 0.8) + 10),
      convo,
      new AbortController().signal,
    );
    assert.equal(report, null);
    assert.equal(allText(convo.messages), before);
    assert.equal(server.requests.length, 0);
  });
});

Deno.test("`fitContext()` shortens older tool outputs first, keeping instructions and the latest file contents", async () => {
  await withServer([], async (server) => {
    const convo = { messages: conversation() };
    const used = await countMessages(convo.messages);
    const window = Math.floor(used / 1.2); // over the 80% limit, and shortening is enough
    const events: AgentEvent[] = [];
    const report = await fitContext(
      deps(server, window, events),
      convo,
      new AbortController().signal,
    );
    assert.ok(report);
    assert.equal(report.summarised, 0);
    assert.equal(server.requests.length, 0, "no summary request was needed");
    assert.ok(report.after <= window * 0.6, `${report.after} fits ${window * 0.6}`);
    const text = allText(convo.messages);
    for (const i of INSTRUCTIONS) assert.ok(text.includes(i), `keeps "${i}"`);
    assert.ok(text.includes(lines("NEW a.ts", 40)), "keeps the latest a.ts whole");
    assert.ok(text.includes(lines("b.ts", 20)), "keeps b.ts whole");
    assert.ok(!text.includes("OLD a.ts line 30"), "the older read of a.ts is shortened");
    assert.ok(!text.includes("test output line 200"), "the test output is shortened");
    assert.equal(events.at(-1)?.type, "compacted");
  });
});

Deno.test("`fitContext()` summarises older turns with one request when shortening is not enough", async () => {
  const summary = "- The user wants logging in src/a.ts; tests were run.";
  await withServer([{ text: summary }], async (server) => {
    const convo = { messages: conversation("Thinking aloud. ".repeat(400)) };
    const used = await countMessages(convo.messages);
    const window = Math.floor(used / 1.5);
    const d = deps(server, window);
    const report = await fitContext(d, convo, new AbortController().signal);
    assert.ok(report && report.summarised > 0);
    assert.equal(server.requests.length, 1);
    const request = server.requests[0].body;
    assert.equal(request.messages[0].content, SUMMARY_PROMPT);
    assert.match(request.messages[1].content, /AGENT:\nThinking aloud/);
    const text = allText(convo.messages);
    assert.ok(text.includes(summary));
    for (const i of INSTRUCTIONS) assert.ok(text.includes(i), `keeps "${i}"`);
    assert.ok(text.includes(lines("NEW a.ts", 40)), "keeps the latest a.ts whole");
    assert.ok(text.includes(lines("b.ts", 20)), "keeps b.ts whole");
    assert.ok(report.after <= window * 0.6, `${report.after} fits ${window * 0.6}`);
    assert.equal(report.after, await countMessages(convo.messages));
    const roles = convo.messages.map((m) => m.role);
    assert.equal(roles[0], "system");
    for (let i = 2; i < roles.length; i++) {
      assert.notEqual(roles[i], roles[i - 1], "roles alternate");
    }
    const event = d.recorder.snapshot().messages.at(-1)!;
    assert.equal(event.event, "compacted");
    assert.match(event.content, /Summary:\n- The user wants logging/);
  });
});

Deno.test("`compactContext()` keeps every instruction when compacting twice and the summary request fails", async () => {
  await withServer([{ text: "First summary." }, { status: 400 }], async (server) => {
    const convo = { messages: conversation() };
    const d = deps(server, 100_000);
    const signal = new AbortController().signal;
    await compactContext(d, convo, signal);
    convo.messages.push(say("Done."), { role: "user", content: "Fourth: add a changelog" });
    convo.messages.push(say("Ok."), result("read_file", { path: "c.ts" }, "c"));
    convo.messages.push(say("More."), { role: "user", content: "Fifth: release it" });
    const second = await compactContext(d, convo, signal);
    assert.ok(second.summarised > 0);
    assert.equal(server.requests.length, 2);
    const text = allText(convo.messages);
    for (const i of [...INSTRUCTIONS, "Fourth: add a changelog", "Fifth: release it"]) {
      assert.ok(text.includes(i), `keeps "${i}"`);
    }
    assert.match(text, /could not write a summary/);
    assert.ok(text.includes(lines("NEW a.ts", 40)), "the latest a.ts survives both summaries");
  });
});

Deno.test("`fitContext()` does not ask for another summary when little is new since the last", async () => {
  await withServer([{ text: "A summary." }, { text: "Another summary." }], async (server) => {
    const pasted = `Fix this failure:\n${lines("log", 600)}`;
    const messages: ChatMessage[] = [
      { role: "system", content: "You are a coding agent." },
      { role: "user", content: pasted },
      say("Thinking aloud. ".repeat(300)),
      { role: "user", content: "Go on" },
      say("Ok."),
      { role: "user", content: "More" },
      say("Ok."),
    ];
    const convo = { messages };
    const d = deps(server, Math.floor((await countMessages(messages)) / 1.1));
    const signal = new AbortController().signal;
    const first = await fitContext(d, convo, signal);
    assert.ok(first && first.summarised > 0);
    assert.ok(first.after > d.context!.window * 0.8, "the pasted instruction alone is too big");
    assert.equal(server.requests.length, 1);
    convo.messages.push({ role: "user", content: "Next" }, say("Fine."));
    await fitContext(d, convo, signal);
    assert.equal(server.requests.length, 1, "no second summary for two short messages");
    assert.ok(allText(convo.messages).includes(pasted), "the instruction is kept verbatim");
  });
});
