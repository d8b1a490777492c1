/**
 * Confined spawners: ways to start a command so that the OS holds it (and
 * everything it starts) to a {@link Policy}.
 *
 * - **Linux, FFI allowed:** one worker thread per policy confines itself
 *   with Landlock once and starts every command from then on (see
 *   spawn_worker.ts). Starting a command costs about what an unconfined
 *   start costs; the main thread waits for the pid on a shared buffer, so
 *   `spawn` stays synchronous.
 * - **Linux without FFI in this process** (`deno task start` from source):
 *   the `__confine` helper process confines itself and becomes the command
 *   (about 25 ms more per command).
 * - **macOS:** `sandbox-exec` with a profile.
 *
 * @example
 * ```ts
 * const s = await confinedSpawner({ dirs: [cwd, tmp], files: ["/dev/null"] });
 * if (s.ok) s.spawner.spawn("bash", ["-c", "make"], { cwd, env });
 * ```
 * @module
 */
import type { CommandSpawner, SpawnedProcess } from "../../interfaces/tool.ts";
import { confinement, type Started } from "./confine.ts";
import type { Policy } from "./landlock.ts";
import { REPLY, type WorkerEvent, type WorkerRequest } from "./spawn_worker.ts";

/** A spawner for a policy, or why there is none. */
export type SpawnerResult =
  | { ok: true; spawner: CommandSpawner & { dispose(): void }; label: string }
  | { ok: false; reason: string };

/** How long the main thread waits for the worker's answer. */
const ANSWER_MS = 20_000;

/** Builds the cheapest spawner that holds commands to `policy` here. */
export async function confinedSpawner(policy: Policy): Promise<SpawnerResult> {
  const c = await confinement();
  if (c.kind === "none") return { ok: false, reason: c.reason };
  if (c.kind === "landlock" && ffiAllowed()) {
    try {
      return { ok: true, spawner: new WorkerSpawner(policy), label: c.label };
    } catch (e) {
      return { ok: false, reason: (e as Error).message };
    }
  }
  const wrap = (program: string, args: string[]): Started => c.wrap(program, args, policy);
  return { ok: true, spawner: wrappingSpawner(wrap), label: c.label };
}

function ffiAllowed(): boolean {
  try {
    return Deno.permissions.querySync({ name: "ffi" }).state === "granted";
  } catch {
    return false;
  }
}

/** Starts `program args` through `wrap` (a helper or sandbox-exec in front). */
function wrappingSpawner(
  wrap: (program: string, args: string[]) => Started,
): CommandSpawner & { dispose(): void } {
  return {
    spawn(program, args, options) {
      const w = wrap(program, args);
      return new Deno.Command(w.program, {
        args: w.args,
        cwd: options.cwd,
        env: options.env,
        clearEnv: true,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
        detached: true,
      }).spawn();
    },
    dispose() {},
  };
}

interface Pending {
  /** Streams and exit still to come. */
  left: number;
  out: ReadableStreamDefaultController<Uint8Array>;
  err: ReadableStreamDefaultController<Uint8Array>;
  exit(status: Deno.CommandStatus): void;
}

/** Starts processes from a Landlock-confined worker thread. */
class WorkerSpawner implements CommandSpawner {
  #worker: Worker;
  #pending = new Map<number, Pending>();
  #next = 1;

  constructor(policy: Policy) {
    this.#worker = new Worker(new URL("./spawn_worker.ts", import.meta.url), { type: "module" });
    this.#worker.onmessage = (e: MessageEvent<WorkerEvent>) => this.#event(e.data);
    const problem = this.#ask({ type: "confine", policy, reply: reply() }).problem;
    if (problem !== null) {
      this.#worker.terminate();
      throw new Error(problem);
    }
  }

  spawn(
    program: string,
    args: string[],
    options: { cwd: string; env: Record<string, string> },
  ): SpawnedProcess {
    const id = this.#next++;
    const answer = this.#ask({ type: "spawn", id, program, args, ...options, reply: reply() });
    if (answer.problem !== null) throw new Error(answer.problem);
    let out!: ReadableStreamDefaultController<Uint8Array>;
    let err!: ReadableStreamDefaultController<Uint8Array>;
    const stdout = new ReadableStream<Uint8Array>({ start: (c) => void (out = c) });
    const stderr = new ReadableStream<Uint8Array>({ start: (c) => void (err = c) });
    const status = new Promise<Deno.CommandStatus>((exit) => {
      this.#pending.set(id, { left: 3, out, err, exit });
    });
    return { pid: answer.pid, status, stdout, stderr, unref() {} };
  }

  /** Stops the worker; processes it started keep running (stop them first). */
  dispose(): void {
    this.#worker.terminate();
  }

  #ask(req: WorkerRequest): { pid: number; problem: string | null } {
    this.#worker.postMessage(req);
    const cells = new Int32Array(req.reply, 0, 3);
    const waited = Atomics.wait(cells, 0, REPLY.waiting, ANSWER_MS);
    if (waited === "timed-out") return { pid: 0, problem: "the sandbox worker did not answer" };
    const state = Atomics.load(cells, 0);
    const text = new TextDecoder().decode(new Uint8Array(req.reply, 12, cells[2]).slice());
    return { pid: cells[1], problem: state === REPLY.ok ? null : text || "unknown failure" };
  }

  #event(e: WorkerEvent): void {
    const p = this.#pending.get(e.id);
    if (!p) return;
    const stream = e.type !== "exit" && e.fd === 1 ? p.out : p.err;
    if (e.type === "data") {
      stream.enqueue(e.chunk);
      return;
    }
    if (e.type === "end") stream.close();
    else p.exit({ success: e.code === 0 && e.signal === null, code: e.code, signal: e.signal });
    if (--p.left === 0) this.#pending.delete(e.id);
  }
}

function reply(): SharedArrayBuffer {
  return new SharedArrayBuffer(4096);
}
