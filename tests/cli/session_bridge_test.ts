/**
 * The bridge wired as a session wires it (cli/session_bridge.ts), driven
 * through the real agent loop, gates and tools: browse → request → edit.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { AgentEvent } from "../../interfaces/agent.ts";
import type { Settings } from "../../core/config/settings.ts";
import { type AgentDeps, runTask } from "../../core/agent/loop.ts";
import { nullRecorder } from "../../core/history/recorder.ts";
import { Pipeline } from "../../core/permission/pipeline.ts";
import { realFs } from "../../core/tools/fs_port.ts";
import { tools } from "../../core/tools/mod.ts";
import { editWiring } from "../../cli/session_bridge.ts";
import { BRIDGE_NO_SERVER_URL } from "../../cli/commands/common.ts";
import { makeTree, testContext, withTempDir } from "../support/tool_context.ts";
import { ScriptedPort, typed } from "../core/llm/bridge_port.ts";

const MATH = "export function add(a: number, b: number): number {\n  return a + b;\n}\n";

Deno.test("bridge session: browse summary, file request, switch to edit, edit blocks applied", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "src/math.ts": MATH, "README.md": "# Calc\n\nAdds numbers.\n" });
    const file = join(dir, ".out", "prompt.md");
    const prompts: string[] = [];
    const port = new ScriptedPort([
      typed("Let me look.\n<<<REQUEST_FILE: src/math.ts>>>\n"),
      typed("<<<SWITCH_MODE: edit>>>\n"),
      typed(
        "<<<DIFF: src/math.ts>>>\n@@ -1,3 +1,3 @@\n-export function add(a: number, b: number): number {\n" +
          "+export function sum(a: number, b: number): number {\n   return a + b;\n }\n<<<END>>>\n" +
          "<<<DIFF: README.md>>>\n@@\n-Adds numbers.\n+Sums numbers.\n<<<END>>>\n",
      ),
      typed("Renamed add to sum.\n"),
    ], async () => {
      prompts.push(await Deno.readTextFile(file));
    });
    const edits = await editWiring(
      { provider: "bridge", editFormat: "xml", file, port },
      { cwd: dir, homeDir: join(dir, ".home"), fs: realFs },
    );
    const events: AgentEvent[] = [];
    const deps: AgentDeps = {
      provider: edits.provider(() => {
        throw new Error("no server in this test");
      }),
      tools: edits.tools(tools),
      blockCall: edits.blockCall,
      runner: {
        pipeline: new Pipeline({ gates: [], confirm: null, autoApprove: true }),
        context: (signal) => testContext(dir, { signal }),
        backups: null,
      },
      recorder: nullRecorder(),
      limits: { maxTurns: 10, maxParseErrors: 3 },
      emit: (e) => events.push(e),
    };
    const convo = {
      messages: [{ role: "system" as const, content: `SYS${edits.promptSuffix()}` }],
    };
    const outcome = await runTask(deps, convo, "rename add to sum", new AbortController().signal);
    assert.deepEqual(outcome, { kind: "answered", text: "Renamed add to sum.\n" });
    assert.equal(prompts.length, 4);
    assert.match(prompts[0], /# Project \(browse mode\)/);
    assert.match(prompts[0], /export function add\(a: number, b: number\): number/);
    assert.doesNotMatch(prompts[0], /return a \+ b/);
    assert.match(prompts[0], /# Edit blocks[\s\S]*# Working through copy and paste/);
    assert.match(
      prompts[1],
      /# Latest tool results\n\[bridge_request src\/math\.ts\] Result:\n### src\/math\.ts\n```\n[\s\S]*return a \+ b;/,
    );
    assert.match(prompts[1], /# Project \(browse mode\)/);
    assert.match(prompts[2], /# Project \(edit mode\)/);
    assert.match(prompts[2], /### README\.md\n```\n# Calc\n\nAdds numbers\.\n```/);
    assert.match(
      prompts[3],
      /\[apply_edit_blocks src\/math\.ts, README\.md\] Result:\nApplied the edit blocks: 2 files changed/,
    );
    assert.equal(await Deno.readTextFile(join(dir, "src/math.ts")), MATH.replace("add", "sum"));
    assert.equal(await Deno.readTextFile(join(dir, "README.md")), "# Calc\n\nSums numbers.\n");
    const started = events.flatMap((e) => (e.type === "tool_start" ? [e.summary] : []));
    assert.deepEqual(started, [
      "bridge_request src/math.ts",
      "bridge_request",
      "apply_edit_blocks src/math.ts, README.md",
    ]);
  });
});

Deno.test("`editWiring()` turns blocks on with --edit-format blocks, and the bridge adds its directives", async () => {
  const port = new ScriptedPort([]);
  const ctx = { cwd: "/tmp", homeDir: "/tmp/.home", fs: realFs };
  const off = await editWiring({ provider: "openai", editFormat: "xml", port }, ctx);
  assert.equal(off.blocksOn(), false);
  assert.equal(off.promptSuffix(), "");
  assert.equal(off.blockCall("<<<DELETE: a>>>"), null);
  assert.deepEqual(off.tools(tools).map((t) => t.name), tools.map((t) => t.name));
  const on = await editWiring({ provider: "openai", editFormat: "blocks", port }, ctx);
  assert.equal(on.blockCall("<<<DELETE: a>>>")?.tool, "apply_edit_blocks");
  assert.equal(on.blockCall("<<<REQUEST_FILE: a>>>"), null, "directives are the bridge's only");
  assert.match(on.promptSuffix(), /^\n\n# Edit blocks/);
  assert.doesNotMatch(on.promptSuffix(), /copy and paste/);
  assert.deepEqual(on.tools([]).map((t) => t.name), ["apply_edit_blocks"]);
  const settings = { baseURL: BRIDGE_NO_SERVER_URL } as Settings;
  await on.switchTo("bridge", settings);
  assert.equal(on.current(), "bridge");
  assert.deepEqual(on.tools([]).map((t) => t.name), ["apply_edit_blocks", "bridge_request"]);
  assert.equal(on.blockCall("<<<REQUEST_FILE: a>>>")?.tool, "bridge_request");
  assert.equal(on.provider(() => assert.fail("not the server")).name, "bridge");
  await assert.rejects(() => on.switchTo("openai", settings), /No model server configured/);
  await assert.rejects(() => on.switchTo("claude", settings), /Unknown provider "claude"/);
  await on.switchTo("openai", { baseURL: "http://127.0.0.1:9/v1" } as Settings);
  assert.equal(on.current(), "openai");
});
