import { searchTree, compileQuery } from "../core/tools/search_engine.ts";
import { walkTree } from "../core/tools/walk.ts";
import { compileGlob } from "../core/tools/glob.ts";
import { realFs } from "../core/tools/fs_port.ts";
const root = "/tmp/sb/tree";
for (let i = 0; i < 2; i++) {
let t = performance.now(); let n = 0;
await walkTree({ fs: realFs, root, cwd: root, recursive: true }, () => { n++; });
console.log("walk", n, (performance.now() - t).toFixed(0));
t = performance.now();
const r2 = await searchTree({ fs: realFs, root, cwd: root, match: compileGlob(""), query: compileQuery("findNeedle") });
console.log("content", r2.hits.length, (performance.now() - t).toFixed(0));
t = performance.now();
new Deno.Command("rg", { args: ["-n", "--no-require-git", "--hidden", "findNeedle", root], stdout: "null" }).outputSync();
console.log("rg", (performance.now() - t).toFixed(0));
}
