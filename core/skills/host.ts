/**
 * The skills of one session as the skill tools see them: disclosure (L2,
 * L3 resources), sandboxed scripts (L3 results), and the metrics kept in
 * the session file after every use.
 *
 * @example
 * ```ts
 * const host = await createSkillHost({ index, projectDir: cwd, l1, onMetrics: (m) => recorder.update({ skills: m }) });
 * const ctx = { ...context, skills: host };
 * ```
 * @module
 */
import { join, relative } from "node:path";
import type {
  Preview,
  ScriptRequest,
  SkillHost,
  SkillRequest,
  ToolResult,
} from "../../interfaces/tool.ts";
import { fail } from "../tools/define.ts";
import type { IndexText } from "./catalog.ts";
import { Disclosure } from "./disclosure.ts";
import type { Skill, SkillIndex } from "./index.ts";
import { type Interpreter, invocation, pickInterpreter, type SandboxDirs } from "./interpreters.ts";
import { emptyMetrics, emptyUsage, type SkillMetrics, type SkillUsage } from "./metrics.ts";
import { DEFAULT_LIMITS, runSandboxed, type SandboxLimits } from "./sandbox.ts";
import type { BackupStore } from "../history/backups.ts";
import { keepBuild, MAX_KEPT_BYTES, recordBuild } from "./build_undo.ts";
import { confinement } from "../sandbox/confine.ts";
import { describeRun } from "./script_result.ts";
import { tokenCounter } from "./tokens.ts";
import { readRegularFile, readTextFile } from "../tools/bounded_read.ts";

/** How a session's skill host is set up. */
export interface SkillHostOptions {
  index: SkillIndex;
  projectDir: string;
  /** The L1 index as rendered into the system prompt. */
  l1?: IndexText;
  limits?: Partial<SandboxLimits>;
  /** Run bash/sh scripts even where the operating system cannot confine them (settings). */
  allowUnconfined?: boolean;
  /** The session's backups: a script's changes under build/ are recorded for undo. */
  backups?: BackupStore | null;
  /** Absolute paths the outside-write check ignores (e.g. the `.minoc` home). */
  ignore?: string[];
  /** The conversation as the model sees it: text no longer in it is sent again. */
  conversation?(): readonly { content: string }[];
  /** Told the metrics after every use (e.g. to update the session file). */
  onMetrics?(metrics: SkillMetrics): void | Promise<void>;
}

/** A skill host that also reports its metrics and which skill is in use. */
export interface SessionSkills extends SkillHost {
  readonly index: SkillIndex;
  metrics(): SkillMetrics;
  /**
   * The skill in use: the one named by the last successful disclosure (body,
   * section or resource) or script run, until {@link SessionSkills.release}.
   */
  active(): Skill | undefined;
  /** No skill is in use any more (the model ended its turn, or the user spoke). */
  release(): void;
}

interface Resolved {
  skill: Skill;
  abs: string;
  shown: string;
  interpreter: Interpreter;
  dirs: SandboxDirs;
}

/** Creates the host and publishes the first metrics (L1 and the bodies not sent). */
export async function createSkillHost(o: SkillHostOptions): Promise<SessionSkills> {
  const count = await tokenCounter();
  const metrics = emptyMetrics();
  metrics.indexed = o.index.skills.length;
  if (o.l1) {
    Object.assign(metrics, {
      listed: o.l1.listed,
      shortened: o.l1.shortened,
      omitted: o.l1.omitted,
      l1Tokens: o.l1.tokens,
      l1Budget: o.l1.budget,
    });
  }
  const usage = (name: string): SkillUsage => (metrics.bySkill[name] ??= emptyUsage());
  const present = o.conversation
    ? (text: string) => o.conversation!().some((m) => m.content.includes(text))
    : undefined;
  const disclosure = new Disclosure({ count, metrics, usage, present });
  const limits = { ...DEFAULT_LIMITS, ...o.limits };
  const current = (): SkillMetrics => {
    metrics.bodiesAvoided = o.index.skills.reduce((n, s) => {
      const body = disclosure.blocksOf(s).reduce((t, b) => t + b.tokens, 0);
      return n + Math.max(0, body - disclosure.sentTokens(s));
    }, 0);
    return structuredClone(metrics);
  };
  const publish = async () => await o.onMetrics?.(current());
  const find = (name: string): Skill | ToolResult => {
    const skill = o.index.get(name.trim());
    if (skill) return skill;
    const names = o.index.skills.filter((s) => !s.disableModelInvocation).map((s) => s.name);
    return fail("unknown_skill", `Unknown skill "${name}"; skills: ${names.join(", ") || "none"}`);
  };
  let inUse: Skill | undefined;
  await publish();
  return {
    index: o.index,
    metrics: current,
    active: () => inUse,
    release() {
      inUse = undefined;
    },
    async disclose(req: SkillRequest): Promise<ToolResult> {
      const skill = find(req.name);
      if ("ok" in skill) return skill;
      if (skill.disableModelInvocation) {
        return fail("user_only", `Skill "${skill.name}" is for the user to invoke, not the model`);
      }
      const result = req.resource
        ? await disclosure.resource(skill, req.resource)
        : await disclosure.body(skill, req.section);
      if (result.ok) inUse = skill;
      await publish();
      return result;
    },
    async preview(req: ScriptRequest): Promise<Preview> {
      const r = await resolve(find(req.name), req.script, o.projectDir);
      if ("ok" in r) return { kind: "none" };
      const inv = invocation(r.interpreter, r.abs, r.shown, req.args, r.dirs);
      const c = await confinement();
      const shell = r.interpreter === "bash" || r.interpreter === "sh";
      const held = c.kind !== "none"
        ? `confined by ${c.label}: writes only under build/`
        : shell
        ? `not confined (${c.reason})`
        : `held by ${r.interpreter}'s own guard: writes only under build/`;
      return { kind: "exec", command: inv.display, cwd: r.skill.dir, confinement: held };
    },
    async run(req: ScriptRequest, signal: AbortSignal): Promise<ToolResult> {
      const r = await resolve(find(req.name), req.script, o.projectDir);
      if ("ok" in r) return r;
      inUse = r.skill;
      const kept = o.backups ? await keepBuild(r.dirs.build) : null;
      const outcome = await runSandboxed({
        interpreter: r.interpreter,
        script: r.abs,
        shown: r.shown,
        args: req.args,
        dirs: r.dirs,
        signal,
        limits,
        ignore: o.ignore,
        allowUnconfined: o.allowUnconfined,
      });
      const result = describeRun(r.skill.name, r.shown, outcome, o.projectDir, limits.maxFiles);
      if (o.backups && kept) await recordBuild(kept, r.dirs.build, o.backups);
      else if (o.backups) {
        result.display = `${result.display}\nbuild/ holds more than ` +
          `${MAX_KEPT_BYTES / 1024 / 1024} MB, so this run's changes there cannot be undone`;
      }
      const u = usage(r.skill.name);
      const tokens = count(result.output);
      const source = count(await readTextFile(r.abs).catch(() => ""));
      u.scripts++;
      u.l3Tokens += tokens;
      u.sourceAvoided += source;
      metrics.scripts++;
      metrics.l3Tokens += tokens;
      metrics.sourceAvoided += source;
      await publish();
      return result;
    },
  };
}

/** The script's path inside `scripts/`, its interpreter and the sandbox folders; or an error result. */
async function resolve(
  found: Skill | ToolResult,
  script: string,
  projectDir: string,
): Promise<Resolved | ToolResult> {
  if ("ok" in found) return found;
  const skill = found;
  const rel = script.trim().replace(/\\/g, "/").replace(/^(\.\/)?(scripts\/)?/, "");
  const root = join(skill.dir, "scripts");
  const realRoot = await Deno.realPath(root).catch(() => null);
  const real = await Deno.realPath(join(root, rel)).catch(() => null);
  const info = real ? await Deno.stat(real).catch(() => null) : null;
  if (
    !realRoot || !real || rel === "" || relative(realRoot, real).startsWith("..") || !info?.isFile
  ) {
    const { listFiles } = await import("./disclosure.ts");
    const list = await listFiles(root);
    return fail(
      "not_found",
      `Skill "${skill.name}" has no script "${script}"; its scripts: ${list.join(", ") || "none"}`,
    );
  }
  const head = await firstLine(real);
  const picked = pickInterpreter(real, head);
  if (!picked.ok) {
    return fail("interpreter_not_allowed", `Cannot run "${script}": ${picked.message}`);
  }
  const project = projectDir;
  return {
    skill,
    abs: real,
    shown: `scripts/${relative(realRoot, real).replace(/\\/g, "/")}`,
    interpreter: picked.interpreter,
    dirs: { skill: await Deno.realPath(skill.dir), project, build: join(project, "build") },
  };
}

async function firstLine(path: string): Promise<string> {
  // Only a regular file is opened (a FIFO would wait for a writer forever).
  const head = await readRegularFile(path, { maxBytes: 255 });
  return new TextDecoder().decode(head).split("\n")[0];
}
