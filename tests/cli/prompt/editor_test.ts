import assert from "node:assert/strict";
import { join } from "node:path";
import { editorCommand, editText } from "../../../cli/prompt/editor.ts";

Deno.test("editorCommand() prefers VISUAL, splits words and keeps quoted ones together", () => {
  const env = (vars: Record<string, string>) => (name: string) => vars[name];
  assert.deepEqual(editorCommand(env({ VISUAL: "code --wait", EDITOR: "nano" })), [
    "code",
    "--wait",
  ]);
  assert.deepEqual(editorCommand(env({ EDITOR: '"/opt/my editor/ed" -n' })), [
    "/opt/my editor/ed",
    "-n",
  ]);
  assert.deepEqual(editorCommand(env({})), ["vi"]);
});

Deno.test("editText() returns what a real editor process saved and removes its file", async () => {
  const dir = await Deno.makeTempDir();
  const old = { visual: Deno.env.get("VISUAL"), editor: Deno.env.get("EDITOR") };
  try {
    const script = join(dir, "ed.sh");
    await Deno.writeTextFile(
      script,
      `#!/bin/sh\necho "$1" > "${dir}/seen"\nsed -i 's/a/b/' "$1"\n`,
    );
    await Deno.chmod(script, 0o755);
    Deno.env.delete("VISUAL");
    Deno.env.set("EDITOR", script);
    assert.equal(await editText("a\n", ".xml"), "b\n");
    const seen = (await Deno.readTextFile(join(dir, "seen"))).trim();
    assert.match(seen, /edit\.xml$/);
    await assert.rejects(Deno.stat(seen));
    Deno.env.set("EDITOR", join(dir, "missing-editor"));
    await assert.rejects(editText("x", ".txt"), /could not start/);
  } finally {
    if (old.visual === undefined) Deno.env.delete("VISUAL");
    else Deno.env.set("VISUAL", old.visual);
    if (old.editor === undefined) Deno.env.delete("EDITOR");
    else Deno.env.set("EDITOR", old.editor);
    await Deno.remove(dir, { recursive: true });
  }
});
