import ignore from "ignore";
const ig = ignore().add("build/\n*.log\n");
const paths: string[] = [];
for (let a = 0; a < 100; a++) for (let b = 0; b < 10; b++) for (let c = 0; c < 50; c++) paths.push(`src/p${a}/d${b}/f${c}.ts`);
let t = performance.now(); let n = 0;
for (const p of paths) if (ig.test(p).ignored) n++;
console.log("test", n, (performance.now() - t).toFixed(0));
const ig2 = ignore().add("build/\n*.log\n");
t = performance.now(); n = 0;
// deno-lint-ignore no-explicit-any
const rules = (ig2 as any)._rules;
for (const p of paths) if (rules.test(p, "regex").ignored) n++;
console.log("rules", n, (performance.now() - t).toFixed(0));
t = performance.now(); n = 0;
let ig3 = ignore().add("build/\n*.log\n"); let k = 0;
for (const p of paths) { if (++k % 500 === 0) ig3 = ignore().add("build/\n*.log\n"); if (ig3.test(p).ignored) n++; }
console.log("fresh per 500", n, (performance.now() - t).toFixed(0));
