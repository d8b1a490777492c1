/**
 * Edits a text in the user's editor (`$VISUAL`, else `$EDITOR`, else `vi`):
 * the text goes into a private temporary file, the editor runs in this
 * terminal, and the file's UTF-8 text comes back. minoc's own, so the
 * prompts library's editor (and the encoding tables it brings) stays out of
 * the shipped file.
 *
 * @example
 * ```ts
 * const edited = await editText("<read_file><path>a.md</path></read_file>\n", ".xml");
 * ```
 * @module
 */
import { join } from "node:path";

/** The editor command line, split into words (quotes group words). */
export function editorCommand(env: (name: string) => string | undefined = Deno.env.get): string[] {
  const line = env("VISUAL")?.trim() || env("EDITOR")?.trim() || "vi";
  const words: string[] = [];
  for (const m of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) words.push(m[1] ?? m[2] ?? m[3]);
  return words;
}

/**
 * Opens `text` in the editor and returns what the user saved. Throws an
 * Error saying which editor failed when it cannot start or exits non-zero.
 */
export async function editText(text: string, suffix: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "minoc-edit-" });
  const file = join(dir, `edit${suffix}`);
  try {
    await Deno.writeTextFile(file, text, { mode: 0o600 });
    const [cmd, ...args] = editorCommand();
    let status: Deno.CommandStatus;
    try {
      status = await new Deno.Command(cmd, {
        args: [...args, file],
        stdin: "inherit",
        stdout: "inherit",
        stderr: "inherit",
      }).spawn().status;
    } catch (e) {
      throw new Error(`editor "${cmd}" could not start: ${(e as Error).message}`);
    }
    if (!status.success) throw new Error(`editor "${cmd}" exited with code ${status.code}`);
    return await Deno.readTextFile(file);
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}
