/**
 * One exchange with a web chat through the user: hand out the prompt (to the
 * clipboard, or a file, in parts when it is long, waiting for the user to
 * confirm each part was sent), read the pasted answer, and, while the answer
 * ends in `<<<CONTINUE>>>`, ask for the rest and join the parts.
 *
 * The user's side is a {@link PastePort}, so tests can drive it; the terminal
 * one lives in `cli/prompt/paste.ts`.
 *
 * @module
 */
import { dirname } from "node:path";
import { joinParts, splitContinue } from "../protocol/bridge_format.ts";
import type { Clipboard } from "./clipboard.ts";
import { DEFAULT_BRIDGE_LIMIT, splitPrompt } from "./bridge_split.ts";

/** What the user gave as the answer: typed/pasted text, or "read the clipboard". */
export type PasteInput = { kind: "text"; text: string } | { kind: "clipboard" };

/** The user's side of the bridge. */
export interface PastePort {
  /** Shows a line to the user. */
  say(text: string): void;
  /** Waits until the user confirms (Enter); false when cancelled. */
  confirm(message: string, signal?: AbortSignal): Promise<boolean>;
  /** Reads the answer (up to `<<<EOF>>>` or end of input); null when cancelled. */
  read(message: string, signal?: AbortSignal): Promise<PasteInput | null>;
}

/** Where prompts go and how answers come back. */
export interface ExchangeOptions {
  port: PastePort;
  clipboard: Clipboard | null;
  /** `--bridge-file`: prompts always go to this file. */
  file?: string;
  /** Where prompts go when there is no clipboard (or it fails). */
  fallbackFile: string;
  /** Longest paste (default 30,000 characters). */
  limit?: number;
}

/** Continuations asked for at most, per answer. */
export const MAX_CONTINUATIONS = 20;

/** The line the user ends a typed or pasted answer with. */
export const EOF_MARK = "<<<EOF>>>";

const ANSWER_HELP = `Paste the chat's answer here and end it with a line ${EOF_MARK} ` +
  "(or Ctrl+D); or copy the answer in the chat and press Enter (or type /paste) " +
  "to read it from the clipboard. Ctrl+C cancels.";

/** Sends `prompt` and returns the chat's whole answer; null when the user cancelled. */
export async function exchange(
  o: ExchangeOptions,
  prompt: string,
  signal?: AbortSignal,
): Promise<string | null> {
  let answer = await sendAndRead(o, prompt, signal);
  for (let k = 0; answer !== null && k < MAX_CONTINUATIONS; k++) {
    const cut = splitContinue(answer);
    if (!cut) return answer;
    const rest = cut.remaining.length ? cut.remaining.join(", ") : "not listed";
    o.port.say(`The answer continues (still to come: ${rest}); asking the chat for the rest.`);
    const more = await sendAndRead(o, continuePrompt(cut.remaining), signal);
    answer = more === null ? null : joinParts(cut.before, more);
  }
  return answer;
}

/** The short prompt that asks the chat to go on. */
export function continuePrompt(remaining: readonly string[]): string {
  const list = remaining.length
    ? `\nStill to come:\n${remaining.map((p) => `- ${p}`).join("\n")}`
    : "";
  return "Continue your previous answer exactly where it stopped: send the remaining blocks " +
    "in the same format, without repeating what you already sent. If it is still too long, " +
    `end again with a <<<CONTINUE>>> block.${list}\n`;
}

async function sendAndRead(
  o: ExchangeOptions,
  prompt: string,
  signal?: AbortSignal,
): Promise<string | null> {
  const parts = splitPrompt(prompt, o.limit ?? DEFAULT_BRIDGE_LIMIT);
  for (let k = 0; k < parts.length; k++) {
    const where = await deliver(o, parts[k]);
    const what = parts.length > 1 ? `Part ${k + 1}/${parts.length}` : "The prompt";
    o.port.say(
      `${what} (${parts[k].length} characters) ${where}: paste it into the chat and send it.`,
    );
    if (k < parts.length - 1) {
      const sent = await o.port.confirm(
        `Press Enter when part ${k + 1}/${parts.length} is sent`,
        signal,
      );
      if (!sent || signal?.aborted) return null;
    }
  }
  return await readAnswer(o, parts[parts.length - 1], signal);
}

/** Puts one paste where the user can take it; says where. */
async function deliver(o: ExchangeOptions, text: string): Promise<string> {
  if (!o.file && o.clipboard) {
    try {
      await o.clipboard.write(text);
      return `is on the clipboard (${o.clipboard.name})`;
    } catch (e) {
      o.port.say(`Cannot use the clipboard (${(e as Error).message}); writing a file instead.`);
    }
  }
  const path = o.file ?? o.fallbackFile;
  await Deno.mkdir(dirname(path), { recursive: true });
  await Deno.writeTextFile(path, text);
  return `was written to ${path}${o.file ? "" : " (no clipboard found)"}`;
}

async function readAnswer(
  o: ExchangeOptions,
  sent: string,
  signal?: AbortSignal,
): Promise<string | null> {
  for (;;) {
    const got = await o.port.read(ANSWER_HELP, signal);
    if (got === null || signal?.aborted) return null;
    const text = got.kind === "text" ? got.text : await fromClipboard(o, sent);
    if (text !== null && text.trim() !== "") return text;
    if (got.kind === "text") o.port.say("The answer is empty; paste it again.");
  }
}

async function fromClipboard(o: ExchangeOptions, sent: string): Promise<string | null> {
  if (!o.clipboard) {
    o.port.say(`No clipboard found: paste the answer here and end it with a line ${EOF_MARK}.`);
    return null;
  }
  let text: string;
  try {
    text = await o.clipboard.read();
  } catch (e) {
    o.port.say(`Cannot read the clipboard (${(e as Error).message}): paste the answer here.`);
    return null;
  }
  if (text.trim() === "") o.port.say("The clipboard is empty: copy the chat's answer first.");
  else if (text === sent) {
    o.port.say("The clipboard still holds minoc's prompt: copy the chat's answer first.");
    return null;
  }
  return text;
}
