/**
 * Reading tools and special files: a FIFO, a device and a file that grows
 * while it is read never hang the call or grow memory without bound.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readFile } from "../../../core/tools/read_file.ts";
import { readFiles } from "../../../core/tools/read_files.ts";
import {
  FileTooLargeError,
  NotRegularFileError,
  readRegularFile,
  readTextFile,
  readTextFileSync,
} from "../../../core/tools/bounded_read.ts";
import { callTool, testContext, withTempDir } from "../../support/tool_context.ts";

/** Fails the test instead of hanging it when `p` does not settle in a generous time. */
async function within<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not return within 60 s`)), 60_000);
  });
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

const UNIX = Deno.build.os !== "windows";

Deno.test({
  name: "read_file() refuses a named pipe with a clear error instead of hanging",
  ignore: !UNIX,
  fn: () =>
    withTempDir(async (dir) => {
      const fifo = join(dir, "pipe");
      const made = await new Deno.Command("mkfifo", { args: [fifo] }).output();
      assert.ok(made.success, "mkfifo works here");
      const ctx = testContext(dir);
      const r = await within(callTool(readFile, { path: "pipe" }, ctx), "read_file on a FIFO");
      assert.equal(r.ok, false);
      assert.equal(r.code, "not_regular_file");
      assert.match(r.output, /"pipe" is not a regular file/);
      const many = await within(callTool(readFiles, { path: "pipe" }, ctx), "read_files");
      assert.match(many.output, /not a regular file/);
    }),
});

Deno.test({
  name: "read_file() refuses /dev/zero, also through a symlink, without reading it",
  ignore: !UNIX,
  fn: () =>
    withTempDir(async (dir) => {
      await Deno.symlink("/dev/zero", join(dir, "zero.txt"));
      const ctx = testContext(dir);
      for (const path of ["/dev/zero", "zero.txt"]) {
        const r = await within(callTool(readFile, { path }, ctx), `read_file ${path}`);
        assert.equal(r.code, "not_regular_file", r.output);
      }
      await assert.rejects(readRegularFile("/dev/zero"), NotRegularFileError);
    }),
});

Deno.test({
  name: "readRegularFile() stops at maxBytes + 1 bytes read when the file grows while read",
  ignore: !UNIX,
  fn: () =>
    withTempDir(async (dir) => {
      const path = join(dir, "growing.log");
      await Deno.writeTextFile(path, "start\n");
      // Appends up to 200 MB while the read runs.
      const writer = new Deno.Command("sh", {
        args: ["-c", `head -c 200000000 /dev/zero | tr '\\0' x >> '${path}'`],
        stdout: "null",
        stderr: "null",
      }).spawn();
      try {
        const max = 1 << 20;
        for (let i = 0; i < 5; i++) {
          const bytes = await readRegularFile(path, { maxBytes: max });
          assert.ok(bytes.length <= max + 1, `read ${bytes.length} bytes, more than the cap`);
        }
      } finally {
        try {
          writer.kill("SIGKILL");
        } catch {
          // already done
        }
        await writer.status;
      }
    }),
});

Deno.test("readRegularFile() reads a whole regular file when no cap is given", async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, "a.bin");
    const data = new Uint8Array(3 * (1 << 20) + 7).map((_, i) => i % 251);
    await Deno.writeFile(path, data);
    assert.deepEqual(await readRegularFile(path), data);
    assert.equal((await readRegularFile(path, { maxBytes: 10 })).length, 11);
  });
});

Deno.test({
  name:
    "readTextFile() and readTextFileSync() read a regular file, refuse a FIFO, /dev/zero and too much",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await withTempDir(async (dir) => {
      const text = join(dir, "a.json");
      await Deno.writeTextFile(text, '{"a":"é"}');
      assert.equal(readTextFileSync(text), '{"a":"é"}');
      assert.equal(await readTextFile(text), '{"a":"é"}');
      const pipe = join(dir, "pipe");
      await new Deno.Command("mkfifo", { args: [pipe] }).output();
      const zero = join(dir, "zero");
      await Deno.symlink("/dev/zero", zero);
      for (const path of [pipe, zero]) {
        assert.throws(() => readTextFileSync(path), NotRegularFileError);
        await assert.rejects(() => readTextFile(path), NotRegularFileError);
      }
      assert.throws(() => readTextFileSync(text, 4), FileTooLargeError);
      await assert.rejects(() => readTextFile(text, 4), FileTooLargeError);
      assert.throws(() => readTextFileSync(join(dir, "nope")), Deno.errors.NotFound);
    });
  },
});
