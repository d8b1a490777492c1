import assert from "node:assert/strict";
import { colours } from "../../../cli/ui/colors.ts";
import { describeCall } from "../../../cli/prompt/approve.ts";
import { approvalGate } from "../../../core/permission/approval.ts";
import { applyEditBlocks } from "../../../core/tools/apply_edit_blocks.ts";
import { withTempDir } from "../../support/tool_context.ts";

const plain = colours(false);

Deno.test("`describeCall()` shows one combined diff of every file an edit-blocks change touches", () => {
  const blocks = "<<<DIFF: a.txt>>>\n@@\n-one\n+ONE\n<<<END>>>\n<<<DELETE: b.txt>>>\n";
  const text = describeCall(
    {
      call: { tool: "apply_edit_blocks", params: { blocks, path: ["a.txt", "b.txt"] } },
      tool: applyEditBlocks,
      args: { blocks, path: ["a.txt", "b.txt"] },
      preview: {
        kind: "multi_edit",
        files: [
          { path: "a.txt", before: "one\n", after: "ONE\n" },
          { path: "b.txt", before: "bee\n", after: null },
        ],
      },
      cwd: "/p",
    },
    [{ gate: "approval", action: "ask", reason: "write tools ask before they run" }],
    plain,
  );
  assert.match(
    text,
    /^apply_edit_blocks\n {2}blocks: \(7 lines, \d+ characters\)\n {2}path: a\.txt, b\.txt/,
  );
  assert.match(text, /--- a\/a\.txt\n\+\+\+ b\/a\.txt\n@@ -1,1 \+1,1 @@\n-one\n\+ONE/);
  assert.match(text, /--- a\/b\.txt\n\+\+\+ \/dev\/null\n@@ -1,1 \+0,0 @@\n-bee/);
});

Deno.test("the approval gate sees every path of an edit-blocks change: outside the project asks", async () => {
  await withTempDir(async (project) => {
    const gate = approvalGate({ projectDir: project });
    const blocks = "<<<DELETE: ../outside.txt>>>\n<<<DELETE: in.txt>>>\n";
    const args = { blocks, path: ["../outside.txt", "in.txt"] };
    const v = await gate.check({
      call: { tool: "apply_edit_blocks", params: args },
      tool: applyEditBlocks,
      args,
      preview: { kind: "none" },
      cwd: project,
    });
    assert.equal(v.action, "ask");
    assert.match(v.reason ?? "", /outside/);
  });
});
