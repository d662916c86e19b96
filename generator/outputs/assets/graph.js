// Incident Library: the graph of the cases in the current results and their terms.
//
// Coordinates come from the build (generator/outputs/graph.py), so drawing is cheap and the same
// library always looks the same. Term nodes are links to their term pages (so the graph works
// with a keyboard); with JavaScript they apply the term as a filter instead. Case nodes open the
// case.
//
// Zoom and pan move the SVG viewBox; node marks and labels are drawn in screen pixels (each sits
// in a group scaled by 1/zoom), so zooming in spreads the nodes apart without blowing up the text.
// Labels are placed after every change of view by a greedy pass that never lets two labels, or a
// label and a node, overlap; a label that finds no free spot is hidden and shows on hover and
// focus of its node. The placement, the fitting and the zoom arithmetic are pure functions, which
// tests/js/graph.test.js loads in Node (this file is a classic script in the browser and a
// CommonJS module there).
(function () {
  "use strict";

  // ---- Pure helpers ----------------------------------------------------------------------------

  // A case title beside its node: short enough not to cross half the graph.
  function shorten(text, max) {
    var chars = Array.from(String(text));
    if (chars.length <= max) return chars.join("");
    return chars.slice(0, max - 1).join("").replace(/[\s:;,.·-]+$/, "") + "…";
  }

  // A uniform grid of buckets, so checking a label against what is already placed looks at its
  // neighbourhood only (hundreds of nodes, every frame of a pinch).
  function Grid(size) {
    this.size = size;
    this.cells = {};
  }
  Grid.prototype.each = function (box, fn) {
    var s = this.size;
    for (var gx = Math.floor(box.left / s); gx <= Math.floor(box.right / s); gx++) {
      for (var gy = Math.floor(box.top / s); gy <= Math.floor(box.bottom / s); gy++) {
        if (fn(gx + "," + gy) === false) return false;
      }
    }
    return true;
  };
  Grid.prototype.add = function (box, value) {
    var cells = this.cells;
    this.each(box, function (key) { (cells[key] || (cells[key] = [])).push(value); });
  };
  Grid.prototype.any = function (box, test) {
    var cells = this.cells;
    return !this.each(box, function (key) {
      var list = cells[key];
      if (!list) return true;
      for (var i = 0; i < list.length; i++) if (test(list[i])) return false;
      return true;
    });
  };

  function rectsOverlap(a, b, margin) {
    return a.left < b.right + margin && b.left < a.right + margin &&
      a.top < b.bottom + margin && b.top < a.bottom + margin;
  }

  function circleHitsRect(c, rect) {
    var nx = Math.max(rect.left, Math.min(c.x, rect.right));
    var ny = Math.max(rect.top, Math.min(c.y, rect.bottom));
    var dx = c.x - nx, dy = c.y - ny;
    return dx * dx + dy * dy < c.r * c.r;
  }

  // Where a label of w×h may sit around a node of radius r at (x, y), in the order tried: right
  // (how one reads a label), left, above, below, then the four diagonals. Above and below slide
  // sideways to stay inside a box `width` wide, as long as the label still spans the node.
  function candidates(x, y, r, w, h, gap, width, edge) {
    var d = (r + gap) * 0.71;
    var centred = x - w / 2;
    if (width !== undefined) {
      var slid = Math.max(edge, Math.min(width - edge - w, centred));
      if (slid <= x && slid + w >= x) centred = slid;
    }
    var spots = [
      [x + r + gap, y - h / 2],
      [x - r - gap - w, y - h / 2],
      [centred, y - r - gap - h],
      [centred, y + r + gap],
      [x + d, y - d - h],
      [x + d, y + d],
      [x - d - w, y - d - h],
      [x - d - w, y + d],
    ];
    return spots.map(function (p) { return { left: p[0], top: p[1], right: p[0] + w, bottom: p[1] + h }; });
  }

  // Greedy label placement, deterministic: the same items in the same box give the same result.
  // items: [{x, y, r, w, h, weight, label}] in screen pixels; `label` false means the label is
  // only ever shown on hover (case titles when many cases are drawn). The most important nodes
  // (highest weight, then the earlier item) choose first; a label goes to the first spot that
  // stays inside the box and overlaps no node and no label placed before it; otherwise it is
  // hidden. Returns, per item, {left, top, shown}: where its label box goes (a hidden one too,
  // for when it shows on hover) and whether it is shown.
  function placeLabels(items, box, options) {
    options = options || {};
    var gap = options.gap === undefined ? 3 : options.gap;
    var margin = options.margin === undefined ? 2 : options.margin;
    var edge = options.edge === undefined ? 1 : options.edge;
    var grid = new Grid(options.cell || 48);
    items.forEach(function (item, i) {
      var c = { kind: "node", i: i, x: item.x, y: item.y, r: item.r + 1 };
      grid.add({ left: c.x - c.r, top: c.y - c.r, right: c.x + c.r, bottom: c.y + c.r }, c);
    });
    function inside(rect) {
      return rect.left >= edge && rect.top >= edge && rect.right <= box.width - edge && rect.bottom <= box.height - edge;
    }
    function onScreen(item) {
      return item.x >= 0 && item.y >= 0 && item.x <= box.width && item.y <= box.height;
    }
    function free(rect) {
      var grown = { left: rect.left - margin, top: rect.top - margin, right: rect.right + margin, bottom: rect.bottom + margin };
      return !grid.any(grown, function (other) {
        return other.kind === "node" ? circleHitsRect(other, rect) : rectsOverlap(other, rect, margin);
      });
    }
    var order = items.map(function (_, i) { return i; }).sort(function (a, b) {
      return (items[b].weight - items[a].weight) || (a - b);
    });
    var out = new Array(items.length);
    order.forEach(function (i) {
      var item = items[i];
      var spots = candidates(item.x, item.y, item.r, item.w, item.h, gap, box.width, edge);
      var fallback = spots.filter(inside)[0] || spots[0];
      var chosen = null;
      if (item.label !== false && item.w > 0 && onScreen(item)) {
        for (var s = 0; s < spots.length && !chosen; s++) {
          if (inside(spots[s]) && free(spots[s])) chosen = spots[s];
        }
      }
      if (chosen) {
        grid.add(chosen, { kind: "label", left: chosen.left, top: chosen.top, right: chosen.right, bottom: chosen.bottom });
      }
      var spot = chosen || fallback;
      out[i] = { left: spot.left, top: spot.top, shown: !!chosen };
    });
    return out;
  }

  var MAX_STRETCH = 1.6;

  // The view that shows all points in a width×height canvas with `pad` pixels around them. The
  // build lays the graph out in a wide box; on a taller canvas (a phone) the layout's height is
  // stretched up to MAX_STRETCH times, which keeps the nodes' neighbourhoods and uses the room.
  // Returns {view: {x, y, w, h}, sy}: multiply the build's y coordinates by sy.
  function fitView(points, width, height, pad) {
    var xs = points.map(function (p) { return p.x; });
    var ys = points.map(function (p) { return p.y; });
    var minX = xs.length ? Math.min.apply(null, xs) : 0, maxX = xs.length ? Math.max.apply(null, xs) : 0;
    var minY = ys.length ? Math.min.apply(null, ys) : 0, maxY = ys.length ? Math.max.apply(null, ys) : 0;
    var bw = Math.max(maxX - minX, 1), bh = Math.max(maxY - minY, 1);
    var aw = Math.max(width - 2 * pad, 1), ah = Math.max(height - 2 * pad, 1);
    var sy = bw / bh > aw / ah ? Math.min(bw / bh / (aw / ah), MAX_STRETCH) : 1;
    // a single node, or nodes on one line, are not blown up to fill the canvas
    var spanX = Math.max(bw, 160), spanY = Math.max(bh * sy, 100);
    var k = Math.min(aw / spanX, ah / spanY);
    var w = width / k, h = height / k;
    return {
      view: { x: (minX + maxX) / 2 - w / 2, y: ((minY + maxY) / 2) * sy - h / 2, w: w, h: h },
      sy: sy,
    };
  }

  // Keep a view between the fitted view (zoom 1) and maxZoom times closer, and inside the fitted
  // view, so the graph can never be lost off the canvas.
  function clampView(view, base, maxZoom) {
    var w = Math.min(base.w, Math.max(base.w / maxZoom, view.w));
    var h = w * base.h / base.w;
    var x = Math.min(base.x + base.w - w, Math.max(base.x, view.x));
    var y = Math.min(base.y + base.h - h, Math.max(base.y, view.y));
    return { x: x, y: y, w: w, h: h };
  }

  // Zoom by `factor` (>1 closer) keeping the point at screen pixel (px, py) of a width-wide
  // canvas where it is.
  function zoomAt(view, base, maxZoom, factor, px, py, width) {
    var k = width / view.w;
    var wx = view.x + px / k, wy = view.y + py / k;
    var w = Math.min(base.w, Math.max(base.w / maxZoom, view.w / factor));
    var s = w / view.w;
    return clampView({ x: wx - (px / k) * s, y: wy - (py / k) * s, w: w, h: view.h * s }, base, maxZoom);
  }

  function panBy(view, base, maxZoom, dx, dy, width) {
    var k = width / view.w;
    return clampView({ x: view.x - dx / k, y: view.y - dy / k, w: view.w, h: view.h }, base, maxZoom);
  }

  // What the graph draws of many cases: not the cases, which would crowd the middle with nodes
  // too many to label, but the terms they use most (at most `maxTerms`, the most used first,
  // ties in the build's order) and the pairs of those that occur together in at least two
  // cases. cases: [{t: [term index…]}]. Returns {terms: [index…] ascending, counts: {index: n},
  // pairs: [[a, b, n]…]} with a < b, the strongest first.
  function overview(cases, maxTerms) {
    var counts = {};
    cases.forEach(function (c) { c.t.forEach(function (i) { counts[i] = (counts[i] || 0) + 1; }); });
    var kept = Object.keys(counts).map(Number).sort(function (a, b) {
      return counts[b] - counts[a] || a - b;
    }).slice(0, maxTerms);
    var keep = {};
    kept.forEach(function (i) { keep[i] = true; });
    var together = {};
    cases.forEach(function (c) {
      var t = c.t.filter(function (i) { return keep[i]; }).sort(function (a, b) { return a - b; });
      for (var x = 0; x < t.length; x++) {
        for (var y = x + 1; y < t.length; y++) {
          var key = t[x] + "," + t[y];
          together[key] = (together[key] || 0) + 1;
        }
      }
    });
    var pairs = Object.keys(together).filter(function (key) { return together[key] >= 2; }).map(function (key) {
      var ab = key.split(",").map(Number);
      return [ab[0], ab[1], together[key]];
    }).sort(function (p, q) { return q[2] - p[2] || p[0] - q[0] || p[1] - q[1]; });
    var shown = {};
    kept.forEach(function (i) { shown[i] = counts[i]; });
    return { terms: kept.sort(function (a, b) { return a - b; }), counts: shown, pairs: pairs };
  }

  var core = {
    overview: overview,
    shorten: shorten,
    placeLabels: placeLabels,
    fitView: fitView,
    clampView: clampView,
    zoomAt: zoomAt,
    panBy: panBy,
  };
  if (typeof module === "object" && module.exports) {
    module.exports = core;
    return;
  }
  if (typeof document === "undefined") return;

  // ---- The page ----------------------------------------------------------------------------------
  var panel = document.querySelector("[data-il-graph]");
  var libraryRoot = document.querySelector("[data-il-library]");
  var DATA = window.IncidentLibraryData || {};
  if (!panel || !libraryRoot || !DATA.terms) return;

  var SVG = "http://www.w3.org/2000/svg";
  var S = DATA.terms.strings;
  var LANG = DATA.terms.lang;
  var LANG_ROOT = (libraryRoot.getAttribute("data-il-site-root") || "") + LANG + "/";
  var MAX_CASES = 300;
  // More cases than this and the graph is an overview of their terms (see `overview`): drawn one
  // by one they crowded the middle, unlabelled, and every node was a tab stop.
  var CASES_DRAWN = 30;
  var OVERVIEW_TERMS = 40;
  var LABELLED_CASES = 8; // up to this many cases on the canvas, each shows its title
  var CASE_TITLE = 24; // characters of a case title beside its node (36 for up to 3 cases)
  var CASE_WEIGHT = 1.5; // a case label comes after terms shared by cases, before single ones
  var MAX_ZOOM = 8;
  var HIT = 13; // radius of the invisible target around each node: over 24×24 px
  var STEP = 1.5; // zoom factor of a button or key press
  var canvas = panel.querySelector("[data-il-graph-canvas]");
  var status = panel.querySelector("[data-il-graph-status]");
  var bar = panel.querySelector("[data-il-graph-bar]");
  var pairsBody = panel.querySelector("[data-il-pairs] tbody");
  var graph = null;
  var loading = null;
  var lastDetail = null;
  var lastSelection = null;
  var current = null; // what is drawn: {svg, items, base, view, width, height, frame}
  var termUrl = {};
  DATA.terms.facets.forEach(function (facet) {
    facet.terms.forEach(function (term) { termUrl[facet.id + ":" + term.id] = term.url; });
  });
  if (bar) bar.hidden = false;

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
    var scope = libraryRoot.getAttribute("data-il-scope");
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
    // As the search filters (search-core.js): any of a facet's terms, every facet.
    var filters = filtersOf(state);
    var cases = graph.cases.filter(function (c) {
      return Object.keys(filters).every(function (f) {
        return !filters[f].length || filters[f].some(function (id) { return caseHas(c, f, id); });
      });
    });
    return Promise.resolve({ cases: cases, total: cases.length });
  }

  // ---- Drawing ------------------------------------------------------------------------------
  function fixed(v) { return (Math.round(v * 100) / 100).toString(); }

  function draw(selection) {
    lastSelection = selection;
    var all = selection.cases.slice(0, MAX_CASES);
    var many = all.length > CASES_DRAWN;
    var cases = many ? [] : all;
    var used = {};
    var termIds;
    var pairs = [];
    if (many) {
      // fewer on a narrow canvas (a phone's holds about 18), so that the largest are labelled
      var room = Math.max(12, Math.round(OVERVIEW_TERMS * Math.min(1, (canvas.clientWidth || graph.width) / 700)));
      var summary = overview(all, room);
      used = summary.counts;
      termIds = summary.terms;
      pairs = summary.pairs;
    } else {
      cases.forEach(function (c) { c.t.forEach(function (i) { used[i] = (used[i] || 0) + 1; }); });
      termIds = Object.keys(used).map(Number).sort(function (a, b) { return a - b; });
    }
    var maxCount = 0;
    termIds.forEach(function (i) { maxCount = Math.max(maxCount, used[i]); });

    // The canvas's size decides the view; a canvas not laid out yet gets the build's box.
    var width = canvas.clientWidth || graph.width;
    var height = canvas.clientHeight || graph.height;
    var points = termIds.map(function (i) { return graph.terms[i]; }).concat(cases);
    var fit = fitView(points, width, height, Math.min(40, width * 0.08));
    var sy = fit.sy;
    // Smaller term circles on a phone, where the largest would cover their neighbours.
    var sizeScale = Math.max(0.6, Math.min(1, width / 700));

    var svg = node("svg", {
      viewBox: [fit.view.x, fit.view.y, fit.view.w, fit.view.h].map(fixed).join(" "),
      class: "il-graph__svg",
      role: "group",
      "aria-label": S.graph_label,
      "aria-describedby": "il-graph-hint",
      tabindex: "0",
    });
    var edges = node("g", { class: "il-graph__edges", "aria-hidden": "true" });
    var caseLayer = node("g", { class: "il-graph__cases" });
    var termLayer = node("g", { class: "il-graph__terms" });
    // Labels above every node and edge; the nodes' links carry the names (their <title>), so
    // the labels' own links are hidden from screen readers and left out of the tab order.
    var labelLayer = node("g", { class: "il-graph__labels", "aria-hidden": "true" });
    svg.appendChild(edges);
    svg.appendChild(caseLayer);
    svg.appendChild(termLayer);
    svg.appendChild(labelLayer);

    cases.forEach(function (c) {
      c.t.forEach(function (i) {
        var t = graph.terms[i];
        edges.appendChild(node("line", {
          x1: c.x, y1: fixed(c.y * sy), x2: t.x, y2: fixed(t.y * sy),
          "data-case": c.id, "data-term-index": String(i),
        }));
      });
    });
    // The overview links two terms that occur together, thicker for more cases.
    var strongest = pairs.length ? pairs[0][2] : 1;
    pairs.forEach(function (pair) {
      var a = graph.terms[pair[0]], b = graph.terms[pair[1]];
      edges.appendChild(node("line", {
        x1: a.x, y1: fixed(a.y * sy), x2: b.x, y2: fixed(b.y * sy),
        "data-pair": pair[0] + "," + pair[1], "stroke-width": fixed(1 + 2 * pair[2] / strongest),
      }));
    });

    var items = [];
    function addItem(link, mark, label, x, y, r, weight, kind) {
      var index = items.length;
      link.setAttribute("data-i", String(index));
      var group = node("g", { class: "il-label il-label--" + kind, "data-i": String(index) });
      group.appendChild(label);
      labelLayer.appendChild(group);
      items.push({
        link: link, mark: mark, group: group, text: label.querySelector("text"),
        x: x, y: y * sy, r: r, weight: weight, isCase: kind === "case",
      });
    }
    function labelLink(href, text, attrs) {
      var a = node("a", Object.assign({ href: href, tabindex: "-1" }, attrs || {}));
      a.appendChild(node("text", {}, text));
      return a;
    }

    cases.forEach(function (c) {
      var href = LANG_ROOT + "cases/" + c.id + ".html";
      var link = node("a", { href: href, class: "il-node il-node--case", "data-case": c.id, tabindex: "-1" });
      link.appendChild(node("title", {}, c.title));
      var mark = node("g", { class: "il-node__mark" });
      mark.appendChild(node("circle", { class: "il-node__hit", r: HIT }));
      mark.appendChild(node("rect", { class: "il-node__dot", x: -6, y: -6, width: 12, height: 12, rx: 2 }));
      link.appendChild(mark);
      caseLayer.appendChild(link);
      var title = shorten(c.title, cases.length <= 3 ? 36 : CASE_TITLE);
      addItem(link, mark, labelLink(href, title, { "data-case": c.id }),
        c.x, c.y, 7, CASE_WEIGHT, "case");
    });
    termIds.forEach(function (i) {
      var t = graph.terms[i];
      var href = LANG_ROOT + (termUrl[t.f + ":" + t.id] || "");
      // Out of the tab order: the graph is one tab stop (zoomed and panned with keys); the
      // table under it names the same terms as links, and the results the same cases.
      var link = node("a", {
        href: href,
        class: "il-node il-node--" + t.f,
        "data-facet": t.f,
        "data-term": t.id,
        "data-term-index": String(i),
        tabindex: "-1",
      });
      link.appendChild(node("title", {}, t.label + " (" + used[i] + ")"));
      // Size by the number of cases in the results, against the largest (at least 4, so that a
      // term of one case among one or two does not look like a hub); area grows with the count.
      var r = (5 + 11 * Math.sqrt(used[i] / Math.max(maxCount, 4))) * sizeScale;
      var mark = node("g", { class: "il-node__mark" });
      mark.appendChild(node("circle", { class: "il-node__hit", r: fixed(Math.max(HIT, r)) }));
      mark.appendChild(node("circle", { class: "il-node__dot", r: fixed(r) }));
      link.appendChild(mark);
      termLayer.appendChild(link);
      addItem(link, mark, labelLink(href, t.label, { "data-facet": t.f, "data-term": t.id }),
        t.x, t.y, r, used[i], "term");
    });

    canvas.textContent = "";
    canvas.appendChild(svg);
    // Label sizes in screen pixels, measured once: text is drawn at the same size at any zoom.
    items.forEach(function (item) {
      var box = item.text.getBBox();
      item.bx = box.x; item.by = box.y; item.w = box.width; item.h = box.height;
    });
    current = { svg: svg, items: items, base: fit.view, view: fit.view, width: width, height: height, frame: 0 };
    render();

    canvas.setAttribute("data-cases", String(cases.length));
    canvas.setAttribute("data-terms", String(termIds.length));
    canvas.setAttribute("data-overview", String(many));
    var text = many
      ? format(S.graph_overview, { cases: selection.total, terms: termIds.length, max: CASES_DRAWN })
      : format(cases.length === 1 ? S.graph_status_one : S.graph_status, { cases: cases.length, terms: termIds.length });
    if (!many && selection.total > cases.length) text += " " + format(S.graph_capped, { shown: cases.length, total: selection.total });
    status.textContent = text;
    renderPairs(all);
  }

  // Apply current.view: the viewBox, each mark at its node scaled back to screen pixels, and a
  // fresh label placement for what is now on screen.
  function render() {
    var c = current;
    c.frame = 0;
    var view = c.view;
    var k = c.width / view.w;
    var unit = Math.round(1e5 / k) / 1e5;
    c.svg.setAttribute("viewBox", [view.x, view.y, view.w, view.h].map(fixed).join(" "));
    var screen = c.items.map(function (item) {
      return { x: (item.x - view.x) * k, y: (item.y - view.y) * k, r: item.r, w: item.w, h: item.h, weight: item.weight };
    });
    // Case titles when few cases are on the canvas: few in the results, or zoomed in on a few.
    var casesOnCanvas = 0;
    screen.forEach(function (p, i) {
      if (c.items[i].isCase && p.x >= 0 && p.y >= 0 && p.x <= c.width && p.y <= c.height) casesOnCanvas++;
    });
    screen.forEach(function (p, i) { p.label = !c.items[i].isCase || casesOnCanvas <= LABELLED_CASES; });
    var placed = placeLabels(screen, { width: c.width, height: c.height });
    c.items.forEach(function (item, i) {
      var at = "translate(" + fixed(item.x) + " " + fixed(item.y) + ") scale(" + unit + ")";
      item.mark.setAttribute("transform", at);
      item.group.setAttribute("transform", at);
      var sx = (item.x - view.x) * k, sy = (item.y - view.y) * k;
      item.text.setAttribute("x", fixed(placed[i].left - sx - item.bx));
      item.text.setAttribute("y", fixed(placed[i].top - sy - item.by));
      item.group.classList.toggle("is-hidden", !placed[i].shown);
    });
    canvas.setAttribute("data-zoom", (Math.round(c.base.w / view.w * 100) / 100).toString());
  }

  // Every change of view goes through here: the view is updated at once (so wheel events in one
  // frame add up) and drawn at the next frame.
  function setView(view) {
    if (!current) return;
    current.view = clampView(view, current.base, MAX_ZOOM);
    if (!current.frame) current.frame = requestAnimationFrame(render);
  }

  function zoomBy(factor, px, py) {
    if (!current) return;
    if (px === undefined) { px = current.width / 2; py = current.height / 2; }
    setView(zoomAt(current.view, current.base, MAX_ZOOM, factor, px, py, current.width));
  }

  function panPixels(dx, dy) {
    if (current) setView(panBy(current.view, current.base, MAX_ZOOM, dx, dy, current.width));
  }

  function zoomLevel() { return current ? current.base.w / current.view.w : 1; }

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
  // The node an event is about: a node's link, or the node whose label it is.
  function itemOf(target) {
    var el = target && target.closest && target.closest(".il-node, .il-label");
    if (!el || !current) return null;
    return current.items[Number(el.getAttribute("data-i"))] || null;
  }

  function neighbours(item) {
    var svg = current.svg;
    var target = item.link;
    svg.classList.add("is-focused");
    var caseId = target.getAttribute("data-case");
    var termIndex = target.getAttribute("data-term-index");
    var lines = svg.querySelectorAll(
      caseId ? 'line[data-case="' + caseId + '"]'
        : 'line[data-term-index="' + termIndex + '"], line[data-pair^="' + termIndex + ',"], line[data-pair$=",' + termIndex + '"]'
    );
    target.classList.add("is-lit");
    item.group.classList.add("is-lit", "is-shown");
    lines.forEach(function (line) {
      line.classList.add("is-lit");
      var pair = line.getAttribute("data-pair");
      var otherTerm = pair ? pair.split(",").filter(function (i) { return i !== termIndex; })[0] : null;
      var other = caseId
        ? svg.querySelector('.il-node[data-term-index="' + line.getAttribute("data-term-index") + '"]')
        : pair ? svg.querySelector('.il-node[data-term-index="' + otherTerm + '"]')
          : svg.querySelector('.il-node--case[data-case="' + line.getAttribute("data-case") + '"]');
      if (other) {
        other.classList.add("is-lit");
        var label = svg.querySelector('.il-label[data-i="' + other.getAttribute("data-i") + '"]');
        if (label) label.classList.add("is-lit");
      }
    });
  }

  function clearLight() {
    var svg = canvas.querySelector("svg");
    if (!svg) return;
    svg.classList.remove("is-focused");
    svg.querySelectorAll(".is-lit, .is-shown").forEach(function (el) { el.classList.remove("is-lit", "is-shown"); });
  }

  canvas.addEventListener("mouseover", function (event) {
    if (gesture && gesture.moved) return;
    var item = itemOf(event.target);
    clearLight();
    if (item) neighbours(item);
  });
  canvas.addEventListener("focusin", function (event) {
    var item = itemOf(event.target);
    clearLight();
    if (!item) return;
    // A node reached with Tab while zoomed in may be off the canvas: bring it to the middle.
    var k = current.width / current.view.w;
    var sx = (item.x - current.view.x) * k, sy = (item.y - current.view.y) * k;
    if (sx < 0 || sy < 0 || sx > current.width || sy > current.height) {
      panPixels(current.width / 2 - sx, current.height / 2 - sy);
    }
    neighbours(item);
  });
  canvas.addEventListener("mouseleave", clearLight);
  canvas.addEventListener("focusout", clearLight);

  panel.addEventListener("click", function (event) {
    var term = event.target.closest("[data-term][data-facet]");
    if (!term || !window.IncidentLibrary || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    window.IncidentLibrary.toggle(term.getAttribute("data-facet"), term.getAttribute("data-term"));
  });

  // ---- Zoom and pan ----------------------------------------------------------------------------
  panel.addEventListener("click", function (event) {
    var button = event.target.closest("[data-il-graph-zoom]");
    if (!button) return;
    var action = button.getAttribute("data-il-graph-zoom");
    if (action === "in") zoomBy(STEP);
    else if (action === "out") zoomBy(1 / STEP);
    else if (current) setView(current.base);
  });

  // Keys while the canvas (or a node in it) has focus; with Ctrl, Alt or Meta they stay the
  // browser's (Ctrl + zooms the page).
  canvas.addEventListener("keydown", function (event) {
    if (!current || event.ctrlKey || event.altKey || event.metaKey) return;
    var step = Math.min(current.width, current.height) * 0.15;
    var key = event.key;
    if (key === "+" || key === "=") zoomBy(STEP);
    else if (key === "-" || key === "_") zoomBy(1 / STEP);
    else if (key === "0") setView(current.base);
    else if (key === "ArrowLeft") panPixels(step, 0);
    else if (key === "ArrowRight") panPixels(-step, 0);
    else if (key === "ArrowUp") panPixels(0, step);
    else if (key === "ArrowDown") panPixels(0, -step);
    else return;
    event.preventDefault();
  });

  // Pixels from the drawing's top left corner (inside the canvas's border).
  function pointOf(event) {
    var rect = (current ? current.svg : canvas).getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  }

  // The wheel zooms around the pointer. At the fitted view, turning it further out scrolls the
  // page as usual, so a reader scrolling past the graph is not caught by it.
  canvas.addEventListener("wheel", function (event) {
    if (!current) return;
    var delta = event.deltaY * (event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? current.height : 1);
    var factor = Math.exp(-Math.max(-300, Math.min(300, delta)) * (event.ctrlKey ? 0.01 : 0.002));
    var zoom = zoomLevel();
    if ((factor < 1 && zoom <= 1.0001) || (factor > 1 && zoom >= MAX_ZOOM - 0.0001)) return;
    event.preventDefault();
    var p = pointOf(event);
    zoomBy(factor, p.x, p.y);
  }, { passive: false });

  // Pointer events cover the mouse, pens and touch alike: one pointer pans (after moving a few
  // pixels, so a tap or click on a node still follows its link), two pinch.
  var pointers = {};
  var gesture = null;
  var swallowClick = false;

  function startGesture() {
    var ids = Object.keys(pointers);
    if (!current || !ids.length) { gesture = null; return; }
    var moved = gesture ? gesture.moved : false;
    if (ids.length === 1) {
      gesture = { kind: "pan", from: pointers[ids[0]], view: current.view, moved: moved };
    } else {
      var a = pointers[ids[0]], b = pointers[ids[1]];
      gesture = {
        kind: "pinch", ids: [ids[0], ids[1]], view: current.view, moved: true,
        distance: Math.max(Math.hypot(a.x - b.x, a.y - b.y), 1), middle: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 },
      };
    }
  }

  canvas.addEventListener("pointerdown", function (event) {
    if (!current || (event.pointerType === "mouse" && event.button !== 0)) return;
    pointers[event.pointerId] = pointOf(event);
    startGesture();
  });
  canvas.addEventListener("pointermove", function (event) {
    if (!gesture || !pointers[event.pointerId]) return;
    pointers[event.pointerId] = pointOf(event);
    if (gesture.kind === "pan") {
      var p = pointers[event.pointerId];
      var dx = p.x - gesture.from.x, dy = p.y - gesture.from.y;
      if (!gesture.moved && Math.hypot(dx, dy) < 5) return;
      if (!gesture.moved) {
        gesture.moved = true;
        canvas.setPointerCapture(event.pointerId);
        current.svg.classList.add("is-panning");
        clearLight();
      }
      setView(panBy(gesture.view, current.base, MAX_ZOOM, dx, dy, current.width));
    } else {
      var a = pointers[gesture.ids[0]], b = pointers[gesture.ids[1]];
      if (!a || !b) return;
      var factor = Math.hypot(a.x - b.x, a.y - b.y) / gesture.distance;
      var middle = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
      var zoomed = zoomAt(gesture.view, current.base, MAX_ZOOM, factor, gesture.middle.x, gesture.middle.y, current.width);
      setView(panBy(zoomed, current.base, MAX_ZOOM, middle.x - gesture.middle.x, middle.y - gesture.middle.y, current.width));
    }
  });
  function endPointer(event) {
    if (!pointers[event.pointerId]) return;
    delete pointers[event.pointerId];
    if (gesture && gesture.moved) {
      swallowClick = true;
      setTimeout(function () { swallowClick = false; }, 0); // in case no click follows
    }
    if (current) current.svg.classList.remove("is-panning");
    if (Object.keys(pointers).length) startGesture();
    else gesture = null;
  }
  canvas.addEventListener("pointerup", endPointer);
  canvas.addEventListener("pointercancel", endPointer);
  // The click that ends a drag is not a click on the node under it.
  canvas.addEventListener("click", function (event) {
    if (!swallowClick) return;
    swallowClick = false;
    event.preventDefault();
    event.stopPropagation();
  }, true);
  // Dragging a link would start the browser's drag and drop instead of a pan.
  canvas.addEventListener("dragstart", function (event) { event.preventDefault(); });

  // The fitted view depends on the canvas's size (the phone layout is squarer): draw again when
  // its width changes, e.g. when a phone turns.
  if (window.ResizeObserver) {
    new ResizeObserver(function () {
      if (current && lastSelection && panel.open && canvas.clientWidth && canvas.clientWidth !== current.width) {
        draw(lastSelection);
      }
    }).observe(canvas);
  }

  function refresh() {
    if (!panel.open) return;
    load().then(function () { return currentCases(lastDetail); }).then(draw);
  }

  libraryRoot.addEventListener("il:results", function (event) {
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
  // Results shown before this script listened (a quick first search) are drawn too.
  if (window.IncidentLibrary && window.IncidentLibrary.results) lastDetail = window.IncidentLibrary.results();
  refresh();
})();
