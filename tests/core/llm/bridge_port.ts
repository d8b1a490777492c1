/**
 * A scripted {@link PastePort} for bridge tests: answers reads and confirms
 * from a list, records what the bridge said, and runs a hook at each step
 * (e.g. to look at the clipboard file at that moment).
 */
import type { PasteInput, PastePort } from "../../../core/llm/bridge.ts";

/** One scripted step: what a `read` returns, or `"confirm"` for a part confirmation. */
export type Step = PasteInput | "confirm" | "cancel";

/** A port that follows `steps` in order and fails the test on an unexpected call. */
export class ScriptedPort implements PastePort {
  readonly said: string[] = [];
  readonly calls: string[] = [];
  /** `autoConfirm`: every confirmation succeeds without a step of its own. */
  constructor(
    private readonly steps: Step[],
    private readonly onStep: (kind: "read" | "confirm", index: number) => Promise<void> = () =>
      Promise.resolve(),
    private readonly autoConfirm = false,
  ) {}

  say(text: string): void {
    this.said.push(text);
  }

  async confirm(message: string): Promise<boolean> {
    this.calls.push(`confirm: ${message}`);
    await this.onStep("confirm", this.calls.length - 1);
    if (this.autoConfirm) return true;
    const step = this.next();
    if (step === "cancel") return false;
    if (step !== "confirm") throw new Error(`Expected a read, got a confirmation: ${message}`);
    return true;
  }

  async read(message: string): Promise<PasteInput | null> {
    this.calls.push(`read: ${message.slice(0, 30)}`);
    await this.onStep("read", this.calls.length - 1);
    const step = this.next();
    if (step === "cancel") return null;
    if (step === "confirm") throw new Error("Expected a confirmation, got a read");
    return step;
  }

  private next(): Step {
    const step = this.steps.shift();
    if (step === undefined) throw new Error("The bridge asked for more than the script holds");
    return step;
  }
}

/** A typed answer. */
export function typed(text: string): PasteInput {
  return { kind: "text", text };
}
