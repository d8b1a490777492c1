/**
 * End-to-end: the bundle is self-contained. `minoc.js` is copied ALONE into
 * an empty directory and run from there with an empty Deno cache and read
 * and write permission limited to temporary directories, so nothing can come
 * from the source tree or the npm cache: the tree-sitter wasm and the example
 * configuration must be inside the file.
 *
 * The bundle under test is `MINOC_ENTRY` when it names a `.js` file (CI sets
 * it to `dist/minoc.js`); otherwise a fresh one is built from `main.ts`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT, runDeno } from "../support/cli.ts";
import { startServer, toolCall } from "../support/server.ts";
import { VERSION } from "../../cli/version.ts";
import { buildBundle } from "../../.ci/bundle.ts";

const EXAMPLES = join(ROOT, ".minoc.example", "config");

/** A bundle built from the current source into `dir`, or the one CI names. */
async function bundle(dir: string): Promise<string> {
  const given = Deno.env.get("MINOC_ENTRY");
  if (given?.endsWith(".js")) return given;
  const out = join(dir, "minoc.js");
  await Deno.mkdir(dir, { recursive: true });
  await buildBundle(out);
  return out;
}

/** Runs the copied bundle with permissions limited to `tmp`. */
function runCopied(
  tmp: string,
  args: string[],
  o: { cwd: string; stdin?: string },
): Promise<{ code: number; stdout: string; stderr: string }> {
  return runDeno([
    "run",
    "--quiet",
    "--no-prompt",
    `--allow-read=${tmp}`,
    `--allow-write=${tmp}`,
    "--allow-env",
    "--allow-net=127.0.0.1",
    "--allow-run",
    "--allow-sys",
    join(tmp, "app", "minoc.js"),
    ...args,
  ], {
    cwd: o.cwd,
    stdin: o.stdin,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: join(tmp, "home"),
      DENO_DIR: join(tmp, "deno-cache"),
      NO_COLOR: "1",
    },
  });
}

const call = toolCall;

Deno.test("bundle: minoc.js alone in an empty directory runs every command from its own contents", async () => {
  const tmp = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_bundle_" }));
  try {
    const built = await bundle(join(tmp, "build"));
    for (const d of ["app", "home", "deno-cache", "project"]) await Deno.mkdir(join(tmp, d));
    await Deno.copyFile(built, join(tmp, "app", "minoc.js"));
    const project = join(tmp, "project");

    const version = await runCopied(tmp, ["--version"], { cwd: project });
    assert.equal(version.code, 0, version.stderr);
    assert.equal(version.stdout.trim(), VERSION);

    // The shell parser is tree-sitter: its wasm must be inside the bundle.
    const blocked = await runCopied(
      tmp,
      ["security", "check", "bash -c 'sudo rm -rf /'", "--json", "--shell", "bash"],
      { cwd: project },
    );
    assert.equal(blocked.code, 0, blocked.stderr);
    assert.equal(JSON.parse(blocked.stdout).verdict, "block");
    const fine = await runCopied(
      tmp,
      ["security", "check", "ls -la src", "--json", "--shell", "bash"],
      { cwd: project },
    );
    assert.equal(JSON.parse(fine.stdout).verdict, "allow", fine.stderr);

    const reply = "Writing.\n" + call("write_to_file", { path: "a.txt", content: "x < y" });
    const parsed = await runCopied(tmp, ["debug", "parse", "--json"], {
      cwd: project,
      stdin: reply,
    });
    assert.equal(parsed.code, 0, parsed.stderr);
    assert.deepEqual(JSON.parse(parsed.stdout), {
      tool: "write_to_file",
      params: { path: "a.txt", content: "x < y" },
    });

    await Deno.writeTextFile(join(project, "notes.md"), "line one\n");
    await using server = await startServer({
      replies: [
        { text: "Reading first.\n" + call("read_file", { path: "notes.md" }) },
        { text: call("write_to_file", { path: "notes.md", content: "\nline one\nline two\n" }) },
        { text: call("attempt_completion", { result: "Added line two." }) },
      ],
    });
    const run = await runCopied(
      tmp,
      ["run", "add a line", "--base-url", server.baseUrl, "--model", "m", "--yes"],
      { cwd: project },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.equal(await Deno.readTextFile(join(project, "notes.md")), "line one\nline two\n");
    assert.equal(server.requests.length, 3);

    const init = await runCopied(tmp, ["config", "init"], { cwd: project });
    assert.equal(init.code, 0, init.stderr);
    const written = join(tmp, "app", ".minoc", "config");
    for (const name of ["settings.json", "models.json", "security.json"]) {
      assert.equal(
        await Deno.readTextFile(join(written, name)),
        await Deno.readTextFile(join(EXAMPLES, name)),
        `config init wrote the example ${name}`,
      );
    }
    // .minoc lives beside the bundle: the session is there, nothing else was added.
    const sessions = join(tmp, "app", ".minoc", "history", "sessions");
    let files = 0;
    for await (const day of Deno.readDir(sessions)) {
      for await (const f of Deno.readDir(join(sessions, day.name))) {
        if (/^session_.*\.json$/.test(f.name)) files++;
      }
    }
    assert.equal(files, 1, "one session file");
    const app = (await Array.fromAsync(Deno.readDir(join(tmp, "app")))).map((e) => e.name);
    assert.deepEqual(app.sort(), [".minoc", "minoc.js"]);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
