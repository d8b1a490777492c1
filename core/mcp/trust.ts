/**
 * Whether the project's own `.minoc/config/mcp.json` may start servers: a
 * project file runs programs, so it counts only in a folder the user trusts
 * (the same trust list as a project's settings: `core/config/trust.ts`).
 *
 * @module
 */
import { isFolderTrusted } from "../config/trust.ts";

/** Whether `cwd` is trusted for its project-level MCP servers. */
export function projectMcpTrusted(minocHome: string, cwd: string): Promise<boolean> {
  return isFolderTrusted(minocHome, cwd);
}
