/**
 * The confined spawner's worker thread (see spawner.ts). Its first message
 * confines this thread with Landlock; every later message starts one
 * process from this thread, so the process inherits the confinement (the
 * kernel keeps a Landlock domain per thread and hands it to every child),
 * while minoc's main thread stays free. The answer to `confine` and
 * `spawn` goes through a shared buffer the main thread waits on, so
 * starting a process stays synchronous there; output and exit status come
 * back as messages.
 *
 * Messages in: {@link WorkerRequest}. Messages out: {@link WorkerEvent}.
 *
 * @module
 */
import { confineThread, type Policy } from "./landlock.ts";
import { spawnPiped } from "./spawn_piped.ts";

/** A request to the worker; `reply` is the shared answer buffer (see spawner.ts). */
export type WorkerRequest =
  | { type: "confine"; policy: Policy; reply: SharedArrayBuffer }
  | {
    type: "spawn";
    id: number;
    program: string;
    args: string[];
    cwd: string;
    env: Record<string, string>;
    reply: SharedArrayBuffer;
  };

/** What the worker reports about a process it started. */
export type WorkerEvent =
  | { type: "data"; id: number; fd: 1 | 2; chunk: Uint8Array }
  | { type: "end"; id: number; fd: 1 | 2 }
  | { type: "exit"; id: number; code: number; signal: Deno.Signal | null };

/** Answer states in the shared buffer's first cell. */
export const REPLY = { waiting: 0, ok: 1, failed: 2 } as const;

/** Writes an answer (a pid, or a failure message) and wakes the main thread. */
export function answer(reply: SharedArrayBuffer, state: number, pid: number, message = ""): void {
  const cells = new Int32Array(reply, 0, 3);
  const bytes = new TextEncoder().encode(message).subarray(0, reply.byteLength - 12);
  new Uint8Array(reply, 12).set(bytes);
  cells[1] = pid;
  cells[2] = bytes.length;
  Atomics.store(cells, 0, state);
  Atomics.notify(cells, 0);
}

// deno-lint-ignore no-explicit-any
const port = self as any as {
  onmessage: ((e: MessageEvent<WorkerRequest>) => void) | null;
  postMessage(message: WorkerEvent, transfer?: Transferable[]): void;
};

let confined = false;

port.onmessage = (e) => {
  const req = e.data;
  if (req.type === "confine") {
    let problem: string | null;
    try {
      problem = confined ? "this worker is already confined" : confineThread(req.policy);
    } catch (err) {
      problem = (err as Error).message;
    }
    confined = problem === null;
    answer(req.reply, problem === null ? REPLY.ok : REPLY.failed, 0, problem ?? "");
    return;
  }
  if (!confined) {
    answer(req.reply, REPLY.failed, 0, "the sandbox worker is not confined");
    return;
  }
  let child: Deno.ChildProcess;
  try {
    child = spawnPiped(req.program, req.args, { cwd: req.cwd, env: req.env, detached: true });
  } catch (err) {
    answer(req.reply, REPLY.failed, 0, (err as Error).message);
    return;
  }
  answer(req.reply, REPLY.ok, child.pid);
  void relay(req.id, child);
};

async function relay(id: number, child: Deno.ChildProcess): Promise<void> {
  const pump = async (stream: ReadableStream<Uint8Array>, fd: 1 | 2) => {
    try {
      for await (const chunk of stream) {
        port.postMessage({ type: "data", id, fd, chunk });
      }
    } catch {
      // the process was killed; the stream ends here
    }
    port.postMessage({ type: "end", id, fd });
  };
  // The exit is told at once: a background child may hold the pipes much longer.
  const exited = child.status.then((s) => {
    port.postMessage({ type: "exit", id, code: s.code, signal: s.signal });
  });
  await Promise.all([exited, pump(child.stdout, 1), pump(child.stderr, 2)]);
}
