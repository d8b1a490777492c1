/**
 * The block format of the copy/paste bridge, also accepted from any provider
 * with `--edit-format blocks`:
 *
 * ```
 * <<<FILE: path>>>          body replaces an existing file
 * <<<FILE: [NEW] path>>>    body creates a file (parents created)
 * <<<DIFF: path>>>          unified-diff hunks against an existing file
 * <<<DELETE: path>>>        deletes a file (one line, no END)
 * <<<END>>>                 ends FILE / NEW / DIFF
 * ```
 *
 * plus the bridge's directives (`<<<REQUEST_FILE: path>>>`,
 * `<<<REQUEST_FILES>>>`, `<<<SWITCH_MODE: edit>>>`, `<<<CONTINUE>>>`).
 * Parsing ({@link parseBlocks}) and applying ({@link applyBlocks}) are pure;
 * {@link blockCall} turns a reply into the tool call that carries it through
 * the gates, so approval, recording, undo and dry-run apply unchanged.
 *
 * @example
 * ```ts
 * const parsed = parseBlocks(reply);
 * const applied = parsed.ok ? await applyBlocks(parsed.blocks, read) : parsed;
 * if (!applied.ok) console.log(applied.error, applied.block); // "hunk_not_found" 2
 * ```
 * @module
 */
import type { ToolCall } from "../../interfaces/tool.ts";
import { blockPaths, hasEditBlocks } from "./blocks_parse.ts";
import { readDirectives } from "./blocks_directives.ts";

export {
  type BlockError,
  type BlockErrorKind,
  blockPaths,
  type EditBlock,
  hasEditBlocks,
  parseBlocks,
  type ParsedBlocks,
} from "./blocks_parse.ts";
export { applyHunks, type Hunk, type HunkLine, parseHunks } from "./blocks_diff.ts";
export {
  type AppliedBlocks,
  applyBlocks,
  type FileEdit,
  normalizeBlockPath,
  type ReadText,
} from "./blocks_apply.ts";
export {
  type BridgeMode,
  type Continued,
  type Directives,
  joinParts,
  modeOf,
  readDirectives,
  splitContinue,
} from "./blocks_directives.ts";
export { BRIDGE_DOC, EDIT_BLOCKS_DOC } from "./blocks_docs.ts";

/** The tool that applies a reply's edit blocks. */
export const APPLY_BLOCKS_TOOL = "apply_edit_blocks";
/** The tool that answers the bridge's file requests and mode switches. */
export const BRIDGE_REQUEST_TOOL = "bridge_request";

/**
 * The call a reply without an XML tool call stands for: its edit blocks
 * (`apply_edit_blocks`, the whole reply as `blocks`), else — with
 * `directives` (the bridge) — its file requests and mode switch
 * (`bridge_request`); null when it holds neither.
 */
export function blockCall(text: string, o: { directives: boolean }): ToolCall | null {
  if (hasEditBlocks(text)) {
    return { tool: APPLY_BLOCKS_TOOL, params: { blocks: text, path: blockPaths(text) } };
  }
  if (!o.directives || !text.includes("<<<")) return null;
  const d = readDirectives(text);
  if (d.files.length === 0 && d.mode === undefined) return null;
  const params: ToolCall["params"] = {};
  if (d.files.length > 0) params.path = d.files;
  if (d.mode) params.mode = d.mode;
  return { tool: BRIDGE_REQUEST_TOOL, params };
}
