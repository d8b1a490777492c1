import assert from "node:assert/strict";
import { join } from "node:path";
import { CopyPack } from "../../../core/history/copy_pack.ts";

Deno.test("CopyPack keeps copies by offset, refuses past its limit, and compacts to the live ones", async () => {
  const dir = await Deno.makeTempDir({ prefix: "minoc_pack_" });
  try {
    const src = (name: string, text: string) => {
      Deno.writeTextFileSync(join(dir, name), text);
      return join(dir, name);
    };
    const pack = new CopyPack(join(dir, "pack"), 20);
    const a = pack.add(src("a", "alpha\n"), 6)!;
    const b = pack.add(src("b", "beta\n"), 5)!;
    assert.equal(pack.add(src("c", "x".repeat(10)), 10), null, "past the 20-byte limit");
    assert.equal(pack.add(join(dir, "missing"), 1), null);
    const text = (c: { at: number; length: number }) => new TextDecoder().decode(pack.read(c));
    assert.equal(text(a), "alpha\n");
    assert.equal(text(b), "beta\n");
    pack.release(a);
    assert.equal(pack.liveBytes, 5);
    const c = pack.add(join(dir, "c"), 10)!;
    assert.equal(text(c), "x".repeat(10), "room again once a copy is released");
    const [b2, c2] = pack.compact([b, c]);
    assert.equal((await Deno.stat(join(dir, "pack"))).size, 15);
    assert.equal(text(b2), "beta\n");
    assert.equal(text(c2), "x".repeat(10));
    pack.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
