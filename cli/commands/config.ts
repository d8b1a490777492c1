/**
 * `minoc config init | show | validate`: write the example configuration,
 * print the merged configuration with where each value came from, and check
 * every configuration file.
 *
 * Exit codes: 0 on success; 2 when `validate` finds a problem, or when `show`
 * cannot build the configuration; 1 when `init` cannot write.
 *
 * @module
 */
import { join } from "node:path";
import { Command } from "@commander-js/extra-typings";
import {
  checkConfigFiles,
  configDirs,
  type FileCheck,
  loadSettings,
} from "../../core/config/load.ts";
import type { Settings, SettingSources } from "../../core/config/settings.ts";
import { loadSecurityConfig } from "../../core/permission/security.ts";
import { loadRules, permissionsPath } from "../../core/permission/rules_store.ts";
import { CliError, type CliIO, EXIT, warn } from "../io.ts";
import settingsExample from "../../.minoc.example/config/settings.json" with { type: "text" };
import modelsExample from "../../.minoc.example/config/models.json" with { type: "text" };
import securityExample from "../../.minoc.example/config/security.json" with { type: "text" };
import { visible } from "../../core/protocol/visible.ts";

/** Where the command looks: the `.minoc` home and the working directory. */
export interface ConfigEnv {
  /** The `.minoc` home; its files live in `<homeDir>/config/`. */
  homeDir: string;
  cwd: string;
  /** Environment for `show` (default: the process environment). */
  env?: Record<string, string | undefined>;
}

/** The example files `init` writes, embedded in the build. */
export const EXAMPLE_FILES: Readonly<Record<string, string>> = Object.freeze({
  "settings.json": settingsExample,
  "models.json": modelsExample,
  "security.json": securityExample,
});

/**
 * The `config` command with `init`, `show` and `validate`.
 *
 * @example
 * ```ts
 * const io = memoryIO();
 * await configCommand(io, { homeDir, cwd }).parseAsync(["validate"], { from: "user" });
 * io.exitCode; // 2 when a file is broken
 * ```
 */
export function configCommand(io: CliIO, env: ConfigEnv): Command {
  const config = new Command("config").description("Write, show and check the configuration files");
  config
    .command("init")
    .description("Write the example configuration files (existing files are never overwritten)")
    .option("--project", "write into ./.minoc/config of the working directory instead of the home")
    .action(async (opts) => {
      const dir = opts.project ? join(env.cwd, ".minoc", "config") : join(env.homeDir, "config");
      await init(io, dir);
    });
  config
    .command("show")
    .description("Print the merged configuration and where each value came from (key redacted)")
    .option("--model <name>", "show the configuration for this model")
    .option("--base-url <url>", "show the configuration for this server")
    .option("--json", "print one JSON object")
    .action(async (opts) => {
      const r = await loadSettings({
        homeDir: env.homeDir,
        cwd: env.cwd,
        flags: { model: opts.model, baseUrl: opts.baseUrl },
        env: env.env ?? Deno.env.toObject(),
      });
      if (!r.ok) throw new CliError(r.message, EXIT.usage);
      for (const w of r.warnings ?? []) warn(io, w);
      const rows = showRows(r.settings, r.sources);
      if (opts.json) {
        const settings = { ...r.settings, apiKey: redactKey(r.settings.apiKey) };
        return io.out(JSON.stringify({ settings, sources: r.sources }, null, 2) + "\n");
      }
      const width = Math.max(...rows.map(([field]) => field.length));
      const valueWidth = Math.min(40, Math.max(...rows.map(([, value]) => value.length)));
      for (const [field, value, source] of rows) {
        io.out(
          `${field.padEnd(width)}  ${visible(value).padEnd(valueWidth)}  ${visible(source)}\n`,
        );
      }
    });
  config
    .command("validate")
    .description("Check every configuration file (exit code 2 when any has a problem)")
    .action(async () => {
      const checks = await allChecks(env);
      for (const c of checks) {
        if (c.state === "bad") { for (const p of c.problems) io.err(`${visible(p)}\n`); }
        else io.out(`${c.state === "ok" ? "ok    " : "absent"}  ${visible(c.path)}\n`);
      }
      const bad = checks.filter((c) => c.state === "bad").length;
      if (bad) {
        io.err(`${bad} configuration file${bad === 1 ? " has" : "s have"} problems\n`);
        io.exitCode = EXIT.usage;
      } else io.out("All configuration files are valid\n");
    });
  return config;
}

async function init(io: CliIO, dir: string): Promise<void> {
  try {
    await Deno.mkdir(dir, { recursive: true });
  } catch (e) {
    throw new CliError(`Cannot create "${dir}": ${(e as Error).message}`);
  }
  for (const [name, text] of Object.entries(EXAMPLE_FILES)) {
    const path = join(dir, name);
    try {
      await Deno.writeTextFile(path, text, { createNew: true });
      io.out(`wrote    ${path}\n`);
    } catch (e) {
      if (!(e instanceof Deno.errors.AlreadyExists)) {
        throw new CliError(`Cannot write "${path}": ${(e as Error).message}`);
      }
      io.out(`skipped  ${path} (already exists)\n`);
    }
  }
  io.out('Edit them, then check them with "minoc config validate"\n');
}

/** Every folder's settings.json and models.json checks, then its security.json. */
async function allChecks(env: ConfigEnv): Promise<Omit<FileCheck, "kind">[]> {
  const core = await checkConfigFiles(env.homeDir, env.cwd);
  const checks: Omit<FileCheck, "kind">[] = [];
  for (const { scope, dir } of await configDirs(env.homeDir, env.cwd)) {
    checks.push(...core.filter((c) => c.scope === scope));
    const path = join(dir, "security.json");
    const exists = await Deno.stat(path).then(() => true, () => false);
    const r = exists ? await loadSecurityConfig(path) : undefined;
    checks.push({
      scope,
      path,
      state: !r ? "absent" : r.ok ? "ok" : "bad",
      problems: r && !r.ok ? [r.error] : [],
    });
  }
  checks.push(await permissionsCheck(env.homeDir));
  return checks;
}

/** permissions.json of the home: unreadable, or with rules that are skipped. */
async function permissionsCheck(homeDir: string): Promise<Omit<FileCheck, "kind">> {
  const path = permissionsPath(homeDir);
  const exists = await Deno.stat(path).then(() => true, () => false);
  if (!exists) return { scope: "home", path, state: "absent", problems: [] };
  const r = await loadRules(path);
  const problems = r.ok ? r.problems ?? [] : [r.error];
  return { scope: "home", path, state: problems.length ? "bad" : "ok", problems };
}

/** `[field, value, source]` for every setting, the key redacted. */
function showRows(s: Settings, sources: SettingSources): [string, string, string][] {
  const values: [string, unknown][] = [
    ["baseUrl", s.baseURL],
    ["model", s.params.model],
    ["apiKey", redactKey(s.apiKey)],
    ["apiKeyEnv", s.apiKeyEnv],
    ["temperature", s.params.temperature],
    ["topP", s.params.topP],
    ["topK", s.params.topK],
    ["maxTokens", s.params.maxTokens],
    ["maxTurns", s.maxTurns],
    ["contextWindow", s.contextWindow],
    ["progress", s.progress],
    ["allowUnconfinedScripts", s.allowUnconfinedScripts],
    ...Object.entries(s.retry).map(([k, v]): [string, unknown] => [`retry.${k}`, v]),
    ...Object.entries(s.modelQuirks).map(([k, v]): [string, unknown] => [`quirks.${k}`, v]),
    ["customInstructions", s.customInstructions],
  ];
  return values.map(([field, value]) => {
    const source = field === "apiKey" && !s.apiKey ? "-" : sources[field] ?? "-";
    return [field, shown(value), source];
  });
}

function shown(value: unknown): string {
  if (value === undefined) return "(not set)";
  const text = typeof value === "string" ? value.replace(/\s+/g, " ") : String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** `sk-…abcd`: the first three and last four characters of a key, `(none)` for no key. */
export function redactKey(key: string): string {
  if (!key) return "(none)";
  if (key.length < 16) return `(hidden, ${key.length} characters)`;
  return `${key.slice(0, 3)}…${key.slice(-4)}`;
}
