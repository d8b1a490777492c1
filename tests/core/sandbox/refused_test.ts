/** Reading refused paths out of a confined command's output. */
import assert from "node:assert/strict";
import { refusedPaths } from "../../../core/sandbox/refused.ts";

const writable = ["/p", "/t"];

Deno.test("refusedPaths() names the path in the error formats of shells, coreutils and interpreters", () => {
  const cases: [string, string[]][] = [
    ["touch: cannot touch '/home/u/x': Permission denied", ["/home/u/x"]],
    ["/usr/bin/bash: line 1: ../outside.txt: Permission denied", ["/outside.txt"]],
    ["Error: EACCES: permission denied, unlink '/h/notes.txt'", ["/h/notes.txt"]],
    ["rm: cannot remove '/h/docs/plan.md': Permission denied", ["/h/docs/plan.md"]],
    ["tar: /h/notes.txt: Cannot unlink: Permission denied", ["/h/notes.txt"]],
    ["mkdir: cannot create directory ‘/x/y’: Permission denied", ["/x/y"]],
    ["sh: 1: cannot create /tmp/zz: Permission denied", ["/tmp/zz"]],
    ["OSError: [Errno 30] Read-only file system: '/r/f'", ["/r/f"]],
    ['Can\'t open perl script "/q": Operation not permitted', ["/q"]],
  ];
  for (const [output, want] of cases) {
    assert.deepEqual(refusedPaths(output, "/p", writable), want, output);
  }
});

Deno.test("refusedPaths() leaves out refusals inside the writable places and lines without a refusal", () => {
  assert.deepEqual(
    refusedPaths("cp: cannot create regular file '/p/in': Permission denied", "/p", writable),
    [],
  );
  assert.deepEqual(refusedPaths("bash: ./x: Permission denied", "/p", writable), []);
  assert.deepEqual(refusedPaths("wrote '/h/notes.txt'", "/p", writable), []);
});

Deno.test("refusedPaths() falls back to the command's outside paths when the output names none", () => {
  const out = "PermissionError: [Errno 13] Permission denied: 'notes.txt'";
  const cmd = `python3 -c "import shutil; shutil.rmtree('/h/home')"`;
  assert.deepEqual(refusedPaths(out, "/p", writable, cmd), ["/h/home"]);
  assert.deepEqual(refusedPaths("all fine", "/p", writable, cmd), []);
});
