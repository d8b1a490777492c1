/**
 * End-to-end: `set_env` of a code-running variable is refused under `--yes`,
 * so a later harmless command does not run the payload.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, toolCall } from "../support/server.ts";
import { runMinoc } from "../support/cli.ts";

const call = toolCall;

for (
  const [name, value] of [["BASH_ENV", "./payload.sh"], ["ENV", "./payload.sh"], ["PATH", "./bin"]]
) {
  Deno.test(`run --yes refuses set_env ${name} and the next command does not run the payload`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "minoc_indirect_" });
    await Deno.writeTextFile(join(dir, "payload.sh"), "touch pwned\n");
    await Deno.mkdir(join(dir, "bin"));
    await Deno.writeTextFile(join(dir, "bin", "ls"), "#!/bin/sh\ntouch pwned\n");
    await Deno.chmod(join(dir, "bin", "ls"), 0o755);
    await using server = await startServer({
      replies: [
        { text: call("set_env", { name, value }) },
        { text: call("execute_command", { command: "ls" }) },
        { text: call("attempt_completion", { result: "done" }) },
      ],
    });
    try {
      const r = await runMinoc(
        ["run", "go", "--base-url", server.baseUrl, "--model", "m", "--yes"],
        { cwd: dir, env: { MINOC_SHELL: "bash" } },
      );
      assert.equal(r.code, 0, r.stderr);
      const first = JSON.stringify(server.requests[1].body.messages.at(-1).content);
      assert.match(first, new RegExp(`setting ${name} lets later commands run code`));
      assert.equal(await Deno.stat(join(dir, "pwned")).catch(() => null), null);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}
