import assert from "node:assert/strict";
import { join } from "node:path";
import { parseJson, readManifests, tomlSections } from "../../../core/agent/project_manifests.ts";

async function withFiles(
  files: Record<string, string>,
  fn: (dir: string, names: string[]) => void,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "minoc_manifest_" });
  try {
    for (const [name, text] of Object.entries(files)) {
      await Deno.writeTextFile(join(dir, name), text);
    }
    fn(dir, Object.keys(files));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("`readManifests()` reads package.json scripts, the package manager and skips npm's placeholder test", async () => {
  await withFiles({
    "package.json": JSON.stringify({
      name: "shop",
      scripts: {
        build: "tsc",
        lint: "eslint .",
        test: 'echo "Error: no test specified" && exit 1',
      },
      dependencies: { express: "4" },
      devDependencies: { typescript: "5", eslint: "9" },
    }),
    "pnpm-lock.yaml": "",
  }, (dir, names) => {
    const m = readManifests(dir, names, false);
    assert.deepEqual(m.manifests, [{
      file: "package.json",
      summary: "name shop; scripts: build, lint, test; 3 dependencies; uses pnpm",
    }]);
    assert.deepEqual(m.commands, { build: "pnpm run build", lint: "pnpm run lint" });
  });
});

Deno.test("`readManifests()` prefers Makefile targets over language defaults", async () => {
  await withFiles({
    "Makefile":
      ".PHONY: test\nall: build\nbuild:\n\tgo build ./...\ntest:\n\tgo test ./...\nX := 1\n",
    "go.mod": "module example.com/app\n\ngo 1.22\n\nrequire (\n\tgithub.com/x/y v1.0.0\n)\n",
  }, (dir, names) => {
    const m = readManifests(dir, names, false);
    assert.deepEqual(m.manifests, [
      { file: "Makefile", summary: "targets: all, build, test" },
      { file: "go.mod", summary: "module example.com/app; go 1.22; 1 requirements" },
    ]);
    assert.deepEqual(m.commands, { test: "make test", build: "make build", lint: "go vet ./..." });
  });
});

Deno.test("`readManifests()` reads deno.jsonc with comments and trailing commas", async () => {
  await withFiles({
    "deno.jsonc":
      '{\n  // tasks\n  "tasks": { "test": "deno test -A", "dev": "deno run x.ts", },\n}\n',
    "main.ts": "",
  }, (dir, names) => {
    const m = readManifests(dir, names, false);
    assert.deepEqual(m.manifests, [{ file: "deno.jsonc", summary: "tasks: test, dev" }]);
    assert.deepEqual(m.commands, {
      test: "deno task test",
      lint: "deno lint",
      build: "deno check main.ts",
    });
  });
});

Deno.test("`readManifests()` reads pyproject.toml tools and runs pytest through uv", async () => {
  await withFiles({
    "pyproject.toml": '[project]\nname = "wc"\ndependencies = []\n\n[tool.pytest.ini_options]\n' +
      'addopts = "-q"\n\n[tool.ruff]\nline-length = 100\n',
    "uv.lock": "",
  }, (dir, names) => {
    const m = readManifests(dir, names, false);
    assert.deepEqual(m.manifests, [{
      file: "pyproject.toml",
      summary: "project wc; tools: pytest, ruff",
    }]);
    assert.deepEqual(m.commands, { test: "uv run python -m pytest", lint: "uv run ruff check ." });
  });
});

Deno.test("`readManifests()` reads Cargo.toml and finds nothing in a folder without manifests", async () => {
  await withFiles({
    "Cargo.toml":
      '[package]\nname = "grep-lite"\n\n[dependencies]\nregex = "1"\nclap = { version = "4" }\n',
  }, (dir, names) => {
    const m = readManifests(dir, names, false);
    assert.deepEqual(m.manifests, [{
      file: "Cargo.toml",
      summary: "package grep-lite; 2 dependencies",
    }]);
    assert.equal(m.commands.test, "cargo test");
  });
  await withFiles({ "notes.txt": "" }, (dir, names) => {
    assert.deepEqual(readManifests(dir, names, false), { manifests: [], commands: {} });
  });
});

Deno.test("`tomlSections()` splits a TOML file by headers, arrays of tables included", () => {
  const s = tomlSections('top = 1\n[a]\nx = 1\n[[bin]]\nname = "b"\n[a.b] # note\ny = 2\n');
  assert.deepEqual([...s.keys()], ["", "a", "bin", "a.b"]);
  assert.equal(s.get("bin"), 'name = "b"');
});

Deno.test("`parseJson()` returns null for broken JSON and for non-objects", () => {
  assert.equal(parseJson("{", false), null);
  assert.equal(parseJson("[1]", false), null);
  assert.deepEqual(parseJson('{"a":"//not a comment"}', true), { a: "//not a comment" });
});
