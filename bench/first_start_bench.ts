/**
 * The cost of looking for a local server at start: the chat with nothing
 * configured, from spawn to its first prompt (the line that ends the
 * greeting), with discovery off, with nothing listening on the probed
 * ports, and with a listener that accepts connections but never answers
 * (the 300 ms budget is the cap). Standard input is a pipe, so the chat
 * opens the bridge without asking anything.
 *
 * `deno run --allow-all bench/first_start_bench.ts` prints the numbers.
 *
 * @module
 */
import { join } from "node:path";
import { minocEnv, RUN_FLAGS } from "../tests/support/cli.ts";
import { ROOT } from "../tests/support/cli.ts";

const READY = "Ctrl+D or /exit to quit";

/** Spawn → the first prompt's line on stdout, in ms; the chat is then closed. */
async function firstPrompt(entry: string, cwd: string, ports: string): Promise<number> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...RUN_FLAGS, entry, "--no-session"],
    cwd,
    env: minocEnv({ cwd, env: { MINOC_DISCOVER_PORTS: ports } }),
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const start = performance.now();
  let seen = "";
  let ms = NaN;
  const decoder = new TextDecoder();
  for await (const chunk of child.stdout) {
    seen += decoder.decode(chunk, { stream: true });
    if (Number.isNaN(ms) && seen.includes(READY)) {
      ms = performance.now() - start;
      await child.stdin.close();
    }
  }
  const status = await child.status;
  if (Number.isNaN(ms)) throw new Error(`the chat never showed its prompt (exit ${status.code})`);
  return ms;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function closedPorts(n: number): string {
  const ports: number[] = [];
  const held = Array.from({ length: n }, () => Deno.listen({ hostname: "127.0.0.1", port: 0 }));
  for (const l of held) ports.push((l.addr as Deno.NetAddr).port);
  for (const l of held) l.close();
  return ports.join(",");
}

/** Runs each case `runs` times after a warm-up; medians in ms. */
export async function benchFirstStart(
  o: { entry?: string; runs?: number } = {},
): Promise<Record<string, number>> {
  const entry = o.entry ?? join(ROOT, "main.ts");
  const runs = o.runs ?? 9;
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_first_bench_" }));
  const silent = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const conn of silent) held.push(conn);
  })();
  try {
    await Deno.writeTextFile(join(dir, "main.ts"), 'console.log("hi");\n');
    const silentPort = String((silent.addr as Deno.NetAddr).port);
    const cases = { none: "none", closed: closedPorts(6), silent: silentPort };
    const times: Record<keyof typeof cases, number[]> = { none: [], closed: [], silent: [] };
    for (let i = 0; i < runs + 1; i++) {
      for (const k of Object.keys(cases) as (keyof typeof cases)[]) {
        const ms = await firstPrompt(entry, dir, cases[k]);
        if (i > 0) times[k].push(ms);
      }
    }
    const none = median(times.none);
    return {
      first_prompt_off_ms: Math.round(none),
      first_prompt_nothing_ms: Math.round(median(times.closed)),
      probe_nothing_ms: Math.round(median(times.closed) - none),
      first_prompt_silent_ms: Math.round(median(times.silent)),
      probe_silent_ms: Math.round(median(times.silent) - none),
    };
  } finally {
    silent.close();
    for (const c of held) c.close();
    await accepting.catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) console.log(await benchFirstStart());
