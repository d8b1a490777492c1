/**
 * `attempt_completion`: the model says the task is done and gives the result.
 *
 * @module
 */
import * as z from "zod";
import { defineTool, ok } from "./define.ts";

/** Ends the task with `result` (the loop stops on `completion`). */
export const attemptCompletion = defineTool({
  name: "attempt_completion",
  kind: "meta",
  description: "Report the finished work to the user.",
  params: [
    { name: "result", description: "What was done", required: true },
  ],
  schema: z.object({ result: z.string().trim().min(1, "must say what was done") }),
  example: { result: "Added the --verbose flag and its test; all tests pass." },
  execute(args) {
    return Promise.resolve({ ...ok("Task completed", "Task completed"), completion: args.result });
  },
});
