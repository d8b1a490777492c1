/**
 * What "Allow always" offers for a call: narrow rule patterns, never the
 * whole program everywhere. A command gets its head and sub-command
 * (`npm test *`, `git status *`, `npm run build *`) or the exact command; a
 * file gets its exact path or a directory glob (`src/**`); other tools get
 * their exact first parameter or `*`.
 *
 * @example
 * ```ts
 * proposeRules("execute_command", subject).variants[0].patterns; // ["npm test *"]
 * ```
 * @module
 */
import type { CallSubject, SubjectPath } from "./rules.ts";
import { dangerousUses } from "./rules_danger.ts";

/** Programs that delete, move, write or change files named in their arguments: exact rules only. */
const WRITERS = new Set([
  "rm",
  "rmdir",
  "unlink",
  "shred",
  "mv",
  "cp",
  "ln",
  "install",
  "tee",
  "dd",
  "truncate",
  "chmod",
  "chown",
  "chgrp",
  "chattr",
  "setfacl",
  "rsync",
  "scp",
  "tar",
  "unzip",
  "zip",
  "7z",
  "patch",
  "kill",
  "pkill",
  "killall",
  "del",
  "erase",
  "rd",
  "move",
  "copy",
  "xcopy",
  "robocopy",
  "ren",
  "rename",
  "remove-item",
  "move-item",
  "copy-item",
  "rename-item",
  "set-content",
  "add-content",
  "out-file",
  "new-item",
  "clear-content",
  "stop-process",
  "curl",
  "wget",
]);

/** One choice of patterns (one per command segment or path) to store together. */
export interface RuleVariant {
  patterns: string[];
  /** The rule's tool when it is not the call's own, e.g. `mcp__github__*` for a whole server. */
  tool?: string;
  /** Whether the "everywhere" scope is offered (not for a bare `program *`). */
  everywhere: boolean;
}

/** The variants for a call, narrowest-but-useful first; or why none can be stored. */
export interface RuleProposal {
  tool: string;
  variants: RuleVariant[];
  /** Set when no rule can cover this call. */
  unavailable?: string;
}

/** Programs whose second word is a sub-command (`git status`). */
const SUBCOMMAND_HEADS = new Set([
  "git",
  "npm",
  "pnpm",
  "yarn",
  "bun",
  "deno",
  "cargo",
  "go",
  "docker",
  "podman",
  "kubectl",
  "helm",
  "pip",
  "pip3",
  "uv",
  "poetry",
  "make",
  "just",
  "dotnet",
  "gh",
  "brew",
  "apt",
  "apt-get",
  "mvn",
  "gradle",
  "gradlew",
  "rustup",
  "composer",
  "bundle",
  "rails",
  "terraform",
  "npx",
  "bunx",
  "pnpx",
  "nx",
  "turbo",
  "swift",
  "mix",
  "stack",
  "cabal",
]);

/** Sub-commands that take one more word naming what they run (`npm run build`). */
const THREE_WORDS = new Set([
  "npm run",
  "pnpm run",
  "yarn run",
  "bun run",
  "deno run",
  "deno task",
  "npm exec",
  "docker compose",
  "go run",
  "cargo run",
  "uv run",
  "poetry run",
  "bundle exec",
]);

/** Interpreters: the script they run is part of the pattern (`python app.py *`). */
const INTERPRETERS = new Set([
  "python",
  "python3",
  "node",
  "ruby",
  "perl",
  "php",
  "bash",
  "sh",
  "zsh",
  "pwsh",
  "powershell",
  "tsx",
  "ts-node",
]);

/**
 * "Allow always" for an MCP tool: this tool with any arguments, or every
 * tool of its server (`mcp__<server>__*`).
 */
export function externalRules(tool: string, serverPrefix: string): RuleProposal {
  return {
    tool,
    variants: [
      { patterns: ["*"], everywhere: true },
      { patterns: ["*"], everywhere: true, tool: `${serverPrefix}*` },
    ],
  };
}

/** The rule variants "Allow always" can store for a call of `tool` on `subject`. */
export function proposeRules(tool: string, subject: CallSubject): RuleProposal {
  if (subject.kind === "command") {
    if (subject.segments === null) {
      return {
        tool,
        variants: [],
        unavailable: `a rule cannot match this command: ${subject.refusal ?? "it cannot be read"}`,
      };
    }
    if (subject.segments.length === 0) {
      return { tool, variants: [], unavailable: "the command is empty" };
    }
    return { tool, variants: commandVariants(subject.segments) };
  }
  if (subject.kind === "paths") return pathProposal(tool, subject.paths);
  const variants: RuleVariant[] = [];
  if (subject.value !== "" && !/[*?]/.test(subject.value)) {
    variants.push({ patterns: [subject.value], everywhere: true });
  }
  variants.push({ patterns: ["*"], everywhere: false });
  return { tool, variants };
}

function commandVariants(segments: string[][]): RuleVariant[] {
  const narrow = unique(segments.map(narrowPattern));
  const exact = segments.some((w) => w.some((x) => x.includes("*")))
    ? null
    : unique(segments.map((w) => w.map(quoteWord).join(" ")));
  const variants: RuleVariant[] = [{ patterns: narrow, everywhere: narrow.every(specific) }];
  if (exact && exact.join("\n") !== narrow.join("\n")) {
    variants.push({ patterns: exact, everywhere: true });
  }
  return variants;
}

/** The narrow pattern of one simple command: its head and sub-command, then `*`. */
export function narrowPattern(words: readonly string[]): string {
  let k = 0;
  while (k < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[k])) k++;
  const exact = words.map(quoteWord).join(" ");
  if (k >= words.length || dangerousUses(words).length > 0) return exact;
  const head = words[k];
  const name = head.replace(/^.*[\\/]/, "").replace(/\.(exe|cmd|bat)$/i, "").toLowerCase();
  if (WRITERS.has(name)) return exact;
  const keep = (n: number) => [...words.slice(0, k + n).map(quoteWord), "*"].join(" ");
  const next = words[k + 1];
  if (SUBCOMMAND_HEADS.has(name)) {
    if (next === undefined || next.startsWith("-")) return exact;
    const third = words[k + 2];
    if (THREE_WORDS.has(`${name} ${next}`) && third !== undefined && !third.startsWith("-")) {
      return keep(3);
    }
    return keep(2);
  }
  if (INTERPRETERS.has(name)) {
    if (next === undefined) return exact;
    if (next === "-m" && words[k + 2] !== undefined) return keep(3);
    if (next.startsWith("-")) return exact;
    return keep(2);
  }
  return keep(1);
}

/** Whether a pattern names more than a bare program (offered for every project). */
function specific(pattern: string): boolean {
  const literal = pattern.split(/\s+/).filter((w) => !w.includes("*") && !/^[A-Za-z_]\w*=/.test(w));
  return literal.length >= 2 || !pattern.includes("*");
}

function pathProposal(tool: string, paths: readonly SubjectPath[]): RuleProposal {
  const rels = paths.map((p) => p.rel);
  if (rels.some((r) => r === null)) {
    return { tool, variants: [], unavailable: "a path is outside the project" };
  }
  const list = rels as string[];
  const variants: RuleVariant[] = [{ patterns: unique(list), everywhere: true }];
  const chains = list.map(ancestorGlobs);
  const depth = Math.min(3, Math.max(0, ...chains.map((c) => c.length)));
  for (let i = 0; i < depth; i++) {
    const patterns = unique(chains.map((c, n) => c[Math.min(i, c.length - 1)] ?? list[n]));
    if (!variants.some((v) => v.patterns.join("\n") === patterns.join("\n"))) {
      variants.push({ patterns, everywhere: true });
    }
  }
  return { tool, variants };
}

/** `a/b/c.ts` → `["a/b/**", "a/**"]`. */
function ancestorGlobs(rel: string): string[] {
  const parts = rel.split("/");
  const out: string[] = [];
  for (let n = parts.length - 1; n >= 1; n--) out.push(parts.slice(0, n).join("/") + "/**");
  return out;
}

/** Quotes a word so the pattern reads back as the same word. */
export function quoteWord(word: string): string {
  if (word !== "" && /^[A-Za-z0-9_\-./:=@,+%^~*]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}
