/**
 * End-to-end: the chat's model and conversation commands with standard
 * input piped (the chat reads one line per request): /model, /models,
 * /compact, /clear, /cost, /retry, --quiet, and the tokens line.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, type TestServer } from "../support/server.ts";
import { runMinoc, sessionFiles } from "../support/cli.ts";
import { SUMMARY_PROMPT } from "../../core/agent/context_summary.ts";
import { countMessages, countText } from "../../core/agent/tokens.ts";

async function project(files: Record<string, string> = {}): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "minoc_cmds_" });
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(join(dir, path, ".."), { recursive: true });
    await Deno.writeTextFile(join(dir, path), text);
  }
  return dir;
}

function chats(server: TestServer) {
  return server.requests.filter((r) => r.path === "/v1/chat/completions");
}

function chat(dir: string, server: TestServer, lines: string[], extra: string[] = []) {
  return runMinoc(["--base-url", server.baseUrl, "--model", "m", ...extra], {
    cwd: dir,
    stdin: lines.join("\n") + "\n",
  });
}

const MODELS = JSON.stringify({
  "big-model": { contextWindow: 64000, temperature: 0.3, customInstructions: "Be brief." },
  "small-model": {},
});

Deno.test("chat: /model lists configured models and switches; the next request uses the new model", async () => {
  const dir = await project({ ".minoc/config/models.json": MODELS });
  await using server = await startServer({
    replies: [{ text: "One." }, { text: "Two." }],
    models: ["alpha", "beta", "m"],
  });
  try {
    const r = await chat(dir, server, ["hello", "/model", "/model big-model", "again", "/models"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\* m {2}\(not in models\.json\)\n {4}big-model\n {4}small-model\n/);
    assert.match(r.stdout, /model big-model · context window 64,000 tokens/);
    const [first, second] = chats(server);
    assert.equal(first.body.model, "m");
    assert.equal(first.body.temperature, undefined);
    assert.equal(second.body.model, "big-model");
    assert.equal(second.body.temperature, 0.3, "the model's parameters come with it");
    assert.match(second.body.messages[0].content, /Be brief\.$/, "and its instructions");
    assert.equal(second.body.messages.at(-1).content, "again");
    assert.ok(second.body.messages.some((m: { content: string }) => m.content === "One."));
    assert.match(r.stdout, / {4}alpha\n {4}beta\n {4}m\n/, "/models lists the server's models");
    assert.ok(server.requests.some((q) => q.path === "/v1/models"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("chat: /model <name> --save makes it the default for the next run", async () => {
  const dir = await project();
  await using server = await startServer({ replies: [{ text: "Saved run." }] });
  try {
    const r = await chat(dir, server, ["/model other --save"]);
    assert.equal(r.code, 0, r.stderr);
    const path = join(dir, ".home", ".minoc", "config", "settings.json");
    assert.match(r.stdout, /saved "other" as the default model/);
    assert.equal(JSON.parse(await Deno.readTextFile(path)).model, "other");
    const next = await runMinoc(["run", "hi", "--base-url", server.baseUrl], { cwd: dir });
    assert.equal(next.code, 0, next.stderr);
    assert.equal(chats(server)[0].body.model, "other");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("chat: /clear starts afresh in the same session file; /cost shows the totals", async () => {
  const dir = await project();
  await using server = await startServer({
    replies: [
      { text: "First answer.", usage: { prompt_tokens: 100, completion_tokens: 7 } },
      { text: "Second answer.", usage: { prompt_tokens: 50, completion_tokens: 3 } },
    ],
  });
  try {
    const r = await chat(dir, server, ["first question", "/clear", "second question", "/cost"]);
    assert.equal(r.code, 0, r.stderr);
    const second = chats(server)[1].body.messages;
    assert.equal(second.length, 2, "system prompt and the new question only");
    assert.equal(second[0].role, "system");
    assert.equal(second[1].content, "second question");
    assert.match(r.stdout, /Conversation cleared/);
    assert.match(r.stdout, /tokens +160 \(150 in, 10 out\)/);
    assert.match(r.stdout, /turns +2 model replies, 0 tool calls/);
    assert.match(r.stdout, /duration +\d+ s/);
    assert.match(r.stdout, /context +[\d,]+ \/ 128,000 tokens/);
    const files = await sessionFiles(join(dir, ".home", ".minoc"));
    assert.equal(files.length, 1, "one session file");
    const messages = files[0].messages as { role: string; content: string; event?: string }[];
    const contents = messages.map((m) => m.content);
    assert.ok(contents.includes("first question") && contents.includes("second question"));
    assert.ok(messages.some((m) => m.event === "cleared"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const READ = {
  text: "<tool_call>\n<read_file>\n<path>notes.md</path>\n</read_file>\n</tool_call>",
};

Deno.test("chat: /compact summarises with one request; the session file keeps the full record", async () => {
  const notes = Array.from({ length: 30 }, (_, i) => `note ${i + 1}`).join("\n") + "\n";
  const dir = await project({ "notes.md": notes });
  await using server = await startServer({
    replies: [
      READ,
      { text: "I read the notes." },
      { text: "You are welcome." },
      { text: "SUMMARY: the user asked to read notes.md; it was read." },
      { text: "Next done." },
    ],
  });
  try {
    const r = await chat(dir, server, ["read the notes", "thanks", "/compact", "next"], ["--yes"]);
    assert.equal(r.code, 0, r.stderr);
    const reqs = chats(server);
    assert.equal(reqs.length, 5, r.stdout + r.stderr);
    assert.equal(reqs[3].body.messages[0].content, SUMMARY_PROMPT);
    const after = reqs[4].body.messages.map((m: { content: string }) => m.content).join("\n");
    assert.match(after, /SUMMARY: the user asked to read notes\.md/);
    assert.match(after, /instructions so far \(verbatim, oldest first\)\n1\. read the notes\n/);
    assert.match(after, /\nthanks\n/, "the last exchange stays as it was");
    assert.match(after, /note 30/, "the latest content of notes.md");
    assert.match(r.stdout, /context compacted: [\d,]+ → [\d,]+ tokens/);
    const [session] = await sessionFiles(join(dir, ".home", ".minoc"));
    const messages = session.messages as { role: string; content: string; event?: string }[];
    assert.ok(messages.some((m) => m.role === "tool_response" && m.content.includes("note 30")));
    assert.ok(messages.some((m) => m.content === "I read the notes."));
    assert.ok(messages.some((m) => m.event === "compacted" && /SUMMARY:/.test(m.content)));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("chat: /retry re-sends the last turn after a reply dropped mid-stream", async () => {
  const dir = await project();
  await using server = await startServer({
    replies: [
      { chunks: ["Partial ", "answer ", "cut"], dropAfterChunks: 1 },
      { text: "Full answer." },
    ],
  });
  try {
    const r = await chat(dir, server, ["tell me", "/retry", "/retry"]);
    assert.equal(r.code, 0, r.stderr);
    const reqs = chats(server);
    assert.equal(reqs.length, 2, "a drop after text is not retried by itself");
    const resent = reqs[1].body.messages;
    assert.equal(resent.at(-1).content, "tell me");
    assert.equal(resent.length, 2, "the partial reply is not sent back");
    assert.match(r.stdout, /Full answer\./);
    assert.match(r.stdout, /Nothing to retry/, "a finished reply has nothing to retry");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("run: the tokens line shows a local estimate when the server reports no usage", async () => {
  const dir = await project();
  await using server = await startServer({ replies: [{ text: "Counted answer.", usage: false }] });
  try {
    const r = await runMinoc(["run", "count me", "--base-url", server.baseUrl, "--model", "m"], {
      cwd: dir,
    });
    assert.equal(r.code, 0, r.stderr);
    const input = await countMessages(chats(server)[0].body.messages);
    const output = await countText("Counted answer.");
    const fmt = (n: number) => n.toLocaleString("en-US");
    assert.match(
      r.stdout,
      new RegExp(
        `tokens ~${fmt(input)} in / ~${output} out · context ~${fmt(input + output)} / 128,000`,
      ),
    );
    const [session] = await sessionFiles(join(dir, ".home", ".minoc"));
    assert.equal((session.metadata as { totalTokens: number }).totalTokens, input + output);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("chat --quiet hides the banner and the tokens line", async () => {
  const dir = await project();
  await using server = await startServer({ replies: [{ text: "Quiet answer." }] });
  try {
    const r = await chat(dir, server, ["hi"], ["--quiet"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Quiet answer\./);
    assert.doesNotMatch(r.stdout, /tokens|minoc \d|Type a request/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
