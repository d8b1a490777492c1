import assert from "node:assert/strict";
import { join } from "node:path";
import type { RequestPermissionRequest } from "@agentclientprotocol/sdk";
import { acpConfirm } from "../../../cli/acp/permission.ts";
import { approvalGate } from "../../../core/permission/approval.ts";
import { writeToFile } from "../../../core/tools/write_to_file.ts";
import type { GateInput } from "../../../interfaces/tool.ts";

async function setup() {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_acp_perm_" }));
  const input: GateInput = {
    call: { tool: "write_to_file", params: { path: "a.md", content: "x" } },
    tool: writeToFile,
    args: { path: "a.md", content: "x" },
    preview: { kind: "edit", path: join(dir, "a.md"), before: null, after: "x" },
    cwd: dir,
  };
  const gate = approvalGate({ projectDir: dir, homeDir: join(dir, "home") });
  return { dir, input, gate };
}

Deno.test("acpConfirm().ask() denies when the editor does not answer in time", async () => {
  const { dir, input, gate } = await setup();
  try {
    const confirm = acpConfirm({
      request: (_p, signal) =>
        new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason))),
      call: () => null,
      keeper: () => gate,
      turn: () => undefined,
      limitMs: 50,
    });
    const d = await confirm.ask(input, []);
    assert.deepEqual(d, {
      kind: "deny",
      reason: "the editor did not answer the permission request in time",
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("acpConfirm().ask() denies on a cancelled outcome, an error and an unknown option", async () => {
  const { dir, input, gate } = await setup();
  const answers: (() => Promise<unknown>)[] = [
    () => Promise.resolve({ outcome: { outcome: "cancelled" } }),
    () => Promise.reject(new Error("client crashed")),
    () => Promise.resolve({ outcome: { outcome: "selected", optionId: "yes_please" } }),
    () => Promise.resolve({}),
  ];
  try {
    const kinds = [];
    for (const answer of answers) {
      const confirm = acpConfirm({
        request: () => answer() as never,
        call: () => null,
        keeper: () => gate,
        turn: () => undefined,
      });
      kinds.push(await confirm.ask(input, []));
    }
    assert.deepEqual(kinds.map((d) => d.kind), ["deny", "deny", "deny", "deny"]);
    assert.match((kinds[1] as { reason: string }).reason, /client crashed/);
    assert.match((kinds[2] as { reason: string }).reason, /unknown option "yes_please"/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("acpConfirm().ask() offers allow always with the rule it stores, and stores it", async () => {
  const { dir, input, gate } = await setup();
  try {
    let asked: Omit<RequestPermissionRequest, "sessionId"> | undefined;
    const confirm = acpConfirm({
      request: (p) => {
        asked = p;
        return Promise.resolve({ outcome: { outcome: "selected", optionId: "allow_always" } });
      },
      call: () => null,
      keeper: () => gate,
      turn: () => undefined,
    });
    assert.deepEqual(await confirm.ask(input, []), { kind: "always" });
    const always = asked?.options.find((o) => o.kind === "allow_always");
    assert.match(always?.name ?? "", /^Allow always: .*a\.md/);
    const saved = await Deno.readTextFile(join(dir, "home", "config", "permissions.json"));
    assert.match(saved, /"pattern": ?"a\.md"/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
