/**
 * What the chat shares with its slash commands beyond the session: the
 * command-line options (to reload settings for another model), the progress
 * display, how the last task ended, and a way to run cancellable work.
 *
 * @module
 */
import type { Outcome } from "../../interfaces/agent.ts";
import type { ProgressView } from "../ui/progress.ts";
import type { CommonOptions } from "./common.ts";

/** The chat's state, as slash commands see it. */
export interface ChatState {
  /** The chat's options; `/model` reloads settings with another model over them. */
  opts: CommonOptions;
  progress: ProgressView;
  /** How the last task ended (undefined before the first, or after /clear). */
  lastOutcome?: Outcome;
  /** Runs `fn` with a signal that Ctrl+C aborts. */
  cancellable<T>(fn: (signal: AbortSignal) => Promise<T>): Promise<T>;
}

/** What a slash command asks of the chat. */
export type SlashResult = "exit" | "handled" | { resend: string };
