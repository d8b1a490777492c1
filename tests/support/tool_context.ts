/**
 * A `ToolContext` for tests: the real disk, a real file tracker, a fresh
 * abort signal, an empty environment, no background processes, and a fixed
 * answer to questions. Override any part. Also: a temp-dir helper and
 * `callTool`, which runs a tool from raw parameter strings as the agent does.
 *
 * @example
 * ```ts
 * const dir = await Deno.makeTempDir();
 * const ctx = testContext(dir, { ask: () => Promise.resolve("yes") });
 * ```
 * @module
 */
import { dirname, join } from "node:path";
import type {
  AnyTool,
  ProcessInfo,
  ProcessTable,
  ToolContext,
  ToolResult,
} from "../../interfaces/tool.ts";
import { coerceArgs, runTool } from "../../core/tools/dispatch.ts";
import { createFileTracker } from "../../core/tools/file_tracker.ts";
import { realFs } from "../../core/tools/fs_port.ts";

/** What `ask` answers unless overridden. */
export const TEST_ANSWER = "no user is available; decide yourself";

/** A process table whose `start` throws: for tests that run no background process. */
export function noProcesses(): ProcessTable {
  return {
    start(): ProcessInfo {
      throw new Error("Background processes are not available in this test");
    },
    list: () => [],
    output: () => null,
    kill: () => Promise.resolve(false),
    killAll: () => Promise.resolve(),
  };
}

/** A context rooted at `cwd` (absolute) with real ports; `overrides` replace any field. */
export function testContext(cwd: string, overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    cwd,
    signal: new AbortController().signal,
    fs: realFs,
    files: createFileTracker(),
    env: new Map(),
    processes: noProcesses(),
    ask: () => Promise.resolve(TEST_ANSWER),
    ...overrides,
  };
}

/** Runs `fn` with a fresh temp directory (its real path), removed afterwards. */
export async function withTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_test_" }));
  try {
    return await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * Calls `tool` the way the agent does: raw string parameters (as the parser
 * gives them) coerced and validated by `coerceArgs`, then `runTool`.
 * Invalid parameters give an `invalid_args` result.
 */
export async function callTool(
  tool: AnyTool,
  params: Record<string, string | string[]>,
  ctx: ToolContext,
): Promise<ToolResult> {
  const coerced = coerceArgs(tool, { tool: tool.name, params });
  if (!coerced.ok) {
    return { ok: false, code: "invalid_args", output: coerced.message, display: coerced.message };
  }
  return await runTool(tool, coerced.args, ctx);
}

/** Writes `files` (relative path → text or bytes) under `dir`, creating directories. */
export async function makeTree(
  dir: string,
  files: Record<string, string | Uint8Array>,
): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    const abs = join(dir, rel);
    await Deno.mkdir(dirname(abs), { recursive: true });
    if (typeof content === "string") await Deno.writeTextFile(abs, content);
    else await Deno.writeFile(abs, content);
  }
}
