/**
 * Drives a program in a real terminal through tmux: start it, type keys,
 * read the screen.
 *
 * @module
 */

async function tmux(...args: string[]): Promise<string> {
  const out = await new Deno.Command("tmux", { args, stdout: "piped", stderr: "piped" }).output();
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
    await tmux("send-keys", "-t", this.name, ...keys);
  }

  /** Types literal text (no key-name interpretation). */
  async type(text: string): Promise<void> {
    await tmux("send-keys", "-t", this.name, "-l", text);
  }

  /** The visible screen plus scrollback. */
  async screen(): Promise<string> {
    return await tmux("capture-pane", "-t", this.name, "-p", "-S", "-2000");
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

  /** Quits the chat with Ctrl+D and waits for it to exit with code 0. */
  async quit(): Promise<void> {
    await this.send("C-d");
    await this.waitFor(/\[exit 0\]/);
  }

  /** Ends the session. */
  async kill(): Promise<void> {
    await tmux("kill-session", "-t", this.name).catch(() => "");
  }
}
