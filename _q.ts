const root = Deno.args[0];
function walk(p: string): number { let n = 0; for (const e of Deno.readDirSync(p)) { n++; if (e.isDirectory) n += walk(p + "/" + e.name); } return n; }
for (let i = 0; i < 3; i++) { const t = performance.now(); const n = walk(root); console.log(n, (performance.now() - t).toFixed(1)); }
