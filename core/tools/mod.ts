/**
 * The tool registry: one line per tool. Adding a tool is its file plus one
 * line here; the parser, prompt docs and dispatcher learn it from this list.
 *
 * @example
 * ```ts
 * const tool = findTool("read_file");
 * ```
 * @module
 */
import type { AnyTool } from "../../interfaces/tool.ts";
import { askFollowupQuestion } from "./ask_followup_question.ts";
import { attemptCompletion } from "./attempt_completion.ts";
import { createDirectory } from "./create_directory.ts";
import { deleteFile } from "./delete_file.ts";
import { editFile } from "./edit_file.ts";
import { listFiles } from "./list_files.ts";
import { readFile } from "./read_file.ts";
import { readFiles } from "./read_files.ts";
import { replaceInFile } from "./replace_in_file.ts";
import { searchFiles } from "./search_files.ts";
import { writeToFile } from "./write_to_file.ts";
import { executeCommand } from "./execute_command.ts";
import { startProcess } from "./start_process.ts";
import { listProcesses } from "./list_processes.ts";
import { readProcessOutput } from "./read_process_output.ts";
import { killProcess } from "./kill_process.ts";
import { getEnv } from "./get_env.ts";
import { setEnv } from "./set_env.ts";
import { unsetEnv } from "./unset_env.ts";
import { chmod } from "./chmod.ts";
import { useSkill } from "./use_skill.ts";
import { runSkillScript } from "./run_skill_script.ts";
import { blackboardPut } from "./blackboard_put.ts";
import { blackboardGet } from "./blackboard_get.ts";
import { mcpDescribe } from "./mcp_describe.ts";

/** Every tool minoc offers, in the order the prompt documents them. */
export const tools: readonly AnyTool[] = [
  readFile,
  readFiles,
  listFiles,
  searchFiles,
  writeToFile,
  editFile,
  replaceInFile,
  deleteFile,
  createDirectory,
  executeCommand,
  startProcess,
  listProcesses,
  readProcessOutput,
  killProcess,
  getEnv,
  setEnv,
  unsetEnv,
  chmod,
  useSkill,
  runSkillScript,
  askFollowupQuestion,
  attemptCompletion,
];

/** Tools that exist only while a workflow runs (its blackboard). */
export const workflowTools: readonly AnyTool[] = [blackboardPut, blackboardGet];

/** Tools that exist only when MCP servers are configured. */
export const mcpTools: readonly AnyTool[] = [mcpDescribe];

const byName = new Map(tools.map((t) => [t.name, t]));

/** The tool called `name`, if there is one. */
export function findTool(name: string): AnyTool | undefined {
  return byName.get(name);
}
