/**
 * End-to-end: a `run` of the bundle sends its first request before Deno's
 * `node:fs` is loaded and before Node's `process.stdout`, `stderr` or `stdin`
 * is touched (each starts more of Deno's Node layer: ~11 ms and ~8 ms of a
 * start that needs none of it; bench/NOTES.md, eleventh pass). The unpacked
 * modules' static imports of `node:fs` are pointed at a probe that notes the
 * time it is evaluated, and a preload notes each
 * `process.getBuiltinModule("node:fs")` (how the bundle loads builtins
 * lazily) and each read of the three streams; every note must come after the
 * server received the first request. The warm-up loads `node:fs` while the
 * model works, so a model that takes its time shows the probe working.
 *
 * The bundle under test is `MINOC_ENTRY` when it names a `.js` file (CI sets
 * it to `dist/minoc.js`); otherwise a fresh one is built from `main.ts`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { bundleUnderTest, startBundle } from "../support/bundle.ts";
import { startServer } from "../support/server.ts";

/** A static import of `node:fs` or `node:fs/promises`, minified or not. */
const STATIC_FS = /\b(from|import)\s*"node:fs(\/promises)?"/g;

const PRELOAD = `import process from "node:process";
const log = Deno.env.get("FS_PROBE_LOG");
const note = (what) => Deno.writeTextFileSync(log, \`\${what} \${Date.now()}\\n\`, { append: true });
const get = process.getBuiltinModule.bind(process);
process.getBuiltinModule = (id) => {
  if (/^(node:)?fs(\\/promises)?$/.test(id)) note("builtin");
  return get(id);
};
for (const name of ["stdin", "stdout", "stderr"]) {
  const d = Object.getOwnPropertyDescriptor(process, name);
  Object.defineProperty(process, name, {
    configurable: true,
    enumerable: true,
    get() {
      note(name);
      return d.get ? d.get.call(process) : d.value;
    },
  });
}
`;

function probe(id: string): string {
  return `const log = Deno.env.get("FS_PROBE_LOG");
Deno.writeTextFileSync(log, \`static \${Date.now()}\\n\`, { append: true });
export * from "${id}";
export { default } from "${id}";
`;
}

function start(file: string, tmp: string, log: string, args: string[], colour = "") {
  return startBundle(file, args, {
    cwd: join(tmp, "project"),
    flags: ["--preload", join(tmp, "preload.js")],
    env: {
      HOME: join(tmp, "home"),
      MINOC_CACHE_DIR: join(tmp, "cache"),
      MINOC_DISCOVER_PORTS: "none",
      ...(colour === "" ? { NO_COLOR: "1" } : { TERM: colour }),
      FS_PROBE_LOG: log,
    },
  });
}

/** Points every static import of `node:fs` in the unpacked modules at a probe; returns how many. */
async function probeStaticImports(dir: string): Promise<number> {
  await Deno.writeTextFile(join(dir, "fs_probe.js"), probe("node:fs"));
  await Deno.writeTextFile(join(dir, "fs_promises_probe.js"), probe("node:fs/promises"));
  let count = 0;
  for await (const e of Deno.readDir(dir)) {
    if (!e.name.endsWith(".js") || e.name.endsWith("probe.js")) continue;
    const path = join(dir, e.name);
    const text = await Deno.readTextFile(path);
    const out = text.replace(STATIC_FS, (_all, word: string, promises?: string) => {
      count++;
      return `${word}"./${promises ? "fs_promises_probe.js" : "fs_probe.js"}"`;
    });
    if (out !== text) await Deno.writeTextFile(path, out);
  }
  return count;
}

Deno.test("bundle: `run` sends its first request before node:fs is loaded or a Node stream object is read; the warm-up loads node:fs while the model works", async () => {
  const tmp = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_nofs_" }));
  try {
    await Deno.mkdir(join(tmp, "project"));
    await Deno.writeTextFile(join(tmp, "preload.js"), PRELOAD);
    const log = join(tmp, "fs.log");
    const file = await bundleUnderTest(tmp);
    const first = await start(file, tmp, log, ["--version"]);
    assert.equal(first.code, 0, first.stderr);
    const [unpacked] = await Array.fromAsync(Deno.readDir(join(tmp, "cache")));
    await probeStaticImports(join(tmp, "cache", unpacked.name));
    await Deno.remove(log).catch(() => {});

    // The model takes its time before it answers: the warm-up runs to its end meanwhile.
    await using server = await startServer({ replies: [{ text: "All done.", delayMs: 3000 }] });
    // Without NO_COLOR: whether to colour is decided without Node's stream objects too.
    const run = await start(file, tmp, log, [
      ...["run", "say hi", "--base-url", server.baseUrl, "--model", "m"],
    ], "xterm-256color");
    assert.equal(run.code, 0, run.stderr);
    const sent = server.requests.find((r) => r.path.endsWith("/chat/completions"))?.receivedAt;
    assert.ok(sent !== undefined, "the request was sent");
    const notes = (await Deno.readTextFile(log)).trim().split("\n").map((l) => l.split(" "));
    assert.ok(notes.some(([how]) => how === "builtin"), "the warm-up loaded node:fs");
    for (const [how, at] of notes) {
      assert.ok(
        Number(at) >= Math.floor(sent),
        `node:fs loaded (${how}) ${sent - Number(at)} ms before the first request`,
      );
    }
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("bundle probe: a static import of node:fs is seen when its module is evaluated", async () => {
  const tmp = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_nofs_" }));
  try {
    const dir = join(tmp, "mods");
    await Deno.mkdir(dir);
    await Deno.writeTextFile(
      join(dir, "main.js"),
      'import{existsSync as e}from"node:fs";import fs from "node:fs/promises";console.log(e("/"),typeof fs.readFile)',
    );
    assert.equal(await probeStaticImports(dir), 2);
    const log = join(tmp, "fs.log");
    await Deno.writeTextFile(join(tmp, "preload.js"), PRELOAD);
    await Deno.mkdir(join(tmp, "project"));
    const r = await start(join(dir, "main.js"), tmp, log, []);
    assert.equal(r.stdout.trim(), "true function", r.stderr);
    const notes = (await Deno.readTextFile(log)).trim().split("\n").map((l) => l.split(" ")[0]);
    assert.deepEqual(notes.sort(), ["static", "static"]);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
