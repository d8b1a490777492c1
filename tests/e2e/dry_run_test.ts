/**
 * End-to-end: `--dry-run` against the scripted server. Writes, edits and
 * deletes stay in memory (later reads, searches and listings see them), the
 * command is not run, the working tree stays byte-identical, and the end
 * summary (text and `--json`) holds the exact diff and command list.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, toolCall } from "../support/server.ts";
import { runMinoc } from "../support/cli.ts";

const call = toolCall;

const SCRIPT = [
  { text: "Reading first.\n" + call("read_file", { path: "notes.md" }) },
  { text: call("edit_file", { path: "notes.md", old: "line one", new: "line 1" }) },
  {
    text: call("write_to_file", {
      path: "src/new.ts",
      content: "\nexport const overlay = true;\n",
    }),
  },
  { text: call("delete_file", { path: "old.txt" }) },
  { text: call("execute_command", { command: "touch ran.txt" }) },
  { text: call("read_file", { path: "src/new.ts" }) },
  { text: call("search_files", { pattern: "*.ts", content: "overlay" }) },
  { text: call("list_files", { path: "." }) },
  { text: call("attempt_completion", { result: "Refactored." }) },
];

const DIFF = "--- a/notes.md\n+++ b/notes.md\n@@ -1,2 +1,2 @@\n-line one\n+line 1\n line two\n" +
  "--- a/old.txt\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-old\n" +
  "--- /dev/null\n+++ b/src/new.ts\n@@ -0,0 +1,1 @@\n+export const overlay = true;\n";

/** Every path below `dir` with the SHA-256 of its bytes (directories marked). */
async function treeHash(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (d: string, rel: string) => {
    for await (const e of Deno.readDir(d)) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory) {
        out[`${r}/`] = "dir";
        await walk(join(d, e.name), r);
      } else {
        const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(join(d, e.name)));
        out[r] = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join(
          "",
        );
      }
    }
  };
  await walk(dir, "");
  return out;
}

async function project(): Promise<{ dir: string; home: string }> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_dry_" }));
  const dir = join(root, "project");
  await Deno.mkdir(join(dir, "src"), { recursive: true });
  await Deno.writeTextFile(join(dir, "notes.md"), "line one\nline two\n");
  await Deno.writeTextFile(join(dir, "old.txt"), "old\n");
  await Deno.writeTextFile(join(dir, "src", "app.ts"), "export const app = 1;\n");
  return { dir, home: join(root, "home") };
}

Deno.test("run --dry-run: the tree stays byte-identical, later reads see the overlay, the summary is exact", async () => {
  const { dir, home } = await project();
  await using server = await startServer({ replies: SCRIPT });
  try {
    const before = await treeHash(dir);
    const r = await runMinoc(
      ["run", "refactor", "--dry-run", "--base-url", server.baseUrl, "--model", "m"],
      { cwd: dir, home },
    );
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.deepEqual(await treeHash(dir), before, "the working tree is unchanged");

    const last = (i: number) => server.requests[i].body.messages.at(-1).content as string;
    assert.match(last(5), /Dry run: The command was not run, so there is no output/);
    assert.match(last(6), /\[read_file src\/new\.ts\] Result:[\s\S]*export const overlay = true;/);
    assert.match(last(7), /src\/new\.ts/);
    assert.doesNotMatch(last(8), /old\.txt/);
    assert.match(last(8), /notes\.md/);

    const summary = r.stdout.slice(r.stdout.indexOf("Dry run: nothing was changed on disk."));
    assert.equal(
      summary,
      "Dry run: nothing was changed on disk.\n" +
        "Files it would change (3):\n  modify notes.md\n  delete old.txt\n  create src/new.ts\n" +
        DIFF +
        "Commands it would have run (1):\n" +
        "  $ touch ran.txt\n" +
        `    in ${dir}\n` +
        "    mode pass (agent mode) · security pass · approval ask (default: exec tools ask) · " +
        "dry-run simulate (dry-run: commands are not run) · " +
        "approval pass (would ask: the call is only simulated)\n",
    );
  } finally {
    await Deno.remove(join(dir, ".."), { recursive: true });
  }
});

Deno.test("run --dry-run --json adds the diff, the files and the commands with their verdicts", async () => {
  const { dir, home } = await project();
  await using server = await startServer({ replies: SCRIPT });
  try {
    const before = await treeHash(dir);
    const r = await runMinoc(
      [
        "run",
        "refactor",
        "--dry-run",
        "--json",
        "--yes",
        "--base-url",
        server.baseUrl,
        "--model",
        "m",
      ],
      { cwd: dir, home },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(await treeHash(dir), before);
    const out = JSON.parse(r.stdout);
    assert.equal(out.outcome, "completed");
    assert.equal(out.dryRun.diff, DIFF);
    assert.deepEqual(
      out.dryRun.files.map((f: { path: string; action: string }) => [f.path, f.action]),
      [
        ["notes.md", "modify"],
        ["old.txt", "delete"],
        ["src/new.ts", "create"],
      ],
    );
    assert.deepEqual(out.dryRun.directories, []);
    assert.equal(out.dryRun.commands.length, 1);
    const [cmd] = out.dryRun.commands;
    assert.equal(cmd.tool, "execute_command");
    assert.equal(cmd.command, "touch ran.txt");
    assert.equal(cmd.cwd, dir);
    assert.deepEqual(
      cmd.verdicts.map((v: { gate: string; action: string }) => `${v.gate} ${v.action}`),
      [
        "mode pass",
        "security pass",
        "approval ask",
        "dry-run simulate",
        "approval pass",
      ],
    );
    assert.equal(cmd.verdicts.at(-1).rule, "--yes");
    assert.match(
      r.stderr,
      /Dry run: nothing was changed on disk\./,
      "the human summary goes to stderr",
    );
  } finally {
    await Deno.remove(join(dir, ".."), { recursive: true });
  }
});

Deno.test("chat --dry-run: a tally after each task and the full summary at the end", async () => {
  const { dir, home } = await project();
  const replies = [
    { text: call("write_to_file", { path: "a.txt", content: "\na\n" }) },
    { text: "Wrote a.txt." },
  ];
  await using server = await startServer({ replies });
  try {
    const before = await treeHash(dir);
    const r = await runMinoc(["--dry-run", "--base-url", server.baseUrl, "--model", "m"], {
      cwd: dir,
      home,
      stdin: "write a.txt\n",
    });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(await treeHash(dir), before);
    assert.match(r.stdout, /Dry run so far: 1 file change in memory, 0 commands not run/);
    assert.match(
      r.stdout,
      /Files it would change \(1\):\n {2}create a\.txt\n--- \/dev\/null\n\+\+\+ b\/a\.txt/,
    );
    assert.match(r.stdout, /No command would have run\./);
  } finally {
    await Deno.remove(join(dir, ".."), { recursive: true });
  }
});
