/**
 * Whether the project's own `.minoc/config/mcp.json` may start servers: a
 * project file runs programs, so it counts only in a folder the user trusts.
 *
 * @module
 */

/**
 * Whether `cwd` is trusted for its project-level MCP servers.
 *
 * TODO(trust): replace the body with `isFolderTrusted(minocHome, cwd)` from
 * `core/config/trust.ts` (added on another branch) when the branches are
 * merged. Until then no project folder is trusted, so only the servers of
 * `<home>/config/mcp.json` start, and the user is told one line about the
 * project file's servers that were left out.
 */
export function projectMcpTrusted(_minocHome: string, _cwd: string): Promise<boolean> {
  return Promise.resolve(false);
}
