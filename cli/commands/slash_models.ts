/**
 * `/model` and `/models` in the chat: list the configured models, switch to
 * one (its quirks, parameters, instructions and context window come with
 * it), save it as the default, and list what the server offers.
 *
 * @module
 */
import { join } from "node:path";
import { configDirs, configuredModels } from "../../core/config/load.ts";
import { saveDefaultModel } from "../../core/config/models.ts";
import { fetchServerModels } from "../../core/llm/server_models.ts";
import { CliError, type CliIO } from "../io.ts";
import type { AgentSession } from "../session.ts";
import type { Palette } from "../ui/colors.ts";
import { formatCount } from "../ui/tokens_line.ts";
import { settingsFrom } from "./common.ts";
import type { ChatState } from "./slash_state.ts";
import { visible } from "../../core/protocol/visible.ts";

/** `/model` (list), `/model <name>` (switch), `/model <name> --save`, `/models`. */
export async function slashModel(
  cmd: string,
  args: string,
  session: AgentSession,
  io: CliIO,
  c: Palette,
  state: Pick<ChatState, "opts">,
): Promise<void> {
  if (cmd === "/models") return await listServerModels(session, io, c);
  const words = args.split(/\s+/).filter(Boolean);
  const save = words.includes("--save");
  const name = words.find((w) => w !== "--save");
  if (name === undefined && !save) return await listConfigured(session, io, c);
  const target = name ?? session.settings().params.model;
  if (name !== undefined && !await switchTo(target, session, io, c, state)) return;
  if (save) await saveDefault(target, session, io, c);
}

async function listConfigured(session: AgentSession, io: CliIO, c: Palette): Promise<void> {
  const current = session.settings().params.model;
  const r = await configuredModels(session.homeDir, session.cwd);
  if (!r.ok) {
    io.out(c.red(visible(r.message)) + "\n");
    return;
  }
  const names = r.models.includes(current) ? r.models : [current, ...r.models];
  for (const n of names) {
    const mark = n === current ? c.green("*") : " ";
    const note = r.models.includes(n) ? "" : c.dim("  (not in models.json)");
    io.out(`  ${mark} ${n === current ? c.bold(visible(n)) : visible(n)}${note}\n`);
  }
  io.out(c.dim("  /model <name> switches, --save makes it the default; /models asks the server\n"));
}

async function switchTo(
  name: string,
  session: AgentSession,
  io: CliIO,
  c: Palette,
  state: Pick<ChatState, "opts">,
): Promise<boolean> {
  let next;
  try {
    next = await settingsFrom({ ...state.opts, model: name });
  } catch (e) {
    io.out(c.red(e instanceof CliError ? e.message : String(e)) + "\n");
    return false;
  }
  const before = session.settings().params.model;
  session.switchModel(next);
  await session.recorder.append({
    role: "system",
    content: `Model switched from "${before}" to "${name}"`,
    event: "model_switch",
  });
  io.out(
    c.dim(`model ${name} · context window ${formatCount(next.contextWindow)} tokens\n`),
  );
  return true;
}

async function saveDefault(
  name: string,
  session: AgentSession,
  io: CliIO,
  c: Palette,
): Promise<void> {
  const path = await defaultSettingsPath(session.homeDir, session.cwd);
  const r = await saveDefaultModel(path, name);
  io.out(
    r.ok ? c.dim(`saved "${name}" as the default model in ${path}\n`) : c.red(r.message) + "\n",
  );
}

/**
 * Where a chosen default goes: the project's settings.json when there is
 * one (it would win over the home's), else the home's.
 */
export async function defaultSettingsPath(homeDir: string, cwd: string): Promise<string> {
  const dirs = await configDirs(homeDir, cwd);
  for (const d of dirs) {
    const path = join(d.dir, "settings.json");
    if (await Deno.stat(path).then(() => true, () => false)) return path;
  }
  return join(dirs.at(-1)!.dir, "settings.json");
}

async function listServerModels(session: AgentSession, io: CliIO, c: Palette): Promise<void> {
  const s = session.settings();
  const r = await fetchServerModels({ baseURL: s.baseURL, apiKey: s.apiKey });
  if (!r.ok) {
    io.out(c.yellow(visible(r.message)) + "\n");
    return;
  }
  if (r.models.length === 0) io.out(c.dim(`The server at ${s.baseURL} lists no models\n`));
  for (const m of r.models) {
    io.out(`  ${m === s.params.model ? c.green("*") : " "} ${visible(m)}\n`);
  }
}
