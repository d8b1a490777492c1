/**
 * The benchmark report: the machine it ran on, one table of results with
 * their aims, and bench/RESULTS.md, whose hand-written notes (below the
 * marker line) survive every rewrite.
 *
 * @module
 */

/** One line of the results table. */
export interface Row {
  area: string;
  measure: string;
  /** Value from source (`main.ts`) or of the in-process benchmark. */
  value: number | string;
  /** Value of the bundle (`dist/minoc.js`) where it applies. */
  bundle?: number | string;
  unit: string;
  /** The aim in words, e.g. "≤ 60". */
  aim?: string;
  /** Whether a value meets the aim. */
  meets?: (v: number) => boolean;
}

/** The machine and runtime a report was measured on. */
export interface Machine {
  date: string;
  cpu: string;
  cores: number;
  memoryGb: number;
  os: string;
  deno: string;
  loadAverage: string;
}

/** The line after which RESULTS.md is written by hand. */
export const NOTES_MARKER =
  "<!-- Notes below this line are written by hand; bench/run.ts keeps them. -->";

/** Describes this machine (Linux details from /proc and /etc/os-release when present). */
export async function machine(): Promise<Machine> {
  const cpuinfo = await Deno.readTextFile("/proc/cpuinfo").catch(() => "");
  const cpu = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? `${Deno.build.arch} CPU`;
  const release = await Deno.readTextFile("/etc/os-release").catch(() => "");
  const pretty = /^PRETTY_NAME="?([^"\n]+)"?$/m.exec(release)?.[1];
  const os = `${
    pretty ?? Deno.build.os
  } (${Deno.build.os} ${Deno.osRelease()}, ${Deno.build.arch})`;
  const v = Deno.version;
  return {
    date: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
    cpu,
    cores: navigator.hardwareConcurrency,
    memoryGb: Math.round(Deno.systemMemoryInfo().total / 1024 ** 3 * 10) / 10,
    os,
    deno: `deno ${v.deno}, V8 ${v.v8}, TypeScript ${v.typescript}`,
    loadAverage: Deno.loadavg().map((n) => n.toFixed(2)).join(", "),
  };
}

/** A figure as the table shows it (at most two decimals, none from 100 up). */
export function show(v: number | string | undefined): string {
  if (v === undefined) return "";
  if (typeof v === "string") return v;
  if (Number.isNaN(v)) return "n/a";
  return v.toLocaleString("en-US", { maximumFractionDigits: Math.abs(v) >= 100 ? 0 : 2 });
}

function verdict(row: Row): string {
  if (!row.meets) return "";
  const one = (v: number | string | undefined) =>
    typeof v === "number" && !Number.isNaN(v) ? (row.meets!(v) ? "yes" : "**no**") : undefined;
  return [one(row.value), one(row.bundle)].filter((x) => x !== undefined).join(" / ");
}

/** The results as a Markdown table. */
export function table(rows: readonly Row[]): string {
  const lines = [
    "| area | measure | from source | bundle | unit | aim | met |",
    "| ---- | ------- | ----------: | -----: | ---- | --- | --- |",
  ];
  for (const r of rows) {
    const cells = [
      r.area,
      r.measure,
      show(r.value),
      show(r.bundle),
      r.unit,
      r.aim ?? "",
      verdict(r),
    ];
    lines.push(`| ${cells.join(" | ")} |`);
  }
  return lines.join("\n");
}

/** The machine as a Markdown list. */
export function machineText(m: Machine): string {
  return [
    `- Date: ${m.date}`,
    `- CPU: ${m.cpu}, ${m.cores} cores`,
    `- Memory: ${m.memoryGb} GB`,
    `- OS: ${m.os}`,
    `- Runtime: ${m.deno}`,
    `- Load average when the run started (1, 5, 15 min): ${m.loadAverage}`,
  ].join("\n");
}

/** Writes RESULTS.md: the generated part, then the notes kept from the old file, formatted. */
export async function writeResults(path: string, generated: string): Promise<void> {
  const old = await Deno.readTextFile(path).catch(() => "");
  const at = old.indexOf(NOTES_MARKER);
  const notes = at >= 0 ? old.slice(at + NOTES_MARKER.length).replace(/^\n+/, "") : "";
  await Deno.writeTextFile(path, `${generated.trimEnd()}\n\n${NOTES_MARKER}\n\n${notes}`);
  // Aligned the way `deno fmt --check` (part of `deno task ok`) wants it.
  await new Deno.Command(Deno.execPath(), { args: ["fmt", "--quiet", path], stderr: "null" })
    .output();
}
