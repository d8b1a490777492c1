/**
 * End-to-end: skills in `minoc run` (L1 index in the prompt, L2 body and
 * reminder, L3 script results only, approval per skill, metrics in the
 * session file) and the `minoc skills` command, against the scripted server.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, toolCall } from "../support/server.ts";
import { runMinoc, sessionFiles } from "../support/cli.ts";
import { SKILL_FIXTURES, skillProject } from "../support/skills.ts";

const call = toolCall;

/** A temp project with the fixture skills, and skills in its `.minoc` home. */
const project = () => skillProject({ "home/skills": ".home/.minoc/skills" });

Deno.test("run: the index is in the prompt, use_skill sends the body once, only the script's results reach the model", async () => {
  await using p = await project();
  await using server = await startServer({
    replies: [
      { text: "Reading the brand kit.\n" + call("use_skill", { name: "brand-kit" }) },
      { text: call("use_skill", { name: "brand-kit" }) },
      {
        text: call("run_skill_script", {
          name: "brand-kit",
          script: "make_notes.py",
          args: '"Q3 notes"',
        }),
      },
      { text: call("attempt_completion", { result: "Notes written to build/notes.md." }) },
    ],
  });
  const r = await runMinoc(
    [
      "run",
      "write brand notes",
      "--base-url",
      server.baseUrl,
      "--model",
      "m",
      "--allow",
      "run_skill_script:brand-kit",
    ],
    { cwd: p.dir },
  );
  assert.equal(r.code, 0, r.stderr + r.stdout);
  assert.match(
    r.stderr,
    /warning: Skill ".*\.home\/\.minoc\/skills\/brand-kit\/SKILL\.md" is skipped: the name "brand-kit" is taken/,
  );
  assert.match(
    r.stderr,
    /warning: Skill ".*\/skills\/brand-kit\/SKILL\.md": unknown field "author" is ignored/,
  );
  assert.equal(
    await Deno.readTextFile(join(p.dir, "build", "notes.md")),
    "# Q3 notes\n\nBrand colours: teal, sand.\n",
  );

  const reqs = server.requests.filter((q) => q.path.endsWith("/chat/completions"));
  assert.equal(reqs.length, 4);
  const system = reqs[0].body.messages[0].content as string;
  assert.match(system, /\n# Skills\n/);
  assert.match(
    system,
    /\n- brand-kit: Apply the Acme brand guidelines .* Use for: brand, colours, release notes\./,
  );
  assert.match(system, /\n- home-only: A skill that lives in the \.minoc home/);
  assert.match(system, /\nWhen a task matches a skill, call use_skill with its name first/);
  assert.match(system, /\nuse_skill <name> <section>\? <resource>\?: /);
  assert.doesNotMatch(system, /run_skill_script/, "use_skill's answer shows it with the scripts");
  assert.doesNotMatch(system, /BRAND-BODY-MARKER|USER-ONLY-MARKER|HOME-DUPLICATE-MARKER/);
  const last = (i: number) => reqs[i].body.messages.at(-1).content as string;
  assert.match(last(1), /^\[use_skill brand-kit\] Result:\nSkill "brand-kit" v1\.2\n/);
  assert.match(last(1), /BRAND-BODY-MARKER/);
  assert.match(
    last(1),
    /\nScripts: make_notes\.py\nRun them with:\nrun_skill_script <name> <script> <args>\?: /,
  );
  assert.match(
    last(2),
    /^\[use_skill brand-kit\] Result:\nSkill "brand-kit" was already sent earlier/,
  );
  assert.doesNotMatch(last(2), /BRAND-BODY-MARKER/);
  assert.match(
    last(3),
    /^\[run_skill_script brand-kit\] Result:\n\[brand-kit scripts\/make_notes\.py: exit 0 in /,
  );
  assert.match(
    last(3),
    /Summary: \{"status":"ok","artifacts":\["build\/notes\.md"\],"warnings":\[\]\}/,
  );
  assert.match(last(3), /Files produced: build\/notes\.md/);
  const everything = JSON.stringify(server.requests.map((q) => q.body));
  for (
    const secret of ["SOURCE-MARKER-7f3a", "EXTRA-FIELD-MUST-NOT-LEAK", "progress: notes written"]
  ) {
    assert.ok(!everything.includes(secret), `the server received "${secret}"`);
  }

  const [session] = await sessionFiles(join(p.dir, ".home", ".minoc"));
  const skills = (session.metadata as Record<string, Record<string, number>>).skills;
  assert.equal(skills.indexed, 5);
  assert.equal(skills.listed, 4);
  assert.ok(skills.l1Tokens > 0 && skills.l1Tokens <= skills.l1Budget);
  assert.ok(skills.l2Tokens > 0 && skills.l3Tokens > 0);
  assert.equal(skills.cacheHits, 1);
  assert.equal(skills.scripts, 1);
  assert.ok(skills.bodiesAvoided > 0 && skills.sourceAvoided > 0 && skills.resentAvoided > 0);

  const stats = await runMinoc(["skills", "stats"], { cwd: p.dir });
  assert.equal(stats.code, 0, stats.stderr);
  assert.match(stats.stdout, /^Sessions with skills: 1\n/);
  assert.match(stats.stdout, /Tokens disclosed: L1 \d+ .*L2 \d+ .*L3 \d+/);
  assert.match(stats.stdout, /Cache hits: 1 · cuts applied: 0 · scripts run: 1/);
  assert.match(stats.stdout, /\nbrand-kit +\d+ +\d+ +1 +0 +1 +1 +0\n/);
  const json = JSON.parse((await runMinoc(["skills", "stats", "--json"], { cwd: p.dir })).stdout);
  assert.equal(json.sessions, 1);
  assert.equal(json.scripts, 1);
});

Deno.test("run: a skill's scripts need approval; an allow rule for one skill does not cover another", async () => {
  await using p = await project();
  await using server = await startServer({
    replies: [
      { text: call("run_skill_script", { name: "sandbox-lab", script: "write.sh" }) },
      { text: call("run_skill_script", { name: "brand-kit", script: "make_notes.py" }) },
      { text: "Done." },
    ],
  });
  const r = await runMinoc(
    [
      "run",
      "go",
      "--base-url",
      server.baseUrl,
      "--model",
      "m",
      "--allow",
      "run_skill_script:brand-kit",
    ],
    { cwd: p.dir },
  );
  assert.equal(r.code, 0, r.stderr);
  const reqs = server.requests.filter((q) => q.path.endsWith("/chat/completions"));
  assert.match(
    reqs[1].body.messages.at(-1).content,
    /^\[run_skill_script sandbox-lab\] Error \(denied\):.*needs approval/s,
  );
  assert.equal(await Deno.stat(join(p.dir, "build", "sh")).then(() => true, () => false), false);
  assert.match(reqs[2].body.messages.at(-1).content, /^\[run_skill_script brand-kit\] Result:/);
  const [session] = await sessionFiles(join(p.dir, ".home", ".minoc"));
  const calls = (session.messages as {
    role: string;
    verdicts?: { gate: string; action: string; risk?: string }[];
  }[])
    .filter((m) => m.role === "tool_call");
  assert.deepEqual(calls[1].verdicts?.find((v) => v.gate === "security"), {
    gate: "security",
    action: "pass",
    risk: "low",
  });
});

Deno.test("skills list, show and validate report what they find", async () => {
  await using p = await project();
  const list = await runMinoc(["skills", "list"], { cwd: p.dir });
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, /^name +description +folder\n/);
  assert.match(list.stdout, /\nbrand-kit +Apply the Acme brand .* +skills\/brand-kit\n/);
  assert.match(list.stdout, /\nuser-only \(user only\) /);
  assert.match(list.stdout, /\nhome-only +.*\.home\/\.minoc\/skills\/home-only\n/);
  assert.match(list.stderr, /is skipped: the name "brand-kit" is taken/);

  const show = await runMinoc(["skills", "show", "brand-kit"], { cwd: p.dir });
  assert.equal(show.code, 0, show.stderr);
  assert.match(show.stdout, /^brand-kit v1\.2\nApply the Acme/);
  assert.match(show.stdout, /\nScripts: make_notes\.py\nResources: palette\.md\n\n# Brand kit\n/);
  const unknown = await runMinoc(["skills", "show", "nope"], { cwd: p.dir });
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /Unknown skill "nope": skills found: brand-kit, /);

  const bad = await runMinoc(["skills", "validate", join(SKILL_FIXTURES, "invalid")], {
    cwd: p.dir,
  });
  assert.equal(bad.code, 1, bad.stderr);
  assert.equal(bad.stdout.match(/^invalid /gm)?.length, 7);
  assert.match(
    bad.stdout,
    /^invalid +.*\/Bad_Name\/SKILL\.md: the name "Bad_Name" must use lowercase/,
  );
  assert.match(bad.stdout, /\nskipped +.*\/not-a-skill: no SKILL\.md\n/);
  assert.match(bad.stdout, /\n0 valid, 7 invalid\n$/);
  const one = await runMinoc(["skills", "validate", "skills/brand-kit"], { cwd: p.dir });
  assert.equal(one.code, 0, one.stdout);
  assert.match(
    one.stdout,
    /^ok +.*brand-kit\/SKILL\.md\n {2}warning: unknown field "author" is ignored\n1 valid, 0 invalid\n$/,
  );
  const all = await runMinoc(["skills", "validate"], { cwd: p.dir });
  assert.equal(all.code, 0);
  assert.match(
    all.stdout,
    /\nshadowed .*\.home\/\.minoc\/skills\/brand-kit\/SKILL\.md: the name "brand-kit" is taken/,
  );
  assert.match(all.stdout, /\n5 valid, 0 invalid\n$/);
});

Deno.test({
  name: "run: a shell script runs confined by the OS; its writes outside build/ are refused",
  ignore: Deno.build.os !== "linux",
  async fn() {
    await using p = await project();
    await Deno.writeTextFile(join(p.dir, "existing.txt"), "before\n");
    const outside = await Deno.makeTempDir({ prefix: "minoc_outside_" });
    await Deno.writeTextFile(join(outside, "keep.txt"), "keep\n");
    await using server = await startServer({
      replies: [
        {
          text: call("run_skill_script", {
            name: "sandbox-lab",
            script: "escape.sh",
            args: JSON.stringify([outside]),
          }),
        },
        { text: call("run_skill_script", { name: "sandbox-lab", script: "write.sh" }) },
        { text: "Done." },
      ],
    });
    try {
      const r = await runMinoc(
        ["run", "go", "--base-url", server.baseUrl, "--model", "m", "--yes"],
        { cwd: p.dir },
      );
      assert.equal(r.code, 0, r.stderr);
      const reqs = server.requests.filter((q) => q.path.endsWith("/chat/completions"));
      const escaped = reqs[1].body.messages.at(-1).content;
      assert.match(escaped, /^\[run_skill_script sandbox-lab\] Result:/);
      assert.match(escaped, /"warnings":\["wrote:"\]/);
      assert.equal(await Deno.readTextFile(join(p.dir, "existing.txt")), "before\n");
      assert.deepEqual([...Deno.readDirSync(outside)].map((e) => e.name), ["keep.txt"]);
      assert.match(reqs[2].body.messages.at(-1).content, /Files produced: build\/sh\/out\.txt/);
      assert.equal(
        await Deno.readTextFile(join(p.dir, "build", "sh", "out.txt")),
        "sh was here\n",
      );
    } finally {
      await Deno.remove(outside, { recursive: true });
    }
  },
});

Deno.test("run, then minoc undo: a script's changes under build/ are reverted like any edit", async () => {
  await using p = await project();
  const build = join(p.dir, "build");
  await Deno.mkdir(build);
  await Deno.writeTextFile(join(build, "keep.txt"), "old\n");
  await Deno.writeTextFile(join(build, "gone.txt"), "precious\n");
  await using server = await startServer({
    replies: [
      { text: call("run_skill_script", { name: "sandbox-lab", script: "rewrite.sh" }) },
      { text: "Done." },
    ],
  });
  const r = await runMinoc(
    ["run", "go", "--base-url", server.baseUrl, "--model", "m", "--yes"],
    { cwd: p.dir },
  );
  assert.equal(r.code, 0, r.stderr);
  assert.equal(await Deno.readTextFile(join(build, "keep.txt")), "new\n");
  const undo = await runMinoc(["undo"], { cwd: p.dir });
  assert.equal(undo.code, 0, undo.stderr);
  assert.equal(await Deno.readTextFile(join(build, "keep.txt")), "old\n");
  assert.equal(await Deno.readTextFile(join(build, "gone.txt")), "precious\n");
  assert.equal(await Deno.stat(join(build, "out")).then(() => true, () => false), false);
});
