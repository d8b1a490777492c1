/**
 * `blackboard_get`: reads one artifact of the workflow's blackboard by key,
 * or lists them all. Only available while a workflow runs.
 *
 * @module
 */
import * as z from "zod";
import { formatBlackboard } from "./blackboard.ts";
import { defineTool, fail, ok } from "./define.ts";

const schema = z.object({ key: z.string().trim().optional() });

type Args = z.infer<typeof schema>;

/** Reads the workflow's blackboard. */
export const blackboardGet = defineTool<Args>({
  name: "blackboard_get",
  kind: "meta",
  description: "Read an artifact registered on the workflow's blackboard, or list them all.",
  params: [{ name: "key", description: "The artifact's key (omit to list all)", required: false }],
  schema,
  example: { key: "outline" },
  execute(args, ctx) {
    const board = ctx.blackboard;
    if (!board) {
      return Promise.resolve(
        fail("no_workflow", "The blackboard exists only while a workflow runs"),
      );
    }
    if (!args.key) return Promise.resolve(ok(formatBlackboard(board.list()), "blackboard: list"));
    const entry = board.get(args.key);
    if (!entry) {
      const keys = board.list().map((e) => e.key).join(", ") || "none";
      return Promise.resolve(
        fail("not_found", `No artifact "${args.key}" on the blackboard; keys: ${keys}`),
      );
    }
    return Promise.resolve(ok(formatBlackboard([entry]), `blackboard: ${args.key}`));
  },
});
