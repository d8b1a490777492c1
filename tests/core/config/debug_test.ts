import assert from "node:assert/strict";
import { join } from "node:path";
import { loadDebugConfig, parseDebugConfig } from "../../../core/config/debug.ts";

Deno.test("`loadDebugConfig()` is off without files; the project's file wins field by field", async () => {
  const root = await Deno.makeTempDir({ prefix: "minoc_dbg_cfg_" });
  try {
    const home = join(root, "home");
    const work = join(root, "work");
    assert.deepEqual(await loadDebugConfig(home, work), {
      ok: true,
      config: { enabled: false, terminal: true },
    });
    await Deno.mkdir(join(home, "config"), { recursive: true });
    await Deno.mkdir(join(work, ".minoc", "config"), { recursive: true });
    await Deno.writeTextFile(
      join(home, "config", "debug.json"),
      '{"enabled": true, "terminal": true}',
    );
    await Deno.writeTextFile(join(work, ".minoc", "config", "debug.json"), '{"terminal": false}');
    assert.deepEqual(await loadDebugConfig(home, work), {
      ok: true,
      config: { enabled: true, terminal: false },
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("`parseDebugConfig()` names the file and the field of a problem", () => {
  assert.deepEqual(parseDebugConfig('{"enabled": "yes"}', "/h/debug.json"), {
    ok: false,
    message: 'Cannot read config "/h/debug.json": field "enabled" must be true or false',
  });
  assert.deepEqual(parseDebugConfig('{"enable": true}', "/h/debug.json"), {
    ok: false,
    message: 'Cannot read config "/h/debug.json": unknown field "enable"',
  });
  const bad = parseDebugConfig("{", "/h/debug.json");
  assert.equal(bad.ok, false);
  assert.match(
    (bad as { message: string }).message,
    /^Cannot read config "\/h\/debug\.json": invalid JSON/,
  );
});
