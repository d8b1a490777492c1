/**
 * Tool specs for the protocol tests: the tools of issue #3 with their
 * parameters, and full tool objects built from them (for docs and feedback).
 *
 * @module
 */
import * as z from "zod";
import type { AnyTool, ParamSpec, ToolKind, ToolSpec } from "../../../interfaces/tool.ts";

type P = [name: string, description: string, flags?: string];

function param([name, description, flags = ""]: P): ParamSpec {
  const spec: ParamSpec = { name, description, required: !flags.includes("?") };
  if (flags.includes("bulk")) spec.bulk = true;
  if (flags.includes("many")) spec.multiple = true;
  if (flags.includes("bool")) spec.type = "boolean";
  if (flags.includes("int")) spec.type = "integer";
  return spec;
}

interface Def {
  name: string;
  kind: ToolKind;
  description: string;
  params: P[];
  example: Record<string, string>;
}

const CORE: Def[] = [
  {
    name: "read_file",
    kind: "read",
    description: "Read a text file; lines are numbered. Read big files in ranges.",
    params: [
      ["path", "File path, relative to the working directory"],
      ["start_line", "First line to read, from 1", "? int"],
      ["end_line", "Last line to read", "? int"],
    ],
    example: { path: "src/main.ts" },
  },
  {
    name: "read_files",
    kind: "read",
    description: "Read several text files at once.",
    params: [["path", "A file path; repeat the element for each file", "many"]],
    example: { path: "README.md" },
  },
  {
    name: "write_to_file",
    kind: "write",
    description: "Create a file or replace its whole content. Parent directories are created.",
    params: [["path", "File path"], ["content", "The complete new content", "bulk"]],
    example: { path: "notes.md", content: "# Notes\n- first line\n" },
  },
  {
    name: "edit_file",
    kind: "write",
    description: "Change part of a file: a unified diff, or an exact old text and its new text.",
    params: [
      ["path", "File path"],
      ["diff", "Unified diff of the change", "? bulk"],
      ["old", "Exact text to replace", "?"],
      ["new", "Replacement text", "?"],
    ],
    example: { path: "src/app.ts", old: "let x = 1;", new: "let x = 2;" },
  },
  {
    name: "replace_in_file",
    kind: "write",
    description: "Apply SEARCH/REPLACE blocks to a file.",
    params: [["path", "File path"], ["diff", "One or more SEARCH/REPLACE blocks", "bulk"]],
    example: {
      path: "src/app.ts",
      diff: "<<<<<<< SEARCH\nlet x = 1;\n=======\nlet x = 2;\n>>>>>>> REPLACE",
    },
  },
  {
    name: "delete_file",
    kind: "write",
    description: "Delete a file, or a directory with recursive set to true.",
    params: [["path", "Path to delete"], [
      "recursive",
      "true to delete a directory tree",
      "? bool",
    ]],
    example: { path: "tmp/old.log" },
  },
  {
    name: "create_directory",
    kind: "write",
    description: "Create a directory and its parents.",
    params: [["path", "Directory path"]],
    example: { path: "src/utils" },
  },
  {
    name: "list_files",
    kind: "read",
    description: "List a directory; .gitignore is honoured when recursive.",
    params: [["path", "Directory path"], ["recursive", "true to list subdirectories", "? bool"]],
    example: { path: ".", recursive: "false" },
  },
  {
    name: "search_files",
    kind: "read",
    description: "Search files by a regular expression and show matching lines.",
    params: [
      ["pattern", "Regular expression"],
      ["directory", "Where to search (default: the working directory)", "?"],
      ["content", "Glob of the files to search, e.g. *.ts", "?"],
    ],
    example: { pattern: "TODO", directory: "src" },
  },
  {
    name: "execute_command",
    kind: "exec",
    description: "Run a shell command in the working directory; returns exit code and output.",
    params: [
      ["command", "The command line"],
      ["requires_approval", "true to ask the user even where a rule allows it", "? bool"],
      ["timeout", "Seconds before the command is stopped", "? int"],
    ],
    example: { command: "npm test", requires_approval: "false" },
  },
  {
    name: "attempt_completion",
    kind: "meta",
    description: "Finish the task and report the result to the user.",
    params: [["result", "What was done"]],
    example: { result: "Added the --json flag and its tests." },
  },
  {
    name: "ask_followup_question",
    kind: "meta",
    description: "Ask the user a question when you cannot decide yourself.",
    params: [["question", "The question"]],
    example: { question: "Which port should the server use?" },
  },
];

function def(
  name: string,
  kind: ToolKind,
  description: string,
  params: P[],
  example: Record<string, string>,
): Def {
  return { name, kind, description, params, example };
}

/** Tools of later issues, used to check the size of the docs for ~20 tools. */
const LATER: Def[] = [
  def(
    "start_process",
    "exec",
    "Start a long-running command (server, watcher) in the background.",
    [
      ["command", "The command line"],
    ],
    { command: "npm run dev" },
  ),
  def("list_processes", "read", "List the background processes of this session.", [], {}),
  def("read_process_output", "read", "Show the latest output of a background process.", [
    ["id", "Process id"],
    ["tail", "Number of lines", "? int"],
  ], { id: "p1", tail: "50" }),
  def("kill_process", "exec", "Stop a background process.", [["id", "Process id"]], { id: "p1" }),
  def("set_env", "write", "Set an environment variable for commands run later.", [
    ["name", "Variable name"],
    ["value", "Value"],
  ], { name: "NODE_ENV", value: "test" }),
  def("get_env", "read", "Show an environment variable (secrets are masked).", [["name", "Name"]], {
    name: "PATH",
  }),
  def("use_skill", "meta", "Load the instructions of a skill from the skills index.", [
    ["name", "Skill name"],
  ], { name: "release" }),
  def("web_fetch", "read", "Fetch a web page as text.", [["url", "http or https URL"]], {
    url: "https://example.com",
  }),
];

function toTool(d: Def): AnyTool {
  return {
    name: d.name,
    kind: d.kind,
    description: d.description,
    params: d.params.map(param),
    schema: z.record(z.string(), z.unknown()),
    example: d.example,
    execute: () => Promise.resolve({ ok: true, output: "", display: "" }),
  };
}

/** The twelve tools of issue #3 as full tool objects. */
export const TOOLS: readonly AnyTool[] = CORE.map(toTool);

/** The twelve tools of issue #3 as the scanner sees them. */
export const SPECS: readonly ToolSpec[] = TOOLS.map((t) => ({ name: t.name, params: t.params }));

/** Twenty tools: the twelve above and eight of later issues. */
export const TWENTY_TOOLS: readonly AnyTool[] = [...CORE, ...LATER].map(toTool);

/** A tool's example as the parser returns it: repeatable parameters as lists. */
export function exampleParams(tool: AnyTool): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(tool.example)) {
    out[name] = tool.params.find((p) => p.name === name)?.multiple ? [value] : value;
  }
  return out;
}
