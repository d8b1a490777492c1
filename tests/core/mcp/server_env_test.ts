/**
 * What a stdio MCP server inherits (`core/mcp/server_env.ts`): the lists per
 * OS with a stand-in environment (a real server: tests/e2e/mcp_env_test.ts).
 */
import assert from "node:assert/strict";
import { serverEnv } from "../../../core/mcp/server_env.ts";
import { protectCredentials } from "../../../core/tools/child_env.ts";

const MACHINE: Record<string, string> = {
  PATH: "/usr/bin",
  HOME: "/home/u",
  LANG: "C.UTF-8",
  SYSTEMROOT: "C:\\Windows",
  APPDATA: "C:\\Users\\u\\AppData\\Roaming",
  PATHEXT: ".COM;.EXE;.BAT;.CMD",
  SSL_CERT_FILE: "/etc/ssl/company.pem",
  NODE_EXTRA_CA_CERTS: "/etc/ssl/company.pem",
  HTTPS_PROXY: "http://proxy.example:3128",
  http_proxy: "http://alice:s3cret@proxy.example:3128",
  ALL_PROXY: "socks5://bob@proxy.example:1080",
  NO_PROXY: "localhost,user@example.org",
  SHELL: "() { :; }; echo pwned",
  AWS_SECRET_ACCESS_KEY: "not-for-servers",
  GITHUB_TOKEN: "ghp_notforservers",
};
const get = (n: string) => MACHINE[n];

Deno.test("serverEnv on Linux: the OS's, locale and network variables, no secrets, no proxy credentials", () => {
  const env = serverEnv({ EXTRA: "1" }, { os: "linux", get });
  assert.deepEqual(env, {
    PATH: "/usr/bin",
    HOME: "/home/u",
    LANG: "C.UTF-8",
    SSL_CERT_FILE: "/etc/ssl/company.pem",
    NODE_EXTRA_CA_CERTS: "/etc/ssl/company.pem",
    HTTPS_PROXY: "http://proxy.example:3128",
    NO_PROXY: "localhost,user@example.org",
    EXTRA: "1",
  });
});

Deno.test("serverEnv on Windows adds what node and npx.cmd need there", () => {
  const env = serverEnv({}, { os: "windows", get });
  assert.equal(env.SYSTEMROOT, "C:\\Windows");
  assert.equal(env.APPDATA, "C:\\Users\\u\\AppData\\Roaming");
  assert.equal(env.PATHEXT, ".COM;.EXE;.BAT;.CMD");
  assert.equal(env.HOME, undefined);
  assert.equal(env.GITHUB_TOKEN, undefined);
});

Deno.test("serverEnv: the configuration's own variables win, a proxy with credentials only when named", () => {
  const env = serverEnv(
    { HTTP_PROXY: "http://alice:s3cret@proxy.example:3128", PATH: "/opt/bin" },
    {
      os: "linux",
      get,
    },
  );
  assert.equal(env.HTTP_PROXY, "http://alice:s3cret@proxy.example:3128");
  assert.equal(env.PATH, "/opt/bin");
  assert.equal(env.http_proxy, undefined);
});

Deno.test("serverEnv never passes on a variable holding minoc's API key", () => {
  const key = "sk-server-env-test-0123456789";
  protectCredentials({ values: [key] });
  const env = serverEnv({}, { os: "linux", get: (n) => n === "SSL_CERT_DIR" ? key : get(n) });
  assert.equal(env.SSL_CERT_DIR, undefined);
  assert.equal(env.PATH, "/usr/bin");
});
