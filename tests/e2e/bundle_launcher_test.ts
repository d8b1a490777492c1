/**
 * End-to-end: the bundle's launcher (.ci/bundle.ts) unpacks the program once
 * into a cache folder named after its content, copes with starts that race
 * each other, and says clearly when it cannot write the cache.
 *
 * The bundle under test is `MINOC_ENTRY` when it names a `.js` file (CI sets
 * it to `dist/minoc.js`); otherwise a fresh one is built from `main.ts`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { bundleUnderTest, startBundle } from "../support/bundle.ts";
import { VERSION } from "../../cli/version.ts";

const bundle = bundleUnderTest;

function start(file: string, cache: string, args: string[]) {
  return startBundle(file, args, { env: { MINOC_CACHE_DIR: cache, NO_COLOR: "1" }, inherit: true });
}

Deno.test("launcher: racing first starts unpack the program once into one folder named after its hash", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "minoc_launcher_" });
  try {
    const file = await bundle(tmp);
    const cache = join(tmp, "cache");
    const runs = await Promise.all([1, 2, 3].map(() => start(file, cache, ["--version"])));
    for (const r of runs) {
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trim(), VERSION);
    }
    const names = (await Array.fromAsync(Deno.readDir(cache))).map((e) => e.name);
    assert.equal(names.length, 1, `one folder, no temp leftovers: ${names.join(", ")}`);
    assert.match(names[0], /^bundle-[0-9a-f]{16}$/);
    const modules = await Array.fromAsync(Deno.readDir(join(cache, names[0])));
    assert.ok(modules.length > 10, "the program is split into modules");
    const again = await start(file, cache, ["--help"]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /Usage: minoc/);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("launcher: a cache folder that cannot be written gives a clear error and exit code 1", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "minoc_launcher_" });
  try {
    const file = await bundle(tmp);
    const blocker = join(tmp, "not-a-folder");
    await Deno.writeTextFile(blocker, "a file where the cache folder should be");
    const r = await start(file, join(blocker, "cache"), ["--version"]);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /^minoc: cannot unpack the program into ".*not-a-folder/);
    assert.match(r.stderr, /Set MINOC_CACHE_DIR to a folder minoc may write/);
    assert.doesNotMatch(r.stderr, /\n\s+at /, "no stack trace");
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("launcher: a file whose packed program was cut off says so and exits 1, unpacking nothing", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "minoc_launcher_" });
  try {
    const text = await Deno.readTextFile(await bundle(tmp));
    const cut = join(tmp, "cut.js");
    await Deno.writeTextFile(cut, text.slice(0, text.lastIndexOf("/*minoc-payload:")));
    const r = await start(cut, join(tmp, "cache"), ["--version"]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^minoc: cannot unpack the program into ".*": the file has no packed/);
    assert.doesNotMatch(r.stderr, /\n\s+at /, "no stack trace");
    const left = await Array.fromAsync(Deno.readDir(join(tmp, "cache"))).catch(() => []);
    assert.deepEqual(left.filter((e) => !e.name.endsWith(".tmp")), [], "no build folder");
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("launcher: unpacking a new build removes other builds' folders unused for 30 days and dead starts' temp folders", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "minoc_launcher_" });
  try {
    const file = await bundle(tmp);
    const cache = join(tmp, "cache");
    const made = async (name: string, daysOld: number) => {
      await Deno.mkdir(join(cache, name, "x"), { recursive: true });
      const when = new Date(Date.now() - daysOld * 86_400_000);
      await Deno.utime(join(cache, name), when, when);
    };
    await made("bundle-0000000000000001", 40);
    await made("bundle-0000000000000002", 2);
    await made("bundle-0000000000000003.dead.tmp", 1);
    await made("notes", 400); // not the launcher's: left alone
    const r = await start(file, cache, ["--version"]);
    assert.equal(r.code, 0, r.stderr);
    const names = (await Array.fromAsync(Deno.readDir(cache))).map((e) => e.name).sort();
    const others = names.filter((n) => n !== "bundle-0000000000000002" && n !== "notes");
    assert.equal(others.length, 1, `kept: ${names.join(", ")}`);
    assert.match(others[0], /^bundle-[0-9a-f]{16}$/, "this build's folder");
    assert.ok(names.includes("bundle-0000000000000002") && names.includes("notes"));
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
