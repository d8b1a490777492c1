import assert from "node:assert/strict";
import { makeIndex, type Skill } from "../../../core/skills/index.ts";
import { promptTools } from "../../../core/skills/setup.ts";
import { tools } from "../../../core/tools/mod.ts";

const skill = { name: "brand-kit", description: "Apply the brand." } as Skill;

Deno.test("promptTools() documents use_skill only with skills, and run_skill_script never", () => {
  const names = (index: ReturnType<typeof makeIndex>) =>
    promptTools(tools, index).map((t) => t.name);
  const none = names(makeIndex([]));
  assert.ok(!none.includes("use_skill") && !none.includes("run_skill_script"));
  const some = names(makeIndex([skill]));
  assert.ok(some.includes("use_skill"));
  assert.ok(!some.includes("run_skill_script"), "use_skill's answer shows it with the scripts");
  assert.deepEqual(
    some,
    tools.map((t) => t.name).filter((n) => n !== "run_skill_script"),
    "every other tool, in order",
  );
});
