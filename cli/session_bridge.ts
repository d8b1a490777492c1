/**
 * How a session chooses between a model server and the copy/paste bridge,
 * and turns edit blocks on: the extra tools (`apply_edit_blocks`, and in the
 * bridge `bridge_request`), the hook that turns a reply's blocks into their
 * call, and the system prompt's extra sections. `/provider` switches it.
 *
 * @example
 * ```ts
 * const edits = await editWiring(bridgeSetup(opts, { write: io.out, interactive }), {
 *   cwd, homeDir, fs: realFs,
 * });
 * deps.tools = edits.tools(tools);
 * ```
 * @module
 */
import { join } from "node:path";
import type { LlmProvider } from "../interfaces/agent.ts";
import type { AnyTool, FsPort, ToolCall } from "../interfaces/tool.ts";
import type { Settings } from "../core/config/settings.ts";
import { blockCall, BRIDGE_DOC, EDIT_BLOCKS_DOC } from "../core/protocol/bridge_format.ts";
import { createProvider } from "../core/llm/select.ts";
import type { PastePort } from "../core/llm/bridge.ts";
import { detectClipboard } from "../core/llm/clipboard.ts";
import { applyEditBlocks } from "../core/tools/apply_edit_blocks.ts";
import { bridgeRequest } from "../core/tools/bridge_request.ts";
import { type PastePortOptions, terminalPastePort } from "./prompt/paste.ts";
import { BRIDGE_NO_SERVER_URL, type CommonOptions } from "./commands/common.ts";

/** The providers a session can switch between. */
export type ProviderName = "openai" | "bridge";

/** The bridge and edit-block choices of a chat or `run`. */
export interface BridgeSetup {
  provider: ProviderName;
  editFormat: "blocks" | "xml";
  /** `--bridge-file`. */
  file?: string;
  /** `--bridge-limit`. */
  limit?: number;
  /** `--model`, the name recorded for the web chat. */
  model?: string;
  /** The user's side of the bridge. */
  port: PastePort;
}

/** The setup from the command's options, with the terminal paste prompt. */
export function bridgeSetup(
  opts: CommonOptions,
  o: PastePortOptions,
): BridgeSetup {
  return {
    provider: opts.provider === "bridge" ? "bridge" : "openai",
    editFormat: opts.editFormat === "blocks" ? "blocks" : "xml",
    file: opts.bridgeFile,
    limit: opts.bridgeLimit,
    model: opts.model,
    port: terminalPastePort(o),
  };
}

/** A session's provider choice and edit-block state. */
export interface EditWiring {
  /** The provider in use. */
  current(): ProviderName;
  /** Whether replies' edit blocks are applied. */
  blocksOn(): boolean;
  /** `base` plus the tools edit blocks and the bridge need. */
  tools(base: readonly AnyTool[]): AnyTool[];
  /** The call a reply's blocks or directives stand for (see `AgentDeps.blockCall`). */
  blockCall(text: string): ToolCall | null;
  /** What the system prompt gets appended ("" when blocks are off). */
  promptSuffix(): string;
  /** The bridge when it is in use, else `server()`. */
  provider(server: () => LlmProvider): LlmProvider;
  /** Uses `name` from the next request on; throws with a message for the user. */
  switchTo(name: string, settings: Settings): Promise<void>;
}

/** Where the session is. */
export interface WiringContext {
  cwd: string;
  homeDir: string;
  /** Reads the project for the bridge's summary and contents. */
  fs: FsPort;
}

/** Builds the wiring; detects the clipboard when the bridge is chosen. */
export async function editWiring(
  setup: BridgeSetup | undefined,
  ctx: WiringContext,
): Promise<EditWiring> {
  let current: ProviderName = setup?.provider ?? "openai";
  let bridge: LlmProvider | null = current === "bridge" && setup
    ? await makeBridge(setup, ctx)
    : null;
  const blocksOn = () => current === "bridge" || setup?.editFormat === "blocks";
  return {
    current: () => current,
    blocksOn,
    tools(base) {
      if (!blocksOn()) return [...base];
      return [...base, applyEditBlocks, ...(current === "bridge" ? [bridgeRequest] : [])];
    },
    blockCall(text) {
      return blocksOn() ? blockCall(text, { directives: current === "bridge" }) : null;
    },
    promptSuffix() {
      if (!blocksOn()) return "";
      return `\n\n${EDIT_BLOCKS_DOC}` + (current === "bridge" ? `\n\n${BRIDGE_DOC}` : "");
    },
    provider: (server) => current === "bridge" && bridge ? bridge : server(),
    async switchTo(name, settings) {
      if (name !== "openai" && name !== "bridge") {
        throw new Error(`Unknown provider "${name}": expected "openai" or "bridge"`);
      }
      if (name === "openai" && settings.baseURL === BRIDGE_NO_SERVER_URL) {
        throw new Error(
          'No model server configured for provider "openai": start minoc with --base-url ' +
            "or --api-key (or set OPENAI_BASE_URL / OPENAI_API_KEY)",
        );
      }
      if (name === "bridge" && !setup) {
        throw new Error("The copy/paste bridge is not available here");
      }
      if (name === "bridge" && !bridge && setup) bridge = await makeBridge(setup, ctx);
      current = name;
    },
  };
}

async function makeBridge(setup: BridgeSetup, ctx: WiringContext): Promise<LlmProvider> {
  const clipboard = await detectClipboard();
  return createProvider({
    provider: "bridge",
    baseURL: "",
    apiKey: "",
    params: { model: setup.model ?? "web-chat" },
    bridge: {
      cwd: ctx.cwd,
      fs: ctx.fs,
      port: setup.port,
      clipboard,
      file: setup.file,
      fallbackFile: join(ctx.homeDir, "bridge", "prompt.md"),
      limit: setup.limit,
      model: setup.model ?? "web-chat",
    },
  });
}
