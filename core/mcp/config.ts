/**
 * MCP server configuration: `<home>/config/mcp.json` and the project's
 * `.minoc/config/mcp.json`, in the `mcpServers` shape Claude Desktop, Claude
 * Code and Cursor use, so a user can paste the block they already have.
 * The project file wins per server name, and counts only in a trusted folder.
 *
 * minoc's own fields beside the usual ones: `readOnly` (plan mode may call
 * every tool of the server), `disabled`, `startupTimeoutMs`, `callTimeoutMs`.
 *
 * @example
 * ```ts
 * const cfg = await loadMcpConfig({ homeDir, cwd, projectTrusted: false });
 * cfg.servers.map((s) => s.name);
 * ```
 * @module
 */
import { join } from "node:path";
import * as z from "zod";
import { readTextFile } from "../tools/bounded_read.ts";
import { isCredential } from "../tools/child_env.ts";

/** A server as written in a file (values not yet expanded). */
export const serverSchema = z.object({
  type: z.enum(["stdio", "http", "sse", "streamable-http"]).optional(),
  command: z.string().min(1).optional(),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
  url: z.string().min(1).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  readOnly: z.boolean().optional(),
  disabled: z.boolean().optional(),
  startupTimeoutMs: z.number().int().positive().optional(),
  callTimeoutMs: z.number().int().positive().optional(),
}).passthrough();

/** The file: `{ "mcpServers": { name: server } }`. */
export const fileSchema = z.object({ mcpServers: z.record(z.string(), serverSchema) })
  .passthrough();

/** A server as written in mcp.json. */
export type RawServer = z.infer<typeof serverSchema>;

/** One configured server, ready to start (or the reason it cannot). */
export interface ServerConfig {
  name: string;
  /** `home` or `project`: which file it came from; `editor`: an ACP client named it. */
  source: "home" | "project" | "editor";
  file: string;
  transport: "stdio" | "http" | "sse";
  command?: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  url?: string;
  headers: Record<string, string>;
  readOnly: boolean;
  disabled: boolean;
  startupTimeoutMs: number;
  callTimeoutMs: number;
  /** Set when the entry cannot be used (e.g. a missing `${VAR}`); the server is not started. */
  problem?: string;
}

/** What loading found: servers, and one line per file that could not be read. */
export interface McpConfig {
  servers: ServerConfig[];
  warnings: string[];
}

/** Where the two files live. */
export function mcpConfigPaths(homeDir: string, cwd: string): { home: string; project: string } {
  return {
    home: join(homeDir, "config", "mcp.json"),
    project: join(cwd, ".minoc", "config", "mcp.json"),
  };
}

/** Default time a server has to start and list its tools. */
export const DEFAULT_STARTUP_MS = 30_000;
/** Default time one tool call may take. */
export const DEFAULT_CALL_MS = 120_000;

/** What loading needs. */
export interface LoadOptions {
  homeDir: string;
  cwd: string;
  /** Whether the project folder is trusted: only then are its servers started. */
  projectTrusted: boolean;
  env?: Record<string, string>;
}

/** Loads both files; a file that cannot be read is a warning, never a crash. */
export async function loadMcpConfig(o: LoadOptions): Promise<McpConfig> {
  const paths = mcpConfigPaths(o.homeDir, o.cwd);
  const env = o.env ?? Deno.env.toObject();
  const warnings: string[] = [];
  const byName = new Map<string, ServerConfig>();
  for (const source of ["home", "project"] as const) {
    const file = paths[source];
    if (source === "project" && file === paths.home) continue;
    const read = await readMcpFile(file);
    if (!read.ok) {
      warnings.push(read.error);
      continue;
    }
    const names = Object.keys(read.servers);
    if (source === "project" && !o.projectTrusted && names.length > 0) {
      warnings.push(
        `MCP servers in "${file}" are not started: the folder is not trusted (${names.join(", ")})`,
      );
      continue;
    }
    for (const [name, raw] of Object.entries(read.servers)) {
      byName.set(name, resolveServer(name, raw, source, file, env));
    }
  }
  return { servers: [...byName.values()], warnings };
}

/** A file's servers, `{}` when it does not exist, or why it cannot be read. */
export async function readMcpFile(
  file: string,
): Promise<
  { ok: true; servers: Record<string, RawServer>; exists: boolean } | {
    ok: false;
    error: string;
  }
> {
  let text: string;
  try {
    text = await readTextFile(file);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return { ok: true, servers: {}, exists: false };
    return { ok: false, error: `Cannot read "${file}": ${(e as Error).message}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `Cannot read "${file}": not valid JSON: ${(e as Error).message}` };
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    const field = i.path.join(".") || "(top level)";
    const expected = i.path.length === 0 ? `expected {"mcpServers": {...}}` : i.message;
    return { ok: false, error: `Cannot read "${file}": field "${field}": ${expected}` };
  }
  return { ok: true, servers: parsed.data.mcpServers, exists: true };
}

/** Expands `${VAR}` / `${VAR:-default}` in every value and checks the entry's shape. */
export function resolveServer(
  name: string,
  raw: RawServer,
  source: "home" | "project",
  file: string,
  env: Record<string, string>,
): ServerConfig {
  const problems: string[] = [];
  // A project's file is someone else's: it may not pass minoc's own key to a server or a URL.
  const usable = source === "project"
    ? Object.fromEntries(Object.entries(env).filter(([k, v]) => !isCredential(k, v)))
    : env;
  const x = (field: string, v: string) =>
    expandVars(v, usable, (n) =>
      problems.push(
        env[n] !== undefined && usable[n] === undefined
          ? `field "${field}": "${n}" holds minoc's API key, which a project's mcp.json may not ` +
            "pass on (name it in your own mcp.json instead)"
          : `field "${field}": environment variable "${n}" is not set`,
      ));
  const map = (field: string, m: Record<string, string> | undefined) =>
    Object.fromEntries(Object.entries(m ?? {}).map(([k, v]) => [k, x(`${field}.${k}`, v)]));
  const transport = raw.type === "sse"
    ? "sse"
    : raw.type === "http" || raw.type === "streamable-http" || (raw.url && !raw.command)
    ? "http"
    : "stdio";
  const server: ServerConfig = {
    name,
    source,
    file,
    transport,
    command: raw.command === undefined ? undefined : x("command", raw.command),
    args: (raw.args ?? []).map((a, i) => x(`args.${i}`, a)),
    env: map("env", raw.env),
    cwd: raw.cwd === undefined ? undefined : x("cwd", raw.cwd),
    url: raw.url === undefined ? undefined : x("url", raw.url),
    headers: map("headers", raw.headers),
    readOnly: raw.readOnly ?? false,
    disabled: raw.disabled ?? false,
    startupTimeoutMs: raw.startupTimeoutMs ?? DEFAULT_STARTUP_MS,
    callTimeoutMs: raw.callTimeoutMs ?? DEFAULT_CALL_MS,
  };
  if (transport === "stdio" && !server.command) {
    problems.push(`field "command": a stdio server needs a command (or give "url")`);
  }
  if (transport !== "stdio") {
    if (!server.url) problems.push(`field "url": an ${transport} server needs a url`);
    else if (!URL.canParse(server.url)) problems.push(`field "url": "${server.url}" is not a URL`);
  }
  if (problems.length > 0) server.problem = `Server "${name}" in "${file}": ${problems[0]}`;
  return server;
}

/** Replaces `${NAME}` and `${NAME:-fallback}`; `missing(NAME)` is told of each unset one. */
export function expandVars(
  text: string,
  env: Record<string, string>,
  missing: (name: string) => void,
): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_m, n, fallback) => {
    const v = env[n];
    if (v !== undefined && v !== "") return v;
    if (fallback !== undefined) return fallback;
    missing(n);
    return "";
  });
}
