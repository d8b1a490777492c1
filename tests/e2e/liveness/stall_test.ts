/**
 * End-to-end: a server that stalls in the middle of a reply is given up on
 * after `idleTimeoutMs` of silence (settings.json) and the request is tried
 * again as for a dropped connection; one that stalls after text was shown
 * ends the run with a clear timeout instead of waiting for ever.
 */
import assert from "node:assert/strict";
import { startServer } from "../../support/server.ts";
import { projectWithSettings, runMinoc } from "../../support/cli.ts";

/** A reply that sends its first (empty) chunk, then nothing for ten minutes. */
const STALL_EMPTY = { chunks: ["", "never sent"], chunkDelayMs: 600_000 };
const STALL_TEXT = { chunks: ["Half a ", "sentence"], chunkDelayMs: 600_000 };

/** A project whose settings give up a reply after 1 s of silence. */
function project(): Promise<string> {
  return projectWithSettings("minoc_stall_", {
    idleTimeoutMs: 1000,
    retry: { baseDelayMs: 10, maxDelayMs: 10 },
  });
}

Deno.test("run: a reply that stalls mid-stream is timed out after idleTimeoutMs and retried", async () => {
  const dir = await project();
  await using server = await startServer({ replies: [STALL_EMPTY, { text: "All done." }] });
  try {
    const r = await runMinoc(["run", "hi", "--base-url", server.baseUrl, "--model", "m"], {
      cwd: dir,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /All done\./);
    assert.match(r.stderr, /retrying in .*: timed out/);
    assert.equal(server.requests.filter((q) => q.path.endsWith("/completions")).length, 2);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("run: a reply that stalls after text ends with a timeout error (exit 1), never a hang", async () => {
  const dir = await project();
  await using server = await startServer({ replies: [STALL_TEXT] });
  try {
    const r = await runMinoc(["run", "hi", "--base-url", server.baseUrl, "--model", "m"], {
      cwd: dir,
    });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout + r.stderr, /No data from .* for 1000 ms/);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
