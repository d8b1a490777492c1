/**
 * End-to-end: `minoc replay` re-runs a recorded session through today's
 * parser and gates in dry-run. A session replayed against the tree it started
 * from shows no differences and leaves the tree untouched; a fixture whose
 * recorded verdict today's security gate would not give (a "pass" for
 * `rm -rf /`) is reported; `--model` asks another model at each recorded
 * turn, sending it the recorded conversation.
 *
 * The replies fixture (`tests/fixtures/replay/notes_replies.json`) is both the
 * scripted server's script here and the replay provider's fixture format.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { readScript, startServer } from "../support/server.ts";
import { runMinoc, sessionFiles } from "../support/cli.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/replay/", import.meta.url));
const NOTES_REPLIES = join(FIXTURES, "notes_replies.json");
const RM_RF_SESSION = join(FIXTURES, "rm_rf_session.json");

interface Turn {
  number: number;
  state: string;
  today: string;
  differences: { kind: string; recorded: string; today: string }[];
}

async function project(): Promise<{ dir: string; home: string }> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_replay_e2e_" }));
  await Deno.writeTextFile(join(dir, "notes.md"), "line one\n");
  return { dir, home: join(dir, ".home") };
}

/** Records a session from the notes fixture, then undoes its changes. */
async function recordNotesSession(dir: string, home: string): Promise<Record<string, unknown>> {
  await using server = await startServer(await readScript(NOTES_REPLIES));
  const run = await runMinoc(
    ["run", "add a line to notes.md", "--base-url", server.baseUrl, "--model", "m1", "--yes"],
    { cwd: dir, home },
  );
  assert.equal(run.code, 0, run.stderr);
  assert.equal(await Deno.readTextFile(join(dir, "notes.md")), "line one\nline two\n");
  const undo = await runMinoc(["undo", "--all"], { cwd: dir, home });
  assert.equal(undo.code, 0, undo.stdout + undo.stderr);
  assert.equal(await Deno.readTextFile(join(dir, "notes.md")), "line one\n");
  const [session] = await sessionFiles(join(home, ".minoc"));
  return session;
}

async function tree(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (e.name !== ".home") {
      out.push(`${e.name}:${e.isFile ? await Deno.readTextFile(join(dir, e.name)) : "dir"}`);
    }
  }
  return out.sort();
}

Deno.test("replay of a recorded session from its starting tree: no differences, tree untouched", async () => {
  const { dir, home } = await project();
  try {
    const session = await recordNotesSession(dir, home);
    const id = String(session.sessionId);
    const before = await tree(dir);
    const r = await runMinoc(["replay", id, "--json"], { cwd: dir, home });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const report = JSON.parse(r.stdout);
    assert.equal(report.sessionId, id);
    assert.equal(report.source, "recorded");
    assert.equal(report.differences, 0, JSON.stringify(report.turns, null, 2));
    assert.deepEqual(
      (report.turns as Turn[]).map((t) => [t.today, t.state]),
      [
        ["call read_file notes.md", "ran"],
        ["call write_to_file notes.md", "in memory"],
        ["call read_file notes.md", "ran"],
        ["call attempt_completion", "ran"],
      ],
    );
    assert.deepEqual(await tree(dir), before, "replay changed nothing on disk");

    const text = await runMinoc(["replay", id.slice(0, 12)], { cwd: dir, home });
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, new RegExp(`Replay of session ${id} \\(recorded replies of m1\\)`));
    assert.match(text.stdout, /turn +2 +call write_to_file notes\.md +in memory +same/);
    assert.match(text.stdout, /4 turns, no differences/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("replay reports a recorded pass for `rm -rf /` that today's security gate blocks", async () => {
  const { dir, home } = await project();
  try {
    const r = await runMinoc(["replay", RM_RF_SESSION, "--json"], { cwd: dir, home });
    assert.equal(r.code, 1, r.stderr);
    const report = JSON.parse(r.stdout);
    assert.equal(report.cwd, dir, "the fixture's project is missing: replays in the current dir");
    const [first, second] = report.turns as Turn[];
    assert.equal(first.state, "denied");
    assert.deepEqual(first.differences.map((d) => d.kind), ["verdict"]);
    assert.match(first.differences[0].recorded, /security pass/);
    assert.match(first.differences[0].today, /security deny/);
    assert.deepEqual(second.differences, []);
    assert.equal(report.differences, 1);

    const text = await runMinoc(["replay", RM_RF_SESSION], { cwd: dir, home });
    assert.equal(text.code, 1);
    assert.match(text.stdout, /verdict: recorded mode pass \(agent mode\), security pass/);
    assert.match(text.stdout, /today +mode pass \(agent mode\), security deny/);
    assert.match(text.stdout, /2 turns, 1 difference in 1 turn/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("replay --model asks that model at each recorded turn and reports a different call", async () => {
  const { dir, home } = await project();
  try {
    const session = await recordNotesSession(dir, home);
    const recorded = (await readScript(NOTES_REPLIES)).replies!;
    const other = {
      text: "<tool_call>\n<read_file>\n<path>other.md</path>\n</read_file>\n</tool_call>",
    };
    await using server = await startServer({
      replies: [recorded[0], other, recorded[2], recorded[3]],
    });
    const r = await runMinoc(
      [
        "replay",
        String(session.sessionId),
        "--model",
        "m2",
        "--base-url",
        server.baseUrl,
        "--json",
      ],
      { cwd: dir, home },
    );
    assert.equal(r.code, 1, r.stderr);
    const report = JSON.parse(r.stdout);
    assert.equal(report.source, "model");
    assert.equal(report.model, "m2");
    const turns = report.turns as Turn[];
    assert.deepEqual(turns.map((t) => t.differences.length), [0, 1, 0, 0]);
    assert.deepEqual(turns[1].differences[0], {
      kind: "call",
      recorded: "call write_to_file notes.md",
      today: "call read_file other.md",
    });
    assert.equal(turns[1].state, "not run");

    const messages = session.messages as { role: string; content: string }[];
    const sent = server.requests.map((q) =>
      q.body.messages.map((m: { role: string; content: string }) => ({
        role: m.role,
        content: m.content,
      }))
    );
    assert.equal(sent.length, 4);
    assert.equal(server.requests[0].body.model, "m2");
    const convo = messages.filter((m) => m.role === "user" || m.role === "assistant")
      .map((m) => ({ role: m.role, content: m.content }));
    // Request k carries the recorded conversation up to the k-th reply.
    assert.deepEqual(sent[1].slice(1), convo.slice(0, 3));
    assert.deepEqual(sent[3].slice(1), convo.slice(0, 7));
    assert.equal(await Deno.readTextFile(join(dir, "notes.md")), "line one\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("replay refuses an unknown session and replay-only flags without --model, exit 2", async () => {
  const { dir, home } = await project();
  try {
    const unknown = await runMinoc(["replay", "nope"], { cwd: dir, home });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /Unknown session "nope"/);
    const flag = await runMinoc(["replay", RM_RF_SESSION, "--base-url", "http://x/v1"], {
      cwd: dir,
      home,
    });
    assert.equal(flag.code, 2);
    assert.match(flag.stderr, /--base-url needs --model/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
