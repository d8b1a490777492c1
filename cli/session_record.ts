/**
 * The session's recorder: a session file under the home's sessions folder,
 * or nothing (`--no-session`, or a folder that cannot be written, with one
 * warning).
 *
 * @module
 */
import type { SessionRecorder } from "../interfaces/history.ts";
import type { Mode } from "../core/permission/mode_gate.ts";
import { createRecorder, nullRecorder } from "../core/history/recorder.ts";
import type { SessionOptions } from "./session_types.ts";

/** Opens the recorder `o` asks for. */
export async function openRecorder(
  o: SessionOptions,
  sessionsDir: string,
  systemPrompt: string,
  mode: () => Mode,
): Promise<SessionRecorder> {
  const base = {
    sessionsDir,
    model: o.settings.params.model,
    projectPath: o.settings.cwd,
    mode: mode(),
    systemPrompt,
  };
  if (!o.record) return nullRecorder(base);
  try {
    return await createRecorder({ ...base, onWriteError: o.warn });
  } catch (e) {
    o.warn(`Cannot record the session in "${sessionsDir}": ${(e as Error).message}`);
    return nullRecorder(base);
  }
}
