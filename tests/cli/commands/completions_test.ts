import assert from "node:assert/strict";
import { Command, Option } from "@commander-js/extra-typings";
import { completionScript, describeCommand } from "../../../cli/commands/completions.ts";
import { runMinoc } from "../../support/cli.ts";

function has(shell: string): boolean {
  try {
    return new Deno.Command(shell, { args: ["-c", "exit 0"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
}

async function sh(shell: string, script: string): Promise<string> {
  const out = await new Deno.Command(shell, {
    args: ["-c", script],
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  const text = new TextDecoder().decode(out.stdout);
  assert.ok(out.success, `${shell} failed: ${new TextDecoder().decode(out.stderr)}`);
  return text;
}

function tree(): Command {
  const root = new Command("tool").option("--model <name>", "model name").option("--quiet", "q");
  root.addCommand(
    new Command("config").description("configure").addCommand(
      new Command("show").description("show it").option("--json", "as JSON"),
    ),
  );
  root.addCommand(
    new Command("mode").addOption(new Option("--level <n>", "level").choices(["low", "high"])),
  );
  return root as unknown as Command;
}

/** The script for `tree()` in a temp file, removed when disposed. */
async function scriptFile(shell: "bash" | "zsh" | "fish") {
  const path = await Deno.makeTempFile({ prefix: "minoc_compl_", suffix: `.${shell}` });
  await Deno.writeTextFile(path, completionScript(shell, describeCommand(tree())));
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path) };
}

Deno.test("`describeCommand()` lists subcommands, options and choices with their paths", () => {
  const spec = describeCommand(tree());
  assert.equal(spec.path, "tool");
  assert.deepEqual(spec.commands.map((c) => c.path), ["tool config", "tool mode"]);
  assert.deepEqual(spec.commands[0].commands[0].options.map((o) => o.flag), ["--json", "--help"]);
  const model = spec.options.find((o) => o.flag === "--model")!;
  assert.equal(model.takesValue, true);
  assert.deepEqual(spec.commands[1].options[0].choices, ["low", "high"]);
});

Deno.test({
  name: "`completionScript()` for bash completes commands, subcommands, options and choices",
  ignore: !has("bash"),
  async fn() {
    await using script = await scriptFile("bash");
    const file = script.path;
    const complete = (...words: string[]) =>
      sh(
        "bash",
        `source '${file}'; COMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")}); ` +
          `COMP_CWORD=${words.length - 1}; _tool_completions; echo "\${COMPREPLY[*]}"`,
      );
    assert.equal((await complete("tool", "")).trim(), "config mode --model --quiet --help");
    assert.equal((await complete("tool", "--model", "x", "co")).trim(), "config");
    assert.equal((await complete("tool", "config", "")).trim(), "show --help");
    assert.equal((await complete("tool", "config", "show", "--j")).trim(), "--json");
    assert.equal((await complete("tool", "mode", "--level", "")).trim(), "low high");
  },
});

Deno.test({
  name: "`completionScript()` for fish completes commands and options",
  ignore: !has("fish"),
  async fn() {
    await using script = await scriptFile("fish");
    const file = script.path;
    const out = await sh(
      "fish",
      `source '${file}'; complete -C 'tool co'; complete -C 'tool config '; complete -C 'tool mode --level '`,
    );
    assert.match(out, /^config\tconfigure$/m);
    assert.match(out, /^show\tshow it$/m);
    assert.match(out, /^low\tlevel$/m);
    assert.match(out, /^high\tlevel$/m);
  },
});

Deno.test({
  name: "`completionScript()` for zsh is valid zsh that offers the subcommands",
  ignore: !has("zsh"),
  async fn() {
    await using script = await scriptFile("zsh");
    const file = script.path;
    await sh("zsh", `zsh -n '${file}'`);
    // _describe and compdef belong to the completion system; stand-ins print what is offered.
    const out = await sh(
      "zsh",
      `compdef() {}; _describe() { local a=\${@[-1]}; print -l -- \${(P)a} }; source '${file}'; ` +
        `words=(tool config ''); CURRENT=3; _tool`,
    );
    assert.match(out, /^show:show it$/m);
    assert.match(out, /^--help:show help$/m);
  },
});

Deno.test("minoc completions prints scripts that name every command of the real tree", async () => {
  const dir = await Deno.makeTempDir({ prefix: "minoc_compl_" });
  try {
    for (const shell of ["bash", "zsh", "fish"]) {
      const r = await runMinoc(["completions", shell], { cwd: dir });
      assert.equal(r.code, 0, r.stderr);
      for (const name of ["run", "config", "history", "completions", "--model", "--quiet"]) {
        const word = shell === "fish" ? name.replace(/^--/, "-l ") : name;
        assert.ok(r.stdout.includes(word), `${shell} script mentions ${word}`);
      }
      assert.match(r.stdout, /minoc config validate|config.*validate/, "and subcommands");
    }
    const bad = await runMinoc(["completions", "tcsh"], { cwd: dir });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /Allowed choices are bash, zsh, fish/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
