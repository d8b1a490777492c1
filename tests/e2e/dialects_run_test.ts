/**
 * End-to-end: a scripted `minoc run` in which the model changes its tool-call
 * dialect from turn to turn (Qwen3 JSON after a <think> that mentions another
 * call, Qwen3-Coder XML with reasoning in a delta field, Anthropic invoke, a
 * Mistral [TOOL_CALLS] completion) still completes the task; reasoning is
 * recorded but never run nor sent back; the reminder comes once.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer } from "../support/server.ts";
import { runMinoc, sessionFiles } from "../support/cli.ts";

const THINK_THEN_HERMES = {
  text:
    "<think>\nMaybe first <tool_call><delete_file><path>keep.txt</path></delete_file></tool_call>?" +
    " No, read the notes.\n</think>\n\n" +
    '<tool_call>\n{"name": "read_file", "arguments": {"path": "notes.md"}}\n</tool_call>',
};
const CODER_WITH_REASONING = {
  reasoning: { field: "reasoning_content" as const, chunks: ["Append ", "line two."] },
  text: "<tool_call>\n<function=write_to_file>\n<parameter=path>\nnotes.md\n</parameter>\n" +
    "<parameter=content>\nline one\nline two\n\n</parameter>\n</function>\n</tool_call>",
};
const INVOKE = {
  text: '<function_calls>\n<invoke name="list_files">\n<parameter name="path">.</parameter>\n' +
    "</invoke>\n</function_calls>",
};
const MISTRAL_DONE = {
  text: '[TOOL_CALLS][{"name": "attempt_completion", "arguments": {"result": "Added line two."}}]',
};

Deno.test("run: a model that switches dialects every turn completes the task", async () => {
  const dir = await Deno.makeTempDir({ prefix: "minoc_dialects_" });
  await Deno.writeTextFile(join(dir, "notes.md"), "line one\n");
  await Deno.writeTextFile(join(dir, "keep.txt"), "keep me\n");
  await using server = await startServer({
    replies: [THINK_THEN_HERMES, CODER_WITH_REASONING, INVOKE, MISTRAL_DONE],
  });
  try {
    const r = await runMinoc(
      [
        "run",
        "add line two to notes.md",
        "--base-url",
        server.baseUrl,
        "--model",
        "mixed",
        "--yes",
      ],
      { cwd: dir },
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /Added line two\./);
    assert.equal(await Deno.readTextFile(join(dir, "notes.md")), "line one\nline two\n");
    assert.equal(
      await Deno.readTextFile(join(dir, "keep.txt")),
      "keep me\n",
      "no call from <think>",
    );
    assert.match(r.stdout, /∴ reasoning: \d+ chars/);
    assert.ok(!r.stdout.includes("delete_file"), r.stdout);

    const reqs = server.requests.filter((q) => q.path.endsWith("/chat/completions"));
    assert.equal(reqs.length, 4);
    const sent = reqs[3].body.messages as { role: string; content: string }[];
    const assistant = sent.filter((m) => m.role === "assistant").map((m) => m.content);
    assert.equal(assistant.length, 3);
    assert.ok(assistant.every((c) => !c.includes("<think>") && !c.includes("delete_file")));
    const results = sent.filter((m) => m.role === "user").slice(1).map((m) => m.content);
    const reminders = results.filter((c) => c.includes("minoc's own form is"));
    assert.equal(reminders.length, 1, results.join("\n---\n"));
    assert.match(reminders[0], /"hermes_json" format; minoc's own form is <tool_call><read_file>/);

    const [session] = await sessionFiles(join(dir, ".home", ".minoc"));
    const replies = (session.messages as Record<string, unknown>[]).filter((m) =>
      m.role === "assistant"
    );
    assert.deepEqual(replies.map((m) => m.dialect), [
      "hermes_json",
      "qwen3_coder",
      "anthropic_xml",
      "mistral",
    ]);
    assert.match(String(replies[0].reasoning), /^Maybe first <tool_call><delete_file>/);
    assert.equal(replies[1].reasoning, "Append line two.");
    assert.equal(replies[2].reasoning, undefined);

    const stats = await runMinoc(["history", "stats", "--json"], { cwd: dir });
    assert.equal(stats.code, 0, stats.stderr);
    const [mixed] = JSON.parse(stats.stdout).dialects;
    assert.deepEqual(mixed, {
      model: "mixed",
      replies: 4,
      dialects: { hermes_json: 1, qwen3_coder: 1, anthropic_xml: 1, mistral: 1 },
      parseErrors: 0,
      parseErrorRate: 0,
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("run: two calls in different dialects are refused and nothing runs", async () => {
  const dir = await Deno.makeTempDir({ prefix: "minoc_dialects_" });
  await Deno.writeTextFile(join(dir, "keep.txt"), "keep me\n");
  const TWO = {
    text: '<tool_call>\n{"name": "read_file", "arguments": {"path": "keep.txt"}}\n</tool_call>\n' +
      "<delete_file>\n<path>keep.txt</path>\n</delete_file>",
  };
  const ANSWER = { text: "Sorry, I will stop here." };
  await using server = await startServer({ replies: [TWO, ANSWER] });
  try {
    const r = await runMinoc(
      ["run", "tidy up", "--base-url", server.baseUrl, "--model", "m", "--yes"],
      { cwd: dir },
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(await Deno.readTextFile(join(dir, "keep.txt")), "keep me\n");
    const reqs = server.requests.filter((q) => q.path.endsWith("/chat/completions"));
    const feedback = reqs[1].body.messages.at(-1).content as string;
    assert.match(feedback, /multiple_tool_calls/);
    assert.match(feedback, /What you meant, in the right form:\n<tool_call>\n<read_file>/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("run --show-reasoning prints the reasoning in full; by default one folded line", async () => {
  const dir = await Deno.makeTempDir({ prefix: "minoc_dialects_" });
  const reply = () => ({
    reasoning: { field: "reasoning" as const, chunks: ["Two plus two ", "is four."] },
    text: "<think>\nCheck twice.\n</think>\nIt is 4.",
  });
  await using server = await startServer({ replies: [reply(), reply()] });
  try {
    const args = ["run", "2+2?", "--base-url", server.baseUrl, "--model", "m"];
    const folded = await runMinoc(args, { cwd: dir });
    assert.equal(folded.code, 0, folded.stderr);
    assert.match(folded.stdout, /∴ reasoning: \d+ chars \(\/reasoning shows it\)/);
    assert.ok(!folded.stdout.includes("Two plus two"), folded.stdout);
    assert.ok(!folded.stdout.includes("Check twice"), folded.stdout);
    assert.match(folded.stdout, /It is 4\./);
    const full = await runMinoc([...args, "--show-reasoning"], { cwd: dir });
    assert.equal(full.code, 0, full.stderr);
    assert.match(full.stdout, /Two plus two is four\./);
    assert.match(full.stdout, /Check twice\./);
    const [session] = await sessionFiles(join(dir, ".home", ".minoc"));
    const answer = (session.messages as Record<string, unknown>[]).find((m) =>
      m.role === "assistant"
    );
    assert.equal(answer?.content, "\nIt is 4.");
    assert.equal(answer?.reasoning, "Two plus two is four.\n\nCheck twice.");
    assert.equal(answer?.dialect, undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("run: reasoning goes back to the model only when models.json asks for it", async () => {
  const THINK_READ = {
    text: "<think>\nRead it first.\n</think>\n<tool_call>\n<read_file>\n<path>a.txt</path>\n" +
      "</read_file>\n</tool_call>",
  };
  const ANSWER = { text: "It says hi." };
  for (const send of [false, true]) {
    const dir = await Deno.makeTempDir({ prefix: "minoc_dialects_" });
    await Deno.writeTextFile(join(dir, "a.txt"), "hi\n");
    await Deno.mkdir(join(dir, ".minoc", "config"), { recursive: true });
    const models = { m: { quirks: { sendReasoning: send } } };
    await Deno.writeTextFile(join(dir, ".minoc", "config", "models.json"), JSON.stringify(models));
    await using server = await startServer({ replies: [THINK_READ, ANSWER] });
    try {
      const r = await runMinoc(
        ["run", "read a.txt", "--base-url", server.baseUrl, "--model", "m"],
        {
          cwd: dir,
        },
      );
      assert.equal(r.code, 0, r.stdout + r.stderr);
      const reqs = server.requests.filter((q) => q.path.endsWith("/chat/completions"));
      const sent = reqs[1].body.messages.find((m: { role: string }) => m.role === "assistant");
      assert.equal(sent.content.includes("<think>\nRead it first.\n</think>"), send, sent.content);
      assert.match(sent.content, /<read_file>/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
});
