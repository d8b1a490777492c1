/**
 * Environment variables of Windows whose values are known well enough to
 * judge paths (`%SystemRoot%`, `$env:USERPROFILE`).
 *
 * @module
 */
import type { RuleContext } from "./types.ts";

/**
 * The value of a Windows environment variable, or undefined when unknown.
 *
 * @example
 * ```ts
 * windowsEnv("windir", { cwd: "C:\\p", home: "C:\\Users\\me" }); // "C:\\Windows"
 * ```
 */
export function windowsEnv(name: string, ctx: RuleContext): string | undefined {
  const home = ctx.home;
  const drive = /^[a-z]:/i.exec(home)?.[0] ?? "C:";
  switch (name.toLowerCase()) {
    case "systemroot":
    case "windir":
      return "C:\\Windows";
    case "systemdrive":
      return "C:";
    case "userprofile":
    case "home":
      return home;
    case "homedrive":
      return drive;
    case "homepath":
      return home.startsWith(drive) ? home.slice(drive.length) : home;
    case "programfiles":
    case "programw6432":
      return "C:\\Program Files";
    case "programfiles(x86)":
      return "C:\\Program Files (x86)";
    case "programdata":
    case "allusersprofile":
      return "C:\\ProgramData";
    case "appdata":
      return home + "\\AppData\\Roaming";
    case "localappdata":
      return home + "\\AppData\\Local";
    case "public":
      return "C:\\Users\\Public";
    case "cd":
    case "pwd":
      return ctx.cwd;
    default:
      return undefined;
  }
}
