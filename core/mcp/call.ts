/**
 * One MCP tool call and what can go wrong with it, as results the model can
 * act on: the server's error, a time limit passed (the call is cancelled
 * through the protocol), the user's Ctrl+C, a connection that broke.
 *
 * @module
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ToolResult } from "../../interfaces/tool.ts";
import { toToolResult } from "./result.ts";

/** What one call needs. */
export interface CallRequest {
  server: string;
  /** The tool's minoc name. */
  name: string;
  /** The tool's name on its server. */
  original: string;
  args: Record<string, unknown>;
  /** Aborting it sends the protocol's cancellation. */
  signal: AbortSignal;
  limitMs: number;
}

/** The SDK's code for a request that passed its time limit. */
const REQUEST_TIMEOUT = -32001;

/** Calls the tool; never throws. */
export async function callServerTool(client: Client, r: CallRequest): Promise<ToolResult> {
  try {
    const raw = await client.callTool({ name: r.original, arguments: r.args }, undefined, {
      signal: r.signal,
      timeout: r.limitMs,
    });
    return toToolResult(r.name, raw);
  } catch (err) {
    if (r.signal.aborted) return cancelled(r.name);
    if ((err as { code?: number }).code === REQUEST_TIMEOUT) {
      return fail(
        "timeout",
        `${r.name} did not answer within ${r.limitMs / 1000} s; the call was cancelled`,
      );
    }
    return fail("server_error", `${r.name} failed on MCP server "${r.server}": ${oneLine(err)}`);
  }
}

/** A thrown value as one line. */
export function oneLine(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  return text.replace(/\s+/g, " ").trim().slice(0, 300);
}

/** A failed result; its first line is what the user sees. */
export function fail(code: string, output: string): ToolResult {
  return { ok: false, code, output, display: output.split("\n")[0].slice(0, 160) };
}

/** The result of a call the user cancelled. */
export function cancelled(name: string): ToolResult {
  return fail("aborted", `${name} was cancelled by the user; the server was told to stop`);
}

/** Resolves when `signal` aborts (at once when it already has). */
export function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener("abort", () => resolve(), { once: true });
  });
}
