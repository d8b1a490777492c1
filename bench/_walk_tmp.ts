import { searchTree, compileQuery } from "../core/tools/search_engine.ts";
import { compileGlob } from "../core/tools/glob.ts";
import { realFs } from "../core/tools/fs_port.ts";
const root = "/tmp/sb/tree";
for (let i = 0; i < 3; i++) {
for (const workers of [true, false]) {
const t = performance.now();
const r2 = await searchTree({ fs: realFs, root, cwd: root, match: compileGlob(""), query: compileQuery("findNeedle"), workers });
console.log("content", workers, r2.hits.length, r2.searched, r2.binary, (performance.now() - t).toFixed(0));
}
const t = performance.now();
new Deno.Command("rg", { args: ["-n", "--no-require-git", "--hidden", "findNeedle", root], stdout: "null" }).outputSync();
console.log("rg", (performance.now() - t).toFixed(0));
}
