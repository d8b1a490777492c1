/**
 * `minoc setup`: provider → API key → model → a live check (doctor's
 * tool-call probe) → save. Nothing is written before the last answer; the
 * save writes the key file (when the key was typed) and then settings.json
 * in the `.minoc` home, changing only `baseUrl`, `model`, `apiKeyEnv` and
 * `apiKeyFile`, and puts the key file back if settings.json cannot be
 * written. Ctrl+C at any step cancels with every file as it was; a broken
 * settings.json stops it before the first question (CliError, exit 2). The
 * key is never printed.
 *
 * @example
 * ```ts
 * const saved = await setupWizard({ homeDir, write: io.out });
 * ```
 * @module
 */
import { join } from "node:path";
import type { Settings } from "../core/config/settings.ts";
import { readConfigFile } from "../core/config/load.ts";
import { CliError, EXIT } from "./io.ts";
import {
  restoreFile,
  snapshotFile,
  updateSettingsFile,
  writeKeyFile,
} from "../core/config/settings_write.ts";
import { createProvider } from "../core/llm/select.ts";
import { judgeToolCall, probe, toolCallMessages } from "./commands/doctor_checks.ts";
import { askKey, askModel, askProvider, type KeyChoice } from "./setup_steps.ts";

/** Where the wizard saves and talks. */
export interface WizardOptions {
  /** The `.minoc` home; settings go to `<homeDir>/config/settings.json`. */
  homeDir: string;
  write(text: string): void;
  dim?(text: string): string;
  /** Longest wait of the live check (default 60 s). */
  checkTimeoutMs?: number;
}

/** An answer set, ready to save. */
interface Answers {
  baseURL: string;
  model: string;
  key: KeyChoice;
  slug: string;
}

/** Runs the wizard; true when the configuration was saved, false when cancelled. */
export async function setupWizard(o: WizardOptions): Promise<boolean> {
  const dim = o.dim ?? ((t: string) => t);
  const line = (t: string) => o.write(t + "\n");
  const settingsPath = join(o.homeDir, "config", "settings.json");
  const current = await readConfigFile(settingsPath, "settings");
  if (current.state === "bad") {
    throw new CliError(
      `${
        current.problems.join("\n")
      }\nFix the file first: setup changes nothing while it is broken`,
      EXIT.usage,
    );
  }
  line(dim(`Set up the model minoc uses (saved in ${settingsPath}; Ctrl+C cancels).`));
  try {
    const { provider, baseURL } = await askProvider();
    const key = await askKey(provider, Deno.env.toObject());
    if (key.kind === "env" && key.value === "") {
      line(dim(`${key.name} is not set in this shell: set it before starting minoc.`));
    }
    if (key.kind === "none" && Deno.env.get("OPENAI_API_KEY")) {
      line(dim("Note: OPENAI_API_KEY is set in this shell; minoc sends it to this server too."));
    }
    const apiKey = key.kind === "none" ? "" : key.value;
    const model = await askModel(baseURL, apiKey, (t) => line(dim(t)));
    const answers: Answers = { baseURL, model, key, slug: provider.slug };
    if (!await liveCheck(answers, o, line)) return cancelled(line);
    const { default: confirm } = await import("@inquirer/confirm");
    if (!await confirm({ message: `Save to ${settingsPath}?`, default: true })) {
      return cancelled(line);
    }
    const saved = await save(answers, o.homeDir);
    line(saved.ok ? saved.message : `Not saved: ${saved.message}`);
    return saved.ok;
  } catch (e) {
    if (e instanceof Error && /ExitPromptError|AbortPromptError/.test(e.name)) {
      return cancelled(line);
    }
    throw e;
  }
}

function cancelled(line: (t: string) => void): false {
  line("Setup cancelled: nothing was changed.");
  return false;
}

/** Doctor's tool-call probe against the answers; asks before saving a failed one. */
async function liveCheck(
  a: Answers,
  o: WizardOptions,
  line: (t: string) => void,
): Promise<boolean> {
  line(`Checking "${a.model}" at ${a.baseURL}…`);
  const provider = createProvider({
    baseURL: a.baseURL,
    apiKey: a.key.kind === "none" ? "" : a.key.value,
    params: { model: a.model } as Settings["params"],
    timeoutMs: o.checkTimeoutMs ?? 60_000,
  });
  const checks = judgeToolCall(await probe(provider, toolCallMessages()));
  for (const c of checks) line(`  ${c.verdict.padEnd(4)}  ${c.name.padEnd(10)} ${c.detail}`);
  if (checks[0].verdict !== "fail") return true;
  const { default: confirm } = await import("@inquirer/confirm");
  return await confirm({ message: "The check failed. Save anyway?", default: false });
}

/** Writes the key file (if typed) and settings.json; puts the key file back on failure. */
async function save(
  a: Answers,
  homeDir: string,
): Promise<{ ok: true; message: string } | { ok: false; message: string }> {
  const configDir = join(homeDir, "config");
  const settingsPath = join(configDir, "settings.json");
  const keyRel = `keys/${a.slug}.key`;
  const keyPath = join(configDir, keyRel);
  const before = a.key.kind === "file" ? await snapshotFile(keyPath) : null;
  if (a.key.kind === "file") {
    const w = await writeKeyFile(keyPath, a.key.value);
    if (!w.ok) return w;
  }
  const r = await updateSettingsFile(settingsPath, {
    baseUrl: a.baseURL,
    model: a.model,
    apiKeyEnv: a.key.kind === "env" ? a.key.name : undefined,
    apiKeyFile: a.key.kind === "file" ? keyRel : undefined,
  });
  if (!r.ok) {
    if (a.key.kind === "file") await restoreFile(keyPath, before);
    return r;
  }
  const where = a.key.kind === "env"
    ? `The key is read from $${a.key.name}.`
    : a.key.kind === "file"
    ? `The key is in ${keyPath} (readable by you only).`
    : "No key is sent.";
  return {
    ok: true,
    message: `Saved in ${settingsPath}: "${a.model}" at ${a.baseURL}.\n${where}`,
  };
}
