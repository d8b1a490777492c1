import assert from "node:assert/strict";
import { cleanValue } from "../../../core/protocol/params.ts";

Deno.test("`cleanValue()` strips exactly one leading and one trailing newline", () => {
  const cases: [string, string][] = [
    ["", ""],
    ["\n", ""],
    ["\r\n", ""],
    ["\n\n", ""],
    ["\r\n\r\n", ""],
    ["\n\n\n", "\n"],
    ["\nx\n", "x"],
    ["\r\nx\r\n", "x"],
    ["\n\nx\n\n", "\nx\n"],
    ["  x  ", "  x  "],
    ["\tx\n ", "\tx\n "],
    ["\rx\r", "\rx\r"],
    ["\n\r\n", ""],
    ["a\r\nb", "a\r\nb"],
  ];
  for (const [raw, want] of cases) assert.equal(cleanValue(raw), want, JSON.stringify(raw));
});

Deno.test("`cleanValue()` unwraps a value that is exactly one CDATA section", () => {
  assert.equal(cleanValue("<![CDATA[a < b]]>"), "a < b");
  assert.equal(cleanValue("\n<![CDATA[\nx\n]]>\n"), "\nx\n");
  assert.equal(cleanValue("<![CDATA[]]>"), "");
  assert.equal(cleanValue(" <![CDATA[x]]>"), " <![CDATA[x]]>");
  assert.equal(cleanValue("<![CDATA[a]]>b]]>"), "<![CDATA[a]]>b]]>");
  assert.equal(cleanValue("<![CDATA[x]]"), "<![CDATA[x]]");
});

Deno.test("`cleanValue()` decodes no entities", () => {
  assert.equal(cleanValue("&amp;&lt;&gt;&quot;&#39;"), "&amp;&lt;&gt;&quot;&#39;");
});
