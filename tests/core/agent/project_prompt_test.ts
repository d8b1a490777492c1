/**
 * The system prompt of turn 1: its size with the real tools, the working
 * protocol it teaches, and where the project analysis goes.
 */
import assert from "node:assert/strict";
import { buildSystemPrompt, type PromptContext } from "../../../core/agent/prompt.ts";
import { exampleCall, usageLine } from "../../../core/protocol/tool_docs.ts";
import { findTool, tools } from "../../../core/tools/mod.ts";

const BASE: PromptContext = {
  tools,
  mode: "agent",
  cwd: "/home/someone/projects/example",
  os: "linux (x86_64)",
  date: "2025-06-01",
};

Deno.test("`buildSystemPrompt()` in agent mode stays under 4,500 characters with every tool", () => {
  const prompt = buildSystemPrompt(BASE);
  assert.ok(prompt.length < 4_500, `${prompt.length} characters`);
  for (const t of tools) assert.ok(prompt.includes(`\n${usageLine(t)}\n`), t.name);
  // The one example: the SEARCH/REPLACE layout no usage line can show.
  assert.ok(prompt.includes(`\nExample:\n${exampleCall(findTool("replace_in_file")!)}\n`));
});

Deno.test("`buildSystemPrompt()` teaches think, plan, explore, implement, verify, report", () => {
  const prompt = buildSystemPrompt(BASE);
  const steps = ["1. Think", "2. Plan", "3. Explore", "4. Implement", "5. Verify", "6. Report"];
  let at = 0;
  for (const step of steps) {
    const i = prompt.indexOf(step, at);
    assert.ok(i > at, `${step} comes next`);
    at = i;
  }
  assert.match(prompt, /Never write while exploring\./);
  assert.match(prompt, /read each existing file right before you edit it/);
  // Said once, in the tool's own line: new files are made with write_to_file.
  assert.match(prompt, /\nwrite_to_file <path> <content>: Create a file/);
  assert.doesNotMatch(prompt, /create new files with write_to_file/);
  assert.match(prompt, /under the right heading, as the same kind of item \("- \[ \]" task/);
});

Deno.test("`buildSystemPrompt()` puts the project section after the workspace, then AGENTS.md", () => {
  const prompt = buildSystemPrompt({
    ...BASE,
    project: "# Project\nCommands: test `deno task test`.",
    projectInstructions: "Use tabs.",
  });
  const workspace = prompt.indexOf("# Workspace");
  const project = prompt.indexOf("# Project\nCommands: test `deno task test`.");
  const instructions = prompt.indexOf("# Project instructions\nUse tabs.");
  assert.ok(workspace > 0 && project > workspace && instructions > project);
});

Deno.test("`buildSystemPrompt()` in plan mode documents only reading and meta tools, with a call to copy", () => {
  const prompt = buildSystemPrompt({ ...BASE, mode: "plan" });
  assert.match(prompt, /\n# Plan mode\n/);
  for (const t of tools) {
    const listed = prompt.includes(`\n${usageLine(t)}\n`);
    assert.equal(listed, t.kind === "read" || t.kind === "meta", t.name);
  }
  assert.ok(prompt.includes(`\nExample:\n${exampleCall(tools[0])}\n`), "the first tool's call");
});
