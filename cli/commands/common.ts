/**
 * What the chat and `run` share: their options and the settings they make.
 *
 * @module
 */
import type { SettingFlags, Settings } from "../../core/config/settings.ts";
import { loadSettings } from "../../core/config/load.ts";
import { homeInputs, resolveHome } from "../../core/config/paths.ts";
import { CliError, EXIT } from "../io.ts";

/** The model and run options (see cli/options.ts). */
export interface CommonOptions extends SettingFlags {
  yes?: true;
  plan?: true;
  session?: boolean;
}

/** Resolves settings or throws a usage error that says how to fix them. */
export async function settingsFrom(opts: CommonOptions): Promise<Settings> {
  const home = await resolveHome(homeInputs());
  const r = await loadSettings({
    homeDir: home.dir,
    cwd: Deno.cwd(),
    flags: opts,
    env: Deno.env.toObject(),
  });
  if (!r.ok) throw new CliError(r.message, EXIT.usage);
  const info = await Deno.stat(r.settings.cwd).catch(() => null);
  if (!info?.isDirectory) {
    throw new CliError(`Working directory "${r.settings.cwd}" does not exist`, EXIT.usage);
  }
  r.settings.cwd = await Deno.realPath(r.settings.cwd);
  return r.settings;
}
