import assert from "node:assert/strict";
import { join } from "node:path";
import { Disclosure, DISCLOSURE_LIMIT } from "../../../core/skills/disclosure.ts";
import { discoverSkills } from "../../../core/skills/index.ts";
import { renderSkillIndex } from "../../../core/skills/catalog.ts";
import { emptyMetrics, emptyUsage, type SkillUsage } from "../../../core/skills/metrics.ts";
import { tokenCounter } from "../../../core/skills/tokens.ts";
import { SKILL_FIXTURES } from "../../support/skills.ts";
import { usageLine } from "../../../core/protocol/tool_docs.ts";
import { parseReply } from "../../../core/protocol/xml.ts";
import { runSkillScript } from "../../../core/tools/run_skill_script.ts";

async function setup(present?: (text: string) => boolean) {
  const count = await tokenCounter();
  const index = await discoverSkills([join(SKILL_FIXTURES, "project", "skills")], () => {});
  const metrics = emptyMetrics();
  const usage = (n: string): SkillUsage => (metrics.bySkill[n] ??= emptyUsage());
  return { count, index, metrics, d: new Disclosure({ count, metrics, usage, present }) };
}

Deno.test("Disclosure.body() sends a short body whole, with the skill's facts, scripts and resources", async () => {
  const { d, index, metrics } = await setup();
  const r = await d.body(index.get("brand-kit")!);
  assert.ok(r.ok, r.output);
  assert.match(r.output, /^Skill "brand-kit" v1\.2\n/);
  assert.match(r.output, /Inputs: title: the document's title/);
  assert.match(
    r.output,
    /\nScripts: make_notes\.py\nRun them with:\nrun_skill_script <name> <script> <args>\?: /,
  );
  assert.ok(r.output.includes(`\n${usageLine(runSkillScript)}\n`));
  const call = r.output.match(/<tool_call><run_skill_script>.*<\/tool_call>/)?.[0] ?? "";
  assert.deepEqual(parseReply(call, [runSkillScript]), {
    kind: "call",
    call: { tool: "run_skill_script", params: { name: "brand-kit", script: "make_notes.py" } },
  });
  assert.match(r.output, /Resources \(read with use_skill and resource\): palette\.md/);
  assert.match(r.output, /BRAND-BODY-MARKER/);
  assert.match(r.output, /## Making notes/);
  assert.doesNotMatch(r.output, /SOURCE-MARKER|PALETTE-MARKER/, "no script source, no resource");
  assert.doesNotMatch(r.output, /Cut at a heading/);
  assert.ok(metrics.l2Tokens > 0);
  assert.equal(metrics.bySkill["brand-kit"].disclosures, 1);
});

Deno.test("Disclosure.body() answers a repeated request with a reminder instead of the text", async () => {
  const { d, index, metrics } = await setup();
  const skill = index.get("brand-kit")!;
  await d.body(skill);
  const tokens = metrics.l2Tokens;
  const again = await d.body(skill);
  assert.ok(again.ok);
  assert.match(
    again.output,
    /^Skill "brand-kit" was already sent earlier in this conversation \(\d+ tokens\)/,
  );
  assert.doesNotMatch(again.output, /BRAND-BODY-MARKER/);
  const section = await d.body(skill, "Tone");
  assert.match(section.output, /^Section "Tone" of skill "brand-kit" was already sent/);
  assert.equal(metrics.cacheHits, 2);
  assert.ok(metrics.resentAvoided > 0);
  assert.equal(metrics.l2Tokens, tokens, "reminders are not counted as disclosed");
});

Deno.test("Disclosure.body() sends text again once the conversation no longer holds it", async () => {
  let held = true;
  const { d, index } = await setup(() => held);
  const skill = index.get("brand-kit")!;
  await d.body(skill);
  held = false; // e.g. after /clear
  const again = await d.body(skill);
  assert.match(again.output, /BRAND-BODY-MARKER/);
  assert.match(again.output, /^Skill "brand-kit" v1\.2/);
});

Deno.test("Disclosure.body() cuts a long body at headings with contents, then continues with the rest", async () => {
  const { d, index, metrics, count } = await setup();
  const skill = index.get("long-guide")!;
  const first = await d.body(skill);
  assert.ok(first.ok);
  assert.ok(count(first.output) <= DISCLOSURE_LIMIT, `${count(first.output)} tokens`);
  assert.match(first.output, /LONG-INTRO/);
  assert.match(first.output, /LONG-PART-1 /);
  assert.doesNotMatch(first.output, /LONG-PART-12/);
  assert.match(first.output, /\[Cut at a heading: .*Contents:\n/s);
  assert.match(first.output, /- Part 1: Preparing the release branch \(sent\)/);
  assert.match(first.output, /- Part 12: Retrospective \(\d+ tokens\)/);
  assert.match(first.output, /\n {4}- Part 3a: Changelog format \(sent\)/);
  // The cut falls at a heading: the last part sent is whole (it ends with its 9th item).
  const before = first.output.split("\n\n[Cut at a heading")[0];
  assert.match(before.split("\n").at(-1)!, /^9\. /);
  const parts = [...first.output.matchAll(/LONG-PART-(\d+) starts here/g)].map((m) => Number(m[1]));
  const last = parts[parts.length - 1];
  assert.equal(metrics.cuts, 1);
  const next = await d.body(skill);
  assert.doesNotMatch(next.output, /LONG-PART-1 starts/);
  assert.match(next.output, new RegExp(`LONG-PART-${last + 1} starts here`));
  assert.match(
    next.output,
    /Already sent above, not repeated: .*"Part 1: Preparing the release branch"/,
  );
  assert.ok(count(next.output) <= DISCLOSURE_LIMIT);
});

Deno.test("Disclosure.body() sends one named section with its sub-sections, or lists the sections", async () => {
  const { d, index } = await setup();
  const skill = index.get("long-guide")!;
  const part12 = await d.body(skill, "Part 12: Retrospective");
  assert.match(part12.output, /LONG-PART-12 starts here/);
  assert.doesNotMatch(part12.output, /LONG-PART-11 starts/);
  const part3 = await d.body(skill, "part 3 changelog");
  assert.match(part3.output, /LONG-PART-3 starts here/);
  assert.match(part3.output, /LONG-PART-3A/);
  assert.doesNotMatch(part3.output, /LONG-PART-4 starts/);
  const missing = await d.body(skill, "Deployment");
  assert.equal(missing.ok, false);
  assert.equal(missing.code, "unknown_section");
  assert.match(
    missing.output,
    /has no section "Deployment"; its sections: "Release guide", "Part 1/,
  );
});

Deno.test("Disclosure.resource() reads a file under resources/ once and refuses paths outside it", async () => {
  const { d, index, metrics } = await setup();
  const skill = index.get("brand-kit")!;
  const r = await d.resource(skill, "palette.md");
  assert.ok(r.ok);
  assert.match(r.output, /PALETTE-MARKER/);
  assert.ok(metrics.l3Tokens > 0);
  const again = await d.resource(skill, "resources/palette.md");
  assert.match(again.output, /already sent earlier/);
  assert.doesNotMatch(again.output, /PALETTE-MARKER/);
  const escape = await d.resource(skill, "../SKILL.md");
  assert.equal(escape.code, "not_found");
  assert.match(escape.output, /no resource "\.\.\/SKILL\.md"; its resources: palette\.md/);
  const script = await d.resource(skill, "../scripts/make_notes.py");
  assert.equal(script.ok, false);
  assert.doesNotMatch(script.output, /SOURCE-MARKER/);
});

Deno.test("Disclosure.body() counts text as sent before the conversation has it, and reminds once it does", async () => {
  const convo: string[] = [];
  const { d, index } = await setup((text) => convo.some((m) => m.includes(text)));
  const skill = index.get("brand-kit")!;
  const first = await d.body(skill);
  assert.ok(d.sentTokens(skill) > 0, "metrics see it as sent at once");
  convo.push(first.output);
  const again = await d.body(skill);
  assert.match(again.output, /already sent earlier/);
});

Deno.test("Disclosure.body() gives a description the index cut whole, and only then", async () => {
  const dir = await Deno.makeTempDir({ prefix: "minoc_disclose_" });
  try {
    const description = "Prepares the quarterly board pack: revenue tables, hiring plan, risks " +
      "and the one-page summary the board reads first, in the house format.";
    await Deno.mkdir(join(dir, "board-pack"));
    await Deno.writeTextFile(
      join(dir, "board-pack", "SKILL.md"),
      `---\nname: board-pack\ndescription: ${
        JSON.stringify(description)
      }\n---\n# Board pack\nSteps.\n`,
    );
    const { d, count } = await setup();
    const index = await discoverSkills([dir], () => {});
    const l1 = renderSkillIndex(index.skills, 10_000, count);
    assert.ok(!l1.text.includes(description), "the index shows only part of it");
    const r = await d.body(index.get("board-pack")!);
    assert.match(r.output, /^Skill "board-pack"\nDescription: Prepares the quarterly board pack: /);
    assert.ok(r.output.includes(`\nDescription: ${description}\n`));
    const short = await d.body((await setup()).index.get("brand-kit")!);
    assert.doesNotMatch(short.output, /\nDescription: /);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "Disclosure.resource() refuses a FIFO among a skill's resources at once (never opens it)",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const root = await Deno.makeTempDir({ prefix: "minoc_skill_fifo_" });
    try {
      const dir = join(root, "skills", "piped");
      await Deno.mkdir(join(dir, "resources"), { recursive: true });
      await Deno.writeTextFile(
        join(dir, "SKILL.md"),
        "---\nname: piped\ndescription: A skill with a named pipe as a resource.\n---\nBody.\n",
      );
      await new Deno.Command("mkfifo", { args: [join(dir, "resources", "pipe.md")] }).output();
      const index = await discoverSkills([join(root, "skills")], () => {});
      const metrics = emptyMetrics();
      const d = new Disclosure({
        count: await tokenCounter(),
        metrics,
        usage: (n) => (metrics.bySkill[n] ??= emptyUsage()),
      });
      const r = await d.resource(index.get("piped")!, "pipe.md");
      assert.equal(r.ok, false);
      assert.match(r.output, /cannot be read: .*named pipe/);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
