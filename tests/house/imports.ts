/**
 * Reads the relative imports of every module under the source folders, for
 * the house tests: which file imports which (static, dynamic and type-only
 * imports alike), and the layer each file belongs to.
 *
 * @module
 */
import { join, relative } from "node:path";
import { ROOT } from "../support/cli.ts";

/** Source folders, top layer first. A folder not listed here fails the test. */
export const LAYERS: readonly string[] = [
  "main.ts",
  "cli",
  "core/agent",
  "core/skills",
  "core/mcp",
  "core/config",
  "core/llm",
  "core/history",
  "core/permission",
  "core/tools",
  "core/sandbox",
  "core/protocol",
  "interfaces",
];

const IMPORT =
  /(?:^|[\s;])(?:import|export)\b[^"'`;]*?\bfrom\s*["'](\.{1,2}\/[^"']+)["']|\bimport\s*\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)|^\s*import\s*["'](\.{1,2}\/[^"']+)["']/gm;

/** Every source file (repository-relative, `/` separators) and what it imports. */
export async function importGraph(): Promise<Map<string, string[]>> {
  const graph = new Map<string, string[]>();
  const files = ["main.ts"];
  for (const dir of ["cli", "core", "interfaces"]) await collect(join(ROOT, dir), files);
  for (const file of files) {
    const text = await Deno.readTextFile(join(ROOT, file));
    const targets: string[] = [];
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2] ?? m[3];
      if (!spec.endsWith(".ts")) continue;
      const abs = join(ROOT, file, "..", spec);
      targets.push(relative(ROOT, abs).replaceAll("\\", "/"));
    }
    graph.set(file, targets);
  }
  return graph;
}

async function collect(dir: string, out: string[]): Promise<void> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) await collect(path, out);
    else if (entry.name.endsWith(".ts")) out.push(relative(ROOT, path).replaceAll("\\", "/"));
  }
}

/** The layer index of a file (0 = top), or -1 when its folder is not in {@link LAYERS}. */
export function layerOf(file: string): number {
  return LAYERS.findIndex((l) => file === l || file.startsWith(l + "/"));
}

/** Every import cycle, each as the list of files around it (shortest found per file). */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const found = new Map<string, string[]>();
  const state = new Map<string, 1 | 2>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 1);
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 1) {
        const loop = stack.slice(stack.indexOf(next));
        const key = [...loop].sort().join(" ");
        if (!found.has(key)) found.set(key, [...loop, next]);
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 2);
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return [...found.values()];
}
