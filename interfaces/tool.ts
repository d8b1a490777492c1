/**
 * Contracts for tools, parsed tool calls, side-effect ports and gates.
 *
 * Tools know nothing about permission, modes, dry-run or steps: gates do.
 *
 * @module
 */
import type { z } from "zod";

/** What a tool does to the world; gates decide by kind. */
export type ToolKind = "read" | "write" | "exec" | "meta";

/** One XML parameter of a tool. */
export interface ParamSpec {
  /** XML element name, e.g. `path`. */
  name: string;
  description: string;
  required: boolean;
  /**
   * Bulk text (`content`, `diff`): the value runs to the last matching closing
   * tag before the end of the call, so it may contain its own closing tag.
   */
  bulk?: boolean;
  /** The element may appear several times (e.g. `read_files`' `path`). */
  multiple?: boolean;
  /** How the raw text is read before schema validation. Default `string`. */
  type?: "string" | "boolean" | "integer";
}

/** What the parser needs to know about a tool. */
export interface ToolSpec {
  name: string;
  params: readonly ParamSpec[];
}

/** A tool call as parsed from the model's text: raw string values. */
export interface ToolCall {
  tool: string;
  params: Record<string, string | string[]>;
}

/** Parse failures, in the order they are checked. */
export type ParseErrorKind =
  | "unknown_tool"
  | "unclosed"
  | "multiple_tool_calls"
  | "missing_param";

/** The outcome of parsing one whole reply. */
export type ParseResult =
  | { kind: "none" }
  | {
    kind: "call";
    call: ToolCall;
    /** The tool-call dialect it was written in (absent: canonical). */
    dialect?: string;
    /** Something the parser changed and must say (e.g. XML entities decoded in a command). */
    notice?: string;
  }
  | {
    kind: "error";
    error: ParseErrorKind;
    message: string;
    tool?: string;
    /** The dialect the failed call was written in (absent: canonical). */
    dialect?: string;
    /** The call the model apparently meant, to show in canonical form. */
    meant?: ToolCall;
  };

export type {
  CommandSandbox,
  CommandSpawner,
  DirEntry,
  FileInfo,
  FileTracker,
  Freshness,
  FsPort,
  ProcessInfo,
  ProcessTable,
  SpawnedProcess,
} from "./ports.ts";
import type { CommandSandbox, FileTracker, FsPort, ProcessTable } from "./ports.ts";

/** Data the approval prompt and dry-run render; never pre-formatted text. */
export type Preview =
  | { kind: "edit"; path: string; before: string | null; after: string | null }
  | {
    kind: "exec";
    command: string;
    cwd: string;
    /** What holds the command in, shown under it (e.g. a skill script's sandbox). */
    confinement?: string;
  }
  /** Several files changed as one (edit blocks); null = absent before / after. */
  | {
    kind: "multi_edit";
    files: { path: string; before: string | null; after: string | null }[];
  }
  | { kind: "none" };

/** What a tool sees while it runs. */
export interface ToolContext {
  /** Working directory; relative paths resolve against it. */
  cwd: string;
  signal: AbortSignal;
  fs: FsPort;
  /** Session state for the read-modify-write guard. */
  files: FileTracker;
  /** Environment set by `set_env` (null = unset) for commands run later. */
  env: Map<string, string | null>;
  processes: ProcessTable;
  /** The OS sandbox commands run in; absent = unconfined. */
  sandbox?: CommandSandbox;
  /** Live output of a running command, for the terminal (not the model). */
  onOutput?(text: string): void;
  /** Answers `ask_followup_question`; in `run` it says no user is available. */
  ask(question: string): Promise<string>;
  /** The session's skills (`use_skill`, `run_skill_script`); absent when there are none. */
  skills?: SkillHost;
  /** The blackboard of a running workflow (`blackboard_put`, `blackboard_get`). */
  blackboard?: Blackboard;
  /** The session's MCP tools (`mcp_describe`); absent when no server is configured. */
  mcp?: McpDirectory;
}

/** What `mcp_describe` reads (implemented in `core/mcp/`). */
export interface McpDirectory {
  /** Full docs of MCP tools by name, or of a server's tools by the server's name. */
  describe(names: readonly string[]): ToolResult;
}

/** What `use_skill` asks for: a skill's body, one section of it, or one resource file. */
export interface SkillRequest {
  name: string;
  section?: string;
  /** A path under the skill's `resources/`. */
  resource?: string;
}

/** What `run_skill_script` asks for: one script under the skill's `scripts/`. */
export interface ScriptRequest {
  name: string;
  script: string;
  args: string[];
}

/** The skills of a session, as the skill tools see them (implemented in `core/skills/`). */
export interface SkillHost {
  /** L2/L3 text: never sends the same text twice (a reminder instead). */
  disclose(request: SkillRequest): Promise<ToolResult>;
  /** The command line a script call would run, for the gates and the prompt. */
  preview(request: ScriptRequest): Promise<Preview>;
  /** L3: runs the script in the sandbox; only its JSON summary and produced files come back. */
  run(request: ScriptRequest, signal: AbortSignal): Promise<ToolResult>;
}

/** One artifact on a workflow's blackboard. */
export interface BlackboardEntry {
  key: string;
  /** What it is, e.g. `file`, `report`, `data`. */
  kind: string;
  /** Where it is (project-relative), when it is a file. */
  path?: string;
  summary: string;
}

/** Artifacts registered by the steps of a workflow, read by later steps. */
export interface Blackboard {
  put(entry: BlackboardEntry): void;
  get(key: string): BlackboardEntry | undefined;
  list(): BlackboardEntry[];
}

/** A file the tool changed, for the summary, undo and `--json`. */
export interface FileChange {
  path: string;
  action: "create" | "modify" | "delete";
}

/** The result of one tool call. */
export interface ToolResult {
  ok: boolean;
  /** Text for the model. */
  output: string;
  /** Text for the human (short; may be multi-line). */
  display: string;
  /** Short error code when `ok` is false, e.g. `not_found`, `invalid_args`. */
  code?: string;
  changes?: FileChange[];
  /** Set by `attempt_completion`: the task is finished with this result. */
  completion?: string;
}

/**
 * A tool: one file in `core/tools/`, one line in `core/tools/mod.ts`.
 * `A` is the validated argument type produced by `schema`.
 */
export interface Tool<A = Record<string, unknown>> extends ToolSpec {
  kind: ToolKind;
  description: string;
  /** Validates arguments after the raw strings are coerced by `ParamSpec.type`. */
  schema: z.ZodType<A>;
  /** One short correct call's parameters, used in docs and error messages. */
  example: Record<string, string>;
  execute(args: A, ctx: ToolContext): Promise<ToolResult>;
  preview?(args: A, ctx: ToolContext): Promise<Preview>;
  /** Set on tools that come from outside minoc (an MCP server's tools). */
  external?: ExternalTool;
}

/** Where an outside tool comes from; gates read `readOnly`, undo says it cannot undo it. */
export interface ExternalTool {
  source: "mcp";
  /** The server's name in mcp.json. */
  server: string;
  /** The tool's name on its server. */
  tool: string;
  /** Annotated `readOnlyHint`, or its server is marked read-only: plan mode lets it run. */
  readOnly: boolean;
}

/** A tool with its argument type erased, as held in the registry. */
// deno-lint-ignore no-explicit-any
export type AnyTool = Tool<any>;

/** What a gate decides about one call. */
export type VerdictAction = "pass" | "ask" | "deny" | "simulate";

/** A gate's verdict; every verdict is recorded. */
export interface Verdict {
  gate: string;
  action: VerdictAction;
  reason?: string;
  /** The rule that decided, e.g. `default: write tools ask`. */
  rule?: string;
  risk?: "low" | "medium" | "high" | "critical";
  /** An "ask" only a person can answer: `--yes` does not approve it (without a terminal it is denied). */
  firm?: boolean;
}

/** What a gate sees. */
export interface GateInput {
  call: ToolCall;
  tool: AnyTool;
  args: unknown;
  preview: Preview;
  cwd: string;
}

/** One step of the gate pipeline. */
export interface Gate {
  readonly name: string;
  check(input: GateInput): Verdict | Promise<Verdict>;
  /**
   * Does the work a first check would do for the first time (reading rule
   * files, compiling rules) without deciding anything or changing any state
   * a check reads, so that the first real call does not pay for it. Called
   * once, while the model streams; awaits `step()` between small pieces of
   * work (it resolves when the agent is idle again). `samples` are calls like
   * a session's first ones (a read and a write of a project file that is
   * never touched) that a gate may judge, its verdicts thrown away. Before a
   * piece that cannot be cut (loading a module), it awaits `large()` (when
   * given), which resolves when the piece cannot hold up the agent's turn.
   */
  warm?(
    step: () => Promise<void>,
    samples: readonly GateInput[],
    large?: () => Promise<void>,
  ): Promise<void>;
}

/** The user's answer to an approval prompt. */
export type Decision =
  | { kind: "once" }
  | { kind: "always" }
  | { kind: "deny"; reason?: string };

/** The approval prompt, implemented by `cli/prompt/`. */
export interface Confirm {
  ask(input: GateInput, verdicts: readonly Verdict[]): Promise<Decision>;
}
