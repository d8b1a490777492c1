/**
 * The editor's file system, for the file tools of an ACP session.
 *
 * When the client announces `fs.readTextFile`, `read_file`, `read_files` and
 * the edit tools read a text file through `fs/read_text_file`, so they see
 * unsaved changes in its buffers; when it announces `fs.writeTextFile`,
 * `write_to_file`, `replace_in_file`, `edit_file` and edit blocks write
 * through `fs/write_text_file`, so the change lands in the editor. The
 * session wraps this port in the undo backups, so every such write can still
 * be undone. Everything else (listing, searching, deleting, folders, stat,
 * binary files, commands) uses the disk: a search that asked the editor for
 * each file would be slow, and commands see the disk anyway.
 *
 * A read the editor fails falls back to the disk; a write it fails is the
 * tool's error (writing behind its back would fight its buffer).
 *
 * @example
 * ```ts
 * const fs = editorFs(clientCapabilities, client, () => sessionId); // undefined: no fs offered
 * ```
 * @module
 */
import { type AgentContext, type ClientCapabilities, methods } from "@agentclientprotocol/sdk";
import type { FsPort } from "../../interfaces/tool.ts";
import { realFs } from "../../core/tools/fs_port.ts";

/** The tools that read or write through the editor when it offers its file system. */
export const EDITOR_FILE_TOOLS: ReadonlySet<string> = new Set([
  "read_file",
  "read_files",
  "write_to_file",
  "replace_in_file",
  "edit_file",
  "apply_edit_blocks",
]);

const utf8 = new TextDecoder("utf-8", { fatal: true });
const enc = new TextEncoder();

/** The editor's file system, or undefined when the client offers neither read nor write. */
export function editorFs(
  caps: ClientCapabilities | undefined,
  client: AgentContext,
  sessionId: () => string,
): FsPort | undefined {
  const canRead = caps?.fs?.readTextFile === true;
  const canWrite = caps?.fs?.writeTextFile === true;
  if (!canRead && !canWrite) return undefined;
  return {
    ...realFs,
    async readFile(path: string): Promise<Uint8Array> {
      const disk = await realFs.readFile(path);
      if (!canRead || text(disk) === null) return disk;
      try {
        const r = await client.request(methods.client.fs.readTextFile, {
          sessionId: sessionId(),
          path,
        });
        return typeof r?.content === "string" ? enc.encode(r.content) : disk;
      } catch {
        return disk;
      }
    },
    async writeFile(path: string, data: Uint8Array): Promise<void> {
      const content = canWrite ? text(data) : null;
      if (content === null) return await realFs.writeFile(path, data);
      try {
        await client.request(methods.client.fs.writeTextFile, {
          sessionId: sessionId(),
          path,
          content,
        });
      } catch (e) {
        throw new Error(`The editor did not write "${path}": ${(e as Error)?.message ?? e}`);
      }
    },
  };
}

function text(data: Uint8Array): string | null {
  try {
    return utf8.decode(data);
  } catch {
    return null;
  }
}
