import assert from "node:assert/strict";
import { colours } from "../../../cli/ui/colors.ts";
import { createRenderer } from "../../../cli/ui/render.ts";
import { REASONING, slashReasoning } from "../../../cli/ui/reasoning_view.ts";

function render(tty: boolean, full: boolean, colors = false) {
  let out = "";
  const r = createRenderer({
    write: (t) => out += t,
    tty,
    colors: colours(colors),
    reasoning: { full, last: "" },
  });
  r({ type: "reasoning", text: "First, read " });
  r({ type: "reasoning", text: "the file." });
  r({ type: "text", text: "Reading it.\n" });
  return out;
}

Deno.test("`createRenderer()` folds reasoning into one line with its length when not asked for it", () => {
  assert.equal(render(false, false), "∴ reasoning: 21 chars (/reasoning shows it)\nReading it.\n");
  const tty = render(true, false);
  const erase = "\r\x1b[2K";
  assert.ok(tty.includes(`${erase}∴ thinking… 12 chars${erase}∴ thinking… 21 chars`), tty);
  assert.ok(tty.endsWith("∴ reasoning: 21 chars (/reasoning shows it)\nReading it.\n"), tty);
  assert.ok(!tty.includes("the file"), tty);
});

Deno.test("`createRenderer()` shows reasoning in full and dimmed with --show-reasoning", () => {
  assert.equal(render(false, true), "First, read the file.\nReading it.\n");
  assert.equal(
    render(false, true, true),
    "\x1b[2mFirst, read \x1b[22m\x1b[2mthe file.\x1b[22m\nReading it.\n",
  );
});

Deno.test("`slashReasoning()` prints the last reasoning and switches full display on and off", () => {
  let out = "";
  const c = colours(false);
  const r = createRenderer({ write: () => {}, tty: false, colors: c });
  r({ type: "reasoning", text: "Plan: edit main.ts" });
  r({ type: "reply_end" });
  slashReasoning("", c, (t) => out += t);
  assert.equal(out, "Plan: edit main.ts\n");
  slashReasoning("on", c, (t) => out += t);
  assert.equal(REASONING.full, true);
  slashReasoning("off", c, (t) => out += t);
  assert.equal(REASONING.full, false);
  slashReasoning("maybe", c, (t) => out = t);
  assert.match(
    out,
    /^Unknown argument "maybe": use \/reasoning, \/reasoning on or \/reasoning off/,
  );
});

Deno.test("the reasoning view shows escape sequences in reasoning as visible escapes", async () => {
  const { visible } = await import("../../../core/protocol/visible.ts");
  assert.equal(visible("a\x1b[2Jb\r\n\tc"), "a\\x1b[2Jb\\r\n\tc");
  assert.equal(visible("plain\ntext"), "plain\ntext");
});
