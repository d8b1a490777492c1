import assert from "node:assert/strict";
import { join } from "node:path";
import type { AgentEvent, LlmProvider } from "../../interfaces/agent.ts";
import { openModes } from "../../cli/session_modes.ts";
import { CliError } from "../../cli/io.ts";
import { nullRecorder } from "../../core/history/recorder.ts";
import { OverlayFs } from "../../core/tools/overlay_fs.ts";
import type { Settings } from "../../core/config/settings.ts";

const provider: LlmProvider = {
  name: "p",
  model: "m",
  endpoint: "e",
  stream: async function* () {},
};
const settings = { params: { model: "m" }, apiKey: "" } as Settings;

async function inTemp<T>(fn: (home: string, work: string) => Promise<T>): Promise<T> {
  const root = await Deno.makeTempDir({ prefix: "minoc_modes_" });
  try {
    return await fn(join(root, "home"), join(root, "work"));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("`openModes()` with every mode off hands back the very same provider, recorder and emit", async () => {
  await inTemp(async (home, work) => {
    const modes = await openModes({}, home, work);
    const emit = (_: AgentEvent) => {};
    const recorder = nullRecorder({});
    assert.equal(modes.debug, false);
    const given: unknown[] = [];
    const make = (wire?: unknown) => {
      given.push(wire);
      return provider;
    };
    assert.equal(modes.provider(make, settings), provider);
    assert.deepEqual(given, [undefined], "no wire tap without debug mode");
    assert.equal(modes.recorder(recorder), recorder);
    assert.equal(modes.emit(emit), emit);
    assert.deepEqual(modes.gates(), []);
    assert.equal(modes.dry, null);
    assert.equal(modes.stepper, null);
  });
});

Deno.test("`openModes()` wraps what debug mode needs and adds dry-run's overlay and gate", async () => {
  await inTemp(async (home, work) => {
    const modes = await openModes({ debug: true, dryRun: true }, home, work);
    assert.equal(modes.debug, true);
    let wire: unknown;
    const make = (sink?: unknown) => {
      wire = sink;
      return provider;
    };
    assert.notEqual(modes.provider(make, settings), provider);
    assert.equal(typeof wire, "function", "debug mode taps the wire");
    const emit = (_: AgentEvent) => {};
    assert.notEqual(modes.emit(emit), emit);
    assert.ok(modes.dry?.fs instanceof OverlayFs);
    assert.deepEqual(modes.gates().map((g) => g.name), ["dry-run"]);
  });
});

Deno.test("`openModes()` refuses a broken debug.json with exit code 2", async () => {
  await inTemp(async (home, work) => {
    await Deno.mkdir(join(home, "config"), { recursive: true });
    await Deno.writeTextFile(join(home, "config", "debug.json"), '{"enabled": 1}');
    await assert.rejects(
      () => openModes({}, home, work),
      (e) =>
        e instanceof CliError && e.exitCode === 2 &&
        /field "enabled" must be true or false/.test(e.message),
    );
  });
});
