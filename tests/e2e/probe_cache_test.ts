/**
 * End-to-end: a session does not start the `__confine` helper to probe
 * Landlock when an earlier start already learned the answer on this boot; the
 * answer is kept in minoc's cache folder under a key, a changed key probes
 * again, and `minoc doctor` always asks the helper itself. What the session
 * believes shows in its start line about `sandbox.network: "off"`, whose
 * wording depends on the ABI (a planted ABI 1 cannot refuse connections).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runMinoc } from "../support/cli.ts";
import { startServer } from "../support/server.ts";
import { landlockAbi } from "../../core/sandbox/landlock.ts";
import { PROBE_FILE } from "../../core/sandbox/probe_cache.ts";

const abi = Deno.build.os === "linux" ? landlockAbi() : 0;

/** The start line `run` writes for `sandbox.network: "off"` under Landlock `n`. */
const noteOf = (n: number) =>
  n >= 4
    ? /warning: sandbox: network off: TCP connections and listening are refused/
    : new RegExp(`sandbox\\.network "off" is not enforced: Landlock \\(ABI ${n}\\) cannot refuse`);

Deno.test({
  name: "run keeps the helper's Landlock answer for this boot; another key or doctor asks again",
  ignore: abi === 0,
  fn: async () => {
    const root = await Deno.makeTempDir({ prefix: "minoc_probe_e2e_" });
    const cache = join(root, "cache");
    const home = join(root, "home");
    const file = join(cache, PROBE_FILE);
    try {
      await Deno.mkdir(join(home, ".minoc", "config"), { recursive: true });
      await Deno.writeTextFile(
        join(home, ".minoc", "config", "settings.json"),
        JSON.stringify({ sandbox: { network: "off" } }),
      );
      await using server = await startServer({ replies: [{ text: "Done." }], loop: true });
      const env = { MINOC_CACHE_DIR: cache };
      const run = () =>
        runMinoc(["run", "hi", "--base-url", server.baseUrl, "--model", "m"], {
          cwd: root,
          home,
          env,
        });

      const first = await run();
      assert.equal(first.code, 0, first.stderr);
      assert.match(first.stderr, noteOf(abi));
      const kept = JSON.parse(await Deno.readTextFile(file));
      assert.equal(kept.abi, abi, "the helper's answer is kept");

      // Same key, another answer: the session believes the file, so no helper was asked.
      await Deno.writeTextFile(file, JSON.stringify({ ...kept, abi: 1 }));
      const second = await run();
      assert.equal(second.code, 0, second.stderr);
      assert.match(second.stderr, noteOf(1));

      // Another boot, or another kernel, Deno or helper: asked again, and the answer kept.
      const otherKernel = JSON.stringify({ ...JSON.parse(kept.key), kernel: "0.0.0" });
      for (const planted of [{ boot: kept.boot - 3600 }, { key: otherKernel }]) {
        await Deno.writeTextFile(file, JSON.stringify({ ...kept, ...planted, abi: 1 }));
        const again = await run();
        assert.equal(again.code, 0, again.stderr);
        assert.match(again.stderr, noteOf(abi));
        const now = JSON.parse(await Deno.readTextFile(file));
        assert.deepEqual({ key: now.key, abi: now.abi }, { key: kept.key, abi });
      }

      // The doctor never trusts the file: it shows the helper's answer and keeps it.
      await Deno.writeTextFile(file, JSON.stringify({ ...kept, abi: 1 }));
      const doctor = await runMinoc(
        ["doctor", "--model", "m", "--base-url", server.baseUrl],
        { cwd: root, home, env },
      );
      assert.match(doctor.stdout, new RegExp(`sandboxed by Landlock \\(ABI ${abi}\\)`));
      assert.equal(JSON.parse(await Deno.readTextFile(file)).abi, abi);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
