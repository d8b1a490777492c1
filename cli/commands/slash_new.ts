/**
 * The new-project interview in a terminal, and `/new` in the chat: purpose,
 * language, interface, dependencies and tests, asked with menus; the answers
 * become the request the agent builds from.
 *
 * @module
 */
import {
  INTERFACE_CHOICES,
  LANGUAGE_CHOICES,
  type ProjectBrief,
  renderBrief,
} from "../../core/agent/project_interview.ts";
import type { CliIO } from "../io.ts";
import { type Palette, palette } from "../ui/colors.ts";
import type { SlashResult } from "./slash_state.ts";

/** `/new` in the chat: the interview, then its request goes to the agent. */
export async function slashNew(io: CliIO, c: Palette): Promise<SlashResult> {
  if (!Deno.stdin.isTerminal()) {
    io.out(c.yellow("/new asks its questions in a terminal: standard input is not one\n"));
    return "handled";
  }
  const brief = await interview(io, c);
  if (!brief) {
    io.out(c.dim("New project cancelled\n"));
    return "handled";
  }
  const request = renderBrief(brief);
  io.out(c.dim(request.split("\n").filter((l) => /^\w+: /.test(l)).join("\n")) + "\n");
  return { resend: request };
}

const OTHER = "__other__";

/** Asks the interview's questions; null when the user cancels (Ctrl+C). */
export async function interview(
  io: CliIO,
  c: Palette = palette(false),
): Promise<ProjectBrief | null> {
  const [{ default: confirm }, { default: input }, { default: select }] = await Promise.all([
    import("@inquirer/confirm"),
    import("@inquirer/input"),
    import("@inquirer/select"),
  ]);
  io.out(c.bold("New project") + c.dim(": a few questions (Ctrl+C cancels)\n"));
  try {
    const purpose = await input({
      message: "What should it do?",
      validate: (v) => v.trim() !== "" || "Say in a few words what it is for",
    });
    const language = await pick(select, input, "Language", LANGUAGE_CHOICES.map((l) => l.name));
    const iface = await pick(select, input, "Interface", INTERFACE_CHOICES);
    const deps = (await input({
      message: "Dependencies (packages to use, or none)",
      default: "none",
    })).trim();
    const tests = await confirm({ message: "Write tests and run them as it goes?", default: true });
    return {
      purpose: purpose.trim(),
      ...(language ? { language } : {}),
      ...(iface ? { interface: iface } : {}),
      dependencies: /^(none|no|-)?$/i.test(deps) ? "none (standard library only)" : deps,
      tests,
    };
  } catch (e) {
    if (e instanceof Error && /ExitPromptError|AbortPromptError/.test(e.name)) return null;
    throw e;
  }
}

type Select = typeof import("@inquirer/select").default;
type Input = typeof import("@inquirer/input").default;

async function pick(
  select: Select,
  input: Input,
  message: string,
  names: readonly string[],
): Promise<string | undefined> {
  const choices = [
    ...names.map((n) => ({ name: n, value: n })),
    { name: "Other…", value: OTHER },
  ];
  const chosen = await select({ message, choices });
  if (chosen !== OTHER) return chosen;
  const typed =
    (await input({ message: `${message} (type it, or leave empty to let minoc choose)` }))
      .trim();
  return typed === "" ? undefined : typed;
}
