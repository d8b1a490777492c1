/**
 * The ACP agent app: `initialize`, `session/new`, `session/load`,
 * `session/prompt`, `session/cancel`, `session/set_mode` and
 * `session/set_config_option`, each handled by {@link AcpHandlers}. The
 * SDK turns thrown errors into JSON-RPC errors, and the agent keeps serving.
 *
 * @example
 * ```ts
 * const conn = acpAgent(flags, table, warn).connect(ndJsonStream(Deno.stdout.writable, Deno.stdin.readable));
 * await conn.closed;
 * ```
 * @module
 */
import { agent, type AgentApp, methods } from "@agentclientprotocol/sdk";
import { type AcpFlags, AcpHandlers } from "./handlers.ts";
import type { SessionTable } from "./session_table.ts";

export type { AcpFlags } from "./handlers.ts";
export { SessionTable } from "./session_table.ts";

/** Builds the agent app; `table` receives the sessions it opens. */
export function acpAgent(
  flags: AcpFlags,
  table: SessionTable,
  warn: (message: string) => void,
): AgentApp {
  const h = new AcpHandlers(flags, table, warn);
  return agent({ name: "minoc" })
    .onRequest(methods.agent.initialize, ({ params }) => h.initialize(params))
    .onRequest(methods.agent.session.new, ({ params, client }) => h.newSession(params, client))
    .onRequest(methods.agent.session.load, ({ params, client }) => h.loadSession(params, client))
    // A `$/cancel_request` for the prompt aborts `signal`: that cancels the turn too.
    .onRequest(methods.agent.session.prompt, async ({ params, signal }) => ({
      stopReason: await table.get(params.sessionId).prompt(params.prompt, signal),
    }))
    .onRequest(methods.agent.session.setMode, async ({ params }) => {
      await h.setMode(params.sessionId, params.modeId);
      return {};
    })
    .onRequest(methods.agent.session.setConfigOption, ({ params }) => h.setConfigOption(params))
    .onNotification(methods.agent.session.cancel, ({ params }) => h.cancel(params.sessionId));
}
