/**
 * Loads web-tree-sitter with the bash grammar once, from bytes imported into
 * the module graph (no read permission, works in a bundle), and caches the
 * parser.
 *
 * @module
 */
import { Language, Parser } from "web-tree-sitter";
import coreWasm from "web-tree-sitter/web-tree-sitter.wasm" with { type: "bytes" };
import bashWasm from "tree-sitter-bash/tree-sitter-bash.wasm" with { type: "bytes" };

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
  await Parser.init({ wasmBinary: coreWasm });
  const parser = new Parser();
  parser.setLanguage(await Language.load(bashWasm));
  return parser;
}
