/**
 * `ask_followup_question`: the model asks the user and gets the answer back.
 *
 * @module
 */
import * as z from "zod";
import { defineTool, ok } from "./define.ts";

/** Asks the user one question through `ctx.ask`. */
export const askFollowupQuestion = defineTool({
  name: "ask_followup_question",
  kind: "meta",
  description: "Ask the user one question and wait for the answer.",
  params: [
    { name: "question", description: "One clear question", required: true },
  ],
  schema: z.object({ question: z.string().trim().min(1, "must not be empty") }),
  example: { question: "Which port should the server listen on?" },
  async execute(args, ctx) {
    const answer = await ctx.ask(args.question);
    return ok(`The user answered:\n${answer}`, `Asked: ${args.question}`);
  },
});
