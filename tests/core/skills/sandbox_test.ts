import assert from "node:assert/strict";
import { join } from "node:path";
import { createSkillHost } from "../../../core/skills/host.ts";
import { discoverSkills } from "../../../core/skills/index.ts";
import type { SandboxLimits } from "../../../core/skills/sandbox.ts";
import { skillProject } from "../../support/skills.ts";

async function hostIn(dir: string, limits?: Partial<SandboxLimits>, allowUnconfined = false) {
  const index = await discoverSkills([join(dir, "skills")], () => {});
  return await createSkillHost({ index, projectDir: dir, limits, allowUnconfined });
}

const run = (host: Awaited<ReturnType<typeof hostIn>>, script: string, args: string[] = []) =>
  host.run({ name: "sandbox-lab", script, args }, new AbortController().signal);

const exists = (path: string) => Deno.stat(path).then(() => true, () => false);

Deno.test("run() gives the model only the JSON summary and the files produced, never source or other output", async () => {
  await using p = await hostProject();
  const host = await hostIn(p.dir);
  const r = await host.run(
    { name: "brand-kit", script: "make_notes.py", args: ["Q3 notes"] },
    new AbortController().signal,
  );
  assert.ok(r.ok, r.output);
  assert.equal(
    await Deno.readTextFile(join(p.dir, "build", "notes.md")),
    "# Q3 notes\n\nBrand colours: teal, sand.\n",
  );
  assert.match(r.output, /^\[brand-kit scripts\/make_notes\.py: exit 0 in [\d.]+ s\]\n/);
  assert.match(
    r.output,
    /\nSummary: \{"status":"ok","artifacts":\["build\/notes\.md"\],"warnings":\[\]\}\n/,
  );
  assert.match(r.output, /\nFiles produced: build\/notes\.md$/);
  assert.doesNotMatch(r.output, /SOURCE-MARKER|progress: notes written|EXTRA-FIELD-MUST-NOT-LEAK/);
  const m = host.metrics();
  assert.equal(m.scripts, 1);
  assert.ok(m.sourceAvoided > 0 && m.l3Tokens > 0);
  assert.equal(m.bySkill["brand-kit"].scripts, 1);
});

Deno.test("run() lets python3, sh, deno and node scripts write under build/", async () => {
  await using p = await hostProject();
  const host = await hostIn(p.dir);
  const build = join(p.dir, "build");
  for (
    const [script, args, file] of [
      ["write.py", [], "py.txt"],
      ["write.sh", [], "sh/out.txt"],
      ["write.ts", [build], "deno.txt"],
      ["write.js", [], "node.txt"],
    ] as const
  ) {
    const r = await run(host, script, [...args]);
    assert.ok(r.ok, `${script}: ${r.output}`);
    assert.match(r.output, new RegExp(`Files produced: build/${file.replace(".", "\\.")}`), script);
    assert.ok(await exists(join(build, file)), script);
  }
});

Deno.test("run() refuses python3, deno and node writes outside build/ through their own guards", async () => {
  await using p = await hostProject();
  const host = await hostIn(p.dir);
  for (
    const [script, args, file, status] of [
      [
        "escape.py",
        [],
        "escaped_py.txt",
        /"status":"refused: minoc sandbox: writing .* is refused/,
      ],
      ["escape.ts", [p.dir], "escaped_deno.txt", /"status":"refused: NotCapable"/],
      ["escape.js", [], "escaped_node.txt", /"status":"refused: ERR_ACCESS_DENIED"/],
    ] as const
  ) {
    const r = await run(host, script, [...args]);
    assert.match(r.output, status, script);
    assert.ok(!await exists(join(p.dir, file)), `${script} wrote ${file}`);
  }
  const spawn = await run(host, "spawn.py");
  assert.match(spawn.output, /"status":"refused"/);
});

Deno.test({
  name:
    "run() confines a shell script and what it starts: writes outside build/ are refused by the OS",
  ignore: Deno.build.os !== "linux",
  async fn() {
    await using p = await hostProject();
    await Deno.writeTextFile(join(p.dir, "existing.txt"), "before\n");
    const outside = await Deno.makeTempDir({ prefix: "minoc_outside_" });
    await Deno.writeTextFile(join(outside, "keep.txt"), "keep\n");
    try {
      const host = await hostIn(p.dir);
      const r = await run(host, "escape.sh", [outside]);
      assert.ok(r.ok, r.output);
      assert.match(r.output, /"warnings":\["wrote:"\]/, "no write outside build/ worked");
      assert.match(r.display ?? "", /Permission denied/);
      assert.equal(await Deno.readTextFile(join(p.dir, "existing.txt")), "before\n");
      assert.ok(!await exists(join(p.dir, "escaped_dir")));
      assert.deepEqual([...Deno.readDirSync(outside)].map((e) => e.name), ["keep.txt"]);
      // TMPDIR is a private scratch folder the script may use; it is gone afterwards.
      const scratch = (await Deno.readTextFile(join(p.dir, "build", "scratch.txt"))).trim();
      assert.match(scratch, /minoc_skill_/);
      assert.ok(!await exists(scratch), "scratch folder removed");
    } finally {
      await Deno.remove(outside, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "run() leaves Deno's module cache writable, so a confined deno script can import npm packages",
  ignore: Deno.build.os !== "linux",
  async fn() {
    await using p = await hostProject();
    const cache = await Deno.makeTempDir({ prefix: "minoc_deno_dir_" });
    const before = Deno.env.get("DENO_DIR");
    Deno.env.set("DENO_DIR", cache);
    try {
      const r = await run(await hostIn(p.dir), "npm.ts");
      assert.ok(r.ok, r.output + "\n" + r.display);
      assert.match(r.output, /"status":"ok"/);
      assert.ok(await exists(join(cache, "npm", "registry.npmjs.org", "ignore")), "cached");
    } finally {
      if (before === undefined) Deno.env.delete("DENO_DIR");
      else Deno.env.set("DENO_DIR", before);
      await Deno.remove(cache, { recursive: true });
    }
  },
});

Deno.test("run() refuses shell scripts where nothing can confine them, unless unconfined scripts are allowed", async () => {
  await using p = await hostProject();
  await Deno.writeTextFile(join(p.dir, "existing.txt"), "before\n");
  Deno.env.set("MINOC_NO_CONFINE", "1");
  try {
    const refused = await run(await hostIn(p.dir), "escape.sh");
    assert.equal(refused.code, "unconfined");
    assert.match(
      refused.output,
      /bash scripts run only where the operating system can confine their writes to build\/, and here MINOC_NO_CONFINE=1 turned it off\. .*"allowUnconfinedScripts": true in settings\.json/,
    );
    assert.equal(await Deno.readTextFile(join(p.dir, "existing.txt")), "before\n");
    const python = await run(await hostIn(p.dir), "escape.py");
    assert.match(python.output, /"status":"refused: minoc sandbox: writing .* is refused/);

    const host = await hostIn(p.dir, undefined, true);
    const r = await run(host, "escape.sh");
    assert.equal(r.ok, false);
    assert.equal(r.code, "sandbox_violation");
    assert.match(
      r.output,
      /Refused: the script created files outside build\/, which were removed: escaped_dir\/escaped_sh\.txt/,
    );
    assert.match(
      r.output,
      /Refused: the script changed files outside build\/ \(minoc cannot undo this\): existing\.txt/,
    );
    assert.ok(!await exists(join(p.dir, "escaped_dir")), "created folder removed");
  } finally {
    Deno.env.delete("MINOC_NO_CONFINE");
  }
});

Deno.test("run() stops a script at the time limit, the stdout cap and the file cap", async () => {
  await using p = await hostProject();
  const quick = await hostIn(p.dir, { timeoutMs: 300 });
  const slow = await run(quick, "slow.sh");
  assert.equal(slow.code, "timeout");
  assert.match(slow.output, /stopped at the time limit/);
  // A generous time limit, so a busy machine still hits the caps first.
  const host = await hostIn(p.dir, { timeoutMs: 20_000, maxStdout: 1000, maxFiles: 3 });
  const noisy = await run(host, "noisy.sh");
  assert.equal(noisy.code, "stdout_cap");
  const many = await run(host, "many.sh");
  assert.equal(many.code, "too_many_files");
  assert.match(many.output, /produced 8 files, more than the limit of 3/);
});

Deno.test("run() refuses interpreters off the allowlist, paths outside scripts/ and output without JSON", async () => {
  await using p = await hostProject();
  const host = await hostIn(p.dir);
  const ruby = await run(host, "tool.rb");
  assert.equal(ruby.code, "interpreter_not_allowed");
  assert.match(ruby.output, /python3, node, deno, bash, sh/);
  const outside = await run(host, "../SKILL.md");
  assert.equal(outside.code, "not_found");
  assert.match(outside.output, /its scripts: escape\.js, /);
  const unknown = await host.run(
    { name: "nope", script: "x.py", args: [] },
    new AbortController().signal,
  );
  assert.equal(unknown.code, "unknown_skill");
  const text = await run(host, "nojson.sh");
  assert.equal(text.code, "no_summary");
  assert.doesNotMatch(text.output, /just some text/);
});

Deno.test("run() runs one script at a time: a second run meanwhile is refused", async () => {
  await using p = await hostProject();
  const host = await hostIn(p.dir, { timeoutMs: 2000 });
  const first = run(host, "slow.sh");
  // The run makes build/ once it holds the one-at-a-time slot.
  while (!(await exists(join(p.dir, "build")))) await new Promise((r) => setTimeout(r, 20));
  const second = await run(host, "write.sh");
  assert.equal(second.code, "busy");
  assert.match(second.output, /another skill script is still running/);
  assert.equal((await first).code, "timeout");
});

Deno.test("preview() shows the interpreter, script and arguments that will run, in the skill's folder", async () => {
  await using p = await hostProject();
  const host = await hostIn(p.dir);
  const py = await host.preview({
    name: "brand-kit",
    script: "scripts/make_notes.py",
    args: ["Q3 notes"],
  });
  assert.equal(py.kind, "exec");
  const { confinement, ...shown } = py as Extract<typeof py, { kind: "exec" }>;
  assert.deepEqual(shown, {
    kind: "exec",
    command: "python3 scripts/make_notes.py 'Q3 notes'",
    cwd: join(p.dir, "skills", "brand-kit"),
  });
  if (Deno.build.os === "linux") {
    assert.match(
      confinement ?? "",
      /^confined by Landlock \(ABI \d+\): writes only under build\/$/,
    );
  }
  Deno.env.set("MINOC_NO_CONFINE", "1");
  try {
    const sh = await host.preview({ name: "sandbox-lab", script: "write.sh", args: [] });
    assert.equal(
      sh.kind === "exec" && sh.confinement,
      "not confined (MINOC_NO_CONFINE=1 turned it off)",
    );
    const again = await host.preview({ name: "brand-kit", script: "make_notes.py", args: [] });
    assert.equal(
      again.kind === "exec" && again.confinement,
      "held by python3's own guard: writes only under build/",
    );
  } finally {
    Deno.env.delete("MINOC_NO_CONFINE");
  }
  const ts = await host.preview({ name: "sandbox-lab", script: "write.ts", args: [] });
  assert.equal(ts.kind, "exec");
  assert.match(
    ts.kind === "exec" ? ts.command : "",
    new RegExp(
      `^deno run --no-prompt --no-config --allow-read=${p.dir}/skills/sandbox-lab,${p.dir} --allow-write=${p.dir}/build `,
    ),
  );
  assert.deepEqual(await host.preview({ name: "brand-kit", script: "nope.py", args: [] }), {
    kind: "none",
  });
});

function hostProject() {
  return skillProject();
}
