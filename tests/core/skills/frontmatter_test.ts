import assert from "node:assert/strict";
import { nameProblem, parseSkillFile, splitFrontMatter } from "../../../core/skills/frontmatter.ts";

const file = (yaml: string, body = "Body text.\n") => `---\n${yaml}\n---\n${body}`;

Deno.test("parseSkillFile() reads required and optional fields when the front matter is valid", () => {
  const r = parseSkillFile(
    file(
      [
        "name: deck-maker",
        "description: Make slide decks.",
        "version: 2",
        "inputs:\n  title: the deck's title",
        "outputs: [build/deck.html]",
        "keywords: slides, decks",
        "stages: [outline, render]",
        "allowed-tools: read_file, use_skill",
        "disable-model-invocation: true",
      ].join("\n"),
      "# Deck\nSteps.\n",
    ),
    "deck-maker",
  );
  assert.ok(r.ok, r.ok ? "" : r.problem);
  assert.deepEqual(r.meta, {
    name: "deck-maker",
    description: "Make slide decks.",
    version: "2",
    inputs: ["title: the deck's title"],
    outputs: ["build/deck.html"],
    keywords: ["slides", "decks"],
    stages: ["outline", "render"],
    allowedTools: ["read_file", "use_skill"],
    disableModelInvocation: true,
  });
  assert.equal(r.body, "# Deck\nSteps.\n");
  assert.deepEqual(r.warnings, []);
});

Deno.test("parseSkillFile() warns about unknown fields and keeps the skill", () => {
  const r = parseSkillFile(file("name: a\ndescription: d\nauthor: me\ncolour: red"), "a");
  assert.ok(r.ok);
  assert.deepEqual(r.warnings, [
    'unknown field "author" is ignored',
    'unknown field "colour" is ignored',
  ]);
});

Deno.test("nameProblem() rejects names that break the rules and accepts 64 characters", () => {
  assert.equal(nameProblem("ok-name-2", "ok-name-2"), undefined);
  assert.equal(nameProblem("a".repeat(64), "a".repeat(64)), undefined);
  const cases: [unknown, string, RegExp][] = [
    ["Bad_Name", "Bad_Name", /lowercase letters, digits and single hyphens/],
    ["double--hyphen", "double--hyphen", /single hyphens/],
    ["-leading", "-leading", /single hyphens/],
    ["trailing-", "trailing-", /single hyphens/],
    ["a".repeat(65), "a".repeat(65), /longer than 64/],
    ["other", "folder", /differs from its folder "folder"/],
    [undefined, "x", /"name" is missing/],
    [12, "12", /must be a string/],
  ];
  for (const [name, folder, re] of cases) assert.match(nameProblem(name, folder) ?? "", re);
});

Deno.test("parseSkillFile() rejects a missing, empty or too long description", () => {
  const missing = parseSkillFile(file("name: a"), "a");
  assert.ok(!missing.ok && /"description" is missing/.test(missing.problem));
  const empty = parseSkillFile(file('name: a\ndescription: "  "'), "a");
  assert.ok(!empty.ok && /"description" is missing/.test(empty.problem));
  const long = parseSkillFile(file(`name: a\ndescription: ${"x".repeat(1025)}`), "a");
  assert.ok(!long.ok && /longer than 1024/.test(long.problem));
  assert.ok(parseSkillFile(file(`name: a\ndescription: ${"x".repeat(1024)}`), "a").ok);
});

Deno.test("parseSkillFile() names the problem when the front matter is absent, bad YAML or mistyped", () => {
  const none = parseSkillFile("# Title\ntext\n", "a");
  assert.ok(!none.ok && /no YAML front matter/.test(none.problem));
  const yaml = parseSkillFile(file("name: a\ndescription: [unclosed"), "a");
  assert.ok(!yaml.ok && /invalid YAML front matter/.test(yaml.problem));
  const list = parseSkillFile(file("- a\n- b"), "a");
  assert.ok(!list.ok && /not a mapping/.test(list.problem));
  const kw = parseSkillFile(file("name: a\ndescription: d\nkeywords: {x: [1]}"), "a");
  assert.ok(!kw.ok && /"keywords" must be a list of strings/.test(kw.problem));
  const dmi = parseSkillFile(
    file("name: a\ndescription: d\ndisable-model-invocation: yes please"),
    "a",
  );
  assert.ok(!dmi.ok && /true or false/.test(dmi.problem));
});

Deno.test("splitFrontMatter() handles CRLF, a BOM and a closing line at the end of the file", () => {
  assert.deepEqual(splitFrontMatter("\uFEFF---\r\nname: a\r\n---\r\nbody\r\n"), {
    yaml: "name: a\n",
    body: "body\n",
  });
  assert.deepEqual(splitFrontMatter("---\nname: a\n---"), { yaml: "name: a\n", body: "" });
  assert.equal(splitFrontMatter("---\nname: a\n"), null);
});
