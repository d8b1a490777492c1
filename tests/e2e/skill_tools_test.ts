/**
 * End-to-end: a skill's `allowed-tools` restricts the model while the skill
 * is in use (after `use_skill`), through the real CLI against the scripted
 * server; the restriction ends with the model's turn.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, toolCall } from "../support/server.ts";
import { runMinoc } from "../support/cli.ts";

const call = toolCall;

const SKILL = `---
name: release-check
description: Check that a release is ready by reading its notes.
allowed-tools: Read
---
# Release check

Read notes.txt and report what is missing.
`;

/** A temp project with the skill `release-check` (allowed-tools: Read) and a notes file. */
async function project(): Promise<{ dir: string } & AsyncDisposable> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_skill_tools_" }));
  await Deno.mkdir(join(dir, "skills", "release-check"), { recursive: true });
  await Deno.writeTextFile(join(dir, "skills", "release-check", "SKILL.md"), SKILL);
  await Deno.writeTextFile(join(dir, "notes.txt"), "NOTES-MARKER: version 2.0\n");
  return { dir, [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }) };
}

const DENIAL =
  /^\[list_files( \.)?\] Error \(denied\):.*Skill "release-check" allows only read_file, read_files, bridge_request while it is in use; list_files is not among them\. Finish with attempt_completion or switch skills with use_skill\./s;

Deno.test("run: while a skill with allowed-tools: Read is in use, list_files is denied and read_file works", async () => {
  await using p = await project();
  await using server = await startServer({
    replies: [
      { text: call("use_skill", { name: "release-check" }) },
      { text: call("list_files", { path: "." }) },
      { text: call("read_file", { path: "notes.txt" }) },
      { text: call("attempt_completion", { result: "Notes read." }) },
    ],
  });
  const r = await runMinoc(
    ["run", "check the release", "--base-url", server.baseUrl, "--model", "m"],
    { cwd: p.dir },
  );
  assert.equal(r.code, 0, r.stderr + r.stdout);
  const reqs = server.requests.filter((q) => q.path.endsWith("/chat/completions"));
  assert.equal(reqs.length, 4);
  const last = (i: number) => reqs[i].body.messages.at(-1).content as string;
  assert.match(last(1), /^\[use_skill release-check\] Result:\nSkill "release-check"/);
  assert.match(last(2), DENIAL);
  assert.doesNotMatch(last(2), /notes\.txt/);
  assert.match(last(3), /^\[read_file notes\.txt\] Result:/);
  assert.match(last(3), /NOTES-MARKER: version 2\.0/);
});

Deno.test("chat: the skill's restriction ends with the model's turn; the next message may list files", async () => {
  await using p = await project();
  await using server = await startServer({
    replies: [
      { text: call("use_skill", { name: "release-check" }) },
      { text: call("list_files", { path: "." }) },
      { text: "The release notes say version 2.0." },
      { text: call("list_files", { path: "." }) },
      { text: "Listed." },
    ],
  });
  const r = await runMinoc(["--base-url", server.baseUrl, "--model", "m"], {
    cwd: p.dir,
    stdin: "check the release\nnow list the files\n",
  });
  assert.equal(r.code, 0, r.stderr + r.stdout);
  const reqs = server.requests.filter((q) => q.path.endsWith("/chat/completions"));
  assert.equal(reqs.length, 5);
  const last = (i: number) => reqs[i].body.messages.at(-1).content as string;
  assert.match(last(2), DENIAL);
  assert.equal(last(3), "now list the files");
  assert.match(last(4), /^\[list_files( \.)?\] Result:/);
  assert.match(last(4), /notes\.txt/);
});
