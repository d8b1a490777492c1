import assert from "node:assert/strict";
import { colours, palette } from "../../../cli/ui/colors.ts";
import { minocEnv, runDeno } from "../../support/cli.ts";

const on = colours(true);
const off = colours(false);

Deno.test("a style wraps the text in its SGR pair", () => {
  assert.equal(on.red("x"), "\x1b[31mx\x1b[39m");
  assert.equal(on.bold("x"), "\x1b[1mx\x1b[22m");
  assert.equal(on.gray(3), "\x1b[90m3\x1b[39m");
  assert.equal(on.isColorSupported, true);
});

Deno.test("an inner style's close opens the outer style again", () => {
  // red inside yellow: after the red part ends, the rest is yellow again.
  assert.equal(
    on.yellow(`a ${on.red("b")} c`),
    "\x1b[33ma \x1b[31mb\x1b[39m\x1b[33m c\x1b[39m",
  );
  // dim inside bold share the close code 22: bold is opened again after it.
  assert.equal(on.bold(`a${on.dim("b")}c`), "\x1b[1ma\x1b[2mb\x1b[22m\x1b[1mc\x1b[22m");
});

Deno.test("a palette without colour returns the text as it is", () => {
  assert.equal(off.red("x"), "x");
  assert.equal(off.bold(on.red("x")), on.red("x"));
  assert.equal(off.isColorSupported, false);
});

Deno.test("palette(): a terminal gets colour unless NO_COLOR; FORCE_COLOR colours a pipe", async () => {
  const code = `import { palette } from ${
    JSON.stringify(new URL("../../../cli/ui/colors.ts", import.meta.url).href)
  };
console.log([palette(true).isColorSupported, palette(false).isColorSupported].join(" "));`;
  const run = async (env: Record<string, string>) => {
    const cwd = Deno.cwd();
    const { NO_COLOR: _, ...base } = minocEnv({ cwd });
    const r = await runDeno(["eval", "--quiet", code], { cwd, env: { ...base, ...env } });
    return r.stdout.trim();
  };
  assert.equal(await run({}), "true false");
  assert.equal(await run({ NO_COLOR: "1" }), "false false");
  assert.equal(await run({ NO_COLOR: "1", FORCE_COLOR: "1" }), "false false");
  assert.equal(await run({ FORCE_COLOR: "1" }), "true true");
  assert.equal(await run({ FORCE_COLOR: "0" }), "true false");
  // The test process itself: whatever its environment says, the palette is one of the two.
  assert.equal([on, off].includes(palette(false)), true);
});
