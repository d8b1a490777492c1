// The report's charts: Apache ECharts (SVG renderer) with ARIA descriptions,
// redrawn for the chosen model and when the colour scheme changes.
"use strict";
// deno-lint-ignore no-unused-vars
const minocCharts = (function () {
  const el = minocTranscript.el;
  const nf = new Intl.NumberFormat(undefined);
  const compact = new Intl.NumberFormat(undefined, {
    notation: "compact",
    maximumFractionDigits: 1,
  });
  const dark = globalThis.matchMedia("(prefers-color-scheme: dark)");
  const OUTCOMES = ["ok", "error", "denied", "blocked", "simulated", "undone", "invalid"];
  const COLORS = {
    ok: "#43a047",
    error: "#e53935",
    denied: "#fb8c00",
    blocked: "#8e24aa",
    simulated: "#1e88e5",
    undone: "#78909c",
    invalid: "#a1887f",
  };
  let charts = [];
  let data = null;
  let models = function () {
    return [];
  };

  /** A number for people: 1,234 or 12.3K; text as it is; "–" for none. */
  function fmt(n) {
    if (n === null || n === undefined) return "–";
    if (typeof n !== "number") return String(n);
    return Math.abs(n) >= 10000 ? compact.format(n) : nf.format(n);
  }
  function sum(o) {
    return Object.keys(o).reduce(function (a, k) {
      return a + o[k];
    }, 0);
  }

  function chart(id, summary, option) {
    const dom = document.getElementById(id);
    dom.setAttribute("aria-label", summary);
    if (!option) {
      dom.replaceChildren(el("p", "empty", "Nothing recorded for this chart yet"));
      return;
    }
    dom.replaceChildren();
    const c = echarts.init(dom, dark.matches ? "dark" : null, { renderer: "svg" });
    option.backgroundColor = "transparent";
    option.aria = { enabled: true, label: { description: summary } };
    option.tooltip = option.tooltip ||
      { trigger: "axis", axisPointer: { type: "shadow" }, valueFormatter: fmt };
    option.grid = option.grid || { left: 8, right: 16, top: 36, bottom: 8, containLabel: true };
    option.legend = option.legend || { type: "scroll", top: 0 };
    option.animation = false;
    c.setOption(option);
    charts.push(c);
  }

  function axisValue() {
    return { type: "value", axisLabel: { formatter: fmt } };
  }

  function stackedRows(names, keys, valueOf, colors) {
    return keys.filter(function (k) {
      return names.some(function (n) {
        return valueOf(n, k) > 0;
      });
    })
      .map(function (k) {
        return {
          name: k,
          type: "bar",
          stack: "all",
          color: colors ? colors[k] : undefined,
          data: names.map(function (n) {
            return valueOf(n, k);
          }),
        };
      });
  }

  function horizontal(labels, series) {
    if (series.length === 0) return null;
    return {
      yAxis: { type: "category", data: labels, inverse: true },
      xAxis: axisValue(),
      series: series,
    };
  }

  function keysOf(rows, field) {
    const seen = {};
    rows.forEach(function (r) {
      Object.keys(r[field]).forEach(function (k) {
        seen[k] = true;
      });
    });
    return Object.keys(seen).sort();
  }

  function drawCalls() {
    const tools = Object.keys(data.callsPerDay);
    const option = tools.length === 0 ? null : {
      xAxis: { type: "category", data: data.days },
      yAxis: axisValue(),
      dataZoom: data.days.length > 45
        ? [{ type: "inside" }, { type: "slider", height: 18, bottom: 0 }]
        : undefined,
      grid: {
        left: 8,
        right: 16,
        top: 36,
        bottom: data.days.length > 45 ? 30 : 8,
        containLabel: true,
      },
      series: tools.map(function (t) {
        return { name: t, type: "bar", stack: "calls", data: data.callsPerDay[t] };
      }),
    };
    chart(
      "c-calls",
      "Tool calls per day, stacked by tool, over " + data.days.length + " days",
      option,
    );
  }

  function drawOutcomes() {
    const tools = data.tools.slice(0, 15);
    chart(
      "c-tools",
      "Outcomes of tool calls for the " + tools.length + " most used tools",
      horizontal(
        tools.map(function (t) {
          return t.tool;
        }),
        stackedRows(tools, OUTCOMES, function (t, k) {
          return t.outcomes[k];
        }, COLORS),
      ),
    );
    const ms = models();
    chart(
      "c-models",
      "Outcomes of tool calls per model",
      horizontal(
        ms.map(function (m) {
          return m.model;
        }),
        stackedRows(ms, OUTCOMES, function (m, k) {
          return m.outcomes[k];
        }, COLORS),
      ),
    );
    const gates = {};
    data.tools.forEach(function (t) {
      Object.keys(t.deniedBy).forEach(function (g) {
        gates[g] = (gates[g] || 0) + t.deniedBy[g];
      });
    });
    const names = Object.keys(gates).sort(function (a, b) {
      return gates[b] - gates[a];
    });
    chart(
      "c-gates",
      "Calls denied, by the gate that denied them",
      names.length === 0 ? null : {
        yAxis: { type: "category", data: names, inverse: true },
        xAxis: axisValue(),
        legend: { show: false },
        series: [{
          name: "denied",
          type: "bar",
          color: COLORS.denied,
          data: names.map(function (g) {
            return gates[g];
          }),
        }],
      },
    );
  }

  function drawModels() {
    drawErrors();
    drawTurns();
    drawTokens();
    drawTimes();
  }

  function drawErrors() {
    const ms = models(),
      labels = ms.map(function (m) {
        return m.model;
      });
    chart(
      "c-parse",
      "Parse errors per model, stacked by kind",
      horizontal(
        labels,
        stackedRows(ms, keysOf(ms, "parseErrors"), function (m, k) {
          return m.parseErrors[k] || 0;
        }),
      ),
    );
    chart(
      "c-dialects",
      "Replies per model, stacked by the tool-call dialect they were parsed from",
      horizontal(
        labels,
        stackedRows(ms, keysOf(ms, "dialects"), function (m, k) {
          return m.dialects[k] || 0;
        }),
      ),
    );
  }

  function drawTurns() {
    const ms = models();
    const buckets = ["1", "2", "3", "4–5", "6–10", "11–20", "21+"];
    const tasks = ms.filter(function (m) {
      return sum(m.turnsPerTask) > 0;
    });
    chart(
      "c-turns",
      "How many turns tasks took, per model",
      tasks.length === 0 ? null : {
        xAxis: { type: "category", data: buckets, name: "turns" },
        yAxis: axisValue(),
        series: tasks.map(function (m) {
          return { name: m.model, type: "bar", data: m.turnsPerTask };
        }),
      },
    );
  }

  function drawTokens() {
    const ms = models(),
      labels = ms.map(function (m) {
        return m.model;
      });
    chart(
      "c-tokens",
      "Prompt and completion tokens per model",
      horizontal(
        labels,
        ms.some(function (m) {
            return m.tokensIn + m.tokensOut > 0;
          })
          ? [
            {
              name: "in (prompt)",
              type: "bar",
              data: ms.map(function (m) {
                return m.tokensIn;
              }),
            },
            {
              name: "out (completion)",
              type: "bar",
              data: ms.map(function (m) {
                return m.tokensOut;
              }),
            },
          ]
          : [],
      ),
    );
  }

  function drawTimes() {
    const ms = models();
    const timed = ms.filter(function (m) {
      return m.ttftP50 !== null;
    });
    chart(
      "c-ttft",
      "Time to first token per model (median and 95th percentile) and median output tokens per second",
      timed.length === 0 ? null : {
        xAxis: {
          type: "category",
          data: timed.map(function (m) {
            return m.model;
          }),
        },
        yAxis: [
          { type: "value", name: "ms", axisLabel: { formatter: fmt } },
          {
            type: "value",
            name: "tokens/s",
            axisLabel: { formatter: fmt },
            splitLine: { show: false },
          },
        ],
        series: [
          {
            name: "median",
            type: "bar",
            data: timed.map(function (m) {
              return m.ttftP50;
            }),
          },
          {
            name: "95th percentile",
            type: "bar",
            data: timed.map(function (m) {
              return m.ttftP95;
            }),
          },
          {
            name: "tokens/s",
            type: "line",
            yAxisIndex: 1,
            data: timed.map(function (m) {
              return m.tokensPerSecond;
            }),
          },
        ],
      },
    );
  }

  function drawCharts() {
    charts.forEach(function (c) {
      c.dispose();
    });
    charts = [];
    drawCalls();
    drawOutcomes();
    drawModels();
  }

  /** Draws every chart of `reportData` for the models `pick()` returns. */
  function draw(reportData, pick) {
    data = reportData;
    models = pick;
    drawCharts();
  }

  dark.addEventListener("change", function () {
    if (data) drawCharts();
  });
  globalThis.addEventListener("resize", function () {
    charts.forEach(function (c) {
      c.resize();
    });
  });

  return { draw: draw, fmt: fmt, sum: sum };
})();
