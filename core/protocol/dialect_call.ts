/**
 * Turns a call read in any dialect into the same result its canonical twin
 * gives: known tool, values as raw strings, list parameters as arrays, the
 * required ones present. Also the one place that decides about XML entities
 * a model escaped in a command.
 *
 * @module
 */
import type { ParseResult, ToolCall, ToolSpec } from "../../interfaces/tool.ts";
import { argText } from "./dialect_json.ts";

/** Raw parameters as a dialect read them, before they meet the tool's spec. */
export type RawParams = Record<string, unknown>;

/**
 * The values of an XML element given more than once: a list for a list
 * parameter, else the first value (as in the canonical form). A JSON array
 * is a plain array and becomes JSON text for a parameter that is not a list.
 */
export class ValueList extends Array<string> {}

/**
 * The result of a call named `name` with `raw` parameters, written in
 * `dialect`. Unknown parameters are ignored, as unknown elements are in the
 * canonical form.
 */
export function dialectResult(
  dialect: string,
  name: string,
  raw: RawParams,
  specs: ReadonlyMap<string, ToolSpec>,
): ParseResult {
  const tool = specs.get(name);
  if (tool === undefined) {
    return {
      kind: "error",
      error: "unknown_tool",
      message: `Unknown tool "${name}"`,
      tool: name,
      dialect,
    };
  }
  const params: Record<string, string | string[]> = {};
  for (const p of tool.params) {
    let v = raw[p.name];
    if (v === undefined || v === null) continue;
    if (v instanceof ValueList && !p.multiple) v = v[0];
    if (p.multiple) {
      const list = (Array.isArray(v) ? v : [v]).map(argText).filter((x) => x !== undefined);
      if (list.length > 0) params[p.name] = list as string[];
    } else {
      const text = argText(v);
      if (text !== undefined) params[p.name] = text;
    }
  }
  const call: ToolCall = { tool: name, params };
  const missing = tool.params.filter((p) => p.required && !(p.name in params));
  if (missing.length > 0) {
    const list = missing.map((p) => `<${p.name}>`).join(", ");
    const known = new Set(tool.params.map((p) => p.name));
    const extra = Object.keys(raw).filter((k) => !known.has(k)).map((k) => `"${k}"`);
    const got = extra.length === 0 ? "" : ` (it does not take ${extra.join(", ")})`;
    return {
      kind: "error",
      error: "missing_param",
      message: `${name} is missing ${list}${got}`,
      tool: name,
      dialect,
      meant: call,
    };
  }
  return withEntities({ kind: "call", call, dialect }, tool);
}

const ENTITY = /&(amp|lt|gt|quot|apos|#39|#x27);/g;
const DECODED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  "#39": "'",
  "#x27": "'",
};

/**
 * The escaped-entity decision. Values stay raw bytes (a file may hold
 * `&amp;`), except the plain values of a command tool (kind `exec`) in which
 * every `&` starts an XML entity: there `&amp;&amp;` was plainly meant as
 * `&&`, so it is decoded and the result says so in `notice`.
 */
export function withEntities(
  result: Extract<ParseResult, { kind: "call" }>,
  tool: ToolSpec,
): Extract<ParseResult, { kind: "call" }> {
  if ((tool as { kind?: string }).kind !== "exec") return result;
  const notes: string[] = [];
  const params = { ...result.call.params };
  for (const p of tool.params) {
    const v = params[p.name];
    if (p.bulk || typeof v !== "string" || !plainlyEscaped(v)) continue;
    const decoded = v.replace(ENTITY, (_, e: string) => DECODED[e]);
    params[p.name] = decoded;
    notes.push(`<${p.name}> "${v}" was read as "${decoded}"`);
  }
  if (notes.length === 0) return result;
  const notice = `XML entities decoded (write commands unescaped): ${notes.join("; ")}`;
  return { ...result, call: { tool: result.call.tool, params }, notice };
}

/** Whether `v` holds an entity and every `&` in it starts one. */
function plainlyEscaped(v: string): boolean {
  const entities = v.match(ENTITY)?.length ?? 0;
  if (entities === 0) return false;
  let amps = 0;
  for (let i = v.indexOf("&"); i >= 0; i = v.indexOf("&", i + 1)) amps++;
  return amps === entities;
}
