/**
 * What a start with no model configured does (no base URL or key from flags,
 * environment or settings files): look for a local server on the usual
 * ports and use it, saying so in one line; in a terminal, ask which model
 * when there are several, and save the choice only when the user says so.
 * When nothing answers, the chat opens the copy/paste bridge with three
 * lines on how it works (on the very first interactive start it offers
 * `minoc setup` first); `run` fails with a message saying what to do.
 *
 * @example
 * ```ts
 * const start = noServerStart(opts, { write: io.out, interactive, bridge: true });
 * const settings = await settingsFrom(opts, start.connect);
 * opts = start.opts();
 * ```
 * @module
 */
import { join } from "node:path";
import {
  type Candidate,
  chatCandidates,
  discoverPorts,
  discoverServers,
  type FoundServer,
  type KnownPort,
} from "../core/llm/discover.ts";
import { updateSettingsFile } from "../core/config/settings_write.ts";
import { CliError, EXIT } from "./io.ts";
import type { CommonOptions, Connect } from "./commands/common.ts";

/** How the start may talk to the user. */
export interface StartUi {
  /** Where the found line and the bridge lines go. */
  write(text: string): void;
  /** Dims a line (identity without colours). */
  dim?(text: string): string;
  /** Whether questions may be asked (a terminal on stdin). */
  interactive: boolean;
  /** Open the bridge when nothing is found (the chat); else fail (`run`). */
  bridge: boolean;
}

/** The hook for `settingsFrom`, and the options the session should use afterwards. */
export interface NoServerStart {
  connect: Connect;
  /** The options after the hook ran: a found server's URL and model, or the bridge. */
  opts(): CommonOptions;
}

/** Builds the start's hook; `opts` are the command's options. */
export function noServerStart(opts: CommonOptions, ui: StartUi): NoServerStart {
  let current = opts;
  const dim = ui.dim ?? ((t: string) => t);
  const connect: Connect = async ({ homeDir, message, model }) => {
    const env = Deno.env.toObject();
    const ports = discoverPorts(env);
    if (!ports.ok) throw new CliError(ports.message, EXIT.usage);
    const found = await discoverServers({ ports: ports.ports });
    const candidates = chatCandidates(found);
    if (candidates.length > 0) {
      const pick = await choose(candidates, model, ui.interactive);
      ui.write(dim(foundLine(found, pick)) + "\n");
      if (pick.asked && await askRemember(homeDir)) {
        const path = join(homeDir, "config", "settings.json");
        const r = await updateSettingsFile(path, {
          baseUrl: pick.server.baseURL,
          model: pick.model,
        });
        ui.write(dim(r.ok ? `Saved in ${path}` : r.message) + "\n");
      }
      current = { ...opts, baseUrl: pick.server.baseURL, model: pick.model };
      return current;
    }
    const looked = portList(ports.ports);
    if (!ui.bridge) {
      const keyEnv = /set (\w+) \(or --api-key\)/.exec(message)?.[1] ?? "OPENAI_API_KEY";
      throw new CliError(
        `No model configured, and no local server answered${looked ? ` on ${looked}` : ""}: ` +
          "run minoc setup, start a local server such as Ollama or LM Studio, " +
          `or pass --base-url and --model (or set ${keyEnv} for OpenAI)`,
        EXIT.usage,
      );
    }
    if (ui.interactive && await offerSetup(homeDir)) {
      const { setupWizard } = await import("./setup_wizard.ts");
      if (await setupWizard({ homeDir, write: ui.write, dim })) return current;
    }
    for (const line of bridgeLines(found, looked)) ui.write(dim(line) + "\n");
    current = { ...opts, provider: "bridge" };
    return current;
  };
  return { connect, opts: () => current };
}

/** The three lines the chat prints when it opens the bridge by itself. */
export function bridgeLines(found: readonly FoundServer[], looked: string): string[] {
  const only = found.length > 0
    ? ` (${found.map((f) => f.label).join(", ")}: embedding models only)`
    : "";
  return [
    `No model server found${looked ? ` on ${looked}` : ""}${only}: using the copy/paste bridge.`,
    "Each request goes to your clipboard (or a file): paste it into any web chat, then paste its reply here.",
    "To connect a server instead: start Ollama or LM Studio and restart, run minoc setup, or pass --base-url and --model.",
  ];
}

function portList(ports: readonly KnownPort[]): string {
  if (ports.length === 0) return "";
  return `port${ports.length > 1 ? "s" : ""} ${ports.map((p) => p.port).join(", ")}`;
}

function foundLine(found: readonly FoundServer[], pick: Candidate): string {
  const s = pick.server;
  const more = found.length > 1 ? ` (${found.length} servers found)` : "";
  return `Found ${s.label} at ${s.baseURL}${more}: using "${pick.model}" ` +
    `of ${s.models.length} model${
      s.models.length === 1 ? "" : "s"
    } · minoc setup makes it permanent`;
}

/** The configured model when a server lists it; else one the user picks (terminal) or the first. */
async function choose(
  candidates: Candidate[],
  wanted: string | undefined,
  interactive: boolean,
): Promise<Candidate & { asked: boolean }> {
  const named = wanted ? candidates.find((c) => c.model === wanted) : undefined;
  if (named) return { ...named, asked: false };
  if (candidates.length === 1 || !interactive) return { ...candidates[0], asked: false };
  const { default: select } = await import("@inquirer/select");
  try {
    const index = await select({
      message: "Several local models are available. Which one?",
      choices: candidates.map((c, i) => ({
        name: `${c.model}  (${c.server.label}, port ${c.server.port})`,
        value: i,
      })),
      pageSize: 12,
    });
    return { ...candidates[index], asked: true };
  } catch {
    throw new CliError("Cancelled: no model chosen", EXIT.interrupted);
  }
}

async function askRemember(homeDir: string): Promise<boolean> {
  const { default: confirm } = await import("@inquirer/confirm");
  const path = join(homeDir, "config", "settings.json");
  return await confirm({ message: `Remember this choice (in ${path})?`, default: false })
    .catch(() => false);
}

/** On the first interactive start only: asks whether to run the setup now. */
async function offerSetup(homeDir: string): Promise<boolean> {
  const marker = join(homeDir, "state", "setup-offered");
  if (await Deno.stat(marker).then(() => true, () => false)) return false;
  await Deno.mkdir(join(homeDir, "state"), { recursive: true }).catch(() => {});
  await Deno.writeTextFile(marker, new Date().toISOString() + "\n").catch(() => {});
  const { default: confirm } = await import("@inquirer/confirm");
  return await confirm({
    message: "No model is configured and no local server answered. Set one up now (minoc setup)?",
    default: false,
  }).catch(() => false);
}
