/**
 * Keeps the bundle light (bench/NOTES.md): zod is imported as a namespace, so
 * esbuild keeps only the parts minoc uses; and the heavy npm packages a start
 * never needs are imported only where they are used, lazily.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { ROOT } from "../support/cli.ts";

async function sources(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(dir)) {
      const path = join(dir, e.name);
      if (e.isDirectory) await walk(path);
      else if (e.name.endsWith(".ts")) out.set(relative(ROOT, path), await Deno.readTextFile(path));
    }
  };
  for (const dir of ["cli", "core", "interfaces"]) await walk(join(ROOT, dir));
  out.set("main.ts", await Deno.readTextFile(join(ROOT, "main.ts")));
  return out;
}

Deno.test("zod is imported as a namespace (`import * as z`), never as `{ z }`", async () => {
  const named = [...await sources()]
    .filter(([, text]) => /^import \{[^}]*\bz\b[^}]*\} from "zod";/m.test(text))
    .map(([file]) => file);
  assert.deepEqual(named, [], 'use `import * as z from "zod"` (or `import type { z }`)');
});

Deno.test("the tree-sitter grammar and the YAML parser are imported by one module each, loaded lazily", async () => {
  const all = await sources();
  const importers = (pkg: string) =>
    [...all]
      .filter(([, text]) => new RegExp(`^import [^;]* from "${pkg}`, "m").test(text))
      .map(([file]) => file);
  assert.deepEqual(importers("tree-sitter-bash"), ["core/permission/security/tree_sitter_load.ts"]);
  assert.deepEqual(importers('yaml"'), ["core/skills/frontmatter.ts"]);
  for (
    const [file, lazy] of [
      ["core/permission/security/tree_sitter.ts", "./tree_sitter_load.ts"],
      ["core/skills/index.ts", "./frontmatter.ts"],
    ]
  ) {
    const text = all.get(file) ?? "";
    assert.ok(text.includes(`await import("${lazy}")`), `${file} imports ${lazy} lazily`);
    assert.doesNotMatch(text, new RegExp(`^import (?!type)[^;]* from "${lazy}"`, "m"));
  }
});
