/**
 * Benchmark of the turn-1 prompt in issue 24's case: three MCP servers (the
 * stdio test server, `server-everything` and `server-filesystem`: 34 tools)
 * and ten skills configured. Measures what `minoc run` sends in its first
 * request (every message, in characters) with nothing configured and in
 * that case, and how much of the system prompt each section takes.
 *
 * The servers' tool lists are cached first with `minoc mcp test`, as a
 * user's earlier sessions would have left them, so the first request lists
 * every tool; the ten skills are SKILL.md folders in the project's
 * `.minoc/skills/`, with descriptions of the length real skills have.
 *
 * Run alone: `deno run -A bench/prompt_bench.ts [entry]` (default `main.ts`).
 *
 * @module
 */
import { join, resolve } from "node:path";
import { ROOT } from "../tests/support/cli.ts";
import { fetchNpmServers, threeServers, writeMcpConfig } from "../tests/support/mcp.ts";
import { startServer } from "../tests/support/server.ts";
import { timedRun } from "./spawn.ts";

/** The ten skills: name and description (what a user's skills look like). */
export const BENCH_SKILLS: readonly [string, string][] = [
  [
    "release-notes",
    "Drafts release notes from the commits since the last tag, grouped into features, fixes and breaking changes.",
  ],
  [
    "changelog-entry",
    "Adds an entry for the current change to CHANGELOG.md in the Keep a Changelog format.",
  ],
  [
    "api-docs",
    "Writes reference docs for an HTTP endpoint: method, path, parameters, responses, one curl example.",
  ],
  [
    "db-migration",
    "Creates a database migration with its rollback and checks it against the current schema.",
  ],
  [
    "bug-report",
    "Turns a failure into a bug report: steps to reproduce, expected and actual result, environment.",
  ],
  [
    "code-review",
    "Reviews a diff for correctness, security and style, and lists the findings by severity.",
  ],
  [
    "test-plan",
    "Plans the tests of a feature: cases ranked by risk, the data they need, what to automate first.",
  ],
  [
    "docker-image",
    "Writes a small Dockerfile with cached layers for the project, and a .dockerignore to match.",
  ],
  [
    "slide-deck",
    "Builds a slide deck from an outline with the company template; its script renders the PDF.",
  ],
  [
    "incident-review",
    "Writes a blameless incident review: timeline, impact, root cause, follow-ups with owners.",
  ],
];

/** Writes the ten skills into `<project>/.minoc/skills/`. */
async function writeSkills(project: string): Promise<void> {
  for (const [name, description] of BENCH_SKILLS) {
    const dir = join(project, ".minoc", "skills", name);
    await Deno.mkdir(dir, { recursive: true });
    const body = `# ${name}\n\n1. Read what the task gives.\n2. Follow the steps of this skill.\n`;
    await Deno.writeTextFile(
      join(dir, "SKILL.md"),
      `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n${body}`,
    );
  }
}

/** The first request of one `minoc run` in `cwd`: its messages. */
async function firstRequest(entry: string, cwd: string) {
  await using server = await startServer({ replies: [{ text: "All done." }], loop: true });
  const r = await timedRun(
    ["run", "add a line to notes.md", "--base-url", server.baseUrl, "--model", "bench"],
    { entry, cwd },
  );
  if (r.code !== 0) throw new Error(`minoc run failed (exit ${r.code}): ${r.stderr}`);
  return server.requests[0].body.messages as { role: string; content: string }[];
}

/** Characters of the system prompt's `# <title>` section (to the next blank line before `#`). */
function section(system: string, title: string): number {
  const start = system.indexOf(`\n\n# ${title}\n`);
  if (start < 0) return 0;
  const end = system.indexOf("\n\n# ", start + 2);
  return (end < 0 ? system.length : end) - start - 2;
}

/** Runs the benchmark; sizes in characters. */
export async function benchPrompt(entry = join(ROOT, "main.ts")): Promise<Record<string, number>> {
  await fetchNpmServers();
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_prompt_bench_" }));
  try {
    const project = join(dir, "project");
    await Deno.mkdir(project);
    await Deno.writeTextFile(join(project, "notes.md"), "line one\n");
    const total = (m: { content: string }[]) => m.reduce((n, x) => n + x.content.length, 0);
    const none = await firstRequest(entry, project);
    const servers = threeServers(project);
    await writeMcpConfig(join(project, ".home", ".minoc"), servers);
    for (const name of Object.keys(servers)) {
      // `mcp test` keeps each server's tool list, as a user's earlier sessions would.
      const r = await timedRun(["mcp", "test", name], { entry, cwd: project });
      if (r.code !== 0) throw new Error(`minoc mcp test ${name} failed: ${r.stderr}`);
    }
    await writeSkills(project);
    const full = await firstRequest(entry, project);
    const system = full[0].content;
    if (!system.includes("mcp__t__") && !system.includes("- t: ")) {
      throw new Error("The prompt lists no tool of the test server");
    }
    for (const [name] of BENCH_SKILLS) {
      if (!system.includes(`- ${name}: `)) throw new Error(`The prompt does not list "${name}"`);
    }
    return {
      prompt_none_chars: total(none),
      prompt_full_chars: total(full),
      prompt_full_system_chars: system.length,
      prompt_tools_chars: section(system, "Tools"),
      prompt_skills_chars: section(system, "Skills"),
      prompt_mcp_chars: section(system, "MCP tools"),
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) {
  const entry = Deno.args[0] ? resolve(Deno.args[0]) : undefined;
  for (const [name, value] of Object.entries(await benchPrompt(entry))) {
    console.log(`${name.padEnd(28)} ${value}`);
  }
}
