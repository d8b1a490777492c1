/**
 * The system clipboard for the copy/paste bridge: whichever of pbcopy,
 * wl-copy, xclip, xsel, clip.exe or PowerShell's Set-Clipboard exists
 * (probed with `which`, or `where` on Windows). `MINOC_CLIPBOARD_FILE`
 * replaces the clipboard with a file (tests, or a machine without one).
 *
 * @example
 * ```ts
 * const clip = await detectClipboard();
 * if (clip) await clip.write("hello"); // else write a file and say where
 * ```
 * @module
 */
import { dirname } from "node:path";

/** A clipboard: write a prompt, read an answer. */
export interface Clipboard {
  /** What it is, for messages: `xclip`, `file /tmp/clip.txt`. */
  readonly name: string;
  write(text: string): Promise<void>;
  /** Throws when this clipboard cannot be read (e.g. clip.exe alone). */
  read(): Promise<string>;
}

/** The environment variable that names a file to use as the clipboard. */
export const CLIPBOARD_FILE_ENV = "MINOC_CLIPBOARD_FILE";

/** A file used as the clipboard. */
export function fileClipboard(path: string): Clipboard {
  return {
    name: `file ${path}`,
    async write(text) {
      await Deno.mkdir(dirname(path), { recursive: true });
      await Deno.writeTextFile(path, text);
    },
    async read() {
      try {
        return await Deno.readTextFile(path);
      } catch (e) {
        if (e instanceof Deno.errors.NotFound) return "";
        throw e;
      }
    },
  };
}

/** A command line: program and arguments. */
type Cmd = [string, ...string[]];

interface Candidate {
  name: string;
  write: Cmd;
  read?: Cmd;
}

const PS_READ: Cmd = ["powershell.exe", "-NoProfile", "-Command", "Get-Clipboard -Raw"];
const PS_WRITE: Cmd = [
  "powershell.exe",
  "-NoProfile",
  "-Command",
  "Set-Clipboard -Value ([Console]::In.ReadToEnd())",
];

/** The clipboard programs to try on `os`, best first. */
export function candidates(os: string, env: Record<string, string | undefined>): Candidate[] {
  if (os === "darwin") return [{ name: "pbcopy", write: ["pbcopy"], read: ["pbpaste"] }];
  if (os === "windows") {
    return [
      { name: "Set-Clipboard", write: PS_WRITE, read: PS_READ },
      { name: "clip.exe", write: ["clip.exe"] },
    ];
  }
  const out: Candidate[] = [];
  if (env.WAYLAND_DISPLAY) {
    out.push({ name: "wl-copy", write: ["wl-copy"], read: ["wl-paste", "--no-newline"] });
  }
  if (env.DISPLAY) {
    out.push(
      {
        name: "xclip",
        write: ["xclip", "-selection", "clipboard", "-in"],
        read: ["xclip", "-selection", "clipboard", "-out"],
      },
      {
        name: "xsel",
        write: ["xsel", "--clipboard", "--input"],
        read: ["xsel", "--clipboard", "--output"],
      },
    );
  }
  // WSL: the Windows clipboard.
  out.push({ name: "clip.exe", write: ["clip.exe"], read: PS_READ });
  return out;
}

/** What {@link detectClipboard} looks at; every field has a real default. */
export interface DetectOptions {
  env?: Record<string, string | undefined>;
  os?: string;
  /** Whether a program exists (default: `which` / `where`). */
  has?(program: string): Promise<boolean>;
}

/** The clipboard to use: the `MINOC_CLIPBOARD_FILE` file, the first program found, or null. */
export async function detectClipboard(o: DetectOptions = {}): Promise<Clipboard | null> {
  const env = o.env ?? Deno.env.toObject();
  const file = env[CLIPBOARD_FILE_ENV];
  if (file) return fileClipboard(file);
  const os = o.os ?? Deno.build.os;
  const has = o.has ?? ((p: string) => onPath(p, os));
  for (const c of candidates(os, env)) {
    if (!await has(c.write[0])) continue;
    const read = c.read && await has(c.read[0]) ? c.read : undefined;
    return commandClipboard(c.name, c.write, read);
  }
  return null;
}

/** A clipboard driven by programs: `write` reads stdin, `read` prints the clipboard. */
export function commandClipboard(name: string, write: Cmd, read?: Cmd): Clipboard {
  return {
    name,
    async write(text) {
      // No pipes kept: xclip and wl-copy leave a child serving the selection.
      const child = new Deno.Command(write[0], {
        args: write.slice(1),
        stdin: "piped",
        stdout: "null",
        stderr: "null",
      }).spawn();
      let broken: unknown = null;
      try {
        const w = child.stdin.getWriter();
        await w.write(new TextEncoder().encode(text));
        await w.close();
      } catch (e) {
        // The program quit before reading (a broken pipe): its exit code says why.
        broken = e;
      }
      const status = await child.status;
      if (!status.success) throw new Error(`${name} exited with code ${status.code}`);
      if (broken) throw broken;
    },
    async read() {
      if (!read) throw new Error(`${name} cannot read the clipboard`);
      const out = await new Deno.Command(read[0], {
        args: read.slice(1),
        stdin: "null",
        stdout: "piped",
        stderr: "null",
      }).output();
      if (!out.success) throw new Error(`${read[0]} exited with code ${out.code}`);
      return new TextDecoder().decode(out.stdout);
    },
  };
}

async function onPath(program: string, os: string): Promise<boolean> {
  try {
    const out = await new Deno.Command(os === "windows" ? "where" : "which", {
      args: [program],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).output();
    return out.success;
  } catch {
    return false;
  }
}
