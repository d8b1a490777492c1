/** `minoc doctor`'s line about the commands' sandbox. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runMinoc } from "../support/cli.ts";
import { landlockAbi } from "../../core/sandbox/landlock.ts";

const abi = Deno.build.os === "linux" ? landlockAbi() : 0;

async function doctor(env: Record<string, string>, settings?: unknown) {
  const dir = await Deno.makeTempDir({ prefix: "minoc_doctor_sandbox_" });
  try {
    if (settings) {
      await Deno.mkdir(join(dir, ".home", ".minoc", "config"), { recursive: true });
      await Deno.writeTextFile(
        join(dir, ".home", ".minoc", "config", "settings.json"),
        JSON.stringify(settings),
      );
    }
    const server = ["--base-url", "http://127.0.0.1:9/v1"];
    return await runMinoc(["doctor", "--model", "m", ...server], { cwd: dir, env });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test({
  name: "doctor: says what sandboxes commands and whether the network can be turned off",
  ignore: abi === 0,
  fn: async () => {
    const r = await doctor({}, { sandbox: { writable: ["~/.npm"] } });
    assert.match(
      r.stdout,
      new RegExp(
        `pass {2}commands {3}sandboxed by Landlock \\(ABI ${abi}\\): writes only in the project, ` +
          `its temp dir \\+ ~/\\.npm; network can${abi >= 4 ? "" : "not"} be turned off`,
      ),
    );
  },
});

Deno.test("doctor: warns that every command asks first where no sandbox works", async () => {
  const r = await doctor({ MINOC_NO_CONFINE: "1" });
  assert.match(
    r.stdout,
    /warn {2}commands {3}not sandboxed \(MINOC_NO_CONFINE=1 turned it off\); each command asks first, even with --yes/,
  );
});
