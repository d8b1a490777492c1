/**
 * The `__confine` helper: a short-lived minoc process that confines itself
 * with Landlock and becomes the skill script's interpreter. minoc starts it
 * as `minoc __confine --write <dir>… --write-file <file>… [--no-network] -- <program> <args>…`
 * (from source: `deno run --allow-ffi core/sandbox/confine_entry.ts …`), or
 * `minoc __confine --probe` to learn whether Landlock works here.
 *
 * Exit codes (only when the program could not be started): 2 bad usage,
 * 125 the confinement failed (stderr says why), 127 the program was not found.
 *
 * @module
 */
import { confineAndExec, landlockAbi } from "./landlock.ts";

/** The helper's exit codes. */
export const CONFINE_EXIT = { usage: 2, failed: 125, notFound: 127 } as const;

/** Runs the helper with its arguments (after `__confine`); returns an exit code on failure. */
export function confineMain(
  args: readonly string[],
  out: (text: string) => void,
  err: (text: string) => void,
): number {
  if (args.length === 1 && args[0] === "--probe") {
    try {
      const abi = landlockAbi();
      if (abi === 0) {
        err("Landlock is not available in this kernel (Linux 5.13 or newer with Landlock on)\n");
        return CONFINE_EXIT.failed;
      }
      out(`landlock ${abi}\n`);
      return 0;
    } catch (e) {
      err(`${(e as Error).message}\n`);
      return CONFINE_EXIT.failed;
    }
  }
  const dirs: string[] = [];
  const files: string[] = [];
  let noNetwork = false;
  let i = 0;
  for (; i < args.length && args[i] !== "--"; i += 2) {
    if (args[i] === "--no-network") {
      noNetwork = true;
      i--;
      continue;
    }
    const [flag, value] = [args[i], args[i + 1]];
    if (value === undefined || (flag !== "--write" && flag !== "--write-file")) {
      err(
        `minoc __confine: expected --write <dir>, --write-file <file>, --no-network or --, got "${flag}"\n`,
      );
      return CONFINE_EXIT.usage;
    }
    (flag === "--write" ? dirs : files).push(value);
  }
  const argv = args.slice(i + 1);
  if (i >= args.length || argv.length === 0) {
    err("minoc __confine: expected -- <program> [args…]\n");
    return CONFINE_EXIT.usage;
  }
  try {
    const problem = confineAndExec({ dirs, files, noNetwork }, argv);
    err(`minoc sandbox: ${problem}\n`);
    return /No such file/.test(problem) ? CONFINE_EXIT.notFound : CONFINE_EXIT.failed;
  } catch (e) {
    err(`minoc sandbox: ${(e as Error).message}\n`);
    return CONFINE_EXIT.failed;
  }
}
