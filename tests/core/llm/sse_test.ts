import assert from "node:assert/strict";
import { type ServerEvent, SseDecoder } from "../../../core/llm/sse.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

/** The events of `text` fed in the given byte pieces, the stream's end included. */
function decode(pieces: Uint8Array[]): ServerEvent[] {
  const sse = new SseDecoder();
  const out = pieces.flatMap((p) => sse.push(p));
  return [...out, ...sse.end()];
}

/** Every split of `text` into two pieces, and into single bytes. */
function splits(text: string): Uint8Array[][] {
  const all = bytes(text);
  const out: Uint8Array[][] = [[...all].map((b) => Uint8Array.of(b))];
  for (let i = 0; i <= all.length; i++) out.push([all.slice(0, i), all.slice(i)]);
  return out;
}

const message = (data: string, event = "message"): ServerEvent => ({ event, data });

Deno.test("`SseDecoder` reads events ended by LF, CRLF or a lone CR, however the bytes are split", () => {
  const want = [message('{"a":1}'), message("żółw 日本語"), message("[DONE]")];
  for (const eol of ["\n", "\r\n", "\r"]) {
    const text = `data: {"a":1}${eol}${eol}data: żółw 日本語${eol}${eol}data: [DONE]${eol}${eol}`;
    for (const pieces of splits(text)) {
      assert.deepEqual(decode(pieces), want, `line end ${JSON.stringify(eol)}`);
    }
  }
});

Deno.test("`SseDecoder` takes a CR at a chunk's end and its LF in the next as one line end", () => {
  const sse = new SseDecoder();
  assert.deepEqual(sse.push(bytes("data: a\r")), []);
  assert.deepEqual(sse.push(new Uint8Array(0)), []); // an empty read between them
  // Were the LF a second line end, "a" would be an event of its own.
  assert.deepEqual(sse.push(bytes("\ndata: b\r")), []);
  assert.deepEqual(sse.push(bytes("\n\r\n")), [message("a\nb")]);
  assert.deepEqual(sse.end(), []);
});

Deno.test("`SseDecoder` joins data lines, names events, skips comments and other fields", () => {
  const text = [
    ": keep-alive",
    "event: error",
    "id: 7",
    "retry: 100",
    "data:first",
    "data:  second",
    "data",
    "",
    "event: ping",
    "",
    "data:",
    "",
    "",
  ].join("\n");
  assert.deepEqual(decode([bytes(text)]), [
    message("first\n second\n", "error"),
    // `event: ping` had no data: no event; an empty `data:` is an event with empty data.
    message(""),
  ]);
});

Deno.test("`SseDecoder` hands out an event the stream left open, and a last line without its end", () => {
  assert.deepEqual(decode([bytes("data: one\n\ndata: two\n")]), [message("one"), message("two")]);
  assert.deepEqual(decode([bytes("data: one\n\ndata: tw"), bytes("o")]), [
    message("one"),
    message("two"),
  ]);
  assert.deepEqual(decode([bytes(": only a comment")]), []);
});
