// Incident Library: the graph of the cases in the current results and their terms.
//
// Coordinates come from the build (generator/graph.py), so drawing is cheap and the same library
// always looks the same. Term nodes are links to their term pages (so the graph works with a
// keyboard); with JavaScript they apply the term as a filter instead. Case nodes open the case.
(function () {
  "use strict";

  var panel = document.querySelector("[data-il-graph]");
  var root = document.querySelector("[data-il-library]");
  var DATA = window.IncidentLibraryData || {};
  if (!panel || !root || !DATA.terms) return;

  var SVG = "http://www.w3.org/2000/svg";
  var S = DATA.terms.strings;
  var LANG = DATA.terms.lang;
  var LANG_ROOT = (root.getAttribute("data-il-site-root") || "") + LANG + "/";
  var MAX_CASES = 300;
  var canvas = panel.querySelector("[data-il-graph-canvas]");
  var status = panel.querySelector("[data-il-graph-status]");
  var pairsBody = panel.querySelector("[data-il-pairs] tbody");
  var graph = null;
  var loading = null;
  var lastDetail = null;
  var termUrl = {};
  DATA.terms.facets.forEach(function (facet) {
    facet.terms.forEach(function (term) { termUrl[facet.id + ":" + term.id] = term.url; });
  });

  function load() {
    if (graph) return Promise.resolve(graph);
    if (!loading) {
      loading = new Promise(function (resolve, reject) {
        var script = document.createElement("script");
        script.src = panel.getAttribute("data-il-graph-src");
        script.onload = function () { graph = window.IncidentLibraryData.graph; resolve(graph); };
        script.onerror = reject;
        document.head.appendChild(script);
      });
    }
    return loading;
  }

  function node(tag, attrs, text) {
    var el = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (key) { el.setAttribute(key, attrs[key]); });
    if (text) el.textContent = text;
    return el;
  }

  function format(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_, key) { return String(values[key]); });
  }

  // ---- Which cases: the current results ----------------------------------------------------
  function filtersOf(state) {
    var filters = {};
    Object.keys(state.filters || {}).forEach(function (f) { filters[f] = state.filters[f].slice(); });
    var scope = root.getAttribute("data-il-scope");
    if (scope) {
      var parts = scope.split(":");
      filters[parts[0]] = (filters[parts[0]] || []).concat([parts[1]]);
    }
    return filters;
  }

  // A case lists the terms the graph draws by index (t) and every other facet's terms by id (f).
  function caseHas(c, facet, id) {
    if (c.f[facet]) return c.f[facet].indexOf(id) !== -1;
    return c.t.some(function (i) { return graph.terms[i].f === facet && graph.terms[i].id === id; });
  }

  function currentCases(detail) {
    var state = detail ? detail.state : { query: "", filters: {} };
    if (state.query && detail.result.allIds) {
      return detail.result.allIds(MAX_CASES + 1).then(function (ids) {
        var byId = {};
        graph.cases.forEach(function (c) { byId[c.id] = c; });
        return { cases: ids.map(function (id) { return byId[id]; }).filter(Boolean), total: detail.result.total };
      });
    }
    var filters = filtersOf(state);
    var cases = graph.cases.filter(function (c) {
      return Object.keys(filters).every(function (f) {
        return filters[f].every(function (id) { return caseHas(c, f, id); });
      });
    });
    return Promise.resolve({ cases: cases, total: cases.length });
  }

  // ---- Drawing ------------------------------------------------------------------------------
  function draw(selection) {
    var cases = selection.cases.slice(0, MAX_CASES);
    var used = {};
    cases.forEach(function (c) { c.t.forEach(function (i) { used[i] = (used[i] || 0) + 1; }); });
    var termIds = Object.keys(used).map(Number).sort(function (a, b) { return a - b; });

    var xs = [], ys = [];
    termIds.forEach(function (i) { xs.push(graph.terms[i].x); ys.push(graph.terms[i].y); });
    cases.forEach(function (c) { xs.push(c.x); ys.push(c.y); });
    var pad = 60;
    var minX = xs.length ? Math.min.apply(null, xs) - pad : 0;
    var minY = xs.length ? Math.min.apply(null, ys) - pad : 0;
    var w = xs.length ? Math.max.apply(null, xs) + pad - minX : graph.width;
    var h = xs.length ? Math.max.apply(null, ys) + pad - minY : graph.height;
    var ratio = graph.width / graph.height;
    if (w / h < ratio) { minX -= (h * ratio - w) / 2; w = h * ratio; } else { minY -= (w / ratio - h) / 2; h = w / ratio; }
    var scale = w / graph.width;

    var svg = node("svg", {
      viewBox: [minX, minY, w, h].map(function (v) { return v.toFixed(1); }).join(" "),
      class: "il-graph__svg",
      role: "group",
      "aria-label": S.graph_label,
    });
    var edges = node("g", { class: "il-graph__edges", "aria-hidden": "true" });
    var caseLayer = node("g", { class: "il-graph__cases" });
    var termLayer = node("g", { class: "il-graph__terms" });
    svg.appendChild(edges);
    svg.appendChild(caseLayer);
    svg.appendChild(termLayer);

    cases.forEach(function (c) {
      c.t.forEach(function (i) {
        var t = graph.terms[i];
        edges.appendChild(node("line", {
          x1: c.x, y1: c.y, x2: t.x, y2: t.y,
          "data-case": c.id, "data-term-index": String(i),
          "stroke-width": (1.2 * scale).toFixed(2),
        }));
      });
    });
    cases.forEach(function (c) {
      var link = node("a", { href: LANG_ROOT + "cases/" + c.id + ".html", class: "il-node il-node--case", "data-case": c.id });
      link.appendChild(node("title", {}, c.title));
      link.appendChild(node("circle", { cx: c.x, cy: c.y, r: (5 * scale).toFixed(2) }));
      caseLayer.appendChild(link);
    });
    termIds.forEach(function (i) {
      var t = graph.terms[i];
      var link = node("a", {
        href: LANG_ROOT + (termUrl[t.f + ":" + t.id] || ""),
        class: "il-node il-node--" + t.f,
        "data-facet": t.f,
        "data-term": t.id,
        "data-term-index": String(i),
      });
      link.appendChild(node("title", {}, t.label + " (" + used[i] + ")"));
      var r = (6 + Math.sqrt(used[i]) * 3) * scale;
      link.appendChild(node("circle", { cx: t.x, cy: t.y, r: r.toFixed(2) }));
      link.appendChild(node("text", {
        x: (t.x + r + 3 * scale).toFixed(1),
        y: (t.y + 4 * scale).toFixed(1),
        "font-size": (12 * scale).toFixed(2),
      }, t.label));
      termLayer.appendChild(link);
    });

    canvas.textContent = "";
    canvas.appendChild(svg);
    canvas.setAttribute("data-cases", String(cases.length));
    canvas.setAttribute("data-terms", String(termIds.length));
    var text = format(S.graph_status, { cases: cases.length, terms: termIds.length });
    if (selection.total > cases.length) text += " " + format(S.graph_capped, { shown: cases.length, total: selection.total });
    status.textContent = text;
    renderPairs(cases);
  }

  function renderPairs(cases) {
    var counts = {};
    cases.forEach(function (c) {
      var t = c.t.slice().sort(function (a, b) { return a - b; });
      for (var i = 0; i < t.length; i++) {
        for (var j = i + 1; j < t.length; j++) {
          if (graph.terms[t[i]].f === graph.terms[t[j]].f) continue;
          var key = t[i] + "," + t[j];
          counts[key] = (counts[key] || 0) + 1;
        }
      }
    });
    var ranked = Object.keys(counts).sort(function (a, b) {
      return counts[b] - counts[a] || (a < b ? -1 : 1);
    }).slice(0, 15);
    pairsBody.textContent = "";
    ranked.forEach(function (key) {
      var ids = key.split(",").map(Number);
      var row = document.createElement("tr");
      ids.forEach(function (i) {
        var t = graph.terms[i];
        var cell = document.createElement("td");
        var a = document.createElement("a");
        a.className = "il-chip il-chip--" + t.f;
        a.href = LANG_ROOT + (termUrl[t.f + ":" + t.id] || "");
        a.setAttribute("data-facet", t.f);
        a.setAttribute("data-term", t.id);
        a.textContent = t.label;
        cell.appendChild(a);
        row.appendChild(cell);
      });
      var count = document.createElement("td");
      count.className = "il-num";
      count.textContent = String(counts[key]);
      row.appendChild(count);
      pairsBody.appendChild(row);
    });
  }

  // ---- Interaction ---------------------------------------------------------------------------
  function neighbours(target) {
    var svg = canvas.querySelector("svg");
    if (!svg) return;
    svg.classList.add("is-focused");
    var caseId = target.getAttribute("data-case");
    var termIndex = target.getAttribute("data-term-index");
    var lines = svg.querySelectorAll(
      caseId ? 'line[data-case="' + caseId + '"]' : 'line[data-term-index="' + termIndex + '"]'
    );
    target.classList.add("is-lit");
    lines.forEach(function (line) {
      line.classList.add("is-lit");
      var other = caseId
        ? svg.querySelector('.il-node[data-term-index="' + line.getAttribute("data-term-index") + '"]')
        : svg.querySelector('.il-node--case[data-case="' + line.getAttribute("data-case") + '"]');
      if (other) other.classList.add("is-lit");
    });
  }

  function clearLight() {
    var svg = canvas.querySelector("svg");
    if (!svg) return;
    svg.classList.remove("is-focused");
    svg.querySelectorAll(".is-lit").forEach(function (el) { el.classList.remove("is-lit"); });
  }

  canvas.addEventListener("mouseover", function (event) {
    var target = event.target.closest(".il-node");
    clearLight();
    if (target) neighbours(target);
  });
  canvas.addEventListener("focusin", function (event) {
    var target = event.target.closest(".il-node");
    clearLight();
    if (target) neighbours(target);
  });
  canvas.addEventListener("mouseleave", clearLight);
  canvas.addEventListener("focusout", clearLight);

  panel.addEventListener("click", function (event) {
    var term = event.target.closest("[data-term][data-facet]");
    if (!term || !window.IncidentLibrary || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    window.IncidentLibrary.toggle(term.getAttribute("data-facet"), term.getAttribute("data-term"));
  });

  function refresh() {
    if (!panel.open) return;
    load().then(function () { return currentCases(lastDetail); }).then(draw);
  }

  root.addEventListener("il:results", function (event) {
    lastDetail = event.detail;
    refresh();
  });
  panel.addEventListener("toggle", function () {
    if (window.IncidentLibrary && window.IncidentLibrary.setView) window.IncidentLibrary.setView({ graph: panel.open });
    refresh();
  });
  if (window.IncidentLibrary && window.IncidentLibrary.view && window.IncidentLibrary.view().graph) {
    panel.open = true;
  }
  refresh();
})();
