import assert from "node:assert/strict";
import { DEFAULT_BRIDGE_LIMIT, splitPrompt } from "../../../core/llm/bridge_split.ts";

const lines = (n: number, width: number) =>
  Array.from({ length: n }, (_, i) => `${String(i).padStart(4, "0")} ${"x".repeat(width)}`)
    .join("\n") + "\n";

Deno.test("`splitPrompt()` keeps a prompt that fits the limit whole, without a header", () => {
  const text = lines(10, 50);
  assert.deepEqual(splitPrompt(text, 2000), [text]);
  assert.equal(DEFAULT_BRIDGE_LIMIT, 30_000);
});

Deno.test("`splitPrompt()` cuts at line boundaries into parts within the limit, headed Part N/M", () => {
  const text = lines(200, 60);
  const parts = splitPrompt(text, 3000);
  assert.ok(parts.length > 4, `${parts.length} parts`);
  const m = parts.length;
  let joined = "";
  parts.forEach((p, i) => {
    assert.ok(p.length <= 3000, `part ${i + 1} has ${p.length} characters`);
    const [head, , ...rest] = p.split("\n");
    assert.match(head, new RegExp(`^Part ${i + 1}/${m} of a message from minoc`));
    if (i < m - 1) {
      assert.match(head, /More parts follow/);
      assert.match(p, new RegExp(`\\[End of part ${i + 1}/${m}\\. .*part ${i + 2}/${m}\\.\\]$`));
    } else assert.match(head, /last part\. Process the whole message \(all \d+ parts\) now/);
    const body = rest.join("\n").replace(/\n\n\[End of part .*\]$/, "");
    assert.ok(body.endsWith("\n"), `part ${i + 1} ends at a line boundary`);
    joined += body;
  });
  assert.equal(joined, text);
});

Deno.test("`splitPrompt()` cuts a line longer than a part and loses nothing", () => {
  const text = "y".repeat(5000) + "\nend\n";
  const parts = splitPrompt(text, 1000);
  const bodies = parts.map((p) =>
    p.split("\n\n").slice(1).join("\n\n").replace(/\n\n\[End.*$/, "")
  );
  assert.equal(bodies.join(""), text);
  for (const p of parts) assert.ok(p.length <= 1000);
});
