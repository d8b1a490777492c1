import assert from "node:assert/strict";
import type { ChatMessage } from "../../../interfaces/agent.ts";
import {
  charCount,
  countMessages,
  countText,
  estimateUsage,
  MESSAGE_OVERHEAD,
} from "../../../core/agent/tokens.ts";

Deno.test("`countText()` estimates tokens and accepts text that mentions special tokens", async () => {
  assert.equal(await countText(""), 0);
  assert.equal(await countText("hello world"), 2);
  assert.ok(await countText("a <|endoftext|> b") > 3);
});

Deno.test("`countMessages()` adds the role overhead to every message", async () => {
  const messages = [
    { role: "system" as const, content: "hello world" },
    { role: "user" as const, content: "hello world" },
  ];
  assert.equal(await countMessages(messages), 2 * (2 + MESSAGE_OVERHEAD));
});

Deno.test("`estimateUsage()` counts the request in and the reply out, marked estimated", async () => {
  const usage = await estimateUsage([{ role: "user", content: "hello world" }], "hello world");
  assert.deepEqual(usage, {
    promptTokens: 2 + MESSAGE_OVERHEAD,
    completionTokens: 2,
    totalTokens: 4 + MESSAGE_OVERHEAD,
    estimated: true,
  });
});

Deno.test("`countMessages()` and `charCount()` follow a list that grows, is changed in place and is cut", async () => {
  const msg = (content: string): ChatMessage => ({ role: "user", content });
  const list = [msg("one two"), msg("three")];
  const fresh = async (l: ChatMessage[]) => [await countMessages([...l]), charCount([...l])];
  const check = async () =>
    assert.deepEqual([await countMessages(list), charCount(list)], await fresh(list));
  await check();
  list.push(msg("four five six"), msg("seven"));
  await check();
  list[1] = msg("a much longer message than the one it replaces");
  await check();
  list[0] = msg("system prompt, changed");
  await check();
  list.splice(1, 2, msg("summary"));
  await check();
  list.length = 1;
  await check();
  list.push(msg("again"));
  await check();
  assert.equal(
    charCount(list),
    "system prompt, changed".length + "again".length + 2 * MESSAGE_OVERHEAD,
  );
});
