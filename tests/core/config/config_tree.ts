/**
 * A temporary configuration tree for the settings loader's tests: a `.minoc`
 * home and a project folder, removed afterwards.
 *
 * @module
 */
import { join } from "node:path";
import { loadSettings } from "../../../core/config/load.ts";
import type { SettingFlags } from "../../../core/config/settings.ts";

/** A temp tree with a `.minoc` home and a project folder; removed afterwards. */
export async function withTree(
  fn: (
    t: { home: string; project: string; write(path: string, value: unknown): Promise<string> },
  ) => Promise<void>,
) {
  const root = await Deno.makeTempDir({ prefix: "minoc-config-" });
  const home = join(root, "app", ".minoc");
  const project = join(root, "project");
  await Deno.mkdir(project, { recursive: true });
  const write = async (path: string, value: unknown) => {
    await Deno.mkdir(join(path, ".."), { recursive: true });
    await Deno.writeTextFile(
      path,
      typeof value === "string" ? value : JSON.stringify(value, null, 2),
    );
    return path;
  };
  try {
    await fn({ home, project, write });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

export const homeFile = (home: string, name: string) => join(home, "config", name);
export const projectFile = (project: string, name: string) =>
  join(project, ".minoc", "config", name);

export async function load(
  t: { home: string; project: string },
  flags: SettingFlags = {},
  env: Record<string, string> = {},
) {
  return await loadSettings({ homeDir: t.home, cwd: t.project, flags, env });
}
