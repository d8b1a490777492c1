/**
 * The environment a stdio MCP server starts with: not minoc's whole
 * environment (a server is another party's program; minoc's keys and the
 * user's other secrets stay out), but what a program needs to run on this
 * machine, then the variables the server's configuration names.
 *
 * - what the operating system needs: on Windows the variables without which
 *   `node`, `npx.cmd` or Python fail (`SYSTEMROOT`, `APPDATA`, `PATHEXT`, …);
 * - the user's locale, temporary folder and Deno cache;
 * - the machine's network settings: certificate authorities (a company's
 *   proxy signs with its own) and proxies, a proxy only when its address
 *   holds no user name or password (those are credentials: name them in the
 *   server's `env` to pass them).
 *
 * A value that starts with `()` (a shell function exported by bash) is never
 * inherited, and nor is a variable that holds minoc's own API key.
 *
 * @module
 */
import { withoutCredentials } from "../tools/child_env.ts";

const POSIX = ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "TMPDIR"];
const WINDOWS = [
  ...["APPDATA", "HOMEDRIVE", "HOMEPATH", "LOCALAPPDATA", "PATH", "PATHEXT", "COMSPEC"],
  ...["PROCESSOR_ARCHITECTURE", "SYSTEMDRIVE", "SYSTEMROOT", "WINDIR", "TEMP", "TMP"],
  ...["USERNAME", "USERPROFILE", "PROGRAMFILES", "PROGRAMDATA"],
];
const EVERYWHERE = [
  ...["LANG", "LC_ALL", "LC_CTYPE", "DENO_DIR"],
  ...["SSL_CERT_FILE", "SSL_CERT_DIR", "NODE_EXTRA_CA_CERTS", "REQUESTS_CA_BUNDLE"],
  ...["CURL_CA_BUNDLE", "DENO_CERT", "DENO_TLS_CA_STORE"],
];
const PROXIES = ["HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY"].flatMap((n) => [
  n,
  n.toLowerCase(),
]);

/** Where {@link serverEnv} reads minoc's environment and which list applies. */
export interface EnvSource {
  /** Deno's `build.os` (default: this machine's). */
  os?: string;
  /** A variable's value (default `Deno.env.get`). */
  get?: (name: string) => string | undefined;
}

/** The inherited variables (see the module's notes), then `configured` over them. */
export function serverEnv(
  configured: Record<string, string>,
  source: EnvSource = {},
): Record<string, string> {
  const get = source.get ?? ((n: string) => Deno.env.get(n));
  const windows = (source.os ?? Deno.build.os) === "windows";
  const base: Record<string, string> = {};
  for (const name of [...(windows ? WINDOWS : POSIX), ...EVERYWHERE, ...PROXIES]) {
    const value = get(name);
    if (value === undefined || value.startsWith("()")) continue;
    if (PROXIES.includes(name) && name.toUpperCase() !== "NO_PROXY" && hasUserInfo(value)) continue;
    base[name] = value;
  }
  return { ...withoutCredentials(base), ...configured };
}

/** Whether a proxy address names a user (`http://user:pass@host`). */
function hasUserInfo(address: string): boolean {
  const scheme = address.indexOf("://");
  const rest = scheme < 0 ? address : address.slice(scheme + 3);
  const end = rest.search(/[/?#]/);
  return (end < 0 ? rest : rest.slice(0, end)).includes("@");
}
