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
