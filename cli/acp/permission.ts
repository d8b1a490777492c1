/**
 * The approval prompt of an ACP session: the {@link Confirm} port answered by
 * the editor through `session/request_permission`. The options map to Allow
 * once / Allow always / Deny; "Allow always" stores the same rule the
 * terminal offers first (the narrowest pattern, this project) through the
 * approval gate. Anything but a known allow option — an unknown option, a
 * cancelled request, an error, no answer in time — is a denial.
 *
 * @example
 * ```ts
 * const confirm = acpConfirm({ request, call: () => updates.current, keeper: () => gate, turn });
 * ```
 * @module
 */
import type {
  PermissionOption,
  RequestPermissionRequest,
  RequestPermissionResponse,
} from "@agentclientprotocol/sdk";
import type { Confirm, Decision, GateInput, Verdict } from "../../interfaces/tool.ts";
import type { RuleKeeper } from "../../core/permission/approval.ts";
import { describeRule } from "../../core/permission/rules.ts";
import type { CurrentCall } from "./updates.ts";
import { text, toolKind } from "./tool_view.ts";

/** How long the editor may take to answer before the call is denied (30 minutes). */
export const ANSWER_LIMIT_MS = 30 * 60_000;

/** What the ACP approval prompt needs. */
export interface AcpConfirmOptions {
  /** Sends `session/request_permission` (adding the session id); `signal` cancels it. */
  request(
    params: Omit<RequestPermissionRequest, "sessionId">,
    signal: AbortSignal,
  ): Promise<RequestPermissionResponse>;
  /** The call being gated, as the editor already knows it. */
  call(): CurrentCall | null;
  /** The approval gate, which offers and stores "allow always" rules. */
  keeper(): RuleKeeper | undefined;
  /** The running turn's signal. */
  turn(): AbortSignal | undefined;
  /** Default {@link ANSWER_LIMIT_MS}. */
  limitMs?: number;
}

/** The Confirm port over ACP. */
export function acpConfirm(o: AcpConfirmOptions): Confirm {
  return {
    async ask(input: GateInput, verdicts: readonly Verdict[]): Promise<Decision> {
      const keeper = o.keeper();
      const proposal = keeper?.propose(input);
      const first = proposal?.variants[0];
      const always = first && proposal
        ? `Allow always: ${
          first.patterns.map((pattern) =>
            describeRule(
              { tool: proposal.tool, pattern, action: "allow", scope: proposal.projectDir },
              proposal.projectDir,
            )
          ).join(", ")
        }`
        : null;
      const options: PermissionOption[] = [
        { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
        ...(always
          ? [{ optionId: "allow_always", name: always, kind: "allow_always" as const }]
          : []),
        { optionId: "reject_once", name: "Deny", kind: "reject_once" },
      ];
      const answer = await ask(o, input, verdicts, options);
      if (!answer.ok) return { kind: "deny", reason: answer.reason };
      if (answer.optionId === "allow_once") return { kind: "once" };
      if (answer.optionId === "allow_always" && always && keeper && first) {
        await keeper.keep(input, { patterns: first.patterns, scope: "project" });
        return { kind: "always" };
      }
      if (answer.optionId === "reject_once") {
        return { kind: "deny", reason: "denied in the editor" };
      }
      return {
        kind: "deny",
        reason: `the editor answered with an unknown option "${answer.optionId}"`,
      };
    },
  };
}

type Answer = { ok: true; optionId: string } | { ok: false; reason: string };

async function ask(
  o: AcpConfirmOptions,
  input: GateInput,
  verdicts: readonly Verdict[],
  options: PermissionOption[],
): Promise<Answer> {
  const cur = o.call();
  const why = verdicts.filter((v) => v.action === "ask").map((v) =>
    `${v.gate}${v.risk ? ` [${v.risk}]` : ""}: ${v.reason ?? "asks"}`
  );
  const params: Omit<RequestPermissionRequest, "sessionId"> = {
    toolCall: {
      toolCallId: cur?.id ?? "call_unknown",
      title: cur?.title ?? input.call.tool,
      kind: toolKind(input.call.tool),
      status: "pending",
      locations: cur?.locations ?? [],
      content: [...(cur?.content ?? []), ...(why.length ? [text(why.join("\n"))] : [])],
      rawInput: input.call.params,
    },
    options,
  };
  const stop = AbortSignal.any([
    AbortSignal.timeout(o.limitMs ?? ANSWER_LIMIT_MS),
    ...(o.turn() ? [o.turn()!] : []),
  ]);
  try {
    const res = await o.request(params, stop);
    if (res?.outcome?.outcome === "selected" && typeof res.outcome.optionId === "string") {
      return { ok: true, optionId: res.outcome.optionId };
    }
    return { ok: false, reason: "the permission request was cancelled" };
  } catch (e) {
    if (stop.aborted && !o.turn()?.aborted) {
      return { ok: false, reason: "the editor did not answer the permission request in time" };
    }
    if (o.turn()?.aborted) return { ok: false, reason: "the turn was cancelled" };
    return {
      ok: false,
      reason: `the permission request failed: ${(e as Error)?.message ?? String(e)}`,
    };
  }
}
