/**
 * A new project from nothing: the answers of the interview (purpose,
 * language, interface, dependencies, tests) — asked in a terminal, or taken
 * from a task's text — become one structured request for the agent, with a
 * suggested layout of files and the way to build it step by step.
 *
 * @example
 * ```ts
 * const brief = briefFromText("a CLI word counter in Go, no dependencies");
 * brief.language; // "Go"
 * const request = renderBrief(brief);
 * ```
 * @module
 */

/** The interview's answers; absent ones are left to the agent. */
export interface ProjectBrief {
  purpose: string;
  language?: string;
  /** e.g. "command-line tool", "web API", "library". */
  interface?: string;
  dependencies?: string;
  tests?: boolean;
}

/** Languages the interview offers, each with a starting layout and its test command. */
export const LANGUAGE_CHOICES: readonly { name: string; files: string; test: string }[] = [
  {
    name: "TypeScript (Deno)",
    files: "deno.json (tasks), main.ts (entry), src/<name>.ts (logic), src/<name>_test.ts",
    test: "deno test",
  },
  {
    name: "TypeScript (Node)",
    files: "package.json, tsconfig.json, src/index.ts, src/<name>.ts, test/<name>.test.ts",
    test: "npm test",
  },
  {
    name: "JavaScript (Node)",
    files: "package.json, src/index.js, src/<name>.js, test/<name>.test.js",
    test: "node --test",
  },
  {
    name: "Python",
    files: "pyproject.toml, <pkg>/__init__.py, <pkg>/__main__.py, <pkg>/<name>.py, " +
      "tests/test_<name>.py",
    test: "python -m unittest discover -s tests",
  },
  { name: "Go", files: "go.mod, main.go, <name>.go, <name>_test.go", test: "go test ./..." },
  {
    name: "Rust",
    files: "Cargo.toml, src/main.rs, src/lib.rs (with #[cfg(test)])",
    test: "cargo test",
  },
];

/** Interfaces the interview offers. */
export const INTERFACE_CHOICES: readonly string[] = [
  "command-line tool",
  "web API",
  "library",
  "web page",
];

/**
 * The rules for an empty working directory, shown in the project section of
 * the system prompt (so `run` in an empty folder builds from the task text).
 */
export const NEW_PROJECT_RULES =
  "The working directory is empty: this is a new project. Take the purpose, language, " +
  "interface, dependencies and tests from the request; where it says nothing, choose the " +
  "simplest option (standard library, the language's own test runner) and say so. First show " +
  "the plan: the files to create, one line each. Then create them one at a time with " +
  "write_to_file, run the tests as soon as there are any, fix what fails, and finish by " +
  "saying how to run it.";

/** Reads the interview's answers out of a task's text; what it does not say stays open. */
export function briefFromText(text: string): ProjectBrief {
  const t = text.toLowerCase();
  const brief: ProjectBrief = { purpose: text.trim() };
  const language = languageIn(t);
  if (language) brief.language = language;
  const iface = /\bcli\b|command[- ]line|terminal tool/.test(t)
    ? "command-line tool"
    : /\b(rest|http|web)\s*api\b|\bapi\b|\bendpoints?\b|http server/.test(t)
    ? "web API"
    : /\blibrary\b|\bpackage\b/.test(t)
    ? "library"
    : /\bweb ?(page|site|app)\b/.test(t)
    ? "web page"
    : undefined;
  if (iface) brief.interface = iface;
  if (
    /\bno (external |third[- ]party )?(dependencies|deps|packages)\b|standard library only|stdlib only|without dependencies/
      .test(t)
  ) {
    brief.dependencies = "none (standard library only)";
  }
  if (/\b(no|without|skip) tests\b/.test(t)) brief.tests = false;
  else if (/\btests?\b|\btested\b/.test(t)) brief.tests = true;
  return brief;
}

function languageIn(t: string): string | undefined {
  if (/\bdeno\b/.test(t)) return "TypeScript (Deno)";
  if (/\btypescript\b|\bts\b/.test(t)) {
    return /\bnode(\.?js)?\b/.test(t) ? "TypeScript (Node)" : "TypeScript (Deno)";
  }
  if (/\bjavascript\b|\bnode(\.?js)?\b/.test(t)) return "JavaScript (Node)";
  if (/\bpython\b/.test(t)) return "Python";
  if (
    /\bgolang\b|\b(in|with|using) go\b|\bgo (cli|program|module|project|api|service|tool)\b/.test(t)
  ) {
    return "Go";
  }
  if (/\brust\b/.test(t)) return "Rust";
  return undefined;
}

const OPEN = "not said: choose the simplest fitting option and say which";

/** The request the agent gets for a new project. */
export function renderBrief(b: ProjectBrief): string {
  const layout = LANGUAGE_CHOICES.find((c) => c.name === b.language);
  const tests = b.tests === false
    ? "no"
    : `yes, with the language's own test runner${layout ? ` (\`${layout.test}\`)` : ""}`;
  const lines = [
    "Build a new project in this directory.",
    `Purpose: ${b.purpose || OPEN}`,
    `Language: ${b.language ?? OPEN}`,
    `Interface: ${b.interface ?? OPEN}`,
    `Dependencies: ${b.dependencies ?? "as few as possible; prefer the standard library"}`,
    `Tests: ${tests}`,
  ];
  if (layout) lines.push(`Suggested files (adjust to the purpose): ${layout.files}`);
  lines.push(
    "",
    "First reply with the plan: the files to create, one line each. Then create them one at a " +
      "time with write_to_file, run the tests as soon as there are any and fix what fails, " +
      "and finish with attempt_completion saying how to run it.",
  );
  return lines.join("\n");
}
