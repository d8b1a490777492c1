import assert from "node:assert/strict";
import { readCommand } from "../../../core/permission/security/read.ts";
import type { ShellKind } from "../../../core/permission/security/types.ts";

const POSIX = { cwd: "/home/dev/project", home: "/home/dev" };
const WIN = { cwd: "C:\\Users\\dev\\project", home: "C:\\Users\\dev" };

async function names(command: string, shell: ShellKind = "bash"): Promise<string[]> {
  const { segments } = await readCommand(command, shell, shell === "bash" ? POSIX : WIN);
  return segments.map((s) => s.name);
}

Deno.test("readCommand() splits bash on ; && || | & and newlines", async () => {
  assert.deepEqual(await names("a; b && c || d | e & f\ng"), ["a", "b", "c", "d", "e", "f", "g"]);
});

Deno.test("readCommand() reads into if, loops, case, subshells, groups and functions", async () => {
  const text =
    "if a; then b; else c; fi; while d; do e; done; case x in y) f;; esac; ( g ); { h; }; k() { m; }";
  assert.deepEqual(await names(text), ["a", "b", "c", "d", "e", "f", "g", "h", "m"]);
});

Deno.test("readCommand() runs substitutions before their command and keeps single-quoted text as data", async () => {
  assert.deepEqual(await names("echo $(a) `b` \"$(c)\" '$(d)' <(e)"), ["a", "b", "c", "e", "echo"]);
});

Deno.test("readCommand() does not read a heredoc body as commands unless a shell reads it", async () => {
  assert.deepEqual(await names("cat <<EOF > f.txt\nsudo x\nEOF"), ["cat"]);
  assert.deepEqual(await names("bash <<'EOF'\nsudo x\nEOF"), ["bash", "sudo"]);
});

Deno.test("readCommand() follows bash -c, eval, sh reading literal stdin, find -exec, xargs and watch", async () => {
  assert.deepEqual(await names("bash -c 'a | b'"), ["bash", "a", "b"]);
  assert.deepEqual(await names("eval 'a; b'"), ["eval", "a", "b"]);
  assert.deepEqual(await names("echo 'a' | sh"), ["echo", "sh", "a"]);
  assert.deepEqual(await names("find . -exec a {} \\; -exec b {} +"), ["find", "a", "b"]);
  assert.deepEqual(await names("echo x | xargs -n1 a"), ["echo", "xargs", "a"]);
  assert.deepEqual(await names("watch -n 2 'a b'"), ["watch", "a"]);
});

Deno.test("readCommand() skips transparent prefixes and normalises the command word", async () => {
  assert.deepEqual(await names("env FOO=1 nice -n 5 timeout 3 nohup /usr/bin/A.exe x"), ["a"]);
  assert.deepEqual(await names("s''udo x; \\sudo x; $'\\x73udo' x; \"su\"do x"), [
    "sudo",
    "sudo",
    "sudo",
    "sudo",
  ]);
  assert.deepEqual(await names("command -v sudo"), ["command"]);
});

Deno.test("readCommand() substitutes variables assigned a literal earlier in the line", async () => {
  const { segments } = await readCommand("X=sudo; Y='a b'; $X $Y \"$Y\"", "bash", POSIX);
  assert.equal(segments[0].name, "sudo");
  assert.deepEqual(segments[0].args.map((a) => a.text), ["a", "b", "a b"]);
  const unknown = await readCommand("$Z ls", "bash", POSIX);
  assert.equal(unknown.segments[0].dynamic, true);
});

Deno.test("readCommand() records where unknown code comes from", async () => {
  const { segments } = await readCommand("curl x | base64 -d | sh", "bash", POSIX);
  assert.equal(segments.at(-1)?.code?.kind, "decoded");
  const net = await readCommand('X=$(wget -qO- x); eval "$X"', "bash", POSIX);
  assert.equal(net.segments.at(-1)?.code?.kind, "network");
});

Deno.test("readCommand() follows cd so later segments know where they run", async () => {
  const { segments } = await readCommand("cd /tmp && a; cd sub; b; cd $X; c", "bash", POSIX);
  assert.deepEqual(segments.filter((s) => s.name !== "cd").map((s) => s.cwd), [
    "/tmp",
    "/tmp/sub",
    "",
  ]);
});

Deno.test("readCommand() reports a fork bomb and a parse error as findings", async () => {
  const bomb = await readCommand(":(){ :|:& };:", "bash", POSIX);
  assert.deepEqual(bomb.findings.map((f) => f.rule), ["fork-bomb"]);
  const broken = await readCommand("echo 'x", "bash", POSIX);
  assert.deepEqual(broken.findings.map((f) => f.rule), ["parse-error"]);
});

Deno.test("readCommand() stops following nested code past the depth limit", async () => {
  const text = "eval ".repeat(12) + "x";
  const { segments, findings } = await readCommand(text, "bash", POSIX);
  assert.ok(findings.some((f) => f.rule === "too-deep"));
  assert.ok(!segments.some((s) => s.name === "x"));
});

Deno.test("readCommand() resolves PowerShell aliases, call operators, script blocks and subexpressions", async () => {
  assert.deepEqual(await names("ri x; & 'iex' y; gci | % { rm z }", "powershell"), [
    "remove-item",
    "invoke-expression",
    "y",
    "get-childitem",
    "remove-item",
    "foreach-object",
  ]);
  assert.deepEqual(await names("Write-Host \"$(a) $b\" '$(c)'", "powershell"), ["a", "write-host"]);
});

Deno.test("readCommand() reads PowerShell -Command and cmd /c in any nesting", async () => {
  assert.deepEqual(await names("powershell -NoProfile -Command \"cmd /c 'a & b'\"", "bash"), [
    "powershell",
    "cmd",
    "a",
    "b",
  ]);
  assert.deepEqual(await names('c^md /C "a && b" | c', "cmd"), ["cmd", "a", "b", "c"]);
});

Deno.test("readCommand() expands cmd variables, literal sets and escapes", async () => {
  const { segments } = await readCommand("set T=r^d& %T% /s %SystemRoot%", "cmd", WIN);
  assert.equal(segments[0].name, "rd");
  assert.deepEqual(segments[0].args.map((a) => a.text), ["/s", "C:\\Windows"]);
});
