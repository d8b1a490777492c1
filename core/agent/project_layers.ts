/**
 * Recognises the layers of a layered project (clean architecture, hexagonal,
 * onion) by folder names: domain, use cases, adapters, infrastructure. A
 * project counts as layered when at least three of the four are found and
 * one of them is the domain or the use cases.
 *
 * @example
 * ```ts
 * detectLayers(scanTree("/repo").root);
 * // [{ layer: "domain", paths: ["src/domain"] }, ...]
 * ```
 * @module
 */
import { type DirNode, folders } from "./project_scan.ts";

/** The four layers, from the inside out. */
export const LAYERS = ["domain", "use cases", "adapters", "infrastructure"] as const;

/** One layer's name. */
export type LayerName = typeof LAYERS[number];

/** A recognised layer and the folders that hold it (shallowest first). */
export interface Layer {
  layer: LayerName;
  paths: string[];
}

/** Folder names (lower case, without `-` and `_`) that name each layer. */
const NAMES: Record<LayerName, readonly string[]> = {
  domain: ["domain", "domains", "entities", "entity"],
  "use cases": ["usecases", "usecase", "application", "interactors", "services"],
  adapters: [
    "adapters",
    "adapter",
    "interfaces",
    "controllers",
    "handlers",
    "presenters",
    "presentation",
    "delivery",
    "transport",
    "http",
    "api",
    "web",
  ],
  infrastructure: [
    "infrastructure",
    "infra",
    "persistence",
    "repositories",
    "repository",
    "db",
    "database",
    "storage",
    "drivers",
    "frameworks",
  ],
};

const BY_NAME = new Map<string, LayerName>(
  LAYERS.flatMap((l) => NAMES[l].map((n) => [n, l] as [string, LayerName])),
);

/** The layers found below `root`, inside out; empty when the project is not layered. */
export function detectLayers(root: DirNode): Layer[] {
  const found = new Map<LayerName, DirNode[]>();
  for (const dir of folders(root)) {
    if (dir === root || dir.skipped) continue;
    const layer = BY_NAME.get(dir.name.toLowerCase().replace(/[-_]/g, ""));
    if (!layer || insideLayer(dir, found)) continue;
    const list = found.get(layer) ?? [];
    list.push(dir);
    found.set(layer, list);
  }
  const layered = found.size >= 3 && (found.has("domain") || found.has("use cases"));
  if (!layered) return [];
  return LAYERS.filter((l) => found.has(l)).map((layer) => ({
    layer,
    paths: found.get(layer)!.sort((a, b) => a.depth - b.depth).slice(0, 3).map((d) => d.rel),
  }));
}

/** Whether `dir` sits inside a folder already taken as a layer (`adapters/http`). */
function insideLayer(dir: DirNode, found: Map<LayerName, DirNode[]>): boolean {
  for (const list of found.values()) {
    if (list.some((d) => dir.rel.startsWith(d.rel + "/"))) return true;
  }
  return false;
}
