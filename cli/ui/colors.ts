/**
 * Colours that honour NO_COLOR and switch off when the stream is not a
 * terminal (unless FORCE_COLOR is set).
 *
 * @module
 */
import pc from "picocolors";

/** The palette in use: real colours, or identity functions. */
export type Palette = ReturnType<typeof pc.createColors>;

/** A palette for a stream that is (or is not) a terminal. */
export function palette(isTerminal: boolean): Palette {
  const env = Deno.env.toObject();
  const enabled = env.NO_COLOR === undefined &&
    (isTerminal || (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "0"));
  return pc.createColors(enabled);
}
