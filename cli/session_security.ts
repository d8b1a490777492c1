/**
 * The session's security gate. security.json is read when the session opens,
 * so a broken one stops it with a usage error before anything is sent to the
 * model; the gate's rules and shell readers (the largest part of the gates)
 * load later, while the model works on the first request
 * (`core/permission/lazy_gate.ts`).
 *
 * @example
 * ```ts
 * const file = await readSecurityFile(join(paths.config, "security.json"));
 * const gate = securityGateOf(file, { cwd, home, readFile });
 * ```
 * @module
 */
import type { Gate, GateInput } from "../interfaces/tool.ts";
import type { SecurityConfig } from "../core/permission/security/config.ts";
import { lazyGate } from "../core/permission/lazy_gate.ts";
import { securityJudges } from "../core/permission/security_scope.ts";
import { CliError, EXIT } from "./io.ts";

/** security.json: its path, and its checked contents when the file was there at the start. */
export interface SecurityFile {
  path: string;
  config: SecurityConfig | null;
}

/** Reads and checks `path` if it exists; a broken file is a usage error naming it. */
export async function readSecurityFile(path: string): Promise<SecurityFile> {
  return { path, config: present(path) ? await load(path) : null };
}

/** The security gate over `file`, loaded on first use (a file absent at the start is read then). */
export function securityGateOf(
  file: SecurityFile,
  o: { cwd: string; home: string; readFile(path: string): Promise<string> },
): Gate {
  // A call it has nothing to judge (a read, a listing) does not wait for the rules to load.
  const passes = (input: GateInput) => !securityJudges(input);
  return lazyGate("security", async () => {
    const { defaultShell, securityGate } = await import("../core/permission/security.ts");
    return securityGate({
      cwd: o.cwd,
      home: o.home,
      shell: defaultShell(Deno.env.toObject()),
      config: file.config ?? await load(file.path),
      readFile: o.readFile,
    });
  }, { passes });
}

async function load(path: string): Promise<SecurityConfig> {
  const { loadSecurityConfig } = await import("../core/permission/security.ts");
  const security = await loadSecurityConfig(path);
  if (!security.ok) throw new CliError(security.error, EXIT.usage);
  return security.config;
}

/** Whether `path` exists (anything Deno cannot stat counts as there: reading it will say why). */
function present(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch (e) {
    return !(e instanceof Deno.errors.NotFound);
  }
}
