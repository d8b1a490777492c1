/**
 * Environment variables that make a shell, the dynamic loader, an
 * interpreter or a tool run code of someone's choosing (`BASH_ENV`,
 * `LD_PRELOAD`, `NODE_OPTIONS`, `GIT_SSH_COMMAND`, `PATH` …). Setting one
 * turns every later harmless command into a way to run a payload.
 *
 * @example
 * ```ts
 * codeRunningVariable("LD_PRELOAD"); // "the dynamic loader loads this library into every program"
 * codeRunningVariable("NODE_ENV"); // null
 * ```
 * @module
 */

const SHELL = "shells run code from it";
const LOADER = "the dynamic loader loads code from it into every program";
const SEARCH = "it decides which program or module runs";
const INTERP = "the interpreter runs code or options from it";
const TOOL = "a tool runs the command it names";
const GIT = "git runs commands or reads configuration from it";

const EXACT: Record<string, string> = {
  BASH_ENV: SHELL,
  ENV: SHELL,
  PROMPT_COMMAND: SHELL,
  PS0: SHELL,
  PS1: SHELL,
  PS2: SHELL,
  PS4: SHELL,
  SHELLOPTS: SHELL,
  BASHOPTS: SHELL,
  IFS: SHELL,
  ZDOTDIR: SHELL,
  PROMPT: SHELL,
  COMSPEC: SHELL,
  SHELL: TOOL,
  PATH: SEARCH,
  PATHEXT: SEARCH,
  CDPATH: SEARCH,
  PSMODULEPATH: SEARCH,
  NODE_OPTIONS: INTERP,
  NODE_PATH: SEARCH,
  NODE_REPL_EXTERNAL_MODULE: INTERP,
  PYTHONSTARTUP: INTERP,
  PYTHONPATH: SEARCH,
  PYTHONHOME: SEARCH,
  PYTHONUSERBASE: SEARCH,
  PYTHONINSPECT: INTERP,
  PERL5OPT: INTERP,
  PERL5LIB: SEARCH,
  PERLLIB: SEARCH,
  PERL5DB: INTERP,
  RUBYOPT: INTERP,
  RUBYLIB: SEARCH,
  JAVA_TOOL_OPTIONS: INTERP,
  _JAVA_OPTIONS: INTERP,
  JDK_JAVA_OPTIONS: INTERP,
  CLASSPATH: SEARCH,
  DOTNET_STARTUP_HOOKS: INTERP,
  CORECLR_PROFILER: LOADER,
  CORECLR_PROFILER_PATH: LOADER,
  COR_PROFILER: LOADER,
  COR_PROFILER_PATH: LOADER,
  OPENSSL_CONF: LOADER,
  OPENSSL_ENGINES: LOADER,
  GCONV_PATH: LOADER,
  LOCPATH: LOADER,
  EDITOR: TOOL,
  VISUAL: TOOL,
  PAGER: TOOL,
  MANPAGER: TOOL,
  LESSOPEN: TOOL,
  LESSCLOSE: TOOL,
  BROWSER: TOOL,
  SSH_ASKPASS: TOOL,
  SUDO_ASKPASS: TOOL,
  RUSTC_WRAPPER: TOOL,
  RUSTC: TOOL,
  CC: TOOL,
  CXX: TOOL,
  MAKEFLAGS: TOOL,
  MAKESHELL: TOOL,
  NPM_CONFIG_SCRIPT_SHELL: TOOL,
  NPM_CONFIG_NODE_OPTIONS: INTERP,
  DENO_DIR: SEARCH,
  HOME: SEARCH,
  XDG_CONFIG_HOME: SEARCH,
};

const FAMILIES: [RegExp, string][] = [
  [/^LD_/, LOADER],
  [/^DYLD_/, LOADER],
  [/^BASH_FUNC_/, SHELL],
  [/^GIT_(SSH|SSH_COMMAND|ASKPASS|EDITOR|SEQUENCE_EDITOR|PAGER|EXTERNAL_DIFF|PROXY_COMMAND)$/, GIT],
  [/^GIT_(EXEC_PATH|TEMPLATE_DIR|DIR|WORK_TREE|CEILING_DIRECTORIES)$/, GIT],
  [/^GIT_CONFIG/, GIT],
  [/^NPM_CONFIG_/, TOOL],
  [/^YARN_/, TOOL],
];

/**
 * Why setting `name` lets later commands run code, or null for an ordinary
 * variable. Names compare case-insensitively (Windows).
 */
export function codeRunningVariable(name: string): string | null {
  const n = name.trim().toUpperCase();
  if (Object.hasOwn(EXACT, n)) return EXACT[n];
  for (const [re, why] of FAMILIES) if (re.test(n)) return why;
  return null;
}
