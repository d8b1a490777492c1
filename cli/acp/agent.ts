/**
 * The ACP agent: `initialize`, `session/new`, `session/load`,
 * `session/prompt`, `session/cancel` and `session/set_mode` over one
 * connection, each session a minoc session. Errors are JSON-RPC errors with
 * a message that names the field and value; the agent keeps serving.
 *
 * @example
 * ```ts
 * const conn = acpAgent(flags, warn).connect(ndJsonStream(Deno.stdout.writable, Deno.stdin.readable));
 * await conn.closed;
 * ```
 * @module
 */
import { isAbsolute } from "node:path";
import {
  agent,
  type AgentApp,
  type AgentContext,
  type ClientCapabilities,
  methods,
  PROTOCOL_VERSION,
  RequestError,
} from "@agentclientprotocol/sdk";
import type { Mode } from "../../core/permission/mode_gate.ts";
import { CliError } from "../io.ts";
import { VERSION } from "../version.ts";
import { AcpSession, modeState } from "./acp_session.ts";
import { checkConfigValue, configOptions } from "./config_options.ts";
import { checkMcpServers, connectClientMcpServers } from "./mcp.ts";
import { findRecorded } from "./load.ts";
import { replayUpdates } from "./replay.ts";
import { editorFs } from "./editor_fs.ts";
import type { CommonOptions } from "../commands/common.ts";

/** The command line's choices that hold for every session. */
export interface AcpFlags extends CommonOptions {
  /** false with `--no-session`. */
  session?: boolean;
}

/** Every open session of a connection, closed together. */
export class SessionTable {
  readonly #all = new Map<string, AcpSession>();

  /** The session, or a resource-not-found error naming it. */
  get(id: string): AcpSession {
    const s = this.#all.get(id);
    if (!s) throw RequestError.resourceNotFound(`session "${id}"`);
    return s;
  }

  add(s: AcpSession): void {
    this.#all.set(s.id, s);
  }

  /** Closes every session (stdin ended). */
  async closeAll(): Promise<void> {
    await Promise.allSettled([...this.#all.values()].map((s) => s.close()));
    this.#all.clear();
  }
}

/** Builds the agent app; `table` receives the sessions it opens. */
export function acpAgent(
  flags: AcpFlags,
  table: SessionTable,
  warn: (m: string) => void,
): AgentApp {
  let caps: ClientCapabilities | undefined;
  const link = (client: AgentContext) => ({
    client,
    flags: {
      yes: flags.yes,
      dryRun: flags.dryRun,
      debug: flags.debug,
      step: flags.step,
      record: flags.session !== false,
    },
    settings: (cwd: string, model?: string) =>
      sessionSettings(model ? { ...flags, model } : flags, cwd),
    fs: (id: () => string) => editorFs(caps, client, id),
    warn,
  });
  const open = async (
    client: AgentContext,
    cwd: string,
    mode: Mode,
    resume?: Parameters<typeof AcpSession.open>[1]["resume"],
  ) => {
    const settings = await sessionSettings(flags, cwd);
    try {
      return await AcpSession.open(link(client), { settings, mode, resume });
    } catch (e) {
      throw asRequestError(e);
    }
  };
  return agent({ name: "minoc" })
    .onRequest(methods.agent.initialize, ({ params }) => {
      caps = params.clientCapabilities;
      return {
        protocolVersion: PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: flags.session !== false,
          promptCapabilities: { image: false, audio: false, embeddedContext: true },
          mcpCapabilities: { http: false, sse: false },
        },
        agentInfo: { name: "minoc", title: "minoc", version: VERSION },
        authMethods: [],
      };
    })
    .onRequest(methods.agent.session.new, async ({ params, client }) => {
      checkCwd(params.cwd);
      const servers = checkMcpServers(params.mcpServers);
      const s = await open(client, params.cwd, flags.plan ? "plan" : "agent");
      table.add(s);
      const note = await connectClientMcpServers(servers, s.agent);
      if (note) warn(note);
      return {
        sessionId: s.id,
        modes: modeState(s.agent.mode()),
        configOptions: await configOptions(s.agent),
      };
    })
    .onRequest(methods.agent.session.load, async ({ params, client }) => {
      if (flags.session === false) {
        throw RequestError.invalidRequest(
          { sessionId: params.sessionId },
          "session/load is off: minoc acp was started with --no-session, which records nothing",
        );
      }
      checkCwd(params.cwd);
      const servers = checkMcpServers(params.mcpServers);
      const target = await findRecorded(params.sessionId, params.cwd);
      const s = await open(client, params.cwd, target.session.mode, target);
      table.add(s);
      for (const u of replayUpdates(target.session, s.agent.cwd)) s.send(u);
      await s.flush();
      const note = await connectClientMcpServers(servers, s.agent);
      if (note) warn(note);
      return { modes: modeState(s.agent.mode()), configOptions: await configOptions(s.agent) };
    })
    .onRequest(methods.agent.session.prompt, async ({ params }) => ({
      stopReason: await table.get(params.sessionId).prompt(params.prompt),
    }))
    .onRequest(methods.agent.session.setMode, async ({ params }) => {
      const s = table.get(params.sessionId);
      s.setMode(params.modeId);
      s.send({
        sessionUpdate: "config_option_update",
        configOptions: await configOptions(s.agent),
      });
      return {};
    })
    .onRequest(methods.agent.session.setConfigOption, async ({ params }) => {
      const s = table.get(params.sessionId);
      const value = await checkConfigValue(s.agent, params.configId, params.value);
      if (params.configId === "mode") s.setMode(value);
      else await s.setModel(value);
      return { configOptions: await configOptions(s.agent) };
    })
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      try {
        table.get(params.sessionId).cancel();
      } catch {
        warn(`session/cancel names an unknown session "${params.sessionId}"`);
      }
    });
}

function checkCwd(cwd: string): void {
  if (!isAbsolute(cwd)) {
    throw RequestError.invalidParams({ field: "cwd" }, `cwd "${cwd}" must be an absolute path`);
  }
}

async function sessionSettings(flags: AcpFlags, cwd: string) {
  const { settingsFrom } = await import("../commands/common.ts");
  try {
    return await settingsFrom({ ...flags, cwd });
  } catch (e) {
    throw asRequestError(e);
  }
}

/** A CLI error as the JSON-RPC error the editor shows. */
function asRequestError(e: unknown): RequestError {
  if (e instanceof RequestError) return e;
  const message = e instanceof CliError
    ? e.message
    : `Unexpected error: ${(e as Error)?.message ?? e}`;
  return new RequestError(e instanceof CliError ? -32602 : -32603, message);
}
