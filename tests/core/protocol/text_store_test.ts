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

Deno.test("`TextStore` keeps long streams exact across tiny, small and large chunks", () => {
  // Long enough to fill the code buffer and seal blocks; lone surrogates and
  // pairs split across chunks must come back unchanged.
  const text = ("ab<c>\r\n日本語🚀 \uD800x\uDC00 " + "0123456789".repeat(9)).repeat(400);
  const sizes = [1, 1, 2, 3, 4, 5, 17, 700, 5000];
  for (let seed = 1; seed <= 6; seed++) {
    const next = rng(seed);
    const store = new TextStore();
    let fed = 0;
    while (fed < text.length) {
      const size = sizes[Math.floor(next() * (seed <= 2 ? 5 : sizes.length))];
      store.append(text.slice(fed, fed + size));
      fed = Math.min(text.length, fed + size);
      if (next() < 0.05) {
        const a = Math.floor(next() * fed);
        const b = a + Math.floor(next() * 40);
        assert.equal(store.slice(a, b), text.slice(a, Math.min(b, fed)), `${a}..${b}`);
      }
    }
    assert.equal(store.length, text.length);
    assert.equal(store.slice(1000, 9000), text.slice(1000, 9000));
    assert.equal(store.text(), text);
    assert.equal(store.slice(3, 70_000), text.slice(3, 70_000));
  }
});
