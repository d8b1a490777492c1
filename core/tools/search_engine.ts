/**
 * The engine behind `search_files`: walk the tree (`.gitignore` honoured),
 * keep files whose path matches the name glob, and, with a content query,
 * search them (binaries skipped) for matching lines.
 *
 * On the real disk, small searches run in this thread with synchronous reads
 * (several times faster than async reads in Deno); past `WORKER_THRESHOLD`
 * files, worker threads search batches while this thread keeps walking.
 * Through any other `FsPort` (a dry-run overlay) files are read through the
 * port with a bounded pool of concurrent reads.
 *
 * @example
 * ```ts
 * const found = await searchTree({ fs: realFs, root, cwd: root, match: compileGlob("*.ts"),
 *   query: compileQuery("TODO") });
 * ```
 * @module
 */
import type { FsPort } from "../../interfaces/tool.ts";
import { readsRealDisk } from "./fs_port.ts";
import { isSecretEnvFile } from "./env_files.ts";
import type { NameMatcher } from "./glob.ts";
import {
  type BatchResult,
  type ContentQuery,
  inspectBytes,
  type Inspection,
  inspectPath,
  type Kit,
  type KitOptions,
  type LineHit,
  makeKit,
} from "./search_kit.ts";
import { SearchWorkers } from "./search_workers.ts";
import { type WalkSummary, walkTree, Yielder } from "./walk.ts";

export { compileQuery, type ContentQuery, type LineHit } from "./search_kit.ts";

/** Files larger than this are not searched (they are counted). */
export const MAX_SEARCH_BYTES = 10 * 1024 * 1024;
/** Matching lines kept per file; the rest are only counted. */
export const MAX_LINES_PER_FILE = 20;
/** From this many candidate files on, worker threads join in. */
export const WORKER_THRESHOLD = 1500;
/** Matching lines whose text is kept over the whole search; the rest are only counted. */
const MAX_STORED_LINES = 4000;
const BATCH = 200;
const POOL_SIZE = 16;

/** A file that matched. */
export interface FileHit {
  rel: string;
  /** Matching lines in the file (0 when searching names only). */
  count: number;
  /** The first few matching lines. */
  lines: LineHit[];
}

/** What to search. */
export interface SearchSpec {
  fs: FsPort;
  root: string;
  cwd: string;
  match: NameMatcher;
  /** null: list the files whose names match. */
  query: ContentQuery | null;
  signal?: AbortSignal;
  /** Use worker threads for large searches on the real disk (default true). */
  workers?: boolean;
}

/** The outcome of a search, hits in walk order (sorted paths). */
export interface SearchOutcome {
  hits: FileHit[];
  /** Files whose names matched. */
  candidates: number;
  /** Text files searched. */
  searched: number;
  binary: number;
  tooLarge: number;
  unreadable: number;
  /** `.env*` files left out of a content search (they may hold secrets). */
  secret?: number;
  walk: WalkSummary;
}

interface Candidate {
  seq: number;
  rel: string;
  abs: string;
}

/** Runs a search; throws only when the root cannot be read or the signal aborts. */
export async function searchTree(spec: SearchSpec): Promise<SearchOutcome> {
  const out: SearchOutcome = {
    hits: [],
    candidates: 0,
    searched: 0,
    binary: 0,
    tooLarge: 0,
    unreadable: 0,
    walk: { entries: 0, ignored: 0, unreadable: 0, truncated: false },
  };
  const walkOptions = {
    fs: spec.fs,
    root: spec.root,
    cwd: spec.cwd,
    recursive: true,
    signal: spec.signal,
  };
  if (!spec.query) {
    out.walk = await walkTree(walkOptions, (e) => {
      if (!e.isFile || !spec.match(e.rel, e.name)) return;
      out.candidates++;
      out.hits.push({ rel: e.rel, count: 0, lines: [] });
    });
    return out;
  }
  const options: KitOptions = {
    source: spec.query.source,
    flags: spec.query.flags,
    keep: MAX_LINES_PER_FILE,
    maxBytes: MAX_SEARCH_BYTES,
    window: 240,
  };
  const collector = new Collector(out);
  const run = readsRealDisk(spec.fs)
    ? new DiskRun(options, spec, collector)
    : new PortRun(options, spec.fs, collector);
  try {
    out.walk = await walkTree(walkOptions, (e) => {
      if (!e.isFile || !spec.match(e.rel, e.name)) return;
      if (isSecretEnvFile(e.name)) {
        out.secret = (out.secret ?? 0) + 1;
        return;
      }
      return run.add({ seq: out.candidates++, rel: e.rel, abs: e.abs });
    });
    await run.finish();
  } finally {
    run.close();
  }
  out.hits = collector.hits();
  return out;
}

/** Gathers batch results; keeps the text of at most ~`MAX_STORED_LINES` lines, earliest files first. */
class Collector {
  #found: { seq: number; hit: FileHit }[] = [];
  #stored = 0;
  constructor(private readonly out: SearchOutcome) {}

  add(batch: readonly Candidate[], r: BatchResult): void {
    this.out.searched += r.searched;
    this.out.binary += r.binary;
    this.out.tooLarge += r.tooLarge;
    this.out.unreadable += r.unreadable;
    for (const h of r.hits) {
      const c = batch[h.index];
      this.#found.push({ seq: c.seq, hit: { rel: c.rel, count: h.count, lines: h.lines } });
      this.#stored += h.lines.length;
    }
    if (this.#stored > 2 * MAX_STORED_LINES) this.#compact();
  }

  #compact(): void {
    this.#found.sort((a, b) => a.seq - b.seq);
    let kept = 0;
    for (const f of this.#found) {
      if (kept >= MAX_STORED_LINES) f.hit.lines = [];
      kept += f.hit.lines.length;
    }
    this.#stored = kept;
  }

  hits(): FileHit[] {
    return this.#found.sort((a, b) => a.seq - b.seq).map((f) => f.hit);
  }
}

/** Real disk: in this thread while small, with workers once large. */
class DiskRun {
  #kit: Kit;
  #pending: Candidate[] = [];
  #batches: Promise<void>[] = [];
  #workers: SearchWorkers | null = null;
  #yielder: Yielder;

  constructor(
    private readonly options: KitOptions,
    private readonly spec: SearchSpec,
    private readonly collector: Collector,
  ) {
    this.#kit = makeKit(options);
    this.#yielder = new Yielder(spec.signal);
  }

  add(c: Candidate): void {
    this.#pending.push(c);
    const cores = navigator.hardwareConcurrency ?? 1;
    if (
      !this.#workers && this.spec.workers !== false && cores > 1 &&
      this.#pending.length >= WORKER_THRESHOLD
    ) {
      this.#workers = SearchWorkers.start(this.options, Math.min(4, cores));
    }
    if (this.#workers && this.#pending.length >= BATCH) this.#flush(this.#workers);
  }

  #flush(workers: SearchWorkers): void {
    const batch = this.#pending;
    this.#pending = [];
    const paths = batch.map((c) => c.abs);
    this.#batches.push(workers.submit(paths).then((r) => this.collector.add(batch, r)));
  }

  async finish(): Promise<void> {
    if (this.#workers) {
      this.#flush(this.#workers);
      await Promise.all(this.#batches);
      this.spec.signal?.throwIfAborted();
      return;
    }
    for (let start = 0; start < this.#pending.length; start += BATCH) {
      const batch = this.#pending.slice(start, start + BATCH);
      const r = emptyResult();
      for (let i = 0; i < batch.length; i++) {
        countInto(r, i, inspectPath(this.#kit, batch[i].abs));
        const pause = this.#yielder.maybeYield();
        if (pause) await pause;
      }
      this.collector.add(batch, r);
    }
  }

  close(): void {
    this.#workers?.close();
  }
}

/** Any other port: reads through the port, a bounded number at a time. */
class PortRun {
  #kit: Kit;
  #running = new Set<Promise<void>>();

  constructor(
    options: KitOptions,
    private readonly fs: FsPort,
    private readonly collector: Collector,
  ) {
    this.#kit = makeKit(options);
  }

  async add(c: Candidate): Promise<void> {
    while (this.#running.size >= POOL_SIZE) await Promise.race(this.#running);
    const p: Promise<void> = this.#inspect(c).finally(() => this.#running.delete(p));
    this.#running.add(p);
  }

  async #inspect(c: Candidate): Promise<void> {
    const r = emptyResult();
    try {
      countInto(r, 0, inspectBytes(this.#kit, await this.fs.readFile(c.abs)));
    } catch {
      r.unreadable++;
    }
    this.collector.add([c], r);
  }

  async finish(): Promise<void> {
    await Promise.all(this.#running);
  }

  close(): void {}
}

function emptyResult(): BatchResult {
  return { searched: 0, binary: 0, tooLarge: 0, unreadable: 0, hits: [] };
}

function countInto(r: BatchResult, index: number, got: Inspection): void {
  if (got.kind === "binary") r.binary++;
  else if (got.kind === "too_large") r.tooLarge++;
  else if (got.kind === "unreadable") r.unreadable++;
  else r.searched++;
  if (got.kind === "hit") r.hits.push({ index, count: got.count, lines: got.lines });
}
