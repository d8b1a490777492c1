/**
 * Step mode: after the gates (and any approval answer) and before the call
 * runs, the user sees the model's raw text for the turn, the parsed call,
 * each gate's verdict with its rule and, for writes, the diff; then runs it,
 * skips it (the model is told), edits its parameters (re-validated, re-gated
 * and shown again), runs the rest of the task without stepping, or aborts
 * the task. The choice is recorded as the `step` gate's verdict.
 *
 * The terminal side is a {@link StepPrompt} (`cli/prompt/step.ts`).
 *
 * @example
 * ```ts
 * const stepper = new Stepper(terminalStep(write, c), { on: true, onAbort: () => ctl.abort() });
 * const runner = { pipeline, context, backups, stepper };
 * ```
 * @module
 */
import type { AnyTool, Preview, ToolCall, ToolResult, Verdict } from "../../interfaces/tool.ts";
import type { PipelineDecision } from "./pipeline.ts";
import { fail } from "../tools/define.ts";

/** A call as the pipeline decided it, ready to run. */
export interface GatedCall {
  call: ToolCall;
  tool: AnyTool;
  args: unknown;
  preview: Preview;
  decision: PipelineDecision;
}

/** What the step prompt shows. */
export interface StepView extends GatedCall {
  /** The model's whole reply for this turn. */
  rawText: string;
  cwd: string;
}

/** The user's choice at a step. */
export type StepChoice =
  | { kind: "run" }
  | { kind: "skip" }
  | { kind: "rest" }
  | { kind: "abort" }
  /** Run this call instead (the same tool, edited parameters). */
  | { kind: "edit"; call: ToolCall };

/** The terminal side of step mode. */
export interface StepPrompt {
  choose(view: StepView): Promise<StepChoice>;
  /** Tells the user why an edited call cannot be used. */
  notice(message: string): void;
}

/** Validates, previews and gates an edited call again. */
export type Regate = (call: ToolCall) => Promise<GatedCall | { problem: string }>;

/** How a step ended. */
export interface Stepped {
  /** The call to act on (edited, maybe), with the step's verdict appended. */
  gated: GatedCall;
  /** Set when the call must not run: what the model is told instead. */
  result?: ToolResult;
  /** Set when the user edited the call: put before the result for the model. */
  note?: string;
}

/** Options of {@link Stepper}. */
export interface StepperOptions {
  /** Start with stepping on. */
  on: boolean;
  /** Ends the running task (chat: aborts its controller). */
  onAbort?(): void;
}

/** Step mode's switch and its review of each call. */
export class Stepper {
  #on: boolean;

  constructor(private readonly prompt: StepPrompt, private readonly options: StepperOptions) {
    this.#on = options.on;
  }

  /** Whether calls are stepped through. */
  get on(): boolean {
    return this.#on;
  }

  /** Turns stepping on or off (`/step on|off`). */
  set(on: boolean): void {
    this.#on = on;
  }

  /** Shows `first` and acts on the user's choice until one ends the step. */
  async review(first: GatedCall, rawText: string, cwd: string, regate: Regate): Promise<Stepped> {
    let current = first;
    let edited = false;
    while (true) {
      const choice = await this.prompt.choose({ ...current, rawText, cwd });
      if (choice.kind === "edit") {
        const next = await regate(choice.call);
        if ("problem" in next) {
          this.prompt.notice(`The edited call cannot be used: ${next.problem}`);
          continue;
        }
        current = next;
        edited = true;
        if (current.decision.action === "deny") break;
        continue;
      }
      if (choice.kind === "rest") this.#on = false;
      return this.#finish(current, choice.kind, edited);
    }
    return { gated: withVerdict(current, "pass", "user: edit"), note: editNote(current.call) };
  }

  #finish(gated: GatedCall, kind: "run" | "skip" | "rest" | "abort", edited: boolean): Stepped {
    const note = edited ? editNote(gated.call) : undefined;
    if (kind === "run" || kind === "rest") {
      const rule = kind === "run"
        ? edited ? "user: edit, then run" : "user: run"
        : "user: run the rest without stepping";
      return { gated: withVerdict(gated, "pass", rule), note };
    }
    if (kind === "skip") {
      return {
        gated: withVerdict(gated, "deny", "user: skip"),
        result: fail(
          "skipped",
          "The user skipped this call in step mode: it was not run. Go on without its result, " +
            "or try another way.",
          "skipped",
        ),
      };
    }
    this.options.onAbort?.();
    return {
      gated: withVerdict(gated, "deny", "user: abort"),
      result: fail(
        "aborted",
        "The user aborted the task in step mode: this call was not run",
        "aborted",
      ),
    };
  }
}

function withVerdict(g: GatedCall, action: Verdict["action"], rule: string): GatedCall {
  const verdict: Verdict = { gate: "step", action, rule };
  return { ...g, decision: { ...g.decision, verdicts: [...g.decision.verdicts, verdict] } };
}

function editNote(call: ToolCall): string {
  const params = Object.entries(call.params).map(([k, v]) =>
    `${k}=${JSON.stringify(Array.isArray(v) ? v.join(",") : v).slice(0, 200)}`
  );
  return `The user edited this call's parameters before it ran: ${call.tool} ${params.join(" ")}`;
}
