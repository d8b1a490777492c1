/**
 * The API key goes only to the host it was configured for: a `fetch` that
 * refuses a request to another origin than the base URL's, and follows
 * redirects itself, only within that origin (a model server that redirects
 * elsewhere would otherwise receive the conversation, and some clients
 * forward the Authorization header).
 *
 * @example
 * ```ts
 * const f = pinnedFetch("https://api.openai.com/v1");
 * await f("https://evil.example/x"); // throws: not the configured host
 * ```
 * @module
 */

const MAX_REDIRECTS = 5;

/** A `fetch` pinned to the origin of `baseURL`, built on `inner`. */
export function pinnedFetch(baseURL: string, inner: typeof fetch = fetch): typeof fetch {
  const origin = new URL(baseURL).origin;
  const pinned = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    let url = new URL(input instanceof Request ? input.url : String(input));
    let options: RequestInit = { ...init, redirect: "manual" };
    let request: RequestInfo | URL = input instanceof Request ? input : url;
    for (let hop = 0;; hop++) {
      if (url.origin !== origin) {
        throw new TypeError(
          `Refusing to send the request to "${url.origin}": the API key and the conversation ` +
            `only go to the configured server "${origin}"`,
        );
      }
      const response = await inner(request, options);
      const location = response.headers.get("location");
      if (response.status < 300 || response.status > 399 || location === null) return response;
      if (hop >= MAX_REDIRECTS) return response;
      await response.body?.cancel();
      url = new URL(location, url);
      request = url;
      if (
        response.status === 303 ||
        ((response.status === 301 || response.status === 302) && options.method === "POST")
      ) {
        options = { ...options, method: "GET", body: undefined };
      }
    }
  };
  return pinned as typeof fetch;
}
