// The report page: totals, tables, filters, paging and the transcript dialog
// (the charts are in charts.js). Reads its data from the JSON block; every
// recorded text goes in through textContent.
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("report-data").textContent);
  const T = minocTranscript;
  const el = T.el;
  const nf = new Intl.NumberFormat(undefined);
  const PAGE = 50;
  const state = { model: "", outcome: "", text: "", page: 0 };
  const C = minocCharts;
  const fmt = C.fmt;
  const sum = C.sum;

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
    C.draw(data, models);
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
  }

  cards();
  wire();
  drawCharts();
  drawTables();
  drawSessions();
  document.body.dataset.ready = "true";
})();
