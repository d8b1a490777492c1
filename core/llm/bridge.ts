/**
 * The copy/paste bridge: a provider for models reachable only through a web
 * chat. Each request becomes one paste-able prompt (system prompt, project,
 * conversation, latest tool results), handed out through the clipboard or a
 * file; the user pastes the chat's answer back, and it streams into the loop
 * as text — so the parser, gates, tools and recorder are unchanged.
 *
 * In browse mode the prompt carries a project summary; the chat asks for
 * files (`<<<REQUEST_FILE: path>>>`) and switches to edit mode
 * (`<<<SWITCH_MODE: edit>>>`), where the files' full contents are sent. The
 * mode is read from the conversation (the chat's last switch), so it also
 * holds in a resumed session.
 *
 * @example
 * ```ts
 * const provider = createBridgeProvider({
 *   cwd, fs: realFs, port: terminalPastePort(...), clipboard: await detectClipboard(),
 *   fallbackFile: "/home/me/.minoc/bridge/prompt.md",
 * });
 * ```
 * @module
 */
import type { ChatRequest, LlmProvider, StreamEvent } from "../../interfaces/agent.ts";
import type { FsPort } from "../../interfaces/tool.ts";
import { type BridgeMode, modeOf } from "../protocol/bridge_format.ts";
import { projectContents, projectFiles, projectSummary } from "../tools/project_summary.ts";
import { renderBridgePrompt } from "./bridge_prompt.ts";
import { exchange, type ExchangeOptions } from "./bridge_exchange.ts";

export { EOF_MARK, type PasteInput, type PastePort } from "./bridge_exchange.ts";
export { DEFAULT_BRIDGE_LIMIT } from "./bridge_split.ts";

/** How the bridge is set up. */
export interface BridgeOptions extends ExchangeOptions {
  /** The project directory. */
  cwd: string;
  /** Reads the project for the summary and contents. */
  fs: FsPort;
  /** Model name for the session file (default `web-chat`). */
  model?: string;
  /** The mode before the chat switches (default `browse`). */
  mode?: BridgeMode;
  /** Characters of file contents edit mode sends. */
  contentsBudget?: number;
}

/** Creates the bridge provider. */
export function createBridgeProvider(o: BridgeOptions): LlmProvider {
  let turn = 0;
  return {
    name: "bridge",
    model: o.model ?? "web-chat",
    endpoint: o.file
      ? `file ${o.file}`
      : o.clipboard
      ? `clipboard (${o.clipboard.name})`
      : `file ${o.fallbackFile}`,
    async *stream(request: ChatRequest): AsyncIterable<StreamEvent> {
      const signal = request.signal;
      try {
        const prompt = await promptFor(o, request, ++turn);
        const answer = await exchange(o, prompt, signal);
        if (answer === null || signal?.aborted) {
          yield { type: "end", reason: "aborted" };
          return;
        }
        yield { type: "text", text: answer };
        yield { type: "end", reason: "stop" };
      } catch (e) {
        if (signal?.aborted) {
          yield { type: "end", reason: "aborted" };
          return;
        }
        const message = `The copy/paste bridge failed: ${(e as Error).message ?? String(e)}`;
        yield { type: "end", reason: "error", error: { kind: "unknown", message } };
      }
    },
  };
}

/** The mode the conversation is in: the chat's last `<<<SWITCH_MODE>>>`, else the start mode. */
export function bridgeMode(request: ChatRequest, start: BridgeMode = "browse"): BridgeMode {
  const replies = request.messages.filter((m) => m.role === "assistant").map((m) => m.content);
  return modeOf(replies, start);
}

async function promptFor(o: BridgeOptions, request: ChatRequest, turn: number): Promise<string> {
  const mode = bridgeMode(request, o.mode);
  const src = { fs: o.fs, root: o.cwd, signal: request.signal };
  const files = await projectFiles(src);
  const project = mode === "edit"
    ? await projectContents(src, files, o.contentsBudget)
    : await projectSummary(src, files);
  return renderBridgePrompt({ messages: request.messages, mode, project, cwd: o.cwd, turn });
}
