import assert from "node:assert/strict";
import { visible, visibleDeep } from "../../../core/protocol/visible.ts";
import { createRenderer } from "../../../cli/ui/render.ts";
import { renderPreview } from "../../../cli/ui/diff.ts";
import { palette } from "../../../cli/ui/colors.ts";
import type { AgentEvent } from "../../../interfaces/agent.ts";

Deno.test("`visible()` writes controls, ESC, CR and bidi marks as escapes and keeps newlines and tabs", () => {
  assert.equal(visible("a\x1b[2Kb"), "a\\x1b[2Kb");
  assert.equal(visible("x\ry"), "x\\ry");
  assert.equal(visible("\x00\x07\x08\x0b\x0c\x7f\x9b"), "\\x00\\x07\\x08\\x0b\\x0c\\x7f\\x9b");
  assert.equal(
    visible("a\u202Eb\u202A\u202C\u2066\u2069\u200F"),
    "a\\u202eb\\u202a\\u202c\\u2066\\u2069\\u200f",
  );
  assert.equal(visible("line\n\tindented é ü 日本"), "line\n\tindented é ü 日本");
});

Deno.test("`visibleDeep()` copies plain data with every string made visible", () => {
  const data = { a: "\x1b", list: ["\r", { b: "\u202e" }], n: 1, d: new Date(0) };
  const out = visibleDeep(data);
  assert.deepEqual(out, { a: "\\x1b", list: ["\\r", { b: "\\u202e" }], n: 1, d: new Date(0) });
  assert.equal(data.a, "\x1b", "the original stays");
});

Deno.test("`createRenderer()` never writes a control character from prose, call lines or tool output", () => {
  let out = "";
  const render = createRenderer({ write: (t) => (out += t), tty: false, colors: palette(false) });
  render({ type: "text", text: "hi \x1b]0;title\x07 there\n" });
  render({ type: "tool_start", summary: "execute_command ls\x1b[1A" } as never);
  render({ type: "tool_end", ok: true, display: "file\u202Etxt.sh\r" } as never);
  // deno-lint-ignore no-control-regex
  assert.ok(!/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]/.test(out), JSON.stringify(out));
  assert.match(out, /\\x1b\]0;title\\x07/);
  assert.match(out, /file\\u202etxt\.sh\\r/);
});

Deno.test("`renderPreview()` shows a command, a path and a diff with their controls as escapes", () => {
  const c = palette(false);
  const exec = renderPreview({ kind: "exec", command: "ls\r\x1b[2Krm -rf x", cwd: "/p" }, c).join(
    "\n",
  );
  assert.match(exec, /\$ ls\\r\\x1b\[2Krm -rf x/);
  const diff = renderPreview(
    { kind: "edit", path: "a\u202Eb", before: "x\n", after: "y\x1b[8m\n" },
    c,
  )
    .join("\n");
  assert.match(diff, /a\\+u202eb/);
  assert.match(diff, /\+y\\x1b\[8m/);
});

Deno.test("`createRenderer()` prints no control character from any field of any event", () => {
  const evil = "\x1b[31mEVIL\u202e\r";
  // One of every kind: a new kind of event fails to compile here until it is added.
  const events: { [K in AgentEvent["type"]]: Extract<AgentEvent, { type: K }> } = {
    turn_start: { type: "turn_start", turn: 1 },
    waiting: { type: "waiting", model: evil, task: evil },
    state: { type: "state", state: "streaming" },
    reasoning: { type: "reasoning", text: evil },
    text: { type: "text", text: evil },
    call_progress: { type: "call_progress", summary: evil },
    parsed: { type: "parsed", result: { kind: "error", error: "unclosed", message: evil }, ms: 1 },
    reply_end: {
      type: "reply_end",
      usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
    },
    parse_error: { type: "parse_error", kind: evil, message: evil, consecutive: 1 },
    tool_start: { type: "tool_start", tool: evil, summary: evil },
    verdict: { type: "verdict", gate: evil, action: "deny", reason: evil, rule: evil },
    tool_end: { type: "tool_end", tool: evil, ok: false, display: evil, ms: 1 },
    retry_wait: { type: "retry_wait", attempt: 1, max: 2, waitMs: 1, reason: evil },
    compacted: { type: "compacted", before: 2, after: 1, shortened: 1, summarised: 1 },
    done: { type: "done", outcome: { kind: "completed", result: evil } },
  };
  for (const tty of [false, true]) {
    let out = "";
    const render = createRenderer({ write: (t) => (out += t), tty, colors: palette(false) });
    for (const ev of Object.values(events)) render(ev);
    assert.ok(!out.includes("\x1b[31m") && !out.includes("\u202e"), JSON.stringify(out));
    assert.match(out, /\\x1b\[31mEVIL\\u202e\\r/);
  }
});
