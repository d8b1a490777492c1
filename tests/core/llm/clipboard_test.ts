import assert from "node:assert/strict";
import { join } from "node:path";
import {
  candidates,
  CLIPBOARD_FILE_ENV,
  commandClipboard,
  detectClipboard,
} from "../../../core/llm/clipboard.ts";

Deno.test("`detectClipboard()` uses the file named by MINOC_CLIPBOARD_FILE when it is set", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "sub", "clip.txt");
    const clip = await detectClipboard({ env: { [CLIPBOARD_FILE_ENV]: path } });
    assert.ok(clip);
    assert.equal(clip.name, `file ${path}`);
    assert.equal(await clip.read(), "");
    await clip.write("héllo\r\nworld");
    assert.equal(await Deno.readTextFile(path), "héllo\r\nworld");
    assert.equal(await clip.read(), "héllo\r\nworld");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("`detectClipboard()` picks the first program that exists for the system", async () => {
  const found = (names: string[]) => (p: string) => Promise.resolve(names.includes(p));
  const linux = { WAYLAND_DISPLAY: "wayland-0", DISPLAY: ":0" };
  assert.equal(
    (await detectClipboard({ env: linux, os: "linux", has: found(["wl-copy"]) }))?.name,
    "wl-copy",
  );
  assert.equal(
    (await detectClipboard({ env: linux, os: "linux", has: found(["xsel"]) }))?.name,
    "xsel",
  );
  assert.equal(await detectClipboard({ env: {}, os: "linux", has: found(["xclip"]) }), null);
  assert.equal(
    (await detectClipboard({ env: {}, os: "linux", has: found(["clip.exe"]) }))?.name,
    "clip.exe",
  );
  assert.equal(
    (await detectClipboard({ env: {}, os: "darwin", has: found(["pbcopy", "pbpaste"]) }))?.name,
    "pbcopy",
  );
  assert.equal(
    (await detectClipboard({ env: {}, os: "windows", has: found(["powershell.exe"]) }))?.name,
    "Set-Clipboard",
  );
  assert.deepEqual(candidates("linux", { DISPLAY: ":0" }).map((c) => c.name), [
    "xclip",
    "xsel",
    "clip.exe",
  ]);
});

Deno.test("`commandClipboard()` writes through a program's stdin and reads its output", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = join(dir, "c.txt");
    const clip = commandClipboard("tee", ["tee", file], ["cat", file]);
    await clip.write("line one\nline two\n");
    assert.equal(await Deno.readTextFile(file), "line one\nline two\n");
    assert.equal(await clip.read(), "line one\nline two\n");
    const writeOnly = commandClipboard("tee", ["tee", file]);
    await assert.rejects(() => writeOnly.read(), { message: "tee cannot read the clipboard" });
    const failing = commandClipboard("false", ["false"]);
    await assert.rejects(() => failing.write("x"), { message: "false exited with code 1" });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
