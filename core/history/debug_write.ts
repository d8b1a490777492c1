/**
 * Writing debug records as they are, and the time spent doing it, so debug
 * timings can leave debug mode's own cost out.
 *
 * @example
 * ```ts
 * writeRaw(getLogger(["minoc", "debug"]), "request {\"model\": 1}");
 * ```
 * @module
 */
import type { Logger } from "@logtape/logtape";

let writingMs = 0;

/**
 * Logs `text` at debug level as it is: braces are escaped, so LogTape does
 * not read them as placeholders. The time it takes is added to
 * {@link debugWritingMs}.
 */
export function writeRaw(log: Logger, text: string): void {
  const start = performance.now();
  log.debug(text.replaceAll("{", "{{").replaceAll("}", "}}"));
  writingMs += performance.now() - start;
}

/**
 * Milliseconds this process has spent writing debug records so far. Debug
 * timings subtract it, so they measure minoc's work, not debug mode's own.
 */
export function debugWritingMs(): number {
  return writingMs;
}
