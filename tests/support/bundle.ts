/**
 * The bundle under test: the one `MINOC_ENTRY` names (CI tests the shipped
 * file), else one built now into `dir` the way `deno task bundle` builds it.
 *
 * @module
 */
import { join } from "node:path";
import { buildBundle } from "../../.ci/bundle.ts";

/** Path of the bundle to test. */
export async function bundleUnderTest(dir: string): Promise<string> {
  const given = Deno.env.get("MINOC_ENTRY");
  if (given?.endsWith(".js")) return given;
  const out = join(dir, "minoc.js");
  await buildBundle(out);
  return out;
}

/** What one start of a bundle printed. */
export interface BundleRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `deno run --allow-all [flags] <file> <args>` with stdin closed, in an
 * environment of `env` and `PATH` only (`inherit`: the test's environment
 * under `env`).
 */
export async function startBundle(
  file: string,
  args: string[],
  o: { env: Record<string, string>; cwd?: string; flags?: string[]; inherit?: boolean },
): Promise<BundleRun> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--no-prompt", "--allow-all", ...o.flags ?? [], file, ...args],
    cwd: o.cwd,
    clearEnv: !o.inherit,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", ...o.env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}
