/**
 * .NET calls in PowerShell that do what a cmdlet does, turned into that
 * cmdlet so the rules judge them alike (PowerShell's counterpart of the
 * destructive calls in interpreter one-liners):
 *
 * - `[IO.Directory]::Delete(p, $true)`, `[Microsoft.VisualBasic.FileIO.FileSystem]::DeleteDirectory(p, …)`
 *   → `Remove-Item -Recurse -Force p`; `[IO.File]::Delete(p)` → `Remove-Item -Force p`;
 * - `[IO.File]::WriteAllText|WriteAllBytes|WriteAllLines|AppendAllText(p, …)` → `Set-Content p`;
 * - `[IO.File]::ReadAllText|ReadAllBytes|ReadAllLines|ReadLines|OpenRead|OpenText(p)` →
 *   `Get-Content p` (so a read of a secret file is judged as one);
 * - `[Diagnostics.Process]::Start(f, a)` → `Start-Process f -ArgumentList a`;
 * - `[Diagnostics.EventLog]::Delete(l)`, `…EventLogSession…ClearLog(l)`, `….Clear()` on an
 *   EventLog → `Clear-EventLog l`;
 * - `[Environment]::SetEnvironmentVariable(n, v[, scope])` → `$env:n = v` (so a variable
 *   some program runs is judged as the command it is), and for the `User` or `Machine` scope also
 *   `setx n v` (`/M`) in cmd;
 * - `[scriptblock]::Create('…')`, `$ExecutionContext.InvokeCommand.InvokeScript('…')` → the code.
 *
 * @module
 */
import type { ShellKind } from "./types.ts";

/** One equivalent command and its dialect. */
export interface DotnetCommand {
  text: string;
  shell: ShellKind;
}

const NS = "(?:System\\.)?";
const CALLS: [RegExp, (args: string[]) => DotnetCommand | DotnetCommand[] | null][] = [
  [
    new RegExp(`\\[${NS}IO\\.Directory\\]::Delete\\s*\\(`, "gi"),
    ([p]) => ps(`Remove-Item -Recurse -Force -LiteralPath ${p}`),
  ],
  [
    /\[Microsoft\.VisualBasic\.FileIO\.FileSystem\]::Delete(Directory|File)\s*\(/gi,
    ([p]) => ps(`Remove-Item -Recurse -Force -LiteralPath ${p}`),
  ],
  [
    new RegExp(`\\[${NS}IO\\.File\\]::Delete\\s*\\(`, "gi"),
    ([p]) => ps(`Remove-Item -Force -LiteralPath ${p}`),
  ],
  [
    new RegExp(
      `\\[${NS}IO\\.File\\]::(?:WriteAll(?:Text|Bytes|Lines)|AppendAll(?:Text|Lines))\\s*\\(`,
      "gi",
    ),
    ([p]) => ps(`Set-Content -LiteralPath ${p} -Value x`),
  ],
  [
    new RegExp(
      `\\[${NS}IO\\.File\\]::(?:ReadAll(?:Text|Bytes|Lines)|ReadLines|Open(?:Read|Text))\\s*\\(`,
      "gi",
    ),
    ([p]) => ps(`Get-Content -LiteralPath ${p}`),
  ],
  [
    new RegExp(`\\[${NS}Diagnostics\\.Process\\]::Start\\s*\\(`, "gi"),
    ([f, a]) => ps(`Start-Process ${f}${a ? ` -ArgumentList ${a}` : ""}`),
  ],
  [
    new RegExp(`\\[${NS}Diagnostics\\.EventLog\\]::Delete\\s*\\(`, "gi"),
    ([l]) => ps(`Clear-EventLog ${l}`),
  ],
  [/EventLogSession[\s\S]*?\.ClearLog\s*\(/gi, ([l]) => ps(`Clear-EventLog ${l}`)],
  [
    /\[scriptblock\]::Create\s*\(|\$ExecutionContext\.InvokeCommand\.(?:InvokeScript|NewScriptBlock)\s*\(/gi,
    ([code]) => /^(['"])[\s\S]*\1$/.test(code) ? ps(unquote(code)) : null,
  ],
  [
    new RegExp(`\\[${NS}Environment\\]::SetEnvironmentVariable\\s*\\(`, "gi"),
    ([n, v, scope]) => {
      if (v === undefined) return null;
      const name = unquote(n);
      const set = ps(`$env:${name} = ${v}`);
      if (/machine/i.test(scope ?? "")) {
        return [set, { text: `setx ${name} ${v} /M`, shell: "cmd" }];
      }
      if (/user/i.test(scope ?? "")) return [set, { text: `setx ${name} ${v}`, shell: "cmd" }];
      return set;
    },
  ],
];

/** The cmdlets (or cmd commands) the .NET calls in `text` amount to. */
export function dotnetCommands(text: string): DotnetCommand[] {
  const out: DotnetCommand[] = [];
  for (const [re, make] of CALLS) {
    for (const m of text.matchAll(re)) {
      const args = callArguments(text, m.index! + m[0].length);
      if (args.length === 0 || args[0] === "") continue;
      const c = make(args);
      if (c) out.push(...[c].flat());
    }
  }
  if (/New-Object\s+(?:System\.)?Diagnostics\.EventLog[\s\S]*?\.Clear\s*\(\s*\)/i.test(text)) {
    out.push(ps("Clear-EventLog Application"));
  }
  return out;
}

function ps(text: string): DotnetCommand {
  return { text, shell: "powershell" };
}

function unquote(s: string): string {
  return s.replace(/^(['"])(.*)\1$/, "$2");
}

/** The arguments of a call whose `(` ends at `at`, split on top-level commas. */
function callArguments(text: string, at: number): string[] {
  const args: string[] = [];
  let depth = 0;
  let quote = "";
  let start = at;
  for (let i = at; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = "";
    } else if (c === "'" || c === '"') quote = c;
    else if (c === "(" || c === "[" || c === "{") depth++;
    else if ((c === ")" || c === "]" || c === "}") && depth > 0) depth--;
    else if (depth === 0 && (c === "," || c === ")")) {
      args.push(text.slice(start, i).trim());
      if (c === ")") return args;
      start = i + 1;
    }
  }
  return [];
}
