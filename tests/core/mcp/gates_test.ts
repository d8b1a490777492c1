/** MCP tools through the gates: plan mode by read-only flag, "allow always" per tool or per server. */
import assert from "node:assert/strict";
import { adaptTool } from "../../../core/mcp/tool.ts";
import { modeGate } from "../../../core/permission/mode_gate.ts";
import { approvalGate } from "../../../core/permission/approval.ts";
import { parseRuleFlag, ruleCoversTool } from "../../../core/permission/rules.ts";
import type { GateInput } from "../../../interfaces/tool.ts";
import { withTempDir } from "../../support/tool_context.ts";

const make = (server: string, name: string, readOnlyHint: boolean, readOnlyServer = false) =>
  adaptTool(server, readOnlyServer, {
    name,
    inputSchema: { type: "object", properties: { q: { type: "string" } } },
    annotations: { readOnlyHint },
  }, () => Promise.reject(new Error("not called"))).tool;

const input = (tool: ReturnType<typeof make>, cwd: string): GateInput => ({
  call: { tool: tool.name, params: { q: "x" } },
  tool,
  args: { q: "x" },
  preview: { kind: "none" },
  cwd,
});

Deno.test("modeGate() in plan mode passes read-only MCP tools and refuses the others", async () => {
  const gate = modeGate(() => "plan");
  assert.equal((await gate.check(input(make("s", "look", true), "/p"))).action, "pass");
  assert.equal((await gate.check(input(make("ro", "write", false, true), "/p"))).action, "pass");
  const refused = await gate.check(input(make("s", "write", false), "/p")) as {
    action: string;
    reason: string;
  };
  assert.equal(refused.action, "deny");
  assert.match(refused.reason, /plan mode is read-only: mcp__s__write/);
});

Deno.test("approvalGate() asks for MCP tools, and a kept server rule covers the server's other tools only", async () => {
  await withTempDir(async (dir) => {
    const gate = approvalGate({ projectDir: dir, homeDir: `${dir}/home` });
    const a = make("s", "a", true);
    const b = make("s", "b", false);
    const other = make("t", "a", true);
    assert.equal((await gate.check(input(a, dir))).action, "ask", "read-only hints still ask");
    const proposal = gate.propose(input(a, dir));
    assert.deepEqual(proposal.variants.map((v) => v.tool ?? proposal.tool), [
      "mcp__s__a",
      "mcp__s__*",
    ]);
    const kept = await gate.keep(input(a, dir), {
      patterns: ["*"],
      tool: "mcp__s__*",
      scope: "project",
    });
    assert.equal(kept.saved, true);
    assert.equal((await gate.check(input(b, dir))).action, "pass");
    assert.equal((await gate.check(input(other, dir))).action, "ask");
    const fresh = approvalGate({ projectDir: dir, homeDir: `${dir}/home` });
    assert.equal((await fresh.check(input(b, dir))).action, "pass", "the rule was persisted");
  });
});

Deno.test("parseRuleFlag() accepts an MCP tool and a whole MCP server", () => {
  const tool = parseRuleFlag("mcp__git-hub__create_issue:*");
  assert.ok(tool.ok);
  const server = parseRuleFlag("mcp__github__*:*", "deny");
  assert.ok(server.ok && server.rule.tool === "mcp__github__*");
  assert.ok(ruleCoversTool("mcp__github__*", "mcp__github__list"));
  assert.ok(!ruleCoversTool("mcp__github__*", "mcp__githubx__list"));
  assert.ok(!ruleCoversTool("mcp__github__*", "execute_command"));
});
