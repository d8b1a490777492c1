/**
 * Reads the configuration files and merges them with flags, environment and
 * defaults: flags > environment > project `.minoc/` (in the working
 * directory) > home `.minoc/` (beside the binary) > defaults.
 *
 * Files are only ever read here. A broken file (bad JSON, a wrong or unknown
 * field) stops the load with a message naming its path, the field and what
 * is expected; the file itself is left exactly as it was.
 *
 * @example
 * ```ts
 * const r = await loadSettings({ homeDir: home.dir, cwd: Deno.cwd(), flags, env: Deno.env.toObject() });
 * if (!r.ok) throw new CliError(r.message, EXIT.usage);
 * r.sources.model; // e.g. "/repo/.minoc/config/settings.json"
 * ```
 * @module
 */
import { join, resolve } from "node:path";
import { type ConfigKind, type ModelsFile, parseConfigText, type SettingsFile } from "./schema.ts";
import { readKeyFile } from "./key_file.ts";
import { type ScreenOptions, screenProjectLayer } from "./project_trust.ts";
import {
  type FileLayer,
  mergeSettings,
  type SettingFlags,
  type Settings,
  type SettingSources,
} from "./settings.ts";
import { FileTooLargeError, NotRegularFileError, readTextFile } from "../tools/bounded_read.ts";

/** What {@link loadSettings} looks at. */
export interface LoadInputs {
  /** The `.minoc` home (its files are in `<homeDir>/config/`). */
  homeDir: string;
  /** The process's working directory; `flags.cwd` is resolved against it. */
  cwd: string;
  flags: SettingFlags;
  env: Record<string, string | undefined>;
  /** Asks whether to trust the project folder (a terminal only; see `project_trust.ts`). */
  askTrust?: ScreenOptions["ask"];
}

/** Merged settings with the source of each field, or what to fix. */
export type LoadResult =
  | { ok: true; settings: Settings; sources: SettingSources; warnings?: string[] }
  | { ok: false; message: string; noServer?: true };

/** A configuration folder and whose it is. */
export interface ConfigDir {
  scope: "project" | "home";
  /** The `config` folder itself, e.g. `/repo/.minoc/config`. */
  dir: string;
}

/** One file as found on disk. */
export type FileState<T> =
  | { state: "absent"; path: string }
  | { state: "ok"; path: string; value: T }
  | { state: "bad"; path: string; problems: string[] };

/** The result of checking one file (see {@link checkConfigFiles}). */
export interface FileCheck {
  scope: ConfigDir["scope"];
  kind: ConfigKind;
  path: string;
  state: "absent" | "ok" | "bad";
  problems: string[];
}

/** Reads every configuration file and merges it all into {@link Settings}. */
export async function loadSettings(i: LoadInputs): Promise<LoadResult> {
  const dirs = await configDirs(i.homeDir, workDir(i));
  const files: FileLayer[] = [];
  const problems: string[] = [];
  const warnings: string[] = [];
  for (const { dir, scope } of dirs) {
    const settings = await readConfigFile(join(dir, "settings.json"), "settings");
    const models = await readConfigFile(join(dir, "models.json"), "models");
    for (const f of [settings, models]) if (f.state === "bad") problems.push(...f.problems);
    const value = settings.state === "ok" ? settings.value as SettingsFile : undefined;
    const key = await readKeyFile(value, scope, settings.path);
    if (!key.ok) problems.push(key.message);
    const layer = {
      settingsPath: settings.path,
      settings: value,
      modelsPath: models.path,
      models: models.state === "ok" ? models.value as ModelsFile : undefined,
      ...(key.ok && key.key ? { apiKey: key.key } : {}),
    };
    const trust = { homeDir: i.homeDir, folder: workDir(i), ask: i.askTrust, warnings };
    files.push(scope === "project" ? await screenProjectLayer(layer, trust) : layer);
  }
  if (problems.length) return { ok: false, message: problems.join("\n") };
  const r = mergeSettings({ flags: i.flags, env: i.env, files, defaultCwd: i.cwd });
  return r.ok && warnings.length > 0 ? { ...r, warnings } : r;
}

/**
 * The configuration folders in precedence order: the project's
 * `<workDir>/.minoc/config` first, then `<homeDir>/config`. When both are the
 * same folder it is listed once, as the home.
 */
export async function configDirs(homeDir: string, workDir: string): Promise<ConfigDir[]> {
  const home = join(resolve(homeDir), "config");
  const project = join(resolve(workDir), ".minoc", "config");
  const same = (await canonical(home)) === (await canonical(project));
  return [
    ...(same ? [] : [{ scope: "project" as const, dir: project }]),
    { scope: "home" as const, dir: home },
  ];
}

/** Reads and validates one file; a missing file is `absent`, never an error. */
export async function readConfigFile<K extends ConfigKind>(
  path: string,
  kind: K,
): Promise<FileState<SettingsFile | ModelsFile>> {
  let text: string;
  try {
    text = await readTextFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return { state: "absent", path };
    return { state: "bad", path, problems: [`Cannot read config "${path}": ${reason(e)}`] };
  }
  const parsed = parseConfigText(text, path, kind);
  return parsed.ok
    ? { state: "ok", path, value: parsed.value }
    : { state: "bad", path, problems: parsed.problems };
}

/** Checks settings.json and models.json in every configuration folder. */
export async function checkConfigFiles(homeDir: string, workDir: string): Promise<FileCheck[]> {
  const checks: FileCheck[] = [];
  for (const { scope, dir } of await configDirs(homeDir, workDir)) {
    for (const kind of ["settings", "models"] as const) {
      const f = await readConfigFile(join(dir, `${kind}.json`), kind);
      checks.push({
        scope,
        kind,
        path: f.path,
        state: f.state,
        problems: f.state === "bad" ? f.problems : [],
      });
    }
  }
  return checks;
}

/**
 * The model names described in models.json (project first, then home, each
 * name once), for `/model` to offer. A broken file gives its problems.
 */
export async function configuredModels(
  homeDir: string,
  workDir: string,
): Promise<{ ok: true; models: string[] } | { ok: false; message: string }> {
  const names = new Set<string>();
  for (const { dir } of await configDirs(homeDir, workDir)) {
    const f = await readConfigFile(join(dir, "models.json"), "models");
    if (f.state === "bad") return { ok: false, message: f.problems.join("\n") };
    if (f.state === "ok") { for (const name of Object.keys(f.value)) names.add(name); }
  }
  return { ok: true, models: [...names] };
}

function workDir(i: LoadInputs): string {
  return resolve(i.cwd, i.flags.cwd ?? ".");
}

async function canonical(path: string): Promise<string> {
  try {
    return await Deno.realPath(path);
  } catch {
    return resolve(path);
  }
}

function reason(e: unknown): string {
  if (e instanceof Deno.errors.IsADirectory) return "it is a directory, not a file";
  if (e instanceof NotRegularFileError) {
    return e.kind === "a directory"
      ? "it is a directory, not a file"
      : `it is ${e.kind}, not a regular file`;
  }
  if (e instanceof FileTooLargeError) return `it holds more than ${e.maxBytes} bytes`;
  if (e instanceof Deno.errors.PermissionDenied) return "permission denied";
  return e instanceof Error ? e.message : String(e);
}
