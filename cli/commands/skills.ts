/**
 * `minoc skills`: the skills minoc finds and what they cost.
 *
 * - `list`: the index (`./skills`, `./.minoc/skills`, `<home>/skills`, first
 *   of a name wins); skipped skills and ignored fields are warned on stderr.
 * - `show <name>`: a skill's fields, scripts, resources and body.
 * - `validate [DIR]`: checks one skill folder, or every skill folder under
 *   DIR (default: all the places above); exit 1 when one is invalid.
 * - `stats [--all] [--json]`: disclosure metrics summed over the recorded
 *   sessions of this directory (or every project).
 *
 * Exit codes: 0 on success, 1 when `validate` finds an invalid skill, 2 for
 * usage errors (an unknown skill, a DIR that does not exist).
 *
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { join, relative, resolve } from "node:path";
import { loadSessions } from "../../core/history/lookup.ts";
import { textTable } from "../../core/history/text_table.ts";
import { listFiles } from "../../core/skills/disclosure.ts";
import {
  discoverSkills,
  loadSkill,
  type Skill,
  SKILL_FILE,
  skillFolders,
  skillRoots,
} from "../../core/skills/index.ts";
import { formatMetrics, readMetrics, sumMetrics } from "../../core/skills/metrics.ts";
import { shorten } from "../../core/skills/catalog.ts";
import { CliError, type CliIO, EXIT, warn } from "../io.ts";
import { visible } from "../../core/protocol/visible.ts";

/** Where the command looks. */
export interface SkillsEnv {
  cwd: string;
  /** The `.minoc` home. */
  homeDir: string;
  /** `<home>/history/sessions`. */
  sessionsDir: string;
}

/**
 * The `skills` command and its sub-commands.
 *
 * @example
 * ```ts
 * const io = memoryIO();
 * await skillsCommand(io, env).parseAsync(["list"], { from: "user" });
 * ```
 */
export function skillsCommand(io: CliIO, env: SkillsEnv): Command {
  const skills = new Command("skills").description("list, show, validate skills and their usage");
  const warning = (m: string) => warn(io, m);
  skills.command("list").description("list the skills found, first of a name wins")
    .action(async () => {
      const roots = skillRoots(env.cwd, env.homeDir);
      const index = await discoverSkills(roots, warning);
      if (index.skills.length === 0) {
        return io.out(`No skills found in ${roots.map((r) => `"${r}"`).join(", ")}\n`);
      }
      const rows = index.skills.map((s) => [
        s.name + (s.disableModelInvocation ? " (user only)" : ""),
        shorten(s.description.replace(/\s+/g, " "), 70),
        place(env, s),
      ]);
      io.out(textTable(["name", "description", "folder"], rows));
    });
  skills.command("show").description("print a skill's fields, scripts, resources and body")
    .argument("<name>", "the skill's name")
    .action(async (name) => {
      const index = await discoverSkills(skillRoots(env.cwd, env.homeDir), warning);
      const skill = index.get(name);
      if (!skill) {
        const names = index.skills.map((s) => s.name).join(", ") || "none";
        throw new CliError(`Unknown skill "${name}": skills found: ${names}`, EXIT.usage);
      }
      io.out(await showText(skill));
    });
  skills.command("validate").description(
    "check skill folders (default: every place skills are found)",
  )
    .argument("[dir]", "a skill folder, or a folder of skill folders")
    .action(async (dir) => {
      const roots = dir === undefined ? skillRoots(env.cwd, env.homeDir) : [resolve(env.cwd, dir)];
      if (dir !== undefined && !(await Deno.stat(roots[0]).catch(() => null))?.isDirectory) {
        throw new CliError(`Folder "${roots[0]}" does not exist`, EXIT.usage);
      }
      const bad = await validate(io, roots, dir !== undefined);
      if (bad > 0) io.exitCode = EXIT.failed;
    });
  skills.command("stats").description(
    "disclosure metrics over recorded sessions (default: this directory)",
  )
    .option("--all", "sessions of every project")
    .option("--json", "print one JSON object")
    .action(async (opts) => {
      const projectPath = opts.all ? undefined : await Deno.realPath(env.cwd).catch(() => env.cwd);
      const sessions = await loadSessions(env.sessionsDir, { projectPath }, warning);
      const list = sessions.map((s) => readMetrics(s.metadata.skills)).filter((m) =>
        m !== undefined
      );
      const total = sumMetrics(list);
      if (opts.json) {
        return io.out(JSON.stringify({ sessions: list.length, ...total }, null, 2) + "\n");
      }
      io.out(formatMetrics(total, list.length));
    });
  return skills;
}

function place(env: SkillsEnv, skill: Skill): string {
  const rel = relative(env.cwd, skill.dir);
  return rel.startsWith("..") ? skill.dir : rel;
}

async function showText(skill: Skill): Promise<string> {
  const lines = [
    `${skill.name}${skill.version ? ` v${skill.version}` : ""}`,
    skill.description,
    "",
  ];
  const field = (label: string, list: readonly string[]) => {
    if (list.length) lines.push(`${label}: ${list.join("; ")}`);
  };
  lines.push(`Folder: ${skill.dir}`);
  field("Inputs", skill.inputs);
  field("Outputs", skill.outputs);
  field("Keywords", skill.keywords);
  field("Stages", skill.stages);
  field("Allowed tools", skill.allowedTools);
  if (skill.disableModelInvocation) lines.push("Model invocation: disabled (user only)");
  field("Scripts", await listFiles(join(skill.dir, "scripts")));
  field("Resources", await listFiles(join(skill.dir, "resources")));
  return lines.join("\n") + "\n\n" + skill.body.replace(/\n*$/, "\n");
}

/** Prints one line per skill folder; returns how many are invalid. */
async function validate(io: CliIO, roots: readonly string[], explicit: boolean): Promise<number> {
  const single = explicit &&
    await Deno.stat(join(roots[0], SKILL_FILE)).then(() => true, () => false);
  const folders = single ? [roots[0]] : (await Promise.all(roots.map(skillFolders))).flat();
  const names = new Map<string, string>();
  let bad = 0;
  let good = 0;
  for (const dir of folders) {
    const file = join(dir, SKILL_FILE);
    const loaded = await loadSkill(dir);
    if (loaded === null) {
      io.out(`skipped  ${visible(dir)}: no ${SKILL_FILE}\n`);
      continue;
    }
    if (!loaded.ok) {
      bad++;
      io.out(`invalid  ${visible(file)}: ${visible(loaded.problem)}\n`);
      continue;
    }
    const first = names.get(loaded.skill.name);
    if (first) {
      io.out(
        `shadowed ${visible(file)}: the name "${visible(loaded.skill.name)}" is taken by "${
          visible(first)
        }"\n`,
      );
      continue;
    }
    names.set(loaded.skill.name, file);
    good++;
    io.out(`ok       ${visible(file)}\n`);
    for (const w of loaded.warnings) io.out(`  warning: ${visible(w)}\n`);
  }
  io.out(`${good} valid, ${bad} invalid\n`);
  return bad;
}
