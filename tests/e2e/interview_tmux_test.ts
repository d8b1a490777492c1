/**
 * Scenario: a new project by interview in a real terminal (tmux). `minoc new`
 * asks its questions, the answers become the first request, and the scripted
 * model builds a CLI word counter over three user messages: build it, add
 * line counts, explain how to run it. The files are real and so are their
 * tests.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer } from "../support/server.ts";
import { minocEnv, sessionFiles } from "../support/cli.ts";
import { hasTmux } from "../support/tmux.ts";
import { startChat } from "../support/tmux_chat.ts";
import { NEW_PROJECT_RULES } from "../../core/agent/project_interview.ts";

const call = (tool: string, params: [string, string][]) =>
  `<tool_call>\n<${tool}>\n${
    params.map(([k, v]) => v.includes("\n") ? `<${k}>\n${v}\n</${k}>` : `<${k}>${v}</${k}>`)
      .join("\n")
  }\n</${tool}>\n</tool_call>`;

const DENO_JSON =
  '{\n  "tasks": { "test": "deno test", "start": "deno run --allow-read main.ts" }\n}\n';
const LIB = [
  "/** Counts the words of a text: runs of non-space characters. */",
  "export function countWords(text: string): number {",
  "  return text.match(/\\S+/g)?.length ?? 0;",
  "}",
  "",
].join("\n");
const LIB_TEST = [
  'import assert from "node:assert/strict";',
  'import { countWords } from "./wordcount.ts";',
  "",
  'Deno.test("countWords() counts runs of non-space characters", () => {',
  '  assert.equal(countWords("one two  three\\nfour"), 4);',
  "});",
  "",
  'Deno.test("countWords() is 0 for blank text", () => {',
  '  assert.equal(countWords(" \\n\\t"), 0);',
  "});",
  "",
].join("\n");
const MAIN = [
  'import { countWords } from "./src/wordcount.ts";',
  "",
  "if (import.meta.main) {",
  "  for (const path of Deno.args) {",
  "    const text = await Deno.readTextFile(path);",
  '    console.log(countWords(text) + " " + path);',
  "  }",
  "}",
  "",
].join("\n");
const COUNT_LINES =
  "\n\n/** Counts the lines of a text; a last line without a newline counts too. */\n" +
  "export function countLines(text: string): number {\n" +
  '  if (text === "") return 0;\n' +
  '  return text.split("\\n").length - (text.endsWith("\\n") ? 1 : 0);\n}';

const BUILD = [
  "Plan:\n1. deno.json: test and start tasks\n2. src/wordcount.ts: countWords\n" +
  "3. src/wordcount_test.ts: its tests\n4. main.ts: the command line\n" +
  call("write_to_file", [["path", "deno.json"], ["content", DENO_JSON]]),
  call("write_to_file", [["path", "src/wordcount.ts"], ["content", LIB]]),
  call("write_to_file", [["path", "src/wordcount_test.ts"], ["content", LIB_TEST]]),
  call("write_to_file", [["path", "main.ts"], ["content", MAIN]]),
  call("execute_command", [["command", "deno test"]]),
  call("attempt_completion", [["result", "Built the word counter; 2 tests pass."]]),
];
const LINES = [
  call("read_files", [["path", "src/wordcount.ts"], ["path", "main.ts"]]),
  call("edit_file", [
    ["path", "src/wordcount.ts"],
    ["old", "  return text.match(/\\S+/g)?.length ?? 0;\n}"],
    ["new", "  return text.match(/\\S+/g)?.length ?? 0;\n}" + COUNT_LINES],
  ]),
  call("edit_file", [
    ["path", "main.ts"],
    ["old", 'import { countWords } from "./src/wordcount.ts";'],
    ["new", 'import { countLines, countWords } from "./src/wordcount.ts";'],
  ]),
  call("edit_file", [
    ["path", "main.ts"],
    ["old", '    console.log(countWords(text) + " " + path);'],
    ["new", '    console.log(countLines(text) + " " + countWords(text) + " " + path);'],
  ]),
  call("read_file", [["path", "src/wordcount_test.ts"]]),
  call("edit_file", [
    ["path", "src/wordcount_test.ts"],
    ["old", 'import { countWords } from "./wordcount.ts";'],
    ["new", 'import { countLines, countWords } from "./wordcount.ts";'],
  ]),
  call("replace_in_file", [
    ["path", "src/wordcount_test.ts"],
    [
      "diff",
      '<<<<<<< SEARCH\nDeno.test("countWords() is 0 for blank text", () => {\n=======\n' +
      'Deno.test("countLines() counts a last line without a newline", () => {\n' +
      '  assert.equal(countLines("a\\nb\\n"), 2);\n  assert.equal(countLines("a\\nb"), 2);\n' +
      '  assert.equal(countLines(""), 0);\n});\n\n' +
      'Deno.test("countWords() is 0 for blank text", () => {\n>>>>>>> REPLACE',
    ],
  ]),
  call("execute_command", [["command", "deno test"]]),
  call("attempt_completion", [["result", "Lines are counted too; 3 tests pass."]]),
];
const EXPLAIN = ["Run it with: deno task start notes.txt (prints lines, words and the file name)."];

Deno.test({
  name: "interview: minoc new asks, then builds a word counter over three messages; its tests run",
  ignore: !hasTmux(),
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "minoc_new_" });
    await using server = await startServer({
      replies: [...BUILD, ...LINES, ...EXPLAIN].map((text) => ({ text })),
    });
    const env = minocEnv({ cwd: dir });
    const args = ["new", "--base-url", server.baseUrl, "--model", "m", "--yes"];
    const t = await startChat(dir, args, { env, ready: false });
    try {
      await t.waitFor(/What should it do\?/);
      await t.type("count words in text files");
      await t.send("Enter");
      await t.waitFor(/Language[\s\S]*TypeScript \(Deno\)/);
      await t.send("Enter");
      await t.waitFor(/Interface[\s\S]*command-line tool/);
      await t.send("Enter");
      await t.waitFor(/Dependencies/);
      await t.send("Enter");
      await t.waitFor(/Write tests and run them/);
      await t.send("Enter");
      await t.waitFor(/Built the word counter; 2 tests pass\.[\s\S]*›/, 90_000);
      await t.type("also count lines");
      await t.send("Enter");
      await t.waitFor(/Lines are counted too; 3 tests pass\.[\s\S]*›/, 90_000);
      await t.type("/refresh");
      await t.send("Enter");
      await t.waitFor(/project analysed: 4 files/);
      await t.type("how do I run it?");
      await t.send("Enter");
      await t.waitFor(/Run it with: deno task start[\s\S]*›/);
      await t.type("/exit");
      await t.send("Enter");
      await t.waitFor(/\[exit 0\]/);

      const first = server.requests[0].body.messages;
      assert.ok((first[0].content as string).includes(NEW_PROJECT_RULES), "empty-folder rules");
      const brief = first.at(-1).content as string;
      assert.match(brief, /^Build a new project in this directory\./);
      assert.match(brief, /\nPurpose: count words in text files\n/);
      assert.match(brief, /\nLanguage: TypeScript \(Deno\)\n/);
      assert.match(brief, /\nInterface: command-line tool\n/);
      assert.match(brief, /\nDependencies: none \(standard library only\)\n/);
      assert.match(brief, /\nTests: yes/);
      const lines = server.requests[BUILD.length].body.messages;
      assert.equal(lines.at(-1).content, "also count lines");
      const rebuilt = lines[0].content as string;
      assert.ok(!rebuilt.includes(NEW_PROJECT_RULES), "the prompt was refreshed after the build");
      assert.match(rebuilt, /\nsrc\/ \(2 files\): wordcount\.ts wordcount_test\.ts/);
      assert.match(rebuilt, /Commands: test `deno task test`/);
      const testRuns = server.requests.map((q) => q.body.messages.at(-1).content as string)
        .filter((c) => c.startsWith("[execute_command deno test] Result:"));
      assert.equal(testRuns.length, 2);
      assert.match(testRuns[0], /ok \| 2 passed \| 0 failed/);
      assert.match(testRuns[1], /ok \| 3 passed \| 0 failed/);

      const [session] = await sessionFiles(env.MINOC_HOME);
      const asked = (session.messages as { role: string; content: string }[])
        .filter((m) => m.role === "user" && !m.content.startsWith("["))
        .map((m) => m.content.split("\n")[0]);
      assert.deepEqual(asked, [
        "Build a new project in this directory.",
        "also count lines",
        "how do I run it?",
      ]);

      const out = await new Deno.Command(Deno.execPath(), {
        args: ["test"],
        cwd: dir,
        env: { NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const report = new TextDecoder().decode(out.stdout);
      assert.ok(out.success, report + new TextDecoder().decode(out.stderr));
      assert.match(report, /ok \| 3 passed \| 0 failed/);
      await Deno.writeTextFile(join(dir, "notes.txt"), "one two\nthree\n");
      const run = await new Deno.Command(Deno.execPath(), {
        args: ["run", "--allow-read", "main.ts", "notes.txt"],
        cwd: dir,
        stdout: "piped",
      }).output();
      assert.equal(new TextDecoder().decode(run.stdout), "2 3 notes.txt\n");
    } finally {
      await t.kill();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "interview: the chat started in an empty folder asks what to build; Ctrl+C skips to chat",
  ignore: !hasTmux(),
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "minoc_empty_" });
    await using server = await startServer({ replies: [{ text: "Plain answer." }] });
    const t = await startChat(dir, ["--base-url", server.baseUrl, "--model", "m"], {
      ready: false,
    });
    try {
      await t.waitFor(/New project[\s\S]*What should it do\?/);
      await t.send("C-c");
      await t.waitFor(/›\s*$/m);
      await t.type("hello");
      await t.send("Enter");
      await t.waitFor(/Plain answer\./);
      assert.equal(server.requests.length, 1);
    } finally {
      await t.kill();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
