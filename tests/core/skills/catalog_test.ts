import assert from "node:assert/strict";
import {
  indexBudget,
  MAX_INDEX_DESCRIPTION,
  renderSkillIndex,
  shorten,
} from "../../../core/skills/catalog.ts";
import { makeIndex, type Skill } from "../../../core/skills/index.ts";
import { tokenCounter } from "../../../core/skills/tokens.ts";

function skill(name: string, description: string, extra: Partial<Skill> = {}): Skill {
  return {
    name,
    description,
    inputs: [],
    outputs: [],
    keywords: [],
    stages: [],
    allowedTools: [],
    disableModelInvocation: false,
    dir: `/s/${name}`,
    file: `/s/${name}/SKILL.md`,
    body: `BODY-OF-${name} `.repeat(50),
    ...extra,
  };
}

const long = (n: number) =>
  `Skill number ${n} explains a long procedure for release notes, slide decks, brand colours, ` +
  `changelogs and checklists in great detail so that the description is long enough to matter.`;

Deno.test("renderSkillIndex() lists name, description and when to use it, never the body", async () => {
  const count = await tokenCounter();
  const skills = [
    skill("brand-kit", "Apply the brand.", { keywords: ["brand", "colours"] }),
    skill("hidden", "Only for the user.", { disableModelInvocation: true }),
  ];
  const l1 = renderSkillIndex(skills, 2000, count);
  assert.match(l1.text, /^# Skills\n/);
  assert.match(l1.text, /\n- brand-kit: Apply the brand\. Use for: brand, colours\.$/);
  assert.doesNotMatch(l1.text, /BODY-OF/);
  assert.doesNotMatch(l1.text, /hidden/);
  assert.equal(l1.listed, 1);
  assert.equal(l1.tokens, count(l1.text));
  assert.equal(renderSkillIndex([skills[1]], 2000, count).text, "");
});

Deno.test("renderSkillIndex() shows at most 80 characters of a description, cut at a word", async () => {
  const count = await tokenCounter();
  const skills = [skill("short-one", "Fits."), skill("long-one", long(1))];
  const l1 = renderSkillIndex(skills, 100_000, count);
  assert.match(
    l1.text,
    /^# Skills\nWhen a task matches a skill, call use_skill with its name first/,
  );
  assert.match(l1.text, /\n- short-one: Fits\.\n/);
  const line = l1.text.split("\n").find((l) => l.startsWith("- long-one: "))!;
  const shown = line.slice("- long-one: ".length);
  assert.ok(shown.length <= MAX_INDEX_DESCRIPTION && shown.endsWith("…"), shown);
  assert.ok(long(1).startsWith(shown.slice(0, -1)), shown);
  assert.equal(l1.shortened, 1);
  assert.equal(l1.omitted, 0);
});

Deno.test("renderSkillIndex() shortens descriptions further when the index is over budget", async () => {
  const count = await tokenCounter();
  const skills = Array.from({ length: 8 }, (_, i) => skill(`skill-${i}`, long(i)));
  const full = renderSkillIndex(skills, 100_000, count);
  const budget = Math.floor(full.tokens * 0.8);
  const l1 = renderSkillIndex(skills, budget, count);
  assert.ok(l1.tokens <= budget, `${l1.tokens} > ${budget}`);
  assert.equal(l1.omitted, 0);
  assert.equal(l1.shortened, 8);
  for (let i = 0; i < 8; i++) {
    assert.match(l1.text, new RegExp(`- skill-${i}: Skill number ${i} .*…`));
  }
  assert.ok(l1.text.length < full.text.length);
});

Deno.test("renderSkillIndex() leaves skills out only when shortened descriptions still do not fit", async () => {
  const count = await tokenCounter();
  const skills = Array.from({ length: 40 }, (_, i) => skill(`skill-${i}`, long(i)));
  const l1 = renderSkillIndex(skills, 300, count);
  assert.ok(l1.tokens <= 300, `${l1.tokens} > 300`);
  assert.ok(l1.omitted > 0 && l1.listed > 0);
  assert.equal(l1.listed + l1.omitted, 40);
  assert.match(
    l1.text,
    new RegExp(`- \\(${l1.omitted} more skills not listed for lack of room\\)$`),
  );
});

Deno.test("indexBudget() is 2% of the context window by default", () => {
  assert.equal(indexBudget(128_000), 2560);
  assert.equal(indexBudget(100_000, 0.05), 5000);
});

Deno.test("shorten() cuts at a word with an ellipsis", () => {
  assert.equal(shorten("short", 10), "short");
  assert.equal(shorten("one two three four", 12), "one two…");
});

Deno.test("makeIndex() keeps the first skill of a name", () => {
  const index = makeIndex([skill("a", "first"), skill("a", "second")]);
  assert.equal(index.skills.length, 1);
  assert.equal(index.get("a")?.description, "first");
});
