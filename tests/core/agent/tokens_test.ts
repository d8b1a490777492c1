import assert from "node:assert/strict";
import {
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
