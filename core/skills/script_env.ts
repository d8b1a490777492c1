/**
 * The environment a skill script runs with: a small one, not minoc's. It
 * keeps where things are (PATH, HOME, caches), the locale, how to reach the
 * network (proxies and CA bundles), and names the run's folders
 * (`MINOC_SKILL_DIR`, `MINOC_PROJECT_DIR`, `MINOC_BUILD_DIR`). API keys and
 * other secrets of minoc's environment never reach a script.
 *
 * @example
 * ```ts
 * new Deno.Command("python3", { env: scriptEnv(dirs), clearEnv: true });
 * ```
 * @module
 */
import type { SandboxDirs } from "./interpreters.ts";
import { withoutCredentials } from "../tools/child_env.ts";

/** Passed through: where things are, the locale, caches, and how to reach the network (proxies, CAs). */
const PASSED = [
  "PATH",
  "HOME",
  "LANG",
  "LC_ALL",
  "DENO_DIR",
  "XDG_CACHE_HOME",
  "SYSTEMROOT",
  "USERPROFILE",
  "LOCALAPPDATA",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "DENO_CERT",
  "DENO_TLS_CA_STORE",
  "NODE_EXTRA_CA_CERTS",
  "REQUESTS_CA_BUNDLE",
];

/** A small environment: {@link PASSED}, and the folders of the run. */
export function scriptEnv(dirs: SandboxDirs): Record<string, string> {
  const env: Record<string, string> = {
    MINOC_SKILL_DIR: dirs.skill,
    MINOC_PROJECT_DIR: dirs.project,
    MINOC_BUILD_DIR: dirs.build,
    PYTHONDONTWRITEBYTECODE: "1",
    NO_COLOR: "1",
  };
  for (const k of PASSED) {
    const v = Deno.env.get(k);
    if (v !== undefined) env[k] = v;
  }
  return withoutCredentials(env);
}
