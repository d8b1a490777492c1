/**
 * The user's request from a `session/prompt`'s content blocks: text as is,
 * links to files as their path or URI, embedded files with their text. Image
 * and audio blocks are refused: minoc announces neither.
 *
 * @example
 * ```ts
 * promptText([{ type: "text", text: "Fix" }, { type: "resource_link", uri: "file:///p/a.ts", name: "a.ts" }]);
 * // "Fix\n@/p/a.ts"
 * ```
 * @module
 */
import { fileURLToPath } from "node:url";
import { type ContentBlock, RequestError } from "@agentclientprotocol/sdk";

/** Joins the blocks into one request; throws invalid params for unsupported or empty prompts. */
export function promptText(blocks: readonly ContentBlock[]): string {
  const parts = blocks.map((b, i) => {
    if (b.type === "text") return b.text;
    if (b.type === "resource_link") return `@${where(b.uri)}`;
    if (b.type === "resource") {
      const r = b.resource;
      if ("text" in r && typeof r.text === "string") {
        return `Contents of ${where(r.uri)}:\n\`\`\`\n${r.text}\n\`\`\``;
      }
      return `@${where(r.uri)} (binary, not included)`;
    }
    throw RequestError.invalidParams(
      { field: `prompt[${i}]` },
      `prompt[${i}]: content type "${b.type}" is not supported: send text, resource_link or resource`,
    );
  });
  const text = parts.join("\n").trim();
  if (text === "") {
    throw RequestError.invalidParams({ field: "prompt" }, "prompt: the request is empty");
  }
  return text;
}

function where(uri: string): string {
  if (!uri.startsWith("file://")) return uri;
  try {
    return fileURLToPath(uri);
  } catch {
    return uri;
  }
}
