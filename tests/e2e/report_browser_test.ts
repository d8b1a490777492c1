/**
 * `minoc history report` run as a real subprocess on a generated history,
 * the page opened in headless Chromium: no console errors, every chart
 * drawn, filters, paging, the transcript dialog and a transcript page work,
 * in light and dark mode. Screenshots go to the test's temp dir (kept when
 * MINOC_KEEP_SCREENSHOTS names a folder to copy them to).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Page } from "playwright-core";
import { runMinoc } from "../support/cli.ts";
import { openBrowser } from "../support/browser.ts";
import { generateHistory, LEAKED_KEY } from "../support/history_gen.ts";

const CHARTS = [
  "c-calls",
  "c-tools",
  "c-models",
  "c-gates",
  "c-parse",
  "c-dialects",
  "c-turns",
  "c-tokens",
  "c-ttft",
];

async function reportOf(dir: string, sessions: number): Promise<string> {
  const home = join(dir, ".home");
  const history = join(home, ".minoc", "history");
  await generateHistory({
    sessionsDir: join(history, "sessions"),
    backupsDir: join(history, "backups"),
    sessions,
    messages: 40,
    home: "/home/ana",
  });
  const out = join(dir, "out", "report.html");
  await Deno.mkdir(join(dir, "out"));
  const run = await runMinoc(
    ["history", "report", "-o", out, "--redact-paths", "--transcripts", "5"],
    { cwd: dir, home },
  );
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, new RegExp(`Wrote a report of ${sessions} sessions to `));
  return out;
}

async function marks(page: Page, id: string): Promise<number> {
  return await page.locator(`#${id} svg`).evaluateAll((svgs) =>
    svgs.reduce((n, svg) => n + svg.querySelectorAll("path, rect").length, 0)
  );
}

async function shot(page: Page, dir: string, name: string, fullPage = true): Promise<void> {
  const path = join(dir, `${name}.png`);
  await page.screenshot({ path, fullPage });
  console.log(`screenshot: ${path}`);
  const keep = Deno.env.get("MINOC_KEEP_SCREENSHOTS");
  if (keep) await Deno.copyFile(path, join(keep, `${name}.png`));
}

Deno.test("history report page loads with no errors and draws every chart when opened in Chromium", async () => {
  const dir = await Deno.makeTempDir({ prefix: "minoc_report_browser_" });
  try {
    const file = await reportOf(dir, 60);
    const html = await Deno.readTextFile(file);
    assert.ok(!html.includes(LEAKED_KEY), "an API key reached the report");
    assert.ok(!html.includes("/home/ana"), "a home directory reached the report");
    assert.ok(!/<(script|link|img)[^>]+(src|href)=["']?https?:/i.test(html), "fetches something");
    await using browser = await openBrowser();
    for (const scheme of ["light", "dark"] as const) {
      const page = await browser.page({ colorScheme: scheme });
      await page.goto(pathToFileURL(file).href);
      await page.waitForSelector("body[data-ready=true]", { timeout: 60_000 });
      for (const id of CHARTS) {
        assert.ok(await marks(page, id) >= 3, `chart ${id} drew no marks (${scheme})`);
        const label = await page.locator(`#${id}`).getAttribute("aria-label");
        assert.ok(label && label.length > 10, `chart ${id} has no label`);
      }
      const text = await page.locator("main").innerText();
      assert.ok(!/\bNaN\b|\bundefined\b|\[object /.test(text), "a number or value shows badly");
      const bg = String(await page.evaluate("getComputedStyle(document.body).backgroundColor"));
      const [r] = bg.match(/\d+/g)!.map(Number);
      assert.ok(scheme === "dark" ? r < 60 : r > 200, `${scheme} background is ${bg}`);
      await shot(page, dir, `report-${scheme}`);
    }
    assert.deepEqual(browser.errors, []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("history report filters, pages and opens transcripts when clicked in Chromium", async () => {
  const dir = await Deno.makeTempDir({ prefix: "minoc_report_browser_" });
  try {
    const file = await reportOf(dir, 60);
    await using browser = await openBrowser();
    const page = await browser.page();
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector("body[data-ready=true]", { timeout: 60_000 });
    const count = page.locator("#f-count");
    assert.match(await count.innerText(), /^60 of 60 sessions/);
    await page.selectOption("#f-model", "gpt-oss-20b");
    assert.match(await count.innerText(), /^20 of 60 sessions/);
    const models = await page.locator("#t-sessions tbody tr td:nth-child(3)").allInnerTexts();
    assert.deepEqual([...new Set(models)], ["gpt-oss-20b"]);
    assert.equal(await page.locator("#t-models tbody tr").count(), 1);
    assert.ok(await marks(page, "c-models") >= 3);
    await page.selectOption("#f-model", "");
    const firstId = String(
      await page.evaluate(
        'JSON.parse(document.getElementById("report-data").textContent).sessions[0].id',
      ),
    );
    await page.fill("#f-text", firstId);
    assert.match(await count.innerText(), /^1 of 60 sessions/);
    await page.locator("#t-sessions tbody tr.row").first().click();
    const dialog = page.locator("#transcript-dialog");
    await dialog.waitFor({ state: "visible" });
    assert.equal(await page.locator("#transcript-title").innerText(), `Session ${firstId}`);
    for (const what of ["User", "Call ", "Result of "]) {
      assert.ok(await dialog.locator(`.head b:text-matches("^${what}")`).count() > 0, what);
    }
    const verdicts = await dialog.locator(".verdicts li").count();
    assert.ok(verdicts > 0, "no gate verdicts shown");
    const reasoning = dialog.locator("details:has(summary:text-is('Reasoning'))").first();
    assert.equal(await reasoning.getAttribute("open"), null, "reasoning is folded");
    await reasoning.locator("summary").click();
    assert.equal(await reasoning.getAttribute("open"), "");
    await shot(page, dir, "report-transcript", false);
    await page.click("#close");
    await dialog.waitFor({ state: "hidden" });
    await page.fill("#f-text", "");
    await page.click("#next");
    assert.match(await page.locator("#page").innerText(), /^Page 2 of 2/);
    // Rows 51–55 have transcript pages beside the report; the next are summarised.
    await page.locator("#t-sessions tbody tr.row").nth(0).click();
    await page.waitForSelector("#transcript .msg", { timeout: 30_000 });
    assert.match(page.url(), /report\.sessions\/.+\.html$/);
    assert.ok(await page.locator("#back").count() === 1);
    await page.goBack();
    await page.waitForSelector("body[data-ready=true]");
    await page.click("#next");
    await page.locator("#t-sessions tbody tr.row").nth(7).click();
    await dialog.waitFor({ state: "visible" });
    assert.match(await dialog.innerText(), /minoc history show/);
    assert.deepEqual(browser.errors, []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
