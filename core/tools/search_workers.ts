/**
 * Worker threads for large content searches on the real disk: the calling
 * thread walks the tree and hands out batches of paths; each worker reads
 * and searches its batches with the same code as the calling thread
 * (`search_kit.ts`). When a worker cannot start or fails, its batches are
 * done in the calling thread instead, so results never depend on workers.
 *
 * @example
 * ```ts
 * const workers = SearchWorkers.start(options, 2);
 * const result = await workers.submit(["/repo/a.ts", "/repo/b.ts"]);
 * workers.close();
 * ```
 * @module
 */
import {
  type BatchResult,
  type Kit,
  type KitOptions,
  makeKit,
  runBatch,
  workerSource,
} from "./search_kit.ts";

interface Job {
  paths: readonly string[];
  resolve(r: BatchResult): void;
}

interface Slot {
  worker: Worker;
  jobs: Map<number, Job>;
}

let sourceUrl: string | null = null;

/** A small pool of search workers with an in-thread fallback. */
export class SearchWorkers {
  #slots: Slot[] = [];
  #kit: Kit;
  #nextId = 0;

  private constructor(options: KitOptions, count: number) {
    this.#kit = makeKit(options);
    sourceUrl ??= URL.createObjectURL(new Blob([workerSource()], { type: "text/javascript" }));
    for (let i = 0; i < count; i++) {
      try {
        const worker = new Worker(sourceUrl, { type: "module" });
        const slot: Slot = { worker, jobs: new Map() };
        worker.onmessage = (e) => this.#done(slot, e.data.id, e.data.result);
        worker.onerror = (e) => {
          e.preventDefault();
          this.#fail(slot);
        };
        worker.postMessage({ init: options });
        this.#slots.push(slot);
      } catch {
        break;
      }
    }
  }

  /** Starts up to `count` workers (none when workers are unavailable: batches then run in this thread). */
  static start(options: KitOptions, count: number): SearchWorkers {
    return new SearchWorkers(options, count);
  }

  /** How many workers are running. */
  get size(): number {
    return this.#slots.length;
  }

  /** Searches a batch of absolute paths on the least busy worker. */
  submit(paths: readonly string[]): Promise<BatchResult> {
    if (this.#slots.length === 0) return Promise.resolve(runBatch(this.#kit, paths));
    let slot = this.#slots[0];
    for (const s of this.#slots) if (s.jobs.size < slot.jobs.size) slot = s;
    const id = this.#nextId++;
    return new Promise((resolve) => {
      slot.jobs.set(id, { paths, resolve });
      slot.worker.postMessage({ id, paths });
    });
  }

  /** Stops every worker; batches still pending resolve empty (use after the search or on abort). */
  close(): void {
    for (const slot of this.#slots) {
      slot.worker.terminate();
      for (const job of slot.jobs.values()) {
        job.resolve({ searched: 0, binary: 0, tooLarge: 0, unreadable: 0, hits: [] });
      }
      slot.jobs.clear();
    }
    this.#slots = [];
  }

  #done(slot: Slot, id: number, result: BatchResult): void {
    const job = slot.jobs.get(id);
    if (!job) return;
    slot.jobs.delete(id);
    job.resolve(result);
  }

  /** A worker broke: its batches are done in this thread. */
  #fail(slot: Slot): void {
    slot.worker.terminate();
    this.#slots = this.#slots.filter((s) => s !== slot);
    for (const job of slot.jobs.values()) job.resolve(runBatch(this.#kit, job.paths));
    slot.jobs.clear();
  }
}
