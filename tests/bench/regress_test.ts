import assert from "node:assert/strict";
import { regressions } from "../../bench/regress.ts";
import { NOTES_MARKER, type Row, table } from "../../bench/report.ts";

const before: Row[] = [
  { area: "start-up", measure: "`minoc --version` (median)", value: 40, bundle: 50, unit: "ms" },
  { area: "", measure: "peak memory", value: 80, bundle: 90, unit: "MB" },
  { area: "XML parsing", measure: "parsed whole", value: 600, unit: "MB/s" },
  { area: "", measure: "files kept", value: 500, unit: "" },
];
const previous = `# results\n\n${table(before)}\n`;

Deno.test("regressions() names each figure more than 20% worse, in the direction of its unit", () => {
  const now: Row[] = [
    { ...before[0], value: 47, bundle: 61 }, // +17.5% (fine), +22% (called out)
    { ...before[1], value: 70, bundle: 90 },
    { ...before[2], value: 450 }, // a throughput: lower is worse, 600/450 = +33%
    { ...before[3], value: 5000 }, // a count: never compared
  ];
  assert.deepEqual(regressions(previous, now), [
    "- start-up / `minoc --version` (median) (bundle): 50 → 61 ms (22% worse)",
    "- XML parsing / parsed whole (source): 600 → 450 MB/s (33% worse)",
  ]);
});

Deno.test("regressions() writes figures as the table does (no long fractions)", () => {
  const ratio: Row[] = [{ area: "search", measure: "minoc ÷ ripgrep", value: 2.84, unit: "×" }];
  const old = `# results\n\n${table(ratio)}\n`;
  assert.deepEqual(regressions(old, [{ ...ratio[0], value: 3.498352901389337 }]), [
    "- search / minoc ÷ ripgrep (source): 2.84 → 3.5 × (23% worse)",
  ]);
});

Deno.test("regressions() finds nothing when there is no previous table or no row is worse", () => {
  assert.deepEqual(regressions("", before), []);
  assert.deepEqual(regressions(previous, before), []);
});

Deno.test("regressions() compares with the generated table only, not tables in the hand-written notes", () => {
  const notes = `${previous}\n${NOTES_MARKER}\n\n${
    table([{ ...before[0], value: 1, bundle: 1 }])
  }\n`;
  assert.deepEqual(regressions(notes, before), []);
});
