/**
 * End-to-end: `minoc run` as a subprocess in a temp dir against the scripted
 * OpenAI-compatible server.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, toolCall } from "../support/server.ts";
import { runMinoc, sessionFiles } from "../support/cli.ts";

const call = toolCall;

const READ = { text: "I'll read the notes first.\n" + call("read_file", { path: "notes.md" }) };
const WRITE = {
  text: call("write_to_file", { path: "notes.md", content: "\nline one\nline two\n\n" }),
};
const DONE = { text: call("attempt_completion", { result: "Added line two." }) };

async function tempProject(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "minoc_e2e_" });
  await Deno.writeTextFile(join(dir, "notes.md"), "line one\n");
  return dir;
}

Deno.test("run: reads notes.md, writes one more line, finishes, and records it all", async () => {
  const dir = await tempProject();
  await using server = await startServer({ replies: [READ, WRITE, DONE] });
  try {
    const r = await runMinoc(
      ["run", "add a line to notes.md", "--base-url", server.baseUrl, "--model", "m1", "--yes"],
      { cwd: dir },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(await Deno.readTextFile(join(dir, "notes.md")), "line one\nline two\n");
    assert.match(r.stdout, /Added line two\./);

    const reqs = server.requests.filter((q) => q.path.endsWith("/chat/completions"));
    assert.equal(reqs.length, 3);
    const first = reqs[0].body.messages;
    assert.equal(first[0].role, "system");
    for (const tool of ["read_file", "write_to_file", "attempt_completion", "list_files"]) {
      assert.match(
        first[0].content,
        new RegExp(`^${tool}( <|:)`, "m"),
        `system prompt documents ${tool}`,
      );
    }
    assert.equal(first.at(-1).content, "add a line to notes.md");
    assert.equal(reqs[0].body.model, "m1");
    assert.equal(reqs[0].body.stream, true);
    assert.equal(reqs[0].body.tools, undefined, "no native tools parameter");
    const second = reqs[1].body.messages;
    assert.equal(second.at(-1).role, "user");
    assert.match(second.at(-1).content, /^\[read_file notes\.md\] Result:/);
    assert.match(second.at(-1).content, /line one/);

    const [session] = await sessionFiles(join(dir, ".home", ".minoc"));
    const messages = session.messages as { role: string; content: string; call?: unknown }[];
    assert.deepEqual(
      messages.map((m) => m.role),
      [
        "user",
        ...["assistant", "tool_call", "tool_response", "user"],
        ...["assistant", "tool_call", "tool_response", "user"],
        ...["assistant", "tool_call", "tool_response", "user"],
      ],
    );
    assert.equal(session.projectPath, await Deno.realPath(dir));
    assert.equal(session.model, "m1");
    assert.match(String(session.systemPrompt), /^write_to_file <path>/m);
    const meta = session.metadata as Record<string, unknown>;
    assert.equal(meta.turns, 3);
    assert.ok((meta.totalTokens as number) > 0);
    assert.deepEqual(meta.filesChanged, ["notes.md"]);
    assert.equal(typeof meta.duration, "number");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("run --json prints one object with result, turns, tokens, session id, files", async () => {
  const dir = await tempProject();
  await using server = await startServer({ replies: [READ, WRITE, DONE] });
  try {
    const r = await runMinoc(
      ["run", "add", "--json", "--base-url", server.baseUrl, "--model", "m", "--yes"],
      { cwd: dir },
    );
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.result, "Added line two.");
    assert.equal(out.outcome, "completed");
    assert.equal(out.turns, 3);
    assert.ok(out.tokens.total > 0);
    assert.match(out.sessionId, /^\d{8}-\d{6}-/);
    assert.deepEqual(out.filesChanged, ["notes.md"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("run without --yes denies the write, leaves the file and tells the model", async () => {
  const dir = await tempProject();
  await using server = await startServer({
    replies: [READ, WRITE, { text: "I could not write the file." }],
  });
  try {
    const r = await runMinoc(["run", "add", "--base-url", server.baseUrl, "--model", "m"], {
      cwd: dir,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(await Deno.readTextFile(join(dir, "notes.md")), "line one\n");
    const last = server.requests.at(-1)!.body.messages.at(-1);
    assert.match(last.content, /^\[write_to_file notes\.md\] Error \(denied\)/);
    assert.match(last.content, /--yes/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("run ends with exit 1 after three invalid tool calls in a row", async () => {
  const dir = await tempProject();
  const bad = { text: "<tool_call>\n<fly_to_moon>\n<x>1</x>\n</fly_to_moon>\n</tool_call>" };
  await using server = await startServer({ replies: [bad, bad, bad] });
  try {
    const r = await runMinoc(["run", "x", "--base-url", server.baseUrl, "--model", "m"], {
      cwd: dir,
    });
    assert.equal(r.code, 1);
    assert.equal(server.requests.length, 3);
    const feedback = server.requests[1].body.messages.at(-1).content;
    assert.match(feedback, /unknown_tool/);
    assert.match(feedback, /read_file/, "lists the known tools");
    assert.match(r.stdout, /3 invalid tool calls/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("run ends with exit 1 when it hits --max-turns", async () => {
  const dir = await tempProject();
  await using server = await startServer({ replies: [READ, READ] });
  try {
    const r = await runMinoc(
      ["run", "x", "--base-url", server.baseUrl, "--model", "m", "--max-turns", "2"],
      { cwd: dir },
    );
    assert.equal(r.code, 1);
    assert.match(r.stdout, /limit of 2 turns/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("run answers ask_followup_question with 'no user is available'", async () => {
  const dir = await tempProject();
  await using server = await startServer({
    replies: [{ text: call("ask_followup_question", { question: "Which file?" }) }, {
      text: "Fine, I decided.",
    }],
  });
  try {
    const r = await runMinoc(["run", "x", "--base-url", server.baseUrl, "--model", "m"], {
      cwd: dir,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(server.requests[1].body.messages.at(-1).content, /No user is available/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("run sends temperature, top_p, top_k and max_tokens when given", async () => {
  const dir = await tempProject();
  await using server = await startServer({ replies: [{ text: "ok" }] });
  try {
    const r = await runMinoc(
      ["run", "x", "--base-url", server.baseUrl, "--model", "m", "--temperature", "0.2"]
        .concat(["--top-p", "0.9", "--top-k", "40", "--max-tokens", "512"]),
      { cwd: dir },
    );
    assert.equal(r.code, 0, r.stderr);
    const body = server.requests[0].body;
    assert.equal(body.temperature, 0.2);
    assert.equal(body.top_p, 0.9);
    assert.equal(body.top_k, 40);
    assert.equal(body.max_tokens, 512);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("run reads OPENAI_BASE_URL, OPENAI_API_KEY and MINOC_MODEL", async () => {
  const dir = await tempProject();
  await using server = await startServer({ replies: [{ text: "ok" }], apiKey: "sk-test-123" });
  try {
    const r = await runMinoc(["run", "x"], {
      cwd: dir,
      env: { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: "sk-test-123", MINOC_MODEL: "envm" },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(server.requests[0].body.model, "envm");
    assert.equal(server.requests[0].headers.authorization, "Bearer sk-test-123");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
