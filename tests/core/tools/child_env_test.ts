import assert from "node:assert/strict";
import { protectCredentials, withoutCredentials } from "../../../core/tools/child_env.ts";
import { commandEnv } from "../../../core/tools/shell.ts";
import { scriptEnv } from "../../../core/skills/script_env.ts";

Deno.test("`withoutCredentials()` drops the key's variables by name and any variable holding the key", () => {
  protectCredentials({ names: ["MY_LLM_KEY"], values: ["k-0123456789abcdef"] });
  const out = withoutCredentials({
    PATH: "/bin",
    OPENAI_API_KEY: "x",
    MY_LLM_KEY: "k-0123456789abcdef",
    COPY: "prefix k-0123456789abcdef suffix",
    OTHER: "fine",
  });
  assert.deepEqual(out, { PATH: "/bin", OTHER: "fine" });
});

Deno.test("`commandEnv()` and `scriptEnv()` never pass minoc's key to a child", () => {
  protectCredentials({ names: ["MY_LLM_KEY"], values: ["k-0123456789abcdef"] });
  Deno.env.set("MY_LLM_KEY", "k-0123456789abcdef");
  Deno.env.set("PATH", `${Deno.env.get("PATH")}`);
  try {
    const env = commandEnv(new Map([["SMUGGLED", "k-0123456789abcdef"]]));
    assert.equal(env.MY_LLM_KEY, undefined);
    assert.equal(env.SMUGGLED, undefined, "set_env cannot copy the key into a variable");
    assert.equal(env.OPENAI_API_KEY, undefined);
    const script = scriptEnv({ skill: "/s", project: "/p", build: "/b" });
    assert.ok(!Object.values(script).some((v) => v.includes("k-0123456789abcdef")));
  } finally {
    Deno.env.delete("MY_LLM_KEY");
  }
});
