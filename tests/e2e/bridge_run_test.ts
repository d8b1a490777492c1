/**
 * End-to-end: `minoc run --provider bridge` as a subprocess, the chat's
 * answers piped on stdin (each ending with <<<EOF>>>), a file as clipboard.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runMinoc, sessionFiles } from "../support/cli.ts";
import { makeTree } from "../support/tool_context.ts";

async function project(): Promise<string> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_bridge_" }));
  await makeTree(dir, {
    "src/math.ts": "export function add(a: number, b: number): number {\n  return a + b;\n}\n",
  });
  return dir;
}

const answers = (...texts: string[]) => texts.map((t) => `${t}\n<<<EOF>>>\n`).join("");

Deno.test("run --provider bridge: request, edit blocks, answer, all through stdin and the clipboard file", async () => {
  const dir = await project();
  const clip = join(dir, ".clip.txt");
  try {
    const r = await runMinoc([
      "run",
      "rename add to sum",
      "--provider",
      "bridge",
      "--yes",
      "--json",
    ], {
      cwd: dir,
      env: { MINOC_CLIPBOARD_FILE: clip },
      stdin: answers(
        "<<<REQUEST_FILES>>>\nsrc/math.ts\n<<<END>>>",
        "<<<DIFF: src/math.ts>>>\n@@\n-export function add(a: number, b: number): number {\n" +
          "+export function sum(a: number, b: number): number {\n<<<END>>>",
        "Renamed.",
      ),
    });
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.outcome, "answered");
    assert.equal(out.result, "Renamed.\n");
    assert.deepEqual(out.filesChanged, ["src/math.ts"]);
    assert.match(await Deno.readTextFile(join(dir, "src/math.ts")), /^export function sum\(/);
    assert.match(
      r.stderr,
      /The prompt \(\d+ characters\) is on the clipboard \(file .*\.clip\.txt\)/,
    );
    const last = await Deno.readTextFile(clip);
    assert.match(last, /^=== Message 3 from minoc/);
    assert.match(
      last,
      /# Latest tool results\n\[apply_edit_blocks src\/math\.ts\] Result:\nApplied/,
    );
    const [session] = await sessionFiles(join(dir, ".home", ".minoc"));
    const calls = (session.messages as { role: string; call?: { tool: string } }[])
      .filter((m) => m.role === "tool_call").map((m) => m.call?.tool);
    assert.deepEqual(calls, ["bridge_request", "apply_edit_blocks"]);
    assert.equal(session.model, "web-chat");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("run --provider bridge writes the prompt to a file without a clipboard, and to --bridge-file", async () => {
  const dir = await project();
  try {
    const r = await runMinoc(["run", "say hi", "--provider", "bridge"], {
      cwd: dir,
      // No program on the PATH: no clipboard to find.
      env: { PATH: join(dir, "empty-path") },
      stdin: answers("Hi!"),
    });
    assert.equal(r.code, 0, r.stderr);
    const fallback = join(dir, ".home", ".minoc", "bridge", "prompt.md");
    assert.match(
      r.stdout,
      /The prompt \(\d+ characters\) was written to .*prompt\.md \(no clipboard found\)/,
    );
    assert.match(await Deno.readTextFile(fallback), /# The user's request\nsay hi/);
    assert.match(r.stdout, /Hi!/);
    const file = join(dir, "out", "p.txt");
    const f = await runMinoc(["run", "again", "--provider", "bridge", "--bridge-file", file], {
      cwd: dir,
      env: { MINOC_CLIPBOARD_FILE: join(dir, "clip.txt") },
      stdin: answers("Done."),
    });
    assert.equal(f.code, 0, f.stderr);
    assert.match(f.stdout, new RegExp(`The prompt \\(\\d+ characters\\) was written to ${file}:`));
    assert.match(await Deno.readTextFile(file), /# The user's request\nagain/);
    assert.equal(await Deno.stat(join(dir, "clip.txt")).catch(() => null), null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("run --provider bridge ends as interrupted when stdin ends without an answer", async () => {
  const dir = await project();
  try {
    const r = await runMinoc(["run", "x", "--provider", "bridge"], {
      cwd: dir,
      env: { MINOC_CLIPBOARD_FILE: join(dir, "clip.txt") },
      stdin: "",
    });
    assert.equal(r.code, 130, r.stderr + r.stdout);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("--provider and --edit-format reject unknown values with exit code 2", async () => {
  const dir = await project();
  try {
    const p = await runMinoc(["run", "x", "--provider", "claude"], { cwd: dir });
    assert.equal(p.code, 2);
    assert.match(
      p.stderr,
      /--provider <name>' argument 'claude' is invalid\. expected "openai" or "bridge"/,
    );
    const e = await runMinoc(["run", "x", "--provider", "bridge", "--edit-format", "json"], {
      cwd: dir,
    });
    assert.equal(e.code, 2);
    assert.match(e.stderr, /expected "blocks" or "xml"/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
