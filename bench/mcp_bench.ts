/**
 * Benchmark of session start with three MCP servers configured (the stdio
 * test server, `server-everything` and `server-filesystem`): start → first
 * request of `run` with none and with three servers (servers start in the
 * background, so this should not grow), the whole one-turn run (it ends by
 * stopping the servers), the time until all three have listed their tools,
 * and the system prompt's size with their 34 tools listed by name.
 *
 * Run alone: `deno run -A bench/mcp_bench.ts`
 *
 * @module
 */
import { join } from "node:path";
import { resolveServer } from "../core/mcp/config.ts";
import { McpHub } from "../core/mcp/hub.ts";
import { ROOT } from "../tests/support/cli.ts";
import { fetchNpmServers, threeServers, writeMcpConfig } from "../tests/support/mcp.ts";
import { startServer } from "../tests/support/server.ts";
import { median, round, timedRun } from "./spawn.ts";

const servers = threeServers;

/** Start → first request and wall time of `run`, after one warm-up run. */
async function runs(dir: string, entry: string, n: number) {
  await using server = await startServer({ replies: [{ text: "All done." }], loop: true });
  const first: number[] = [];
  const wall: number[] = [];
  let promptChars = 0;
  for (let i = 0; i < n + 1; i++) {
    const before = server.requests.length;
    const r = await timedRun(["run", "say hi", "--base-url", server.baseUrl, "--model", "b"], {
      entry,
      cwd: dir,
    });
    if (r.code !== 0) throw new Error(`minoc run failed (exit ${r.code}): ${r.stderr}`);
    promptChars = (server.requests[before].body.messages[0].content as string).length;
    if (i === 0) continue;
    first.push(server.requests[before].receivedAt - r.startedAt);
    wall.push(r.wallMs);
  }
  return { first: median(first), wall: median(wall), promptChars };
}

/** Time until all three servers are ready, in process. */
async function readyMs(dir: string, n: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const configs = Object.entries(servers(dir)).map(([name, raw]) =>
      resolveServer(name, raw, "home", "bench", {})
    );
    const hub = new McpHub(configs, { logsDir: join(dir, "logs"), version: "bench" });
    const t = performance.now();
    hub.start();
    await hub.settled();
    times.push(performance.now() - t);
    if (hub.servers().some((s) => s.state !== "ready")) {
      throw new Error(hub.servers().map((s) => `${s.name}: ${s.error ?? s.state}`).join("; "));
    }
    await hub.close();
  }
  return median(times);
}

/** Runs the benchmark from source. */
export async function benchMcp(n = 5): Promise<Record<string, number>> {
  await fetchNpmServers();
  const dir = await Deno.makeTempDir({ prefix: "minoc_mcp_bench_" });
  try {
    await Deno.writeTextFile(join(dir, "keep.txt"), "x\n");
    const entry = join(ROOT, "main.ts");
    const none = await runs(dir, entry, n);
    await writeMcpConfig(join(dir, ".home", ".minoc"), servers(dir));
    for (const name of Object.keys(servers(dir))) {
      // `mcp test` keeps each server's tool list, as a user's earlier sessions would.
      const r = await timedRun(["mcp", "test", name], { entry, cwd: dir });
      if (r.code !== 0) throw new Error(`minoc mcp test ${name} failed: ${r.stderr}`);
    }
    const three = await runs(dir, entry, n);
    return {
      first_request_none_ms: round(none.first),
      first_request_three_ms: round(three.first),
      run_wall_none_ms: round(none.wall),
      run_wall_three_ms: round(three.wall),
      all_ready_ms: round(await readyMs(dir, n)),
      prompt_added_chars: three.promptChars - none.promptChars,
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) {
  for (const [name, value] of Object.entries(await benchMcp())) console.log(`${name}: ${value}`);
}
