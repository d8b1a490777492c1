/**
 * Step mode in an editor (`minoc acp --step`): before each call runs, the
 * editor is asked through `session/request_permission` with Run, Run the
 * rest without stepping, Skip and Abort the task. Editing a call's
 * parameters needs the terminal, so it is not offered. An unknown option or
 * no answer skips the call: it never runs unasked.
 *
 * @example
 * ```ts
 * const step = { prompt: acpStep({ request, call: () => updates.current, note }), on: true };
 * ```
 * @module
 */
import type { PermissionOption, RequestPermissionRequest } from "@agentclientprotocol/sdk";
import type { StepChoice, StepPrompt, StepView } from "../../core/permission/step.ts";
import type { CurrentCall } from "./updates.ts";
import { text, toolKind } from "./tool_view.ts";

/** What the ACP step prompt needs. */
export interface AcpStepOptions {
  /** Sends `session/request_permission` (adding the session id). */
  request(params: Omit<RequestPermissionRequest, "sessionId">): Promise<unknown>;
  call(): CurrentCall | null;
  /** Tells the user something (a thought). */
  note(message: string): void;
}

const OPTIONS: PermissionOption[] = [
  { optionId: "step_run", name: "Run", kind: "allow_once" },
  { optionId: "step_rest", name: "Run the rest without stepping", kind: "allow_always" },
  { optionId: "step_skip", name: "Skip this call", kind: "reject_once" },
  { optionId: "step_abort", name: "Abort the task", kind: "reject_always" },
];

const CHOICES: Record<string, StepChoice> = {
  step_run: { kind: "run" },
  step_rest: { kind: "rest" },
  step_skip: { kind: "skip" },
  step_abort: { kind: "abort" },
};

/** The step prompt over ACP. */
export function acpStep(o: AcpStepOptions): StepPrompt {
  return {
    async choose(view: StepView): Promise<StepChoice> {
      const cur = o.call();
      const verdicts = view.decision.verdicts.map((v) =>
        `${v.gate}: ${v.action}${v.rule ? ` (${v.rule})` : ""}${v.reason ? ` — ${v.reason}` : ""}`
      );
      let answer: unknown;
      try {
        answer = await o.request({
          toolCall: {
            toolCallId: cur?.id ?? "call_unknown",
            title: `Step: ${cur?.title ?? view.call.tool}`,
            kind: toolKind(view.call.tool),
            status: "pending",
            locations: cur?.locations ?? [],
            content: [...(cur?.content ?? []), text(verdicts.join("\n"))],
            rawInput: view.call.params,
          },
          options: OPTIONS,
        });
      } catch {
        return { kind: "skip" };
      }
      const outcome = (answer as { outcome?: { outcome?: string; optionId?: unknown } })?.outcome;
      const id = outcome?.outcome === "selected" ? String(outcome.optionId) : "";
      return CHOICES[id] ?? { kind: "skip" };
    },
    notice(message: string): void {
      o.note(message);
    },
  };
}
