/**
 * Levels 2 and 3 of progressive disclosure as text: a skill's body (or one
 * section) up to ~5,000 tokens per answer, cut at headings with a table of
 * contents when longer, and files under its `resources/`. Text already sent
 * in the session is never sent again while the conversation still holds it
 * (a `/clear` or a compaction that dropped it means it is sent again): the
 * model gets a short reminder instead.
 *
 * @example
 * ```ts
 * const d = new Disclosure({ count, metrics, usage });
 * await d.body(skill);            // body or its first part + contents
 * await d.body(skill, "Colours"); // one section
 * await d.resource(skill, "palette.md");
 * ```
 * @module
 */
import { listFiles } from "./skill_files.ts";
import { join, relative } from "node:path";
import type { ToolResult } from "../../interfaces/tool.ts";
import { fail, ok } from "../tools/define.ts";
import { runSkillScript } from "../tools/run_skill_script.ts";
import { formatCall } from "../protocol/feedback.ts";
import { usageLine } from "../protocol/tool_docs.ts";
import { MAX_INDEX_DESCRIPTION } from "./catalog.ts";
import type { Skill } from "./index.ts";
import type { SkillMetrics, SkillUsage } from "./metrics.ts";
import { type Block, findSection, splitBlocks, tableOfContents } from "./sections.ts";
import { cutToTokens, type TokenCounter } from "./tokens.ts";
import { pickBlocks, sum, titlesOf, tocReserve } from "./block_pick.ts";
import { readRegularFile, TEXT_FILE_MAX_BYTES } from "../tools/bounded_read.ts";

/** Tokens one answer of use_skill may carry. */
export const DISCLOSURE_LIMIT = 5000;

/** What disclosure needs: a counter, the session's metrics, and the usage of one skill. */
export interface DisclosureOptions {
  count: TokenCounter;
  metrics: SkillMetrics;
  usage(name: string): SkillUsage;
  limit?: number;
  /** Whether the conversation still holds `text` (default: always). */
  present?(text: string): boolean;
}

/** The disclosure state of one session. */
export class Disclosure {
  readonly #o: DisclosureOptions;
  readonly #blocks = new Map<string, Block[]>();
  /** Skill → block index → the text sent for it. */
  readonly #sent = new Map<string, Map<number, string>>();
  /** Skill and path → the text sent. */
  readonly #resources = new Map<string, string>();
  /** Skill → the header sent with its first disclosure. */
  readonly #introduced = new Map<string, string>();

  constructor(options: DisclosureOptions) {
    this.#o = options;
  }

  /** The blocks of a skill's body (cached). */
  blocksOf(skill: Skill): Block[] {
    let blocks = this.#blocks.get(skill.name);
    if (!blocks) {
      blocks = splitBlocks(skill.body, this.#o.count);
      this.#blocks.set(skill.name, blocks);
    }
    return blocks;
  }

  /** Tokens of the body's blocks sent so far. */
  sentTokens(skill: Skill): number {
    const sent = this.#sent.get(skill.name) ?? new Map<number, string>();
    return this.blocksOf(skill).filter((b) => sent.has(b.index)).reduce((n, b) => n + b.tokens, 0);
  }

  /** The body, or the section named `section`, without what was already sent. */
  async body(skill: Skill, section?: string): Promise<ToolResult> {
    const blocks = this.blocksOf(skill);
    let range = { start: 0, end: blocks.length };
    if (section !== undefined && section.trim() !== "") {
      const found = findSection(blocks, section);
      if (!found) {
        const titles = blocks.filter((b) => b.level > 0).map((b) => `"${b.title}"`).join(", ");
        return fail(
          "unknown_section",
          `Skill "${skill.name}" has no section "${section}"; its sections: ${titles || "none"}`,
        );
      }
      range = found;
    }
    const sent = this.#live(skill.name);
    const header = await this.#header(skill);
    const limit = this.#o.limit ?? DISCLOSURE_LIMIT;
    const budget = Math.max(200, limit - this.#o.count(header) - tocReserve(blocks));
    const pick = pickBlocks(blocks.slice(range.start, range.end), sent, budget, this.#o.count);
    const usage = this.#o.usage(skill.name);
    if (pick.send.length === 0) return this.#reminder(skill, section, pick.repeated, usage);
    const record = this.#sent.get(skill.name) ?? new Map<number, string>();
    this.#sent.set(skill.name, record);
    pick.send.forEach((b, i) => record.set(b.index, pick.texts[i]));
    if (header) this.#introduced.set(skill.name, header);
    const live = new Set([...sent, ...pick.send.map((b) => b.index)]);
    const parts = [header, ...pick.texts].filter((p) => p !== "");
    if (pick.repeated.length) {
      parts.push(`[Already sent above, not repeated: ${titlesOf(pick.repeated)}]`);
      this.#count(usage, "resentAvoided", sum(pick.repeated));
    }
    if (pick.cut) {
      parts.push(
        `[Cut at a heading: the rest would pass ${limit} tokens. Call use_skill again with a ` +
          `section name, or without one for the next part. Contents:\n${
            tableOfContents(blocks, live)
          }]`,
      );
      this.#count(usage, "cuts", 1);
    }
    const output = parts.join("\n\n");
    const tokens = this.#o.count(output);
    this.#count(usage, "l2Tokens", tokens);
    this.#count(usage, "disclosures", 1);
    const what = section ? `section "${section}" of ${skill.name}` : skill.name;
    return ok(output, `${what}: ${tokens} tokens${pick.cut ? " (cut)" : ""}`);
  }

  /** A file under the skill's `resources/`, at most the limit, never twice. */
  async resource(skill: Skill, path: string): Promise<ToolResult> {
    const rel = path.trim().replace(/\\/g, "/").replace(/^(\.\/)?(resources\/)?/, "");
    const root = join(skill.dir, "resources");
    const abs = join(root, rel);
    const realRoot = await Deno.realPath(root).catch(() => root);
    const real = await Deno.realPath(abs).catch(() => null);
    if (real === null || rel === "" || relative(realRoot, real).startsWith("..")) {
      const list = await listFiles(root, root);
      return fail(
        "not_found",
        `Skill "${skill.name}" has no resource "${path}"; its resources: ${
          list.join(", ") || "none"
        }`,
      );
    }
    const usage = this.#o.usage(skill.name);
    const key = `${skill.name}\0${relative(realRoot, real)}`;
    let bytes: Uint8Array;
    try {
      // Only a regular file (a FIFO would never answer), and a bounded amount of it.
      bytes = await readRegularFile(real, { maxBytes: TEXT_FILE_MAX_BYTES });
    } catch (e) {
      return fail(
        "unreadable",
        `Resource "${rel}" of ${skill.name} cannot be read: ${(e as Error).message}`,
      );
    }
    if (bytes.length > TEXT_FILE_MAX_BYTES) {
      return fail(
        "too_large",
        `Resource "${rel}" of ${skill.name} is too large to read: pass it to a script`,
      );
    }
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      return fail("binary", `Resource "${rel}" of ${skill.name} is not text: pass it to a script`);
    }
    const tokens = this.#o.count(text);
    const before = this.#resources.get(key);
    if (before !== undefined && this.#present(before)) {
      this.#count(usage, "cacheHits", 1);
      this.#count(usage, "resentAvoided", tokens);
      return ok(
        `Resource "${rel}" of skill "${skill.name}" was already sent earlier in this conversation; use that text.`,
        `${rel}: already sent (reminder)`,
      );
    }
    const limit = this.#o.limit ?? DISCLOSURE_LIMIT;
    let body = text;
    if (tokens > limit) {
      body = cutToTokens(text, limit, this.#o.count) +
        `\n[Cut: ${tokens} tokens in all, the first ${limit} sent. Process the whole file with a script.]`;
      this.#count(usage, "cuts", 1);
    }
    this.#resources.set(key, body);
    const sentTokens = this.#o.count(body);
    this.#count(usage, "l3Tokens", sentTokens);
    this.#count(usage, "resources", 1);
    return ok(`Resource ${rel} of skill ${skill.name}:\n${body}`, `${rel}: ${sentTokens} tokens`);
  }

  /** Blocks of `name` sent and still in the conversation (checked when asked for again). */
  #live(name: string): Set<number> {
    const live = new Set<number>();
    for (const [index, text] of this.#sent.get(name) ?? []) {
      if (this.#present(text)) live.add(index);
    }
    return live;
  }

  #present(text: string): boolean {
    return this.#o.present?.(text) ?? true;
  }

  #reminder(skill: Skill, section: string | undefined, repeated: Block[], usage: SkillUsage) {
    this.#count(usage, "cacheHits", 1);
    this.#count(usage, "resentAvoided", sum(repeated));
    const blocks = this.blocksOf(skill);
    const sent = this.#live(skill.name);
    const left = blocks.filter((b) => b.level > 0 && !sent.has(b.index));
    const what = section
      ? `Section "${section}" of skill "${skill.name}"`
      : `Skill "${skill.name}"`;
    const rest = left.length ? ` Sections not sent yet: ${titlesOf(left)}.` : "";
    return ok(
      `${what} was already sent earlier in this conversation (${sum(repeated)} tokens); ` +
        `use that text instead of asking again.${rest}`,
      `${section ? `section "${section}" of ` : ""}${skill.name}: already sent (reminder)`,
    );
  }

  /** The skill's facts, sent with its first disclosure only. */
  async #header(skill: Skill): Promise<string> {
    const said = this.#introduced.get(skill.name);
    if (said !== undefined && this.#present(said)) return "";
    const lines = [`Skill "${skill.name}"${skill.version ? ` v${skill.version}` : ""}`];
    const description = skill.description.replace(/\s+/g, " ").trim();
    // The index shows at most MAX_INDEX_DESCRIPTION characters of it: the rest comes here.
    if (description.length > MAX_INDEX_DESCRIPTION) lines.push(`Description: ${description}`);
    const add = (label: string, list: readonly string[]) => {
      if (list.length) lines.push(`${label}: ${list.join("; ")}`);
    };
    add("Inputs", skill.inputs);
    add("Outputs", skill.outputs);
    add("Stages", skill.stages);
    add("Allowed tools (only these while this skill is in use)", skill.allowedTools);
    const scripts = await listFiles(join(skill.dir, "scripts"));
    add("Scripts", scripts);
    if (scripts.length) lines.push(scriptUsage(skill.name, scripts[0]));
    add(
      "Resources (read with use_skill and resource)",
      await listFiles(join(skill.dir, "resources")),
    );
    return lines.join("\n");
  }

  #count(usage: SkillUsage, key: keyof SkillUsage, n: number): void {
    usage[key] += n;
    const m = this.#o.metrics;
    if (key === "l2Tokens" || key === "l3Tokens" || key === "cacheHits" || key === "cuts") {
      m[key] += n;
    } else if (key === "resentAvoided") m.resentAvoided += n;
  }
}

/**
 * How to run a skill's scripts: run_skill_script's usage line and a call of
 * the first script. The system prompt leaves the tool out; the model learns
 * it here, with the scripts it runs.
 */
export function scriptUsage(skill: string, script: string): string {
  const call = formatCall(runSkillScript.name, { name: skill, script }).replaceAll("\n", "");
  return `Run them with:\n${usageLine(runSkillScript)}\n${call}`;
}

export { listFiles };
