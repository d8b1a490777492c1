/**
 * `use_skill`: levels 2 and 3 of a skill's progressive disclosure as text —
 * its SKILL.md body, one named section of it, or one file under its
 * `resources/`. Long bodies come cut at headings with a table of contents;
 * text already sent in the session comes back as a short reminder.
 *
 * @module
 */
import * as z from "zod";
import { defineTool, fail } from "./define.ts";

const schema = z.object({
  name: z.string().trim().min(1, "must not be empty"),
  section: z.string().trim().optional(),
  resource: z.string().trim().optional(),
});

type Args = z.infer<typeof schema>;

/** Discloses a skill's instructions, a section of them, or a resource file. */
export const useSkill = defineTool<Args>({
  name: "use_skill",
  kind: "read",
  description:
    "A skill's instructions (long ones in parts: ask for a section by heading) or one of its resources.",
  params: [
    { name: "name", description: "The skill's name", required: true },
    {
      name: "section",
      description: "A heading of the skill to read only that part",
      required: false,
    },
    {
      name: "resource",
      description: "A file under the skill's resources/ to read instead of its instructions",
      required: false,
    },
  ],
  schema,
  example: { name: "release-checklist" },
  execute(args, ctx) {
    if (!ctx.skills) {
      return Promise.resolve(fail("no_skills", "No skills are installed in this session"));
    }
    return ctx.skills.disclose({
      name: args.name,
      section: args.section || undefined,
      resource: args.resource || undefined,
    });
  },
});
