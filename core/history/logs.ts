/**
 * Log files in `.minoc/logs/` through LogTape:
 *
 * - `app.log`: info and up, from every `["minoc", …]` category;
 * - `error.log`: errors and fatals, with the stack of any error attached;
 * - `debug.log`: everything, only when `debug` is on;
 * - `retry.log`: everything logged under `["minoc", "retry"]`.
 *
 * Each file rotates by size. Every record passes a sanitizer first, and every
 * written line is scanned again, so no API key reaches a file.
 *
 * @example
 * ```ts
 * const logs = await setupLogs(homePaths(home).logs, { debug: false });
 * getLogger(["minoc", "agent"]).info("Session {id} started", { id });
 * await logs.dispose();
 * ```
 * @module
 */
import { join } from "node:path";
import {
  configure,
  defaultTextFormatter,
  dispose,
  type LogRecord,
  type Sink,
  withFilter,
} from "@logtape/logtape";
import { getRotatingFileSink } from "@logtape/file";
import { redactRecord, redactText } from "./redact.ts";

/** Options of {@link setupLogs}. */
export interface LogOptions {
  /** Also write `debug.log` with every level. */
  debug: boolean;
  /** Bytes before a file rotates (default 5 MiB). */
  maxSize?: number;
  /** Rotated files kept per log (default 3). */
  maxFiles?: number;
}

/** The handle {@link setupLogs} returns; call `dispose()` before exiting. */
export interface LogHandle {
  dispose(): Promise<void>;
}

/** The root category every minoc logger lives under. */
export const LOG_ROOT = "minoc";

/**
 * Configures LogTape (replacing any earlier configuration) to write the log
 * files under `logsDir`, creating it when needed.
 */
export async function setupLogs(logsDir: string, opts: LogOptions): Promise<LogHandle> {
  await Deno.mkdir(logsDir, { recursive: true });
  // Unbuffered files rotate exactly and lose nothing in a crash; debug.log is
  // buffered (flushed every second and at dispose) so tracing stays cheap.
  const file = (name: string, formatter = lineFormatter, buffered = false) =>
    safeSink(
      getRotatingFileSink(join(logsDir, name), {
        bufferSize: buffered ? 64 * 1024 : 0,
        ...(buffered ? { flushInterval: 1000 } : {}),
        maxSize: opts.maxSize ?? 5 * 1024 * 1024,
        maxFiles: opts.maxFiles ?? 3,
        formatter,
      }),
    );
  const sinks: Record<string, Sink> = {
    app: withFilter(file("app.log"), "info"),
    error: withFilter(file("error.log", errorFormatter), "error"),
    retry: file("retry.log"),
  };
  if (opts.debug) sinks.debug = file("debug.log", lineFormatter, true);
  await configure({
    reset: true,
    sinks,
    loggers: [
      {
        category: [LOG_ROOT],
        sinks: opts.debug ? ["app", "error", "debug"] : ["app", "error"],
        lowestLevel: opts.debug ? "trace" : "info",
      },
      { category: [LOG_ROOT, "retry"], sinks: ["retry"], lowestLevel: "trace" },
      { category: ["logtape", "meta"], sinks: [], lowestLevel: "warning" },
    ],
  });
  return { dispose: () => dispose() };
}

/** Wraps a sink so it only ever sees redacted records. */
function safeSink(sink: Sink & Partial<Disposable>): Sink & Disposable {
  const wrapped = (record: LogRecord) => sink(redactRecord(record));
  // Keep the file sink's disposer, so dispose() flushes what is buffered.
  return Object.assign(wrapped, { [Symbol.dispose]: () => sink[Symbol.dispose]?.() });
}

/** One text line per record, scanned once more for anything key-like. */
function lineFormatter(record: LogRecord): string {
  return redactText(defaultTextFormatter(record));
}

/** Like {@link lineFormatter}, plus the stack of each error among the properties. */
function errorFormatter(record: LogRecord): string {
  let line = defaultTextFormatter(record);
  for (const value of Object.values(record.properties)) {
    if (!(value instanceof Error)) continue;
    const stack = value.stack ?? `${value.name}: ${value.message}`;
    const frame = stack.split("\n")[1]?.trim();
    if (frame !== undefined && line.includes(frame)) continue;
    line += `${stack}\n`;
  }
  return redactText(line);
}
