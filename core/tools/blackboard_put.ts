/**
 * `blackboard_put`: registers an artifact of a workflow step on the
 * blackboard (`key → kind, path, summary`) for later steps and the final
 * check. Only available while a workflow runs.
 *
 * @module
 */
import * as z from "zod";
import { defineTool, fail, ok } from "./define.ts";

const schema = z.object({
  key: z.string().trim().min(1, "must not be empty").max(80),
  kind: z.string().trim().min(1, "must not be empty").max(40),
  path: z.string().trim().optional(),
  summary: z.string().trim().min(1, "must not be empty").max(1000),
});

type Args = z.infer<typeof schema>;

/** Registers one artifact on the workflow's blackboard. */
export const blackboardPut = defineTool<Args>({
  name: "blackboard_put",
  kind: "meta",
  description: "Register an artifact of the current step on the workflow's blackboard " +
    "so later steps and the final check can find it.",
  params: [
    { name: "key", description: "A short unique name, e.g. outline", required: true },
    { name: "kind", description: "What it is: file, data, note, report…", required: true },
    { name: "path", description: "Where it is, relative to the project (files)", required: false },
    { name: "summary", description: "One or two sentences on what it contains", required: true },
  ],
  schema,
  example: { key: "outline", kind: "file", path: "build/outline.md", summary: "Five sections" },
  execute(args, ctx) {
    if (!ctx.blackboard) {
      return Promise.resolve(
        fail("no_workflow", "The blackboard exists only while a workflow runs"),
      );
    }
    ctx.blackboard.put({
      key: args.key,
      kind: args.kind,
      ...(args.path ? { path: args.path } : {}),
      summary: args.summary,
    });
    return Promise.resolve(
      ok(`Registered "${args.key}" on the blackboard.`, `blackboard: ${args.key}`),
    );
  },
});
