/**
 * Loads web-tree-sitter with the bash grammar once and caches the parser. The
 * grammar and runtime (`tree_sitter_load.ts`) are imported on first use, so a
 * session compiles them only when it first reads a shell command.
 *
 * @module
 */
import type { Parser } from "web-tree-sitter";

let loading: Promise<Parser> | null = null;

/**
 * The shared bash parser, initialised on first use.
 *
 * @example
 * ```ts
 * const parser = await bashParser();
 * const tree = parser.parse("ls -la");
 * ```
 */
export function bashParser(): Promise<Parser> {
  loading ??= init().catch((e) => {
    loading = null;
    throw e;
  });
  return loading;
}

async function init(): Promise<Parser> {
  const { loadBashParser } = await import("./tree_sitter_load.ts");
  return loadBashParser();
}
