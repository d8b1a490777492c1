/**
 * Names MCP tools get in minoc: `mcp__<server>__<tool>`, the convention
 * Claude Code users know, with characters outside `[A-Za-z0-9_-]` replaced
 * by `_` and at most 64 characters (the longest name the XML scanner reads).
 *
 * @module
 */

/** The longest tool name the call scanner accepts. */
export const MAX_TOOL_NAME = 64;

/** `[A-Za-z0-9_-]` only; other characters become `_`. */
export function cleanName(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/g, "_");
}

/** The prefix every tool of `server` shares: `mcp__<server>__`. */
export function serverPrefix(server: string): string {
  return `mcp__${cleanName(server)}__`;
}

/**
 * The minoc name of `tool` on `server`; a name too long is cut and given a
 * short hash so two long names stay apart.
 *
 * @example
 * ```ts
 * mcpToolName("github", "create.issue"); // "mcp__github__create_issue"
 * ```
 */
export function mcpToolName(server: string, tool: string): string {
  const full = serverPrefix(server) + cleanName(tool);
  if (full.length <= MAX_TOOL_NAME) return full;
  const tag = hash(full).slice(0, 6);
  return `${full.slice(0, MAX_TOOL_NAME - 7)}_${tag}`;
}

/** An XML element name for a JSON property: `[A-Za-z0-9_-]`, starting with a letter or `_`. */
export function paramElement(property: string): string {
  const clean = cleanName(property);
  return /^[A-Za-z_]/.test(clean) ? clean : `_${clean}`;
}

function hash(text: string): string {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return (h >>> 0).toString(36);
}
