// Incident Library: live search and faceted filtering on the library and term pages.
//
// The page is plain HTML that works without JavaScript; this script adds a search box, filter
// chips, recommended filters and live results on top. Its search data are classic scripts, so it
// works the same over http and opened from disk (file://), where browsers refuse module imports.
(function () {
  "use strict";

  var root = document.querySelector("[data-il-library]");
  var DATA = window.IncidentLibraryData || {};
  if (!root || !DATA.terms) return;

  var TERMS = DATA.terms;
  var S = TERMS.strings;
  var LANG = TERMS.lang;
  var SITE = root.getAttribute("data-il-site-root") || "";
  var LANG_ROOT = SITE + LANG + "/";
  var PAGE_SIZE = TERMS.page_size;
  var FULL_CARDS = TERMS.full_cards || 0;
  var SCOPE = parseScope(root.getAttribute("data-il-scope"));
  var FACETS = TERMS.facets.map(function (f) { return f.id; });
  // The roles taxonomy.yml gives facets: chips on cards, and the "check your cluster" list.
  var DESCRIPTIVE = TERMS.facets.filter(function (f) { return f.descriptive; }).map(function (f) { return f.id; });
  var CHECKLIST = (TERMS.facets.filter(function (f) { return f.checklist; })[0] || {}).id;
  // Applied filters in the taxonomy's filter order (descriptive facets, then context ones).
  var APPLIED_ORDER = TERMS.filter_order || FACETS;
  var termIndex = {};
  TERMS.facets.forEach(function (facet) {
    facet.terms.forEach(function (term) { termIndex[facet.id + ":" + term.id] = term; });
  });

  // Query words are analysed by the library's one search definition (search-core.js, with the
  // rules of generator/search/rules.yml that terms.js carries).
  var analyzer = new window.IncidentSearch.Analyzer(TERMS.rules);

  var HANGUL = /[\uac00-\ud7a3]/;

  function normalizeWord(word) {
    var words = analyzer.rawWords(word);
    return words.length ? analyzer.stem(words[0]) : "";
  }

  // ---- Recommended filters: taxonomy names found in the query ---------------------------
  function findTerms(query) {
    var text = (query || "").toLowerCase();
    var found = [];
    if (!text.trim()) return found;
    TERMS.facets.forEach(function (facet) {
      facet.terms.forEach(function (term) {
        term.names.forEach(function (name) {
          var needle = name.toLowerCase();
          var at = text.indexOf(needle);
          while (needle.length > 1 && at !== -1) {
            var before = at === 0 ? " " : text.charAt(at - 1);
            var after = text.charAt(at + needle.length) || " ";
            // A name must start at a word boundary; after it, a Latin name needs a boundary
            // but a Korean one may carry a particle ("인피니밴드가").
            var startsOk = !/[0-9a-z\uac00-\ud7a3]/.test(before);
            var endsOk = HANGUL.test(needle.slice(-1)) || !/[0-9a-z]/.test(after);
            if (startsOk && endsOk) {
              found.push({ facet: facet.id, term: term, start: at, end: at + needle.length });
              break;
            }
            at = text.indexOf(needle, at + 1);
          }
        });
      });
    });
    // Keep the longest match where matches overlap ("GPU 드라이버" over "GPU").
    found.sort(function (a, b) { return (b.end - b.start) - (a.end - a.start); });
    var kept = [];
    found.forEach(function (m) {
      var overlaps = kept.some(function (k) { return m.start < k.end && k.start < m.end; });
      var duplicate = kept.some(function (k) { return k.facet === m.facet && k.term.id === m.term.id; });
      if (!overlaps && !duplicate) kept.push(m);
    });
    return kept.sort(function (a, b) { return a.start - b.start; });
  }

  // ---- Engine ----------------------------------------------------------------------------
  // One engine (search-core.js) and one index whichever way the site is opened: the cases that
  // have a word come from the vocabulary part of its first letters (words/<start>.js), a
  // classic script that loads over http and from disk alike. A search loads the parts of its
  // words only; the engine needs each part anyway, to correct typos.
  var SEARCH = LANG_ROOT + "search/";

  function data() { return window.IncidentLibraryData || {}; }

  // Every search file is asked for with this build's stamp: cases are numbered by position, so a
  // copy cached from an earlier build could mean other cases.
  function loadScript(src) {
    return new Promise(function (resolve, reject) {
      var script = document.createElement("script");
      script.src = SEARCH + src + "?v=" + encodeURIComponent(TERMS.stamp || "");
      script.onload = resolve;
      script.onerror = function () { reject(new Error("could not load " + src)); };
      document.head.appendChild(script);
    });
  }

  function loadIndex() {
    return loadScript("index.js").then(function () {
      var payload = data().index;
      var docs = window.IncidentSearch.documents(payload, FACETS);
      return { docs: docs, synonyms: payload.synonyms, termNames: payload.termNames, termPhrases: payload.termPhrases };
    });
  }

  // A part's file name, with Korean spelled in ASCII as `part_file` does (outputs/search_data.py).
  function spellHangul(word) {
    return word.replace(/[\uac00-\ud7a3]/g, function (c) {
      return "q" + String(c.charCodeAt(0) - 0xac00 + 100000).slice(1);
    });
  }

  // A part of the vocabulary: the words that start with `start` (words/<start>.js), with the
  // cases that have each.
  var parts = {};
  var starts = null;
  function vocabularyPart(start) {
    if (!starts) starts = new Set(data().index.starts);
    if (!parts[start]) {
      var loaded = starts.has(start)
        ? loadScript("words/" + spellHangul(start) + ".js")
        : Promise.resolve();
      parts[start] = loaded.then(function () {
        var part = (data().words || {})[start] || { words: [], postings: [], shown: {}, lead: [], title: [], often: [] };
        return window.IncidentSearch.Vocabulary.fromPart(part);
      });
    }
    return parts[start];
  }

  function partsIndex() {
    return loadIndex().then(function (index) {
      index.name = "local";
      index.vocabulary = vocabularyPart;
      return index;
    });
  }

  function createEngine() {
    return partsIndex().then(function (loaded) {
      var engine = new window.IncidentSearch.Engine(TERMS.rules, loaded);
      engine.name = loaded.name;
      return engine;
    });
  }

  // Every case's id (ids.js), for a script that asks for a whole result's ids (the graph of a
  // query, IncidentLibrary.search): a list of cards needs only the ids its cards carry.
  var idsLoaded = null;
  function loadIds(engine) {
    if (!idsLoaded) {
      idsLoaded = loadScript("ids.js").then(
        function () { window.IncidentSearch.withIds(engine.index.docs, data().ids); },
        function () { idsLoaded = null; } // tried again next time; until then ids stay unknown
      );
    }
    return idsLoaded;
  }

  // The cards of the cases shown (by position), each from its own small script, and the passage
  // that shows why it matched.
  function loadTexts(positions) {
    return Promise.all(positions.map(function (at) {
      var texts = data().text || {};
      if (texts[at]) return texts[at];
      return loadScript("text/" + at + ".js").then(
        function () { return (data().text || {})[at]; },
        function () { return null; }
      );
    }));
  }

  // The labelled sections of each case shown (cards/<id>.js), when at most FULL_CARDS cases
  // remain: the list then reads like the case pages, as the reference page does.
  function loadSections(ids) {
    if (!ids.length || ids.length > FULL_CARDS) return Promise.resolve([]);
    return Promise.all(ids.map(function (id) {
      var cards = data().cards || {};
      if (id === null) return null;
      if (cards[id]) return cards[id];
      return loadScript("cards/" + encodeURIComponent(id) + ".js").then(
        function () { return (data().cards || {})[id]; },
        function () { return null; }
      );
    }));
  }

  // The page's cards: the full matches of `page`, and on the last page the first PAGE_SIZE of
  // the cases that match part of the query (`partialItems`, shown collapsed).
  function search(engine, query, filters, page, stale) {
    var texts = [];
    return engine.search(query, filters, { stale: stale }).then(function (result) {
      if (!result) return null;
      var positions = result.positions;
      var full = positions.slice(0, result.exact);
      var last = Math.max(1, Math.ceil(full.length / PAGE_SIZE));
      // A page past the last one (an old link, a shrunken library) shows the last page.
      result.page = Math.min(page, last);
      var shown = full.slice((result.page - 1) * PAGE_SIZE, result.page * PAGE_SIZE);
      var partial = result.page === last ? positions.slice(result.exact, result.exact + PAGE_SIZE) : [];
      var both = shown.concat(partial);
      return loadTexts(both).then(function (loaded) {
        texts = loaded;
        // A card that did not load is shown by its id alone, which ids.js then gives.
        var missing = texts.indexOf(null) !== -1 || texts.indexOf(undefined) !== -1;
        return missing ? loadIds(engine) : null;
      }).then(function () {
        var ids = both.map(function (at, n) { return texts[n] ? texts[n].id : engine.index.docs[at].id; });
        return Promise.all([ids, loadSections(full.length <= FULL_CARDS ? ids.slice(0, shown.length) : [])]);
      }).then(function (loaded) {
        var ids = loaded[0];
        var sections = loaded[1];
        if (stale && stale()) return null;
        var items = both.map(function (at, n) {
          var text = texts[n];
          var id = ids[n];
          if (!text) return { id: id, url: "cases/" + id + ".html", title: id, summary: "", terms: {} };
          var item = Object.assign({}, text);
          if (sections[n]) item.sections = sections[n];
          if (result.groups.length) item.passage = engine.passage(text.sentences, result.groups, result.weights);
          return item;
        });
        result.items = items.slice(0, shown.length);
        result.partialItems = items.slice(shown.length);
        result.allIds = function (limit) {
          return loadIds(engine).then(function () {
            return positions.slice(0, limit).map(function (at) { return engine.index.docs[at].id; });
          });
        };
        // How many of the cases found (the full matches) carry each term, facet by facet: the "check your cluster"
        // list and each facet's "원인별 N" (the values present in these results), where the
        // facet counts say what choosing each value would give.
        var present = {};
        FACETS.forEach(function (facet) { present[facet] = {}; });
        full.forEach(function (at) {
          var terms = engine.index.docs[at].terms;
          FACETS.forEach(function (facet) {
            (terms[facet] || []).forEach(function (id) { present[facet][id] = (present[facet][id] || 0) + 1; });
          });
        });
        result.present = present;
        result.checklistCounts = CHECKLIST ? present[CHECKLIST] : {};
        return result;
      });
    });
  }

  // ---- State in the URL ------------------------------------------------------------------
  function parseScope(value) {
    if (!value) return null;
    var parts = value.split(":");
    return { facet: parts[0], id: parts[1] };
  }

  function readState() {
    var params = new URLSearchParams(location.search);
    var filters = {};
    FACETS.forEach(function (facet) {
      var value = params.get(facet);
      if (value) {
        filters[facet] = value.split(",").filter(function (id) { return termIndex[facet + ":" + id]; });
        if (!filters[facet].length) delete filters[facet];
      }
    });
    var page = Number(params.get("page") || "1");
    return {
      query: window.IncidentSearch.boundedQuery(params.get("q") || "", TERMS.rules),
      filters: filters,
      page: page >= 1 && page === Math.floor(page) ? page : 1, // ?page=-3, ?page=x: the first
      graph: params.get("graph") === "1",
    };
  }

  function stateUrl(state) {
    var params = new URLSearchParams();
    if (state.query) params.set("q", state.query);
    FACETS.forEach(function (facet) {
      if (state.filters[facet] && state.filters[facet].length) params.set(facet, state.filters[facet].join(","));
    });
    if (state.page > 1) params.set("page", String(state.page));
    if (state.graph) params.set("graph", "1");
    var search = params.toString();
    return location.pathname + (search ? "?" + search : "");
  }

  function isEmpty(state) {
    return !state.query && !Object.keys(state.filters).length && state.page === 1;
  }
  // (the graph view flag is not part of the results, so it does not make a view "filtered")

  // ---- Rendering -----------------------------------------------------------------------
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      if (key === "text") node.textContent = attrs[key];
      else node.setAttribute(key, attrs[key]);
    });
    (children || []).forEach(function (child) { if (child) node.appendChild(child); });
    return node;
  }

  function format(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_, key) { return String(values[key]); });
  }

  function facetLabel(facetId) {
    for (var i = 0; i < TERMS.facets.length; i++) if (TERMS.facets[i].id === facetId) return TERMS.facets[i].label;
    return facetId;
  }

  function chip(facet, id, extra) {
    var term = termIndex[facet + ":" + id];
    if (!term) return null;
    var attrs = { class: "il-chip il-chip--" + facet, href: LANG_ROOT + term.url, "data-facet": facet, "data-term": id };
    return el("a", Object.assign(attrs, extra || {}), [document.createTextNode(term.label)]);
  }

  function card(item) {
    var link = el("a", { href: LANG_ROOT + item.url, text: item.title });
    if (item.lang && item.lang !== LANG) link.setAttribute("lang", item.lang);
    var chips = el("ul", { class: "il-chips il-chips--compact" });
    DESCRIPTIVE.forEach(function (facet) {
      (item.terms[facet] || []).forEach(function (id) {
        var c = chip(facet, id);
        if (c) chips.appendChild(el("li", {}, [c]));
      });
    });
    var passage = item.passage;
    var summary = passage && passage.text === item.summary
      ? marked("p", { class: "il-card__summary" }, passage)
      : el("p", { class: "il-card__summary", text: item.summary });
    if (item.lang && item.lang !== LANG) summary.setAttribute("lang", item.lang);
    var quote = null;
    if (passage && passage.text !== item.summary) {
      // Why it matched: the sentence with the most of the query, its words marked.
      quote = marked("p", { class: "il-card__passage", "data-il-passage": "" }, passage);
      if (item.lang && item.lang !== LANG) quote.setAttribute("lang", item.lang);
    }
    return el("article", { class: "il-card" + (item.sections ? " il-card--full" : ""), "data-case": item.id }, [
      el("h3", { class: "il-card__title" }, [link]),
      el("p", { class: "il-card__meta", text: (item.org ? item.org + " · " : "") + S.occurred + " " + item.date }),
      summary,
      quote,
      item.sections ? sectionsNode(item.sections) : chips,
    ]);
  }

  // The sections as the build rendered them (generator/render/renderer.py, the same markup as a
  // term page with a few cases), its links made relative to this page. The build writes this
  // HTML from sanitised Markdown; it is parsed inert and holds no script.
  function sectionsNode(html) {
    var template = document.createElement("template");
    template.innerHTML = html.split(TERMS.root_mark).join(SITE);
    return template.content.firstElementChild;
  }

  function marked(tag, attrs, passage) {
    var node = el(tag, attrs);
    var at = 0;
    passage.marks.forEach(function (mark) {
      if (mark[0] > at) node.appendChild(document.createTextNode(passage.text.slice(at, mark[0])));
      node.appendChild(el("mark", { text: passage.text.slice(mark[0], mark[1]) }));
      at = mark[1];
    });
    if (at < passage.text.length) node.appendChild(document.createTextNode(passage.text.slice(at)));
    return node;
  }

  var ui = {};

  // The search box, applied and recommended filters are the page's own (_search.html): this
  // script fills them in and listens, nothing is inserted above the results.
  function buildControls() {
    var panel = document.querySelector("[data-il-search]");
    var input = panel.querySelector("[data-il-query]");
    var drawer = buildDrawer(panel.querySelector("[data-il-drawer-open]"));
    // the longest question the rules read (search-core's boundedQuery cuts the rest)
    if (TERMS.rules.max_query_chars) input.maxLength = TERMS.rules.max_query_chars;
    ui = {
      panel: panel,
      drawer: drawer,
      input: input,
      applied: panel.querySelector("[data-il-applied]"),
      suggestions: panel.querySelector("[data-il-suggest]"),
      note: root.querySelector("[data-il-note]"),
      count: root.querySelector("[data-il-count]"),
      range: root.querySelector("[data-il-range]"),
      cards: root.querySelector("[data-il-cards]"),
      pagination: root.querySelector(".il-pagination"),
      results: root.querySelector(".il-library__results"),
    };
    if (ui.count) {
      ui.count.setAttribute("aria-live", "polite");
      ui.count.setAttribute("tabindex", "-1"); // where focus goes after paging or the drawer
    }
    var timer = null;
    input.addEventListener("input", function () {
      root.setAttribute("data-il-ready", "pending");
      clearTimeout(timer);
      timer = setTimeout(function () { update({ query: input.value, page: 1 }, "replace"); }, 180);
    });
    input.addEventListener("keydown", function (event) {
      if (event.key === "Enter") { clearTimeout(timer); update({ query: input.value, page: 1 }, "push"); }
    });
    root.addEventListener("click", onFacetClick);
    panel.addEventListener("click", onPanelClick);
    listenToHeaderSearch();
  }

  // The header's search box (overrides/partials/header.html) sends a query to this page; here
  // it is run in place, as if typed into the page's own box. A term page's header searches the
  // whole library, so there the form goes to the library page as everywhere else.
  function listenToHeaderSearch() {
    var form = document.querySelector("[data-il-header-search]");
    if (!form || SCOPE) return;
    form.addEventListener("submit", function (event) {
      var field = form.querySelector("input[name='q']");
      event.preventDefault();
      var query = field.value.trim();
      field.value = "";
      field.blur();
      update({ query: query, page: 1 }, "push");
      ui.input.focus({ preventScroll: true });
      showResults();
    });
  }

  // Bring the results' heading into view: below the sticky header and Material's back-to-top
  // button (library.css gives the heading a scroll margin for both).
  function showResults() {
    if (ui.count && ui.count.getBoundingClientRect().top < 0) ui.count.scrollIntoView({ block: "start" });
  }

  // ---- Phones: the facet lists in a drawer ------------------------------------------------
  // Below 60em the facet lists come after every result, far down the page. A button under the
  // search box (shown only there, by library.css) opens them over the page instead; the
  // drawer's own button closes it and says how many cases the filters now give.
  function buildDrawer(open) {
    var facets = root.querySelector(".il-library__facets");
    if (!facets || !open) return null;
    facets.id = facets.id || "il-facets";
    var close = el("button", { type: "button", class: "il-drawer__close md-button md-button--primary", "data-il-drawer-close": "" });
    var head = el("div", { class: "il-drawer__head" }, [
      el("h2", { class: "il-drawer__title", id: "il-drawer-title", text: S.filters }),
      close,
    ]);
    facets.insertBefore(head, facets.firstChild);

    // While open, the drawer is the page: everything outside it is inert (no focus, no clicks,
    // not read), so Tab and Shift+Tab stay inside and nothing behind it can be paged.
    var inerted = [];
    function holdFocus(value) {
      inerted.forEach(function (node) { node.inert = false; });
      inerted = [];
      if (!value) return;
      for (var node = facets; node && node !== document.body; node = node.parentElement) {
        Array.prototype.forEach.call(node.parentElement.children, function (sibling) {
          if (sibling !== node && !sibling.inert && sibling.tagName !== "SCRIPT") {
            sibling.inert = true;
            inerted.push(sibling);
          }
        });
      }
    }

    function setOpen(value, focus) {
      root.classList.toggle("il-drawer-open", value);
      document.documentElement.classList.toggle("il-drawer-lock", value);
      open.setAttribute("aria-expanded", String(value));
      holdFocus(value);
      if (value) {
        facets.setAttribute("role", "dialog");
        facets.setAttribute("aria-modal", "true");
        facets.setAttribute("aria-labelledby", "il-drawer-title");
        close.focus();
      } else {
        facets.setAttribute("role", "region");
        facets.removeAttribute("aria-modal");
        facets.removeAttribute("aria-labelledby");
        (focus || open).focus({ preventScroll: !!focus });
      }
    }
    open.addEventListener("click", function () { setOpen(true); });
    // "Show N cases": the drawer closes onto the results it promised.
    close.addEventListener("click", function () {
      setOpen(false, ui.count);
      if (ui.count) ui.count.scrollIntoView({ block: "start" });
    });
    document.addEventListener("keydown", function (event) {
      if (!root.classList.contains("il-drawer-open")) return;
      if (event.key === "Escape") setOpen(false);
      // Tab past the last control comes back to the first, Shift+Tab past the first to the
      // last, rather than out to the browser's own controls.
      if (event.key !== "Tab") return;
      var stops = Array.prototype.filter.call(
        facets.querySelectorAll("a[href], button, input, [tabindex]:not([tabindex='-1'])"),
        function (node) { return node.getClientRects().length && !node.disabled; }
      );
      var first = stops[0], last = stops[stops.length - 1];
      if (event.shiftKey && (document.activeElement === first || !facets.contains(document.activeElement))) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (document.activeElement === last || !facets.contains(document.activeElement))) {
        event.preventDefault();
        first.focus();
      }
    });
    return { open: open, close: close };
  }

  function renderFilterButton(total) {
    if (!ui.drawer) return;
    var n = 0;
    Object.keys(state.filters).forEach(function (f) { n += state.filters[f].length; });
    ui.drawer.open.textContent = n ? format(S.filters_applied, { n: n }) : S.filters;
    if (typeof total === "number") {
      ui.drawer.close.textContent = format(total === 1 ? S.show_cases_one : S.show_cases, { n: total.toLocaleString(LANG) });
    } else if (!ui.drawer.close.textContent) {
      ui.drawer.close.textContent = S.close_filters;
    }
  }

  function onFacetClick(event) {
    var link = event.target.closest(
      ".il-library__facets a[data-term], .il-card a[data-term], [data-il-summary] a[data-term]"
    );
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    if (link.getAttribute("aria-disabled") === "true") return;
    toggle(link.getAttribute("data-facet"), link.getAttribute("data-term"));
    revealResults = true;
  }

  function onPanelClick(event) {
    var button = event.target.closest("button[data-il-action]");
    if (!button) return;
    var action = button.getAttribute("data-il-action");
    var facet = button.getAttribute("data-facet");
    var id = button.getAttribute("data-term");
    // The button goes away with the filter: focus moves to the chip that takes its place, or to
    // the search box when none is left, never to <body>.
    var chips = Array.prototype.slice.call(ui.applied.querySelectorAll("button[data-il-action]"));
    var at = chips.indexOf(button);
    if (action === "remove") toggle(facet, id);
    else if (action === "clear-query") update({ query: "", page: 1 }, "push");
    else if (action === "clear") update({ query: "", filters: {}, page: 1 }, "push");
    if (action === "remove" || action === "clear-query" || action === "clear") {
      var left = ui.applied.querySelectorAll("button.il-chip--applied");
      var next = action === "clear" ? null : left[Math.min(at, left.length - 1)];
      (next || ui.input).focus();
      return;
    }
    else if (action === "suggest") {
      var query = state.query;
      var start = Number(button.getAttribute("data-start"));
      var end = Number(button.getAttribute("data-end"));
      query = (query.slice(0, start) + query.slice(end)).replace(/\s+/g, " ").trim();
      var filters = copyFilters(state.filters);
      filters[facet] = (filters[facet] || []).concat(filters[facet] && filters[facet].indexOf(id) !== -1 ? [] : [id]);
      update({ query: query, filters: filters, page: 1 }, "push");
      // The suggestion became an applied filter: the keyboard follows it there.
      var chip = ui.applied.querySelector("button[data-facet='" + facet + "'][data-term='" + id + "']");
      (chip || ui.input).focus();
    }
  }

  function copyFilters(filters) {
    var out = {};
    Object.keys(filters).forEach(function (f) { out[f] = filters[f].slice(); });
    return out;
  }

  function toggle(facet, id) {
    if (SCOPE && SCOPE.facet === facet && SCOPE.id === id) return;
    var filters = copyFilters(state.filters);
    var list = filters[facet] || [];
    var at = list.indexOf(id);
    if (at === -1) list.push(id); else list.splice(at, 1);
    if (list.length) filters[facet] = list; else delete filters[facet];
    update({ filters: filters, page: 1 }, "push");
  }

  function renderApplied() {
    var node = ui.applied;
    node.textContent = "";
    var facets = APPLIED_ORDER.filter(function (f) { return state.filters[f] && state.filters[f].length; });
    if (!facets.length && !state.query) { node.hidden = true; return; }
    node.hidden = false;
    node.appendChild(el("h2", { class: "il-panel__title", text: S.applied_filters }));
    var list = el("ul", { class: "il-chips" });
    if (state.query) {
      list.appendChild(el("li", {}, [el("button", {
        type: "button",
        class: "il-chip il-chip--query il-chip--applied",
        "data-il-action": "clear-query",
        "aria-label": format(S.remove_query, { q: state.query }),
      }, [
        el("span", { class: "il-chip__facet", text: S.query_label + " = " }),
        document.createTextNode(state.query + " "),
        el("span", { "aria-hidden": "true", text: "×" }),
      ])]));
    }
    facets.forEach(function (facet) {
      state.filters[facet].forEach(function (id) {
        var term = termIndex[facet + ":" + id];
        var button = el("button", {
          type: "button",
          class: "il-chip il-chip--" + facet + " il-chip--applied",
          "data-il-action": "remove",
          "data-facet": facet,
          "data-term": id,
          "aria-label": format(S.remove_filter, { facet: facetLabel(facet), term: term.label }),
        }, [
          el("span", { class: "il-chip__facet", text: facetLabel(facet) + " = " }),
          document.createTextNode(term.label + " "),
          el("span", { "aria-hidden": "true", text: "×" }),
        ]);
        list.appendChild(el("li", {}, [button]));
      });
    });
    node.appendChild(list);
    node.appendChild(el("button", { type: "button", class: "il-clear", "data-il-action": "clear", text: S.clear_all }));
  }

  function renderSuggestions() {
    var node = ui.suggestions;
    node.textContent = "";
    var found = findTerms(state.query).filter(function (m) {
      return !(state.filters[m.facet] || []).includes(m.term.id) && !(SCOPE && SCOPE.facet === m.facet && SCOPE.id === m.term.id);
    });
    if (!found.length) {
      node.appendChild(el("p", { class: "il-suggest__empty", text: state.query ? S.no_suggestions : S.suggest_empty }));
      return;
    }
    var list = el("ul", { class: "il-chips" });
    found.forEach(function (m) {
      list.appendChild(el("li", {}, [el("button", {
        type: "button",
        class: "il-chip il-chip--" + m.facet + " il-chip--suggested",
        "data-il-action": "suggest",
        "data-facet": m.facet,
        "data-term": m.term.id,
        "data-start": String(m.start),
        "data-end": String(m.end),
      }, [
        el("span", { "aria-hidden": "true", text: "+ " }),
        document.createTextNode(m.term.label + " "),
        el("span", { class: "il-chip__facet", text: "(" + facetLabel(m.facet) + ")" }),
      ])]));
    });
    node.appendChild(list);
  }

  function renderFacetCounts(counts, present) {
    // "원인별 N": how many causes these results have (the reference page's count).
    root.querySelectorAll(".il-library__facets .il-facet[data-facet]").forEach(function (section) {
      var total = section.querySelector(".il-facet__total");
      var facet = section.getAttribute("data-facet");
      if (total && present[facet]) total.textContent = String(Object.keys(present[facet]).length);
    });
    root.querySelectorAll(".il-library__facets a[data-term]").forEach(function (link) {
      var facet = link.getAttribute("data-facet");
      var id = link.getAttribute("data-term");
      var count = (counts[facet] && counts[facet][id]) || 0;
      var active = (state.filters[facet] || []).indexOf(id) !== -1 || (SCOPE && SCOPE.facet === facet && SCOPE.id === id);
      var countNode = link.querySelector(".il-facet__count, .il-chip__count");
      if (countNode) countNode.textContent = String(count);
      // Links stay links (they lead to the term page without JavaScript); the active ones are
      // marked as the current selection.
      if (active) link.setAttribute("aria-current", "true");
      else link.removeAttribute("aria-current");
      link.classList.toggle("il-facet--active", !!active);
      // A value that would give no case is shown, but cannot be chosen.
      link.classList.toggle("il-facet--empty", !count && !active);
      if (!count && !active) link.setAttribute("aria-disabled", "true");
      else link.removeAttribute("aria-disabled");
    });
  }

  function renderTopComponents(counts, total) {
    var lead = root.querySelector("[data-il-cluster-lead]");
    if (lead) lead.textContent = total === 1 ? S.cluster_lead_one : S.cluster_lead;
    var box = root.querySelector("[data-il-top-components]");
    if (!box || !CHECKLIST) return;
    var top = Object.keys(counts)
      .filter(function (id) { return counts[id] > 0 && termIndex[CHECKLIST + ":" + id]; })
      .sort(function (a, b) {
        return counts[b] - counts[a] || termIndex[CHECKLIST + ":" + a].label.localeCompare(termIndex[CHECKLIST + ":" + b].label);
      })
      .slice(0, 5);
    var list = el("ul", { class: "il-chips" });
    top.forEach(function (id) { list.appendChild(el("li", {}, [chip(CHECKLIST, id)])); });
    box.textContent = "";
    box.appendChild(list);
  }

  function renderPagination(total) {
    var pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
    var nav = ui.pagination;
    if (!nav) {
      nav = el("nav", { class: "il-pagination", "aria-label": S.pagination });
      ui.results.appendChild(nav);
      ui.pagination = nav;
    }
    nav.textContent = "";
    nav.hidden = pages <= 1;
    if (pages <= 1) return;
    var list = el("ul");
    function pageLink(n, text, rel) {
      var target = Object.assign({}, state, { page: n });
      var attrs = { href: stateUrl(target), "data-page": String(n), text: text };
      if (rel) attrs.rel = rel;
      if (n === state.page && !rel) attrs["aria-current"] = "page";
      else if (!rel) attrs["aria-label"] = format(S.page_n, { n: n });
      return el("li", {}, [el("a", attrs)]);
    }
    if (state.page > 1) list.appendChild(pageLink(state.page - 1, S.previous, "prev"));
    window.IncidentSearch.pageItems(state.page, pages, TERMS.pages_around).forEach(function (n) {
      if (n !== null) list.appendChild(pageLink(n, String(n)));
      else list.appendChild(el("li", {}, [el("span", { class: "il-pagination__gap", "aria-hidden": "true", text: "…" })]));
    });
    if (state.page < pages) list.appendChild(pageLink(state.page + 1, S.next, "next"));
    nav.appendChild(list);
    nav.onclick = function (event) {
      var link = event.target.closest("a[data-page]");
      // A new tab or window (Ctrl/Cmd/Shift-click, a middle click) opens the link's own URL.
      if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      update({ page: Number(link.getAttribute("data-page")) }, "push");
      // The list is new and the link is gone with the old one: the keyboard goes to its heading.
      ui.count.focus({ preventScroll: true });
      ui.count.scrollIntoView({ block: "start" });
    };
  }

  function renderResults(result) {
    if (result.page !== state.page) {
      // Past the last page: show the last one, and say so in the address.
      state = Object.assign({}, state, { page: result.page });
      history.replaceState(null, "", stateUrl(state));
      updateAlternates();
    }
    // The results are the cases that match the whole query; those that match part of it follow,
    // collapsed, under their own heading.
    var total = result.exact;
    var start = total ? (state.page - 1) * PAGE_SIZE + 1 : 0;
    var end = Math.min(total, state.page * PAGE_SIZE);
    var note = state.query ? format(S.query_note, { q: state.query }) : S.newest_first_note;
    (result.corrections || []).forEach(function (pair) {
      note += " " + format(S.corrected_word, { typed: pair[0], taken: pair[1] });
    });
    if (result.dropped && result.dropped.length) note += " " + format(S.dropped_words, { words: result.dropped.join(", ") });
    if (result.ignored && result.ignored.length) note += " " + format(S.ignored_words, { n: TERMS.rules.max_query_words });
    if (ui.note) ui.note.textContent = note;
    ui.count.textContent = format(total === 1 ? S.cases_count_one : S.cases_count, { n: total.toLocaleString(LANG) });
    ui.range.textContent = total ? format(S.range, { total: total.toLocaleString(LANG), start: start, end: end }) : S.no_results;
    ui.cards.textContent = "";
    result.items.forEach(function (item) { ui.cards.appendChild(card(item)); });
    var partial = result.partialItems || [];
    if (partial.length) {
      var count = result.total - result.exact;
      var summary = el("summary", { class: "il-cards__partial", text: format(S.partial_heading, { n: count.toLocaleString(LANG) }) });
      var details = el("details", { class: "il-partial", "data-il-partial": "" }, [summary]);
      partial.forEach(function (item) { details.appendChild(card(item)); });
      if (count > partial.length) details.appendChild(el("p", { class: "il-partial__more", text: format(S.partial_more, { shown: partial.length }) }));
      ui.cards.appendChild(details);
    }
    renderPagination(total);
    renderFacetCounts(result.counts, result.present || {});
    renderFilterButton(total);
    renderTopComponents(result.checklistCounts || {}, total);
    if (ui.results) ui.results.removeAttribute("aria-busy");
    root.setAttribute("data-il-ready", "true");
    drawn();
    lastResults = { state: state, result: result };
    root.dispatchEvent(new CustomEvent("il:results", { detail: lastResults }));
  }

  // ---- Flow ------------------------------------------------------------------------------
  var state = readState();
  var lastResults = null; // the detail of the last il:results event, for scripts that start later
  var engine = null;
  var serial = 0;

  function effectiveFilters() {
    var filters = copyFilters(state.filters);
    if (SCOPE) {
      filters[SCOPE.facet] = filters[SCOPE.facet] || [];
      if (filters[SCOPE.facet].indexOf(SCOPE.id) === -1) filters[SCOPE.facet].push(SCOPE.id);
    }
    return filters;
  }

  function update(changes, mode) {
    var next = Object.assign({}, state, changes);
    var url = stateUrl(next);
    state = next;
    if (mode === "push" && url !== location.pathname + location.search) history.pushState(null, "", url);
    else if (mode === "replace") history.replaceState(null, "", url);
    if (ui.input.value !== state.query) ui.input.value = state.query;
    updateAlternates();
    run();
  }

  // ---- The language switch keeps the view ------------------------------------------------
  // Term ids, the query and page numbers mean the same in both languages, so the switch
  // (overrides/partials/alternate.html) leads to the same view in the other language.
  var alternates = Array.prototype.slice.call(document.querySelectorAll("a[data-il-alternate]"));
  alternates.forEach(function (a) { a.setAttribute("data-il-href", a.getAttribute("href")); });
  function updateAlternates() {
    var query = stateUrl(state).slice(location.pathname.length);
    alternates.forEach(function (a) { a.setAttribute("href", a.getAttribute("data-il-href") + query); });
  }

  // After a filter chosen low in the facet list, the results it gives are brought into view
  // (the facet list stays where it was, and keeps the focus).
  var revealResults = false;
  function reveal() {
    if (!revealResults) return;
    revealResults = false;
    if (root.classList.contains("il-drawer-open")) return; // the drawer's button shows them
    if (ui.count.getBoundingClientRect().top < 0) ui.count.scrollIntoView({ block: "start" });
  }

  function run() {
    renderApplied();
    renderSuggestions();
    renderFilterButton();
    root.setAttribute("data-il-ready", "pending");
    if (ui.results) ui.results.setAttribute("aria-busy", "true");
    var ticket = ++serial;
    function stale() { return ticket !== serial; }
    return ensureEngine().then(function (engine) {
      return search(engine, state.query, effectiveFilters(), state.page, stale);
    }).then(function (result) {
      if (result && !stale()) {
        renderResults(result);
        reveal();
      }
    }, function () {
      // The search data did not load (a partial copy of the site): say so, and show the page.
      if (stale()) return;
      enginePromise = null; // tried again on the next change
      ui.range.textContent = S.load_failed;
      if (ui.results) ui.results.removeAttribute("aria-busy");
      root.setAttribute("data-il-ready", "failed");
      drawn();
    });
  }

  // The view the address asked for is on the page (or cannot be): nothing is held back now.
  function drawn() {
    document.documentElement.classList.remove("il-pending");
  }

  // The engine and its index (search/index.js) load on the reader's first
  // interaction, or at once when the URL asks for a filtered view: the unfiltered page is
  // already rendered, so a reader who only browses downloads no search data.
  var enginePromise = null;
  function ensureEngine() {
    if (!enginePromise) {
      root.setAttribute("data-il-ready", "loading");
      if (ui.range && !isEmpty(state)) ui.range.textContent = S.loading;
      enginePromise = createEngine().then(function (created) {
        engine = created;
        root.setAttribute("data-il-engine", engine.name);
        return engine;
      });
    }
    return enginePromise;
  }

  window.addEventListener("popstate", function () {
    state = readState();
    ui.input.value = state.query;
    updateAlternates();
    run();
  });

  buildControls();
  ui.input.value = state.query;
  // An address this page reads differently (?page=-3, an unknown term) is said as it is read.
  if (stateUrl(state) !== location.pathname + location.search) history.replaceState(null, "", stateUrl(state) + location.hash);
  updateAlternates();
  renderApplied();
  renderSuggestions();
  renderFilterButton();
  ui.panel.classList.add("il-live");
  if (isEmpty(state)) {
    root.setAttribute("data-il-ready", "true");
    drawn();
    ui.input.addEventListener("focus", ensureEngine, { once: true });
  } else {
    run();
  }

  window.IncidentLibrary = {
    toggle: toggle,
    view: function () { return { graph: state.graph }; },
    results: function () { return lastResults; },
    setView: function (view) {
      if (!!view.graph !== state.graph) {
        state = Object.assign({}, state, { graph: !!view.graph });
        history.replaceState(null, "", stateUrl(state));
      }
    },
    normalizeWord: normalizeWord,
    queryWords: function (query) { return analyzer.words(query); },
    findTerms: findTerms,
    engine: function () { return ensureEngine().then(function (e) { return e.name; }); },
    // The whole result, every case's id included (`ids`), for scripts and tests.
    search: function (query, filters, page) {
      return ensureEngine().then(function (e) {
        return loadIds(e).then(function () { return search(e, query, filters || {}, page || 1, null); });
      });
    },
  };
})();
