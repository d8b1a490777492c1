/**
 * Drives `minoc acp` as a real subprocess with the ACP SDK's client side,
 * from source or the bundle (`entry()`), and keeps every byte of its stdout
 * so tests can check that nothing but JSON-RPC was written there.
 *
 * @example
 * ```ts
 * await using acp = await startAcp({ cwd, args: ["--base-url", server.baseUrl] });
 * const { sessionId } = await acp.newSession();
 * const r = await acp.agent.request(methods.agent.session.prompt, { sessionId, prompt: [...] });
 * ```
 * @module
 */
import {
  client,
  type ClientCapabilities,
  type ClientContext,
  methods,
  ndJsonStream,
  PROTOCOL_VERSION,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
} from "@agentclientprotocol/sdk";
import { entry, minocEnv, RUN_FLAGS } from "./cli.ts";

/** Options of {@link startAcp}. */
export interface AcpOptions {
  cwd: string;
  home?: string;
  args?: string[];
  env?: Record<string, string>;
  /** Answers `session/request_permission`; default: the first allow_once option. */
  permission?(
    req: RequestPermissionRequest,
  ): Promise<RequestPermissionResponse> | RequestPermissionResponse;
  /** Capabilities announced in `initialize` (default: none). */
  capabilities?: ClientCapabilities;
  /** The editor's buffers for `fs/read_text_file`; writes land here too. */
  buffers?: Map<string, string>;
}

/** A running `minoc acp` with a connected client. */
export interface AcpHarness extends AsyncDisposable {
  agent: ClientContext;
  /** Every `session/update` received, in order. */
  updates: SessionNotification[];
  /** Every permission request received. */
  permissions: RequestPermissionRequest[];
  /** Every line minoc wrote to stdout. */
  lines: string[];
  /** Standard error so far. */
  stderr(): string;
  /** Writes one raw line to minoc's stdin. */
  raw(line: string): Promise<void>;
  /** `session/new` in the working directory. */
  newSession(): Promise<{ sessionId: string }>;
  /** Waits (up to `ms`, default 60 s) until `check` holds. */
  until(check: () => boolean, what: string, ms?: number): Promise<void>;
  /** Closes stdin and waits for the exit code. */
  close(): Promise<number>;
}

/** Starts `minoc acp <args>` in `o.cwd` and runs `initialize`. */
export async function startAcp(o: AcpOptions): Promise<AcpHarness> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...RUN_FLAGS, entry(), "acp", ...(o.args ?? [])],
    cwd: o.cwd,
    env: minocEnv(o),
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  const enc = new TextEncoder();
  const toAgent = new WritableStream<Uint8Array>({ write: (chunk) => writer.write(chunk) });
  const [forSdk, forLines] = child.stdout.tee();
  const lines: string[] = [];
  const lineDone = collectLines(forLines, lines);
  let err = "";
  const errDone = child.stderr.pipeThrough(new TextDecoderStream()).pipeTo(
    new WritableStream({ write: (t) => void (err += t) }),
  );
  const updates: SessionNotification[] = [];
  const permissions: RequestPermissionRequest[] = [];
  const app = client({ name: "minoc-test" })
    .onNotification(methods.client.session.update, ({ params }) => void updates.push(params))
    .onRequest(methods.client.session.requestPermission, async ({ params }) => {
      permissions.push(params);
      if (o.permission) return await o.permission(params);
      const once = params.options.find((p) => p.kind === "allow_once");
      return { outcome: { outcome: "selected", optionId: once?.optionId ?? "" } };
    })
    .onRequest(methods.client.fs.readTextFile, ({ params }) => {
      const text = o.buffers?.get(params.path);
      if (text === undefined) throw new Error(`no buffer for "${params.path}"`);
      return { content: text };
    })
    .onRequest(methods.client.fs.writeTextFile, ({ params }) => {
      o.buffers?.set(params.path, params.content);
      return {};
    });
  const conn = app.connect(ndJsonStream(toAgent, forSdk));
  let closed: Promise<number> | null = null;
  const harness: AcpHarness = {
    agent: conn.agent,
    updates,
    permissions,
    lines,
    stderr: () => err,
    raw: (line) => writer.write(enc.encode(line + "\n")),
    newSession: () => conn.agent.request(methods.agent.session.new, { cwd: o.cwd, mcpServers: [] }),
    until: (check, what, ms = 60_000) => until(check, what, ms, () => err),
    close() {
      closed ??= (async () => {
        await writer.close().catch(() => {});
        const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
        const status = await child.status;
        clearTimeout(timer);
        conn.close();
        await Promise.allSettled([lineDone, errDone]);
        return status.code;
      })();
      return closed;
    },
    async [Symbol.asyncDispose]() {
      await harness.close();
    },
  };
  await conn.agent.request(methods.agent.initialize, {
    protocolVersion: PROTOCOL_VERSION,
    clientCapabilities: o.capabilities ?? {},
    clientInfo: { name: "minoc-test", version: "1" },
  });
  return harness;
}

async function collectLines(stream: ReadableStream<Uint8Array>, into: string[]): Promise<void> {
  let rest = "";
  for await (const text of stream.pipeThrough(new TextDecoderStream())) {
    rest += text;
    let nl: number;
    while ((nl = rest.indexOf("\n")) >= 0) {
      into.push(rest.slice(0, nl));
      rest = rest.slice(nl + 1);
    }
  }
  if (rest !== "") into.push(rest);
}

async function until(
  check: () => boolean,
  what: string,
  ms: number,
  stderr: () => string,
): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}; stderr:\n${stderr()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The text of every `agent_message_chunk` so far, joined. */
export function messageText(updates: readonly SessionNotification[]): string {
  return updates.map((n) => n.update)
    .map((u) =>
      u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? u.content.text : ""
    )
    .join("");
}

/** The updates of one kind. */
export function updatesOf<K extends SessionNotification["update"]["sessionUpdate"]>(
  updates: readonly SessionNotification[],
  kind: K,
): Extract<SessionNotification["update"], { sessionUpdate: K }>[] {
  return updates.map((n) => n.update).filter((u) => u.sessionUpdate === kind) as Extract<
    SessionNotification["update"],
    { sessionUpdate: K }
  >[];
}
