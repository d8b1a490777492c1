/**
 * A project and a backup store in a temp folder, and shell commands run in it
 * between the two looks of the undo watch, for the `CommandUndo` tests.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type BackupStore, createBackupStore } from "../../core/history/backups.ts";
import type { AfterReport, Before, CommandUndo } from "../../core/history/command_undo.ts";
import { makeTree } from "./tool_context.ts";

/** Every file (with its text) and folder below `root`, for comparing whole trees. */
export async function tree(root: string, rel = ""): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const e of Deno.readDir(join(root, rel))) {
    const path = rel === "" ? e.name : `${rel}/${e.name}`;
    if (e.isDirectory) {
      out[`${path}/`] = "";
      Object.assign(out, await tree(root, path));
    } else out[path] = await Deno.readTextFile(join(root, path));
  }
  return out;
}

/** Runs `script` with `sh` in `cwd`; fails the test when it fails. */
export async function sh(cwd: string, script: string): Promise<void> {
  const r = await new Deno.Command("sh", { args: ["-c", script], cwd, stderr: "piped" }).output();
  assert.ok(r.success, new TextDecoder().decode(r.stderr));
}

/** A project (five files, three folders) and its session's backup store. */
export interface Lab extends AsyncDisposable {
  project: string;
  store: BackupStore;
}

/** A fresh {@link Lab}, removed when disposed. */
export async function lab(): Promise<Lab> {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_cmd_undo_" }));
  const project = join(base, "project");
  await makeTree(project, {
    "notes.md": "line one\n",
    "src/app.ts": "export const a = 1;\n",
    "docs/guide/intro.md": "# Intro\n",
    "docs/guide/setup.md": "# Setup\n",
    ".gitignore": "dist/\n",
  });
  const store = await createBackupStore(join(base, "backups", "s1"), "s1");
  return {
    project,
    store,
    [Symbol.asyncDispose]: () => Deno.remove(base, { recursive: true }),
  };
}

/** Runs `script` in the project as one change group between the two looks. */
export async function command(
  watch: CommandUndo,
  l: Lab,
  script: string,
): Promise<{ before: Before; after: AfterReport }> {
  const before = await watch.before();
  l.store.beginGroup(`execute_command ${script}`);
  await sh(l.project, script);
  const after = await watch.after(before);
  l.store.endGroup();
  return { before, after };
}
