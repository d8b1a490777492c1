/**
 * The report as one self-contained HTML file: the page's own CSS and script
 * (text assets beside this file), the charting library (Apache ECharts,
 * "common" build, read from its npm package as text so the bundle carries
 * it), and the data as a JSON block. Nothing is fetched when it opens.
 *
 * @example
 * ```ts
 * await Deno.writeTextFile("report.html", renderReport(data));
 * ```
 * @module
 */
import echarts from "echarts/dist/echarts.common.min.js" with { type: "text" };
import chartsJs from "./assets/charts.js" with { type: "text" };
import css from "./assets/report.css" with { type: "text" };
import pageJs from "./assets/report.js" with { type: "text" };
import transcriptJs from "./assets/transcript.js" with { type: "text" };
import type { ReportData, Transcript } from "./data.ts";

/** The whole report page. */
export function renderReport(data: ReportData): string {
  return page({
    title: "minoc history report",
    body: REPORT_BODY,
    json: jsonBlock("report-data", data),
    scripts: [echarts, transcriptJs, chartsJs, pageJs],
  });
}

/**
 * A page with one session's transcript, written in a folder beside the
 * report whose file name is `reportName`.
 */
export function renderTranscriptPage(t: Transcript, reportName: string): string {
  const back = escapeHtml(encodeURIComponent(reportName));
  return page({
    title: `minoc session ${t.id}`,
    body: `<main id="main"><p><a href="../${back}" id="back">← report</a></p>
<section id="transcript" aria-live="polite"></section></main>`,
    json: jsonBlock("transcript-data", t),
    scripts: [transcriptJs, "minocTranscript.standalone();"],
  });
}

/** JSON that is safe inside a `<script>` element (no `<`, no line separators). */
export function jsonBlock(id: string, value: unknown): string {
  const json = JSON.stringify(value).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
  return `<script type="application/json" id="${id}">${json}</script>`;
}

function page(p: { title: string; body: string; json: string; scripts: string[] }): string {
  const scripts = p.scripts.map((s) => `<script>${safeScript(s)}</script>`).join("\n");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<title>${escapeHtml(p.title)}</title>
<style>${css}</style>
</head>
<body>
${p.body}
${p.json}
${scripts}
</body>
</html>
`;
}

/** Script text that cannot end its element early. */
function safeScript(s: string): string {
  return s.replace(/<\/(script)/gi, "<\\/$1").replace(/<!--/g, "<\\!--");
}

/** Escapes text for HTML. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

const REPORT_BODY = `<header class="top">
  <h1>minoc history report</h1>
  <p id="subtitle" class="muted"></p>
</header>
<nav class="filters" aria-label="Filters">
  <label>Model <select id="f-model"><option value="">all models</option></select></label>
  <label>Outcome <select id="f-outcome"><option value="">any outcome</option></select></label>
  <label>Search <input id="f-text" type="search" placeholder="id, project, request"></label>
  <span id="f-count" class="muted" aria-live="polite"></span>
</nav>
<main id="main">
  <section class="cards" id="cards" aria-label="Totals"></section>
  <section class="grid">
    <figure class="chart wide"><figcaption>Calls per tool over time</figcaption><div id="c-calls" class="plot" role="img"></div></figure>
    <figure class="chart"><figcaption>Outcomes per tool</figcaption><div id="c-tools" class="plot" role="img"></div></figure>
    <figure class="chart"><figcaption>Outcomes per model</figcaption><div id="c-models" class="plot" role="img"></div></figure>
    <figure class="chart"><figcaption>Denied and blocked calls by gate</figcaption><div id="c-gates" class="plot" role="img"></div></figure>
    <figure class="chart"><figcaption>Parse errors per model, by kind</figcaption><div id="c-parse" class="plot" role="img"></div></figure>
    <figure class="chart"><figcaption>Replies per model, by tool-call dialect</figcaption><div id="c-dialects" class="plot" role="img"></div></figure>
    <figure class="chart"><figcaption>Turns per task, per model</figcaption><div id="c-turns" class="plot" role="img"></div></figure>
    <figure class="chart"><figcaption>Tokens in and out per model</figcaption><div id="c-tokens" class="plot" role="img"></div></figure>
    <figure class="chart"><figcaption>Time to first token per model</figcaption><div id="c-ttft" class="plot" role="img"></div></figure>
  </section>
  <section><h2>Models</h2><div id="t-models" class="table-wrap"></div></section>
  <section class="two">
    <div><h2>Commands that failed or were stopped most often</h2><div id="t-commands" class="table-wrap"></div></div>
    <div><h2>Files changed most often</h2><div id="t-files" class="table-wrap"></div></div>
  </section>
  <section><h2>Sessions</h2><div id="t-sessions" class="table-wrap"></div>
    <div class="pager"><button id="prev" type="button">Newer</button><span id="page" class="muted"></span><button id="next" type="button">Older</button></div>
  </section>
</main>
<dialog id="transcript-dialog" aria-labelledby="transcript-title">
  <div class="dialog-head"><h2 id="transcript-title">Transcript</h2><button id="close" type="button" aria-label="Close transcript">✕</button></div>
  <section id="transcript"></section>
</dialog>`;
