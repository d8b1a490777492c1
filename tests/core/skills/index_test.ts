import assert from "node:assert/strict";
import { join } from "node:path";
import { discoverSkills, skillRoots } from "../../../core/skills/index.ts";
import { SKILL_FIXTURES, skillProject } from "../../support/skills.ts";

Deno.test("discoverSkills() finds ./skills, ./.minoc/skills and the home's skills, first name wins", async () => {
  await using p = await skillProject({ "home/skills": ".home/skills" });
  await Deno.mkdir(join(p.dir, ".minoc", "skills", "local-only"), { recursive: true });
  await Deno.writeTextFile(
    join(p.dir, ".minoc", "skills", "local-only", "SKILL.md"),
    "---\nname: local-only\ndescription: From .minoc/skills.\n---\nx\n",
  );
  const warnings: string[] = [];
  const index = await discoverSkills(
    skillRoots(p.dir, join(p.dir, ".home")),
    (w) => warnings.push(w),
  );
  assert.deepEqual(index.skills.map((s) => s.name), [
    "brand-kit",
    "long-guide",
    "sandbox-lab",
    "user-only",
    "local-only",
    "home-only",
  ]);
  assert.match(index.get("brand-kit")!.description, /Acme brand guidelines/);
  assert.equal(index.get("brand-kit")!.dir, join(p.dir, "skills", "brand-kit"));
  const dup = warnings.find((w) => w.includes(join(".home", "skills", "brand-kit", "SKILL.md")));
  assert.match(
    dup ?? "",
    /is skipped: the name "brand-kit" is taken by ".*skills\/brand-kit\/SKILL\.md"/,
  );
  const unknown = warnings.find((w) => w.includes('unknown field "author"'));
  assert.match(
    unknown ?? "",
    /^Skill ".*\/skills\/brand-kit\/SKILL\.md": unknown field "author" is ignored$/,
  );
  assert.equal(warnings.length, 2, warnings.join("\n"));
});

Deno.test("discoverSkills() skips each invalid skill with a warning naming its file and problem", async () => {
  const root = join(SKILL_FIXTURES, "invalid");
  const warnings: string[] = [];
  const index = await discoverSkills([root], (w) => warnings.push(w));
  assert.deepEqual(index.skills, []);
  const expect: [string, RegExp][] = [
    ["Bad_Name", /lowercase letters, digits and single hyphens/],
    ["bad-yaml", /invalid YAML front matter/],
    ["double--hyphen", /single hyphens/],
    ["long-description", /longer than 1024/],
    ["no-description", /"description" is missing/],
    ["no-front-matter", /no YAML front matter/],
    ["wrong-folder", /the name "other-name" differs from its folder "wrong-folder"/],
  ];
  assert.equal(warnings.length, expect.length, warnings.join("\n"));
  for (const [folder, problem] of expect) {
    const w = warnings.find((x) =>
      x.startsWith(`Skill "${join(root, folder, "SKILL.md")}" is skipped: `)
    );
    assert.ok(w, `no warning for ${folder}`);
    assert.match(w, problem);
  }
});

Deno.test("discoverSkills() returns an empty index when no folder exists", async () => {
  const warnings: string[] = [];
  const index = await discoverSkills(["/no/such/dir/skills"], (w) => warnings.push(w));
  assert.equal(index.skills.length, 0);
  assert.equal(index.get("x"), undefined);
  assert.deepEqual(warnings, []);
});
