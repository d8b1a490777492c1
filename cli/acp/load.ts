/**
 * Finds the recorded session a `session/load` names: its exact id, recorded
 * in the same directory (sessions of other directories are refused, as
 * `--resume` refuses them).
 *
 * @example
 * ```ts
 * const target = await findRecorded(params.sessionId, params.cwd);
 * ```
 * @module
 */
import { RequestError } from "@agentclientprotocol/sdk";
import { homeInputs, homePaths, resolveHome } from "../../core/config/paths.ts";
import { listSessions, loadSession } from "../../core/history/store.ts";
import type { ResumeTarget } from "../resume.ts";

/** JSON-RPC "resource not found". */
const NOT_FOUND = -32002;

/** The session file with id `id` recorded in `cwd`, or a JSON-RPC error saying why not. */
export async function findRecorded(id: string, cwd: string): Promise<ResumeTarget> {
  const dir = homePaths((await resolveHome(homeInputs())).dir).sessions;
  const here = await listSessions(dir, { projectPath: cwd });
  const found = here.find((s) => s.id === id);
  if (!found) {
    const other = (await listSessions(dir)).find((s) => s.id === id);
    const message = other
      ? `Session "${id}" belongs to another directory "${other.projectPath}": open that folder to load it`
      : `Unknown session "${id}" in "${cwd}": no session with that id was recorded there`;
    throw new RequestError(NOT_FOUND, message, { sessionId: id });
  }
  try {
    return { path: found.path, session: await loadSession(found.path) };
  } catch (e) {
    throw new RequestError(-32603, `Cannot load session "${id}": ${(e as Error).message}`);
  }
}
