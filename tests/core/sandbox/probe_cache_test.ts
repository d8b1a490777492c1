import assert from "node:assert/strict";
import { join } from "node:path";
import {
  BOOT_SLACK_S,
  PROBE_FILE,
  probeCacheFile,
  probeKey,
  rememberAbi,
  rememberedAbi,
} from "../../../core/sandbox/probe_cache.ts";

const k1 = { text: "k1", boot: 1_700_000_000 };
const k2 = { text: "k2", boot: 1_700_000_000 };

Deno.test("a remembered ABI comes back only under the same key and boot", async () => {
  const dir = await Deno.makeTempDir({ prefix: "minoc_probe_cache_" });
  try {
    const file = join(dir, "deeper", PROBE_FILE);
    assert.equal(rememberedAbi(k1, file), null, "nothing kept yet");
    rememberAbi(k1, 6, file);
    assert.equal(rememberedAbi(k1, file), 6);
    assert.equal(rememberedAbi(k2, file), null, "another kernel, Deno or helper");
    const boot = k1.boot;
    assert.equal(
      rememberedAbi({ text: "k1", boot: boot + BOOT_SLACK_S }, file),
      6,
      "a reading apart",
    );
    assert.equal(rememberedAbi({ text: "k1", boot: boot - BOOT_SLACK_S - 1 }, file), null);
    assert.equal(rememberedAbi({ text: "k1", boot: boot + 3600 }, file), null, "another boot");
    rememberAbi(k2, 4, file);
    assert.equal(rememberedAbi(k1, file), null, "one entry: the last probe's");
    assert.equal(rememberedAbi(k2, file), 4);
    assert.deepEqual(
      (await Array.fromAsync(Deno.readDir(join(dir, "deeper")))).map((e) => e.name),
      [PROBE_FILE],
      "no temp file left",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a damaged or odd entry is not an answer, and a place that cannot be written is no error", async () => {
  const dir = await Deno.makeTempDir({ prefix: "minoc_probe_cache_" });
  try {
    const file = join(dir, PROBE_FILE);
    const b = '"boot":1700000000';
    const odd = ["{", "null", '"k"', '{"key":"k"}', `{"key":"k",${b}}`, `{"key":"k",${b},"abi":0}`];
    odd.push(`{"key":"k",${b},"abi":2.5}`, `{"key":"k",${b},"abi":"6"}`, '{"key":"k","abi":6}');
    for (const text of odd) {
      await Deno.writeTextFile(file, text);
      assert.equal(rememberedAbi({ text: "k", boot: 1_700_000_000 }, file), null, text);
    }
    await Deno.writeTextFile(file, `{"key":"k",${b},"abi":6}`);
    assert.equal(rememberedAbi({ text: "k", boot: 1_700_000_000 }, file), 6, "the well-formed one");
    await Deno.writeTextFile(join(dir, "plain"), "a file, not a folder\n");
    rememberAbi(k1, 6, join(dir, "plain", PROBE_FILE));
    assert.equal(rememberedAbi(k1, join(dir, "plain", PROBE_FILE)), null);
    assert.equal(rememberedAbi(k1, null), null);
    rememberAbi(k1, 6, null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the key holds the kernel, Deno, the helper's command line and the boot time", () => {
  const helper = { program: "/usr/bin/deno", args: ["run", "main.js", "__confine"] };
  const key = probeKey(helper);
  assert.ok(key !== null);
  assert.deepEqual(JSON.parse(key.text), {
    kernel: Deno.osRelease(),
    deno: Deno.version.deno,
    helper: ["/usr/bin/deno", "run", "main.js", "__confine"],
  });
  const boot = Date.now() / 1000 - Deno.osUptime();
  assert.ok(Math.abs(key.boot - boot) <= 2, `${key.boot} vs ${boot}`);
  assert.notEqual(probeKey({ ...helper, args: ["run", "other.js", "__confine"] })?.text, key.text);
});

Deno.test("the entry lives in minoc's cache folder: MINOC_CACHE_DIR, else XDG_CACHE_HOME, else HOME", () => {
  const names = ["MINOC_CACHE_DIR", "XDG_CACHE_HOME", "HOME"];
  const saved = names.map((n) => Deno.env.get(n));
  try {
    Deno.env.set("MINOC_CACHE_DIR", "/c/minoc");
    Deno.env.set("XDG_CACHE_HOME", "/x");
    Deno.env.set("HOME", "/h");
    assert.equal(probeCacheFile(), join("/c/minoc", PROBE_FILE));
    Deno.env.delete("MINOC_CACHE_DIR");
    assert.equal(probeCacheFile(), join("/x", "minoc", PROBE_FILE));
    Deno.env.delete("XDG_CACHE_HOME");
    assert.equal(probeCacheFile(), join("/h", ".cache", "minoc", PROBE_FILE));
    Deno.env.delete("HOME");
    assert.equal(probeCacheFile(), null);
  } finally {
    names.forEach((n, i) =>
      saved[i] === undefined ? Deno.env.delete(n) : Deno.env.set(n, saved[i]!)
    );
  }
});

Deno.test("a FIFO, a device or a huge file as the probe cache is not read (no hang)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "minoc_probe_cache_" });
  try {
    const file = join(dir, PROBE_FILE);
    await new Deno.Command("mkfifo", { args: [file] }).output();
    assert.equal(rememberedAbi(k1, file), null, "a FIFO");
    await Deno.remove(file);
    await Deno.symlink("/dev/zero", file);
    assert.equal(rememberedAbi(k1, file), null, "an endless device");
    await Deno.remove(file);
    const big = JSON.stringify({ key: k1.text, boot: k1.boot, abi: 6, pad: "x".repeat(70_000) });
    await Deno.writeTextFile(file, big);
    assert.equal(rememberedAbi(k1, file), null, "over the size limit");
    rememberAbi(k1, 6, file);
    assert.equal(rememberedAbi(k1, file), 6, "a fresh answer replaces it");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
