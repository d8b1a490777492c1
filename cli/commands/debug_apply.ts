/**
 * `minoc debug apply`: applies the edit blocks of one reply (read from stdin)
 * to a directory, all or nothing, exactly as the agent would.
 *
 * - `--json` prints `{"ok":true,"changed":[…]}` (paths relative to the root,
 *   in the order the blocks first touch them) or `{"error":"<kind>","block":N}`
 *   (blocks counted from 1); exit code 1 on an error.
 * - `--root <dir>` is the directory the paths are relative to (default: the
 *   current one). Paths that leave it are refused (`outside_root`).
 *
 * @module
 */
import { dirname, isAbsolute, relative, resolve } from "node:path";
import { Command } from "@commander-js/extra-typings";
import {
  applyBlocks,
  type EditBlock,
  type FileEdit,
  parseBlocks,
} from "../../core/protocol/bridge_format.ts";
import { decodeText } from "../../core/tools/paths.ts";
import { CliError, type CliIO, EXIT } from "../io.ts";

/** Options of `debug apply`. */
export interface ApplyOptions {
  json?: boolean;
  root?: string;
}

/** The `apply` subcommand of `debug`. */
export function debugApplyCommand(io: CliIO): Command {
  return new Command("apply")
    .description("apply the edit blocks of one reply (stdin) to a directory, all or nothing")
    .option("--json", 'print {"ok":true,"changed":[...]} or {"error":"<kind>","block":N}')
    .option("--root <dir>", "the directory block paths are relative to (default: the current one)")
    .action(async (opts) => {
      await debugApply(io, opts);
    }) as unknown as Command;
}

/** Runs `debug apply`. */
export async function debugApply(io: CliIO, opts: ApplyOptions): Promise<void> {
  const root = resolve(opts.root ?? Deno.cwd());
  const info = await Deno.stat(root).catch(() => null);
  if (!info?.isDirectory) throw new CliError(`Root "${root}" is not a directory`, EXIT.usage);
  const input = await io.readStdin();
  const result = await applyTo(root, input);
  if (!result.ok) {
    io.exitCode = EXIT.failed;
    io.out(
      opts.json
        ? `${JSON.stringify({ error: result.error, block: result.block })}\n`
        : `Not applied (${result.error}): ${result.message}\n`,
    );
    return;
  }
  const applied = result;
  for (const c of applied.changes) await write(resolve(root, c.path), c.after);
  const changed = applied.changes.map((c) => c.path);
  io.out(
    opts.json ? `${JSON.stringify({ ok: true, changed })}\n` : humanReport(applied.changes),
  );
}

type Outcome =
  | { ok: true; changes: FileEdit[] }
  | { ok: false; error: string; block: number; message: string };

/** Parses and applies in memory; paths leaving the root are refused. */
async function applyTo(root: string, input: string): Promise<Outcome> {
  const parsed = parseBlocks(input);
  if (!parsed.ok) return parsed;
  const outside = parsed.blocks.find((b) => escapes(root, b));
  if (outside) {
    const message = `Block ${outside.index}: "${outside.path}" is outside "${root}"`;
    return { ok: false, error: "outside_root", block: outside.index, message };
  }
  return await applyBlocks(parsed.blocks, (p) => readText(resolve(root, p)));
}

function escapes(root: string, b: EditBlock): boolean {
  const rel = relative(root, resolve(root, b.path));
  return rel === ".." || rel.startsWith("../") || rel.startsWith("..\\") ||
    isAbsolute(rel);
}

async function readText(abs: string): Promise<string | null> {
  const info = await Deno.stat(abs).catch(() => null);
  if (!info?.isFile) return null;
  return decodeText(await Deno.readFile(abs));
}

async function write(abs: string, text: string | null): Promise<void> {
  if (text === null) {
    await Deno.remove(abs);
    return;
  }
  await Deno.mkdir(dirname(abs), { recursive: true });
  await Deno.writeTextFile(abs, text);
}

function humanReport(changes: readonly FileEdit[]): string {
  if (changes.length === 0) return "Applied: nothing changed\n";
  const lines = changes.map((c) =>
    `  ${c.before === null ? "created" : c.after === null ? "deleted" : "modified"} ${c.path}`
  );
  return `Applied: ${changes.length} file${changes.length === 1 ? "" : "s"} changed\n${
    lines.join("\n")
  }\n`;
}
