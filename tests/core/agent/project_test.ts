import assert from "node:assert/strict";
import { join } from "node:path";
import { estimateTokens as countTokens } from "../../../core/llm/token_estimate.ts";
import { analyzeProject, isEmptyProject } from "../../../core/agent/project.ts";
import { NEW_PROJECT_RULES } from "../../../core/agent/project_interview.ts";
import { scanTree } from "../../../core/agent/project_scan.ts";
import { ROOT } from "../../support/cli.ts";

const LAYERED = join(ROOT, "tests", "fixtures", "layered");

async function tempDir(files: Record<string, string> = {}): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "minoc_project_" });
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(join(dir, path, ".."), { recursive: true });
    await Deno.writeTextFile(join(dir, path), text);
  }
  return dir;
}

Deno.test("`analyzeProject()` describes the layered fixture: layers, manifest, commands, tree, AGENTS.md", async () => {
  const p = await analyzeProject(LAYERED);
  assert.equal(p.empty, false);
  assert.match(p.section, /^# Project\n/);
  assert.match(p.section, /Languages: TypeScript 8, Markdown 2, JSON 1\./);
  assert.match(p.section, /Manifests: deno\.json \(tasks: test, check\)/);
  assert.match(
    p.section,
    /Commands: test `deno task test`; build `deno task check`; lint `deno lint`/,
  );
  assert.match(
    p.section,
    /Layers: domain \(src\/domain\), use cases \(src\/application\), adapters \(src\/adapters\), infrastructure \(src\/infrastructure\)/,
  );
  assert.ok(p.section.includes("\n    http/ (1 file): user_handler.ts\n"));
  assert.match(p.section, /\ntests\/ \(2 files\): user_handler\.spec\.ts user_service\.spec\.ts/);
  assert.match(p.instructions ?? "", /Inner layers never import outer ones/);
  assert.equal(p.facts.root.files, 11);
});

Deno.test("`analyzeProject()` keeps a 20,000-file tree under 1,500 tokens and counts every file", async () => {
  const dir = await tempDir({ "package.json": '{"scripts":{"test":"vitest"}}' });
  try {
    for (let a = 0; a < 20; a++) {
      for (let b = 0; b < 25; b++) {
        const sub = join(dir, "src", `pkg${a}`, `mod${b}`);
        await Deno.mkdir(sub, { recursive: true });
        for (let c = 0; c < 40; c++) Deno.writeTextFileSync(join(sub, `file${c}.ts`), "");
      }
    }
    // A generous time budget: this test is about counts and tokens, not speed.
    const p = await analyzeProject(dir, { timeBudgetMs: 60_000 });
    assert.equal(p.facts.root.files, 20_001);
    assert.equal(p.facts.partial, false);
    assert.ok(countTokens(p.section) <= 1_500, `${countTokens(p.section)} tokens`);
    assert.equal(p.tokens, countTokens(p.section));
    assert.match(p.section, /Files: 20001 in 521 folders/);
    assert.match(p.section, /src\/ \(20000 files\)/);
    assert.match(p.section, /Commands: test `npm test`/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("`analyzeProject()` cuts a wide tree of short names to the budget, header first", async () => {
  const files: Record<string, string> = { "go.mod": "module example.com/x\n\ngo 1.22\n" };
  for (let i = 0; i < 300; i++) files[`d${i}/a.go`] = "";
  const dir = await tempDir(files);
  try {
    const p = await analyzeProject(dir, { budgetTokens: 300 });
    assert.ok(countTokens(p.section) <= 300, `${countTokens(p.section)} tokens`);
    assert.match(p.section, /Commands: test `go test \.\/\.\.\.`/);
    assert.match(p.section, /\+\d+ more folders|\(more folders left out\)|\(cut to fit\)/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("`analyzeProject()` honours .gitignore, leaves out hidden folders and does not enter build output", async () => {
  const dir = await tempDir({
    ".gitignore": "generated/\n*.log\n",
    "generated/big.ts": "",
    "app.log": "",
    ".cache/x.ts": "",
    "target/debug/x.rs": "",
    "src/main.rs": "",
    "Cargo.toml": '[package]\nname = "demo"\n\n[dependencies]\nserde = "1"\n',
  });
  try {
    const p = await analyzeProject(dir);
    assert.equal(p.facts.root.files, 2, "Cargo.toml and src/main.rs");
    assert.doesNotMatch(p.section, /generated|app\.log|\.cache/);
    assert.match(p.section, /target\/ \(build output, not scanned\)/);
    assert.match(p.section, /Cargo\.toml \(package demo; 1 dependencies\)/);
    assert.match(p.section, /Languages: Rust 1, TOML 1\./);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("`analyzeProject()` of an empty folder gives the new-project rules", async () => {
  const dir = await tempDir({ "README.md": "# idea\n", ".gitignore": "x\n" });
  try {
    const p = await analyzeProject(dir);
    assert.equal(p.empty, true);
    assert.equal(p.section, `# Project\n${NEW_PROJECT_RULES}`);
    await Deno.writeTextFile(join(dir, "main.py"), "print(1)\n");
    assert.equal((await analyzeProject(dir)).empty, false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("`isEmptyProject()` is false as soon as there is a folder", async () => {
  const dir = await tempDir({ "LICENSE": "MIT" });
  try {
    assert.equal(isEmptyProject(scanTree(dir).root), true);
    await Deno.mkdir(join(dir, "src"));
    assert.equal(isEmptyProject(scanTree(dir).root), false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("`analyzeProject()` says the counts are partial when the walk runs out of time", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 600; i++) files[`f${i}.md`] = "";
  const dir = await tempDir(files);
  try {
    const p = await analyzeProject(dir, { timeBudgetMs: 0 });
    assert.equal(p.facts.partial, true);
    assert.match(p.section, /scan stopped early, counts are partial/);
    assert.ok(p.facts.root.files < 600);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("`analyzeProject()` recognises no layers in a project with only two of them", async () => {
  const dir = await tempDir({ "api/a.ts": "", "db/b.ts": "", "lib/c.ts": "" });
  try {
    const p = await analyzeProject(dir);
    assert.deepEqual(p.facts.layers, []);
    assert.doesNotMatch(p.section, /Layers:/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("`analyzeProject()` counts a file name that looks like a special token without throwing", async () => {
  const dir = await tempDir({ "<|endoftext|>.md": "", "src/a.ts": "", "src/b.ts": "" });
  try {
    const p = await analyzeProject(dir, { budgetTokens: 60 });
    assert.ok(p.tokens <= 60, `${p.tokens} tokens`);
    assert.match(p.section, /^# Project\n/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
