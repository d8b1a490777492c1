/**
 * Where a stdio MCP server's stderr is kept.
 *
 * @module
 */
import { join } from "node:path";

/** `<logs>/mcp/<name>.log`. */
export function stderrLogPath(logsDir: string, name: string): string {
  return join(logsDir, "mcp", `${name.replace(/[^A-Za-z0-9_.-]/g, "_")}.log`);
}
