/**
 * Prepares what a session's first tool calls would otherwise prepare between
 * the end of the model's reply and the next request: V8 compiles each
 * function and regular expression on first use, WebCrypto starts on the first
 * digest, and the gates read their rule files once. The work runs only while
 * the model works (from the request's departure to the reply's end: the agent
 * is waiting anyway), in slices; when the reply ends it stops until the next
 * request is out, so it never delays the agent's own turn. Nothing here
 * decides a call, writes a file or changes what a check sees.
 *
 * @example
 * ```ts
 * const warm = new WarmUp(tools, pipeline);
 * // when a request has gone out, and on the first text of each reply:
 * warm.resume("waiting");
 * warm.resume("streaming");
 * // when the reply has ended:
 * warm.pause();
 * ```
 * @module
 */
import type { AnyTool, GateInput, ParamSpec, ToolCall } from "../../interfaces/tool.ts";
import type { Pipeline } from "../permission/pipeline.ts";
import { sha256 } from "../history/backups.ts";
import { CallScanner } from "../protocol/xml.ts";
import { coerceArgs } from "../tools/dispatch.ts";
import { useNodeExists } from "../tools/fs_port.ts";
import { rehearse } from "./rehearsal.ts";

/** The warm-up of one session: started by the first {@link resume}, done once. */
export class WarmUp {
  #tools: readonly AnyTool[];
  #pipeline: Pipeline;
  #active = false;
  #started = false;
  #stopped = false;
  #parked: ((go: boolean) => void)[] = [];
  #sliceStart = -Infinity;
  #sliceMs = SLICE_MS;
  /** A request is out and the model has sent nothing yet. */
  #waiting = false;
  /** When the last request went out, and whether a large piece has run since. */
  #askedAt = 0;
  #tookLarge = false;
  /** Large pieces waiting for the next request. */
  #large: (() => void)[] = [];

  #rehearse: boolean;
  #cwd: string | undefined;

  /**
   * `rehearse`: also run the first file tools once in a scratch folder (see
   * `rehearsal.ts`); `cwd`: the project, for the sample calls the gates judge.
   */
  constructor(
    tools: readonly AnyTool[],
    pipeline: Pipeline,
    o: { rehearse?: boolean; cwd?: string } = {},
  ) {
    this.#tools = tools;
    this.#pipeline = pipeline;
    this.#rehearse = o.rehearse ?? false;
    this.#cwd = o.cwd;
  }

  /**
   * The model works: work may go on (and starts, the first time). While it
   * has sent no text yet (`waiting`), nothing is there to read, so the work
   * goes in longer slices; once it streams, in short ones, so that the reply's
   * end is seen at once.
   */
  resume(phase: "waiting" | "streaming" = "streaming"): void {
    this.#sliceMs = phase === "waiting" ? WAITING_SLICE_MS : SLICE_MS;
    this.#active = true;
    this.#waiting = phase === "waiting";
    if (this.#waiting) {
      this.#askedAt = performance.now();
      this.#tookLarge = false;
      for (const go of this.#large.splice(0)) go();
    }
    const parked = this.#parked;
    this.#parked = [];
    // Nothing is parked once stopped (`stop()` answers the parked, `slice()` parks no more).
    for (const go of parked) setTimeout(() => go(true), 0);
    if (this.#started) return;
    this.#started = true;
    this.#run().catch(() => {});
  }

  /** The reply ended: no more steps until the next {@link resume}. */
  pause(): void {
    this.#active = false;
    this.#waiting = false;
  }

  /** The session ends: work waiting for its next slice is told to stop, and none starts. */
  stop(): void {
    this.#stopped = true;
    const parked = this.#parked;
    this.#parked = [];
    for (const go of parked) go(false);
  }

  /**
   * For other background work of the session (the crash check of recorded
   * sessions): resolves true when its next small piece may run (the model
   * works, as for the warm-up's own steps), false once the session ends.
   */
  slice(): Promise<boolean> {
    if (this.#stopped) return Promise.resolve(false);
    if (this.#active && performance.now() - this.#sliceStart < this.#sliceMs) {
      return Promise.resolve(true);
    }
    return new Promise<boolean>((resolve) => {
      setTimeout(() => {
        if (this.#stopped) resolve(false);
        else if (this.#active) resolve(true);
        else this.#parked.push(resolve);
      }, 0);
    }).then((go) => {
      this.#sliceStart = performance.now();
      return go;
    });
  }

  // What a first call needs comes first: the reply's parse, the gates, then the file tools.
  async #run(): Promise<void> {
    const step = () => this.#step();
    await step();
    // The reply's end: the scanner's first finish().
    scanOnce(this.#tools);
    await step();
    // A file's first backup hashes it: WebCrypto starts up on its first digest.
    await sha256(new Uint8Array(0));
    await this.#pipeline.warm(step, this.#samples(), () => this.#largeStep());
    if (this.#rehearse) await rehearse(this.#tools, step);
    for (const tool of this.#tools) {
      await step();
      coerceArgs(tool, sampleCall(tool));
    }
    // The largest piece, last.
    await this.#largeStep();
    useNodeExists();
  }

  /** A read and a write of a project file that is never touched, as the gates see calls. */
  #samples(): GateInput[] {
    const cwd = this.#cwd;
    if (cwd === undefined) return [];
    const inputs: GateInput[] = [];
    const calls: ToolCall[] = [
      { tool: "read_file", params: { path: WARM_PATH } },
      { tool: "write_to_file", params: { path: WARM_PATH, content: "a\n" } },
    ];
    for (const call of calls) {
      const tool = this.#tools.find((t) => t.name === call.tool);
      const coerced = tool && coerceArgs(tool, call);
      if (!tool || !coerced?.ok) continue;
      inputs.push({ call, tool, args: coerced.args, preview: { kind: "none" }, cwd });
    }
    return inputs;
  }

  /**
   * Goes on at once while the current slice of work is short; else resolves
   * on a later turn of the event loop, once the model is streaming (a timer
   * takes a millisecond or more, too long to wait after every small piece).
   * Once the session has ended it never resolves: the rest is not needed.
   */
  #step(): Promise<void> {
    return this.slice().then((go) => go ? undefined : new Promise<void>(() => {}));
  }

  /**
   * Before a piece that cannot be cut (a module's load, several milliseconds):
   * resolves while the model has sent nothing since the request — for the
   * first such piece after a request at once, for the next ones once it has
   * been silent for {@link QUIET_MS}. Run at any other time, the piece could
   * still be running when a reply ends, and the agent's turn would wait for
   * it. Once the session has ended it never resolves.
   */
  async #largeStep(): Promise<void> {
    for (;;) {
      if (this.#stopped) return await new Promise<void>(() => {});
      if (this.#waiting) {
        const silent = performance.now() - this.#askedAt;
        if (!this.#tookLarge || silent >= QUIET_MS) {
          this.#tookLarge = true;
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, QUIET_MS - silent));
        continue;
      }
      await new Promise<void>((resolve) => this.#large.push(resolve));
    }
  }
}

/** A path in the project that no sample call touches (`file_ops.ts` judges the same one). */
const WARM_PATH = ".minoc-warm-up";

/**
 * A model silent this long since the request is still working on it (reading
 * the prompt): another large piece may run. One that answers at once has sent
 * its first text by then (bench/NOTES.md).
 */
const QUIET_MS = 20;

/** Work done between two chances for the stream to be read, while the reply streams. */
const SLICE_MS = 0.5;

/**
 * The same before the reply's first text. Each chance costs ~2 ms of waiting
 * for a timer, so short slices would leave the warm-up only a fifth of the
 * model's time to its first token; a reply that starts and ends within one
 * slice is seen at most this late.
 */
const WAITING_SLICE_MS = 4;

/** A reply with a call of the first tool, streamed in two pieces through a scanner. */
function scanOnce(tools: readonly AnyTool[]): void {
  const tool = tools[0];
  if (tool === undefined) return;
  const params = tool.params.map((p) => `<${p.name}>${sample(p)}</${p.name}>`).join("\n");
  const reply =
    `Doing it.\n<tool_call>\n<${tool.name}>\n${params}\n</${tool.name}>\n</tool_call>\n`;
  const scanner = new CallScanner(tools);
  const half = reply.length >> 1;
  scanner.push(reply.slice(0, half));
  scanner.push(reply.slice(half));
  scanner.finish();
}

function sampleCall(tool: AnyTool): ToolCall {
  return {
    tool: tool.name,
    params: Object.fromEntries(tool.params.map((p) => [p.name, sample(p)])),
  };
}

function sample(p: ParamSpec): string {
  return p.type === "integer" ? "1" : p.type === "boolean" ? "true" : "a";
}
