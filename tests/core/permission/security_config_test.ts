import assert from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_SECURITY_CONFIG, loadSecurityConfig } from "../../../core/permission/security.ts";

async function withFile(
  content: string | null,
  fn: (path: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "minoc_security_" });
  const path = join(dir, "security.json");
  try {
    if (content !== null) await Deno.writeTextFile(path, content);
    await fn(path);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function errorFor(value: unknown): Promise<string> {
  let message = "";
  await withFile(JSON.stringify(value), async (path) => {
    const r = await loadSecurityConfig(path);
    assert.equal(r.ok, false, "the file should be rejected");
    if (!r.ok) {
      assert.ok(r.error.includes(path), `the error names the file: ${r.error}`);
      message = r.error;
    }
  });
  return message;
}

Deno.test("loadSecurityConfig() gives the defaults when the file does not exist and creates nothing", async () => {
  await withFile(null, async (path) => {
    const r = await loadSecurityConfig(path);
    assert.deepEqual(r, { ok: true, config: DEFAULT_SECURITY_CONFIG });
    await assert.rejects(() => Deno.stat(path), Deno.errors.NotFound);
  });
});

Deno.test("loadSecurityConfig() reads a full valid file and fills missing lists", async () => {
  const text = JSON.stringify({
    block: [{
      id: "no-tf",
      pattern: "terraform destroy *",
      reason: "Destroys infra",
      shells: ["bash"],
    }],
    disabled: ["kill"],
  });
  await withFile(text, async (path) => {
    const r = await loadSecurityConfig(path);
    assert.ok(r.ok);
    if (!r.ok) return;
    assert.equal(r.config.block[0].id, "no-tf");
    assert.deepEqual(r.config.warn, []);
    assert.deepEqual(r.config.exceptions, []);
    assert.deepEqual(r.config.disabled, ["kill"]);
  });
});

Deno.test("loadSecurityConfig() reports invalid JSON with the file name and leaves the file untouched", async () => {
  const text = '{ "block": [ ';
  await withFile(text, async (path) => {
    const before = await Deno.stat(path);
    const r = await loadSecurityConfig(path);
    assert.equal(r.ok, false);
    if (!r.ok) assert.match(r.error, /invalid JSON/);
    assert.equal(await Deno.readTextFile(path), text);
    assert.equal((await Deno.stat(path)).mtime?.getTime(), before.mtime?.getTime());
  });
});

Deno.test("loadSecurityConfig() names the field and what it expects when a type is wrong", async () => {
  assert.match(await errorFor({ block: {} }), /field "block" must be an array/);
  assert.match(
    await errorFor({ block: [{ id: "x", pattern: 3, reason: "r" }] }),
    /field "block\[0\]\.pattern" must be a string/,
  );
  assert.match(
    await errorFor({ warn: [{ id: "x", pattern: "y" }] }),
    /field "warn\[0\]\.reason" is required/,
  );
  assert.match(await errorFor([]), /the top level must be an object/);
});

Deno.test("loadSecurityConfig() rejects unknown fields, bad ids and bad risks", async () => {
  assert.match(await errorFor({ blocks: [] }), /unknown field "blocks"/);
  assert.match(
    await errorFor({ block: [{ id: "Bad Id", pattern: "x", reason: "r" }] }),
    /field "block\[0\]\.id" must be lower-case/,
  );
  assert.match(
    await errorFor({ warn: [{ id: "x", pattern: "y", reason: "r", risk: "low" }] }),
    /field "warn\[0\]\.risk" must be one of "high", "medium"/,
  );
  assert.match(await errorFor({ exceptions: [""] }), /field "exceptions\[0\]" must not be empty/);
});

Deno.test("loadSecurityConfig() rejects custom ids that clash with built-in or other custom rules", async () => {
  assert.match(
    await errorFor({ block: [{ id: "kill", pattern: "x", reason: "r" }] }),
    /"block\[0\]\.id".*built-in.*"kill"/,
  );
  const dup = {
    block: [{ id: "a", pattern: "x", reason: "r" }],
    warn: [{ id: "a", pattern: "y", reason: "r" }],
  };
  assert.match(await errorFor(dup), /field "warn\[0\]\.id" must be unique/);
});

Deno.test("loadSecurityConfig() rejects disabling a rule that does not exist", async () => {
  assert.match(
    await errorFor({ disabled: ["kil"] }),
    /field "disabled\[0\]" must be a known rule id .*"kil"/,
  );
});

Deno.test("loadSecurityConfig() rejects a regular expression that does not compile", async () => {
  assert.match(
    await errorFor({ warn: [{ id: "x", pattern: "re:([", reason: "r" }] }),
    /field "warn\[0\]\.pattern" must be a valid pattern/,
  );
});
