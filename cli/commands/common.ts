/**
 * What the chat and `run` share: their options and the settings they make.
 *
 * @module
 */
import type { SettingFlags, Settings } from "../../core/config/settings.ts";
import { loadSettings } from "../../core/config/load.ts";
import { homeInputs, resolveHome } from "../../core/config/paths.ts";
import { CliError, EXIT, warn } from "../io.ts";
import { askTrust } from "../prompt/trust.ts";

const encode = (text: string) => new TextEncoder().encode(text);

function stderrWarning(message: string): void {
  warn({ err: (text) => Deno.stderr.writeSync(encode(text)) }, message);
}

/** The model and run options (see cli/options.ts). */
export interface CommonOptions extends SettingFlags {
  yes?: true;
  plan?: true;
  session?: boolean;
  /** `--quiet`: no spinner, banner or token lines. */
  quiet?: true;
  /** `--show-reasoning`: reasoning in full, dimmed. */
  showReasoning?: true;
  /** `--dry-run`: file changes stay in memory, commands are not run. */
  dryRun?: true;
  /** `--sandbox`. */
  sandbox?: "workspace-write" | "read-only" | "off";
  /** `--step`: review each tool call before it runs (chat only). */
  step?: true;
  /** `--debug`: debug.log and per-phase timings. */
  debug?: true;
  /** `--continue`: the latest session of this directory. */
  continue?: true;
  /** `--resume <id>`: a session of this directory by id or unique prefix. */
  resume?: string;
  /** `--provider`: `openai` (default) or `bridge` (copy/paste with a web chat). */
  provider?: string;
  /** `--bridge-file <path>`: bridge prompts go to this file, not the clipboard. */
  bridgeFile?: string;
  /** `--bridge-limit <chars>`: longest bridge paste before it is split. */
  bridgeLimit?: number;
  /** `--edit-format blocks|xml`: also accept edit blocks (always on in the bridge). */
  editFormat?: string;
}

/** The base URL a bridge session gets when no model server is configured. */
export const BRIDGE_NO_SERVER_URL = "http://no-server.invalid";

/**
 * What to do when nothing configures a model (see cli/connect.ts): options
 * to load again with (a found server, or the bridge). Throws a CliError to
 * stop.
 */
export type Connect = (
  o: { homeDir: string; message: string; model?: string },
) => Promise<CommonOptions>;

/**
 * Resolves settings or throws a usage error that says how to fix them.
 * With `connect`, a start where no flag, environment variable or settings
 * file names a server asks it what to use instead. An untrusted project's
 * credential settings are asked about in a terminal, else left out with a
 * warning (see `core/config/project_trust.ts`).
 */
export async function settingsFrom(
  opts: CommonOptions,
  connect?: Connect,
  warn: (message: string) => void = stderrWarning,
): Promise<Settings> {
  const home = await resolveHome(homeInputs());
  const terminal = Deno.stdin.isTerminal() && Deno.stdout.isTerminal();
  const load = (flags: CommonOptions) =>
    loadSettings({
      homeDir: home.dir,
      cwd: Deno.cwd(),
      askTrust: terminal ? (q) => askTrust(q, (t) => Deno.stdout.writeSync(encode(t))) : undefined,
      // `--no-progress` makes commander default `progress` to true: only a false counts.
      flags: { ...flags, progress: opts.quiet || opts.progress === false ? false : undefined },
      env: Deno.env.toObject(),
    });
  let r = await load(opts);
  if (!r.ok && r.noServer && connect && opts.provider !== "bridge") {
    // A model named without a server (flag, env, settings) is preferred when a server lists it.
    const named = await load({ ...opts, baseUrl: BRIDGE_NO_SERVER_URL });
    const model = named.ok ? named.settings.params.model : undefined;
    opts = await connect({ homeDir: home.dir, message: r.message, model });
    r = await load(opts);
  }
  if (!r.ok && opts.provider === "bridge") {
    // The bridge needs no model server; /provider openai then says none is configured.
    r = await load({ ...opts, baseUrl: BRIDGE_NO_SERVER_URL, model: opts.model ?? "web-chat" });
  }
  if (!r.ok) throw new CliError(r.message, EXIT.usage);
  for (const w of r.warnings ?? []) warn(w);
  const info = await Deno.stat(r.settings.cwd).catch(() => null);
  if (!info?.isDirectory) {
    throw new CliError(`Working directory "${r.settings.cwd}" does not exist`, EXIT.usage);
  }
  r.settings.cwd = await Deno.realPath(r.settings.cwd);
  return r.settings;
}
