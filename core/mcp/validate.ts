/**
 * JSON Schema validation of MCP tool arguments with the SDK's Ajv setup.
 * Loaded on demand (see `args.ts`): it is heavy, and no session that has no
 * MCP server should pay for it.
 *
 * @module
 */
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";

const validators = new AjvJsonSchemaValidator();

/** A check of one value against `schema`; throws when Ajv cannot compile the schema. */
export function compileSchema(
  schema: Record<string, unknown>,
): (v: unknown) => { valid: boolean; errorMessage?: string } {
  return validators.getValidator(schema as never);
}
