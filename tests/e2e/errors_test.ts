/**
 * End-to-end: bad input gets a clear message and a documented exit code.
 */
import assert from "node:assert/strict";
import { runMinoc } from "../support/cli.ts";
import { VERSION } from "../../cli/version.ts";

async function inTemp<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix: "minoc_err_" });
  try {
    return await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("run with no key and no base URL says how to configure one (exit 2)", async () => {
  await inTemp(async (cwd) => {
    const r = await runMinoc(["run", "hello"], { cwd });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /OPENAI_API_KEY/);
    assert.match(r.stderr, /--base-url/);
    assert.doesNotMatch(r.stderr, /\bat .*\.ts:\d+/, "no stack trace");
  });
});

Deno.test("run against an unreachable server prints one line naming the URL (exit 1)", async () => {
  await inTemp(async (cwd) => {
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (listener.addr as Deno.NetAddr).port;
    listener.close();
    const url = `http://127.0.0.1:${port}/v1`;
    const r = await runMinoc(["run", "hello", "--base-url", url, "--model", "m"], { cwd });
    assert.equal(r.code, 1);
    const text = (r.stdout + r.stderr).trim();
    assert.match(text, new RegExp(`Cannot reach ${url.replaceAll(".", "\\.")}`));
    assert.doesNotMatch(text, /\bat .*\.ts:\d+/, "no stack trace");
  });
});

Deno.test("an unknown flag or a bad value is a usage error (exit 2)", async () => {
  await inTemp(async (cwd) => {
    const unknown = await runMinoc(["run", "x", "--frobnicate"], { cwd });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown option '--frobnicate'/);
    const bad = await runMinoc(["run", "x", "--temperature", "hot"], { cwd });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--temperature.*hot.*expected a number/s);
    const range = await runMinoc(["run", "x", "--max-turns", "0"], { cwd });
    assert.equal(range.code, 2);
    assert.match(range.stderr, /expected 1 to/);
  });
});

Deno.test("a missing --cwd directory is a usage error (exit 2)", async () => {
  await inTemp(async (cwd) => {
    const r = await runMinoc(
      ["run", "x", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--cwd", "nope"],
      { cwd },
    );
    assert.equal(r.code, 2);
    assert.match(r.stderr, /Working directory "nope" does not exist/);
  });
});

Deno.test("--version prints the version and --help lists the commands", async () => {
  await inTemp(async (cwd) => {
    const v = await runMinoc(["--version"], { cwd });
    assert.equal(v.code, 0);
    assert.equal(v.stdout.trim(), VERSION);
    const h = await runMinoc(["--help"], { cwd });
    assert.equal(h.code, 0);
    for (const word of ["run", "security", "debug", "--base-url", "--yes"]) {
      assert.ok(h.stdout.includes(word), `help mentions ${word}`);
    }
  });
});

Deno.test("debug parse --json reads a reply on stdin", async () => {
  await inTemp(async (cwd) => {
    const reply =
      "ok\r\n<tool_call>\n<write_to_file>\n<path>a.txt</path>\n<content>\r\nx &amp; y\r\n" +
      "</content>\n</write_to_file>\n</tool_call>";
    const r = await runMinoc(["debug", "parse", "--json"], { cwd, stdin: reply });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), {
      tool: "write_to_file",
      params: { path: "a.txt", content: "x &amp; y" },
    });
  });
});

Deno.test("security check --json blocks rm -rf / and allows rm -rf node_modules", async () => {
  await inTemp(async (cwd) => {
    const bad = await runMinoc(["security", "check", "rm -rf /", "--json", "--shell", "bash"], {
      cwd,
    });
    assert.equal(bad.code, 0, bad.stderr);
    assert.equal(JSON.parse(bad.stdout).verdict, "block");
    const fine = await runMinoc(
      ["security", "check", "rm -rf node_modules", "--json", "--shell", "bash"],
      { cwd },
    );
    assert.equal(JSON.parse(fine.stdout).verdict, "allow");
  });
});
