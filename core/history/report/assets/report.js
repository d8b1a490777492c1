// The report page: totals, charts (Apache ECharts, SVG renderer, with ARIA
// descriptions), tables, filters and the transcript dialog. Reads its data
// from the JSON block; every recorded text goes in through textContent.
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("report-data").textContent);
  const T = minocTranscript;
  const el = T.el;
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
  const PAGE = 50;
  const state = { model: "", outcome: "", text: "", page: 0 };
  let charts = [];

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
  function models() {
    return data.models.filter(function (m) {
      return !state.model || m.model === state.model;
    });
  }

  function cards() {
    const t = data.totals;
    const items = [
      ["Sessions", t.sessions],
      ["Messages", t.messages],
      ["Tool calls", t.calls],
      ["Tokens in", t.tokensIn],
      ["Tokens out", t.tokensOut],
      ["Models", data.models.length],
    ];
    if (t.unreadable) items.push(["Unreadable files", t.unreadable]);
    const box = document.getElementById("cards");
    box.replaceChildren();
    items.forEach(function (i) {
      const c = el("div", "card");
      c.appendChild(el("div", "v", fmt(i[1])));
      c.appendChild(el("div", "k", i[0]));
      c.title = i[0] + ": " + nf.format(i[1]);
      box.appendChild(c);
    });
    const f = data.filters, parts = ["Generated " + new Date(data.generatedAt).toLocaleString()];
    if (f.since) parts.push("since " + new Date(f.since).toLocaleDateString());
    if (f.project) parts.push("project " + f.project);
    if (f.model) parts.push("model " + f.model);
    if (f.redactPaths) parts.push("home directories hidden");
    document.getElementById("subtitle").textContent = parts.join(" · ");
  }

  // One chart; an empty one says so in words instead.
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

  function table(id, columns, rows, onRow) {
    const t = el("table"), thead = el("thead"), tr = el("tr"), tbody = el("tbody");
    columns.forEach(function (c) {
      const th = el("th", c.n ? "n" : null, c.label);
      th.scope = "col";
      tr.appendChild(th);
    });
    thead.appendChild(tr);
    t.appendChild(thead);
    rows.forEach(function (r) {
      const row = el("tr", onRow ? "row" : null);
      columns.forEach(function (c) {
        const v = c.get(r), td = el("td", c.n ? "n" : c.code ? "code" : null);
        if (v instanceof Node) td.appendChild(v);
        else td.textContent = c.n ? fmt(v) : v;
        if (c.n && typeof v === "number") td.title = nf.format(v);
        row.appendChild(td);
      });
      if (onRow) {
        row.tabIndex = 0;
        row.addEventListener("click", function () {
          onRow(r);
        });
        row.addEventListener("keydown", function (e) {
          if (e.key === "Enter" || e.key === " ") {
            e.preventDefault();
            onRow(r);
          }
        });
      }
      tbody.appendChild(row);
    });
    if (rows.length === 0) {
      const empty = el("tr"), td = el("td", "muted", "Nothing to show");
      td.colSpan = columns.length;
      empty.appendChild(td);
      tbody.appendChild(empty);
    }
    t.appendChild(tbody);
    document.getElementById(id).replaceChildren(t);
  }

  function col(label, get, n, code) {
    return { label: label, get: get, n: n, code: code };
  }
  function ok(m) {
    const s = sum(m.outcomes);
    return s ? Math.round((m.outcomes.ok / s) * 1000) / 10 + " %" : "–";
  }
  function ms1(n) {
    return n === null ? "–" : T.ms(n);
  }

  function drawTables() {
    table("t-models", [
      col("Model", function (m) {
        return m.model;
      }),
      col("Sessions", function (m) {
        return m.sessions;
      }, true),
      col("Tasks", function (m) {
        return m.tasks;
      }, true),
      col("Turns per task", function (m) {
        return m.tasks ? Math.round((m.turns / m.tasks) * 10) / 10 : null;
      }, true),
      col("Tokens in", function (m) {
        return m.tokensIn;
      }, true),
      col("Tokens out", function (m) {
        return m.tokensOut;
      }, true),
      col("Calls ok", ok, true),
      col("Parse errors", function (m) {
        return sum(m.parseErrors);
      }, true),
      col("First token (median)", function (m) {
        return ms1(m.ttftP50);
      }, true),
      col("Tokens/s", function (m) {
        return m.tokensPerSecond;
      }, true),
      col("Retries (provider)", function (m) {
        return m.retries;
      }, true),
      col("Retries (/retry)", function (m) {
        return m.userRetries;
      }, true),
      col("Provider errors", function (m) {
        return m.providerErrors;
      }, true),
    ], models());
    table("t-commands", [
      col(
        "Command",
        function (c) {
          return c.command;
        },
        false,
        true,
      ),
      col("Failed", function (c) {
        return c.error;
      }, true),
      col("Denied", function (c) {
        return c.denied;
      }, true),
      col("Blocked", function (c) {
        return c.blocked;
      }, true),
    ], data.commands);
    table("t-files", [
      col(
        "File",
        function (f) {
          return f.path;
        },
        false,
        true,
      ),
      col("Sessions", function (f) {
        return f.sessions;
      }, true),
    ], data.files);
  }

  function filtered() {
    const text = state.text.toLowerCase();
    return data.sessions.filter(function (s) {
      return (!state.model || s.model === state.model) &&
        (!state.outcome || s.outcome === state.outcome) &&
        (!text || (s.id + " " + s.project + " " + s.request).toLowerCase().indexOf(text) >= 0);
    });
  }

  function drawSessions() {
    const rows = filtered(), pages = Math.max(1, Math.ceil(rows.length / PAGE));
    state.page = Math.min(state.page, pages - 1);
    const shown = rows.slice(state.page * PAGE, state.page * PAGE + PAGE);
    table(
      "t-sessions",
      [
        col("Date", function (s) {
          return new Date(s.timestamp).toLocaleString();
        }),
        col("Project", function (s) {
          return s.project;
        }),
        col("Model", function (s) {
          return s.model;
        }),
        col("Request", function (s) {
          return s.request;
        }),
        col("Turns", function (s) {
          return s.turns;
        }, true),
        col("Calls", function (s) {
          return s.calls;
        }, true),
        col("Failed", function (s) {
          return s.failedCalls;
        }, true),
        col("Tokens", function (s) {
          return s.tokensIn + s.tokensOut;
        }, true),
        col("Outcome", function (s) {
          return T.badge(s.outcome);
        }),
      ],
      shown,
      openSession,
    );
    const more = data.sessionsNotListed
      ? " (" + nf.format(data.sessionsNotListed) + " older not listed)"
      : "";
    document.getElementById("f-count").textContent = nf.format(rows.length) + " of " +
      nf.format(data.sessions.length) + " sessions" + more;
    document.getElementById("page").textContent = "Page " + (state.page + 1) + " of " + pages;
    document.getElementById("prev").disabled = state.page === 0;
    document.getElementById("next").disabled = state.page >= pages - 1;
  }

  function openSession(s) {
    if (s.transcript === "file" && s.href) {
      globalThis.location.href = s.href;
      return;
    }
    const box = document.getElementById("transcript");
    document.getElementById("transcript-title").textContent = "Session " + s.id;
    const t = data.transcripts[s.id];
    if (t) T.render(box, t);
    else {box.replaceChildren(
        el("p", "muted", "This older session is summarised only; run: minoc history show " + s.id),
      );}
    const dialog = document.getElementById("transcript-dialog");
    if (!dialog.open) dialog.showModal();
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

  function fillSelect(id, values) {
    const s = document.getElementById(id);
    values.forEach(function (v) {
      const o = el("option", null, v);
      o.value = v;
      s.appendChild(o);
    });
  }

  function wire() {
    fillSelect(
      "f-model",
      data.models.map(function (m) {
        return m.model;
      }),
    );
    const outcomes = {};
    data.sessions.forEach(function (s) {
      outcomes[s.outcome] = true;
    });
    fillSelect("f-outcome", Object.keys(outcomes).sort());
    document.getElementById("f-model").addEventListener("change", function (e) {
      state.model = e.target.value;
      state.page = 0;
      drawCharts();
      drawTables();
      drawSessions();
    });
    document.getElementById("f-outcome").addEventListener("change", function (e) {
      state.outcome = e.target.value;
      state.page = 0;
      drawSessions();
    });
    document.getElementById("f-text").addEventListener("input", function (e) {
      state.text = e.target.value;
      state.page = 0;
      drawSessions();
    });
    document.getElementById("prev").addEventListener("click", function () {
      state.page--;
      drawSessions();
    });
    document.getElementById("next").addEventListener("click", function () {
      state.page++;
      drawSessions();
    });
    document.getElementById("close").addEventListener("click", function () {
      document.getElementById("transcript-dialog").close();
    });
    dark.addEventListener("change", drawCharts);
    globalThis.addEventListener("resize", function () {
      charts.forEach(function (c) {
        c.resize();
      });
    });
  }

  cards();
  wire();
  drawCharts();
  drawTables();
  drawSessions();
  document.body.dataset.ready = "true";
})();
