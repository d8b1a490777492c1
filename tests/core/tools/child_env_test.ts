import assert from "node:assert/strict";
import {
  hideCredentials,
  protectCredentials,
  REDACTED,
  withoutCredentials,
} from "../../../core/tools/child_env.ts";
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

Deno.test("`hideCredentials()` hides a key as commands print it: plain, reversed, hex, base64 at any offset", () => {
  const key = "hk-live-7fQ2mZ9xR4tW8vB1nC6d";
  protectCredentials({ values: [key] });
  const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
  const enc = new TextEncoder();
  const hex = (s: string) =>
    [...enc.encode(s)].map((b) => b.toString(16).padStart(2, "0")).join("");
  // What `cat /proc/$PPID/environ`, `base64`, `xxd -p`, `rev` and a script would print.
  const environ = `HOME=/root\0OPENAI_API_KEY=${key}\0PATH=/usr/bin\0`;
  const printed: string[] = [
    environ.replaceAll("\0", "\n"),
    [...environ].reverse().join(""),
    hex(environ),
    hex(environ).toUpperCase(),
  ];
  for (let prefix = 0; prefix < 6; prefix++) {
    const stream = "x".repeat(prefix) + environ;
    printed.push(b64(enc.encode(stream)));
    printed.push(b64(enc.encode(stream)).replaceAll("+", "-").replaceAll("/", "_"));
  }
  for (const text of printed) {
    const out = hideCredentials(text);
    assert.ok(out.includes(REDACTED), `hidden in ${text.slice(0, 40)}`);
    // What is left does not give the key back, decoded however it was encoded.
    const decoded = [out, [...out].reverse().join("")];
    try {
      decoded.push(atob(out.replaceAll(REDACTED, "").replaceAll("-", "+").replaceAll("_", "/")));
    } catch { /* not base64 once cut */ }
    for (const d of decoded) {
      assert.ok(!d.includes(key.slice(0, 12)), `key left in ${d.slice(0, 60)}`);
    }
  }
  const plain = "no key here: hk-live-7fQ2 is too short to be it";
  assert.equal(hideCredentials(plain), plain);
});
