/**
 * Shared pieces of the `minoc acp` end-to-end tests: a project folder, the
 * model's XML calls, the requests the scripted server saw, and the check
 * that stdout held only JSON-RPC.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { toolCall } from "../support/server.ts";

/** One XML tool call as the model writes it. */
export const call = toolCall;

/** A temp project with `notes.md` ("line one"); its `.home` holds the `.minoc` home. */
export async function project(): Promise<string> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_acp_" }));
  await Deno.writeTextFile(join(dir, "notes.md"), "line one\n");
  return dir;
}

interface Msg {
  role: string;
  content: string;
}

/** The messages of each chat request the scripted server received. */
export function chatRequests(
  server: { requests: { path: string; body: { messages: Msg[] } }[] },
): Msg[][] {
  return server.requests.filter((r) => r.path.endsWith("/chat/completions"))
    .map((r) => r.body.messages.map((m) => ({ role: m.role, content: m.content })));
}

/** Every stdout line is one JSON-RPC 2.0 message. */
export function onlyProtocol(lines: readonly string[]): void {
  assert.ok(lines.length > 0, "minoc wrote no protocol at all");
  for (const line of lines) {
    let msg: { jsonrpc?: string };
    try {
      msg = JSON.parse(line);
    } catch {
      throw new assert.AssertionError({
        message: `stdout line is not JSON: ${line.slice(0, 200)}`,
      });
    }
    assert.equal(msg.jsonrpc, "2.0", `stdout line is not JSON-RPC: ${line.slice(0, 200)}`);
  }
}
