/**
 * Commands that can run code, delete or write through their arguments:
 * `find -exec/-delete`, `xargs`, `env`/`timeout`/`nice`/`sudo` and other
 * wrappers, `sed -i`, `awk` with `system()`, interpreters with `-c`/`-e` or
 * a remote script, `git -c`, `curl -o`, `docker run -v` and so on.
 *
 * "Allow always" never proposes a wildcard for them, and a wildcard rule
 * (`find *`) does not cover such a use unless its own words name it
 * (`find * -delete`): the dangerous flags are pinned out.
 *
 * @example
 * ```ts
 * dangerousUses(["find", "~", "-exec", "rm", "{}", "+"]); // ["find -exec"]
 * wildcardCovers("find *", ["find", ".", "-delete"]); // false
 * ```
 * @module
 */
import { codeRunningVariable } from "./env_danger.ts";

/** Programs that run the command given in their arguments. */
const WRAPPERS = new Set([
  "xargs",
  "env",
  "timeout",
  "nice",
  "nohup",
  "ionice",
  "stdbuf",
  "chrt",
  "taskset",
  "setsid",
  "time",
  "exec",
  "eval",
  "sudo",
  "doas",
  "su",
  "runuser",
  "pkexec",
  "chroot",
  "unshare",
  "nsenter",
  "flock",
  "watch",
  "strace",
  "ltrace",
  "gdb",
  "script",
  "parallel",
  "busybox",
  "caffeinate",
  "systemd-run",
  "firejail",
  "bwrap",
  "fakeroot",
  "torsocks",
  "proxychains",
  "proxychains4",
  "xvfb-run",
  "dbus-run-session",
  "start",
  "call",
  "cmd",
  "invoke-expression",
  "iex",
  "start-process",
  "invoke-command",
  "wsl",
  "runas",
  "npx",
  "bunx",
  "pnpx",
  "uvx",
]);

/** Interpreters and the flags that make them run code given on the command line. */
const INLINE: Record<string, RegExp> = {
  python: /^-[A-Za-z]*c/,
  node: /^(-[A-Za-z]*[epr]|--eval|--print|--require|--import|--loader|--experimental-loader)/,
  deno:
    /^(eval|x|install|repl|-e|--eval|-A|--allow-all|--allow-(run|ffi|write|env|sys|import)(=.*)?)$/,
  bun: /^(-e|--eval|-p|--print|x|--preload(=.*)?|-r)$/,
  ruby: /^-[A-Za-z]*[erI]/,
  perl: /^-[A-Za-z]*[eEiIdM]/,
  php: /^-[A-Za-z]*[rBRE]/,
  lua: /^-[A-Za-z]*[el]/,
  rscript: /^-e/,
  shell: /^-[A-Za-z]*c/,
  pwsh: /^-(c|command|e|ec|encodedcommand|f|file)$/i,
  osascript: /^-e/,
  vim: /^(-c|--cmd|-S|\+)/,
};

const FAMILY: Record<string, string> = {
  python: "python",
  python2: "python",
  python3: "python",
  pypy: "python",
  pypy3: "python",
  node: "node",
  nodejs: "node",
  deno: "deno",
  bun: "bun",
  ruby: "ruby",
  perl: "perl",
  php: "php",
  lua: "lua",
  rscript: "rscript",
  bash: "shell",
  sh: "shell",
  zsh: "shell",
  dash: "shell",
  ksh: "shell",
  fish: "shell",
  csh: "shell",
  tcsh: "shell",
  pwsh: "pwsh",
  powershell: "pwsh",
  osascript: "osascript",
  vim: "vim",
  vi: "vim",
  nvim: "vim",
  ex: "vim",
  emacs: "vim",
};

const FIND_ACTIONS = /^-(exec|execdir|ok|okdir|delete|fprint|fprint0|fprintf|fls)$/;
const GIT_GLOBAL =
  /^(-c|--config-env.*|--exec-path.*|--upload-pack.*|--receive-pack.*|-u|--template.*)$/;
const GIT_SUBS_RUNNING = /^(config|submodule|bisect|filter-branch|filter-repo|difftool|mergetool)$/;
const GIT_RUN_FLAGS = /^(-x|--exec.*|--extcmd.*|-t|--tool.*|--upload-pack.*|-u|--receive-pack.*)$/;
const CURL_WRITES =
  /^(-[A-Za-z]*[oOKT]|--output.*|--remote-name.*|--config|--upload-file.*|--output-dir.*|-d@|--data.*@|-F|--form.*)$/;
const WGET_WRITES =
  /^(-[A-Za-z]*[oOPi]|--output.*|--directory-prefix.*|--post-file.*|--input-file.*|-e|--execute.*)$/;
const DOCKER_ESCAPES =
  /^(-v|--volume.*|--mount.*|--privileged|--pid.*|--cap-add.*|--device.*|--security-opt.*|--userns.*|--network=host|--net=host|-u|--user.*)$/;

/**
 * The dangerous uses in one simple command (its words, assignments first),
 * e.g. `["find -exec"]`; empty when it has none.
 */
export function dangerousUses(words: readonly string[]): string[] {
  const out: string[] = [];
  let k = 0;
  for (; k < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[k]); k++) {
    const name = words[k].slice(0, words[k].indexOf("="));
    if (codeRunningVariable(name)) out.push(`sets ${name}`);
  }
  if (k >= words.length) return out;
  const name = words[k].replace(/^.*[\\/]/, "").replace(/\.(exe|cmd|bat)$/i, "").toLowerCase();
  const args = words.slice(k + 1);
  const base = name.replace(/[0-9.]+$/, "") || name;
  out.push(...byProgram(name, base, args));
  return [...new Set(out)].sort();
}

function byProgram(name: string, base: string, args: readonly string[]): string[] {
  const has = (re: RegExp) => args.filter((a) => re.test(a)).map((a) => `${name} ${flagOf(a)}`);
  if (WRAPPERS.has(name)) return operandsOf(args) ? [`${name} runs a command`] : [];
  if (name === "find") return has(FIND_ACTIONS);
  if (name === "sed" || name === "gsed") return sedUses(name, args);
  if (/^[gmn]?awk$/.test(name)) return awkUses(name, args);
  if (name === "git") return gitUses(args);
  if (name === "curl") {
    return has(CURL_WRITES).concat(args.some((a) => a.startsWith("@")) ? [`${name} @file`] : []);
  }
  if (name === "wget") return has(WGET_WRITES);
  if ((name === "docker" || name === "podman") && /^(run|create|exec)$/.test(args[0] ?? "")) {
    return has(DOCKER_ESCAPES).concat(args[0] === "exec" ? [`${name} exec`] : []);
  }
  if (name === "ssh") {
    return operandsOf(args) > 1 || args.some((a) => a.startsWith("-o"))
      ? ["ssh runs a command"]
      : [];
  }
  if (/^(rsync|scp|sftp)$/.test(name)) return has(/^(-e|--rsh.*|--rsync-path.*|-o.*|-S)$/);
  const family = FAMILY[name] ?? FAMILY[base];
  if (family === undefined) return [];
  const uses = has(INLINE[family]);
  if (args.some((a) => /^(https?|ftp|data|jsr|npm):/i.test(a))) uses.push(`${name} remote script`);
  if (
    (family === "shell" || family === "python" || family === "node") && args.length > 0 &&
    args.every((a) => a.startsWith("-"))
  ) {
    uses.push(`${name} reads code from stdin`);
  }
  return uses;
}

/** How many words are not options. */
function operandsOf(args: readonly string[]): number {
  return args.filter((a) => !a.startsWith("-") && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(a)).length;
}

function flagOf(arg: string): string {
  const eq = arg.indexOf("=");
  return eq > 0 ? arg.slice(0, eq) : arg.length > 12 ? arg.slice(0, 12) : arg;
}

function sedUses(name: string, args: readonly string[]): string[] {
  const out: string[] = [];
  if (args.some((a) => /^(-[A-Za-z]*i|--in-place)/.test(a))) out.push(`${name} -i`);
  if (args.some((a) => /^(-[A-Za-z]*f|--file)/.test(a))) out.push(`${name} -f`);
  const script = args.filter((a) => !a.startsWith("-")).join("\n");
  const commands = /(^|[;{}\n])\s*[0-9,$/!]*\s*[ewWrR](\s|$)/;
  const flags = /\/[gpiImM0-9]*e[gpiImM0-9]*\s*($|[;}\n])|\/[gpiImM0-9]*w\s*\S/;
  if (commands.test(script) || flags.test(script)) {
    out.push(`${name} runs or writes from its script`);
  }
  return out;
}

function awkUses(name: string, args: readonly string[]): string[] {
  if (args.some((a) => /^(-f|--file|-[A-Za-z]*f)/.test(a))) return [`${name} -f`];
  const program = args.find((a) => !a.startsWith("-")) ?? "";
  return /system|\||>|getline|ENVIRON/.test(program)
    ? [`${name} runs or writes from its program`]
    : [];
}

function gitUses(args: readonly string[]): string[] {
  const out: string[] = [];
  let i = 0;
  for (; i < args.length && args[i].startsWith("-"); i++) {
    if (GIT_GLOBAL.test(args[i])) out.push(`git ${flagOf(args[i])}`);
    if (args[i] === "-C" || args[i] === "-c") i++;
  }
  const sub = args[i];
  if (sub && GIT_SUBS_RUNNING.test(sub)) out.push(`git ${sub}`);
  for (const a of args.slice(i + 1)) if (GIT_RUN_FLAGS.test(a)) out.push(`git ${sub} ${flagOf(a)}`);
  return out;
}

/**
 * Whether a rule pattern with wildcards may cover `words`: always when the
 * command has no dangerous use; otherwise only when the pattern's own
 * literal words name every one of them.
 */
export function wildcardCovers(pattern: readonly string[], words: readonly string[]): boolean {
  if (!pattern.some((w) => w.includes("*"))) return true;
  const uses = dangerousUses(words);
  if (uses.length === 0) return true;
  const pinned = new Set(dangerousUses(pattern.filter((w) => !w.includes("*"))));
  return uses.every((u) => pinned.has(u));
}
