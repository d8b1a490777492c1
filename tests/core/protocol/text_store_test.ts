import assert from "node:assert/strict";
import { TextStore } from "../../../core/protocol/text_store.ts";
import { rng } from "./fuzz.ts";

Deno.test("`TextStore.slice()` matches `String.slice()` across any chunking", () => {
  const text = "0123456789abcdefghij".repeat(60) + "日本語🚀";
  for (let seed = 1; seed <= 5; seed++) {
    const next = rng(seed);
    const store = new TextStore();
    let fed = 0;
    while (fed < text.length) {
      const size = 1 + Math.floor(next() * (seed === 5 ? 600 : 9));
      store.append(text.slice(fed, fed + size));
      fed = Math.min(text.length, fed + size);
      for (let k = 0; k < 5; k++) {
        const a = Math.floor(next() * fed);
        const b = a + Math.floor(next() * (fed - a + 3));
        assert.equal(store.slice(a, b), text.slice(a, Math.min(b, fed)), `${a}..${b}`);
      }
    }
    assert.equal(store.length, text.length);
    assert.equal(store.text(), text);
    assert.equal(store.slice(5, 2), "");
  }
});
