/**
 * A cloned repository's `.minoc/config/` must not choose where the user's
 * credentials go or what runs: the fields in {@link TRUSTED_ONLY} count only
 * when the user trusts the folder (see `trust.ts`). On first use in a
 * terminal the user is asked; otherwise the values are left out with one
 * warning that names the file and the fields.
 *
 * @example
 * ```ts
 * const layer = await screenProjectLayer(raw, { homeDir, folder: "/repo", warnings });
 * ```
 * @module
 */
import type { FileLayer } from "./settings.ts";
import { isFolderTrusted, trustFolder } from "./trust.ts";

/** Fields a project file may set only in a trusted folder. */
export const TRUSTED_ONLY: readonly string[] = [
  "baseUrl",
  "apiKeyEnv",
  "headers",
  "defaultHeaders",
  "mcpServers",
  "mcp",
  "commands",
  "hooks",
  "shell",
  "allowUnconfinedScripts",
];

/** What the user is shown when asked to trust a folder. */
export interface TrustQuestion {
  folder: string;
  file: string;
  /** Field → value, as the file sets them. */
  fields: Record<string, unknown>;
}

/** How {@link screenProjectLayer} decides. */
export interface ScreenOptions {
  /** The `.minoc` home holding the trust list. */
  homeDir: string;
  /** The project folder whose `.minoc/config/` the layer came from. */
  folder: string;
  /** Asks the user (a terminal only); true trusts the folder from now on. Absent: never asks. */
  ask?: (q: TrustQuestion) => Promise<boolean>;
  /** Receives the one-line warning when values are left out. */
  warnings: string[];
}

/** The layer as it may be used: trusted-only fields removed unless the folder is trusted. */
export async function screenProjectLayer(layer: FileLayer, o: ScreenOptions): Promise<FileLayer> {
  const settings = layer.settings as Record<string, unknown> | undefined;
  if (!settings) return layer;
  if (settings.sandbox !== undefined) {
    o.warnings.push(
      `Ignored "sandbox" in "${layer.settingsPath}": a project cannot change the commands' ` +
        `sandbox, trusted or not (set it in the settings.json of your minoc home)`,
    );
  }
  const found = TRUSTED_ONLY.filter((f) => settings[f] !== undefined);
  if (found.length === 0) return layer;
  if (await isFolderTrusted(o.homeDir, o.folder)) return layer;
  const fields = Object.fromEntries(found.map((f) => [f, settings[f]]));
  if (o.ask && await o.ask({ folder: o.folder, file: layer.settingsPath, fields })) {
    try {
      await trustFolder(o.homeDir, o.folder);
    } catch (e) {
      o.warnings.push(`${(e as Error).message}: the folder is trusted for this run only`);
    }
    return layer;
  }
  const kept = Object.fromEntries(Object.entries(settings).filter(([k]) => !found.includes(k)));
  o.warnings.push(
    `Ignored ${found.map((f) => `"${f}"`).join(", ")} in "${layer.settingsPath}": ` +
      `the folder "${o.folder}" is not trusted (run minoc in a terminal there to trust it)`,
  );
  return { ...layer, settings: kept as FileLayer["settings"] };
}
