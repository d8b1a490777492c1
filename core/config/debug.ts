/**
 * `.minoc/config/debug.json`: turns debug mode on without `--debug`.
 *
 * ```json
 * { "enabled": true, "terminal": false }
 * ```
 *
 * `enabled` writes `.minoc/logs/debug.log`; `terminal` (default true) also
 * prints one compact line per phase. The project's file (in the working
 * directory's `.minoc/config/`) wins over the home's, field by field. A bad
 * file is reported with its path and field, and never rewritten.
 *
 * @example
 * ```ts
 * const r = await loadDebugConfig(home.dir, settings.cwd);
 * if (!r.ok) throw new CliError(r.message, EXIT.usage);
 * ```
 * @module
 */
import { join } from "node:path";
import * as z from "zod";
import { configDirs } from "./load.ts";
import { readTextFile } from "../tools/bounded_read.ts";

/** The zod schema of debug.json. */
export const DebugFileSchema = z.strictObject({
  $schema: z.string().optional(),
  enabled: z.boolean({ error: "must be true or false" }).optional(),
  terminal: z.boolean({ error: "must be true or false" }).optional(),
});

/** Debug mode as configured. */
export interface DebugConfig {
  enabled: boolean;
  terminal: boolean;
}

/** The configuration, or what is wrong with a file. */
export type DebugLoad = { ok: true; config: DebugConfig } | { ok: false; message: string };

/** Parses one debug.json's text; problems name `path` and the field. */
export function parseDebugConfig(
  text: string,
  path: string,
): { ok: true; value: z.output<typeof DebugFileSchema> } | { ok: false; message: string } {
  const prefix = `Cannot read config "${path}": `;
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (e) {
    return { ok: false, message: `${prefix}invalid JSON (${(e as Error).message})` };
  }
  const r = DebugFileSchema.safeParse(value);
  if (r.success) return { ok: true, value: r.data };
  const problems = r.error.issues.map((i) => {
    if (i.code === "unrecognized_keys") {
      return `unknown field ${i.keys.map((k) => `"${k}"`).join(", ")}`;
    }
    return i.path.length ? `field "${i.path.join(".")}" ${i.message}` : i.message;
  });
  return { ok: false, message: prefix + problems.join("; ") };
}

/** Reads debug.json from the project and the home; absent files mean off. */
export async function loadDebugConfig(homeDir: string, workDir: string): Promise<DebugLoad> {
  const config: DebugConfig = { enabled: false, terminal: true };
  const dirs = await configDirs(homeDir, workDir);
  for (const { dir } of dirs.reverse()) {
    const path = join(dir, "debug.json");
    let text: string;
    try {
      text = await readTextFile(path);
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) continue;
      return { ok: false, message: `Cannot read config "${path}": ${(e as Error).message}` };
    }
    const r = parseDebugConfig(text, path);
    if (!r.ok) return r;
    if (r.value.enabled !== undefined) config.enabled = r.value.enabled;
    if (r.value.terminal !== undefined) config.terminal = r.value.terminal;
  }
  return { ok: true, config };
}
