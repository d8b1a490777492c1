// Renders one session's transcript (user requests, replies with reasoning
// folded, calls with their verdicts, results with diffs or output, timings).
// Every text goes in through textContent: recorded data is never parsed as HTML.
"use strict";
// deno-lint-ignore no-unused-vars
const minocTranscript = (function () {
  const num = new Intl.NumberFormat(undefined);

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function ms(n) {
    if (n === undefined || n === null) return "";
    return n < 1000
      ? num.format(Math.round(n)) + " ms"
      : num.format(Math.round(n / 100) / 10) + " s";
  }

  function time(iso) {
    const d = new Date(iso);
    return isNaN(d.getTime()) ? iso : d.toLocaleTimeString();
  }

  function head(item, label, extra) {
    const h = el("div", "head");
    h.appendChild(el("b", null, label));
    h.appendChild(el("span", null, time(item.t)));
    (extra || []).forEach(function (x) {
      if (x) h.appendChild(x);
    });
    return h;
  }

  function badge(text) {
    return el("span", "badge " + String(text).replace(/\s+/g, "-"), text);
  }

  function isDiff(text) {
    return /^(---|\+\+\+|@@) /m.test(text) && /^[+-]/m.test(text);
  }

  function pre(text) {
    if (!isDiff(text)) return el("pre", null, text);
    const p = el("pre", "diff");
    text.split("\n").forEach(function (line, i) {
      if (i > 0) p.appendChild(document.createTextNode("\n"));
      const cls = /^\+(?!\+\+ )/.test(line) ? "add" : /^-(?!-- )/.test(line) ? "del" : null;
      p.appendChild(cls ? el("span", cls, line) : document.createTextNode(line));
    });
    return p;
  }

  function folded(summary, text, open) {
    const d = el("details");
    if (open) d.open = true;
    d.appendChild(el("summary", null, summary));
    d.appendChild(pre(text));
    return d;
  }

  function assistant(item) {
    const facts = [];
    if (item.tokensOut !== undefined) facts.push(num.format(item.tokensOut) + " tokens out");
    if (item.tokensIn !== undefined) facts.push(num.format(item.tokensIn) + " in");
    if (item.ttftMs !== undefined) facts.push("first token " + ms(item.ttftMs));
    if (item.ms !== undefined) facts.push(ms(item.ms));
    if (item.retries) facts.push(item.retries + (item.retries === 1 ? " retry" : " retries"));
    const box = el("article", "msg assistant");
    box.appendChild(head(item, "Assistant", [
      item.dialect ? badge(item.dialect) : null,
      facts.length ? el("span", null, facts.join(" · ")) : null,
    ]));
    if (item.reasoning) box.appendChild(folded("Reasoning", item.reasoning, false));
    box.appendChild(pre(item.text));
    return box;
  }

  function call(item) {
    const box = el("article", "msg call");
    box.appendChild(head(item, "Call " + item.tool, [badge(item.outcome)]));
    const dl = el("dl", "params");
    Object.keys(item.params).forEach(function (k) {
      dl.appendChild(el("dt", null, k));
      const dd = el("dd");
      const v = item.params[k];
      dd.appendChild(
        v.split("\n").length > 12 ? folded(v.split("\n").length + " lines", v, false) : pre(v),
      );
      dl.appendChild(dd);
    });
    box.appendChild(dl);
    const ul = el("ul", "verdicts");
    if (item.verdicts.length === 0) {
      ul.appendChild(el("li", null, "no gate saw it: the arguments were invalid"));
    }
    item.verdicts.forEach(function (v) {
      const li = el("li");
      li.appendChild(el("span", null, v.gate + ": "));
      li.appendChild(badge(v.action));
      const more = (v.rule ? " (" + v.rule + ")" : "") + (v.reason ? " " + v.reason : "");
      if (more) li.appendChild(el("span", null, more));
      ul.appendChild(li);
    });
    if (item.allowedBy) ul.appendChild(el("li", null, "allowed by " + item.allowedBy));
    box.appendChild(ul);
    return box;
  }

  function result(item) {
    const box = el("article", "msg result " + (item.ok ? "ok" : "failed"));
    box.appendChild(head(item, "Result of " + item.tool, [
      badge(item.ok ? "ok" : "error"),
      item.code ? el("span", null, item.code) : null,
      item.ms !== undefined ? el("span", null, ms(item.ms)) : null,
    ]));
    const lines = item.text.split("\n").length;
    box.appendChild(
      lines > 20
        ? folded("Output, " + num.format(lines) + " lines", item.text, !item.ok)
        : pre(item.text),
    );
    return box;
  }

  function one(item) {
    switch (item.k) {
      case "user": {
        const u = el("article", "msg user");
        u.appendChild(head(item, "User"));
        u.appendChild(pre(item.text));
        return u;
      }
      case "assistant":
        return assistant(item);
      case "call":
        return call(item);
      case "result":
        return result(item);
      case "system": {
        const s = el("article", "msg system");
        s.appendChild(head(item, "System", [badge(item.event)]));
        s.appendChild(pre(item.text));
        return s;
      }
      default:
        return el(
          "p",
          "muted",
          "… " + num.format(item.count) + " more messages: see minoc history show",
        );
    }
  }

  function render(container, t) {
    container.replaceChildren();
    const meta = el(
      "p",
      "muted",
      t.model + " · " + t.project + " · " + new Date(t.timestamp).toLocaleString(),
    );
    container.appendChild(meta);
    t.items.forEach(function (item) {
      container.appendChild(one(item));
    });
  }

  function standalone() {
    const t = JSON.parse(document.getElementById("transcript-data").textContent);
    document.title = "Session " + t.id;
    const h = el("h1", null, "Session " + t.id);
    const main = document.getElementById("main");
    main.insertBefore(h, main.children[1]);
    render(document.getElementById("transcript"), t);
  }

  return { render: render, standalone: standalone, el: el, ms: ms, badge: badge };
})();
