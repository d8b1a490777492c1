/**
 * End-to-end: light commands of the bundle compile only what they need. The
 * bundle is unpacked, then the modules holding the `openai` client and the
 * prompts library are deleted from the unpacked folder: `--version`,
 * `--help`, `security check` and `doctor` (nothing configured) must still
 * work, which they cannot if they import those modules. The tokenizer is not
 * in the bundle at all.
 *
 * The bundle under test is `MINOC_ENTRY` when it names a `.js` file (CI sets
 * it to `dist/minoc.js`); otherwise a fresh one is built from `main.ts`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { bundleUnderTest, startBundle } from "../support/bundle.ts";
import { VERSION } from "../../cli/version.ts";

const bundle = bundleUnderTest;

function start(file: string, tmp: string, args: string[]) {
  return startBundle(file, args, {
    cwd: tmp,
    env: {
      HOME: join(tmp, "home"),
      MINOC_CACHE_DIR: join(tmp, "cache"),
      MINOC_DISCOVER_PORTS: "none",
      NO_COLOR: "1",
    },
  });
}

/** The unpacked modules whose text contains `marker` (esbuild keeps each source's path). */
async function modulesWith(dir: string, marker: string): Promise<string[]> {
  const found: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    if ((await Deno.readTextFile(join(dir, e.name))).includes(marker)) found.push(e.name);
  }
  return found;
}

Deno.test("bundle: --version, --help, security check and doctor run without the openai client or the prompts library", async () => {
  const tmp = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_lazy_" }));
  try {
    const file = await bundle(tmp);
    const first = await start(file, tmp, ["--version"]);
    assert.equal(first.stdout.trim(), VERSION, first.stderr);
    const [unpacked] = await Array.fromAsync(Deno.readDir(join(tmp, "cache")));
    const dir = join(tmp, "cache", unpacked.name);
    // gpt-tokenizer names its encodings in its code; minoc only in comments, which are stripped.
    assert.deepEqual(await modulesWith(dir, "cl100k_base"), [], "no tokenizer in the bundle");
    // Text the minifier keeps: the client's environment variables, the prompts' cancel message.
    const heavy = [
      ...await modulesWith(dir, "OPENAI_ADMIN_KEY"),
      ...await modulesWith(dir, "User force closed the prompt"),
    ];
    assert.ok(heavy.length >= 2, `the client and the prompts are found: ${heavy.join(", ")}`);
    for (const name of heavy) await Deno.remove(join(dir, name));

    const version = await start(file, tmp, ["--version"]);
    assert.equal(version.stdout.trim(), VERSION, version.stderr);
    const help = await start(file, tmp, ["--help"]);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /Usage: minoc/);
    const check = await start(file, tmp, ["security", "check", "rm -rf /"]);
    assert.match(check.stdout, /BLOCK/, check.stderr);
    const doctor = await start(file, tmp, ["doctor"]);
    assert.match(doctor.stdout, /No model server configured/, doctor.stderr);
    assert.equal(doctor.code, 1, "doctor: not ready");
    // The test can fail: a command that needs the client does fail without it.
    const run = await start(file, tmp, [
      ...["run", "hi", "--base-url", "http://127.0.0.1:9/v1", "--model", "m"],
    ]);
    assert.match(run.stdout + run.stderr, /Module not found/);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
