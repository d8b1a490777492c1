/**
 * Writes a made-up but realistic history: session files in the recorder's
 * line layout, spread over days, models and projects, with every kind of
 * call outcome (ok, failed, denied by a gate, blocked by security,
 * simulated, undone, invalid), parse errors, retries, provider errors,
 * dialects, reasoning, first-token times, and undo manifests. Deterministic
 * for a given seed. Used by the report tests and the report benchmark.
 *
 * @module
 */
import { rng as random } from "./rng.ts";
import { join } from "node:path";
import type { SessionFile, SessionMessage } from "../../interfaces/history.ts";
import { renderSession } from "../../core/history/format.ts";

/** What to generate. */
export interface HistoryShape {
  sessionsDir: string;
  backupsDir: string;
  sessions: number;
  /** Messages per session, roughly (at least 12). */
  messages: number;
  /** The home directory that project paths sit in. */
  home?: string;
  seed?: number;
  /** The first session's start; later ones follow every few hours. */
  start?: Date;
}

/** A fake API key put in some replies, to check that it never reaches a report. */
export const LEAKED_KEY = "sk-test-LEAKED0123456789abcdef";
const MODELS = ["qwen3-coder-30b", "gpt-oss-20b", "devstral-small"];
const DIALECTS = ["canonical", "hermes_json", "canonical"];
const PROJECTS = ["webapp", "cli-tool", "data-pipeline", "docs"];

/** Writes the history; returns the number of messages written. */
export async function generateHistory(shape: HistoryShape): Promise<number> {
  const rand = random(shape.seed ?? 7);
  const home = shape.home ?? "/home/ana";
  const start = shape.start ?? new Date(Date.UTC(2026, 9, 1, 8));
  let total = 0;
  for (let i = 0; i < shape.sessions; i++) {
    const when = new Date(start.getTime() + i * 3 * 3600_000 + Math.floor(rand() * 3600_000));
    const s = session(i, when, rand, home, shape.messages);
    total += s.messages.length;
    const day = when.toISOString().slice(0, 10);
    const dir = join(shape.sessionsDir, day);
    await Deno.mkdir(dir, { recursive: true });
    await Deno.writeTextFile(join(dir, `session_${s.sessionId}.json`), renderSession(s));
    const undone = s.messages.flatMap((m) => m.backupIds ?? []).filter((_, j) => j % 3 === 0);
    if (undone.length) await writeManifest(shape.backupsDir, s.sessionId, undone);
  }
  return total;
}

function session(
  i: number,
  when: Date,
  rand: () => number,
  home: string,
  size: number,
): SessionFile {
  const model = MODELS[i % MODELS.length];
  const project = `${home}/src/${PROJECTS[i % PROJECTS.length]}`;
  const id = `${when.toISOString().slice(0, 19).replace(/[-:T]/g, "")}-${
    i.toString(16).padStart(6, "0")
  }`;
  const b = new Builder(when, rand, model, i);
  while (b.messages.length < Math.max(12, size) - 6) b.task(project);
  const m = b.messages;
  return {
    sessionId: id,
    timestamp: when.toISOString(),
    model,
    systemPrompt: "You are minoc.",
    projectPath: project,
    mode: "agent",
    messages: m,
    metadata: {
      totalTokens: b.tokens,
      promptTokens: 0,
      completionTokens: 0,
      duration: Date.parse(m[m.length - 1].timestamp) - when.getTime(),
      turns: m.filter((x) => x.role === "assistant").length,
      toolCalls: m.filter((x) => x.role === "tool_call").length,
      parseErrors: 0,
      filesChanged: [`src/file${i % 7}.ts`, "README.md"],
    },
  };
}

class Builder {
  readonly messages: SessionMessage[] = [];
  tokens = 0;
  #t: number;
  #backup = 0;

  constructor(when: Date, readonly rand: () => number, readonly model: string, readonly n: number) {
    this.#t = when.getTime();
  }

  push(m: Omit<SessionMessage, "timestamp">): void {
    this.#t += 500 + Math.floor(this.rand() * 4000);
    this.messages.push({ ...m, timestamp: new Date(this.#t).toISOString() });
  }

  task(project: string): void {
    this.push({ role: "user", content: `Fix the failing test in ${project}/src (task ${this.n})` });
    const steps = 1 + Math.floor(this.rand() * 4);
    for (let s = 0; s < steps; s++) this.step(project);
    if (this.rand() < 0.1) {
      this.push({ role: "system", content: "Retrying the turn", event: "retry" });
    }
    if (this.rand() < 0.05) {
      this.reply("");
      this.push({ role: "system", content: "429 rate limited", event: "provider_error" });
      return;
    }
    this.reply("<attempt_completion><result>Done.</result></attempt_completion>");
    this.call("attempt_completion", { result: "Done." }, "pass");
    this.result("attempt_completion", true, "Done.");
  }

  step(project: string): void {
    const r = this.rand();
    if (r < 0.08) {
      this.reply("<read_file><path>src/a.ts</read_file>");
      this.push({ role: "system", content: "The call was not closed", event: "unclosed" });
      this.push({ role: "user", content: "Your last reply had an unclosed call." });
      return;
    }
    if (r < 0.45) return this.command(project, r);
    if (r < 0.75) return this.write(project, r);
    this.reply("<read_file><path>src/app.ts</path></read_file>");
    this.call("read_file", { path: "src/app.ts" }, "pass");
    this.result("read_file", true, "export const app = 1;\n");
  }

  command(project: string, r: number): void {
    const cmds = ["npm test", "deno task ok", "rm -rf /", "git push --force", "cargo build"];
    const command = cmds[Math.floor(r * 100) % cmds.length];
    this.reply(`<execute_command><command>${command}</command></execute_command>`);
    if (command === "rm -rf /") {
      this.call("execute_command", { command }, "deny", "security", "deletes the root");
      this.result("execute_command", false, "Blocked by security: deletes the root", "denied");
    } else if (command === "git push --force") {
      this.call("execute_command", { command }, "deny", "user", "not now");
      this.result("execute_command", false, "Denied by the user: not now", "denied");
    } else if (r > 0.4) {
      this.call("execute_command", { command }, "simulate", "dryrun");
      this.result("execute_command", true, `[dry-run] would run: ${command}`);
    } else {
      const ok = r < 0.3;
      this.call("execute_command", { command }, "pass");
      this.result(
        "execute_command",
        ok,
        ok
          ? "All 12 tests passed"
          : `Exit code 1\nFAIL ${project}/src/a_test.ts\nexpected 2, got 3`,
      );
    }
  }

  write(project: string, r: number): void {
    if (r > 0.7) {
      this.reply("<write_to_file><content>x</content></write_to_file>");
      this.messages.push({
        role: "tool_call",
        content: "write_to_file",
        timestamp: new Date(this.#t).toISOString(),
        call: { tool: "write_to_file", params: { content: "x" } },
      });
      this.result(
        "write_to_file",
        false,
        "Invalid arguments for write_to_file: path is required",
        "invalid_args",
      );
      return;
    }
    const path = `${project}/src/file${this.n % 7}.ts`;
    this.reply(`<replace_in_file><path>${path}</path><diff>…</diff></replace_in_file>`);
    this.call("replace_in_file", { path, diff: "-  return 3;\n+  return 2;" }, "pass");
    const id = `c${++this.#backup}`;
    this.result(
      "replace_in_file",
      true,
      `--- a/src/file.ts\n+++ b/src/file.ts\n@@ -1,3 +1,3 @@\n export function f() {\n-  return 3;\n+  return 2;\n }`,
      undefined,
      [id],
    );
  }

  reply(text: string): void {
    const out = 20 + Math.floor(this.rand() * 400);
    const inTokens = 1500 + Math.floor(this.rand() * 6000);
    this.tokens += out + inTokens;
    const ttft = 150 + Math.floor(this.rand() * 900) + (this.model === "devstral-small" ? 600 : 0);
    const leak = this.rand() < 0.02 ? ` (using key ${LEAKED_KEY})` : "";
    this.push({
      role: "assistant",
      content: `I will look at this${leak}.\n${text}`,
      usage: { promptTokens: inTokens, completionTokens: out, totalTokens: out + inTokens },
      firstTokenMs: ttft,
      durationMs: ttft + out * (10 + Math.floor(this.rand() * 30)),
      dialect: DIALECTS[this.n % DIALECTS.length],
      ...(this.rand() < 0.04 ? { retries: 1 + Math.floor(this.rand() * 2) } : {}),
      ...(this.rand() < 0.5 ? { reasoning: "The test expects 2; the function returns 3." } : {}),
    });
  }

  call(
    tool: string,
    params: Record<string, string>,
    action: string,
    gate = "mode",
    reason?: string,
  ) {
    const verdicts = [
      { gate: "mode", action: "pass" as const },
      ...(action === "pass"
        ? []
        : [{ gate, action: action as "deny", ...(reason ? { reason } : {}) }]),
    ];
    this.push({ role: "tool_call", content: tool, call: { tool, params }, verdicts });
  }

  result(tool: string, ok: boolean, content: string, code?: string, backupIds?: string[]): void {
    this.push({
      role: "tool_response",
      content,
      tool,
      ok,
      ...(code ? { code } : {}),
      toolMs: 5 + Math.floor(this.rand() * 800),
      ...(backupIds ? { backupIds } : {}),
    });
    this.push({ role: "user", content: `[${tool}] Result:\n${content}` });
  }
}

async function writeManifest(backupsDir: string, sessionId: string, ids: string[]) {
  const dir = join(backupsDir, sessionId);
  await Deno.mkdir(dir, { recursive: true });
  const timestamp = new Date(0).toISOString();
  const lines = ids.flatMap((id) => [
    JSON.stringify({
      id,
      group: 1,
      path: "/x",
      existed: true,
      beforeHash: null,
      afterHash: null,
      timestamp,
    }),
    JSON.stringify({ id, undone: true }),
  ]);
  await Deno.writeTextFile(join(dir, "manifest.jsonl"), lines.join("\n") + "\n");
}
