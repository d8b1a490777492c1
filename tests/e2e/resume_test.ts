/**
 * End-to-end: `run --continue` and `run --resume <id>` continue an earlier
 * session of the same directory: the same session file grows, and the model
 * is sent the whole earlier conversation (checked on the scripted server's
 * recorded request bodies). Sessions of other directories are refused.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, toolCall } from "../support/server.ts";
import { runMinoc, sessionFiles } from "../support/cli.ts";

const call = toolCall;

const READ = { text: "Reading.\n" + call("read_file", { path: "notes.md" }) };
const write = (content: string) => ({ text: call("write_to_file", { path: "notes.md", content }) });
const done = (result: string) => ({ text: call("attempt_completion", { result }) });

interface Msg {
  role: string;
  content: string;
}

async function project(): Promise<{ dir: string; home: string }> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_resume_" }));
  await Deno.writeTextFile(join(dir, "notes.md"), "line one\n");
  return { dir, home: join(dir, ".home") };
}

function chats(server: { requests: { path: string; body: { messages: Msg[] } }[] }) {
  return server.requests.filter((r) => r.path.endsWith("/chat/completions"))
    .map((r) => r.body.messages.map((m) => ({ role: m.role, content: m.content })));
}

Deno.test("run --continue sends the whole earlier conversation and grows the same session file", async () => {
  const { dir, home } = await project();
  await using server = await startServer({
    replies: [
      READ,
      write("\nline one\nline two\n"),
      done("Added line two."),
      READ,
      write(
        "\nline one\nline two\nline three\n",
      ),
      done("Added line three."),
    ],
  });
  const flags = ["--base-url", server.baseUrl, "--model", "m1", "--yes"];
  try {
    const one = await runMinoc(["run", "add line two", ...flags], { cwd: dir, home });
    assert.equal(one.code, 0, one.stderr);
    const [before] = await sessionFiles(join(home, ".minoc"));
    const firstMessages = before.messages as Msg[];

    const two = await runMinoc(["run", "--continue", "now add line three", ...flags], {
      cwd: dir,
      home,
    });
    assert.equal(two.code, 0, two.stderr);
    assert.equal(
      await Deno.readTextFile(join(dir, "notes.md")),
      "line one\nline two\nline three\n",
    );

    const sent = chats(server);
    assert.equal(sent.length, 6);
    const lastOfRun1 = sent[2];
    const firstOfRun2 = sent[3];
    assert.deepEqual(firstOfRun2.slice(0, lastOfRun1.length), lastOfRun1, "earlier turns resent");
    assert.deepEqual(firstOfRun2.slice(lastOfRun1.length), [
      { role: "assistant", content: done("Added line two.").text },
      { role: "user", content: firstMessages.at(-1)!.content },
      { role: "user", content: "now add line three" },
    ]);
    const expected = [
      { role: "system", content: before.systemPrompt },
      ...firstMessages.filter((m) => m.role === "user" || m.role === "assistant")
        .map((m) => ({ role: m.role, content: m.content })),
      { role: "user", content: "now add line three" },
    ];
    assert.deepEqual(firstOfRun2, expected, "exactly the recorded conversation, no duplicates");

    const files = await sessionFiles(join(home, ".minoc"));
    assert.equal(files.length, 1, "no second session file");
    const after = files[0];
    assert.equal(after.sessionId, before.sessionId);
    const messages = after.messages as (Msg & { event?: string })[];
    assert.deepEqual(messages.slice(0, firstMessages.length), firstMessages);
    assert.equal(messages[firstMessages.length].event, "resumed");
    assert.equal(messages[firstMessages.length + 1].content, "now add line three");
    const meta = after.metadata as { turns: number; toolCalls: number; filesChanged: string[] };
    assert.equal(meta.turns, 6);
    assert.equal(meta.toolCalls, 6);
    assert.deepEqual(meta.filesChanged, ["notes.md"]);

    // The undo store of the session was reopened: both runs' changes revert.
    const undo = await runMinoc(["undo", "--all"], { cwd: dir, home });
    assert.equal(undo.code, 0, undo.stderr + undo.stdout);
    assert.equal(await Deno.readTextFile(join(dir, "notes.md")), "line one\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("run --resume <id prefix> continues that session of this directory", async () => {
  const { dir, home } = await project();
  await using server = await startServer({
    replies: [{ text: "First answer." }, { text: "Second answer." }, { text: "Third answer." }],
  });
  const flags = ["--base-url", server.baseUrl, "--model", "m1"];
  try {
    assert.equal((await runMinoc(["run", "question one", ...flags], { cwd: dir, home })).code, 0);
    // A later session, so --resume must pick the older one by id, not the latest.
    assert.equal((await runMinoc(["run", "question two", ...flags], { cwd: dir, home })).code, 0);
    const files = await sessionFiles(join(home, ".minoc"));
    const older = files.find((f) => (f.messages as Msg[])[0].content === "question one")!;
    const id = String(older.sessionId);
    const r = await runMinoc(
      ["run", "--resume", id.slice(0, id.length - 2), "follow up", ...flags],
      {
        cwd: dir,
        home,
      },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(chats(server)[2].slice(1), [
      { role: "user", content: "question one" },
      { role: "assistant", content: "First answer." },
      { role: "user", content: "follow up" },
    ]);
    const grown = (await sessionFiles(join(home, ".minoc"))).find((f) => f.sessionId === id)!;
    assert.deepEqual((grown.messages as Msg[]).map((m) => m.content).at(-1), "Third answer.");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("run --resume refuses another directory's session with exit 2, naming it", async () => {
  const { dir, home } = await project();
  const other = join(dir, "other");
  await Deno.mkdir(other);
  await using server = await startServer({ replies: [{ text: "Elsewhere." }] });
  const flags = ["--base-url", server.baseUrl, "--model", "m1"];
  try {
    assert.equal((await runMinoc(["run", "in other", ...flags], { cwd: other, home })).code, 0);
    const [s] = await sessionFiles(join(home, ".minoc"));
    const id = String(s.sessionId);
    const r = await runMinoc(["run", "--resume", id, "go on", ...flags], { cwd: dir, home });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`Session "${id}" belongs to another directory`));
    assert.ok(r.stderr.includes(other), r.stderr);
    const c = await runMinoc(["run", "--continue", "go on", ...flags], { cwd: dir, home });
    assert.equal(c.code, 2, "other directories' sessions are never continued");
    assert.match(c.stderr, /No earlier session in ".*" to continue/);
    assert.equal(chats(server).length, 1, "nothing was sent for the refused runs");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("run rejects --continue with --resume or --no-session, and unknown ids, with exit 2", async () => {
  const { dir, home } = await project();
  const flags = ["--base-url", "http://127.0.0.1:9/v1", "--model", "m1"];
  try {
    const both = await runMinoc(["run", "--continue", "--resume", "x", "t", ...flags], {
      cwd: dir,
      home,
    });
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--continue and --resume cannot be used together/);
    const none = await runMinoc(["run", "--continue", "--no-session", "t", ...flags], {
      cwd: dir,
      home,
    });
    assert.equal(none.code, 2);
    assert.match(none.stderr, /drop --no-session/);
    const unknown = await runMinoc(["run", "--resume", "nope", "t", ...flags], { cwd: dir, home });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /Unknown session "nope"/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("run --no-session records nothing, so there is nothing to continue", async () => {
  const { dir, home } = await project();
  await using server = await startServer({ replies: [{ text: "Unrecorded." }] });
  try {
    const r = await runMinoc(
      ["run", "--no-session", "hi", "--base-url", server.baseUrl, "--model", "m1"],
      { cwd: dir, home },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(await sessionFiles(join(home, ".minoc")), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
