/**
 * Normalising the command word so that spelling tricks do not hide a command:
 * directories (`/usr/bin/sudo`), extensions (`sudo.exe`), case, PowerShell
 * module qualifiers and aliases.
 *
 * @module
 */
import type { ShellKind } from "./types.ts";

/** PowerShell's built-in aliases that matter to the rules, lower case. */
const POWERSHELL_ALIASES: Record<string, string> = {
  rm: "remove-item",
  ri: "remove-item",
  del: "remove-item",
  erase: "remove-item",
  rd: "remove-item",
  rmdir: "remove-item",
  iex: "invoke-expression",
  iwr: "invoke-webrequest",
  irm: "invoke-restmethod",
  curl: "invoke-webrequest",
  wget: "invoke-webrequest",
  saps: "start-process",
  start: "start-process",
  spps: "stop-process",
  kill: "stop-process",
  sasv: "start-service",
  spsv: "stop-service",
  ni: "new-item",
  md: "new-item",
  sp: "set-itemproperty",
  rp: "remove-itemproperty",
  cpi: "copy-item",
  copy: "copy-item",
  cp: "copy-item",
  mi: "move-item",
  move: "move-item",
  mv: "move-item",
  ac: "add-content",
  clc: "clear-content",
  icm: "invoke-command",
  cd: "set-location",
  chdir: "set-location",
  sl: "set-location",
  pushd: "push-location",
  ls: "get-childitem",
  dir: "get-childitem",
  gci: "get-childitem",
  cat: "get-content",
  gc: "get-content",
  type: "get-content",
  echo: "write-output",
  write: "write-output",
  sls: "select-string",
  ft: "format-table",
  fl: "format-list",
  "%": "foreach-object",
  foreach: "foreach-object",
  "?": "where-object",
  where: "where-object",
  sajb: "start-job",
  ipmo: "import-module",
  iwmi: "invoke-wmimethod",
};

const EXTENSIONS = /\.(exe|com|bat|cmd)$/;

/**
 * The command word as rules see it.
 *
 * @example
 * ```ts
 * normaliseName("/usr/bin/SUDO.exe", "bash"); // "sudo"
 * normaliseName("Microsoft.PowerShell.Management\\Remove-Item", "powershell"); // "remove-item"
 * normaliseName("ri", "powershell"); // "remove-item"
 * ```
 */
export function normaliseName(raw: string, shell: ShellKind): string {
  let name = raw.trim();
  const cut = Math.max(name.lastIndexOf("/"), name.lastIndexOf("\\"));
  if (cut >= 0 && cut < name.length - 1) name = name.slice(cut + 1);
  name = name.toLowerCase().replace(EXTENSIONS, "");
  if (shell === "powershell") name = POWERSHELL_ALIASES[name] ?? name;
  return name;
}

/** Shells whose `-c` argument (or standard input) is bash-like code. */
export const POSIX_SHELLS = new Set([
  "sh",
  "bash",
  "zsh",
  "dash",
  "ksh",
  "ash",
  "mksh",
  "fish",
  "csh",
  "tcsh",
  "busybox",
]);

/** PowerShell executables. */
export const POWERSHELLS = new Set(["powershell", "pwsh", "powershell_ise"]);

/** Script interpreters that run code given inline or on standard input. */
export function isInterpreter(name: string): boolean {
  return /^(python[0-9.]*|py|node|nodejs|deno|bun|perl[0-9.]*|ruby|php[0-9.]*|lua|osascript|tclsh|wish|Rscript)$/i
    .test(name);
}
