/**
 * Writes to settings.json and to key files, never losing what the user
 * owns: a settings file that does not parse is reported and left exactly as
 * it was; other fields keep their values and their order; every write goes
 * to a temporary file first and replaces the old one in one rename. Key
 * files are created readable by their owner only (0600, in a 0700 folder).
 *
 * settings.json is plain JSON (see `schema.ts`): it has no comments to keep.
 *
 * @example
 * ```ts
 * const r = await updateSettingsFile(path, { baseUrl: "http://127.0.0.1:11434/v1", apiKeyFile: undefined });
 * if (!r.ok) console.error(r.message);
 * ```
 * @module
 */
import { dirname, join } from "node:path";
import { parseConfigText, SettingsFileSchema } from "./schema.ts";
import { readTextFile } from "../tools/bounded_read.ts";

/** Success, or what went wrong (the file unchanged). */
export type WriteResult = { ok: true } | { ok: false; message: string };

/** A field's new value; `undefined` removes the field. */
export type SettingsPatch = Record<string, string | number | boolean | undefined>;

/**
 * Sets (or with `undefined` removes) the fields of `patch` in the
 * settings.json at `path`, created when absent. The result must still be a
 * valid settings file; otherwise nothing is written.
 */
export async function updateSettingsFile(path: string, patch: SettingsPatch): Promise<WriteResult> {
  const current = await readObject(path);
  if (!current.ok) return current;
  const next: Record<string, unknown> = { ...current.value };
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) delete next[k];
    else next[k] = v;
  }
  const check = SettingsFileSchema.safeParse(next);
  if (!check.success) {
    const first = check.error.issues[0];
    return {
      ok: false,
      message: `Cannot write config "${path}": field "${first.path.join(".")}" ${first.message}`,
    };
  }
  const text = JSON.stringify(next, null, current.indent) + "\n";
  return await replaceFile(path, text, current.mode);
}

/** Reads the file as a JSON object (absent: empty), with its indent and mode. */
async function readObject(
  path: string,
): Promise<
  { ok: true; value: Record<string, unknown>; indent: string; mode?: number } | {
    ok: false;
    message: string;
  }
> {
  let text: string;
  try {
    text = await readTextFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return { ok: true, value: {}, indent: "  " };
    return { ok: false, message: `Cannot read config "${path}": ${(e as Error).message}` };
  }
  const parsed = parseConfigText(text, path, "settings");
  if (!parsed.ok) {
    return { ok: false, message: `${parsed.problems[0]}; the file was left unchanged` };
  }
  const indent = /^\{\s*\n([ \t]+)"/.exec(text.replace(/^\uFEFF/, ""))?.[1] ?? "  ";
  const mode = (await Deno.stat(path).catch(() => null))?.mode ?? undefined;
  return { ok: true, value: JSON.parse(text.replace(/^\uFEFF/, "")), indent, mode };
}

/**
 * Writes `text` to a temporary file beside `path` and renames it over
 * `path`; `mode` is applied before the rename. The old file stays whole
 * when anything fails.
 */
export async function replaceFile(path: string, text: string, mode?: number): Promise<WriteResult> {
  const tmp = join(dirname(path), `.${crypto.randomUUID()}.tmp`);
  try {
    await Deno.mkdir(dirname(path), { recursive: true });
    await Deno.writeTextFile(tmp, text, { mode: mode ?? 0o644, createNew: true });
    if (mode !== undefined && Deno.build.os !== "windows") await Deno.chmod(tmp, mode & 0o777);
    await Deno.rename(tmp, path);
    return { ok: true };
  } catch (e) {
    await Deno.remove(tmp).catch(() => {});
    return { ok: false, message: `Cannot write "${path}": ${(e as Error).message}` };
  }
}

/**
 * Stores an API key in `path`, readable and writable by its owner only
 * (the folder is created 0700). The key itself never appears in a message.
 */
export async function writeKeyFile(path: string, key: string): Promise<WriteResult> {
  try {
    await Deno.mkdir(dirname(path), { recursive: true, mode: 0o700 });
  } catch (e) {
    return { ok: false, message: `Cannot write "${path}": ${(e as Error).message}` };
  }
  return await replaceFile(path, key.trim() + "\n", 0o600);
}

/** The file's bytes, or null when it does not exist (to put it back after a failed save). */
export async function snapshotFile(path: string): Promise<Uint8Array | null> {
  try {
    return await Deno.readFile(path);
  } catch {
    return null;
  }
}

/** Puts a file back as {@link snapshotFile} saw it (null: removes it). */
export async function restoreFile(path: string, before: Uint8Array | null): Promise<void> {
  if (before === null) await Deno.remove(path).catch(() => {});
  else await Deno.writeFile(path, before).catch(() => {});
}
