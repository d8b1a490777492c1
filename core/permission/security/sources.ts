/**
 * What a command writes to its standard output, as seen by a command that
 * reads it: literal text (`echo 'ls'`), downloaded data (`curl`), decoded
 * data (`base64 -d`), a file's content, or unknown program output.
 *
 * @module
 */
import { decodeAnsiC } from "./bash_words.ts";
import { worse, worst } from "./source_rank.ts";
import { hasOption, lowerArgs } from "./flags.ts";
import { psPaths } from "./rules/helpers.ts";
import type { Segment, ShellKind, Source } from "./types.ts";

const FETCHERS = new Set([
  "curl",
  "wget",
  "fetch",
  "http",
  "https",
  "xh",
  "aria2c",
  "lwp-request",
  "lynx",
  "nc",
  "ncat",
  "netcat",
  "socat",
  "ssh",
  "invoke-webrequest",
  "invoke-restmethod",
  "bitsadmin",
]);

/** Commands that pass their input through, or transform it without adding code. */
const FILTERS = new Set([
  "cat",
  "tee",
  "head",
  "tail",
  "tr",
  "sed",
  "awk",
  "rev",
  "sort",
  "uniq",
  "cut",
  "gunzip",
  "zcat",
  "bzcat",
  "xzcat",
  "unxz",
  "gzip",
  "iconv",
  "dos2unix",
  "out-string",
]);

export { worse, worst };

/** Whether running text from this source as code is a block (downloaded or decoded). */
export function isHostile(s: Source | undefined): boolean {
  return s?.kind === "network" || s?.kind === "decoded";
}

/** A literal source. */
export function literal(text: string, shell: ShellKind): Source {
  return { kind: "literal", text, shell };
}

/** What `seg` writes to standard output. */
export function outputOf(seg: Segment): Source {
  const name = seg.name;
  const argSource = worst(seg.args.flatMap((a) => a.sources));
  if (FETCHERS.has(name) && !(name === "ssh" && seg.args.length === 0)) {
    return { kind: "network", detail: seg.text };
  }
  if (isDecoder(seg)) return { kind: "decoded", detail: seg.text };
  if (["echo", "printf", "write-output", "write-host", "print"].includes(name)) {
    if (argSource) return argSource;
    return literal(echoText(seg), seg.shell);
  }
  if (FILTERS.has(name)) return filtered(seg, argSource);
  if (name === "get-childitem" || name === "get-item") {
    const paths = psPaths(seg);
    const base = paths.length > 0 ? paths : [{ text: ".", literal: true, sources: [] }];
    return {
      kind: "program",
      detail: seg.text,
      paths: base.map((p) => ({ ...p, text: p.text.replace(/[\\/]+$/, "") + "\\*" })),
    };
  }
  if (name === "get-content" || (name === "type" && seg.shell === "cmd")) {
    return seg.args.length > 0 ? { kind: "file", detail: seg.text } : filtered(seg, argSource);
  }
  return worse({ kind: "program", detail: seg.text }, argSource)!;
}

function filtered(seg: Segment, argSource: Source | undefined): Source {
  const passThrough = (seg.name === "cat" || seg.name === "tee" || seg.name === "get-content") &&
    (seg.name !== "cat" || seg.args.every((a) => a.text === "-" || a.text.startsWith("-")));
  if (seg.name === "cat" && !passThrough) {
    return worse({ kind: "file", detail: seg.text }, argSource)!;
  }
  const input = seg.stdin ?? undefined;
  if (passThrough && input) return input;
  if (isHostile(input)) return input!;
  return worse({ kind: "program", detail: seg.text }, argSource)!;
}

function isDecoder(seg: Segment): boolean {
  const args = lowerArgs(seg);
  switch (seg.name) {
    case "base64":
    case "base32":
    case "basenc":
      return hasOption(seg.args, "dD", ["decode"]);
    case "openssl":
      return args.includes("base64") && args.includes("-d") ||
        args.includes("enc") && args.includes("-d") || args.includes("-a") && args.includes("-d");
    case "xxd":
      return hasOption(seg.args, "r", ["revert"]);
    case "uudecode":
    case "certutil":
      return seg.name === "uudecode" || args.includes("-decode") || args.includes("/decode");
    default:
      return false;
  }
}

function echoText(seg: Segment): string {
  const args = seg.args.map((a) => a.text);
  if (seg.name === "printf") return printf(args);
  let escapes = false;
  while (seg.shell === "bash" && args.length > 0 && /^-[neE]+$/.test(args[0])) {
    escapes ||= args.shift()!.includes("e");
  }
  const text = args.join(" ");
  return escapes ? decodeAnsiC(text) : text;
}

/** What `printf FORMAT ARGS…` prints: `%s`-like slots filled, the format reused, escapes decoded. */
function printf(args: string[]): string {
  const [format = "", ...rest] = args;
  if (format === "-v") return "";
  let out = "";
  let i = 0;
  do {
    out += format.replace(/%%|%[-+ #0-9.]*[a-zA-Z]/g, (m) => (m === "%%" ? "%" : rest[i++] ?? ""));
  } while (i < rest.length && /%[-+ #0-9.]*[a-zA-Z]/.test(format));
  return decodeAnsiC(out);
}
