import assert from "node:assert/strict";
import { colours } from "../../../cli/ui/colors.ts";
import { blockState, inline, MarkdownStream, renderLine } from "../../../cli/ui/markdown.ts";

const c = colours(true);
const off = colours(false);

const REPLY = [
  "# Plan",
  "",
  "Some **bold** and *italic* and `code **not bold**` text.",
  "## Steps",
  "- first item with __strong__",
  "  * nested _emphasis_ here",
  "1. numbered ~~old~~ item",
  "> a quote",
  "---",
  "```ts",
  "const a = 2 * 3 * 4; // **not bold**",
  "- not a list",
  "```",
  "See [the docs](https://example.com/docs) and snake_case_name.",
  "",
].join("\n");

function whole(text: string): string {
  const md = new MarkdownStream(c, { live: false });
  return md.push(text) + md.flush(true);
}

Deno.test("`MarkdownStream` gives the same output streamed chunk by chunk as whole when not live", () => {
  const expected = whole(REPLY);
  for (const size of [1, 2, 3, 5, 7, 13, 64]) {
    const md = new MarkdownStream(c, { live: false });
    let out = "";
    for (let i = 0; i < REPLY.length; i += size) out += md.push(REPLY.slice(i, i + size));
    out += md.flush(true);
    assert.equal(out, expected, `chunk size ${size}`);
  }
});

Deno.test("`MarkdownStream` renders headings, lists, quotes, rules, code blocks and inline styles", () => {
  const out = whole(REPLY).split("\n");
  assert.equal(out[0], c.bold(c.underline("Plan")));
  assert.equal(
    out[2],
    `Some ${c.bold("bold")} and ${c.italic("italic")} and ${c.cyan("code **not bold**")} text.`,
  );
  assert.equal(out[3], c.bold("Steps"));
  assert.equal(out[4], `${c.dim("•")} first item with ${c.bold("strong")}`);
  assert.equal(out[5], `  ${c.dim("•")} nested ${c.italic("emphasis")} here`);
  assert.equal(out[6], `${c.dim("1.")} numbered ${c.strikethrough("old")} item`);
  assert.equal(out[7], c.dim("│ ") + c.italic("a quote"));
  assert.equal(out[8], c.dim("─".repeat(40)));
  assert.equal(out[9], c.dim("```ts"));
  assert.equal(out[10], "const a = 2 * 3 * 4; // **not bold**", "code is left alone");
  assert.equal(out[11], "- not a list", "no list inside a code block");
  assert.equal(out[12], c.dim("```"));
  assert.equal(
    out[13],
    `See ${c.underline("the docs")} ${c.dim("(https://example.com/docs)")} and snake_case_name.`,
  );
});

Deno.test("`renderLine()` adds no escape codes when colours are off", () => {
  const state = blockState();
  for (const line of REPLY.split("\n")) {
    assert.ok(!renderLine(line, state, off).includes("\x1b["), line);
  }
});

Deno.test("`inline()` leaves arithmetic and lone stars alone", () => {
  assert.equal(inline("2 * 3 * 4 = 24", c), "2 * 3 * 4 = 24");
  assert.equal(inline("a ** b", c), "a ** b");
  assert.equal(inline("use my_var_name here", c), "use my_var_name here");
});

Deno.test("`MarkdownStream` shows the unfinished line raw, then redraws it rendered", () => {
  const md = new MarkdownStream(c, { columns: () => 80 });
  assert.equal(md.push("Hello **wor"), "Hello **wor");
  assert.equal(md.push("ld**"), "ld**", "only the new text is written");
  const done = md.push(" again\nNext");
  assert.equal(done, `\r\x1b[J` + `Hello ${c.bold("world")} again\n` + "Next");
  assert.equal(md.flush(true), "\r\x1b[J" + "Next");
});

Deno.test("`MarkdownStream` erases every row of a raw line that wrapped", () => {
  const md = new MarkdownStream(c, { columns: () => 10 });
  md.push("x".repeat(25));
  assert.equal(md.flush(), "\r\x1b[2A\x1b[J" + "x".repeat(25));
});

Deno.test("`MarkdownStream.flush()` closes an open code block only at the end of a reply", () => {
  const md = new MarkdownStream(c, { live: false });
  md.push("```\n");
  md.flush(false);
  assert.equal(md.push("**x**\n"), "**x**\n", "still inside the block");
  md.flush(true);
  assert.equal(md.push("**x**\n"), c.bold("x") + "\n");
});
