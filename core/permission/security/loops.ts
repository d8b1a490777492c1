/**
 * Endless loops that keep starting processes (the loop form of a fork
 * bomb), in each shell:
 *
 * - bash: `while true|:|[ 1 ]|((1))`, `until false`, `for ((;;))` whose body
 *   puts something in the background (`&`) or starts a shell;
 * - PowerShell: `while ($true|1)`, `for (;;)`, `do { } while ($true)` whose
 *   body calls `Start-Process`, `Start-Job`, `Start-ThreadJob` or `start`;
 * - cmd: `for /l %i in (a,0,b)` (a step of 0 never ends) running `start`,
 *   and a `:label … start … goto label` loop.
 *
 * A loop that runs its commands one after another (`while true; do make;
 * sleep 5; done`) is not one.
 *
 * @module
 */
import type { ShellKind } from "./types.ts";

const SHELL_START = /(^|[;&|({\s])(bash|sh|zsh|dash|ksh|\$0|\$SHELL|exec\s+\$0)(\s|;|$)/;
const PS_START = /\b(start-process|saps|start-job|start-threadjob)\b|(?:^|[;{(|]\s*)start\s/i;
/** cmd's `start` as a command (not `npm start`). */
const CMD_START = /(?:^|\bdo\s+|[&(|]\s*)start\s/i;

/** Why `text` is an endless loop starting processes, or null. */
export function spawnLoop(text: string, shell: ShellKind): string | null {
  if (shell === "bash") return bashLoop(text);
  if (shell === "powershell") return powershellLoop(text);
  return cmdLoop(text);
}

function bashLoop(text: string): string | null {
  const head =
    /\b(?:while\s+(?:true|:|\[\s*1\s*\]|\(\(\s*1\s*\)\))|until\s+false|for\s*\(\(\s*;\s*;\s*\)\))\s*;?\s*do\b/g;
  for (const m of text.matchAll(head)) {
    const body = text.slice(m.index! + m[0].length).replace(/\bdone\b[\s\S]*$/, "");
    const background = /&/.test(body.replace(/&&|&>|>&|\|&/g, ""));
    if (background || SHELL_START.test(body)) {
      return "An endless loop keeps starting processes (a fork bomb)";
    }
  }
  return null;
}

function powershellLoop(text: string): string | null {
  const forever = /\b(?:while\s*\(\s*(?:\$true|1)\s*\)|for\s*\(\s*;\s*;\s*\))\s*\{/gi;
  for (const m of text.matchAll(forever)) {
    if (PS_START.test(text.slice(m.index! + m[0].length))) {
      return "An endless loop keeps starting processes (a fork bomb)";
    }
  }
  const doLoop =
    /\bdo\s*\{([\s\S]*?)\}\s*(?:while\s*\(\s*(?:\$true|1)\s*\)|until\s*\(\s*\$false\s*\))/i
      .exec(text);
  if (doLoop && PS_START.test(doLoop[1])) {
    return "An endless loop keeps starting processes (a fork bomb)";
  }
  return null;
}

function cmdLoop(text: string): string | null {
  const forL = /\bfor\s+\/l\s+%%?\w\s+in\s*\(\s*-?\d+\s*,\s*0\s*,\s*-?\d+\s*\)\s*do\b(.*)/i.exec(
    text,
  );
  if (forL && CMD_START.test(forL[1].trimStart())) {
    return "An endless for /l loop (step 0) keeps starting processes (a fork bomb)";
  }
  for (const m of text.matchAll(/(?:^|[\s&])(:\w+)\b/g)) {
    const label = m[1].slice(1);
    const after = text.slice(m.index! + m[0].length);
    const back = new RegExp(`\\bgoto\\s+:?${label}\\b`, "i").exec(after);
    if (back && CMD_START.test(after.slice(0, back.index))) {
      return `The label loop ":${label}" keeps starting processes (a fork bomb)`;
    }
  }
  return null;
}
