/**
 * What the MCP hub shows of its servers, and what it needs to run them.
 *
 * @module
 */
import type { ServerConfig } from "./config.ts";
import type { AdaptedTool } from "./tool.ts";

/** Where a server stands. */
export type ServerState = "starting" | "ready" | "failed" | "disabled";

/** A server as `/mcp`, `minoc mcp list` and the prompt show it. */
export interface ServerView {
  name: string;
  config: ServerConfig;
  state: ServerState;
  /** `stdio`, `http` or `sse` (the transport in use once connected). */
  transport: string;
  tools: AdaptedTool[];
  /** Why it failed. */
  error?: string;
  /** Its stderr log (stdio servers). */
  log?: string;
  /** Stopped after a start; the next call of one of its tools starts it again. */
  restartable: boolean;
}

/** What the hub needs. */
export interface HubOptions {
  logsDir: string;
  version: string;
  /** The tool-list cache; absent: no cache. */
  cacheFile?: string;
  /** One line for the user (a server failed or stopped). */
  notify?(line: string): void;
}
