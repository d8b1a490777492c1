import assert from "node:assert/strict";
import { ClearSpans } from "../../../core/protocol/clear_spans.ts";

const TEXT = "ab <tool_call> cd <x> ef </tool_call> gh <think>i</think> j";

/** Spans chosen around TEXT's tags (none of them starts inside one). */
function spans(...edges: number[]): ClearSpans {
  const clear = new ClearSpans(1);
  for (let k = 0; k < edges.length; k += 2) clear.add(edges[k], edges[k + 1]);
  return clear;
}

Deno.test("`ClearSpans.indexOf()` finds what `indexOf` finds, outside the spans", () => {
  const close = TEXT.indexOf("</tool_call>");
  const think = TEXT.indexOf("<think>");
  const cases = [spans(), spans(0, 3), spans(4, close), spans(4, close, close + 1, think)];
  for (const clear of cases) {
    for (const needle of ["<tool_call>", "</tool_call>", "<think>", "</think>", "<r"]) {
      for (let from = 0; from <= TEXT.length; from++) {
        assert.equal(clear.indexOf(TEXT, needle, from), TEXT.indexOf(needle, from), needle);
      }
    }
  }
});

Deno.test("`ClearSpans.indexOf()` finds a tag that starts before a span and ends inside it", () => {
  const close = TEXT.indexOf("</tool_call>");
  const clear = spans(4, close - 3, close + 1, TEXT.indexOf("<think>"));
  assert.equal(clear.indexOf(TEXT, "</tool_call>", 4), close);
});

Deno.test("`ClearSpans.indexOf()` does not read the spans", () => {
  // A span that wrongly holds a tag hides it: proof that the span is skipped.
  const clear = spans(0, TEXT.length);
  assert.equal(clear.indexOf(TEXT, "</tool_call>", 0), -1);
  assert.equal(spans(10, 20).indexOf("<t".repeat(20), "<t", 11), 20);
});

Deno.test("`ClearSpans.exec()` gives the match `exec` gives, with its index in the text", () => {
  const think = TEXT.indexOf("<think>");
  for (
    const clear of [spans(), spans(2, think), spans(0, 2, 3, think - 1, think + 1, TEXT.length)]
  ) {
    const re = /<(think|thinking|reasoning)>/g;
    const m = clear.exec(re, TEXT, 0, 11);
    assert.ok(m !== null);
    assert.equal(m.index, think);
    assert.equal(m[1], "think");
    assert.equal(re.lastIndex, think + 7);
    assert.equal(clear.exec(re, TEXT, think + 1, 11), null);
  }
});

Deno.test("`ClearSpans.add()` joins a span that starts where the last ended", () => {
  const clear = spans(4, 8, 8, 12);
  assert.equal(clear.indexOf("0123<t>78<t>", "<t", 5), -1);
  assert.equal(new ClearSpans().empty, true);
  assert.equal(clear.empty, false);
});

Deno.test("`ClearSpans.add()` leaves out a span shorter than the shortest it notes", () => {
  const clear = new ClearSpans(8);
  clear.add(0, 4);
  assert.equal(clear.empty, true);
  clear.add(4, 12);
  clear.add(12, 14); // extends the last
  assert.equal(clear.indexOf("<t".repeat(10), "<t", 4), 14);
});
