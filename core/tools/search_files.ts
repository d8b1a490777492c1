/**
 * `search_files`: files whose names match a glob and, with `content`, the
 * lines that match a regular expression in them ("which files mention X" is
 * one call). `.gitignore` is honoured and binary files are skipped.
 *
 * Name patterns: without a `/` a glob matches the file name at any depth
 * (`*.ts`); with one it matches the path below `directory` (`src/**\/*.ts`).
 *
 * @module
 */
import { join } from "node:path";
import * as z from "zod";
import type { ToolContext } from "../../interfaces/tool.ts";
import { defineTool, fail, ok } from "./define.ts";
import { pathArg } from "./file_io.ts";
import { compileGlob } from "./glob.ts";
import { displayPath, formatBytes, plural, resolvePath } from "./paths.ts";
import {
  compileQuery,
  type FileHit,
  MAX_SEARCH_BYTES,
  type SearchOutcome,
  searchTree,
} from "./search_engine.ts";

/** Files listed at most when searching names only. */
export const NAMES_MAX_FILES = 500;
/** Files listed at most when searching content. */
export const CONTENT_MAX_FILES = 100;
/** Matching lines shown at most over all files. */
export const CONTENT_MAX_LINES = 300;

/** Searches file names and, optionally, content. */
export const searchFiles = defineTool({
  name: "search_files",
  kind: "read",
  description:
    "Files matching a name glob (*.ts at any depth, src/**/*.ts, *) under directory (default .); with content (regex or text), their matching lines.",
  params: [
    {
      name: "pattern",
      description: "Name glob, e.g. *.ts (* for all)",
      required: true,
    },
    {
      name: "directory",
      description: "Where to search (default .)",
      required: false,
    },
    {
      name: "content",
      description: "Regex or plain text to find in the files",
      required: false,
    },
  ],
  schema: z.object({
    pattern: z.string().trim(),
    directory: pathArg.optional(),
    content: z.string().optional(),
  }),
  example: { pattern: "*.ts", directory: "src", content: "TODO" },
  async execute(args, ctx) {
    const root = resolvePath(ctx, args.directory ?? ".");
    const where = displayPath(ctx, root);
    const info = await ctx.fs.stat(root);
    if (!info) return fail("not_found", `Directory "${where}" does not exist`);
    if (!info.isDirectory) {
      return fail(
        "not_a_directory",
        `"${where}" is a file; pass the directory that holds it and its name as the pattern`,
      );
    }
    const content = args.content === "" ? undefined : args.content;
    const query = content === undefined ? null : compileQuery(content);
    const pattern = args.pattern === "" ? "*" : args.pattern;
    const found = await searchTree({
      fs: ctx.fs,
      root,
      cwd: ctx.cwd,
      match: compileGlob(pattern),
      query,
      signal: ctx.signal,
    });
    const view = { ctx, root, where, pattern, found };
    if (content === undefined) return names(view);
    return matches(view, content, query?.note);
  },
});

interface View {
  ctx: ToolContext;
  root: string;
  where: string;
  pattern: string;
  found: SearchOutcome;
}

function shownPath(v: View, hit: FileHit): string {
  return displayPath(v.ctx, join(v.root, hit.rel));
}

function names(v: View) {
  const { found } = v;
  if (found.hits.length === 0) {
    return ok(`No files under ${v.where} match "${v.pattern}"${ignoredNote(found)}`);
  }
  const shown = found.hits.slice(0, NAMES_MAX_FILES).map((h) => shownPath(v, h));
  const more = found.hits.length - shown.length;
  const head = `${plural(found.hits.length, "file")} under ${v.where} match "${v.pattern}":`;
  const tail = more > 0
    ? [`[${more.toLocaleString("en-US")} more not shown; narrow the pattern or directory]`]
    : [];
  return ok([head, ...shown, ...tail].join("\n"), `Found ${plural(found.hits.length, "file")}`);
}

function matches(v: View, content: string, note: string | undefined) {
  const { found } = v;
  const lineCount = found.hits.reduce((n, h) => n + h.count, 0);
  const scope = `${plural(found.searched, "file")} searched under ${v.where}` +
    (v.pattern === "*" ? "" : ` matching "${v.pattern}"`);
  const notes: string[] = [];
  if (note) notes.push(`[Note: ${note}]`);
  if (found.binary > 0) notes.push(`[${plural(found.binary, "binary file")} skipped]`);
  if (found.secret) {
    notes.push(
      `[${plural(found.secret, ".env file")} not searched: they may hold secrets; ` +
        "read_file asks the user first]",
    );
  }
  if (found.tooLarge > 0) {
    notes.push(`[${plural(found.tooLarge, "file")} over ${formatBytes(MAX_SEARCH_BYTES)} skipped]`);
  }
  if (found.hits.length === 0) {
    const msg = `No matches for "${content}" (${scope})${ignoredNote(found)}`;
    return ok([msg, ...notes].join("\n"), `No matches for "${content}"`);
  }
  const out = [
    `"${content}" matches ${plural(lineCount, "line")} in ${
      plural(found.hits.length, "file")
    } (${scope}):`,
  ];
  let budget = CONTENT_MAX_LINES;
  const listed = found.hits.slice(0, CONTENT_MAX_FILES);
  for (const hit of listed) {
    out.push(shownPath(v, hit));
    const lines = hit.lines.slice(0, Math.max(0, budget));
    budget -= lines.length;
    for (const l of lines) out.push(`  ${l.line}: ${l.text}`);
    if (hit.count > lines.length) {
      out.push(`  [${plural(hit.count - lines.length, "more matching line")}]`);
    }
  }
  const moreFiles = found.hits.length - listed.length;
  if (moreFiles > 0) {
    out.push(
      `[${plural(moreFiles, "more file")} not shown; narrow the pattern, directory or expression]`,
    );
  }
  const display = `Found "${content}" in ${plural(found.hits.length, "file")}`;
  return ok([...out, ...notes].join("\n"), display);
}

function ignoredNote(found: SearchOutcome): string {
  return found.walk.ignored > 0
    ? ` [${plural(found.walk.ignored, "path")} left out by .gitignore]`
    : "";
}
