/**
 * An MCP tool result as text for the model: text blocks as they are,
 * images, audio and binary resources described (type, size), never dumped,
 * embedded text resources with their URI, structured content as JSON when
 * there is no text. The dispatcher cuts long output like command output.
 *
 * @module
 */
import type { ToolResult } from "../../interfaces/tool.ts";

/** A content block as servers send it (only what is read here). */
interface Block {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  description?: string;
  resource?: { uri?: string; mimeType?: string; text?: string; blob?: string };
}

/** What a call returned (the SDK's `CallToolResult`, loosely). */
export interface RawResult {
  content?: unknown;
  structuredContent?: unknown;
  isError?: boolean;
  toolResult?: unknown;
}

/** Turns a call's result into minoc's result for `tool` (its minoc name). */
export function toToolResult(tool: string, raw: RawResult): ToolResult {
  const blocks = Array.isArray(raw.content) ? raw.content as Block[] : [];
  const parts = blocks.map(describeBlock);
  if (parts.length === 0 && raw.structuredContent !== undefined) {
    parts.push(JSON.stringify(raw.structuredContent, null, 2));
  }
  if (parts.length === 0 && raw.toolResult !== undefined) {
    parts.push(JSON.stringify(raw.toolResult, null, 2));
  }
  const text = parts.join("\n") || "(no output)";
  const first = text.split("\n")[0].slice(0, 120);
  if (raw.isError) {
    return {
      ok: false,
      code: "tool_error",
      output: `${tool} reported an error:\n${text}`,
      display: `error: ${first}`,
    };
  }
  return { ok: true, output: text, display: first };
}

function describeBlock(b: Block): string {
  switch (b.type) {
    case "text":
      return b.text ?? "";
    case "image":
    case "audio":
      return `[${b.type} ${b.mimeType ?? "of unknown type"}, ${size(b.data)}: not shown]`;
    case "resource_link":
      return `[resource link ${b.uri ?? "?"}${b.name ? ` "${b.name}"` : ""}${
        b.mimeType ? ` (${b.mimeType})` : ""
      }${b.description ? `: ${b.description}` : ""}]`;
    case "resource": {
      const r = b.resource ?? {};
      if (typeof r.text === "string") {
        return `[resource ${r.uri ?? "?"}${r.mimeType ? ` (${r.mimeType})` : ""}]\n${r.text}`;
      }
      return `[resource ${r.uri ?? "?"} ${r.mimeType ?? "binary"}, ${size(r.blob)}: not shown]`;
    }
    default:
      return `[${String(b.type)} content: not shown]`;
  }
}

/** The decoded size of base64 data, e.g. `2.3 KB`. */
function size(base64: string | undefined): string {
  if (!base64) return "empty";
  const bytes = Math.floor(base64.replace(/=+$/, "").length * 3 / 4);
  return bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1)} KB`;
}
