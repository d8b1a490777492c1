/**
 * Folders the user trusts: a trusted project's `.minoc/config/` may choose
 * where credentials go (`baseUrl`, `apiKeyEnv`, headers) and what runs
 * (MCP servers, commands). The list lives in the home `.minoc/trust.json`,
 * one entry per folder (its real path), and is replaced atomically.
 *
 * @example
 * ```ts
 * if (!await isFolderTrusted(home.dir, "/repo")) await trustFolder(home.dir, "/repo");
 * ```
 * @module
 */
import { dirname, join, resolve } from "node:path";
import { readTextFile } from "../tools/bounded_read.ts";

/** `<minocHome>/trust.json`. */
export function trustPath(minocHome: string): string {
  return join(minocHome, "trust.json");
}

interface TrustFile {
  version: 1;
  folders: Record<string, { trustedAt: string }>;
}

/** Whether the user trusts `folder` (compared by real path). An unreadable list trusts nothing. */
export async function isFolderTrusted(minocHome: string, folder: string): Promise<boolean> {
  const file = await readTrust(trustPath(minocHome));
  if (file === null) return false;
  return Object.hasOwn(file.folders, await canonical(folder));
}

/**
 * Remembers that the user trusts `folder`. Throws with a message naming the
 * file when it cannot be written; a list that is not valid JSON is never
 * overwritten.
 */
export async function trustFolder(minocHome: string, folder: string): Promise<void> {
  const path = trustPath(minocHome);
  let current: TrustFile | null;
  try {
    current = await readTrust(path, true);
  } catch (e) {
    throw new Error(`Cannot read "${path}": ${(e as Error).message}; fix or remove it`);
  }
  const next: TrustFile = current ?? { version: 1, folders: {} };
  next.folders[await canonical(folder)] = { trustedAt: new Date().toISOString() };
  await Deno.mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${crypto.randomUUID().slice(0, 8)}`;
  try {
    await Deno.writeTextFile(tmp, JSON.stringify(next, null, 2) + "\n");
    await Deno.rename(tmp, path);
  } catch (e) {
    await Deno.remove(tmp).catch(() => undefined);
    throw new Error(`Cannot write "${path}": ${(e as Error).message}`);
  }
}

async function readTrust(path: string, strict = false): Promise<TrustFile | null> {
  let text: string;
  try {
    text = await readTextFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound || !strict) return null;
    throw e;
  }
  try {
    const data = JSON.parse(text) as Partial<TrustFile>;
    if (typeof data?.folders !== "object" || data.folders === null || Array.isArray(data.folders)) {
      throw new Error('field "folders" must be an object');
    }
    return { version: 1, folders: data.folders };
  } catch (e) {
    if (strict) throw e instanceof SyntaxError ? new Error("not valid JSON") : e;
    return null;
  }
}

async function canonical(folder: string): Promise<string> {
  try {
    return await Deno.realPath(folder);
  } catch {
    return resolve(folder);
  }
}
