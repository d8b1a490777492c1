/**
 * Reads an HTTP answer's body minoc asks for itself (a model list) up to a
 * limit: a server that sends without end, or far more than such an answer
 * holds, is cut off with a clear error instead of filling memory. Replies
 * to chat requests go through the `openai` client and `reply_cap.ts`.
 *
 * @example
 * ```ts
 * const text = await readBodyText(await fetch(url), MODELS_BODY_MAX_BYTES);
 * ```
 * @module
 */

/** The most a model list may take (OpenRouter's, the largest known, is ~1 MB). */
export const MODELS_BODY_MAX_BYTES = 16 << 20;

/** An answer longer than the limit read. */
export class BodyTooLargeError extends Error {
  constructor(maxBytes: number) {
    super(`the answer is larger than ${maxBytes / (1 << 20)} MB`);
    this.name = "BodyTooLargeError";
  }
}

/** The body as UTF-8 text; throws {@link BodyTooLargeError} (and stops reading) past `maxBytes`. */
export async function readBodyText(response: Response, maxBytes: number): Promise<string> {
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new BodyTooLargeError(maxBytes);
    }
    parts.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return new TextDecoder().decode(all);
}
