/**
 * Entry of the `__confine` helper when minoc runs from source (a compiled
 * binary or the bundle run `minoc __confine …` through main.ts instead).
 * It never exits by itself: on success the process has become the script.
 *
 * @module
 */
import { confineMain } from "./confine_main.ts";

const write = (to: typeof Deno.stdout) => (text: string) => {
  to.writeSync(new TextEncoder().encode(text));
};
Deno.exitCode = confineMain(Deno.args, write(Deno.stdout), write(Deno.stderr));
