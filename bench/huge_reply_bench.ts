/**
 * A 50 MB reply: the peak memory of `minoc run` and the size of the session
 * file it leaves. The reply is cut at `MAX_REPLY_CHARS`, so both stay close
 * to those of a normal one-turn run. Run alone with
 * `deno run --allow-all bench/huge_reply_bench.ts`.
 *
 * @module
 */
import { join } from "node:path";
import { startServer } from "../tests/support/server.ts";
import { entry } from "../tests/support/cli.ts";
import { timedRun } from "./spawn.ts";

/** Peak memory (MB) and session bytes of a run whose one reply is `mb` megabytes. */
export async function benchHugeReply(mb = 50): Promise<Record<string, number>> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_bench_huge_" }));
  const chunk = "word ".repeat(20_000); // 100 KB
  try {
    await using server = await startServer({
      replies: [{ chunks: Array.from({ length: mb * 10 }, () => chunk) }],
    });
    const r = await timedRun(["run", "hi", "--base-url", server.baseUrl, "--model", "bench"], {
      entry: entry(),
      cwd: dir,
    });
    if (r.code !== 0) throw new Error(`huge reply run failed (exit ${r.code}): ${r.stderr}`);
    return {
      huge_reply_mb: mb,
      huge_reply_peak_mb: Math.round(r.peakMb),
      huge_reply_session_mb: Math.round(await sessionBytes(dir) / 1e4) / 100,
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function sessionBytes(dir: string): Promise<number> {
  const root = join(dir, ".home", ".minoc", "history", "sessions");
  let bytes = 0;
  for await (const day of Deno.readDir(root)) {
    for await (const f of Deno.readDir(join(root, day.name))) {
      bytes += (await Deno.stat(join(root, day.name, f.name))).size;
    }
  }
  return bytes;
}

if (import.meta.main) console.log(await benchHugeReply());
