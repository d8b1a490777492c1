import assert from "node:assert/strict";
import {
  emptyMetrics,
  emptyUsage,
  formatMetrics,
  readMetrics,
  sumMetrics,
} from "../../../core/skills/metrics.ts";

Deno.test("readMetrics() reads a session's metadata.skills and ignores what is not a number", () => {
  assert.equal(readMetrics(undefined), undefined);
  const m = readMetrics({ l2Tokens: 40, cuts: "x", bySkill: { a: { l2Tokens: 40, scripts: 1 } } })!;
  assert.equal(m.l2Tokens, 40);
  assert.equal(m.cuts, 0);
  assert.deepEqual(m.bySkill.a, { ...emptyUsage(), l2Tokens: 40, scripts: 1 });
});

Deno.test("sumMetrics() adds totals and per-skill usage; formatMetrics() shows levels, avoided and a table", () => {
  const a = { ...emptyMetrics(), l1Tokens: 100, l2Tokens: 50, bodiesAvoided: 900, cacheHits: 1 };
  a.bySkill = { "brand-kit": { ...emptyUsage(), l2Tokens: 50, disclosures: 1, cacheHits: 1 } };
  const b = {
    ...emptyMetrics(),
    l1Tokens: 100,
    l3Tokens: 30,
    scripts: 1,
    sourceAvoided: 70,
    cuts: 2,
  };
  b.bySkill = { "brand-kit": { ...emptyUsage(), l3Tokens: 30, scripts: 1 } };
  const total = sumMetrics([a, b]);
  assert.equal(total.l1Tokens, 200);
  assert.equal(total.bySkill["brand-kit"].l3Tokens, 30);
  assert.equal(total.bySkill["brand-kit"].l2Tokens, 50);
  const text = formatMetrics(total, 2);
  assert.match(text, /^Sessions with skills: 2\n/);
  assert.match(text, /Tokens disclosed: L1 200 .*L2 50 .*L3 30 /);
  assert.match(
    text,
    /Tokens avoided: 970 \(bodies never sent 900, not sent again 0, script sources 70\)/,
  );
  assert.match(text, /Cache hits: 1 · cuts applied: 2 · scripts run: 1/);
  assert.match(
    text,
    /\nskill +L2 tokens +L3 tokens +uses +resources +scripts +hits +cuts\nbrand-kit +50 +30 +1 +0 +1 +1 +0\n$/,
  );
});
