/**
 * The bundle's `require`: esbuild's minified stand-in (which only throws) is
 * replaced by a real one that imports nothing up front (Node's builtins on
 * first use, `createRequire` for anything else), and a stand-in of another
 * form fails the build instead of the program.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { lazyBuiltins, realRequire } from "../../.ci/bundle.ts";

const SHIM = `var q=(b=>typeof require<"u"?require:typeof Proxy<"u"?new Proxy(b,{get:(a,c)=>(` +
  `typeof require<"u"?require:a)[c]}):b)(function(b){if(typeof require<"u")return require.apply(` +
  `this,arguments);throw Error('Dynamic require of "'+b+'" is not supported')});`;

Deno.test("bundle: esbuild's minified require stand-in becomes a real require", async () => {
  const out = realRequire("chunk.js", `${SHIM}export{q as r};`);
  assert.doesNotMatch(out, /Dynamic require/);
  // No import: a start that requires nothing does not start Deno's Node layer.
  assert.doesNotMatch(out, /import\s*[{("*]|from"node:/);
  // The module made requires a Node builtin, which the stand-in cannot.
  const dir = await Deno.makeTempDir({ prefix: "minoc_shim_" });
  try {
    await Deno.writeTextFile(join(dir, "real.js"), out);
    await Deno.writeTextFile(join(dir, "shim.js"), `${SHIM}export{q as r};`);
    const { r } = await import(pathToFileURL(join(dir, "real.js")).href);
    assert.equal(typeof r("node:path").join, "function");
    assert.equal(typeof r("events").EventEmitter, "function");
    assert.equal(r.resolve("node:fs"), "node:fs");
    assert.throws(() => r("./missing.js"), /Cannot find module '\.\/missing\.js'/);
    const { r: shim } = await import(pathToFileURL(join(dir, "shim.js")).href);
    assert.throws(() => shim("node:path"), /Dynamic require of "node:path" is not supported/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("bundle: the createRequire Deno's bundler puts in place is made lazy too", async () => {
  const deno =
    'var m=1;import{createRequire as __deno_internal_createRequire} from "node:module";' +
    "var q=__deno_internal_createRequire(import.meta.url);export{q as r};";
  const out = realRequire("chunk.js", deno);
  assert.doesNotMatch(out, /__deno_internal_createRequire|import\s*[{("*]|from\s*"node:/);
  const dir = await Deno.makeTempDir({ prefix: "minoc_shim_" });
  try {
    await Deno.writeTextFile(join(dir, "real.js"), out);
    const { r } = await import(pathToFileURL(join(dir, "real.js")).href);
    assert.equal(typeof r("node:path").join, "function");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("bundle: a module without the stand-in is left as it is; another form of it fails the build", () => {
  assert.equal(realRequire("a.js", "export const x=1;"), "export const x=1;");
  const other = SHIM.replace("function(b){", "function(b,c){");
  assert.throws(() => realRequire("b.js", other), /b\.js: esbuild's require stand-in has a form/);
  const call = "var q=__deno_internal_createRequire(import.meta.url);";
  assert.throws(() => realRequire("c.js", call), /c\.js: esbuild's require stand-in has a form/);
});

Deno.test("bundle: commander's node:fs and node:child_process load on first use, not with the module", async () => {
  const chunk =
    'var t=1;import{EventEmitter as W}from"node:events";import H from"node:child_process";' +
    'import d from"node:path";import E from"node:fs";export{H,E,W,d};';
  const out = lazyBuiltins(chunk);
  assert.doesNotMatch(out, /from"node:(fs|child_process)"/);
  // Other builtins, and named imports, are left as they are.
  assert.match(out, /import\{EventEmitter as W\}from"node:events";import d from"node:path";/);
  assert.equal(
    lazyBuiltins('import{spawn as s}from"node:child_process";'),
    'import{spawn as s}from"node:child_process";',
  );
  const dir = await Deno.makeTempDir({ prefix: "minoc_shim_" });
  try {
    await Deno.writeTextFile(join(dir, "lazy.js"), out);
    const m = await import(pathToFileURL(join(dir, "lazy.js")).href);
    assert.equal(typeof m.H.spawn, "function");
    assert.equal(m.E.existsSync(dir), true);
    assert.ok("readFileSync" in m.E);
    assert.ok(Object.keys(m.E).includes("statSync"));
    assert.equal(typeof m.W, "function");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
