// Incident Library: the search, as generator/search/rules.yml defines it, for the browser.
//
// One engine for both ways the site is opened: the cases that have a word come from the
// vocabulary parts (words/<start>.js, loaded by library.js); everything else (query words,
// synonyms, typos, leaving words out, ranking, facets, the quoted passage) is this file. The
// agent server's engine (generator/search/engine.py) follows the same rules; tests/search/ runs
// one set of vectors through both. Loads as a classic script (window.IncidentSearch) and as a
// Node module (for those tests).
(function (root, factory) {
  "use strict";
  var api = factory();
  if (typeof module === "object" && module.exports) module.exports = api;
  else root.IncidentSearch = api;
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  var HANGUL = /^[\uac00-\ud7a3]/;

  // ---- Text -> words -------------------------------------------------------------------------
  function Analyzer(rules) {
    this.rules = rules;
    this.word = new RegExp(rules.word_pattern, "g");
    this.thousands = new RegExp(rules.thousands, "g");
    this.endings = rules.korean.endings; // longest first, as the build ordered them
    this.endingSet = {};
    for (var i = 0; i < this.endings.length; i++) this.endingSet[this.endings[i]] = true;
    this.stopwords = {};
    for (var j = 0; j < rules.stopwords.length; j++) this.stopwords[rules.stopwords[j]] = true;
  }

  Analyzer.prototype.rawWords = function (text) {
    var normal = String(text || "").normalize("NFKC").toLowerCase().replace(this.thousands, "");
    var found = normal.match(this.word) || [];
    var out = [];
    for (var i = 0; i < found.length; i++) {
      var raw = found[i];
      if (this.stopwords[raw]) continue;
      if (HANGUL.test(raw) && this.endingSet[raw]) continue;
      out.push(raw);
    }
    return out;
  };

  Analyzer.prototype.koreanStem = function (word) {
    var minimum = this.rules.korean.min_stem;
    for (var i = 0; i < this.endings.length; i++) {
      var ending = this.endings[i];
      if (word.length - ending.length >= minimum && word.slice(-ending.length) === ending) {
        return word.slice(0, -ending.length);
      }
    }
    return word;
  };

  Analyzer.prototype.englishStem = function (word) {
    if (!/^[a-z]+$/.test(word)) return word; // numbers, versions, error codes as written
    var rules = this.rules.english.rules;
    for (var i = 0; i < rules.length; i++) {
      var rule = rules[i];
      if (word.slice(-rule.suffix.length) !== rule.suffix) continue;
      var stem = word.slice(0, -rule.suffix.length);
      if (stem.length < rule.min_stem) continue;
      if (rule.after && !endsWithAny(stem, rule.after)) continue;
      if (rule.not_after && endsWithAny(stem, rule.not_after)) continue;
      return stem + rule.replace;
    }
    return word;
  };

  function endsWithAny(word, suffixes) {
    for (var i = 0; i < suffixes.length; i++) {
      if (word.slice(-suffixes[i].length) === suffixes[i]) return true;
    }
    return false;
  }

  Analyzer.prototype.stem = function (raw) {
    return HANGUL.test(raw) ? this.koreanStem(raw) : this.englishStem(raw);
  };

  Analyzer.prototype.longEnough = function (word) {
    if (HANGUL.test(word)) return word.length >= this.rules.min_length.hangul;
    return word.length >= this.rules.min_length.latin;
  };

  Analyzer.prototype.words = function (text) {
    var out = [];
    var raws = this.rawWords(text);
    for (var i = 0; i < raws.length; i++) {
      var word = this.stem(raws[i]);
      if (this.longEnough(word)) out.push(word);
    }
    return out;
  };

  // ---- Typos -----------------------------------------------------------------------------------
  // Edits (insert, delete, replace, or swap two neighbours) from a to b, or limit + 1 as soon as
  // it must exceed limit.
  function editDistance(a, b, limit) {
    if (Math.abs(a.length - b.length) > limit) return limit + 1;
    var before = [];
    var previous = [];
    for (var j = 0; j <= b.length; j++) previous.push(j);
    for (var i = 1; i <= a.length; i++) {
      var current = [i];
      var smallest = i;
      for (var k = 1; k <= b.length; k++) {
        var cost = a.charAt(i - 1) === b.charAt(k - 1) ? 0 : 1;
        var value = Math.min(previous[k] + 1, current[k - 1] + 1, previous[k - 1] + cost);
        if (i > 1 && k > 1 && a.charAt(i - 1) === b.charAt(k - 2) && a.charAt(i - 2) === b.charAt(k - 1)) {
          value = Math.min(value, before[k - 2] + 1);
        }
        current.push(value);
        if (value < smallest) smallest = value;
      }
      if (smallest > limit) return limit + 1;
      before = previous;
      previous = current;
    }
    return previous[b.length];
  }

  // `vocabulary`: the words that start as `word` does, with their frequencies.
  function correction(word, vocabulary, rules) {
    var typo = rules.typo;
    var korean = HANGUL.test(word);
    if (word.length < (korean ? typo.korean_min_length : typo.min_length)) return null;
    var limit = 0;
    for (var i = 0; i < typo.max_distance.length; i++) {
      if (word.length >= typo.max_distance[i][0]) limit = typo.max_distance[i][1];
    }
    if (korean) limit = 1;
    var best = null;
    for (var w = 0; w < vocabulary.words.length; w++) {
      var candidate = vocabulary.words[w];
      if (Math.abs(candidate.length - word.length) > limit) continue;
      var distance = editDistance(word, candidate, limit);
      if (distance > limit) continue;
      var key = [distance, -vocabulary.freq[w], candidate];
      if (!best || compareKeys(key, best) < 0) best = key;
    }
    return best ? best[2] : null;
  }

  function compareKeys(a, b) {
    for (var i = 0; i < a.length; i++) {
      if (a[i] < b[i]) return -1;
      if (a[i] > b[i]) return 1;
    }
    return 0;
  }

  // ---- The engine ------------------------------------------------------------------------------
  // An index: { docs: [{id, terms: {facet: [ids]}, order}], synonyms: {word: [words]},
  // postings(word) -> Set or Promise<Set> of doc positions, fields(word) -> {lead: Set, title: Set}
  // (or a Promise of it) of the docs with such a word in their lead and in their titles,
  // vocabulary(start) -> Vocabulary or Promise<Vocabulary> of the words that begin with `start` }.
  // Postings are a prefix match: the cases with a word that starts with `word`, or, when no
  // indexed word does, those with the longest indexed word it starts with.

  function Engine(rules, index) {
    this.rules = rules;
    this.analyzer = new Analyzer(rules);
    this.index = index;
    this.cache = {};
  }

  // The cases with a word that starts with `word` (asked of the index only when the vocabulary
  // says some word does); else those with the longest indexed word `word` starts with, if that
  // is most of it (`fallback`).
  Engine.prototype.postings = function (word) {
    var self = this;
    var cache = this.cache;
    if (!cache[word]) {
      cache[word] = this.vocabulary(startOf(word, this.rules)).then(function (vocabulary) {
        if (vocabulary.hasPrefix(word)) return self.index.postings(word);
        var share = self.rules.fallback[HANGUL.test(word) ? "hangul" : "latin"];
        var shortest = Math.max(1, Math.ceil((word.length * share[0]) / share[1]));
        for (var end = word.length - 1; end >= shortest; end--) {
          var exact = vocabulary.exact(word.slice(0, end));
          if (exact) return new Set(exact);
        }
        return new Set();
      });
    }
    return cache[word];
  };

  // The cases whose lead (titles, summaries, the names of their terms) and whose titles have a
  // word that starts with `word`: {lead: Set, title: Set}. A match there weighs more.
  Engine.prototype.fields = function (word) {
    var cache = this.cache;
    var key = "\u0001" + word;
    if (!cache[key]) cache[key] = Promise.resolve(this.index.fields(word));
    return cache[key];
  };

  // The cases tagged with the term "facet:term".
  Engine.prototype.tagged = function (key) {
    if (!this.tags) {
      var tags = (this.tags = {});
      this.index.docs.forEach(function (doc, at) {
        Object.keys(doc.terms).forEach(function (facet) {
          doc.terms[facet].forEach(function (term) {
            var k = facet + ":" + term;
            (tags[k] || (tags[k] = new Set())).add(at);
          });
        });
      });
    }
    return this.tags[key] || new Set();
  };

  Engine.prototype.vocabulary = function (start) {
    var cache = this.cache;
    var key = "\u0000" + start;
    if (!cache[key]) cache[key] = Promise.resolve(this.index.vocabulary(start));
    return cache[key];
  };

  // The characters a correction keeps, and the part of the vocabulary a word is in.
  function startOf(word, rules) {
    var same = rules.typo.same_start;
    return word.slice(0, HANGUL.test(word) ? same.hangul : same.latin);
  }

  // The query's words, each with its alternatives: the word (or, when it matches nothing, the
  // indexed word it is probably a typo of) and its synonyms. Past the cap, words are ignored.
  Engine.prototype.groups = function (query) {
    var self = this;
    var rules = this.rules;
    var raws = this.analyzer.rawWords(query);
    var seen = {};
    var planned = [];
    var ignored = [];
    for (var i = 0; i < raws.length; i++) {
      var word = this.analyzer.stem(raws[i]);
      if (!word || !this.analyzer.longEnough(word) || seen[word]) continue;
      seen[word] = true;
      if (planned.length >= rules.max_query_words) ignored.push(raws[i]);
      else planned.push({ typed: raws[i], word: word });
    }
    return Promise.all(
      planned.map(function (item) {
        return self.vocabulary(startOf(item.word, rules)).then(function (vocabulary) {
          // No indexed word starts with it: perhaps a typo.
          if (vocabulary.hasPrefix(item.word)) return null;
          var fixed = correction(item.word, vocabulary, rules);
          return fixed && { word: fixed, shown: vocabulary.shown[fixed] || fixed };
        });
      })
    ).then(function (fixes) {
      var groups = planned.map(function (item, i) {
        var chosen = fixes[i] ? fixes[i].word : item.word;
        var alternatives = [chosen];
        var synonyms = self.index.synonyms[chosen] || [];
        for (var s = 0; s < synonyms.length; s++) {
          if (synonyms[s] !== chosen) alternatives.push(synonyms[s]);
        }
        return {
          typed: item.typed,
          alternatives: alternatives.slice(0, rules.max_alternatives),
          terms: (self.index.termNames || {})[chosen] || [],
          correction: fixes[i] ? fixes[i].word : null,
          shown: fixes[i] ? fixes[i].shown : null,
        };
      });
      return { groups: groups, ignored: ignored };
    });
  };

  function matchesFilters(doc, filters, skip) {
    var facets = Object.keys(filters);
    for (var i = 0; i < facets.length; i++) {
      var facet = facets[i];
      var wanted = filters[facet];
      if (facet === skip || !wanted || !wanted.length) continue;
      var have = doc.terms[facet] || [];
      var any = false;
      for (var w = 0; w < wanted.length && !any; w++) any = have.indexOf(wanted[w]) !== -1;
      if (!any) return false; // OR within a facet, AND across facets
    }
    return true;
  }

  function startsWithAny(words, word) {
    for (var w = 0; w < words.length; w++) if (words[w].indexOf(word) === 0) return true;
    return false;
  }

  // How many of `count` query words a case must have (rules.yml, `matching`).
  function requiredWords(count, rule) {
    if (count <= rule.all_words_up_to) return count;
    return Math.ceil((count * rule.share_of_words[0]) / rule.share_of_words[1]);
  }

  function scoreKey(score) {
    return Math.floor(score * 1000000 + 0.5);
  }

  // `options.stale`, when given, is asked between steps; once it says true the search stops and
  // resolves to null (a newer query has replaced this one).
  Engine.prototype.search = function (query, filters, options) {
    var self = this;
    var docs = this.index.docs;
    var stale = (options && options.stale) || function () { return false; };
    filters = filters || {};
    var allowed = new Set();
    for (var i = 0; i < docs.length; i++) if (matchesFilters(docs[i], filters, null)) allowed.add(i);
    return this.groups(query).then(function (planned) {
      if (stale()) return null;
      var groups = planned.groups;
      return Promise.all(
        groups.map(function (group) {
          return Promise.all(group.alternatives.map(function (a) {
            return Promise.all([self.postings(a), self.fields(a)]);
          }));
        })
      ).then(function (found) {
        if (stale()) return null;
        var matched = [];
        var dropped = [];
        groups.forEach(function (group, g) {
          var union = new Set();
          var lead = new Set();
          var title = new Set();
          found[g].forEach(function (pair) {
            pair[0].forEach(function (v) { union.add(v); });
            pair[1].lead.forEach(function (v) { lead.add(v); });
            pair[1].title.forEach(function (v) { title.add(v); });
          });
          group.terms.forEach(function (key) { self.tagged(key).forEach(function (v) { union.add(v); }); });
          var m = { group: group, found: union, literal: found[g][0][0], lead: lead, title: title };
          if (union.size) matched.push(m);
          else dropped.push(group.typed); // no case has it, nor anything it was taken for
        });
        var hits = new Array(docs.length).fill(0);
        matched.forEach(function (m) { m.found.forEach(function (index) { hits[index]++; }); });
        var required = requiredWords(matched.length, self.rules.matching);
        var wordsSet = new Set();
        if (matched.length) {
          // When no case within the filters has enough of the words, the cases with the most do.
          var best = 0;
          allowed.forEach(function (index) { if (hits[index] > best) best = hits[index]; });
          required = Math.max(1, Math.min(required, best));
          // After them, the cases that miss one word more.
          var least = Math.max(1, required - 1);
          for (var h = 0; h < hits.length; h++) if (hits[h] >= least) wordsSet.add(h);
        } else if (!groups.length) {
          for (var d = 0; d < docs.length; d++) wordsSet.add(d);
        }
        var chosen = [];
        wordsSet.forEach(function (v) { if (allowed.has(v)) chosen.push(v); });
        var total = Math.max(docs.length, 1);
        var weights = matched.map(function (m) { return Math.log(1 + total / m.found.size); });
        var bonus = self.rules.lead_bonus;
        var titleBonus = self.rules.title_bonus;
        var synonym = self.rules.synonym_weight;
        var scores = {};
        chosen.forEach(function (index) {
          var value = 0;
          matched.forEach(function (m, k) {
            if (!m.found.has(index)) return;
            var inLead = m.lead.has(index) ? 1 : 0;
            var inTitle = m.title.has(index) ? 1 : 0;
            var share = m.literal.has(index) ? 1 : synonym;
            value += weights[k] * share * (1 + bonus * inLead + titleBonus * inTitle);
          });
          scores[index] = scoreKey(value);
        });
        chosen.sort(function (a, b) {
          if (matched.length) {
            var full = (hits[a] < required) - (hits[b] < required);
            if (full) return full;
            if (scores[a] !== scores[b]) return scores[b] - scores[a];
          }
          return docs[a].order - docs[b].order;
        });
        var counts = {};
        var facets = {};
        docs.forEach(function (doc) { Object.keys(doc.terms).forEach(function (f) { facets[f] = true; }); });
        Object.keys(facets).sort().forEach(function (facet) {
          var tally = {};
          wordsSet.forEach(function (index) {
            var doc = docs[index];
            if (!matchesFilters(doc, filters, facet)) return;
            (doc.terms[facet] || []).forEach(function (term) { tally[term] = (tally[term] || 0) + 1; });
          });
          counts[facet] = tally;
        });
        var weightOf = {};
        matched.forEach(function (m, k) { weightOf[m.group.typed] = weights[k]; });
        return {
          positions: chosen,
          ids: chosen.map(function (index) { return docs[index].id; }),
          total: chosen.length,
          counts: counts,
          groups: matched.map(function (m) { return m.group; }),
          dropped: dropped,
          ignored: planned.ignored,
          corrections: groups.filter(function (g) { return g.correction; }).map(function (g) { return [g.typed, g.shown]; }),
          weights: weightOf,
          required: matched.length ? required : 0,
          exact: chosen.filter(function (index) { return !matched.length || hits[index] >= required; }).length,
        };
      });
    });
  };

  // The sentence that best shows why a case matched: the most weight of matched query words
  // (the first of equals), with those words marked as [start, end) in the sentence.
  Engine.prototype.passage = function (sentences, groups, weights) {
    var best = null;
    for (var p = 0; p < sentences.length; p++) {
      var found = this.marks(sentences[p], groups);
      if (!found.marks.length) continue;
      var value = 0;
      found.matched.forEach(function (group) {
        value += weights && weights[group.typed] !== undefined ? weights[group.typed] : 1;
      });
      if (!best || scoreKey(value) > scoreKey(best.value)) {
        best = { value: value, text: sentences[p], marks: found.marks };
      }
    }
    return best ? { text: best.text, marks: best.marks } : null;
  };

  Engine.prototype.marks = function (sentence, groups) {
    var lowered = sentence.toLowerCase();
    var pattern = new RegExp(this.rules.word_pattern, "g");
    var marks = [];
    var matched = [];
    var match;
    while ((match = pattern.exec(lowered)) !== null) {
      var word = this.analyzer.stem(match[0]);
      var hit = false;
      for (var g = 0; g < groups.length; g++) {
        var group = groups[g];
        for (var a = 0; a < group.alternatives.length; a++) {
          if (word.indexOf(group.alternatives[a]) === 0) {
            hit = true;
            if (matched.indexOf(group) === -1) matched.push(group);
            break;
          }
        }
      }
      if (hit) marks.push([match.index, match.index + match[0].length]);
    }
    return { marks: marks, matched: matched };
  };

  // ---- A vocabulary: sorted words, the cases with each, how many ---------------------------------
  // From a part of words/<start>.js ({words, postings}), or built in memory (tests, the index of a
  // whole small library).
  // `shown`: {word: the form cases write it in}, for the words whose stem is not that form.
  // `lead`, `title`: for each word, the cases that have it in their lead, in their titles.
  function Vocabulary(words, postings, shown, lead, title) {
    this.words = words;
    this.postings = postings;
    this.shown = shown || {};
    this.lead = lead || words.map(function () { return []; });
    this.title = title || words.map(function () { return []; });
    this.freq = postings.map(function (p) { return p.length; });
  }

  Vocabulary.prototype.first = function (word) {
    var lo = 0;
    var hi = this.words.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (this.words[mid] < word) lo = mid + 1; else hi = mid; }
    return lo;
  };

  Vocabulary.prototype.hasPrefix = function (word) {
    var at = this.first(word);
    return at < this.words.length && this.words[at].indexOf(word) === 0;
  };

  // The cases with a word that starts with `word`.
  Vocabulary.prototype.lookup = function (word) {
    var found = new Set();
    for (var i = this.first(word); i < this.words.length && this.words[i].indexOf(word) === 0; i++) {
      this.postings[i].forEach(function (d) { found.add(d); });
    }
    return found;
  };

  // The cases with a word that starts with `word` in their lead, and in their titles.
  Vocabulary.prototype.fields = function (word) {
    var lead = new Set();
    var title = new Set();
    for (var i = this.first(word); i < this.words.length && this.words[i].indexOf(word) === 0; i++) {
      this.lead[i].forEach(function (d) { lead.add(d); });
      this.title[i].forEach(function (d) { title.add(d); });
    }
    return { lead: lead, title: title };
  };

  // The positions of the cases with exactly this word, or null.
  Vocabulary.prototype.exact = function (word) {
    var at = this.first(word);
    return at < this.words.length && this.words[at] === word ? this.postings[at] : null;
  };

  Vocabulary.prototype.slice = function (start) {
    var from = this.first(start);
    var to = from;
    while (to < this.words.length && this.words[to].indexOf(start) === 0) to++;
    return new Vocabulary(
      this.words.slice(from, to),
      this.postings.slice(from, to),
      this.shown,
      this.lead.slice(from, to),
      this.title.slice(from, to)
    );
  };

  Vocabulary.fromDocuments = function (docWords, shown) {
    var table = {};
    for (var d = 0; d < docWords.length; d++) {
      var seen = {};
      for (var w = 0; w < docWords[d].length; w++) {
        var word = docWords[d][w];
        if (seen[word]) continue;
        seen[word] = true;
        (table[word] || (table[word] = [])).push(d);
      }
    }
    var words = Object.keys(table).sort();
    return new Vocabulary(words, words.map(function (w) { return table[w]; }), shown);
  };

  // An index over a vocabulary held in memory, its documents with their `lead` and `title`.
  function memoryIndex(docs, synonyms, vocabulary, termNames) {
    return {
      docs: docs,
      synonyms: synonyms,
      termNames: termNames || {},
      postings: function (word) { return vocabulary.lookup(word); },
      vocabulary: function (start) { return vocabulary.slice(start); },
      fields: function (word) {
        var lead = new Set();
        var title = new Set();
        docs.forEach(function (doc, at) {
          if (startsWithAny(doc.lead || [], word)) lead.add(at);
          if (startsWithAny(doc.title || [], word)) title.add(at);
        });
        return { lead: lead, title: title };
      },
    };
  }

  // ---- Lists of positions, as the build writes them ------------------------------------------
  // Each gap from the previous position (minus one) in base 32, most significant digit first:
  // every digit but the last from MORE, the last from LAST. The inverse of `encode_positions` in
  // generator/outputs/search_data.py (tests/search/test_search_js.py runs both on the same lists).
  var LAST = "0123456789ABCDEFGHIJKLMNOPQRSTUV";
  var MORE = "WXYZabcdefghijklmnopqrstuvwxyz-_";
  var DIGIT = {};
  for (var code = 0; code < 32; code++) {
    DIGIT[LAST.charAt(code)] = code;
    DIGIT[MORE.charAt(code)] = code + 32;
  }

  function decodePositions(text) {
    var positions = [];
    var previous = -1;
    var gap = 0;
    for (var i = 0; i < text.length; i++) {
      var digit = DIGIT[text.charAt(i)];
      if (digit === undefined) throw new Error("not a list of positions: " + text.slice(0, 20));
      if (digit >= 32) { gap = gap * 32 + digit - 32; continue; }
      previous += gap * 32 + digit + 1;
      positions.push(previous);
      gap = 0;
    }
    return positions;
  }

  // A vocabulary part as words/<start>.js holds it, its lists of positions encoded.
  Vocabulary.fromPart = function (part) {
    return new Vocabulary(
      part.words,
      part.postings.map(decodePositions),
      part.shown,
      part.lead.map(decodePositions),
      part.title.map(decodePositions)
    );
  };

  // ---- index.js -> the engine's documents ----------------------------------------------------
  // `count` cases, numbered by their order; for each of `terms` ("facet:term"), the positions of
  // the cases that have it. A case's id comes with its card (text/<position>.js), or from ids.js
  // (`withIds`); which words are in its lead and titles comes with each word, in the parts.
  function documents(payload, facets) {
    var docs = [];
    for (var n = 0; n < payload.count; n++) {
      var terms = {};
      for (var f = 0; f < facets.length; f++) terms[facets[f]] = [];
      docs.push({ id: null, terms: terms, order: n });
    }
    payload.terms.forEach(function (key, k) {
      var colon = key.indexOf(":");
      var facet = key.slice(0, colon);
      var term = key.slice(colon + 1);
      decodePositions(payload.cases[k]).forEach(function (at) {
        (docs[at].terms[facet] || (docs[at].terms[facet] = [])).push(term);
      });
    });
    return docs;
  }

  // The page numbers a list of `pages` pages links from page `page`: the first, the last and
  // `around` on each side of this one, null for each gap (a gap of one page shows that page).
  // The same rule as page_items in generator/pages/kinds.py (a test compares the two).
  function pageItems(page, pages, around) {
    var shown = [1, pages];
    for (var n = Math.max(1, page - around); n <= Math.min(pages, page + around); n++) shown.push(n);
    shown.sort(function (a, b) { return a - b; });
    var items = [];
    var last = 0;
    shown.forEach(function (n) {
      if (n === last) return;
      if (n - last === 2) items.push(last + 1);
      else if (n - last > 2) items.push(null);
      items.push(n);
      last = n;
    });
    return items;
  }

  // The documents given their ids (ids.js: every case's id by position).
  function withIds(docs, ids) {
    docs.forEach(function (doc, at) { doc.id = ids[at]; });
    return docs;
  }

  return {
    documents: documents,
    withIds: withIds,
    decodePositions: decodePositions,
    pageItems: pageItems,
    Analyzer: Analyzer,
    Engine: Engine,
    Vocabulary: Vocabulary,
    memoryIndex: memoryIndex,
    startOf: startOf,
    editDistance: editDistance,
    correction: correction,
  };
});
