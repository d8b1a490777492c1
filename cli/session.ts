/**
 * Assembles one agent session from resolved settings: provider, tools, gates,
 * recorder, tool context. Commands load this module lazily.
 *
 * @module
 */
import { join } from "node:path";
import type { RunLimits } from "../interfaces/agent.ts";
import type { AnyTool, ToolContext } from "../interfaces/tool.ts";
import type { Conversation } from "../core/agent/loop.ts";
import { buildSystemPrompt } from "../core/agent/prompt.ts";
import { analyzeProject } from "../core/agent/project.ts";
import { homeInputs, homePaths, resolveHome } from "../core/config/paths.ts";
import type { Settings } from "../core/config/settings.ts";
import { repairCutSessions } from "../core/history/repair_cut.ts";
import { sweepStaleTemps } from "../core/history/sweep.ts";
import { createBackupStore } from "../core/history/backups.ts";
import { CommandUndo } from "../core/history/command_undo.ts";
import { backingUpFs } from "../core/history/backup_fs.ts";
import { setupLogs } from "../core/history/logs.ts";
import { approvalGate } from "../core/permission/approval.ts";
import { type Mode, modeGate } from "../core/permission/mode_gate.ts";
import { skillToolsGate } from "../core/permission/skill_tools_gate.ts";
import { Pipeline } from "../core/permission/pipeline.ts";
import { openModes } from "./session_modes.ts";
import { serverProvider } from "./session_provider.ts";
import { resumeSession } from "./resume.ts";
import { editWiring } from "./session_bridge.ts";
import { createFileTracker } from "../core/tools/file_tracker.ts";
import { realFs } from "../core/tools/fs_port.ts";
import { protectCredentials } from "../core/tools/child_env.ts";
import { tools } from "../core/tools/mod.ts";
import { createProcessTable, installExitCleanup } from "../core/tools/process_table.ts";
import { promptTools, setupSkills } from "../core/skills/setup.ts";
import { openSessionSandbox } from "./session_sandbox.ts";
import { readSecurityFile, securityGateOf } from "./session_security.ts";
import { openMcp } from "../core/mcp/session.ts";
import { mcpTools } from "../core/tools/mod.ts";
import { WarmUp } from "../core/agent/warm_up.ts";
import { HeapKeeper } from "../core/agent/heap_keeper.ts";
import { callAhead } from "../core/agent/call_ahead.ts";
import { VERSION } from "./version.ts";

export type { AgentSession, SessionOptions } from "./session_types.ts";
import { openRecorder } from "./session_record.ts";
import type { AgentSession, SessionOptions } from "./session_types.ts";

/** Opens a session in `settings.cwd`. */
export async function openSession(o: SessionOptions): Promise<AgentSession> {
  const cwd = o.settings.cwd;
  protectCredentials({ names: [o.settings.apiKeyEnv], values: [o.settings.apiKey] });
  const home = await resolveHome(homeInputs());
  if (home.warning) o.warn(home.warning);
  const paths = homePaths(home.dir);
  // The crash check of the project's recorded sessions (repair_cut.ts). A resumed file may be a
  // cut one, so resuming checks first; otherwise the check runs only while the model works
  // (`warm.slice()`, below), never before the first request nor in the agent's own turn.
  const repairAll = (pace?: () => Promise<boolean>) =>
    repairCutSessions(paths.sessions, cwd, Date.now(), pace).then(async (repaired) => {
      for (const p of repaired) o.warn(`Repaired session "${p}": a crash had cut its last message`);
      await sweepStaleTemps(paths.sessions);
    }, () => {});
  const repairedFirst = o.record && o.resume ? repairAll() : null;
  const security = await readSecurityFile(join(paths.config, "security.json"));
  const modes = await openModes(o, home.dir, cwd);
  const logs = await setupLogs(paths.logs, { debug: modes.debug }).catch(() => null);
  let mode: Mode = o.mode;
  let settings = o.settings;
  const userHome = Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE") ?? "/";
  const skillSetup = await setupSkills({
    cwd,
    homeDir: home.dir,
    contextWindow: o.settings.contextWindow,
    warn: o.warn,
  });
  let project = await analyzeProject(cwd, { cacheDir: paths.projects });
  const mcp = await openMcp({
    homeDir: home.dir,
    cwd,
    logsDir: paths.logs,
    version: VERSION,
    warn: o.warn,
    waitForNew: o.mcpStart !== "open",
    extraServers: o.mcpServers,
  });
  let wrap: ((tool: AnyTool) => AnyTool) | null = null;
  const allTools = () => [...tools, ...mcp.tools()];
  const loopTools = () => {
    const list = edits.tools(allTools());
    return wrap ? list.map(wrap) : list;
  };
  const edits = await editWiring(o.bridge, { cwd, homeDir: home.dir, fs: realFs });
  const prompt = () =>
    buildSystemPrompt({
      tools: [...promptTools(tools, skillSetup.index), ...(mcp.active ? mcpTools : [])],
      skills: skillSetup.l1.text,
      mcp: mcp.section(mode),
      mode,
      cwd,
      os: `${Deno.build.os} (${Deno.build.arch})`,
      date: new Date().toISOString().slice(0, 10),
      project: project.section,
      projectInstructions: project.instructions,
      customInstructions: settings.customInstructions,
    }) + edits.promptSuffix();
  const systemPrompt = prompt();
  // A resumed file may be the one being repaired: let the repair finish first.
  const resumed = o.resume
    ? await (repairedFirst ?? Promise.resolve()).then(() =>
      resumeSession(o.resume!, {
        systemPrompt,
        mode,
        model: o.settings.params.model,
        warn: o.warn,
      })
    )
    : null;
  const recorder = resumed?.recorder ??
    await openRecorder(o, paths.sessions, systemPrompt, () => mode);
  const backups = recorder.path === null || modes.dry
    ? null
    : await createBackupStore(join(paths.backups, recorder.sessionId), recorder.sessionId);
  const fs = modes.dry?.fs ?? (backups ? backingUpFs(realFs, backups) : realFs);
  const commandUndo = backups &&
    new CommandUndo({ root: cwd, store: backups, exclude: [home.dir] });
  // The skill host (and its script sandbox) loads only when the project has skills.
  const skills = skillSetup.index.skills.length === 0 ? undefined : await (await import(
    "../core/skills/host.ts"
  )).createSkillHost({
    index: skillSetup.index,
    projectDir: cwd,
    l1: skillSetup.l1,
    ignore: [home.dir],
    allowUnconfined: o.settings.allowUnconfinedScripts,
    backups,
    conversation: () => convo.messages,
    onMetrics: (m) => recorder.update({ skills: m }),
  });
  const processes = createProcessTable();
  const uninstall = installExitCleanup(processes);
  const box = openSessionSandbox(
    { ...o, dryRun: o.dryRun === true },
    cwd,
    () => mode === "plan",
  );
  const files = createFileTracker();
  const env = new Map<string, string | null>();
  const approval = approvalGate({
    projectDir: cwd,
    homeDir: home.dir,
    extraRules: o.extraRules,
    onWarning: o.warn,
  });
  const pipeline = new Pipeline({
    gates: [
      modeGate(() => mode, { readOnlyCommands: () => box.sandbox.mode !== "off" }),
      ...(skills ? [skillToolsGate(() => skills.active())] : []),
      securityGateOf(security, {
        cwd,
        home: userHome,
        // What the prompt shows is a few lines: a prefix is read.
        readFile: async (p) =>
          new TextDecoder().decode(await fs.readFile(p, { maxBytes: 1 << 20 })),
      }),
      ...(modes.dry ? [] : [box.gate]), // dry-run runs no command
      approval,
      ...modes.gates(),
    ],
    confirm: o.confirm,
    autoApprove: o.autoApprove,
  });
  const context = (signal: AbortSignal): ToolContext => ({
    cwd,
    signal,
    fs,
    files,
    env,
    processes,
    sandbox: box.sandbox,
    onOutput: o.onOutput,
    ask: o.ask,
    skills,
    mcp: mcp.active ? mcp.directory : undefined,
  });
  const makeProvider = (s: Settings) => edits.provider(() => serverProvider(s, modes, o));
  const provider = makeProvider(o.settings);
  const limits: RunLimits = { maxTurns: o.settings.maxTurns, maxParseErrors: 3 };
  const convo: Conversation = {
    messages: resumed?.messages ?? [{ role: "system", content: systemPrompt }],
  };
  // While the model streams, the first calls' one-time work is done.
  const warm = new WarmUp(loopTools(), pipeline, { rehearse: !modes.dry, cwd });
  // The session opened above is too new to be taken for a cut one.
  const repairing = repairedFirst ??
    (o.record ? repairAll(() => warm.slice()) : Promise.resolve());
  // ... and dead request bodies are collected before they pile up.
  const heap = new HeapKeeper();
  const ahead = callAhead(loopTools(), backups);
  const session: AgentSession = {
    deps: {
      provider,
      tools: loopTools(),
      blockCall: edits.blockCall,
      sendReasoning: o.settings.modelQuirks.sendReasoning,
      runner: {
        pipeline,
        context,
        backups,
        commandUndo,
        stepper: modes.stepper,
        simulate: modes.dry?.simulate,
      },
      recorder: modes.recorder(recorder),
      limits,
      emit: modes.emit((ev) => {
        // A skill stays in use (its allowed-tools apply) until the model's turn ends.
        if (ev.type === "done" || (ev.type === "turn_start" && ev.turn === 1)) skills?.release();
        if (ev.type === "turn_start" || ev.type === "done") mcp.busy(ev.type === "turn_start");
        if (ev.type === "call_progress") ahead(ev.summary);
        if (ev.type === "reply_end" || (ev.type === "state" && ev.state === "streaming")) {
          mcp.start();
        }
        // While the model streams the agent idles; once the reply ends, its own turn runs.
        if (ev.type === "state") ev.state === "streaming" ? warm.resume("streaming") : warm.pause();
        o.emit(ev);
      }),
      context: { window: o.settings.contextWindow },
      // The request is out and the model works: the agent idles until its reply.
      requested() {
        warm.resume("waiting");
        heap.tend();
      },
    },
    convo,
    recorder,
    cwd,
    homeDir: home.dir,
    approval,
    backups,
    dryRun: modes.dry,
    stepper: modes.stepper,
    mode: () => mode,
    settings: () => settings,
    switchModel(next: Settings) {
      settings = next;
      protectCredentials({ names: [next.apiKeyEnv], values: [next.apiKey] });
      const deps = (this as AgentSession).deps;
      deps.provider = makeProvider(next);
      deps.context = { window: next.contextWindow };
      deps.sendReasoning = next.modelQuirks.sendReasoning;
      convo.messages[0] = { role: "system", content: prompt() };
    },
    setMode(next: Mode) {
      mode = next;
      convo.messages[0] = { role: "system", content: prompt() };
    },
    project: () => project,
    async refresh() {
      project = await analyzeProject(cwd, { cacheDir: paths.projects });
      convo.messages[0] = { role: "system", content: prompt() };
      return project;
    },
    providerName: () => edits.current(),
    async setProvider(name: string) {
      await edits.switchTo(name, settings);
      const deps = (this as AgentSession).deps;
      deps.provider = makeProvider(settings);
      deps.tools = loopTools();
      convo.messages[0] = { role: "system", content: prompt() };
    },
    mcpServers: () => mcp.hub.servers(),
    wrapTools(next) {
      wrap = next;
      session.deps.tools = loopTools();
    },
    async close() {
      await mcp.close();
      // An unfinished check stops at its next file; the next start goes on from there.
      warm.stop();
      await repairing;
      await processes.killAll();
      uninstall();
      await box.sandbox.dispose();
      await commandUndo?.dispose();
      await recorder.close();
      await logs?.dispose();
    },
  };
  // MCP tools become known while the session runs: the next request sees them.
  if (o.mcpStart === "open") mcp.start();
  mcp.onChange(() => {
    session.deps.tools = loopTools();
    convo.messages[0] = { role: "system", content: prompt() };
  });
  return session;
}
