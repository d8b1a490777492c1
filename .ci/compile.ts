/**
 * Builds minoc's single-file binaries with `deno compile`, one per target,
 * into `dist/` (`deno task compile`). With `--host`, only this machine's.
 *
 * `deno compile` downloads Deno's runtime (`denort`) for each target from
 * Deno's release host the first time, so this needs that host to be
 * reachable; everything else (npm packages, the tree-sitter wasm, the example
 * configuration) comes from the local cache and is embedded in the binary.
 *
 * Usage: `deno run --allow-run --allow-read --allow-write --allow-env .ci/compile.ts
 * [--host | <target>...]`
 *
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** Every release target and the file name of its binary in `dist/`. */
export const TARGETS: Readonly<Record<string, string>> = {
  "x86_64-unknown-linux-gnu": "minoc-linux-x86_64",
  "aarch64-unknown-linux-gnu": "minoc-linux-aarch64",
  "x86_64-apple-darwin": "minoc-macos-x86_64",
  "aarch64-apple-darwin": "minoc-macos-aarch64",
  "x86_64-pc-windows-msvc": "minoc-windows-x86_64.exe",
};

/** The permissions the binary starts with: those of `deno task start`, and FFI for the `__confine` sandbox helper. */
const PERMISSIONS = [
  "--allow-env",
  "--allow-read",
  "--allow-write",
  "--allow-net",
  "--allow-run",
  "--allow-sys",
  "--allow-ffi",
];

/**
 * V8's young generation capped at 2 MB (a long session's peak memory drops by a third), and every
 * function compiled with its module, so the code cache holds it: a session's first turns run
 * without compiling (bench/NOTES.md).
 */
export const V8_FLAGS = ["--v8-flags=--max-semi-space-size=2,--no-lazy"];

const root = fileURLToPath(new URL("..", import.meta.url));

async function compile(target: string | undefined, output: string): Promise<boolean> {
  // Type checking is `deno task ok`'s job (the release workflow runs it first).
  // The commands' sandbox starts its worker from this file (core/sandbox/spawner.ts).
  const include = ["--include", "core/sandbox/spawn_worker.ts"];
  const args = [
    "compile",
    "--no-check",
    ...PERMISSIONS,
    ...V8_FLAGS,
    ...include,
    "--output",
    output,
  ];
  if (target) args.push("--target", target);
  args.push("main.ts");
  console.log(`deno ${args.join(" ")}`);
  const { code } = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: root,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (code !== 0) console.error(`Cannot build "${output}": deno compile exited with ${code}`);
  return code === 0;
}

async function main(args: string[]): Promise<number> {
  const unknown = args.filter((a) => a !== "--host" && !(a in TARGETS));
  if (unknown.length > 0) {
    console.error(
      `Unknown target "${unknown[0]}": expected --host or one of ${
        Object.keys(TARGETS).join(", ")
      }`,
    );
    return 2;
  }
  await Deno.mkdir(join(root, "dist"), { recursive: true });
  if (args.includes("--host")) {
    const exe = Deno.build.os === "windows" ? ".exe" : "";
    return await compile(undefined, `dist/minoc${exe}`) ? 0 : 1;
  }
  const targets = args.length > 0 ? args : Object.keys(TARGETS);
  let failed = 0;
  for (const target of targets) {
    if (!await compile(target, `dist/${TARGETS[target]}`)) failed++;
  }
  return failed === 0 ? 0 : 1;
}

if (import.meta.main) Deno.exitCode = await main(Deno.args);
