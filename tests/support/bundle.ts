/**
 * The bundle under test: the one `MINOC_ENTRY` names (CI tests the shipped
 * file), else one built now into `dir` the way `deno task bundle` builds it.
 *
 * @module
 */
import { join } from "node:path";
import { buildBundle } from "../../.ci/bundle.ts";

/** Path of the bundle to test. */
export async function bundleUnderTest(dir: string): Promise<string> {
  const given = Deno.env.get("MINOC_ENTRY");
  if (given?.endsWith(".js")) return given;
  const out = join(dir, "minoc.js");
  await buildBundle(out);
  return out;
}
