import assert from "node:assert/strict";
import type { StepView } from "../../../core/permission/step.ts";
import { callFromText, describeStep, stepChoices } from "../../../cli/prompt/step.ts";
import { formatCall } from "../../../core/protocol/feedback.ts";
import { findTool } from "../../../core/tools/mod.ts";
import { palette } from "../../../cli/ui/colors.ts";

const plain = palette(false);

function view(rawText: string): StepView {
  const params = { path: "notes.md", content: "one\ntwo" };
  return {
    rawText,
    cwd: "/p",
    call: { tool: "write_to_file", params },
    tool: findTool("write_to_file")!,
    args: params,
    preview: { kind: "edit", path: "notes.md", before: "one\n", after: "one\ntwo\n" },
    decision: {
      action: "run",
      reason: "",
      verdicts: [
        { gate: "mode", action: "pass", rule: "agent mode" },
        { gate: "approval", action: "ask", rule: "default: write tools ask", reason: "it writes" },
      ],
    },
  };
}

Deno.test("`describeStep()` shows the raw text, the call, every verdict with its rule and the diff", () => {
  const text = describeStep(view("Saving.\n<tool_call>"), plain);
  assert.match(
    text,
    /^── step: write_to_file ──\nModel's reply:\n {2}│ Saving\.\n {2}│ <tool_call>\n/,
  );
  assert.match(
    text,
    /Call: write_to_file\n {2}path: notes\.md\n {2}content: \(2 lines, 7 characters\)\n/,
  );
  assert.match(
    text,
    /Gates:\n {2}mode pass \(agent mode\)\n {2}approval ask \(default: write tools ask\) — it writes\n/,
  );
  assert.match(text, /\+two/);
});

Deno.test("`describeStep()` shows the first 40 lines of a long reply and counts the rest", () => {
  const raw = Array.from({ length: 45 }, (_, i) => `line ${i + 1}`).join("\n");
  const text = describeStep(view(raw), plain);
  assert.match(text, /│ line 40\n {2}│ … 5 more lines\n/);
  assert.doesNotMatch(text, /line 41/);
});

Deno.test("`callFromText()` reads an edited call back, or says what is wrong", () => {
  const v = view("");
  const edited = formatCall("write_to_file", { path: "other.md", content: "x\ny" });
  assert.deepEqual(callFromText(edited, v), {
    tool: "write_to_file",
    params: { path: "other.md", content: "x\ny" },
  });
  assert.equal(callFromText("nothing here", v), "No <write_to_file> call found in the edited text");
  assert.match(
    callFromText("<tool_call><write_to_file><path>a", v) as string,
    /^The edited call cannot be read: /,
  );
});

Deno.test("`stepChoices()` offers run, skip, both edits, run the rest and abort, in that order", () => {
  assert.deepEqual(stepChoices("$EDITOR (nano)").map((c) => c.value), [
    "run",
    "skip",
    "editor",
    "inline",
    "rest",
    "abort",
  ]);
  assert.equal(stepChoices("$EDITOR (nano)")[2].name, "Edit the parameters in $EDITOR (nano)");
});
