/**
 * `minoc mcp`: the MCP servers of `<home>/config/mcp.json` and the project's
 * `.minoc/config/mcp.json` (the `mcpServers` shape of Claude Desktop, Claude
 * Code and Cursor).
 *
 * - `list`: every configured server, where it comes from and what it runs.
 * - `add <name> <commandOrUrl> [args...]`: adds a stdio server (a command)
 *   or an HTTP one (a URL); `--project` writes the project's file.
 * - `remove <name>`: removes it from the file that has it.
 * - `test <name>`: starts it, lists its tools, stops it.
 *
 * Exit codes: 0 on success, 1 when `test` cannot start the server, 2 for
 * usage errors (unknown server, bad name, an mcp.json that does not parse).
 *
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { join, relative } from "node:path";
import { loadMcpConfig, mcpConfigPaths, type RawServer } from "../../core/mcp/config.ts";
import { addServer, removeServer } from "../../core/mcp/edit.ts";
import { McpHub, type ServerView } from "../../core/mcp/hub.ts";
import { toolCachePath } from "../../core/mcp/cache.ts";
import { oneLineDescription } from "../../core/mcp/catalog.ts";
import { projectMcpTrusted } from "../../core/mcp/trust.ts";
import { textTable } from "../../core/history/text_table.ts";
import { CliError, type CliIO, EXIT, warn } from "../io.ts";
import { VERSION } from "../version.ts";
import { readConfigFile } from "../../core/config/load.ts";
import type { SettingsFile } from "../../core/config/schema.ts";
import { protectCredentials } from "../../core/tools/child_env.ts";

/** Where the command looks. */
export interface McpEnv {
  cwd: string;
  /** The `.minoc` home. */
  homeDir: string;
  /** `<home>/logs`. */
  logsDir: string;
}

/**
 * The `mcp` command and its sub-commands.
 *
 * @example
 * ```ts
 * await mcpCommand(io, env).parseAsync(["add", "fs", "npx", "-y", "pkg"], { from: "user" });
 * ```
 */
export function mcpCommand(io: CliIO, env: McpEnv): Command {
  const mcp = new Command("mcp").description("list, add, remove and test MCP servers");
  mcp.command("list").description("list the configured MCP servers").action(async () => {
    const config = await load(env);
    for (const w of config.warnings) warn(io, w);
    if (config.servers.length === 0) {
      const p = mcpConfigPaths(env.homeDir, env.cwd);
      return io.out(`No MCP servers configured in "${p.home}" or "${p.project}"\n`);
    }
    const rows = config.servers.map((s) => [
      s.name,
      s.source,
      s.transport,
      shorten(s.transport === "stdio" ? [s.command, ...s.args].join(" ") : s.url ?? "", 60),
      [s.readOnly ? "read-only" : "", s.disabled ? "disabled" : "", s.problem ? "invalid" : ""]
        .filter(Boolean).join(", "),
    ]);
    io.out(textTable(["name", "file", "transport", "runs", "flags"], rows));
    for (const s of config.servers) if (s.problem) warn(io, s.problem);
  });
  mcp.command("add").description("add a stdio server (a command) or an HTTP server (a URL)")
    .argument("<name>", "the server's name; its tools are called mcp__<name>__<tool>")
    .argument("<commandOrUrl>", "the command to run, or the server's URL")
    .argument("[args...]", "the command's arguments (put -- before them when they start with -)")
    .option("-e, --env <KEY=value...>", "environment for a stdio server (${VAR} is expanded)")
    .option("-H, --header <Name: value...>", "an HTTP header (${VAR} is expanded)")
    .option("-t, --transport <kind>", "stdio, http or sse (default: http for a URL)")
    .option("--read-only", "plan mode may call every tool of this server")
    .option("--project", "write the project's .minoc/config/mcp.json (default: the home one)")
    .option("-f, --force", "replace a server of the same name")
    .action(async (name, target, args, opts) => {
      const server = buildServer(target, args, opts);
      const paths = mcpConfigPaths(env.homeDir, env.cwd);
      const file = opts.project ? paths.project : paths.home;
      const done = await addServer(file, name, server, opts.force === true);
      if (!done.ok) throw new CliError(done.error, EXIT.usage);
      io.out(
        `Added MCP server "${name}" to "${file}": check it with \`minoc mcp test ${name}\`\n`,
      );
      if (opts.project && !(await projectMcpTrusted(env.homeDir, env.cwd))) {
        warn(io, `servers in "${file}" start only once this folder is trusted`);
      }
    });
  mcp.command("remove").description("remove a server from the file that has it")
    .argument("<name>", "the server's name")
    .option("--project", "remove it from the project's file")
    .action(async (name, opts) => {
      const paths = mcpConfigPaths(env.homeDir, env.cwd);
      const file = opts.project ? paths.project : paths.home;
      const done = await removeServer(file, name);
      if (!done.ok) throw new CliError(done.error, EXIT.usage);
      io.out(`Removed MCP server "${name}" from "${file}"\n`);
    });
  mcp.command("test").description("start a server, list its tools and stop it")
    .argument("<name>", "the server's name")
    .action(async (name) => {
      const config = await load(env);
      const server = config.servers.find((s) => s.name === name);
      if (!server) {
        for (const w of config.warnings) warn(io, w);
        const names = config.servers.map((s) => s.name).join(", ") || "none";
        throw new CliError(
          `Unknown MCP server "${name}": servers configured: ${names}`,
          EXIT.usage,
        );
      }
      if (server.problem) throw new CliError(server.problem, EXIT.usage);
      const hub = new McpHub([{ ...server, disabled: false }], {
        logsDir: env.logsDir,
        version: VERSION,
        cacheFile: toolCachePath(env.homeDir),
      });
      const started = performance.now();
      hub.start();
      await hub.settled();
      const [view] = hub.servers();
      await hub.close();
      if (view.state !== "ready") {
        const log = view.log ? `; its output is in "${view.log}"` : "";
        throw new CliError(`MCP server "${name}" ${view.error}${log}`, EXIT.failed);
      }
      const ms = Math.round(performance.now() - started);
      io.out(
        `MCP server "${name}" is working (${view.transport}, ${ms} ms): ${view.tools.length} tools\n`,
      );
      io.out(toolLines(view).join("\n") + (view.tools.length ? "\n" : ""));
    });
  return mcp;
}

/** `/mcp` in the chat: each server, its state and its tools. */
export function mcpStatusText(servers: readonly ServerView[], cwd: string): string {
  if (servers.length === 0) {
    return "No MCP servers are configured: add one with `minoc mcp add` (see README, MCP servers)\n";
  }
  const out: string[] = [];
  for (const s of servers) {
    const where = relative(cwd, s.config.file).startsWith("..")
      ? s.config.file
      : relative(cwd, s.config.file);
    const state = s.state === "failed" ? `failed: ${s.error}` : s.state;
    const flags = s.config.readOnly ? ", read-only" : "";
    if (s.state === "failed") {
      out.push(`${s.name} (${s.transport}${flags}, ${where}): ${state}`);
      if (s.log) out.push(`  log: ${s.log}`);
      continue;
    }
    out.push(`${s.name} (${s.transport}${flags}, ${where}): ${state}, ${s.tools.length} tools`);
    out.push(...toolLines(s));
  }
  return out.join("\n") + "\n";
}

function toolLines(view: ServerView): string[] {
  return view.tools.map((t) =>
    `  ${t.tool.name}${t.readOnly ? " (read-only)" : ""}: ${
      oneLineDescription(t.tool.description, 70)
    }`
  );
}

async function load(env: McpEnv) {
  const projectTrusted = await projectMcpTrusted(env.homeDir, env.cwd);
  // As a session does before its servers start: a project's file may not pass the key on.
  const own = await readConfigFile(join(env.homeDir, "config", "settings.json"), "settings");
  const keyVariable = own.state === "ok" ? (own.value as SettingsFile).apiKeyEnv : undefined;
  if (keyVariable) protectCredentials({ names: [keyVariable] });
  return await loadMcpConfig({ homeDir: env.homeDir, cwd: env.cwd, projectTrusted });
}

interface AddOptions {
  env?: string[];
  header?: string[];
  transport?: string;
  readOnly?: boolean;
}

function buildServer(target: string, args: string[], o: AddOptions): RawServer {
  const kind = o.transport ?? (/^https?:\/\//i.test(target) ? "http" : "stdio");
  if (!["stdio", "http", "sse"].includes(kind)) {
    throw new CliError(`Unknown transport "${kind}": use stdio, http or sse`, EXIT.usage);
  }
  const extra = o.readOnly ? { readOnly: true } : {};
  if (kind === "stdio") {
    const env = pairs(o.env ?? [], "=", "--env", "KEY=value");
    return { command: target, args, ...(Object.keys(env).length ? { env } : {}), ...extra };
  }
  if (args.length > 0) {
    throw new CliError(`An ${kind} server takes no arguments after its URL`, EXIT.usage);
  }
  if (!URL.canParse(target)) throw new CliError(`"${target}" is not a URL`, EXIT.usage);
  const headers = pairs(o.header ?? [], ":", "--header", "Name: value");
  return {
    type: kind as "http" | "sse",
    url: target,
    ...(Object.keys(headers).length ? { headers } : {}),
    ...extra,
  };
}

function pairs(list: string[], sep: string, flag: string, shape: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of list) {
    const i = item.indexOf(sep);
    if (i <= 0) throw new CliError(`${flag} "${item}" is not ${shape}`, EXIT.usage);
    out[item.slice(0, i).trim()] = item.slice(i + 1).trim();
  }
  return out;
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max - 1) + "…";
}
