import assert from "node:assert/strict";
import { basename, join } from "node:path";
import { ROOT } from "../support/cli.ts";
import { importGraph, LAYERS } from "./imports.ts";

/** Backticked words of ARCHITECTURE.md that name repository files or folders. */
function namedPaths(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/`([^`\s]+)`/g)) {
    const word = m[1];
    if (/[<>*{}$]/.test(word) || word.startsWith("..") || word.startsWith(".minoc")) continue;
    if (word.includes("/") || /\.(ts|md|json)$/.test(word)) out.add(word);
  }
  return [...out];
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(join(ROOT, path));
    return true;
  } catch {
    return false;
  }
}

Deno.test("every path ARCHITECTURE.md names exists in the repository", async () => {
  const text = await Deno.readTextFile(join(ROOT, "ARCHITECTURE.md"));
  const paths = namedPaths(text);
  assert.ok(paths.length > 60, `only ${paths.length} paths found`);
  const files = [...(await importGraph()).keys()].map((f) => basename(f));
  const missing: string[] = [];
  for (const p of paths) {
    if (p.includes("/") ? !(await exists(p)) : !files.includes(p) && !(await exists(p))) {
      missing.push(p);
    }
  }
  assert.deepEqual(missing, []);
});

Deno.test("ARCHITECTURE.md lists the layers in the order the import test enforces", async () => {
  const text = await Deno.readTextFile(join(ROOT, "ARCHITECTURE.md"));
  const rows = [...text.matchAll(/^\|\s*\d+\s*\|\s*`([^`]+)`/gm)].map((m) =>
    m[1].replace(/\/$/, "")
  );
  assert.deepEqual(rows, [...LAYERS]);
});
