/**
 * A small MCP server over stdio, built with the official SDK, for tests:
 * `echo` and `add` (read-only), `note` (writes a line to `$MCP_TEST_FILE`),
 * `wait` (runs until cancelled, then writes `cancelled` there), `big`
 * (a long text), `picture` (an image), `die` (the process exits).
 *
 * Arguments: `--fail` exits at once with a message on stderr; `--hang`
 * never answers; `--chatty` serves while writing 1 MB to stderr every 10 ms;
 * `--env` writes its environment as JSON to `$MCP_TEST_FILE` before serving.
 *
 * @module
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import * as z from "zod";

if (Deno.args.includes("--fail")) {
  console.error("test server: cannot start (asked to fail)");
  Deno.exit(3);
}
if (Deno.args.includes("--hang")) {
  console.error("test server: hanging");
  setInterval(() => {}, 60_000);
  await new Promise(() => {});
}

if (Deno.args.includes("--chatty")) {
  const line = new TextEncoder().encode("chatter ".repeat(128 * 1024 - 1) + "chatter\n");
  setInterval(() => {
    try {
      Deno.stderr.writeSync(line);
    } catch {
      Deno.exit(0); // minoc went away
    }
  }, 10);
}

const file = Deno.env.get("MCP_TEST_FILE");
if (Deno.args.includes("--env") && file) {
  await Deno.writeTextFile(file, JSON.stringify(Deno.env.toObject()));
}
const text = (t: string) => ({ content: [{ type: "text" as const, text: t }] });
const server = new McpServer({ name: "minoc-test", version: "1.0.0" });
server.registerTool("echo", {
  description: "Says the text back",
  inputSchema: { text: z.string().describe("What to say") },
  annotations: { readOnlyHint: true },
}, ({ text: t }: { text: string }) => text(`echo: ${t}`));
server.registerTool(
  "add",
  {
    description: "Adds two numbers",
    inputSchema: { a: z.number(), b: z.number(), labels: z.array(z.string()).optional() },
    annotations: { readOnlyHint: true },
  },
  ({ a, b, labels }: { a: number; b: number; labels?: string[] }) =>
    text(`sum: ${a + b}${labels ? ` (${labels.join(", ")})` : ""}`),
);
server.registerTool("note", {
  description: "Writes a note line to the test file",
  inputSchema: { line: z.string() },
}, async ({ line }: { line: string }) => {
  if (file) await Deno.writeTextFile(file, `${line}\n`, { append: true });
  return text(`noted: ${line}`);
});
server.registerTool(
  "wait",
  { description: "Waits until it is cancelled" },
  (extra: { signal: AbortSignal }) =>
    new Promise((resolve) => {
      extra.signal.addEventListener("abort", async () => {
        if (file) await Deno.writeTextFile(file, "cancelled\n", { append: true });
        resolve(text("cancelled"));
      });
    }),
);
server.registerTool(
  "big",
  { description: "A long text" },
  () => text(Array.from({ length: 20_000 }, (_, i) => `line ${i} of the long output`).join("\n")),
);
server.registerTool("picture", { description: "An image" }, () => ({
  content: [{ type: "image" as const, data: btoa("x".repeat(3000)), mimeType: "image/png" }],
}));
server.registerTool("die", { description: "Ends the server process" }, () => {
  console.error("test server: dying on purpose");
  Deno.exit(7);
});
console.error("test server: ready");
await server.connect(new StdioServerTransport());
