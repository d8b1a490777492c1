/**
 * Per-file work of a content search, written as self-contained functions
 * (no module-level references besides each other) so the same code runs in
 * the calling thread and, serialised with `workerSource()`, in workers.
 *
 * @example
 * ```ts
 * const kit = makeKit({ source: "TODO", flags: "m", keep: 20, maxBytes: 1e7, window: 240 });
 * inspectPath(kit, "/repo/a.ts"); // { kind: "hit", count: 1, lines: [...] }
 * ```
 * @module
 */
import { decodeTextWith } from "./paths.ts";

/** How a search treats each file. */
export interface KitOptions {
  /** Regular expression source and flags (without `g`). */
  source: string;
  flags: string;
  /** Matching lines kept per file. */
  keep: number;
  /** Larger files are not searched. */
  maxBytes: number;
  /** Characters of a long line shown around the match. */
  window: number;
}

/** Reusable state for inspecting many files. */
export interface Kit {
  options: KitOptions;
  buf: Uint8Array;
  loose: TextDecoder;
  probe: RegExp;
  scan: RegExp;
}

/** One matching line. */
export interface LineHit {
  line: number;
  text: string;
}

/** What one file gave. */
export type Inspection =
  | { kind: "hit"; count: number; lines: LineHit[] }
  | { kind: "miss" | "binary" | "too_large" | "unreadable" };

/** Counts and hits of a batch of files (hits by index into the batch). */
export interface BatchResult {
  searched: number;
  binary: number;
  tooLarge: number;
  unreadable: number;
  hits: { index: number; count: number; lines: LineHit[] }[];
}

/** A compiled content query. */
export interface ContentQuery {
  source: string;
  flags: string;
  /** Set when the text was not a valid regular expression and is searched as plain text. */
  note?: string;
}

/**
 * A query from the model's text: a JavaScript regular expression (`^`/`$`
 * per line; a leading `(?i)` ignores case). Invalid ones become plain text.
 */
export function compileQuery(content: string): ContentQuery {
  let source = content;
  let flags = "m";
  if (source.startsWith("(?i)")) {
    source = source.slice(4);
    flags += "i";
  }
  try {
    new RegExp(source, flags);
    return { source, flags };
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return {
      source: source.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
      flags,
      note:
        `"${content}" is not a valid regular expression (${why}); searched for it as plain text`,
    };
  }
}

/** A kit for `options`; throws when the expression is invalid. */
export function makeKit(options: KitOptions): Kit {
  return {
    options,
    buf: new Uint8Array(1024 * 1024),
    loose: new TextDecoder("utf-8", { ignoreBOM: true }),
    probe: new RegExp(options.source, options.flags),
    scan: new RegExp(options.source, options.flags + "g"),
  };
}

/**
 * The bytes of the file at `path` (valid until the next call), `"too_large"`
 * or null when it cannot be read. One read into the kit's buffer: a read that
 * does not fill it is the whole file (true of regular files on local disks).
 */
export function readPath(kit: Kit, path: string): Uint8Array | "too_large" | null {
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path);
  } catch {
    return null;
  }
  try {
    const got = file.readSync(kit.buf) ?? 0;
    if (got < kit.buf.length) return kit.buf.subarray(0, got);
    if (file.statSync().size > kit.options.maxBytes) return "too_large";
    return Deno.readFileSync(path);
  } catch {
    return null;
  } finally {
    file.close();
  }
}

/** Inspects a file's bytes. */
export function inspectBytes(kit: Kit, bytes: Uint8Array): Inspection {
  if (bytes.length > kit.options.maxBytes) return { kind: "too_large" };
  const text = decodeTextWith(kit.loose, bytes);
  if (text === null) return { kind: "binary" };
  if (!kit.probe.test(text)) return { kind: "miss" };
  return matchLines(kit, text);
}

/** Reads and inspects the file at `path`. */
export function inspectPath(kit: Kit, path: string): Inspection {
  const bytes = readPath(kit, path);
  if (bytes === null) return { kind: "unreadable" };
  if (bytes === "too_large") return { kind: "too_large" };
  return inspectBytes(kit, bytes);
}

/** The lines of `text` the kit's expression matches, the first `keep` with their text. */
export function matchLines(kit: Kit, text: string): Inspection {
  const scan = kit.scan;
  const lines: LineHit[] = [];
  let count = 0;
  let line = 1;
  let lineStart = 0;
  let nl = text.indexOf("\n");
  scan.lastIndex = 0;
  for (let m = scan.exec(text); m !== null; m = scan.exec(text)) {
    while (nl !== -1 && nl < m.index) {
      line++;
      lineStart = nl + 1;
      nl = text.indexOf("\n", lineStart);
    }
    const lineEnd = nl === -1 ? text.length : nl;
    count++;
    if (lines.length < kit.options.keep) {
      const raw = text.slice(lineStart, lineEnd);
      lines.push({ line, text: clipLine(raw, m.index - lineStart, kit.options.window) });
    }
    if (lineEnd >= text.length) break;
    scan.lastIndex = lineEnd + 1;
  }
  return { kind: "hit", count, lines };
}

/** A line without its `\r`, cut to `window` characters around `column` when long. */
export function clipLine(raw: string, column: number, window: number): string {
  const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
  if (line.length <= window) return line;
  const start = Math.max(0, Math.min(column - (window >> 2), line.length - window));
  const end = start + window;
  return `${start > 0 ? "…" : ""}${line.slice(start, end)}${end < line.length ? "…" : ""}`;
}

/** Inspects every path of a batch. */
export function runBatch(kit: Kit, paths: readonly string[]): BatchResult {
  const r: BatchResult = { searched: 0, binary: 0, tooLarge: 0, unreadable: 0, hits: [] };
  for (let i = 0; i < paths.length; i++) {
    const got = inspectPath(kit, paths[i]);
    if (got.kind === "binary") r.binary++;
    else if (got.kind === "too_large") r.tooLarge++;
    else if (got.kind === "unreadable") r.unreadable++;
    else r.searched++;
    if (got.kind === "hit") r.hits.push({ index: i, count: got.count, lines: got.lines });
  }
  return r;
}

/** A worker's message loop: `{init: KitOptions}` once, then `{id, paths}` batches. */
export function workerMain(): void {
  const scope = globalThis as unknown as {
    onmessage: (e: MessageEvent) => void;
    postMessage: (m: unknown) => void;
  };
  let kit: Kit | null = null;
  scope.onmessage = (e) => {
    const m = e.data;
    if (m.init) kit = makeKit(m.init);
    else if (kit) scope.postMessage({ id: m.id, result: runBatch(kit, m.paths) });
  };
}

/** JavaScript source for a worker running `workerMain`. */
export function workerSource(): string {
  const parts = [
    decodeTextWith,
    makeKit,
    readPath,
    inspectBytes,
    inspectPath,
    matchLines,
    clipLine,
    runBatch,
    workerMain,
  ];
  return `${parts.map(String).join("\n")}\n${workerMain.name}();\n`;
}
