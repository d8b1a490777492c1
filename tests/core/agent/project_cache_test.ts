import assert from "node:assert/strict";
import { join } from "node:path";
import { analyzeProject } from "../../../core/agent/project.ts";
import { cachePath, RACY_MS } from "../../../core/agent/project_cache.ts";

/** A project whose folders and files all look older than {@link RACY_MS}. */
async function project(files: Record<string, string>): Promise<{ root: string; cache: string }> {
  const base = await Deno.makeTempDir({ prefix: "minoc_project_cache_" });
  const root = join(base, "p");
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(join(root, path, ".."), { recursive: true });
    await Deno.writeTextFile(join(root, path), text);
  }
  age(root);
  return { root: await Deno.realPath(root), cache: join(base, "cache") };
}

/** Sets every time below `dir` (and `dir`) a minute back. */
function age(dir: string): void {
  const old = new Date(Date.now() - 30 * RACY_MS);
  for (const e of Deno.readDirSync(dir)) {
    const path = join(dir, e.name);
    if (e.isDirectory) age(path);
    else Deno.utimeSync(path, old, old);
  }
  Deno.utimeSync(dir, old, old);
}

const FILES = {
  "package.json": '{"scripts":{"test":"vitest"}}',
  "src/a.ts": "",
  "src/deep/b.ts": "",
  ".gitignore": "gen/\n",
  "gen/x.ts": "",
  "AGENTS.md": "Use tabs.",
};

Deno.test("`analyzeProject()` with a cache: the next session takes the kept facts, rendered alike", async () => {
  const { root, cache } = await project(FILES);
  const first = await analyzeProject(root, { cacheDir: cache });
  assert.equal(first.kept, undefined);
  const again = await analyzeProject(root, { cacheDir: cache });
  assert.equal(again.kept, true);
  assert.equal(again.ms.scan, 0);
  assert.equal(again.section, first.section);
  assert.equal(again.instructions, "Use tabs.");
  assert.deepEqual(again.facts, first.facts);
  // Other options (a budget) are another analysis.
  assert.equal(
    (await analyzeProject(root, { cacheDir: cache, budgetTokens: 300 })).kept,
    undefined,
  );
});

Deno.test("a kept analysis is dropped when a file is added deep down, a manifest, .gitignore or AGENTS.md changes", async () => {
  const changes: [string, (root: string) => void, RegExp][] = [
    [
      "a new file below",
      (r) => Deno.writeTextFileSync(join(r, "src/deep/c.ts"), ""),
      /b\.ts c\.ts/,
    ],
    [
      "the manifest's scripts",
      (r) => Deno.writeTextFileSync(join(r, "package.json"), '{"scripts":{"test":"jest --ci"}}'),
      /test `npm test`|jest/,
    ],
    ["the .gitignore", (r) => Deno.writeTextFileSync(join(r, ".gitignore"), "\n"), /gen\//],
    ["AGENTS.md", (r) => Deno.writeTextFileSync(join(r, "AGENTS.md"), "Use spaces."), /./],
  ];
  for (const [what, change, shows] of changes) {
    const { root, cache } = await project(FILES);
    await analyzeProject(root, { cacheDir: cache });
    change(root);
    age(root); // still old: only the contents or the entries differ
    const after = await analyzeProject(root, { cacheDir: cache });
    assert.equal(after.kept, undefined, `${what}: walked again`);
    assert.match(after.section + (after.instructions ?? ""), shows, what);
    assert.equal(
      (await analyzeProject(root, { cacheDir: cache })).kept,
      true,
      `${what}: kept anew`,
    );
  }
});

Deno.test("an analysis with a time too recent to trust is not kept, and a broken cache file is ignored", async () => {
  const { root, cache } = await project(FILES);
  Deno.writeTextFileSync(join(root, "src/new.ts"), ""); // src/ changed just now
  await analyzeProject(root, { cacheDir: cache });
  assert.equal((await analyzeProject(root, { cacheDir: cache })).kept, undefined);
  age(root);
  await analyzeProject(root, { cacheDir: cache });
  Deno.writeTextFileSync(cachePath(cache, root), "{ not json");
  const p = await analyzeProject(root, { cacheDir: cache });
  assert.equal(p.kept, undefined);
  assert.match(p.section, /new\.ts/);
});
