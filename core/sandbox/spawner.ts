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
 * const f = await spawnerFactory();
 * if (f.ok) f.make({ dirs: [cwd, tmp], files: ["/dev/null"] }).spawn("bash", ["-c", "make"], { cwd, env });
 * ```
 * @module
 */
import { spawnPiped } from "./spawn_piped.ts";
import type { CommandSpawner, SpawnedProcess } from "../../interfaces/tool.ts";
import { confinement, type Started } from "./confine.ts";
import { landlockAbi, networkConfinable, type Policy } from "./landlock.ts";
import { REPLY, type WorkerEvent, type WorkerRequest } from "./spawn_worker.ts";

/** A spawner that can be stopped. */
export type DisposableSpawner = CommandSpawner & { dispose(): void };

/** What can confine commands here, or why nothing can. */
export type SpawnerFactory =
  | {
    ok: true;
    /** `Landlock (ABI 7)`, `sandbox-exec`. */
    label: string;
    /** Whether `noNetwork` can be enforced. */
    network: boolean;
    /** A spawner for `policy`; throws when the OS refuses the policy. */
    make(policy: Policy): DisposableSpawner;
  }
  | { ok: false; reason: string };

/** How long the main thread waits for the worker's answer. */
const ANSWER_MS = 20_000;

/** Finds the cheapest way to confine commands here (`MINOC_NO_CONFINE=1` turns it off). */
export async function spawnerFactory(): Promise<SpawnerFactory> {
  if (Deno.env.get("MINOC_NO_CONFINE") === "1") {
    return { ok: false, reason: "MINOC_NO_CONFINE=1 turned it off" };
  }
  if (Deno.build.os === "linux" && ffiAllowed() && workerScriptThere()) {
    let abi: number;
    try {
      abi = landlockAbi();
    } catch (e) {
      return { ok: false, reason: (e as Error).message };
    }
    if (abi === 0) {
      return {
        ok: false,
        reason: "Landlock is not available in this kernel (Linux 5.13+ with Landlock on)",
      };
    }
    return {
      ok: true,
      label: `Landlock (ABI ${abi})`,
      network: networkConfinable(abi),
      make: (policy) => new WorkerSpawner(policy),
    };
  }
  const c = await confinement();
  if (c.kind === "none") return { ok: false, reason: c.reason };
  const abi = Number(/ABI (\d+)/.exec(c.label)?.[1] ?? 0);
  return {
    ok: true,
    label: c.label,
    network: c.kind === "seatbelt" || networkConfinable(abi),
    make: (policy) => wrappingSpawner((program, args) => c.wrap(program, args, policy)),
  };
}

/** The worker's script: next to this module from source and in a compiled binary (`--include`). */
const WORKER_URL = new URL("./spawn_worker.ts", import.meta.url);

/** Whether the worker can load (a bundle has no file next to it: the helper is used there). */
function workerScriptThere(): boolean {
  try {
    return WORKER_URL.protocol === "file:" && Deno.statSync(WORKER_URL).isFile;
  } catch {
    return false;
  }
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
): DisposableSpawner {
  return {
    spawn(program, args, options) {
      const w = wrap(program, args);
      return spawnPiped(w.program, w.args, { ...options, detached: true });
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
    this.#worker = new Worker(WORKER_URL, { type: "module" });
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
