/**
 * `minoc doctor [--model M]`: is this model ready for minoc? Checks the
 * configuration, reaches the server, lists its models, sends a short probe
 * asking for one tool call (parsed? how long? streamed? usage reported?) and
 * a long prompt of known length (does it come back whole?), and tells what
 * sandbox confines skill scripts here. One verdict per
 * check; exit 1 when any check fails.
 *
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { loadSettings } from "../../core/config/load.ts";
import { homeInputs, resolveHome } from "../../core/config/paths.ts";
import type { Settings } from "../../core/config/settings.ts";
import { createProvider } from "../../core/llm/select.ts";
import { loadTokenCounter } from "../../core/agent/project_render.ts";
import { type CliIO, EXIT } from "../io.ts";
import { numberIn, ownOptionsWin, withModelOptions } from "../options.ts";
import { palette } from "../ui/colors.ts";
import type { CommonOptions } from "./common.ts";
import {
  type Check,
  judgeContext,
  judgeToolCall,
  listModels,
  longPrompt,
  probe,
  secs,
  toolCallMessages,
} from "./doctor_checks.ts";
import { visible } from "../../core/protocol/visible.ts";

/** Options of `doctor`. */
interface DoctorOptions extends CommonOptions {
  contextTokens?: number;
  timeout?: number;
}

/** The `doctor` command. */
export function doctorCommand(io: CliIO) {
  return withModelOptions(
    new Command("doctor")
      .description("check the configuration, the server and how well the model follows minoc")
      .option(
        "--context-tokens <n>",
        "length of the long-prompt check (default: 8000, or 3/4 of a smaller window; 0 skips it)",
        numberIn(0, 10_000_000, true),
      )
      .option(
        "--timeout <s>",
        "longest wait per request, in seconds (default 120)",
        numberIn(1, 3600),
      ),
  ).action(async (_opts, cmd) => {
    io.exitCode = await doctor(io, ownOptionsWin(cmd) as DoctorOptions);
  });
}

/** Runs every check, prints one line each and the verdict; returns the exit code. */
export async function doctor(io: CliIO, opts: DoctorOptions): Promise<number> {
  const c = palette(Deno.stdout.isTerminal());
  const checks: Check[] = [];
  const show = (check: Check) => {
    checks.push(check);
    const label = {
      pass: c.green("pass"),
      warn: c.yellow("warn"),
      fail: c.red("FAIL"),
      skip: c.dim("skip"),
    }[check.verdict];
    io.out(`  ${label}  ${check.name.padEnd(10)} ${visible(check.detail)}\n`);
  };
  io.out(c.bold("minoc doctor") + "\n");
  const settings = await configCheck(opts, show);
  show(await sandboxCheck(settings?.allowUnconfinedScripts ?? false));
  const { commandSandboxCheck } = await import("./doctor_sandbox.ts");
  show(await commandSandboxCheck(settings?.sandbox ?? {}));
  if (settings) await serverChecks(settings, opts, show);
  const failed = checks.filter((k) => k.verdict === "fail").length;
  const warned = checks.filter((k) => k.verdict === "warn").length;
  const passed = checks.filter((k) => k.verdict === "pass").length;
  io.out(
    failed > 0
      ? c.red(`Verdict: not ready, ${failed} of ${checks.length} checks failed\n`)
      : c.green(`Verdict: ready (${passed} passed${warned ? `, ${warned} with warnings` : ""})\n`),
  );
  return failed > 0 ? EXIT.failed : EXIT.ok;
}

/** What confines skill scripts here (a warning when nothing does). */
async function sandboxCheck(allowUnconfined: boolean): Promise<Check> {
  const { confinement } = await import("../../core/sandbox/confine.ts");
  // The doctor asks the helper itself rather than trusting what an earlier start remembered.
  const c = await confinement({ fresh: true });
  if (c.kind !== "none") {
    return { name: "sandbox", verdict: "pass", detail: `skill scripts confined by ${c.label}` };
  }
  const shell = allowUnconfined
    ? "bash/sh scripts run unconfined (allowUnconfinedScripts)"
    : "bash/sh scripts are refused";
  return { name: "sandbox", verdict: "warn", detail: `no OS sandbox (${c.reason}); ${shell}` };
}

const LATER = ["server", "models", "tool call", "streaming", "usage", "context"];

async function configCheck(
  opts: DoctorOptions,
  show: (c: Check) => void,
): Promise<Settings | null> {
  const home = await resolveHome(homeInputs());
  const r = await loadSettings({
    homeDir: home.dir,
    cwd: Deno.cwd(),
    flags: opts,
    env: Deno.env.toObject(),
  });
  if (!r.ok) {
    show({ name: "config", verdict: "fail", detail: r.message });
    for (const name of LATER) show({ name, verdict: "skip", detail: "needs a configuration" });
    return null;
  }
  const s = r.settings;
  const src = (field: string) => r.sources[field] ?? "default";
  show({
    name: "config",
    verdict: "pass",
    detail: `model "${s.params.model}" (${src("model")}) at ${s.baseURL} (${src("baseUrl")}), ` +
      `context window ${s.contextWindow.toLocaleString("en-US")} (${src("contextWindow")})` +
      (r.warnings?.length ? `; ${r.warnings.join("; ")}` : ""),
  });
  return s;
}

async function serverChecks(s: Settings, opts: DoctorOptions, show: (c: Check) => void) {
  const models = await listModels(s.baseURL, s.apiKey);
  if (!models.ok && models.status === undefined) {
    show({ name: "server", verdict: "fail", detail: `cannot reach ${s.baseURL}: ${models.error}` });
    for (const name of LATER.slice(1)) show({ name, verdict: "skip", detail: "needs the server" });
    return;
  }
  if (!models.ok) {
    const auth = models.status === 401 || models.status === 403;
    show({
      name: "server",
      verdict: auth ? "fail" : "warn",
      detail: auth
        ? `the server refused the API key: ${models.error}`
        : `reached, but GET /models failed: ${models.error}`,
    });
    show({ name: "models", verdict: "skip", detail: "no model list" });
  } else {
    show({ name: "server", verdict: "pass", detail: `answered GET /models in ${secs(models.ms)}` });
    const listed = models.ids.includes(s.params.model);
    show({
      name: "models",
      verdict: listed ? "pass" : "warn",
      detail: listed
        ? `"${s.params.model}" is listed (${models.ids.length}: ${
          models.ids.slice(0, 8).join(", ")
        })`
        : `"${s.params.model}" is not listed; the server offers: ${
          models.ids.slice(0, 8).join(", ")
        }`,
    });
  }
  const provider = createProvider({
    baseURL: s.baseURL,
    apiKey: s.apiKey,
    params: s.params,
    quirks: s.modelQuirks,
    timeoutMs: (opts.timeout ?? 120) * 1000,
  });
  for (const check of judgeToolCall(await probe(provider, toolCallMessages()))) show(check);
  const target = opts.contextTokens ?? Math.min(8_000, Math.floor(s.contextWindow * 0.75));
  if (target === 0) {
    show({ name: "context", verdict: "skip", detail: "--context-tokens 0" });
    return;
  }
  const long = longPrompt(target, await loadTokenCounter());
  const reply = await probe(provider, [{ role: "user", content: long.content }]);
  show(judgeContext(reply, long.tokens, s.contextWindow));
}
