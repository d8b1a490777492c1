/**
 * A gate whose module loads when it is first needed: at its warm-up, which
 * the session runs while the model works on the first request, or at the
 * first call it checks, whichever comes first. The session uses it for the
 * security gate, whose rules and shell readers are the largest part of the
 * gates and are never needed before the first reply. A load that fails makes
 * every check fail, which the runner turns into a refused call.
 *
 * @example
 * ```ts
 * const gate = lazyGate("security", async () =>
 *   (await import("./security.ts")).securityGate(options));
 * await gate.check(input); // loads the module once, then asks it
 * ```
 * @module
 */
import type { Gate, GateInput, Verdict } from "../../interfaces/tool.ts";

/** A gate called `name` that is `load()`ed once, on first use. */
export function lazyGate(name: string, load: () => Promise<Gate>): Gate {
  let loading: Promise<Gate> | undefined;
  const gate = () => loading ??= load();
  return {
    name,
    async check(input: GateInput): Promise<Verdict> {
      return await (await gate()).check(input);
    },
    async warm(step: () => Promise<void>, samples: readonly GateInput[]): Promise<void> {
      const inner = await gate();
      await inner.warm?.(step, samples);
    },
  };
}
