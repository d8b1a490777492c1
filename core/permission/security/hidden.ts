/**
 * Execution hidden inside a command's arguments, read so that it gets the
 * verdict its plain-shell equivalent gets:
 *
 * - git's config-injected commands: `git -c alias.x='!…'`, `core.fsmonitor`,
 *   `core.pager`, `core.sshCommand`, `diff.external`, filter and merge
 *   drivers, …, given with `-c` or stored with `git config` (`git_code.ts`);
 * - commands named by the environment a command gets (`GIT_SSH_COMMAND=…`,
 *   `env PAGER=…`; `env_code.ts`);
 * - archivers that delete their inputs (`tar --remove-files`, `zip -m`,
 *   `rsync --remove-source-files`, `7z -sdel`) as a delete of those inputs;
 * - `forfiles /c "…"`: the command, run for every file under `/p`;
 * - `find`'s output actions (`-fprint`, `-fprint0`, `-fls`, `-fprintf`) as
 *   writes to their files;
 * - destructive library calls in interpreter one-liners (see one_liners.ts).
 *
 * @module
 */
import type { ReadContext } from "./context.ts";
import { segmentEnvCode } from "./env_code.ts";
import { configAssignment, gitKeyCode } from "./git_code.ts";
import { libraryCommands } from "./one_liners.ts";
import type { Segment, Word } from "./types.ts";

/** Reads the hidden execution of `seg` (called for every segment). */
export function hiddenExecution(seg: Segment, rc: ReadContext): void {
  segmentEnvCode(seg, rc);
  if (seg.name === "git") gitConfigCode(seg, rc);
  else if (seg.name === "find") findOutputs(seg);
  else if (/^(tar|bsdtar|gtar|zip|rsync|7z|7za|7zz)$/.test(seg.name)) deletingArchiver(seg, rc);
  else if (seg.name === "forfiles") forfiles(seg, rc);
}

/** `forfiles /p DIR /c "cmd /c … @path"` runs the command for every file under DIR. */
function forfiles(seg: Segment, rc: ReadContext): void {
  const value = (flag: string) => {
    const i = seg.args.findIndex((a) => a.text.toLowerCase() === flag);
    return i >= 0 ? seg.args[i + 1] : undefined;
  };
  const command = value("/c");
  if (!command) return;
  if (!command.literal) {
    seg.code = { kind: "variable", detail: seg.text };
    return;
  }
  const dir = (value("/p")?.text ?? ".").replace(/[\\/]+$/, "");
  const each = `"${dir}\\*"`;
  rc.read(command.text.replace(/@(path|file|fname|relpath)\b/gi, each), "cmd", {});
}

/** `git -c KEY=VALUE …` and `git config [scope] KEY VALUE` with a key git runs. */
function gitConfigCode(seg: Segment, rc: ReadContext): void {
  const a = seg.args;
  const run = (key: string, value: Word) => {
    const origin = gitKeyCode(key, value, rc);
    if (origin) seg.code = origin;
  };
  for (let i = 0; i < a.length; i++) {
    const t = a[i].text;
    if (t === "-c" && a[i + 1]) {
      const eq = a[i + 1].text.indexOf("=");
      if (eq > 0) {
        run(a[i + 1].text.slice(0, eq), { ...a[i + 1], text: a[i + 1].text.slice(eq + 1) });
      }
      i++;
    } else if (/^-c.+=/.test(t)) {
      const eq = t.indexOf("=");
      run(t.slice(2, eq), { ...a[i], text: t.slice(eq + 1) });
    } else if (t === "config") {
      const set = configAssignment(a.slice(i + 1));
      if (set) run(set.key.text, set.value);
      return;
    } else if (!t.startsWith("-")) return;
  }
}

/** `find … -fprint FILE` and friends write FILE. */
function findOutputs(seg: Segment): void {
  for (let i = 0; i < seg.args.length - 1; i++) {
    if (/^-(fprint0?|fls|fprintf)$/.test(seg.args[i].text)) seg.writes.push(seg.args[i + 1]);
  }
}

/** An archiver that deletes what it packs is a delete of its inputs. */
function deletingArchiver(seg: Segment, rc: ReadContext): void {
  const t = seg.args.map((w) => w.text);
  const deletes = (seg.name.includes("tar") && t.includes("--remove-files")) ||
    (seg.name === "zip" && t.some((x) => /^-[a-zA-Z]*m[a-zA-Z]*$/.test(x) || x === "--move")) ||
    (seg.name === "rsync" && t.includes("--remove-source-files")) ||
    (seg.name.startsWith("7z") && t.includes("-sdel"));
  if (!deletes) return;
  const inputs = inputsOf(seg);
  if (inputs.some((w) => !w.literal)) {
    seg.code = { kind: "variable", detail: seg.text };
    return;
  }
  const quoted = inputs.map((w) => `'${w.text.replaceAll("'", "'\\''")}'`);
  if (quoted.length > 0) rc.read(`rm -rf -- ${quoted.join(" ")}`, "bash", {});
}

/** The files an archiver reads: operands, minus the archive it writes (and rsync's target). */
function inputsOf(seg: Segment): Word[] {
  const out: Word[] = [];
  let archiveNext = false;
  seg.args.forEach((w, i) => {
    const t = w.text;
    if (archiveNext) {
      archiveNext = false;
      return;
    }
    if (/^-[a-zA-Z]*f$/.test(t) || t === "--file" || t === "-C" || t === "--directory") {
      archiveNext = true;
    } else if (t.startsWith("-")) return;
    else if (i === 0 && seg.name.includes("tar") && /^[a-zA-Z]*f[a-zA-Z]*$/.test(t)) {
      archiveNext = true;
    } else out.push(w);
  });
  if (seg.name === "zip" || seg.name.startsWith("7z")) {
    // zip ARCHIVE FILES…; 7z a ARCHIVE FILES…
    return out.slice(seg.name.startsWith("7z") ? 2 : 1);
  }
  if (seg.name === "rsync") return out.slice(0, -1);
  return out;
}

/** Interpreter code given on the command line: its destructive library calls, as shell commands. */
export function libraryCalls(seg: Segment, code: string, rc: ReadContext): void {
  for (const c of libraryCommands(code)) {
    if (seg.shell === "bash" || c.shellString) rc.read(c.bash, "bash", {});
    else rc.read(c.powershell, "powershell", {});
  }
}
