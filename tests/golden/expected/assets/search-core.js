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
  // The order Unicode composes a Hangul syllable in: 0xAC00 + (initial * 21 + vowel) * 28 + final.
  var VOWELS = "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ";
  var FINALS = " ㄱㄲㄳㄴㄵㄶㄷㄹㄺㄻㄼㄽㄾㄿㅀㅁㅂㅄㅅㅆㅇㅈㅊㅋㅌㅍㅎ";

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
    // Predicates (rules.yml, korean.predicate), by the indexes of VOWELS and FINALS.
    var predicate = rules.korean.predicate;
    this.fused = {};
    var self = this;
    Object.keys(predicate.finals).forEach(function (final) {
      var vowels = {};
      predicate.finals[final].forEach(function (v) { vowels[VOWELS.indexOf(v)] = true; });
      self.fused[FINALS.indexOf(final)] = vowels;
    });
    this.contracted = {};
    Object.keys(predicate.contracted).forEach(function (v) {
      self.contracted[VOWELS.indexOf(v)] = VOWELS.indexOf(predicate.contracted[v]);
    });
    // The words of a question that carry no meaning (rules.yml, `filler`), analysed.
    this.filler = {};
    (rules.filler || []).forEach(function (name) {
      self.words(String(name)).forEach(function (w) { self.filler[w] = true; });
    });
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
        return this.predicateStem(word.slice(0, -ending.length));
      }
    }
    return this.predicateStem(word);
  };

  // The last syllable without an ending fused into it: 사라짐 -> 사라지, 멈췄 -> 멈추.
  Analyzer.prototype.predicateStem = function (word) {
    if (word.length < this.rules.korean.min_stem || !HANGUL.test(word.charAt(word.length - 1))) return word;
    var code = word.charCodeAt(word.length - 1) - 0xac00;
    var start = code - (code % 588);
    var vowel = Math.floor((code % 588) / 28);
    var final = code % 28;
    if (final && this.fused[final] && this.fused[final][vowel]) final = 0;
    if (!final && this.contracted[vowel] !== undefined) vowel = this.contracted[vowel];
    return word.slice(0, -1) + String.fromCharCode(0xac00 + start + vowel * 28 + final);
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

  // `vocabulary`: the words that start as `word` does, with their frequencies; `known`: the
  // synonyms and term names that start so (sorted); `typed`: the word as typed, compared too and
  // first at the same distance (a typo's stem is no stem).
  function correction(word, vocabulary, rules, known, typed) {
    var typo = rules.typo;
    var korean = HANGUL.test(word);
    if (word.length < (korean ? typo.korean_min_length : typo.min_length)) return null;
    var limit = 0;
    for (var i = 0; i < typo.max_distance.length; i++) {
      if (word.length >= typo.max_distance[i][0]) limit = typo.max_distance[i][1];
    }
    if (korean) limit = 1;
    var forms = typed && typed !== word ? [typed, word] : [word];
    var candidates = vocabulary.words.concat(known || []);
    var best = null;
    for (var w = 0; w < candidates.length; w++) {
      var candidate = candidates[w];
      var frequency = w < vocabulary.words.length ? vocabulary.freq[w] : vocabulary.frequency(candidate);
      for (var rank = 0; rank < forms.length; rank++) {
        if (Math.abs(candidate.length - forms[rank].length) > limit) continue;
        var distance = editDistance(forms[rank], candidate, limit);
        if (distance > limit) continue;
        var key = [distance, rank, -frequency, candidate];
        if (!best || compareKeys(key, best) < 0) best = key;
      }
    }
    return best ? best[3] : null;
  }

  function compareKeys(a, b) {
    for (var i = 0; i < a.length; i++) {
      if (a[i] < b[i]) return -1;
      if (a[i] > b[i]) return 1;
    }
    return 0;
  }

  // ---- The engine ------------------------------------------------------------------------------
  // An index: { docs: [{id, terms: {facet: [ids]}, order, named: {"facet:term": times}}],
  // synonyms: {word: [words]}, termNames: {word: ["facet:term"]}, termPhrases: [[words], ["facet:term"]],
  // vocabulary(start) -> Vocabulary or Promise<Vocabulary> of the words that begin with `start`,
  // with the cases of each word, and those with it in their lead and in their titles }.

  function Engine(rules, index) {
    this.rules = rules;
    this.analyzer = new Analyzer(rules);
    this.index = index;
    this.cache = {};
  }

  // What a query word stands for, from its vocabulary part: the indexed words (itself, if
  // indexed and `exact_first`; else those that start with it; else the longest indexed word it
  // starts with, if that is most of it: `fallback`), and the cases with one of them, with one in
  // their lead (titles, summaries, the names of their terms), with one in their titles.
  Engine.prototype.info = function (word) {
    var self = this;
    var cache = this.cache;
    if (!cache[word]) {
      cache[word] = this.vocabulary(startOf(word, this.rules)).then(function (vocabulary) {
        return vocabulary.info(vocabulary.expand(word, self.rules));
      });
    }
    return cache[word];
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
  // The part of a query the engines read: max_query_chars code points (not UTF-16 units, so
  // the Python engine reads the same).
  function boundedQuery(query, rules) {
    return Array.from(query).slice(0, rules.max_query_chars).join("");
  }

  function startOf(word, rules) {
    var same = rules.typo.same_start;
    return word.slice(0, HANGUL.test(word) ? same.hangul : same.latin);
  }

  // The query's words and the phrases in it that name a term, each with its alternatives: the
  // word (or, when nothing starts with it, the word it is probably a typo of) and its synonyms;
  // filler left out of a query that has other words. Past the cap, words are ignored.
  Engine.prototype.groups = function (query) {
    var self = this;
    var rules = this.rules;
    var analyzer = this.analyzer;
    var raws = analyzer.rawWords(boundedQuery(query, rules)).map(function (raw) {
      return Array.from(raw).slice(0, rules.max_word_chars).join("");
    });
    var joins = [];
    for (var i = 1; i < raws.length && rules.join_words; i++) joins.push(analyzer.stem(raws[i - 1] + raws[i]));
    return Promise.all(joins.map(function (w) { return self.frequency(w); })).then(function (counts) {
      var frequency = {};
      joins.forEach(function (w, n) { frequency[w] = counts[n]; });
      // (typed, analysed); two words in a row that the index has as one are joined.
      var words = [];
      var joinable = false; // the word before was kept as typed: it may be joined with this one
      var before = ""; // the word before as typed, kept or too short, unless it was joined
      raws.forEach(function (raw) {
        var word = analyzer.stem(raw);
        if (rules.join_words && before) {
          var joined = analyzer.stem(before + raw);
          var same = HANGUL.test(before) === HANGUL.test(raw);
          if (same && joinable && frequency[joined]) {
            words[words.length - 1] = [before + " " + raw, joined];
            joinable = false;
            before = "";
            return;
          }
          if (!same && self.known(joined)) {
            // A name typed half in Hangul ("챗GPT"): a synonym or term name as one word.
            if (joinable) words.pop();
            words.push([before + raw, joined]);
            joinable = false;
            before = "";
            return;
          }
        }
        joinable = analyzer.longEnough(word);
        before = raw;
        if (joinable) words.push([raw, word]);
      });
      var phrases = self.phrases();
      var units = [];
      var seen = {};
      function add(typed, raw, unit) {
        var key = unit.join("\u0000");
        if (seen[key]) return;
        seen[key] = true;
        units.push({ typed: typed, raw: raw, words: unit });
      }
      for (var at = 0; at < words.length; ) {
        var found = false;
        for (var size = Math.min(phrases.longest, words.length - at); size > 1 && !found; size--) {
          var phrase = words.slice(at, at + size).map(function (w) { return w[1]; });
          if (phrases.terms[phrase.join("\u0000")]) {
            var typed = words.slice(at, at + size).map(function (w) { return w[0]; }).join(" ");
            add(typed, typed, phrase);
            at += size;
            found = true;
          }
        }
        if (!found) {
          add(words[at][0], words[at][0].replace(/ /g, ""), [words[at][1]]);
          at++;
        }
      }
      var meaningful = units.filter(function (u) { return u.words.length > 1 || !analyzer.filler[u.words[0]]; });
      if (meaningful.length) units = meaningful;
      var planned = [];
      var ignored = [];
      units.forEach(function (unit) {
        if (planned.length >= rules.max_query_words) ignored.push(unit.typed);
        else planned.push(unit);
      });
      return Promise.all(planned.map(function (unit) {
        if (unit.words.length > 1) return null;
        var word = unit.words[0];
        return self.vocabulary(startOf(word, rules)).then(function (vocabulary) {
          // Nothing starts with it, and it is no synonym or term name: perhaps a typo.
          if (vocabulary.hasPrefix(word) || self.known(word)) return null;
          var fixed = correction(word, vocabulary, rules, self.knownStarting(startOf(word, rules)), unit.raw);
          return fixed && { word: fixed, shown: vocabulary.shown[fixed] || fixed };
        });
      })).then(function (fixes) {
        var groups = planned.map(function (unit, n) {
          if (unit.words.length > 1) {
            return { typed: unit.typed, alternatives: [], terms: phrases.terms[unit.words.join("\u0000")], phrase: unit.words, correction: null, shown: null };
          }
          var chosen = fixes[n] ? fixes[n].word : unit.words[0];
          var alternatives = [chosen];
          var synonyms = self.index.synonyms[chosen] || [];
          for (var s = 0; s < synonyms.length; s++) {
            if (synonyms[s] !== chosen) alternatives.push(synonyms[s]);
          }
          return {
            typed: unit.typed,
            alternatives: alternatives.slice(0, rules.max_alternatives),
            terms: (self.index.termNames || {})[chosen] || [],
            phrase: [],
            correction: fixes[n] ? fixes[n].word : null,
            shown: fixes[n] ? fixes[n].shown : null,
          };
        });
        return { groups: groups, ignored: ignored };
      });
    });
  };

  // How many cases have exactly this word (its part must be loaded: `vocabulary`).
  Engine.prototype.frequency = function (word) {
    return this.vocabulary(startOf(word, this.rules)).then(function (vocabulary) {
      var found = vocabulary.exact(word);
      return found ? found.length : 0;
    });
  };

  // A word the engine knows without the index having it: a synonym or a term's name.
  Engine.prototype.known = function (word) {
    var names = this.index.termNames || {};
    return Object.prototype.hasOwnProperty.call(this.index.synonyms, word) || Object.prototype.hasOwnProperty.call(names, word);
  };

  Engine.prototype.knownStarting = function (start) {
    var found = {};
    [this.index.synonyms, this.index.termNames || {}].forEach(function (table) {
      Object.keys(table).forEach(function (w) { if (w.indexOf(start) === 0) found[w] = true; });
    });
    return Object.keys(found).sort();
  };

  // The names of several words: {terms: {words joined by NUL: ["facet:term"]}, longest}.
  Engine.prototype.phrases = function () {
    if (!this.phraseTable) {
      var terms = {};
      var longest = 0;
      (this.index.termPhrases || []).forEach(function (entry) {
        terms[entry[0].join("\u0000")] = entry[1];
        longest = Math.max(longest, entry[0].length);
      });
      this.phraseTable = { terms: terms, longest: longest };
    }
    return this.phraseTable;
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

  function intersect(sets) {
    var out = new Set();
    sets[0].forEach(function (v) {
      for (var i = 1; i < sets.length; i++) if (!sets[i].has(v)) return;
      out.add(v);
    });
    return out;
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
          var words = group.phrase.length ? group.phrase : group.alternatives;
          return Promise.all(words.map(function (w) { return self.info(w); }));
        })
      ).then(function (found) {
        if (stale()) return null;
        var matched = [];
        var dropped = [];
        groups.forEach(function (group, g) {
          var infos = found[g];
          var tagged = new Set();
          group.terms.forEach(function (key) { self.tagged(key).forEach(function (v) { tagged.add(v); }); });
          var forms = [];
          infos.forEach(function (info) { forms.push.apply(forms, info.words); });
          var literal, lead, title, often, union;
          if (group.phrase.length) {
            literal = intersect(infos.map(function (info) { return info.found; }));
            lead = intersect(infos.map(function (info) { return info.lead; }));
            tagged.forEach(function (v) { lead.add(v); });
            title = intersect(infos.map(function (info) { return info.title; }));
            often = intersect(infos.map(function (info) { return info.often; }));
            union = new Set(literal);
          } else {
            literal = infos[0].found;
            lead = new Set();
            title = new Set();
            often = new Set();
            union = new Set();
            infos.forEach(function (info) {
              info.found.forEach(function (v) { union.add(v); });
              info.lead.forEach(function (v) { lead.add(v); });
              info.title.forEach(function (v) { title.add(v); });
              info.often.forEach(function (v) { often.add(v); });
            });
          }
          tagged.forEach(function (v) { union.add(v); });
          var matchedGroup = Object.assign({}, group, { forms: forms });
          var m = { group: matchedGroup, found: union, literal: literal, lead: lead, title: title, often: often };
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
        var oftenBonus = self.rules.often.bonus;
        var scores = {};
        var named = {};
        chosen.forEach(function (index) {
          var value = 0;
          matched.forEach(function (m, k) {
            if (!m.found.has(index)) return;
            var inLead = m.lead.has(index) ? 1 : 0;
            var inTitle = m.title.has(index) ? 1 : 0;
            var inOften = m.often.has(index) ? 1 : 0;
            var share = m.literal.has(index) ? 1 : synonym;
            value += weights[k] * share * (1 + bonus * inLead + titleBonus * inTitle + oftenBonus * inOften);
          });
          scores[index] = scoreKey(value);
          // How often the case names the terms the query names: the tie-breaker of equal scores.
          var said = docs[index].named || {};
          named[index] = 0;
          matched.forEach(function (m) {
            m.group.terms.forEach(function (key) { named[index] += said[key] || 0; });
          });
        });
        chosen.sort(function (a, b) {
          if (matched.length) {
            var full = (hits[a] < required) - (hits[b] < required);
            if (full) return full;
            if (scores[a] !== scores[b]) return scores[b] - scores[a];
            if (named[a] !== named[b]) return named[b] - named[a];
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
        var exact = chosen.filter(function (index) { return !matched.length || hits[index] >= required; }).length;
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
          exact: exact,
          partial: chosen.length - exact,
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

  // A sentence word is marked when it, or its stem, is one of the indexed words a group
  // matched (`forms`, set by `search`).
  Engine.prototype.marks = function (sentence, groups) {
    var lowered = sentence.toLowerCase();
    var pattern = new RegExp(this.rules.word_pattern, "g");
    var marks = [];
    var matched = [];
    var match;
    while ((match = pattern.exec(lowered)) !== null) {
      var raw = match[0];
      var word = this.analyzer.stem(raw);
      var hit = false;
      for (var g = 0; g < groups.length; g++) {
        var forms = groups[g].forms || [];
        if (forms.indexOf(word) !== -1 || forms.indexOf(raw) !== -1) {
          hit = true;
          if (matched.indexOf(groups[g]) === -1) matched.push(groups[g]);
        }
      }
      if (hit) marks.push([match.index, match.index + raw.length]);
    }
    return { marks: marks, matched: matched };
  };

  // ---- A vocabulary: sorted words, the cases with each, how many ---------------------------------
  // From a part of words/<start>.js ({words, postings}), or built in memory (tests, the index of a
  // whole small library).
  // `shown`: {word: the form cases write it in}, for the words whose stem is not that form.
  // `lead`, `title`: for each word, the cases that have it in their lead, in their titles;
  // `often`: those whose text says it often (rules.often).
  function Vocabulary(words, postings, shown, lead, title, often) {
    this.words = words;
    this.postings = postings;
    this.shown = shown || {};
    this.lead = lead || words.map(function () { return []; });
    this.title = title || words.map(function () { return []; });
    this.often = often || words.map(function () { return []; });
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

  // The indexed words a query word stands for (see Engine.prototype.info).
  Vocabulary.prototype.expand = function (word, rules) {
    var at = this.first(word);
    if (rules.exact_first && at < this.words.length && this.words[at] === word) return [word];
    var found = [];
    for (var i = at; i < this.words.length && this.words[i].indexOf(word) === 0; i++) found.push(this.words[i]);
    if (found.length) return found;
    var share = rules.fallback[HANGUL.test(word) ? "hangul" : "latin"];
    var shortest = Math.max(1, Math.ceil((word.length * share[0]) / share[1]));
    for (var end = word.length - 1; end >= shortest; end--) {
      if (this.exact(word.slice(0, end))) return [word.slice(0, end)];
    }
    return [];
  };

  // {words, found, lead, title, often}: the cases with one of `words`, in their lead, in their
  // titles, saying it often.
  Vocabulary.prototype.info = function (words) {
    var out = { words: words, found: new Set(), lead: new Set(), title: new Set(), often: new Set() };
    for (var w = 0; w < words.length; w++) {
      var at = this.first(words[w]);
      if (at >= this.words.length || this.words[at] !== words[w]) continue;
      this.postings[at].forEach(function (d) { out.found.add(d); });
      this.lead[at].forEach(function (d) { out.lead.add(d); });
      this.title[at].forEach(function (d) { out.title.add(d); });
      this.often[at].forEach(function (d) { out.often.add(d); });
    }
    return out;
  };

  Vocabulary.prototype.frequency = function (word) {
    var found = this.exact(word);
    return found ? found.length : 0;
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
      this.title.slice(from, to),
      this.often.slice(from, to)
    );
  };

  // `docs`: [{words, lead, title, often}] (a case's words, those of its lead and its titles, and
  // those it says often).
  Vocabulary.fromDocuments = function (docs, shown) {
    var table = {};
    function add(field, d, words) {
      var seen = {};
      for (var w = 0; w < words.length; w++) {
        var word = words[w];
        if (seen[word]) continue;
        seen[word] = true;
        var row = table[word] || (table[word] = { postings: [], lead: [], title: [], often: [] });
        row[field].push(d);
      }
    }
    for (var d = 0; d < docs.length; d++) {
      add("postings", d, docs[d].words);
      add("lead", d, docs[d].lead || []);
      add("title", d, docs[d].title || []);
      add("often", d, docs[d].often || []);
    }
    var words = Object.keys(table).sort();
    return new Vocabulary(
      words,
      words.map(function (w) { return table[w].postings; }),
      shown,
      words.map(function (w) { return table[w].lead; }),
      words.map(function (w) { return table[w].title; }),
      words.map(function (w) { return table[w].often; })
    );
  };

  // An index over a vocabulary held in memory (tests, a whole small library).
  function memoryIndex(docs, synonyms, vocabulary, termNames, termPhrases) {
    return {
      docs: docs,
      synonyms: synonyms,
      termNames: termNames || {},
      termPhrases: termPhrases || [],
      vocabulary: function (start) { return vocabulary.slice(start); },
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
      part.title.map(decodePositions),
      part.often.map(decodePositions)
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
      docs.push({ id: null, terms: terms, order: n, named: {} });
    }
    payload.terms.forEach(function (key, k) {
      var colon = key.indexOf(":");
      var facet = key.slice(0, colon);
      var term = key.slice(colon + 1);
      var named = (payload.named || [])[k] || ""; // a digit a case; missing at the end: 0
      decodePositions(payload.cases[k]).forEach(function (at, j) {
        (docs[at].terms[facet] || (docs[at].terms[facet] = [])).push(term);
        var times = named.charCodeAt(j) - 48;
        if (times > 0) docs[at].named[key] = times;
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
    boundedQuery: boundedQuery,
    editDistance: editDistance,
    correction: correction,
  };
});
