import assert from "node:assert/strict";
import { join } from "node:path";
import { LogHistogram, TopCounter } from "../../../../core/history/report/counters.ts";
import { jsonBlock, renderTranscriptPage } from "../../../../core/history/report/html.ts";
import { scrubber } from "../../../../core/history/report/privacy.ts";
import { streamSession } from "../../../../core/history/report/read.ts";
import type { SessionMessage } from "../../../../interfaces/history.ts";

Deno.test("LogHistogram.quantile() is within 5 % of the exact percentile for 100,000 samples", () => {
  const h = new LogHistogram();
  const values: number[] = [];
  for (let i = 1; i <= 100_000; i++) {
    const v = (i * 7919) % 100_003 / 10; // spread over 0..10,000
    values.push(v);
    h.add(v);
  }
  values.sort((a, b) => a - b);
  for (const q of [0.5, 0.95, 0.99]) {
    const exact = values[Math.ceil(q * values.length) - 1];
    const got = h.quantile(q)!;
    assert.ok(Math.abs(got - exact) / exact < 0.05, `q${q}: ${got} vs ${exact}`);
  }
  assert.equal(new LogHistogram().quantile(0.5), null);
  h.add(Number.NaN);
  h.add(-1);
  assert.equal(h.count, 100_000, "bad samples are ignored");
});

Deno.test("TopCounter.top() keeps the frequent keys when rare ones overflow its limit", () => {
  const c = new TopCounter(100, () => ({ n: 0 }));
  for (let round = 0; round < 50; round++) c.add("frequent", "n");
  for (let i = 0; i < 10_000; i++) c.add(`rare ${i}`, "n");
  const top = c.top(3);
  assert.equal(top[0].key, "frequent");
  assert.equal(top[0].row.n, 50);
  assert.equal(top.length, 3);
});

Deno.test("scrubber() removes keys, bearer tokens and secret header values, and homes with redactPaths", () => {
  const text = [
    "curl -H 'Authorization: Bearer abc.def' -H 'X-Auth-Token: t0k3n' https://x",
    'OPENAI_API_KEY=sk-live-123456 password="hunter2" cat /home/bob/.npmrc',
    "C:\\Users\\carol\\repo and /Users/dave/src and /srv/data",
  ].join("\n");
  const kept = scrubber({ redactPaths: false })(text);
  for (const secret of ["abc.def", "t0k3n", "sk-live-123456", "hunter2"]) {
    assert.ok(!kept.includes(secret), `${secret} left in: ${kept}`);
  }
  assert.ok(kept.includes("/home/bob/.npmrc"));
  const hidden = scrubber({ redactPaths: true, homes: ["/srv/data"] })(text);
  assert.ok(hidden.includes("~/.npmrc") && hidden.includes("~\\repo") && hidden.includes("~/src"));
  assert.ok(!/bob|carol|dave|\/srv\/data/.test(hidden), hidden);
});

Deno.test("scrubber() removes secret field values written as JSON inside JSON", () => {
  const text = JSON.stringify({ content: JSON.stringify({ "x-session-token": "t0k3n", pwd: 1 }) });
  const kept = scrubber({ redactPaths: false })(text);
  assert.ok(!kept.includes("t0k3n"), kept);
  assert.equal(JSON.parse(JSON.parse(kept).content)["x-session-token"], "[REDACTED]");
});

Deno.test("jsonBlock() and renderTranscriptPage() keep recorded text from closing the script element", () => {
  const evil = "</script><img src=x onerror=alert(1)><!--";
  const block = jsonBlock("d", { evil });
  assert.equal(block.match(/<\/script>/g)?.length, 1, "only the block's own end tag");
  assert.ok(!block.includes("<img"));
  assert.deepEqual(JSON.parse(block.slice(block.indexOf(">") + 1, -"</script>".length)), { evil });
  const page = renderTranscriptPage({
    id: "s1",
    model: evil,
    project: "p",
    timestamp: "2026-10-01T00:00:00.000Z",
    items: [{ k: "user", t: "2026-10-01T00:00:00.000Z", text: evil }],
  }, 'r"<x>.html');
  assert.ok(!page.includes("<img"));
  assert.ok(page.includes('href="../r%22%3Cx%3E.html"'));
});

Deno.test("streamSession() reads a single-line JSON session (the older layout) message by message", async () => {
  const dir = await Deno.makeTempDir({ prefix: "minoc_report_read_" });
  try {
    const path = join(dir, "session_x.json");
    const messages = [
      { role: "user", content: "hi", timestamp: "2026-10-01T00:00:00.000Z" },
      { role: "assistant", content: "hello", timestamp: "2026-10-01T00:00:01.000Z" },
    ];
    await Deno.writeTextFile(
      path,
      JSON.stringify({
        sessionId: "x",
        timestamp: "2026-10-01T00:00:00.000Z",
        model: "m",
        systemPrompt: "",
        projectPath: "/p",
        mode: "agent",
        messages,
        metadata: { turns: 1 },
      }),
    );
    const seen: SessionMessage[] = [];
    let model = "";
    let turns = 0;
    await streamSession(path, {
      header: (h) => {
        model = h.model;
      },
      message: (m) => seen.push(m),
      metadata: (m) => (turns = m.turns ?? 0),
    });
    assert.equal(model, "m");
    assert.deepEqual(seen, messages);
    assert.equal(turns, 1);
    await Deno.writeTextFile(path, "not json");
    await assert.rejects(
      streamSession(path, { header: () => {}, message: () => {} }),
      /Cannot read session ".*session_x\.json": not valid JSON/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
