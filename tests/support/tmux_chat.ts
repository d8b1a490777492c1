/**
 * Starts minoc's chat in a real terminal (tmux) for end-to-end tests.
 *
 * @module
 */
import { minocCommandLine, minocEnv } from "./cli.ts";
import { TmuxSession } from "./tmux.ts";

/** The chat's first prompt, under its greeting. */
export const CHAT_READY = /Ctrl\+D or \/exit to quit[\s\S]*›/;

/**
 * Runs `minoc <args>` in `dir` with `env` (a fresh home in `dir` unless
 * given) and waits for the chat's first prompt unless `ready` is false;
 * ends the terminal session when the prompt never comes.
 */
export async function startChat(
  dir: string,
  args: string[],
  o: { env?: Record<string, string>; width?: number; ready?: boolean } = {},
): Promise<TmuxSession> {
  const env = o.env ?? minocEnv({ cwd: dir });
  const t = await TmuxSession.start(minocCommandLine(args), { cwd: dir, env, width: o.width });
  if (o.ready === false) return t;
  try {
    await t.waitFor(CHAT_READY);
  } catch (e) {
    await t.kill();
    throw e;
  }
  return t;
}
