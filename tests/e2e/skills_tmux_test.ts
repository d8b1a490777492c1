/**
 * End-to-end: the first run of a skill's script asks for approval in a real
 * terminal; "Allow always" stores a rule for that skill only, so its next
 * script run goes unasked while another skill's script asks again, and the
 * saved permissions name the first skill and not the second.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer } from "../support/server.ts";
import { minocEnv } from "../support/cli.ts";
import { hasTmux } from "../support/tmux.ts";
import { startChat } from "../support/tmux_chat.ts";

/** A reply that calls `run_skill_script`. */
const runScript = (name: string, script: string, args?: string) => ({
  text: "<tool_call>\n<run_skill_script>\n" +
    `<name>${name}</name>\n<script>${script}</script>\n` +
    (args === undefined ? "" : `<args>${args}</args>\n`) +
    "</run_skill_script>\n</tool_call>",
});

/** A python3 script that appends its arguments to `build/<file>` and prints its summary. */
const script = (file: string) =>
  `#!/usr/bin/env python3
import json
import os
import sys

build = os.environ["MINOC_BUILD_DIR"]
os.makedirs(build, exist_ok=True)
with open(os.path.join(build, "${file}"), "a") as f:
    f.write(" ".join(sys.argv[1:]) + "\\n")
print(json.dumps({"status": "ok", "artifacts": ["build/${file}"], "warnings": []}))
`;

/** Writes `skills/<name>/SKILL.md` and `skills/<name>/scripts/<file>` under `dir`. */
async function writeSkill(dir: string, name: string, file: string, body: string): Promise<void> {
  const root = join(dir, "skills", name);
  await Deno.mkdir(join(root, "scripts"), { recursive: true });
  await Deno.writeTextFile(
    join(root, "SKILL.md"),
    `---\nname: ${name}\ndescription: Test skill ${name} that writes build files.\n---\n# ${name}\n`,
  );
  await Deno.writeTextFile(join(root, "scripts", file), body);
}

const exists = (path: string) => Deno.stat(path).then(() => true, () => false);

Deno.test({
  name: "chat: Allow always for a skill's script covers that skill only and is saved by name",
  ignore: !hasTmux(),
  async fn() {
    const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_skills_tmux_" }));
    await Deno.writeTextFile(join(dir, "keep.txt"), "x\n"); // not empty: no interview
    await writeSkill(dir, "brand-kit", "make_notes.py", script("notes.txt"));
    await writeSkill(dir, "other-kit", "make_other.py", script("other.txt"));
    await using server = await startServer({
      replies: [
        runScript("brand-kit", "make_notes.py", '"Launch day"'),
        runScript("brand-kit", "make_notes.py", '["Recap"]'),
        runScript("other-kit", "make_other.py"),
        { text: "All done." },
      ],
    });
    const env = minocEnv({ cwd: dir });
    const t = await startChat(dir, ["--base-url", server.baseUrl, "--model", "m"], { env });
    const prompt = /Allow run_skill_script\?/g;
    try {
      await t.type("write the brand notes");
      await t.send("Enter");
      const first = await t.waitFor(/Allow run_skill_script\?[\s\S]*Deny with a reason/);
      assert.match(first, /name: brand-kit\n\s*script: make_notes\.py/);
      assert.match(first, /\$ python3 .*make_notes\.py/);
      if (Deno.build.os === "linux") {
        assert.match(first, /confined by Landlock \(ABI \d+\): writes only under build\//);
      }
      assert.equal(await exists(join(dir, "build", "notes.txt")), false, "ran before approval");
      await t.pick(/^Allow always/);
      const rules = await t.waitFor(/Rule to store[\s\S]*Allow once only, store nothing/);
      assert.match(rules, /❯ brand-kit {3}in this project/);
      await t.send("Enter");
      await t.waitFor(/Saved rule .*allow run_skill_script: brand-kit/);

      // brand-kit's second run goes unasked; other-kit's first run asks again.
      const second = await t.waitFor(
        /name: other-kit[\s\S]*Allow run_skill_script\?[\s\S]*Deny with a reason/,
      );
      assert.equal(second.match(prompt)?.length, 2, `asked once per skill:\n${second}`);
      assert.equal(
        await Deno.readTextFile(join(dir, "build", "notes.txt")),
        "Launch day\nRecap\n",
      );
      const reqs = () => server.requests.filter((q) => q.path.endsWith("/chat/completions"));
      assert.equal(reqs().length, 3);
      const last = (i: number) => reqs()[i].body.messages.at(-1).content as string;
      for (const i of [1, 2]) {
        assert.match(
          last(i),
          /^\[run_skill_script brand-kit\] Result:\n\[brand-kit scripts\/make_notes\.py: exit 0 in /,
        );
        assert.match(
          last(i),
          /Summary: \{"status":"ok","artifacts":\["build\/notes\.txt"\],"warnings":\[\]\}/,
        );
      }
      assert.match(last(1), /Files produced: build\/notes\.txt/);

      // Deny other-kit: Allow once, Allow always…, Deny.
      await t.pick(/^Deny$/);
      await t.waitFor(/All done\.[\s\S]*›/);
      assert.equal((await t.screen()).match(prompt)?.length, 2, "no third prompt");
      assert.equal(reqs().length, 4);
      assert.match(last(3), /^\[run_skill_script other-kit\] Error \(denied\):/);
      assert.equal(await exists(join(dir, "build", "other.txt")), false, "a denied script ran");
      await t.quit();

      const saved = await Deno.readTextFile(join(env.MINOC_HOME, "config", "permissions.json"));
      const list = (JSON.parse(saved).rules ?? []) as { tool: string; pattern: string }[];
      const skillRules = list.filter((r) => r.tool === "run_skill_script");
      assert.deepEqual(skillRules.map((r) => r.pattern), ["brand-kit"], saved);
      assert.doesNotMatch(saved, /other-kit/);
      assert.match(saved, new RegExp(JSON.stringify(dir).slice(1, -1)));
    } finally {
      await t.kill();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
