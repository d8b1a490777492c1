import assert from "node:assert/strict";
import { join } from "node:path";
import type { ChatMessage, StreamEvent } from "../../../interfaces/agent.ts";
import { type BridgeOptions, createBridgeProvider } from "../../../core/llm/bridge.ts";
import { fileClipboard } from "../../../core/llm/clipboard.ts";
import { BRIDGE_DOC, EDIT_BLOCKS_DOC } from "../../../core/protocol/bridge_format.ts";
import { realFs } from "../../../core/tools/fs_port.ts";
import { makeTree, withTempDir } from "../../support/tool_context.ts";
import { ScriptedPort, type Step, typed } from "./bridge_port.ts";

const SYSTEM = "You are minoc. SYSTEM-MARKER";

function messages(...rest: ChatMessage[]): ChatMessage[] {
  return [{ role: "system", content: SYSTEM }, ...rest];
}

async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  return await Array.fromAsync(events);
}

/** A project, a file clipboard and a port; `seen` holds the clipboard at each step. */
async function setup(
  dir: string,
  steps: Step[],
  extra: Partial<BridgeOptions> = {},
  autoConfirm = false,
) {
  await makeTree(dir, {
    "src/math.ts": "export function add(a: number, b: number): number {\n  return a + b;\n}\n",
    "README.md": "# Calc\n\nAdds numbers.\n",
  });
  const clip = fileClipboard(join(dir, ".clip", "clipboard.txt"));
  const seen: string[] = [];
  const port = new ScriptedPort(steps, async () => {
    seen.push(await clip.read());
  }, autoConfirm);
  const provider = createBridgeProvider({
    cwd: dir,
    fs: realFs,
    port,
    clipboard: clip,
    fallbackFile: join(dir, ".clip", "prompt.md"),
    ...extra,
  });
  return { clip, seen, port, provider };
}

Deno.test("bridge `stream()` copies one prompt to the clipboard and yields the pasted answer", async () => {
  await withTempDir(async (dir) => {
    const { seen, port, provider } = await setup(dir, [typed("The answer.\n")]);
    const events = await collect(provider.stream({
      messages: messages({ role: "user", content: "Explain the project" }),
    }));
    assert.deepEqual(events, [{ type: "text", text: "The answer.\n" }, {
      type: "end",
      reason: "stop",
    }]);
    const prompt = seen[0];
    assert.match(prompt, /^=== Message 1 from minoc/);
    assert.match(prompt, /# Instructions\nYou are minoc\. SYSTEM-MARKER/);
    assert.match(prompt, /# Working through copy and paste/);
    assert.match(prompt, /# Project \(browse mode\)/);
    assert.match(
      prompt,
      /src\/\n {2}math\.ts \(3 lines\)\n {6}export function add\(a: number, b: number\): number/,
    );
    assert.match(prompt, /README\.md \(3 lines\)\n {4}# Calc/);
    assert.doesNotMatch(prompt, /return a \+ b/, "browse mode sends no file bodies");
    assert.match(prompt, /# The user's request\nExplain the project\n/);
    assert.match(
      port.said[0],
      /^The prompt \(\d+ characters\) is on the clipboard \(file .*clipboard\.txt\)/,
    );
    assert.equal(provider.name, "bridge");
  });
});

Deno.test("bridge reads the answer from the clipboard, refusing its own prompt still there", async () => {
  await withTempDir(async (dir) => {
    let reads = 0;
    const { clip, port, provider } = await setup(dir, [{ kind: "clipboard" }, {
      kind: "clipboard",
    }]);
    const original = port.read.bind(port);
    port.read = async (m) => {
      if (reads++ === 1) await clip.write("<<<DELETE: README.md>>>\n");
      return await original(m);
    };
    const events = await collect(provider.stream({
      messages: messages({ role: "user", content: "go" }),
    }));
    assert.deepEqual(events[0], { type: "text", text: "<<<DELETE: README.md>>>\n" });
    assert.ok(port.said.some((s) => /still holds minoc's prompt/.test(s)), port.said.join("\n"));
  });
});

Deno.test("bridge sends a long prompt in parts, waiting for each part to be confirmed", async () => {
  await withTempDir(async (dir) => {
    const long = "line of the conversation\n".repeat(200);
    const { seen, port, provider } = await setup(
      dir,
      [typed("ok then\n")],
      { limit: 1000 },
      true,
    );
    const events = await collect(
      provider.stream({ messages: messages({ role: "user", content: long }) }),
    );
    assert.deepEqual(events[0], { type: "text", text: "ok then\n" });
    const confirms = port.calls.filter((c) => c.startsWith("confirm"));
    const m = confirms.length + 1;
    assert.ok(m > 4, `${m} parts`);
    confirms.forEach((c, i) =>
      assert.equal(c, `confirm: Press Enter when part ${i + 1}/${m} is sent`)
    );
    seen.forEach((part, i) => {
      assert.ok(part.length <= 1000, `part ${i + 1}: ${part.length} characters`);
      assert.match(part, new RegExp(`^Part ${i + 1}/${m} of a message from minoc`));
    });
    assert.match(seen[m - 1], /this is the last part\. Process the whole message/);
    assert.match(
      port.said[0],
      new RegExp(`^Part 1/${m} \\(\\d+ characters\\) is on the clipboard`),
    );
  });
});

Deno.test("bridge ends the request as aborted when the user cancels a part", async () => {
  await withTempDir(async (dir) => {
    const long = "x\n".repeat(1000);
    const { provider } = await setup(dir, ["cancel"], { limit: 1000 });
    const events = await collect(
      provider.stream({ messages: messages({ role: "user", content: long }) }),
    );
    assert.deepEqual(events, [{ type: "end", reason: "aborted" }]);
  });
});

Deno.test("bridge asks the chat to continue after <<<CONTINUE>>> and joins the parts", async () => {
  await withTempDir(async (dir) => {
    const first = "<<<FILE: [NEW] a.txt>>>\nA\n<<<END>>>\n<<<CONTINUE>>>\nb.txt\n<<<END>>>\n";
    const second = "<<<FILE: [NEW] b.txt>>>\nB\n<<<END>>>\nAll done.\n";
    const { seen, provider, port } = await setup(dir, [typed(first), typed(second)]);
    const events = await collect(
      provider.stream({ messages: messages({ role: "user", content: "two files" }) }),
    );
    assert.deepEqual(events[0], {
      type: "text",
      text:
        "<<<FILE: [NEW] a.txt>>>\nA\n<<<END>>>\n<<<FILE: [NEW] b.txt>>>\nB\n<<<END>>>\nAll done.\n",
    });
    assert.match(seen[1], /^Continue your previous answer exactly where it stopped/);
    assert.match(seen[1], /Still to come:\n- b\.txt\n$/);
    assert.ok(port.said.some((s) => s.includes("still to come: b.txt")));
  });
});

Deno.test("bridge sends full contents in edit mode, after the chat switched", async () => {
  await withTempDir(async (dir) => {
    const { seen, provider } = await setup(dir, [typed("fine\n")]);
    await collect(provider.stream({
      messages: messages(
        { role: "user", content: "go" },
        { role: "assistant", content: "<<<SWITCH_MODE: edit>>>" },
        { role: "user", content: "[bridge_request] Result:\nEdit mode: from now on ..." },
      ),
    }));
    assert.match(seen[0], /# Project \(edit mode\)/);
    assert.match(
      seen[0],
      /### src\/math\.ts\n```\nexport function add[\s\S]*return a \+ b;\n\}\n```/,
    );
    assert.match(
      seen[0],
      /# Conversation so far\n## User:\ngo\n\n## You:\n<<<SWITCH_MODE: edit>>>/,
    );
    assert.match(seen[0], /# Latest tool results\n\[bridge_request\] Result:/);
  });
});

Deno.test("bridge writes the prompt to a file when there is no clipboard, or with a bridge file", async () => {
  await withTempDir(async (dir) => {
    const { port, provider } = await setup(dir, [{ kind: "clipboard" }, typed("x\n")], {
      clipboard: null,
    });
    await collect(provider.stream({ messages: messages({ role: "user", content: "hi" }) }));
    const fallback = join(dir, ".clip", "prompt.md");
    assert.match(await Deno.readTextFile(fallback), /# The user's request\nhi/);
    assert.match(port.said[0], /was written to .*prompt\.md \(no clipboard found\)/);
    assert.match(port.said[1], /^No clipboard found: paste the answer here/);
    const file = join(dir, "out", "bridge.txt");
    const b = await setup(dir, [typed("y\n")], { file });
    await collect(b.provider.stream({ messages: messages({ role: "user", content: "again" }) }));
    assert.match(await Deno.readTextFile(file), /again/);
    assert.equal(await b.clip.read(), "", "the clipboard is left alone");
    assert.equal(b.provider.endpoint, `file ${file}`);
  });
});

Deno.test("bridge prompt carries the edit-block and bridge rules once, whether the system prompt has them or not", async () => {
  await withTempDir(async (dir) => {
    const { seen, provider } = await setup(dir, [typed("a\n"), typed("b\n")]);
    await collect(provider.stream({ messages: messages({ role: "user", content: "x" }) }));
    const withDocs = `${SYSTEM}\n\n${EDIT_BLOCKS_DOC}\n\n${BRIDGE_DOC}`;
    await collect(provider.stream({
      messages: [{ role: "system", content: withDocs }, { role: "user", content: "y" }],
    }));
    for (const prompt of seen) {
      assert.equal(prompt.split("# Edit blocks\n").length, 2, "edit-block rules once");
      assert.equal(
        prompt.split("# Working through copy and paste\n").length,
        2,
        "bridge rules once",
      );
    }
    assert.match(seen[1], /^=== Message 2 from minoc/);
  });
});
