import assert from "node:assert/strict";
import { coerceArgs } from "../../../core/tools/dispatch.ts";
import { getEnv, looksSecret, maskValue } from "../../../core/tools/get_env.ts";
import { setEnv } from "../../../core/tools/set_env.ts";
import { unsetEnv } from "../../../core/tools/unset_env.ts";
import { toolContext } from "../../fixtures/proc/context.ts";

function withVar(name: string, value: string, fn: () => Promise<void>): Promise<void> {
  Deno.env.set(name, value);
  return fn().finally(() => Deno.env.delete(name));
}

Deno.test("`looksSecret()` matches secret-looking names in any case", () => {
  for (const name of ["OPENAI_API_KEY", "github_token", "DbPassword", "MY_PASSWD", "AUTH_HEADER"]) {
    assert.equal(looksSecret(name), true, name);
  }
  for (const name of ["HOME", "PATH", "NODE_ENV"]) assert.equal(looksSecret(name), false, name);
});

Deno.test("`maskValue()` keeps the last 4 characters only of long values", () => {
  assert.equal(maskValue("sk-abcdefghijklmnop1234"), "****1234");
  assert.equal(maskValue("short-secret"), "****");
});

Deno.test("`get_env` masks the value when the name looks secret", async () => {
  await withVar("MINOC_TEST_API_KEY", "sk-0123456789abcdefWXYZ", async () => {
    const r = await getEnv.execute({ name: "MINOC_TEST_API_KEY" }, toolContext({ cwd: "/" }));
    assert.equal(r.ok, true);
    assert.match(r.output, /^MINOC_TEST_API_KEY=\*\*\*\*WXYZ\n/);
    assert.doesNotMatch(r.output + r.display, /0123456789/);
    assert.equal(r.display, "MINOC_TEST_API_KEY=****WXYZ");
  });
});

Deno.test("`get_env` shows the value when the name is ordinary", async () => {
  await withVar("MINOC_TEST_PLAIN", "hello", async () => {
    const r = await getEnv.execute({ name: "MINOC_TEST_PLAIN" }, toolContext({ cwd: "/" }));
    assert.equal(r.output, "MINOC_TEST_PLAIN=hello");
  });
});

Deno.test("`get_env` reads session overrides before the process environment", async () => {
  await withVar("MINOC_TEST_PLAIN", "from process", async () => {
    const env = new Map<string, string | null>([["MINOC_TEST_PLAIN", "from session"]]);
    const set = await getEnv.execute({ name: "MINOC_TEST_PLAIN" }, toolContext({ cwd: "/", env }));
    assert.equal(set.output, "MINOC_TEST_PLAIN=from session (set by set_env in this session)");
    env.set("MINOC_TEST_PLAIN", null);
    const unset = await getEnv.execute(
      { name: "MINOC_TEST_PLAIN" },
      toolContext({ cwd: "/", env }),
    );
    assert.equal(
      unset.output,
      "MINOC_TEST_PLAIN is not set (removed by unset_env in this session)",
    );
  });
});

Deno.test("`get_env` says not set when the variable is missing", async () => {
  const r = await getEnv.execute({ name: "MINOC_TEST_NOPE" }, toolContext({ cwd: "/" }));
  assert.equal(r.ok, true);
  assert.equal(r.output, "MINOC_TEST_NOPE is not set");
});

Deno.test("`set_env` and `unset_env` change the session only, never Deno.env", async () => {
  await withVar("MINOC_TEST_KEEP", "original", async () => {
    const ctx = toolContext({ cwd: "/" });
    const set = await setEnv.execute({ name: "MINOC_TEST_KEEP", value: "changed" }, ctx);
    assert.equal(set.ok, true);
    assert.equal(ctx.env.get("MINOC_TEST_KEEP"), "changed");
    assert.equal(Deno.env.get("MINOC_TEST_KEEP"), "original");
    const unset = await unsetEnv.execute({ name: "MINOC_TEST_KEEP" }, ctx);
    assert.equal(unset.ok, true);
    assert.equal(ctx.env.get("MINOC_TEST_KEEP"), null);
    assert.equal(Deno.env.get("MINOC_TEST_KEEP"), "original");
    const again = await unsetEnv.execute({ name: "MINOC_TEST_KEEP" }, ctx);
    assert.match(again.output, /it was not set/);
  });
});

Deno.test("`set_env` masks the value for the human when the name looks secret", async () => {
  const ctx = toolContext({ cwd: "/" });
  const r = await setEnv.execute({ name: "SERVICE_TOKEN", value: "tok_abcdefghijkl9876" }, ctx);
  assert.equal(r.display, "SERVICE_TOKEN=****9876");
});

Deno.test("the environment tools reject names that are not valid variable names", () => {
  for (const tool of [getEnv, setEnv, unsetEnv]) {
    for (const name of ["1ABC", "A-B", "A B", ""]) {
      const r = coerceArgs(tool, { tool: tool.name, params: { name, value: "x" } });
      assert.equal(r.ok, false, `${tool.name} accepted "${name}"`);
    }
    const good = coerceArgs(tool, { tool: tool.name, params: { name: "_Ok_1", value: "" } });
    assert.equal(good.ok, true, tool.name);
  }
});
