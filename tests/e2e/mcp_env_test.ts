/**
 * The environment a stdio MCP server started by minoc gets: the machine's
 * certificate and proxy settings, none of the user's secrets (a real server
 * writes what it got).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runMinoc } from "../support/cli.ts";
import { testServer, writeMcpConfig } from "../support/mcp.ts";
import { withTempDir } from "../support/tool_context.ts";
import { trustFolder } from "../../core/config/trust.ts";

Deno.test("a stdio MCP server started by minoc gets the machine's certificate and proxy settings, not its secrets", async () => {
  await withTempDir(async (dir) => {
    const file = join(dir, "env.json");
    const home = join(dir, ".home");
    await writeMcpConfig(join(home, ".minoc"), {
      t: { ...testServer("--env"), env: { MCP_TEST_FILE: file } },
    });
    const r = await runMinoc(["mcp", "test", "t"], {
      cwd: dir,
      env: {
        SSL_CERT_FILE: "/etc/ssl/company.pem",
        HTTPS_PROXY: "http://proxy.invalid:3128",
        HTTP_PROXY: "http://alice:s3cret@proxy.invalid:3128",
        NO_PROXY: "localhost,127.0.0.1",
        MY_SERVICE_TOKEN: "tok-not-for-servers",
        OPENAI_API_KEY: "sk-not-for-servers-123456",
      },
    });
    assert.equal(r.code, 0, r.stderr);
    const got = JSON.parse(await Deno.readTextFile(file));
    assert.equal(got.SSL_CERT_FILE, "/etc/ssl/company.pem");
    assert.equal(got.HTTPS_PROXY, "http://proxy.invalid:3128");
    assert.equal(got.NO_PROXY, "localhost,127.0.0.1");
    assert.equal(got.HTTP_PROXY, undefined);
    assert.equal(got.MY_SERVICE_TOKEN, undefined);
    assert.equal(got.OPENAI_API_KEY, undefined);
    assert.equal(got.MCP_TEST_FILE, file);
  });
});

Deno.test("minoc mcp test refuses a trusted project's server that names the configured key variable", async () => {
  await withTempDir(async (dir) => {
    const minocHome = join(dir, ".home", ".minoc");
    await Deno.mkdir(join(minocHome, "config"), { recursive: true });
    await Deno.writeTextFile(
      join(minocHome, "config", "settings.json"),
      JSON.stringify({ apiKeyEnv: "MY_LLM_KEY" }),
    );
    await trustFolder(minocHome, await Deno.realPath(dir));
    const file = join(dir, "env.json");
    await writeMcpConfig(join(dir, ".minoc"), {
      t: { ...testServer("--env"), env: { MCP_TEST_FILE: file, K: "${MY_LLM_KEY}" } },
    });
    const r = await runMinoc(["mcp", "test", "t"], {
      cwd: dir,
      env: { MY_LLM_KEY: "sk-llm-key-not-for-servers-42" },
    });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /"MY_LLM_KEY" holds minoc's API key/);
    assert.equal(await Deno.stat(file).then(() => true, () => false), false, "never started");
  });
});
