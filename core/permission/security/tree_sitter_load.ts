/**
 * The heavy half of {@link ../tree_sitter.ts}: web-tree-sitter and the bash
 * grammar (2 MB of wasm), imported as bytes into the module graph (no read
 * permission, works in a bundle). Loaded only when a command is first read,
 * so starts that never check a shell command never compile it.
 *
 * @module
 */
import { Language, Parser } from "web-tree-sitter";
import coreWasm from "web-tree-sitter/web-tree-sitter.wasm" with { type: "bytes" };
import bashWasm from "tree-sitter-bash/tree-sitter-bash.wasm" with { type: "bytes" };

/** Initialises web-tree-sitter and returns a parser set to the bash grammar. */
export async function loadBashParser(): Promise<Parser> {
  await Parser.init({ wasmBinary: coreWasm });
  const parser = new Parser();
  parser.setLanguage(await Language.load(bashWasm));
  return parser;
}
