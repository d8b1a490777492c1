/**
 * The commands' sandbox with real processes under real Landlock: writes
 * inside the project and the private temp dir succeed, writes outside fail
 * and leave the file as it was, children and background processes are held
 * too, read-only (plan mode) refuses the project as well, and network off
 * refuses a connection to a local test server. A confined command cannot
 * read minoc's environment (its API key), as root neither.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { landlockAbi } from "../../../core/sandbox/landlock.ts";
import { openSandbox, type SessionSandbox } from "../../../core/sandbox/session.ts";
import type { SandboxSettings } from "../../../core/sandbox/policy.ts";
import { executeCommand } from "../../../core/tools/execute_command.ts";
import { startProcess } from "../../../core/tools/start_process.ts";
import { createProcessTable } from "../../../core/tools/process_table.ts";
import type { ToolContext } from "../../../interfaces/tool.ts";

const abi = Deno.build.os === "linux" ? landlockAbi() : 0;

interface Lab {
  root: string;
  project: string;
  outside: string;
  sandbox: SessionSandbox;
  run(command: string): Promise<{ ok: boolean; output: string; code?: string }>;
  ctx: ToolContext;
}

async function withLab(
  o: { settings?: SandboxSettings; readOnly?: () => boolean; npmCache?: boolean },
  body: (lab: Lab) => Promise<void>,
): Promise<void> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_sandbox_" }));
  const project = join(root, "project");
  await Deno.mkdir(project);
  const outside = join(root, "outside.txt");
  await Deno.writeTextFile(outside, "original\n");
  if (o.npmCache) await Deno.mkdir(join(root, ".npm"));
  const sandbox = openSandbox({
    mode: "workspace-write",
    cwd: project,
    home: root,
    settings: o.settings ?? {},
    readOnly: o.readOnly ?? (() => false),
  });
  const processes = createProcessTable();
  const ctx = {
    cwd: project,
    signal: new AbortController().signal,
    env: new Map(),
    processes,
    sandbox,
  } as unknown as ToolContext;
  const run = (command: string) => executeCommand.execute({ command }, ctx);
  try {
    await body({ root, project, outside, sandbox, run, ctx });
  } finally {
    await processes.killAll();
    await sandbox.dispose();
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test({
  name:
    "execute_command() writes inside the project and its temp dir and fails outside when sandboxed",
  ignore: abi === 0,
  fn: () =>
    withLab({}, async ({ sandbox, outside, project, run }) => {
      assert.equal((await sandbox.state()).kind, "on");
      const inside = await run("echo made > made.txt && echo tmp > $TMPDIR/t && cat $TMPDIR/t");
      assert.equal(inside.ok, true, inside.output);
      assert.equal(await Deno.readTextFile(join(project, "made.txt")), "made\n");
      const out = await run(`echo changed > ${outside}`);
      assert.equal(out.ok, false);
      assert.equal(out.code, "sandbox_refused");
      assert.match(out.output, new RegExp(`The sandbox refused writing to "${outside}"`));
      const rm = await run(`rm -f ${outside}; mv ${outside} ${project}/stolen`);
      assert.equal(rm.ok, false);
      assert.equal(await Deno.readTextFile(outside), "original\n");
    }),
});

Deno.test({
  name:
    "a confined command cannot read this process's environment, also as root (no CAP_SYS_ADMIN or CAP_PERFMON)",
  ignore: abi === 0,
  fn: () =>
    withLab({}, async ({ run }) => {
      const probe = await run(
        `wc -c < /proc/${Deno.pid}/environ || echo refused; grep CapEff /proc/self/status`,
      );
      assert.match(probe.output, /refused/);
      const eff = BigInt("0x" + /CapEff:\s*([0-9a-f]+)/.exec(probe.output)![1]);
      assert.equal(eff & ((1n << 21n) | (1n << 38n)), 0n, probe.output);
    }),
});

Deno.test({
  name:
    "execute_command() and start_process() hold children and background processes to the sandbox",
  ignore: abi === 0,
  fn: () =>
    withLab({}, async ({ root, project, run, ctx }) => {
      const child = await run(`(sh -c 'echo x > ${root}/child.txt'; echo done > in.txt) & wait`);
      assert.equal(child.ok, true, child.output);
      assert.equal(await Deno.readTextFile(join(project, "in.txt")), "done\n");
      const bg = await startProcess.execute({
        command: `sleep 0.2; echo y > ${root}/bg.txt; echo $? > bg-code.txt`,
      }, ctx);
      assert.equal(bg.ok, true, bg.output);
      const code = join(project, "bg-code.txt");
      for (let i = 0; i < 600 && !(await exists(code)); i++) await pause(50);
      assert.notEqual((await Deno.readTextFile(code)).trim(), "0");
      assert.equal(await exists(join(root, "child.txt")), false);
      assert.equal(await exists(join(root, "bg.txt")), false);
      const early = await startProcess.execute({ command: `echo z > ${root}/early.txt` }, ctx);
      assert.equal(early.ok, false);
      assert.match(early.output, new RegExp(`The sandbox refused writing to "${root}/early.txt"`));
    }),
});

Deno.test({
  name:
    "execute_command() refuses writes in the project too when the sandbox is read-only (plan mode)",
  ignore: abi === 0,
  fn: () =>
    withLab({ readOnly: () => true }, async ({ project, run }) => {
      const r = await run("echo x > made.txt");
      assert.equal(r.ok, false);
      assert.equal(await exists(join(project, "made.txt")), false);
      const tmp = await run("echo t > $TMPDIR/t && cat $TMPDIR/t");
      assert.equal(tmp.ok, true, tmp.output);
    }),
});

Deno.test({
  name: "execute_command() cannot connect to a local server when sandbox.network is off",
  ignore: abi < 4,
  fn: async () => {
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (listener.addr as Deno.NetAddr).port;
    const accepted: Promise<void> = (async () => {
      for await (const conn of listener) conn.close();
    })();
    const connect = `exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected`;
    try {
      await withLab({ settings: { network: "off" } }, async ({ sandbox, run }) => {
        assert.equal((await sandbox.state()).kind, "on");
        const r = await run(connect);
        assert.equal(r.ok, false, r.output);
        assert.doesNotMatch(r.output, /connected/);
      });
      await withLab({}, async ({ run }) => {
        const r = await run(connect);
        assert.equal(r.ok, true, r.output);
        assert.match(r.output, /connected/);
      });
    } finally {
      listener.close();
      await accepted.catch(() => {});
    }
  },
});

Deno.test({
  name:
    "openSandbox() lets commands write in sandbox.writable folders and package caches, and notes missing ones",
  ignore: abi === 0,
  fn: async () => {
    const extra = await Deno.realPath(await Deno.makeTempDir({ prefix: "minoc_cache_" }));
    try {
      await withLab(
        { settings: { writable: [extra, "~/no-such-folder"] }, npmCache: true },
        async ({ sandbox, run, root }) => {
          const npm = await run(`echo n > ${root}/.npm/cached`);
          assert.equal(npm.ok, true, npm.output);
          assert.equal((await sandbox.state()).kind, "on");
          const state = await sandbox.state();
          if (state.kind === "on") {
            assert.match(
              state.notes.join("\n"),
              /no-such-folder" in sandbox.writable does not exist/,
            );
          }
          const r = await run(`echo c > ${extra}/cache.txt`);
          assert.equal(r.ok, true, r.output);
        },
      );
    } finally {
      await Deno.remove(extra, { recursive: true });
    }
  },
});

function exists(path: string): Promise<boolean> {
  return Deno.stat(path).then(() => true, () => false);
}

function pause(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

Deno.test({
  name: "execute_command() stops a sandboxed command's whole tree when it times out",
  ignore: abi === 0,
  fn: () =>
    withLab({}, async ({ project, ctx }) => {
      const r = await executeCommand.execute({
        command: "(sleep 30; echo late > late.txt) & sleep 30",
        timeout: 1,
      }, ctx);
      assert.equal(r.ok, false);
      assert.equal(r.code, "timeout");
      await pause(300);
      assert.equal(await exists(join(project, "late.txt")), false);
      const left = await new Deno.Command("pgrep", { args: ["-f", "sleep 30; echo late"] })
        .output();
      assert.equal(new TextDecoder().decode(left.stdout).trim(), "");
    }),
});

Deno.test({
  name: "execute_command() cannot signal processes outside the sandbox (Landlock ABI 6)",
  ignore: abi < 6,
  fn: () =>
    withLab({}, async ({ run }) => {
      const outside = await run(`kill -0 ${Deno.pid}`);
      assert.equal(outside.ok, false, outside.output);
      assert.match(outside.output, /not permitted/i);
      const own = await run("sleep 5 & kill $! && echo stopped");
      assert.equal(own.ok, true, own.output);
    }),
});
