import assert from "node:assert/strict";
import {
  fencedFile,
  projectContents,
  projectFiles,
  projectSummary,
} from "../../../core/tools/project_summary.ts";
import { outline } from "../../../core/tools/project_signatures.ts";
import { realFs } from "../../../core/tools/fs_port.ts";
import { makeTree, withTempDir } from "../../support/tool_context.ts";

Deno.test("`outline()` finds exported signatures and headings by language", () => {
  const ts = [
    "import x from 'y';",
    "export function add(a: number, b: number): number {",
    "  return a + b;",
    "}",
    "function hidden() {}",
    "export const mul = (a: number, b: number): number => {",
    "export const LIMIT = 10;",
    "export interface Shape {",
    "export type Id = string;",
    "export default class App extends Base {",
    'export { a, b } from "./c.ts";',
  ].join("\n");
  assert.deepEqual(outline("src/a.ts", ts), [
    "export function add(a: number, b: number): number",
    "export const mul = (a: number, b: number): number",
    "export const LIMIT",
    "export interface Shape",
    "export type Id",
    "export default class App extends Base",
    'export { a, b } from "./c.ts";',
  ]);
  assert.deepEqual(
    outline(
      "m.py",
      "import os\ndef run(x, y=1):\n    pass\ndef _private():\n    pass\nclass Tool(Base):\n",
    ),
    ["def run(x, y=1)", "class Tool(Base)"],
  );
  assert.deepEqual(
    outline("m.go", "func Serve(addr string) error {\nfunc helper() {}\ntype Server struct {\n"),
    [
      "func Serve(addr string) error",
      "type Server struct",
    ],
  );
  assert.deepEqual(
    outline("lib.rs", "pub fn open(p: &str) -> File {\nfn inner() {}\npub struct File {\n"),
    [
      "pub fn open(p: &str) -> File",
      "pub struct File",
    ],
  );
  assert.deepEqual(
    outline("README.md", "# Title\ntext\n```sh\n# not a heading\n```\n## Usage\n"),
    ["# Title", "## Usage"],
  );
  assert.deepEqual(outline("data.csv", "a,b\n"), []);
});

Deno.test("`outline()` keeps at most 30 lines and counts the rest", () => {
  const md = Array.from({ length: 35 }, (_, i) => `## H${i}`).join("\n");
  const got = outline("a.md", md);
  assert.equal(got.length, 31);
  assert.equal(got[30], "… 5 more");
});

Deno.test("`projectFiles()` skips ignored, hidden and secret-looking files", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, {
      ".gitignore": "build/\n",
      "build/out.js": "x",
      ".env": "KEY=1",
      "config/.env.local": "KEY=2",
      "certs/server.pem": "-----",
      ".hidden/a.txt": "x",
      "src/a.ts": "export const a = 1;\n",
      "z.md": "# Z\n",
    });
    const files = await projectFiles({ fs: realFs, root: dir });
    assert.deepEqual(files.map((f) => f.rel), ["src/a.ts", "z.md"]);
  });
});

Deno.test("`projectSummary()` renders a tree with line counts and outlines", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, {
      "src/lib/a.ts": "export function a(): void {\n}\n",
      "src/main.ts": "console.log(1);\n",
      "img.png": new Uint8Array([0x89, 0x50, 0, 1, 2]),
      "README.md": "# Read me\n",
    });
    const src = { fs: realFs, root: dir };
    const text = await projectSummary(src, await projectFiles(src));
    assert.equal(
      text,
      [
        "README.md (1 line)",
        "    # Read me",
        "img.png (binary)",
        "src/",
        "  lib/",
        "    a.ts (2 lines)",
        "        export function a(): void",
        "  main.ts (1 line)",
      ].join("\n"),
    );
  });
});

Deno.test("`projectContents()` sends whole files within the budget and lists the rest", async () => {
  await withTempDir(async (dir) => {
    await makeTree(dir, { "a.txt": "aaa\n", "b.txt": "b".repeat(500) + "\n", "c.txt": "c" });
    const src = { fs: realFs, root: dir };
    const text = await projectContents(src, await projectFiles(src), 200);
    assert.match(text, /^### a\.txt\n```\naaa\n```/);
    assert.match(text, /### c\.txt \(no newline at the end\)\n```\nc\n```/);
    assert.match(
      text,
      /Not included \(over the size budget; ask with <<<REQUEST_FILE: path>>>\):\n- b\.txt$/,
    );
  });
});

Deno.test("`fencedFile()` uses a fence longer than any backtick run in the file", () => {
  assert.equal(fencedFile("a.md", "```js\nx\n```\n"), "### a.md\n````\n```js\nx\n```\n````");
});
