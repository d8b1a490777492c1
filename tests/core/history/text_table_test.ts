import assert from "node:assert/strict";
import { textTable } from "../../../core/history/text_table.ts";

Deno.test("`textTable()` right-aligns number columns and left-aligns text", () => {
  assert.equal(
    textTable(["tool", "calls", "mean"], [["read_file", 3, 2.25], ["ls", 12, null]]),
    "tool       calls  mean\nread_file      3   2.3\nls            12     -\n",
  );
});

Deno.test("`textTable()` prints only the header when there are no rows", () => {
  assert.equal(textTable(["a", "bb"], []), "a  bb\n");
});

Deno.test("`textTable()` shows a cell's control characters as escapes, never sends them", () => {
  const out = textTable(["name"], [["evil\x1b]0;title\x07\x1b[2J\u202e"]]);
  assert.equal(out, "name\nevil\\x1b]0;title\\x07\\x1b[2J\\u202e\n");
  // deno-lint-ignore no-control-regex
  assert.ok(!/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e]/.test(out));
});
