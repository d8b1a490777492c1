/**
 * What the copy/paste bridge tells a web chat about the project: in browse
 * mode a summary (the file tree, and under each file its exported
 * signatures or headings), in edit mode the full contents of the text files
 * within a budget. `.gitignore`d files, hidden files and folders, and files
 * that look like secrets are never included.
 *
 * @example
 * ```ts
 * const files = await projectFiles({ fs: realFs, root: "/repo" });
 * console.log(await projectSummary({ fs: realFs, root: "/repo" }, files));
 * ```
 * @module
 */
import type { FsPort } from "../../interfaces/tool.ts";
import { walkTree } from "./walk.ts";
import { countLines, decodeText, plural } from "./paths.ts";
import { hasOutline, outline } from "./project_signatures.ts";

/** Where the project is and how to read it. */
export interface ProjectSource {
  fs: FsPort;
  /** Absolute project directory. */
  root: string;
  signal?: AbortSignal;
}

/** One file of the project. */
export interface ProjectFile {
  /** Relative to the root, `/`-separated. */
  rel: string;
  abs: string;
  size: number;
}

/** Files listed at most. */
export const MAX_PROJECT_FILES = 2000;
/** Files larger than this are listed but never read. */
export const MAX_READ_BYTES = 256 * 1024;
/** Characters of file contents edit mode sends by default. */
export const DEFAULT_CONTENTS_BUDGET = 300_000;

const SECRET = /(^|\/)(\.env[^/]*|id_[a-z0-9]+|[^/]*\.(pem|key|p12|pfx|keystore))$/i;

/** The project's files, sorted, without ignored, hidden or secret-looking ones. */
export async function projectFiles(src: ProjectSource): Promise<ProjectFile[]> {
  const out: ProjectFile[] = [];
  await walkTree(
    { fs: src.fs, root: src.root, cwd: src.root, recursive: true, signal: src.signal },
    async (e) => {
      if (!e.isFile || e.isSymlink || out.length >= MAX_PROJECT_FILES) return;
      if (e.rel.split("/").some((s) => s.startsWith(".")) || SECRET.test(e.rel)) return;
      const info = await src.fs.stat(e.abs);
      if (info?.isFile) out.push({ rel: e.rel, abs: e.abs, size: info.size });
    },
  );
  return out.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
}

/** The text of a project file, or null when it is too large or binary. */
export async function readProjectText(src: ProjectSource, f: ProjectFile): Promise<string | null> {
  if (f.size > MAX_READ_BYTES) return null;
  try {
    return decodeText(await src.fs.readFile(f.abs));
  } catch {
    return null;
  }
}

/** The browse-mode summary: an indented tree, each file with its line count and outline. */
export async function projectSummary(
  src: ProjectSource,
  files: readonly ProjectFile[],
): Promise<string> {
  const lines: string[] = [];
  let openDirs: string[] = [];
  for (const f of files) {
    const parts = f.rel.split("/");
    const dirs = parts.slice(0, -1);
    let same = 0;
    while (same < dirs.length && same < openDirs.length && dirs[same] === openDirs[same]) same++;
    for (let d = same; d < dirs.length; d++) lines.push(`${"  ".repeat(d)}${dirs[d]}/`);
    openDirs = dirs;
    const pad = "  ".repeat(dirs.length);
    const text = await readProjectText(src, f);
    const what = text === null
      ? f.size > MAX_READ_BYTES ? `${Math.round(f.size / 1024)} KB` : "binary"
      : plural(countLines(text), "line");
    lines.push(`${pad}${parts[parts.length - 1]} (${what})`);
    if (text !== null && hasOutline(f.rel)) {
      for (const sig of outline(f.rel, text)) lines.push(`${pad}    ${sig}`);
    }
  }
  if (files.length >= MAX_PROJECT_FILES) {
    lines.push(`… (only the first ${MAX_PROJECT_FILES} files)`);
  }
  return lines.length ? lines.join("\n") : "(no files)";
}

/**
 * Edit mode: the full text of each file, fenced, until `budget` characters
 * are used; the rest are listed so the chat can ask for them.
 */
export async function projectContents(
  src: ProjectSource,
  files: readonly ProjectFile[],
  budget = DEFAULT_CONTENTS_BUDGET,
): Promise<string> {
  const parts: string[] = [];
  const left: string[] = [];
  let used = 0;
  for (const f of files) {
    const text = await readProjectText(src, f);
    if (text === null) continue;
    const section = fencedFile(f.rel, text);
    if (used + section.length > budget) {
      left.push(f.rel);
      continue;
    }
    used += section.length;
    parts.push(section);
  }
  if (left.length > 0) {
    parts.push(
      `Not included (over the size budget; ask with <<<REQUEST_FILE: path>>>):\n` +
        left.map((p) => `- ${p}`).join("\n"),
    );
  }
  return parts.length ? parts.join("\n\n") : "(no text files)";
}

/** A file under a `### path` heading in a fence longer than any run of backticks in it. */
export function fencedFile(path: string, text: string): string {
  let longest = 2;
  for (const m of text.matchAll(/`{3,}/g)) longest = Math.max(longest, m[0].length);
  const fence = "`".repeat(longest + 1);
  const open = text === "" || text.endsWith("\n");
  const note = open ? "" : " (no newline at the end)";
  return `### ${path}${note}\n${fence}\n${open ? text : `${text}\n`}${fence}`;
}
