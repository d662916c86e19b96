// Incident Library: a co-occurrence table for the library's filters.
//
// The page is the whole table, counted at build time, and reads without JavaScript. This script
// takes the library page's filters from the address (?organization=openai&domain=ai-infra) and
// counts the table again over the cases they leave, from the graph data the site already ships
// (<lang>/search/graph.js, loaded only then): counts, shades (the build's scale, computed here
// for the new counts), labels and links, which keep the filters. It can hide the rows and
// columns left without a case, which it does by default for a filtered table.
(function () {
  "use strict";

  var box = document.querySelector("[data-il-matrix]");
  var DATA = window.IncidentLibraryData || {};
  if (!box || !DATA.terms) return;

  var TERMS = DATA.terms;
  var S = TERMS.strings;
  var LANG = TERMS.lang;
  var SHADES = 5; // pages/build.py SHADES: il-matrix__c1 to c5
  var ROWS = box.getAttribute("data-rows");
  var COLS = box.getAttribute("data-cols");
  var HOME = box.getAttribute("data-il-home");
  var FACETS = TERMS.facets.map(function (f) { return f.id; });
  var facetLabels = {};
  var termIndex = {};
  TERMS.facets.forEach(function (facet) {
    facetLabels[facet.id] = facet.label;
    facet.terms.forEach(function (term) { termIndex[facet.id + ":" + term.id] = term; });
  });

  var tools = document.querySelector("[data-il-matrix-tools]");
  var applied = tools.querySelector("[data-il-matrix-applied]");
  var only = tools.querySelector("[data-il-matrix-only]");
  var status = tools.querySelector("[data-il-matrix-status]");
  var legend = document.querySelector("[data-il-matrix-legend]");
  // the other tables: they keep the filters too
  var others = [].slice.call(document.querySelectorAll(".il-matrix__others a")).map(function (a) {
    return { link: a, href: a.getAttribute("href") };
  });
  var table = box.querySelector("table");
  var colHeads = [].slice.call(table.querySelectorAll("thead th[data-term]"));
  var rowEls = [].slice.call(table.querySelectorAll("tbody tr[data-term]"));
  var colIds = colHeads.map(function (th) { return th.getAttribute("data-term"); });
  var rowIds = rowEls.map(function (tr) { return tr.getAttribute("data-term"); });
  var cells = rowEls.map(function (tr) { return [].slice.call(tr.querySelectorAll("td")); });
  // The table as the build made it, to go back to when the filters are cleared.
  var built = cells.map(function (row) {
    return row.map(function (td) {
      var a = td.querySelector("a");
      return a ? { n: Number(a.textContent), href: a.getAttribute("href"), label: a.getAttribute("aria-label") } : null;
    });
  });
  var graph = null;
  var loading = null;

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      if (key === "text") node.textContent = attrs[key];
      else node.setAttribute(key, attrs[key]);
    });
    (children || []).forEach(function (child) { node.appendChild(child); });
    return node;
  }

  // ---- Korean particles, as render/strings.py picks them: keep the two alike ---------------
  // A string writes a particle after a placeholder as dictionaries do ("{row}와(과)"); the form
  // that fits the value takes its place. Each: after a consonant, after a vowel, after ㄹ.
  var PARTICLES = {
    "와(과)": ["과", "와", "과"], "과(와)": ["과", "와", "과"],
    "이(가)": ["이", "가", "이"], "가(이)": ["이", "가", "이"],
    "은(는)": ["은", "는", "은"], "는(은)": ["은", "는", "은"],
    "을(를)": ["을", "를", "을"], "를(을)": ["을", "를", "을"],
    "(으)로": ["으로", "로", "로"],
  };
  var PARTICLE_AFTER = /\{(\w+)\}(와\(과\)|과\(와\)|이\(가\)|가\(이\)|은\(는\)|는\(은\)|을\(를\)|를\(을\)|\(으\)로)/g;
  var UNREAD_END = /(?:\s*\([^()]*\)|[\s'"’”」』》〉\].,·])+$/;
  var DIGIT_SOUNDS = "crvcvvcrrv"; // 영 일 이 삼 사 오 육 칠 팔 구
  var LETTER_SOUNDS = { L: "r", R: "r", M: "c", N: "c" }; // 엘 알 엠 엔
  var LATIN_RIEUL = /(?:l|le)$/;
  var LATIN_CONSONANT = /(?:m|n|ng|out|(?:(?:^|[^aeiou])[aeiou]|oo)c?k|(?:^|[^aeiou])[aeiou][cpt])$/;

  // "c" (a final consonant), "v" (a vowel) or "r" (ㄹ).
  function finalSound(word) {
    word = word.replace(UNREAD_END, "") || word;
    var last = word.slice(-1);
    if (last >= "\uac00" && last <= "\ud7a3") {
      var final = (last.charCodeAt(0) - 0xac00) % 28;
      return final === 0 ? "v" : final === 8 ? "r" : "c";
    }
    if (last >= "0" && last <= "9") return DIGIT_SOUNDS.charAt(Number(last));
    var letters = /[A-Za-z]+$/.exec(word);
    if (!letters) return "v";
    var run = letters[0];
    if (run === run.toUpperCase() || run.length === 1) return LETTER_SOUNDS[run.slice(-1).toUpperCase()] || "v";
    run = run.toLowerCase();
    if (LATIN_RIEUL.test(run)) return "r";
    return LATIN_CONSONANT.test(run) ? "c" : "v";
  }

  function particle(word, written) {
    var forms = PARTICLES[written];
    var sound = finalSound(word);
    return sound === "v" ? forms[1] : sound === "r" ? forms[2] : forms[0];
  }

  // render/strings.py `t`: fill a string, choosing the Korean particles after its placeholders.
  function format(template, values) {
    if (LANG === "ko") {
      template = template.replace(PARTICLE_AFTER, function (_, key, written) {
        return "{" + key + "}" + particle(String(values[key]), written);
      });
    }
    return template.replace(/\{(\w+)\}/g, function (_, key) { return String(values[key]); });
  }

  function formatCount(key, n, values) {
    var chosen = n === 1 && S[key + "_one"] ? key + "_one" : key;
    return format(S[chosen], Object.assign({ n: n }, values));
  }

  // ---- The scale, as pages/build.py count_scale makes it: keep the two alike ---------------
  function scaleFor(maximum) {
    if (maximum < 1) return [];
    var n = Math.min(SHADES, maximum);
    var highs = [];
    for (var k = 1; k <= n; k++) {
      var high = Math.floor(Math.pow(maximum, k / n) + 1e-9);
      high = Math.max(high, highs.length ? highs[highs.length - 1] + 1 : 1);
      highs.push(Math.min(high, maximum - (n - k)));
    }
    return highs.map(function (high, i) {
      return { shade: Math.ceil(((i + 1) * SHADES) / n), low: i ? highs[i - 1] + 1 : 1, high: high };
    });
  }

  function shadeOf(scale, count) {
    for (var i = 0; i < scale.length; i++) if (count <= scale[i].high) return scale[i].shade;
    return 0;
  }

  // ---- Filters in the address: the library page's parameters -------------------------------
  function readFilters() {
    var params = new URLSearchParams(location.search);
    var filters = {};
    FACETS.forEach(function (facet) {
      var ids = (params.get(facet) || "").split(",").filter(function (id) { return termIndex[facet + ":" + id]; });
      if (ids.length) filters[facet] = ids;
    });
    return filters;
  }

  function query(filters) {
    return FACETS.filter(function (f) { return filters[f] && filters[f].length; }).map(function (f) {
      return f + "=" + filters[f].map(encodeURIComponent).join(",");
    }).join("&");
  }

  function hasFilters(filters) { return Object.keys(filters).length > 0; }

  // A cell opens the library with its two terms and every current filter: the cases it counts.
  function cellHref(filters, rowId, colId) {
    var all = {};
    Object.keys(filters).forEach(function (f) { all[f] = filters[f].slice(); });
    [[ROWS, rowId], [COLS, colId]].forEach(function (pair) {
      all[pair[0]] = all[pair[0]] || [];
      if (all[pair[0]].indexOf(pair[1]) === -1) all[pair[0]].push(pair[1]);
    });
    return HOME + "?" + query(all);
  }

  // ---- Counting ------------------------------------------------------------------------------
  function load() {
    if (graph) return Promise.resolve(graph);
    if (!loading) {
      loading = new Promise(function (resolve, reject) {
        var script = document.createElement("script");
        script.src = box.getAttribute("data-il-graph-src");
        script.onload = function () { graph = window.IncidentLibraryData.graph; resolve(graph); };
        script.onerror = reject;
        document.head.appendChild(script);
      });
    }
    return loading;
  }

  // A case lists the terms the graph draws by index (t) and every other facet's by id (f): see
  // generator/outputs/graph.py.
  function termsOf(c, facet) {
    if (c.f[facet]) return c.f[facet];
    var out = [];
    c.t.forEach(function (i) { if (graph.terms[i].f === facet) out.push(graph.terms[i].id); });
    return out;
  }

  function count(filters) {
    var counts = {};
    var total = 0;
    graph.cases.forEach(function (c) {
      var matches = Object.keys(filters).every(function (f) {
        var own = termsOf(c, f);
        return filters[f].every(function (id) { return own.indexOf(id) !== -1; });
      });
      if (!matches) return;
      total += 1;
      var cols = termsOf(c, COLS);
      termsOf(c, ROWS).forEach(function (r) {
        cols.forEach(function (col) { counts[r + "\t" + col] = (counts[r + "\t" + col] || 0) + 1; });
      });
    });
    return { total: total, cell: function (r, c) { return counts[rowIds[r] + "\t" + colIds[c]] || 0; } };
  }

  // ---- Drawing -------------------------------------------------------------------------------
  function setCell(td, n, href, label, shade) {
    td.textContent = "";
    td.className = "il-num" + (n ? " il-matrix__hit il-matrix__c" + shade : "");
    if (n) td.appendChild(el("a", { href: href, title: label, "aria-label": label, text: String(n) }));
    else td.appendChild(el("span", { class: "il-matrix__zero", text: "0" }));
  }

  function drawLegend(scale) {
    legend.textContent = "";
    scale.forEach(function (step) {
      var text = step.low === step.high ? format(S.case_count_short, { n: step.low }) : format(S.matrix_range, { low: step.low, high: step.high });
      legend.appendChild(el("li", { class: "il-matrix__c" + step.shade, text: text }));
    });
  }

  function drawApplied(filters) {
    applied.textContent = "";
    applied.hidden = !hasFilters(filters);
    if (applied.hidden) return;
    applied.appendChild(el("h2", { class: "il-panel__title", text: S.applied_filters }));
    var list = el("ul", { class: "il-chips" });
    (TERMS.filter_order || FACETS).forEach(function (facet) {
      (filters[facet] || []).forEach(function (id) {
        var term = termIndex[facet + ":" + id];
        list.appendChild(el("li", {}, [el("button", {
          type: "button",
          class: "il-chip il-chip--" + facet + " il-chip--applied",
          "data-facet": facet,
          "data-term": id,
          "aria-label": format(S.remove_filter, { facet: facetLabels[facet], term: term.label }),
        }, [
          el("span", { class: "il-chip__facet", text: facetLabels[facet] + " = " }),
          document.createTextNode(term.label + " "),
          el("span", { "aria-hidden": "true", text: "×" }),
        ])]));
      });
    });
    applied.appendChild(list);
    applied.appendChild(el("button", { type: "button", class: "il-clear", "data-il-clear": "", text: S.clear_all }));
  }

  function labelOf(r, c, n) {
    return formatCount("matrix_cell", n, {
      row: termIndex[ROWS + ":" + rowIds[r]].label,
      col: termIndex[COLS + ":" + colIds[c]].label,
    });
  }

  // Counts, shades, labels and links of every cell; then which rows and columns show.
  function draw(filters, counted) {
    var filtered = counted !== null;
    var n = function (r, c) { return filtered ? counted.cell(r, c) : built[r][c] ? built[r][c].n : 0; };
    var maximum = 0;
    rowIds.forEach(function (_, r) { colIds.forEach(function (_, c) { maximum = Math.max(maximum, n(r, c)); }); });
    var scale = scaleFor(maximum);
    var rowUsed = rowIds.map(function () { return false; });
    var colUsed = colIds.map(function () { return false; });
    cells.forEach(function (row, r) {
      row.forEach(function (td, c) {
        var count = n(r, c);
        if (count) { rowUsed[r] = true; colUsed[c] = true; }
        var original = built[r][c];
        if (!filtered) setCell(td, count, original && original.href, original && original.label, shadeOf(scale, count));
        else setCell(td, count, cellHref(filters, rowIds[r], colIds[c]), labelOf(r, c, count), shadeOf(scale, count));
      });
    });
    drawLegend(scale);
    var hide = only.checked;
    var hiddenRows = 0;
    var hiddenCols = 0;
    rowEls.forEach(function (tr, r) { tr.hidden = hide && !rowUsed[r]; if (tr.hidden) hiddenRows += 1; });
    colHeads.forEach(function (th, c) {
      th.hidden = hide && !colUsed[c];
      if (th.hidden) hiddenCols += 1;
      cells.forEach(function (row) { row[c].hidden = th.hidden; });
    });
    var notes = [];
    if (filtered) notes.push(counted.total ? formatCount("matrix_filtered", counted.total) : S.matrix_no_cases);
    if (hiddenRows || hiddenCols) notes.push(format(S.matrix_hidden, { rows: hiddenRows, cols: hiddenCols }));
    status.textContent = notes.join(" ");
  }

  // ---- Flow ----------------------------------------------------------------------------------
  var filters = readFilters();
  var serial = 0;

  function run() {
    drawApplied(filters);
    var search = query(filters);
    others.forEach(function (other) { other.link.setAttribute("href", other.href + (search ? "?" + search : "")); });
    var ticket = ++serial;
    if (!hasFilters(filters)) {
      draw(filters, null);
      box.setAttribute("data-il-ready", "true");
      drawn();
      return Promise.resolve();
    }
    box.setAttribute("data-il-ready", "loading");
    return load().then(function () {
      if (ticket !== serial) return;
      draw(filters, count(filters));
      box.setAttribute("data-il-ready", "true");
      drawn();
    }, function () {
      // no graph data (a partial copy of the site): the table stays the whole one
      box.setAttribute("data-il-ready", "failed");
      drawn();
    });
  }

  // The table the address asks for is drawn (or cannot be): the head's pending state ends
  // (assets/theme.js), which kept the build's unfiltered counts from being painted first.
  function drawn() {
    document.documentElement.classList.remove("il-pending");
  }

  function setFilters(next) {
    filters = next;
    var search = query(filters);
    history.pushState(null, "", location.pathname + (search ? "?" + search : "") + location.hash);
    run();
  }

  applied.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    if (!button) return;
    if (button.hasAttribute("data-il-clear")) { setFilters({}); only.focus(); return; }
    var facet = button.getAttribute("data-facet");
    var id = button.getAttribute("data-term");
    var next = {};
    Object.keys(filters).forEach(function (f) {
      var ids = filters[f].filter(function (other) { return f !== facet || other !== id; });
      if (ids.length) next[f] = ids;
    });
    setFilters(next);
    // the chip is gone: keep the keyboard on the filters that are left, or on the toggle
    var left = applied.querySelector("button");
    (left || only).focus();
  });

  only.addEventListener("change", function () { run(); });
  window.addEventListener("popstate", function () { filters = readFilters(); run(); });

  only.checked = hasFilters(filters);
  tools.hidden = false;
  run();

  // For the tests: the same scale and strings as the build.
  window.IncidentMatrix = { scale: scaleFor, format: format, finalSound: finalSound };
})();
