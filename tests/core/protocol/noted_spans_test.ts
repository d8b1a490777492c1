/**
 * `NotedSpans` (core/protocol/noted_spans.ts): a search for a parameter tag
 * checks only the noted places inside the spans and finds what `indexOf`
 * finds; and the quiet run notes every such tag it keeps unread.
 */
import assert from "node:assert/strict";
import { NotedSpans } from "../../../core/protocol/noted_spans.ts";
import { QuietRun } from "../../../core/protocol/quiet_run.ts";
import { ReasoningSplitter } from "../../../core/protocol/reasoning_split.ts";
import { TextStore } from "../../../core/protocol/text_store.ts";

const TEXT = "x <parameter=a>1</parameter> <p> <arg_key>k</arg_key> y <parameter=b>2</parameter>";

/** Every place in TEXT where `<` or `</` is followed by `a` or `p`. */
const MARKS = [...TEXT.matchAll(/<\/?[ap]/g)].map((m) => m.index!);

function notes(...edges: number[]): NotedSpans {
  const n = new NotedSpans(1);
  for (let k = 0; k < edges.length; k += 2) {
    n.add(edges[k], edges[k + 1], MARKS.filter((m) => m >= edges[k] && m < edges[k + 1]));
  }
  return n;
}

Deno.test("`NotedSpans.indexOf()` finds what `indexOf` finds, within the bounds, whatever the spans", () => {
  const b = TEXT.indexOf("<parameter=b>");
  const cases = [notes(), notes(0, 10), notes(3, b + 4), notes(0, 20, 20, 40, 45, TEXT.length)];
  for (const n of cases) {
    for (const needle of ["<parameter=", "</parameter>", "<arg_key>", "</arg_key>", "<p>"]) {
      for (let from = 0; from <= TEXT.length; from++) {
        for (const to of [TEXT.length, b + 5, 30]) {
          const i = TEXT.slice(0, to).indexOf(needle, from);
          assert.equal(n.indexOf(TEXT, needle, from, to), i, `${needle} ${from} ${to}`);
        }
      }
    }
  }
});

Deno.test("`NotedSpans.indexOf()` reads a span only at its noted places", () => {
  // A span whose notes leave out a tag hides it: proof that the span is not read.
  const n = new NotedSpans(1);
  n.add(0, TEXT.length, []);
  assert.equal(n.indexOf(TEXT, "<parameter=", 0, TEXT.length), -1);
  const short = new NotedSpans(100);
  short.add(0, 10, []); // too short to keep: searched as usual
  assert.equal(short.indexOf(TEXT, "<parameter=", 0, TEXT.length), 2);
});

Deno.test("the quiet run notes every `<a…` and `<p…` of the text it keeps, whatever the chunks", () => {
  const value = "a <p>b</p> <a href=x> </parameter> <arg_value> c<d <\n".repeat(60);
  for (const size of [1, 2, 3, 5, 16, 100]) {
    const store = new TextStore();
    const quiet = new QuietRun(store, new ReasoningSplitter());
    quiet.on = true;
    quiet.heedOnly([116], [114]);
    // As the scanner does: text the quiet run refuses is read by the layers, then stored.
    const read = (rest: string) => {
      quiet.handOn();
      store.append(rest);
    };
    for (let i = 0; i < value.length; i += size) {
      const rest = quiet.take(value.slice(i, i + size));
      if (rest !== null) read(rest);
    }
    read(quiet.cut);
    const text = store.text();
    assert.equal(text, value);
    for (const needle of ["<p>", "</p>", "<a ", "</parameter>", "<arg_value>", "<parameter="]) {
      for (const from of [0, 7, 500, 2999]) {
        const want = text.indexOf(needle, from);
        assert.equal(
          quiet.noted.indexOf(text, needle, from, text.length),
          want,
          `${size} ${needle}`,
        );
      }
    }
  }
});
