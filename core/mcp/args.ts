/**
 * An MCP tool's JSON Schema as XML parameters, and the model's raw strings
 * back into JSON arguments: scalars are child elements (`<count>3</count>`),
 * objects and arrays are JSON text inside their element. The arguments are
 * then validated against the schema, and each problem names its parameter.
 *
 * @module
 */
import * as z from "zod";
import type { ParamSpec } from "../../interfaces/tool.ts";
import { paramElement } from "../protocol/mcp_names.ts";

/** A JSON Schema object (only what is read here). */
export type JsonSchema = Record<string, unknown>;

/** One parameter: its XML element, its JSON property, its schema. */
export interface McpParam {
  spec: ParamSpec;
  property: string;
  schema: JsonSchema;
}

/** The parameters of a tool's `inputSchema`, in the schema's order. */
export function schemaParams(input: JsonSchema): McpParam[] {
  const props = (input.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(input.required) ? input.required as string[] : []);
  const taken = new Set<string>();
  return Object.entries(props).map(([property, schema]) => {
    let name = paramElement(property);
    while (taken.has(name)) name += "_";
    taken.add(name);
    return {
      property,
      schema: typeof schema === "object" && schema !== null ? schema : {},
      spec: {
        name,
        description: paramDescription(schema),
        required: required.has(property),
        bulk: isText(schema) || isStructured(schema),
      },
    };
  });
}

/** `(integer) How many` — the type first, so a small model sees how to write it. */
function paramDescription(schema: JsonSchema): string {
  const type = typesOf(schema).join("|") || "any";
  const how = isStructured(schema) ? `${type} as JSON` : type;
  const choices = Array.isArray(schema.enum)
    ? `; one of ${schema.enum.map((v) => JSON.stringify(v)).join(", ")}`
    : "";
  const text = typeof schema.description === "string" ? ` ${schema.description}` : "";
  return `(${how}${choices})${text}`;
}

function typesOf(schema: JsonSchema): string[] {
  const t = schema.type;
  if (typeof t === "string") return [t];
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === "string");
  return [];
}

function isStructured(schema: JsonSchema): boolean {
  return typesOf(schema).some((t) => t === "object" || t === "array");
}

function isText(schema: JsonSchema): boolean {
  const t = typesOf(schema);
  return t.length === 1 && t[0] === "string";
}

/** Reads one raw XML value as the JSON its schema asks for; a message when it cannot. */
export function readArg(raw: string, schema: JsonSchema): { value: unknown } | { error: string } {
  const types = typesOf(schema);
  if (types.includes("string") && types.length === 1) return { value: raw };
  const t = raw.trim();
  if (types.length === 0 || types.includes("string")) {
    // Untyped or string-or-something: JSON when it reads as JSON, else the text.
    if (types.includes("null") && t === "null") return { value: null };
    if (types.length === 0 && /^[[{"]|^-?\d|^(true|false|null)$/.test(t)) {
      try {
        return { value: JSON.parse(t) };
      } catch { /* plain text */ }
    }
    return { value: raw };
  }
  if (t === "null" && types.includes("null")) return { value: null };
  if (types.includes("boolean") && /^(true|false)$/i.test(t)) {
    return { value: t.toLowerCase() === "true" };
  }
  if (
    (types.includes("integer") || types.includes("number")) &&
    /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(t)
  ) {
    return { value: Number(t) };
  }
  if (types.includes("object") || types.includes("array")) {
    try {
      return { value: JSON.parse(t) };
    } catch {
      const what = types.includes("array")
        ? 'a JSON array, e.g. ["a", "b"]'
        : 'a JSON object, e.g. {"key": "value"}';
      return { error: `expected ${what}` };
    }
  }
  return { error: `expected ${types.join(" or ")}` };
}

let validator: typeof import("./validate.ts") | null = null;
let loading: Promise<void> | null = null;

/**
 * Loads the JSON Schema validator (Ajv) in the background; until it is there
 * arguments are only read by type, and the server checks the rest itself.
 */
export function loadValidator(): Promise<void> {
  loading ??= import("./validate.ts").then((m) => void (validator = m)).catch(() => {});
  return loading;
}

/**
 * The zod schema the dispatcher runs: raw strings in, JSON arguments (keyed
 * by the original property names) out, checked against `input`.
 */
export function argsSchema(
  input: JsonSchema,
  params: McpParam[],
): z.ZodType<Record<string, unknown>> {
  let check: ((v: unknown) => { valid: boolean; errorMessage?: string }) | null | undefined;
  const compiled = () => {
    if (check !== undefined || !validator) return check ?? null;
    try {
      check = validator.compileSchema({ ...input, type: "object" });
    } catch {
      check = null; // A schema Ajv cannot compile: the server checks its own arguments.
    }
    return check;
  };
  const byElement = new Map(params.map((p) => [p.spec.name, p]));
  const byProperty = new Map(params.map((p) => [p.property, p.spec.name]));
  return z.record(z.string(), z.unknown()).transform((raw, ctx) => {
    const out: Record<string, unknown> = {};
    for (const [element, value] of Object.entries(raw)) {
      const p = byElement.get(element);
      if (!p || value === undefined) continue;
      const read = readArg(String(value), p.schema);
      if ("error" in read) ctx.addIssue({ code: "custom", path: [element], message: read.error });
      else out[p.property] = read.value;
    }
    const validate = ctx.issues.length === 0 ? compiled() : null;
    if (validate) {
      const r = validate(out);
      if (!r.valid) {
        for (const issue of splitAjv(r.errorMessage ?? "invalid", byProperty)) {
          ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
        }
      }
    }
    return out;
  }) as unknown as z.ZodType<Record<string, unknown>>;
}

/** `data/count must be integer, data must have required property 'x'` → per-parameter issues. */
function splitAjv(
  text: string,
  byProperty: Map<string, string>,
): { path: string[]; message: string }[] {
  return text.split(/, (?=data)/).map((part) => {
    const m = /^data(?:\/([^ ]+))? (.*)$/.exec(part.trim());
    if (!m) return { path: [], message: part };
    const [, pointer, message] = m;
    const required = /^must have required property '(.+)'$/.exec(message);
    if (!pointer && required) {
      return { path: [byProperty.get(required[1]) ?? required[1]], message: "is required" };
    }
    if (!pointer) return { path: [], message };
    const [head, ...rest] = pointer.split("/");
    const element = byProperty.get(head) ?? head;
    return { path: [element, ...rest], message };
  });
}
