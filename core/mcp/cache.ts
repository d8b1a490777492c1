/**
 * The last tool list of each server, kept in `<home>/cache/mcp_tools.json`
 * so a session's first request can list the tools before the servers answer.
 * An entry counts only while the server's command, arguments, URL and folder
 * are unchanged; no environment values or headers are stored.
 *
 * @module
 */
import { dirname, join } from "node:path";
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { ServerConfig } from "./config.ts";
import { readTextFile } from "../tools/bounded_read.ts";

/** The cache file in the `.minoc` home. */
export function toolCachePath(homeDir: string): string {
  return join(homeDir, "cache", "mcp_tools.json");
}

/** What identifies a server's entry: what it runs or where it is, never its secrets. */
export function cacheKey(s: ServerConfig): string {
  return JSON.stringify([s.transport, s.command ?? "", s.args, s.url ?? "", s.cwd ?? ""]);
}

type Cache = Record<string, { key: string; tools: McpTool[] }>;

/** The cache, or `{}` when it is missing or unreadable (it is only a cache). */
export async function readToolCache(file: string): Promise<Cache> {
  try {
    const json = JSON.parse(await readTextFile(file));
    return typeof json === "object" && json !== null && !Array.isArray(json) ? json : {};
  } catch {
    return {};
  }
}

/** Replaces the cache file atomically. */
export async function writeToolCache(file: string, cache: Cache): Promise<void> {
  await Deno.mkdir(dirname(file), { recursive: true });
  const tmp = `${file}.${Deno.pid}.tmp`;
  await Deno.writeTextFile(tmp, JSON.stringify(cache));
  await Deno.rename(tmp, file);
}
