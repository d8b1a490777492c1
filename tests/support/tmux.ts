/**
 * Drives a program in a real terminal through tmux: start it, type keys,
 * read the screen.
 *
 * @module
 */

/**
 * Runs a tmux command on the session's own server (`-L socket`): every test
 * session has a server of its own, so one session ending (and its server
 * exiting) never races the start of the next.
 */
async function tmux(socket: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("tmux", {
    args: ["-L", socket, ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(`tmux ${args[0]} failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  return new TextDecoder().decode(out.stdout);
}

/** Whether tmux is installed. */
export function hasTmux(): boolean {
  try {
    return new Deno.Command("tmux", { args: ["-V"], stdout: "null", stderr: "null" }).outputSync()
      .success;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The text of the item under a select prompt's cursor, the last one on screen. */
function cursorItem(screen: string): string | undefined {
  const lines = [...screen.matchAll(/^\s*❯ (.*)$/gm)];
  return lines.at(-1)?.[1].trim();
}

/** One tmux session running one command. */
export class TmuxSession {
  private constructor(readonly name: string) {}

  /** Starts `commandLine` (a shell command) with exactly `env`, in `cwd`. */
  static async start(
    commandLine: string,
    o: { cwd: string; env: Record<string, string>; width?: number; height?: number },
  ): Promise<TmuxSession> {
    const name = `minoc_test_${crypto.randomUUID().slice(0, 8)}`;
    const vars = Object.entries(o.env).map(([k, v]) => `${k}='${v.replaceAll("'", `'\\''`)}'`);
    const full = `env -i ${vars.join(" ")} ${commandLine}; echo "[exit $?]"; sleep 600`;
    await tmux(
      name,
      "new-session",
      "-d",
      "-s",
      name,
      "-x",
      String(o.width ?? 120),
      "-y",
      String(o.height ?? 50),
      "-c",
      o.cwd,
      full,
    );
    return new TmuxSession(name);
  }

  /** Sends keys (tmux key names such as `Enter`, `Down`, `C-c`, or literal text). */
  async send(...keys: string[]): Promise<void> {
    await tmux(this.name, "send-keys", "-t", this.name, ...keys);
  }

  /**
   * Types literal text (no key-name interpretation) and waits until it shows
   * on screen. Text typed before the program reads the terminal can be lost
   * (the prompt was not drawn yet); it is typed again after 3 s unseen.
   */
  async type(text: string): Promise<void> {
    const shown = async () => (await this.screen()).split(text).length - 1;
    const before = await shown();
    for (let attempt = 0; attempt < 3; attempt++) {
      await tmux(this.name, "send-keys", "-t", this.name, "-l", text);
      const until = Date.now() + 3_000;
      while (Date.now() < until) {
        if (await shown() > before) return;
        await sleep(50);
      }
    }
    throw new Error(`Typed "${text}" three times; it never showed:\n${await this.screen()}`);
  }

  /** The visible screen plus scrollback. */
  async screen(): Promise<string> {
    return await tmux(this.name, "capture-pane", "-t", this.name, "-p", "-S", "-2000");
  }

  /** Waits until the screen matches `pattern`; throws with the screen after `ms`. */
  async waitFor(pattern: RegExp, ms = 20_000): Promise<string> {
    const until = Date.now() + ms;
    let last = "";
    while (Date.now() < until) {
      last = await this.screen();
      if (pattern.test(last)) return last;
      await sleep(100);
    }
    throw new Error(`Timed out waiting for ${pattern} on screen:\n${last}`);
  }

  /**
   * Answers the select prompt on screen with the item matching `item`: waits
   * until the prompt's cursor (❯) shows, so no key reaches the terminal before
   * the prompt reads it, then moves down one item at a time, checking after
   * each key that the cursor moved, and presses Enter on the item.
   */
  async pick(item: RegExp, ms = 20_000): Promise<void> {
    const until = Date.now() + ms;
    let last = "";
    for (let moves = 0; Date.now() < until && moves <= 30;) {
      last = await this.screen();
      const current = cursorItem(last);
      if (current === undefined) {
        await sleep(100);
        continue;
      }
      if (item.test(current)) return await this.send("Enter");
      await this.send("Down");
      moves++;
      const moved = Date.now() + 2_000;
      while (Date.now() < moved && cursorItem(await this.screen()) === current) await sleep(50);
    }
    throw new Error(`No select item matching ${item} on screen:\n${last}`);
  }

  /**
   * Quits the chat with Ctrl+D and waits for it to exit with code 0; sends
   * Ctrl+D again every 3 s, in case one came before the prompt listened.
   */
  async quit(): Promise<void> {
    for (let attempt = 0; attempt < 4; attempt++) {
      await this.send("C-d");
      try {
        await this.waitFor(/\[exit 0\]/, attempt === 3 ? 20_000 : 3_000);
        return;
      } catch (e) {
        if (attempt === 3) throw e;
      }
    }
  }

  /** Ends the session. */
  async kill(): Promise<void> {
    await tmux(this.name, "kill-server").catch(() => "");
    // The server's socket file can outlive it: remove it, so test runs leave nothing behind.
    const dir = Deno.env.get("TMUX_TMPDIR") ?? "/tmp";
    await Deno.remove(`${dir}/tmux-${Deno.uid()}/${this.name}`).catch(() => {});
  }
}
