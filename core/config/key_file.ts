/**
 * `apiKeyFile` in settings.json: the API key kept in a file only its owner
 * can read, instead of an environment variable. It is honoured in the home
 * settings only (a cloned project must not make minoc read files of the
 * user's choosing and send them as a key), a relative path is taken from the
 * settings file's folder, and on Linux and macOS a file that other users can
 * read is refused, as ssh does.
 *
 * @example
 * ```ts
 * const k = await readKeyFile(settings, "home", settingsPath);
 * if (!k.ok) problems.push(k.message); else layer.apiKey = k.key;
 * ```
 * @module
 */
import { dirname, resolve } from "node:path";
import type { SettingsFile } from "./schema.ts";
import { readTextFile } from "../tools/bounded_read.ts";

/** The key (absent when no file is named), or what to fix. */
export type KeyFileResult = { ok: true; key?: string } | { ok: false; message: string };

/** Reads the key `settings.apiKeyFile` names, for the settings file at `settingsPath`. */
export async function readKeyFile(
  settings: SettingsFile | undefined,
  scope: "project" | "home",
  settingsPath: string,
): Promise<KeyFileResult> {
  const named = settings?.apiKeyFile;
  if (named === undefined) return { ok: true };
  const at = `Cannot read config "${settingsPath}": field "apiKeyFile"`;
  if (scope === "project") {
    return {
      ok: false,
      message: `${at} is only read from the home settings, not from a project's ` +
        "(remove it, or move it to the settings.json beside minoc)",
    };
  }
  const path = resolve(dirname(settingsPath), named);
  let info: Deno.FileInfo;
  let text: string;
  try {
    info = await Deno.stat(path);
    text = await readTextFile(path);
  } catch (e) {
    const why = e instanceof Deno.errors.NotFound
      ? "the file does not exist"
      : (e as Error).message;
    return { ok: false, message: `${at}: cannot read "${path}": ${why}` };
  }
  if (Deno.build.os !== "windows" && info.mode !== null && (info.mode & 0o077) !== 0) {
    return {
      ok: false,
      message: `${at}: "${path}" can be read by other users: run chmod 600 "${path}"`,
    };
  }
  const key = text.trim();
  if (key === "" || /\s/.test(key)) {
    return { ok: false, message: `${at}: "${path}" must hold the key alone on one line` };
  }
  return { ok: true, key };
}
