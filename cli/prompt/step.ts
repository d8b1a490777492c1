/**
 * Step mode in the terminal: shows the model's raw text for the turn, the
 * parsed call, every gate's verdict with its rule and the diff or command
 * line, then asks what to do: run, skip, edit the parameters (in `$EDITOR`
 * as the call's XML, or here one line each), run the rest without stepping,
 * or abort the task. Ctrl+C at the question aborts the task.
 *
 * @module
 */
import { editorCommand, editText } from "./editor.ts";
import type { ToolCall } from "../../interfaces/tool.ts";
import type { StepChoice, StepPrompt, StepView } from "../../core/permission/step.ts";
import { formatCall } from "../../core/protocol/feedback.ts";
import { parseReply } from "../../core/protocol/xml.ts";
import type { Palette } from "../ui/colors.ts";
import { renderPreview } from "../ui/diff.ts";
import { visible, visibleDeep } from "../../core/protocol/visible.ts";
import { verdictText } from "../ui/dry_run.ts";

type Answer = "run" | "skip" | "editor" | "inline" | "rest" | "abort";

/** Lines of the model's text shown before the rest is counted. */
const RAW_LINES = 40;

/** A {@link StepPrompt} for the terminal; only use it when stdin is one. */
export function terminalStep(write: (text: string) => void, c: Palette): StepPrompt {
  return {
    async choose(view: StepView): Promise<StepChoice> {
      write(describeStep(view, c) + "\n");
      const [{ default: select }, { default: input }] = await Promise.all([
        import("@inquirer/select"),
        import("@inquirer/input"),
      ]);
      while (true) {
        let answer: Answer;
        try {
          answer = await select<Answer>({
            message: `Step: ${view.call.tool}`,
            choices: stepChoices(editorName()),
          });
        } catch (e) {
          if (e instanceof Error && e.name === "ExitPromptError") return { kind: "abort" };
          throw e;
        }
        if (answer !== "editor" && answer !== "inline") return { kind: answer };
        const edited = answer === "editor"
          ? await editInEditor(view)
          : await editInline(view, input, write, c);
        if (typeof edited !== "string") return { kind: "edit", call: edited };
        write(c.yellow(`${edited}\n`));
      }
    },
    notice(message: string) {
      write(c.yellow(message) + "\n");
    },
  };
}

/** The step question's choices. */
export function stepChoices(editor: string): { name: string; value: Answer }[] {
  return [
    { name: "Run", value: "run" },
    { name: "Skip (the model is told you skipped it)", value: "skip" },
    { name: `Edit the parameters in ${editor}`, value: "editor" },
    { name: "Edit the parameters here, one line each", value: "inline" },
    { name: "Run the rest without stepping", value: "rest" },
    { name: "Abort the task", value: "abort" },
  ];
}

/** What the step shows above the question. */
export function describeStep(original: StepView, c: Palette): string {
  const view = {
    ...original,
    call: visibleDeep(original.call),
    rawText: visible(original.rawText),
  };
  view.decision = { ...view.decision, verdicts: visibleDeep(view.decision.verdicts) };
  const out = [c.bold(c.magenta(`── step: ${view.call.tool} ──`))];
  out.push(c.dim("Model's reply:"));
  const raw = view.rawText.replace(/\n+$/, "").split("\n");
  for (const line of raw.slice(0, RAW_LINES)) out.push(c.dim(`  │ ${line}`));
  if (raw.length > RAW_LINES) out.push(c.dim(`  │ … ${raw.length - RAW_LINES} more lines`));
  out.push(c.bold(`Call: ${view.call.tool}`));
  for (const [name, value] of Object.entries(view.call.params)) {
    const text = Array.isArray(value) ? value.join(", ") : value;
    out.push(`  ${c.dim(name + ":")} ${shortValue(text)}`);
  }
  out.push(c.bold("Gates:"));
  for (const v of view.decision.verdicts) {
    const color = v.action === "deny" ? c.red : v.action === "ask" ? c.yellow : (s: string) => s;
    const why = v.reason && v.action !== "pass" ? ` — ${v.reason}` : "";
    out.push(color(`  ${verdictText(v)}${why}`));
  }
  out.push(...renderPreview(view.preview, c));
  return out.join("\n");
}

/** The call as XML in `$EDITOR`; the edited text is parsed like a reply. */
async function editInEditor(view: StepView): Promise<ToolCall | string> {
  let text: string;
  try {
    text = await editText(formatCall(view.call.tool, view.call.params) + "\n", ".xml");
  } catch (e) {
    return `Cannot edit in ${editorName()}: ${e instanceof Error ? e.message : String(e)}`;
  }
  return callFromText(text, view);
}

/** Parses edited XML back into a call of the same tool, or says what is wrong. */
export function callFromText(text: string, view: Pick<StepView, "tool">): ToolCall | string {
  const parsed = parseReply(text, [view.tool]);
  if (parsed.kind === "none") return `No <${view.tool.name}> call found in the edited text`;
  if (parsed.kind === "error") return `The edited call cannot be read: ${parsed.message}`;
  return parsed.call;
}

async function editInline(
  view: StepView,
  input: (o: { message: string; default: string; prefill: "editable" }) => Promise<string>,
  write: (text: string) => void,
  c: Palette,
): Promise<ToolCall | string> {
  const params: Record<string, string | string[]> = { ...view.call.params };
  try {
    for (const spec of view.tool.params) {
      const value = params[spec.name];
      if (Array.isArray(value) || spec.bulk || value?.includes("\n")) {
        if (value !== undefined) write(c.dim(`  ${spec.name}: kept (edit it in the editor)\n`));
        continue;
      }
      const next = await input({ message: spec.name, default: value ?? "", prefill: "editable" });
      if (next === "" && !spec.required) delete params[spec.name];
      else params[spec.name] = next;
    }
  } catch (e) {
    if (e instanceof Error && e.name === "ExitPromptError") return "Editing cancelled";
    throw e;
  }
  return { tool: view.call.tool, params };
}

function editorName(): string {
  return `$EDITOR (${editorCommand()[0]})`;
}

function shortValue(text: string): string {
  if (text.includes("\n")) {
    return `(${text.split("\n").length} lines, ${text.length} characters)`;
  }
  return text.length > 200 ? text.slice(0, 197) + "..." : text;
}
