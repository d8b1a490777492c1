/**
 * How replay compares a recorded turn with today's: the call, the gates'
 * verdicts and the result, each worded as one line per side.
 *
 * @module
 */
import type { SessionMessage } from "../../interfaces/history.ts";
import type { Decision, ParseResult, ToolCall, Verdict } from "../../interfaces/tool.ts";
import { callSummary } from "../protocol/call_text.ts";
import type { RecordedOutcome } from "./replay_turns.ts";

/** One place where today differs from the record. */
export interface Difference {
  kind: "reply" | "call" | "verdict" | "result";
  recorded: string;
  today: string;
}

/**
 * Gates whose verdicts are not compared: dry-run only says how replay runs,
 * and the sandbox's verdict depends on the machine and mode it ran on, not
 * on the call (replay runs no command).
 */
const IGNORED_GATES = new Set(["dry-run", "sandbox"]);

const DENIED_PREFIX = "The user denied this call: ";

/** A short description of what came of a reply: `call read_file notes.md`, `no call`, … */
export function describeParsed(p: ParseResult): string {
  if (p.kind === "none") return "no call";
  if (p.kind === "call") return `call ${callSummary(p.call)}`;
  return `parse error ${p.error}`;
}

/** The same, for a recorded outcome. */
export function describeRecorded(o: RecordedOutcome): string {
  if (o.kind === "none") return "no call";
  if (o.kind === "call") return `call ${callSummary(o.call)}`;
  if (o.kind === "parse_error") return `parse error ${o.error}`;
  return o.reason;
}

/** The difference between the recorded and today's parse of a reply, if any. */
export function compareCall(recorded: RecordedOutcome, today: ParseResult): Difference | null {
  if (recorded.kind === "unknown") return null;
  const same = recorded.kind === "none"
    ? today.kind === "none"
    : recorded.kind === "parse_error"
    ? today.kind === "error" && today.error === recorded.error
    : today.kind === "call" && sameCall(recorded.call, today.call);
  if (same) return null;
  const detail = recorded.kind === "call" && today.kind === "call" &&
      recorded.call.tool === today.call.tool
    ? ` (${paramsDiffer(recorded.call, today.call)})`
    : "";
  return {
    kind: "call",
    recorded: describeRecorded(recorded),
    today: describeParsed(today) + detail,
  };
}

/** Whether two calls name the same tool with the same parameters. */
export function sameCall(a: ToolCall, b: ToolCall): boolean {
  return a.tool === b.tool && paramsDiffer(a, b) === "";
}

function paramsDiffer(a: ToolCall, b: ToolCall): string {
  const names = new Set([...Object.keys(a.params), ...Object.keys(b.params)]);
  const differ = [...names].filter((n) =>
    JSON.stringify(a.params[n] ?? null) !== JSON.stringify(b.params[n] ?? null)
  );
  return differ.length ? `parameter ${differ.map((n) => `"${n}"`).join(", ")} differs` : "";
}

/** `security deny (rule rm-root)`: one verdict, short. */
export function verdictText(v: Verdict): string {
  return `${v.gate} ${v.action}${v.rule ? ` (${v.rule})` : ""}`;
}

/** The verdicts that are compared: every gate's but dry-run's and the sandbox's. */
export function comparedVerdicts(vs: readonly Verdict[]): Verdict[] {
  return vs.filter((v) => !IGNORED_GATES.has(v.gate));
}

/** The difference between recorded and today's verdicts (gate and action), if any. */
export function compareVerdicts(
  recorded: readonly Verdict[],
  today: readonly Verdict[],
): Difference | null {
  const a = comparedVerdicts(recorded);
  const b = comparedVerdicts(today);
  const key = (v: Verdict) => `${v.gate}:${v.action}`;
  if (a.length === b.length && a.every((v, i) => key(v) === key(b[i]))) return null;
  const text = (vs: Verdict[]) => vs.length ? vs.map(verdictText).join(", ") : "none";
  const changed = b.find((v, i) => a[i] === undefined || key(a[i]) !== key(v));
  const why = changed?.reason ? `; ${changed.reason}` : "";
  return { kind: "verdict", recorded: text(a), today: text(b) + why };
}

/**
 * The answer the user gave in the recording, to give again today: a denial
 * (with its reason) or "once". Replay never stores a rule, and a call the
 * recording never asked about is denied rather than approved.
 */
export function recordedDecision(verdicts: readonly Verdict[]): Decision {
  const answer = verdicts.findLast((v) => v.rule?.startsWith("user: "));
  if (answer === undefined) {
    return { kind: "deny", reason: "replay: the recording has no answer for this call" };
  }
  if (answer.action !== "deny") return { kind: "once" };
  const reason = answer.reason?.startsWith(DENIED_PREFIX)
    ? answer.reason.slice(DENIED_PREFIX.length)
    : undefined;
  return reason ? { kind: "deny", reason } : { kind: "deny" };
}

/** The difference between a recorded result and today's, if any. */
export function compareResult(
  recorded: SessionMessage,
  today: { ok: boolean; output: string; code?: string },
): Difference | null {
  const okSame = (recorded.ok !== false) === today.ok &&
    (recorded.code ?? "") === (today.code ?? "");
  if (okSame && recorded.content === today.output) return null;
  const status = (ok: boolean, code?: string) => ok ? "ok" : `failed${code ? ` (${code})` : ""}`;
  const r = status(recorded.ok !== false, recorded.code);
  const t = status(today.ok, today.code);
  if (!okSame) return { kind: "result", recorded: r, today: t };
  const line = firstDifferentLine(recorded.content, today.output);
  return {
    kind: "result",
    recorded: `${r}, line ${line.number}: ${line.a}`,
    today: `${t}, line ${line.number}: ${line.b}`,
  };
}

function firstDifferentLine(a: string, b: string): { number: number; a: string; b: string } {
  const la = a.split("\n");
  const lb = b.split("\n");
  let i = 0;
  while (i < la.length && i < lb.length && la[i] === lb[i]) i++;
  const cut = (s: string | undefined) =>
    s === undefined ? "(end)" : s.length > 80 ? `${s.slice(0, 77)}...` : JSON.stringify(s);
  return { number: i + 1, a: cut(la[i]), b: cut(lb[i]) };
}
