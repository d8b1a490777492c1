import assert from "node:assert/strict";
import { join } from "node:path";
import { createSkillHost } from "../../../core/skills/host.ts";
import { discoverSkills } from "../../../core/skills/index.ts";
import { useSkill } from "../../../core/tools/use_skill.ts";
import { callTool, testContext } from "../../support/tool_context.ts";
import { skillProject } from "../../support/skills.ts";

async function context(dir: string) {
  const index = await discoverSkills([join(dir, "skills")], () => {});
  return testContext(dir, { skills: await createSkillHost({ index, projectDir: dir }) });
}

Deno.test("use_skill returns a skill's body, then a reminder instead of the same text", async () => {
  await using p = await skillProject();
  const ctx = await context(p.dir);
  const first = await callTool(useSkill, { name: "brand-kit" }, ctx);
  assert.ok(first.ok, first.output);
  assert.match(first.output, /BRAND-BODY-MARKER/);
  assert.match(first.display, /^brand-kit: \d+ tokens$/);
  const again = await callTool(useSkill, { name: " brand-kit " }, ctx);
  assert.match(again.output, /already sent earlier in this conversation/);
  assert.equal(again.display, "brand-kit: already sent (reminder)");
});

Deno.test("use_skill reads one section or one resource when asked for", async () => {
  await using p = await skillProject();
  const ctx = await context(p.dir);
  const tone = await callTool(useSkill, { name: "brand-kit", section: "tone" }, ctx);
  assert.match(tone.output, /## Tone\n\nShort sentences/);
  assert.doesNotMatch(tone.output, /## Making notes/);
  const res = await callTool(useSkill, { name: "brand-kit", resource: "palette.md" }, ctx);
  assert.match(res.output, /PALETTE-MARKER/);
});

Deno.test("use_skill fails with the list of skills for an unknown or user-only skill, and without skills", async () => {
  await using p = await skillProject();
  const ctx = await context(p.dir);
  const unknown = await callTool(useSkill, { name: "nope" }, ctx);
  assert.equal(unknown.code, "unknown_skill");
  assert.match(unknown.output, /Unknown skill "nope"; skills: brand-kit, long-guide, sandbox-lab$/);
  const userOnly = await callTool(useSkill, { name: "user-only" }, ctx);
  assert.equal(userOnly.code, "user_only");
  assert.doesNotMatch(userOnly.output, /Only for people/);
  const none = await callTool(useSkill, { name: "brand-kit" }, testContext(p.dir));
  assert.equal(none.code, "no_skills");
  const empty = await callTool(useSkill, { name: "" }, ctx);
  assert.equal(empty.code, "invalid_args");
});
