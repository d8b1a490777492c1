/**
 * Scenario: "add a delete-user endpoint" in a small layered TypeScript
 * project (tests/fixtures/layered). The scripted model explores (list,
 * search, read), edits four files across the layers, adds a test, and runs
 * the project's tests; real tools, real files, a real `deno test`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer } from "../support/server.ts";
import { ROOT, runMinoc, sessionFiles } from "../support/cli.ts";

const FIXTURE = join(ROOT, "tests", "fixtures", "layered");

/** A tool call; a value with a line break starts on the line after its tag. */
function call(tool: string, params: [string, string][]): string {
  const body = params.map(([k, v]) =>
    v.includes("\n") ? `<${k}>\n${v}\n</${k}>` : `<${k}>${v}</${k}>`
  );
  return `<tool_call>\n<${tool}>\n${body.join("\n")}\n</${tool}>\n</tool_call>`;
}

const LAYER_FILES = [
  "src/domain/user_repository.ts",
  "src/application/user_service.ts",
  "src/infrastructure/in_memory_user_repository.ts",
  "src/adapters/http/user_handler.ts",
];

const SPEC = `import assert from "node:assert/strict";
import { createApp } from "../src/main.ts";

Deno.test("DELETE /users/:id removes the user", async () => {
  const app = createApp();
  await app({ method: "POST", path: "/users", body: { name: "Ada", email: "ada@example.org" } });
  assert.equal((await app({ method: "DELETE", path: "/users/1" })).status, 204);
  assert.equal((await app({ method: "GET", path: "/users/1" })).status, 404);
});

Deno.test("DELETE /users/:id answers 404 for an unknown user", async () => {
  const app = createApp();
  assert.equal((await app({ method: "DELETE", path: "/users/7" })).status, 404);
});`;

const REPLIES = [
  `Plan: 1. find how users are stored and served; 2. add delete to the repository port, the
use case, the in-memory repository and the HTTP handler; 3. add a test; 4. run the tests.
${call("list_files", [["path", "."], ["recursive", "true"]])}`,
  call("search_files", [["pattern", "*.ts"], ["directory", "src"], ["content", "findById"]]),
  call("read_files", LAYER_FILES.map((f) => ["path", f])),
  call("edit_file", [
    ["path", LAYER_FILES[0]],
    ["old", "  list(): Promise<User[]>;\n}"],
    [
      "new",
      "  list(): Promise<User[]>;\n  /** Removes a user; false when there was none. */\n" +
      "  delete(id: string): Promise<boolean>;\n}",
    ],
  ]),
  call("edit_file", [
    ["path", LAYER_FILES[1]],
    ["old", "  /** Every user, in the order they registered. */"],
    [
      "new",
      "  /** Deletes the user with this id; throws UserNotFoundError when there is none. */\n" +
      "  async deleteUser(id: string): Promise<void> {\n" +
      "    if (!(await this.repo.delete(id))) throw new UserNotFoundError(id);\n  }\n\n" +
      "  /** Every user, in the order they registered. */",
    ],
  ]),
  call("replace_in_file", [
    ["path", LAYER_FILES[2]],
    [
      "diff",
      "<<<<<<< SEARCH\n  list(): Promise<User[]> {\n=======\n" +
      "  delete(id: string): Promise<boolean> {\n    return Promise.resolve(this.#users.delete(id));\n" +
      "  }\n\n  list(): Promise<User[]> {\n>>>>>>> REPLACE",
    ],
  ]),
  call("edit_file", [
    ["path", LAYER_FILES[3]],
    ["old", '      if (req.method === "GET" && id) {'],
    [
      "new",
      '      if (req.method === "DELETE" && id) {\n        await service.deleteUser(id);\n' +
      '        return { status: 204 };\n      }\n      if (req.method === "GET" && id) {',
    ],
  ]),
  call("write_to_file", [["path", "tests/delete_user.spec.ts"], ["content", SPEC + "\n"]]),
  call("execute_command", [["command", "deno task test"]]),
  call("attempt_completion", [[
    "result",
    "Added DELETE /users/:id: UserRepository.delete, UserService.deleteUser, the in-memory " +
    "repository and the handler (204, or 404 when unknown), with tests; all tests pass.",
  ]]),
].map((text) => ({ text }));

async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.isDirectory) await copyTree(join(from, e.name), join(to, e.name));
    else await Deno.copyFile(join(from, e.name), join(to, e.name));
  }
}

async function denoTest(dir: string): Promise<{ ok: boolean; out: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "test"],
    cwd: dir,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  return { ok: out.success, out: text };
}

type Entry = { role: string; content: string; call?: { tool: string }; tool?: string };

Deno.test("scenario: add a delete-user endpoint across the layers, tests pass, explored before writing", async () => {
  const dir = await Deno.makeTempDir({ prefix: "minoc_layered_" });
  await copyTree(FIXTURE, dir);
  await using server = await startServer({ replies: REPLIES });
  try {
    const r = await runMinoc(
      ["run", "add a delete-user endpoint", "--base-url", server.baseUrl, "--model", "m", "--yes"],
      { cwd: dir },
    );
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.equal(server.requests.length, REPLIES.length, "every scripted reply was used");

    const system = server.requests[0].body.messages[0].content as string;
    assert.match(system, /Layers: domain \(src\/domain\), use cases \(src\/application\)/);
    assert.match(system, /Commands: test `deno task test`/);
    assert.match(system, /Inner layers never import outer ones/, "AGENTS.md is in the prompt");

    for (const f of LAYER_FILES) {
      assert.match(await Deno.readTextFile(join(dir, f)), /delete/i, `${f} was changed`);
    }
    const testRun = server.requests.at(-1)!.body.messages.at(-1).content as string;
    assert.match(testRun, /^\[execute_command deno task test\] Result:/);
    assert.match(testRun, /ok \| 10 passed \| 0 failed/);

    const mine = await denoTest(dir);
    assert.ok(mine.ok, mine.out);
    assert.match(mine.out, /ok \| 10 passed \| 0 failed/);

    const [session] = await sessionFiles(join(dir, ".home", ".minoc"));
    const calls = (session.messages as Entry[]).filter((m) => m.role === "tool_call")
      .map((m) => m.call!.tool);
    const firstWrite = calls.findIndex((t) =>
      /^(edit_file|replace_in_file|write_to_file)$/.test(t)
    );
    assert.ok(firstWrite > 0, "there is a write, and not first");
    const before = calls.slice(0, firstWrite);
    assert.ok(before.every((t) => /^(list_files|search_files|read_file|read_files)$/.test(t)));
    assert.deepEqual(before, ["list_files", "search_files", "read_files"]);
    const responses = (session.messages as (Entry & { ok?: boolean })[])
      .filter((m) => m.role === "tool_response");
    assert.equal(responses.length, calls.length);
    assert.ok(responses.every((m) => m.ok === true), "every tool call succeeded");
    assert.deepEqual(
      [...(session.metadata as { filesChanged: string[] }).filesChanged].sort(),
      [...LAYER_FILES, "tests/delete_user.spec.ts"].sort(),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
