/**
 * What `minoc acp` does for each ACP method: one method per request, each
 * checking its parameters and answering with a JSON-RPC error that names
 * the field and value when they are wrong.
 *
 * @example
 * ```ts
 * const h = new AcpHandlers(flags, table, warn);
 * app.onRequest(methods.agent.session.new, (c) => h.newSession(c.params, c.client));
 * ```
 * @module
 */
import { isAbsolute } from "node:path";
import {
  type AgentContext,
  type ClientCapabilities,
  type InitializeRequest,
  type InitializeResponse,
  type LoadSessionRequest,
  type LoadSessionResponse,
  type NewSessionRequest,
  type NewSessionResponse,
  PROTOCOL_VERSION,
  RequestError,
  type SetSessionConfigOptionRequest,
  type SetSessionConfigOptionResponse,
} from "@agentclientprotocol/sdk";
import type { Mode } from "../../core/permission/mode_gate.ts";
import type { Settings } from "../../core/config/settings.ts";
import type { ResumeTarget } from "../resume.ts";
import { CliError } from "../io.ts";
import { VERSION } from "../version.ts";
import type { CommonOptions } from "../commands/common.ts";
import { type AcpLink, AcpSession, modeState } from "./acp_session.ts";
import { checkConfigValue, configOptions } from "./config_options.ts";
import { checkMcpServers, editorMcpServers } from "./mcp.ts";
import { findRecorded } from "./load.ts";
import { replayUpdates } from "./replay.ts";
import { editorFs } from "./editor_fs.ts";
import type { SessionTable } from "./session_table.ts";

/** The command line's choices that hold for every session. */
export interface AcpFlags extends CommonOptions {
  /** false with `--no-session`. */
  session?: boolean;
}

/** The agent's side of each ACP method. */
export class AcpHandlers {
  #caps: ClientCapabilities | undefined;

  constructor(
    private readonly flags: AcpFlags,
    private readonly table: SessionTable,
    private readonly warn: (message: string) => void,
  ) {}

  /** `initialize`: what minoc offers, announced only where it is implemented. */
  initialize(params: InitializeRequest): InitializeResponse {
    this.#caps = params.clientCapabilities;
    return {
      protocolVersion: PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: this.flags.session !== false,
        promptCapabilities: { image: false, audio: false, embeddedContext: true },
        mcpCapabilities: { http: false, sse: false },
      },
      agentInfo: { name: "minoc", title: "minoc", version: VERSION },
      authMethods: [],
    };
  }

  /** `session/new`: a minoc session in `cwd`. */
  async newSession(params: NewSessionRequest, client: AgentContext): Promise<NewSessionResponse> {
    checkCwd(params.cwd);
    const servers = checkMcpServers(params.mcpServers);
    const s = await this.#open(client, params.cwd, this.flags.plan ? "plan" : "agent", servers);
    return {
      sessionId: s.id,
      modes: modeState(s.agent.mode()),
      configOptions: await configOptions(s.agent),
    };
  }

  /** `session/load`: a recorded session of `cwd`, replayed as updates, then continued. */
  async loadSession(
    params: LoadSessionRequest,
    client: AgentContext,
  ): Promise<LoadSessionResponse> {
    if (this.flags.session === false) {
      throw RequestError.invalidRequest(
        { sessionId: params.sessionId },
        "session/load is off: minoc acp was started with --no-session, which records nothing",
      );
    }
    checkCwd(params.cwd);
    const servers = checkMcpServers(params.mcpServers);
    const target = await findRecorded(params.sessionId, params.cwd);
    // Loaded again in this connection: the open copy stops first, so one recorder writes the file.
    await this.table.close(target.session.sessionId);
    const s = await this.#open(client, params.cwd, target.session.mode, servers, target);
    for (const u of replayUpdates(target.session, s.agent.cwd)) s.send(u);
    await s.flush();
    return { modes: modeState(s.agent.mode()), configOptions: await configOptions(s.agent) };
  }

  /** `session/set_mode`: agent or plan; the editor's config options follow. */
  async setMode(sessionId: string, modeId: string): Promise<void> {
    const s = this.table.get(sessionId);
    s.setMode(modeId);
    s.send({ sessionUpdate: "config_option_update", configOptions: await configOptions(s.agent) });
  }

  /** `session/set_config_option`: the model or the mode. */
  async setConfigOption(
    params: SetSessionConfigOptionRequest,
  ): Promise<SetSessionConfigOptionResponse> {
    const s = this.table.get(params.sessionId);
    const value = await checkConfigValue(s.agent, params.configId, params.value);
    if (params.configId === "mode") s.setMode(value);
    else await s.setModel(value);
    return { configOptions: await configOptions(s.agent) };
  }

  /** `session/cancel`: stops the session's turn; an unknown session is only logged. */
  cancel(sessionId: string): void {
    try {
      this.table.get(sessionId).cancel();
    } catch {
      this.warn(`session/cancel names an unknown session "${sessionId}"`);
    }
  }

  #link(client: AgentContext): AcpLink {
    const f = this.flags;
    return {
      client,
      flags: {
        yes: f.yes,
        dryRun: f.dryRun,
        debug: f.debug,
        step: f.step,
        record: f.session !== false,
      },
      settings: (cwd, model) => sessionSettings(model ? { ...f, model } : f, cwd),
      fs: (id) => editorFs(this.#caps, client, id),
      warn: this.warn,
    };
  }

  async #open(
    client: AgentContext,
    cwd: string,
    mode: Mode,
    servers: ReturnType<typeof checkMcpServers>,
    resume?: ResumeTarget,
  ): Promise<AcpSession> {
    const settings = await sessionSettings(this.flags, cwd);
    const mcpServers = editorMcpServers(servers);
    let s: AcpSession;
    try {
      s = await AcpSession.open(this.#link(client), { settings, mode, resume, mcpServers });
    } catch (e) {
      throw asRequestError(e);
    }
    this.table.add(s);
    return s;
  }
}

function checkCwd(cwd: string): void {
  if (!isAbsolute(cwd)) {
    throw RequestError.invalidParams({ field: "cwd" }, `cwd "${cwd}" must be an absolute path`);
  }
}

async function sessionSettings(flags: AcpFlags, cwd: string): Promise<Settings> {
  const { settingsFrom } = await import("../commands/common.ts");
  try {
    return await settingsFrom({ ...flags, cwd });
  } catch (e) {
    throw asRequestError(e);
  }
}

/** A CLI error as the JSON-RPC error the editor shows (invalid params for usage errors). */
function asRequestError(e: unknown): RequestError {
  if (e instanceof RequestError) return e;
  const message = e instanceof CliError
    ? e.message
    : `Unexpected error: ${(e as Error)?.message ?? e}`;
  return new RequestError(e instanceof CliError ? -32602 : -32603, message);
}
