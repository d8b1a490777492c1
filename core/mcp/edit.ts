/**
 * Adds and removes servers in an mcp.json file without losing anything the
 * user wrote: other servers and fields stay as they were, a file that does
 * not parse is never rewritten, and the new file replaces the old atomically.
 *
 * @module
 */
import { dirname } from "node:path";
import { type RawServer, serverSchema } from "./config.ts";
import { readTextFile } from "../tools/bounded_read.ts";

/** The outcome of an edit: done, or why not (the file is left untouched). */
export type EditOutcome = { ok: true } | { ok: false; error: string };

/** Names a server may have: letters, digits, `_`, `-`, `.`. */
export const SERVER_NAME = /^[A-Za-z0-9_.-]{1,40}$/;

/** Adds `name` to `file` (created when missing); refuses a taken name unless `replace`. */
export async function addServer(
  file: string,
  name: string,
  server: RawServer,
  replace = false,
): Promise<EditOutcome> {
  if (!SERVER_NAME.test(name)) {
    return {
      ok: false,
      error:
        `Server name "${name}" is not valid: use letters, digits, "_", "-" or "." (40 at most)`,
    };
  }
  const checked = serverSchema.safeParse(server);
  if (!checked.success) {
    return { ok: false, error: `Server "${name}": ${checked.error.issues[0].message}` };
  }
  const doc = await readDoc(file);
  if (!doc.ok) return doc;
  const servers = doc.json.mcpServers as Record<string, unknown>;
  if (name in servers && !replace) {
    return {
      ok: false,
      error: `Server "${name}" is already in "${file}": remove it first or use --force`,
    };
  }
  servers[name] = server;
  await writeDoc(file, doc.json);
  return { ok: true };
}

/** Removes `name` from `file`; an error when it is not there. */
export async function removeServer(file: string, name: string): Promise<EditOutcome> {
  const doc = await readDoc(file);
  if (!doc.ok) return doc;
  const servers = doc.json.mcpServers as Record<string, unknown>;
  if (!(name in servers)) return { ok: false, error: `Server "${name}" is not in "${file}"` };
  delete servers[name];
  await writeDoc(file, doc.json);
  return { ok: true };
}

async function readDoc(
  file: string,
): Promise<{ ok: true; json: Record<string, unknown> } | { ok: false; error: string }> {
  let text: string;
  try {
    text = await readTextFile(file);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return { ok: true, json: { mcpServers: {} } };
    return { ok: false, error: `Cannot read "${file}": ${(e as Error).message}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return {
      ok: false,
      error: `Cannot read "${file}": not valid JSON: ${
        (e as Error).message
      }; the file was not changed`,
    };
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    return {
      ok: false,
      error: `Cannot read "${file}": expected {"mcpServers": {...}}; the file was not changed`,
    };
  }
  const doc = json as Record<string, unknown>;
  const servers = doc.mcpServers ?? {};
  if (typeof servers !== "object" || servers === null || Array.isArray(servers)) {
    return {
      ok: false,
      error:
        `Cannot read "${file}": field "mcpServers" must be an object; the file was not changed`,
    };
  }
  doc.mcpServers = servers;
  return { ok: true, json: doc };
}

async function writeDoc(file: string, json: Record<string, unknown>): Promise<void> {
  await Deno.mkdir(dirname(file), { recursive: true });
  const tmp = `${file}.${Deno.pid}.tmp`;
  await Deno.writeTextFile(tmp, JSON.stringify(json, null, 2) + "\n");
  await Deno.rename(tmp, file);
}
