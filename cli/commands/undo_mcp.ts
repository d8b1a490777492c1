/**
 * What `/undo` says when the last tool call was an MCP tool's: minoc keeps
 * copies of the files it changes itself, but what an MCP server did happened
 * outside, so it cannot be taken back.
 *
 * @module
 */
import type { SessionMessage } from "../../interfaces/history.ts";

/** The message for `/undo` when the last recorded call was an MCP tool's; null otherwise. */
export function mcpUndoNote(messages: readonly SessionMessage[]): string | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as SessionMessage & { call?: { tool?: string } };
    if (m.role !== "tool_call") continue;
    const tool = m.call?.tool ?? "";
    if (!tool.startsWith("mcp__") || tool === "mcp_describe") return null;
    return `The last tool call, ${tool}, ran on an MCP server: minoc cannot undo what an MCP ` +
      "tool did. /undo reverts only file changes minoc made itself; use /undo --all to revert " +
      "those of the whole session.\n";
  }
  return null;
}
