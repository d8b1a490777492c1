/**
 * The open sessions of one ACP connection, looked up by id and closed
 * together when the editor closes standard input.
 *
 * @example
 * ```ts
 * const table = new SessionTable();
 * table.add(session);
 * await table.get(id).prompt(blocks); // unknown id: a resource-not-found error
 * ```
 * @module
 */
import { RequestError } from "@agentclientprotocol/sdk";
import type { AcpSession } from "./acp_session.ts";

/** Every open session of a connection. */
export class SessionTable {
  readonly #all = new Map<string, AcpSession>();

  /** The session, or a resource-not-found error naming it. */
  get(id: string): AcpSession {
    const s = this.#all.get(id);
    if (!s) throw RequestError.resourceNotFound(`session "${id}"`);
    return s;
  }

  /** Adds an opened session. */
  add(s: AcpSession): void {
    this.#all.set(s.id, s);
  }

  /** Closes and forgets session `id` if it is open (before it is loaded again). */
  async close(id: string): Promise<void> {
    const s = this.#all.get(id);
    this.#all.delete(id);
    await s?.close();
  }

  /** Closes every session (stdin ended). */
  async closeAll(): Promise<void> {
    await Promise.allSettled([...this.#all.values()].map((s) => s.close()));
    this.#all.clear();
  }
}
