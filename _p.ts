import { analyzeProject } from "./core/agent/project.ts";
const dir = Deno.args[0] ?? Deno.cwd();
for (let i = 0; i < 3; i++) {
  const p = await analyzeProject(dir);
  console.log(p.ms, p.tokens, p.section.length, p.facts.partial);
  if (i === 2) console.log(p.section);
}
