/**
 * Colours that honour NO_COLOR and switch off when the stream is not a
 * terminal (unless FORCE_COLOR is set).
 *
 * Written here rather than taken from a package: the colour packages decide
 * at import time whether colour is on, and reading `process.stdout` for that
 * starts Deno's Node stream modules before the first request (bench/NOTES.md,
 * eleventh pass). Each style is one SGR code pair; a style closed inside the
 * text (a nested one) is opened again after its close, so the outer style
 * still covers the rest.
 *
 * @module
 */

/** A styling function: the text wrapped in its escape codes, or the text as it is. */
export type Paint = (text: string | number) => string;

/** Each style's opening and closing SGR parameter. */
const STYLES = {
  bold: [1, 22],
  dim: [2, 22],
  italic: [3, 23],
  underline: [4, 24],
  strikethrough: [9, 29],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  blue: [34, 39],
  magenta: [35, 39],
  cyan: [36, 39],
  gray: [90, 39],
} as const satisfies Record<string, readonly [number, number]>;

/** The palette in use: real colours, or identity functions (one per style of {@link STYLES}). */
export type Palette =
  & {
    /** Whether the functions colour at all. */
    readonly isColorSupported: boolean;
  }
  & { readonly [K in keyof typeof STYLES]: Paint };

function style(openCode: number, closeCode: number): Paint {
  const open = `\x1b[${openCode}m`;
  const close = `\x1b[${closeCode}m`;
  const reopen = close + open;
  return (text) => {
    const s = String(text);
    return open + (s.includes(close) ? s.replaceAll(close, reopen) : s) + close;
  };
}

const plain: Paint = (text) => String(text);

function build(enabled: boolean): Palette {
  const out: Record<string, Paint | boolean> = { isColorSupported: enabled };
  for (const [name, [open, close]] of Object.entries(STYLES)) {
    out[name] = enabled ? style(open, close) : plain;
  }
  return out as unknown as Palette;
}

let coloured: Palette | undefined;
let uncoloured: Palette | undefined;

/** The palette with colour on or off, whatever the streams are. */
export function colours(enabled: boolean): Palette {
  if (enabled) return coloured ??= build(true);
  return uncoloured ??= build(false);
}

/** A palette for a stream that is (or is not) a terminal. */
export function palette(isTerminal: boolean): Palette {
  const force = Deno.env.get("FORCE_COLOR");
  const enabled = Deno.env.get("NO_COLOR") === undefined &&
    (isTerminal || (force !== undefined && force !== "0"));
  return colours(enabled);
}

/** The palette for what a command writes to standard output. */
export function stdoutPalette(): Palette {
  return palette(Deno.stdout.isTerminal());
}
