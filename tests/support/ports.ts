/**
 * Ports for tests: the port of a scripted server's base URL, and a port on
 * which nothing listens.
 *
 * @module
 */

/** The port of `baseUrl` (`http://127.0.0.1:PORT/v1`). */
export function portOf(baseUrl: string): number {
  return Number(new URL(baseUrl).port);
}

/** A loopback port that was free a moment ago, so nothing listens on it. */
export function closedPort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}
