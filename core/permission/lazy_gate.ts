/**
 * A gate whose module loads when it is first needed: at its warm-up, which
 * the session runs while the model works (as a request has just gone out:
 * the load is one piece that cannot be cut), or at the first call it must
 * judge, whichever comes first; calls it would pass unread are answered
 * without it. The session uses it for the security gate, whose rules and
 * shell readers are the largest part of the gates and are never needed before
 * the first reply, nor for reads. A load that fails makes every check it must
 * judge fail, which the runner turns into a refused call.
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

/**
 * A gate called `name` that is `load()`ed once, on first use. `passes`: the
 * calls the loaded gate would pass without looking further (it must ask the
 * same question itself); they are answered without loading it.
 */
export function lazyGate(
  name: string,
  load: () => Promise<Gate>,
  o: { passes?: (input: GateInput) => boolean } = {},
): Gate {
  let loading: Promise<Gate> | undefined;
  const gate = () => loading ??= load();
  return {
    name,
    async check(input: GateInput): Promise<Verdict> {
      if (o.passes?.(input)) return { gate: name, action: "pass" };
      return await (await gate()).check(input);
    },
    async warm(
      step: () => Promise<void>,
      samples: readonly GateInput[],
      large?: () => Promise<void>,
    ): Promise<void> {
      if (loading === undefined) await large?.();
      const inner = await gate();
      await inner.warm?.(step, samples);
    },
  };
}
