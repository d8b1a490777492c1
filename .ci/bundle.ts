/**
 * Builds the single file `dist/minoc.js` (`deno task bundle`).
 *
 * A plain `deno bundle` writes one 6 MB module, and Deno compiles all of it on
 * every start, even for `minoc --version` (~150 ms of CPU where hello-world
 * takes ~15 ms). So the file is built in two steps:
 *
 * 1. `deno bundle --code-splitting --minify` writes the program
 *    as ~100 modules (the entry, one per lazily loaded command, the npm
 *    packages apart), the way they load from source: a command compiles only
 *    what it imports. esbuild's `require` stand-in is then made a real one
 *    (see {@link realRequire}).
 * 2. Those modules are packed, brotli-compressed and base64-encoded, into one
 *    comment at the end of a small launcher (the template below). The first start
 *    unpacks them into a cache folder named after the content's hash
 *    (`$MINOC_CACHE_DIR`, else `$XDG_CACHE_HOME/minoc`, `~/.cache/minoc`, or
 *    `%LOCALAPPDATA%\minoc\cache`), atomically (a temp folder renamed into
 *    place); every start then imports the entry from there. A comment costs
 *    every start far less than a string literal would: 1.5 MB of string added
 *    ~24 ms to a start here (V8 makes the string and keeps it in the code
 *    cache), the same comment ~7 ms (it is only scanned); the first start reads
 *    the payload from the file's own text. The modules' dynamic imports of each other
 *    are rewritten to URLs built at run time, so that Deno does not walk (read
 *    and hash) every module reachable from the entry on each start; `Deno.mainModule` stays the launcher,
 *    so the `.minoc` home beside the file and the `__confine` helper work as
 *    before.
 *
 * Usage: `deno run -A .ci/bundle.ts [--output dist/minoc.js]`
 *
 * @module
 */
import { join } from "node:path";
import { brotliCompressSync, constants as zlib } from "node:zlib";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = fileURLToPath(new URL("..", import.meta.url));

/**
 * The launcher; `__ID__` and `__PAYLOAD__` are filled in (base64 never writes `*`, so the
 * payload cannot end its comment early). Plain JavaScript, kept short.
 */
const LAUNCHER = `// minoc: single-file launcher written by .ci/bundle.ts. The program is the
// compressed modules below; the first start unpacks them into a cache folder
// named after their hash, so each start compiles only the modules it needs.
const ID = "__ID__";
const env = (k) => { try { return Deno.env.get(k) ?? ""; } catch { return ""; } };
const win = Deno.build.os === "windows";
const sep = win ? "\\\\" : "/";
function cacheRoot() {
  if (env("MINOC_CACHE_DIR")) return env("MINOC_CACHE_DIR");
  if (win) return (env("LOCALAPPDATA") || env("TEMP")) + "\\\\minoc\\\\cache";
  if (env("XDG_CACHE_HOME")) return env("XDG_CACHE_HOME") + "/minoc";
  return env("HOME") ? env("HOME") + "/.cache/minoc" : "";
}
const present = (p) => { try { Deno.statSync(p); return true; } catch { return false; } };
// The payload, the comment at the end of this file, read as bytes only when unpacking (light).
async function payload() {
  const url = new URL(import.meta.url);
  const file = url.protocol === "file:"
    ? await Deno.readFile(url)
    : new Uint8Array(await (await fetch(url)).arrayBuffer());
  const mark = "/*" + "minoc-payload:"; // in two pieces: this line must not hold the mark itself
  const at = new TextDecoder().decode(file.subarray(0, 65536)).indexOf(mark);
  let end = file.length - 1;
  while (end > 0 && !(file[end] === 0x2f && file[end - 1] === 0x2a)) end--;
  if (at < 0 || end - 1 < at + mark.length)
    throw new Error("the file has no packed program at its end (cut short?)");
  const b64 = new TextDecoder().decode(file.subarray(at + mark.length, end - 1));
  return Uint8Array.fromBase64?.(b64) ?? Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}
// The packed program: a line of [name, byte length] pairs, then the modules' bytes in that order.
async function unpack(dir) {
  const unpacked = new Blob([await payload()]).stream().pipeThrough(new DecompressionStream("brotli"));
  const all = new Uint8Array(await new Response(unpacked).arrayBuffer());
  const nl = all.indexOf(10);
  const tmp = dir + "." + crypto.randomUUID() + ".tmp";
  await Deno.mkdir(tmp, { recursive: true });
  let at = nl + 1;
  for (const [name, size] of JSON.parse(new TextDecoder().decode(all.subarray(0, nl)))) {
    await Deno.writeFile(tmp + sep + name, all.subarray(at, at += size));
  }
  try {
    await Deno.rename(tmp, dir);
  } catch (e) {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
    if (!present(dir + sep + "main.js")) throw e; // else another start unpacked it first
  }
}
// Other builds' folders unused for 30 days, and temp folders of starts that died, go.
async function prune(base, keep) {
  for await (const e of Deno.readDir(base)) {
    const path = base + sep + e.name;
    if (!e.name.startsWith("bundle-") || path === keep) continue;
    const age = Date.now() - ((await Deno.stat(path).catch(() => null))?.mtime?.getTime() ?? Date.now());
    const limit = e.name.endsWith(".tmp") ? 3600e3 : 30 * 86400e3;
    if (age > limit) await Deno.remove(path, { recursive: true }).catch(() => {});
  }
}
function fileUrl(p) {
  const path = win ? "/" + p.replaceAll("\\\\", "/") : p;
  return "file://" + encodeURI(path).replace(/[?#]/g, encodeURIComponent);
}
const base = cacheRoot();
const dir = base + sep + "bundle-" + ID;
let main;
try {
  if (!base) throw new Error("no HOME, XDG_CACHE_HOME or MINOC_CACHE_DIR to unpack into");
  if (!present(dir + sep + "main.js")) {
    await unpack(dir);
    await prune(base, dir).catch(() => {});
  }
  ({ main } = await import(fileUrl(dir + sep + "main.js")));
} catch (e) {
  console.error('minoc: cannot unpack the program into "' + dir + '": ' + (e?.message ?? e) +
    "\\nSet MINOC_CACHE_DIR to a folder minoc may write, or delete that folder to unpack it again.");
  Deno.exit(1);
}
Deno.exit(await main(Deno.args));
/*minoc-payload:__PAYLOAD__*/
`;

/** Bundles `main.ts` with code splitting into `dir` and returns each module's name and text. */
async function splitModules(dir: string): Promise<Record<string, string>> {
  const r = await new Deno.Command(Deno.execPath(), {
    // Minified, names too: a start reads and compiles less. `--keep-names` cost ~20 ms of start
    // (a naming call per function and class); nothing minoc runs reads a function's name (the
    // openai client's User-Agent, which does, is set in core/llm/openai.ts).
    args: [
      ...["bundle", "--quiet", "--code-splitting", "--minify"],
      ...["--outdir", dir, "main.ts"],
    ],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (r.code !== 0) throw new Error(`deno bundle failed: ${new TextDecoder().decode(r.stderr)}`);
  const files: Record<string, string> = {};
  for await (const e of Deno.readDir(dir)) {
    if (e.isFile && e.name.endsWith(".js")) {
      files[e.name] = await Deno.readTextFile(join(dir, e.name));
    }
  }
  if (!("main.js" in files)) throw new Error(`deno bundle wrote no main.js into "${dir}"`);
  for (const [name, text] of Object.entries(files)) {
    files[name] = lazyBuiltins(realRequire(name, text));
  }
  // A dynamic import of a literal is part of Deno's module graph: Deno reads and hashes every
  // module reachable that way on each start (~17 ms here). Built at run time, it is not.
  const lazy = /import\("\.\/([\w.-]+\.js)"\)/g;
  for (const [name, text] of Object.entries(files)) {
    files[name] = text.replace(
      lazy,
      (all, target: string) =>
        target in files ? `import(new URL("./${target}", import.meta.url).href)` : all,
    );
  }
  return files;
}

/**
 * esbuild's stand-in for `require` inside bundled npm packages only throws
 * ("Dynamic require of ... is not supported"). Deno's bundler replaces it
 * with `createRequire(import.meta.url)` and a static import of `node:module`
 * where it finds its unminified form, and leaves the minified form (which
 * `--keep-names` makes) as it is. Both are replaced here by a `require` that
 * loads nothing until a package first requires something: a Node builtin
 * comes from `process.getBuiltinModule`, anything else from `createRequire`,
 * made then. (Importing `node:module` up front started Deno's Node layer on
 * every start, `--version` included: ~40 ms here.) A stand-in left over
 * fails the build rather than the program.
 */
export function realRequire(name: string, text: string): string {
  let found = false;
  let out = text.replace(REQUIRE_SHIM, () => {
    found = true;
    return "__minocRequire";
  });
  if (out.includes(DENO_IMPORT)) {
    found = true;
    out = out.replace(DENO_IMPORT, "").replaceAll(DENO_REQUIRE, "__minocRequire");
  }
  if (out.includes("Dynamic require of") || out.includes(DENO_REQUIRE)) {
    throw new Error(`${name}: esbuild's require stand-in has a form .ci/bundle.ts does not know`);
  }
  return found ? `${LAZY_REQUIRE}${out}` : out;
}

/** What Deno's bundler puts in place of esbuild's unminified stand-in. */
const DENO_IMPORT = 'import{createRequire as __deno_internal_createRequire} from "node:module";';
const DENO_REQUIRE = "__deno_internal_createRequire(import.meta.url)";

/** The `require` that {@link realRequire} puts in place (plain JavaScript, kept short). */
const LAZY_REQUIRE = "var __minocMade;" +
  "function __minocMake(){return __minocMade??=globalThis.process" +
  '.getBuiltinModule("node:module").createRequire(import.meta.url)}' +
  "function __minocRequire(id){const b=globalThis.process.getBuiltinModule(String(id));" +
  "return b!==undefined?b:__minocMake()(id)}" +
  "__minocRequire.resolve=(...a)=>__minocMake().resolve(...a);";

/**
 * Node builtins that a package imports whole but uses only on some paths:
 * commander imports `node:child_process` and `node:fs` for subcommands that
 * are programs of their own, which minoc has none of. Loading them costs
 * every start ~20 ms of Deno's Node layer (here), before `run`'s first
 * request. Each default import of one becomes an object that loads the
 * module on its first use (a named import is left as it is).
 */
export function lazyBuiltins(text: string): string {
  let lazy = "";
  const out = text.replace(LAZY_IMPORT, (_all, local: string, id: string) => {
    lazy += `var ${local}=__minocBuiltin("${id}");`;
    return "";
  });
  return lazy === "" ? text : `${LAZY_BUILTIN}${lazy}${out}`;
}

/** A default import of a builtin {@link lazyBuiltins} defers. */
const LAZY_IMPORT = /import ?([\w$]+) ?from ?"(node:(?:fs|child_process))";?/g;

/** The object that stands for a deferred builtin (plain JavaScript, kept short). */
const LAZY_BUILTIN = "function __minocBuiltin(id){let m;" +
  "const r=()=>m??=globalThis.process.getBuiltinModule(id);" +
  "return new Proxy({},{get:(_,k)=>r()[k],has:(_,k)=>k in r()," +
  "ownKeys:()=>Reflect.ownKeys(r())," +
  "getOwnPropertyDescriptor:(_,k)=>{const d=Reflect.getOwnPropertyDescriptor(r(),k);" +
  "return d&&{...d,configurable:true}}})}";

/** esbuild's minified `__require` helper (the names of its parameters vary). */
const REQUIRE_SHIM = new RegExp(
  [
    String.raw`\(([\w$]+)=>typeof require<"u"\?require:typeof Proxy<"u"\?new Proxy\(\1,`,
    String.raw`\{get:\(([\w$]+),([\w$]+)\)=>\(typeof require<"u"\?require:\2\)\[\3\]\}\):\1\)`,
    String.raw`\(function\(([\w$]+)\)\{if\(typeof require<"u"\)return require\.apply\(this,`,
    String.raw`arguments\);throw Error\('Dynamic require of "'\+\4\+'" is not supported'\)\}\)`,
  ].join(""),
  "g",
);

/**
 * The modules as the launcher unpacks them: a JSON line of `[name, byte length]` pairs, then
 * each module's UTF-8 bytes in that order (the first start writes them out without making text).
 */
function packModules(files: Record<string, string>): Uint8Array {
  const encoder = new TextEncoder();
  const parts = Object.entries(files).map(([name, text]) => [name, encoder.encode(text)] as const);
  const index = encoder.encode(JSON.stringify(parts.map(([n, b]) => [n, b.length])) + "\n");
  const out = new Uint8Array(index.length + parts.reduce((n, [, b]) => n + b.length, 0));
  out.set(index);
  let at = index.length;
  for (const [, b] of parts) {
    out.set(b, at);
    at += b.length;
  }
  return out;
}

/**
 * `data` compressed with brotli at its best (a quarter smaller than gzip here: every start reads
 * the payload's bytes, ~8 ms a MB on the 2-core machine), in base64.
 */
function brotliBase64(data: Uint8Array): string {
  const bytes = brotliCompressSync(data, {
    params: {
      [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
      [zlib.BROTLI_PARAM_LGWIN]: zlib.BROTLI_MAX_WINDOW_BITS,
      [zlib.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  });
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(s);
}

/** Builds the launcher with the packed program into `output` (a file path). */
export async function buildBundle(output: string): Promise<void> {
  const tmp = await Deno.makeTempDir({ prefix: "minoc_split_" });
  try {
    const packed = packModules(await splitModules(tmp));
    const digest = await crypto.subtle.digest("SHA-256", packed as Uint8Array<ArrayBuffer>);
    const id = [...new Uint8Array(digest).slice(0, 8)]
      .map((b) => b.toString(16).padStart(2, "0")).join("");
    const text = LAUNCHER.replace("__ID__", id).replace("__PAYLOAD__", brotliBase64(packed));
    await Deno.writeTextFile(output, text);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: { output: { type: "string", default: join(root, "dist", "minoc.js") } },
  });
  await Deno.mkdir(join(values.output, ".."), { recursive: true });
  await buildBundle(values.output);
  console.error(`Wrote ${values.output}`);
}
