// The browser's search engine (generator/outputs/assets/search-core.js) against the search
// vectors, in Node's test runner. tests/search/test_search_js.py writes the data this reads: the
// rules as the browser gets them, and the vectors' corpus as the build indexes it.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");

const core = require(path.join(__dirname, "../../generator/outputs/assets/search-core.js"));
const data = JSON.parse(fs.readFileSync(process.env.SEARCH_VECTORS_JSON, "utf8"));
const analyzer = new core.Analyzer(data.rules);

function index() {
  const vocabulary = core.Vocabulary.fromDocuments(data.corpus, data.shown);
  return core.memoryIndex(data.corpus, data.synonyms, vocabulary, data.termNames, data.termPhrases);
}

for (const vector of data.vectors.words) {
  test(`query words: ${vector.text}`, () => {
    assert.deepEqual(analyzer.words(vector.text), vector.words);
  });
}

for (const vector of data.vectors.searches) {
  test(`search: ${vector.query || JSON.stringify(vector.filters || {})}`, async () => {
    const engine = new core.Engine(data.rules, index());
    const result = await engine.search(vector.query.repeat(vector.repeat || 1), vector.filters || {});
    assert.deepEqual(result.ids, vector.ids);
    assert.deepEqual(result.dropped, vector.dropped || []);
    assert.deepEqual(result.corrections, vector.corrections || []);
    if (vector.required !== undefined) assert.equal(result.required, vector.required);
    assert.equal(result.partial, vector.ids.length - result.exact);
    assert.equal(result.exact, vector.exact !== undefined ? vector.exact : vector.ids.length);
    for (const [facet, expected] of Object.entries(vector.counts || {})) {
      assert.deepEqual(result.counts[facet], expected);
    }
  });
}

for (const vector of data.vectors.passages) {
  test(`passage: ${vector.query}`, async () => {
    const engine = new core.Engine(data.rules, index());
    const result = await engine.search(vector.query, {});
    const found = engine.passage(vector.sentences, result.groups, null);
    assert.equal(found.text, vector.text);
    assert.deepEqual(found.marks, vector.marks);
  });
}

test("the Python engine's results on the library's own queries", async () => {
  // Written by the same Python test: every query of tests/site/search_queries.yml against the
  // repository's library, as generator/search/engine.py answers them.
  if (!data.library) return;
  for (const lang of Object.keys(data.library)) {
    const library = data.library[lang];
    const vocabulary = core.Vocabulary.fromDocuments(library.docs, library.shown);
    const engine = new core.Engine(data.rules, core.memoryIndex(library.docs, library.synonyms, vocabulary, library.termNames, library.termPhrases));
    for (const [query, expected, exact] of library.answers) {
      const result = await engine.search(query, {});
      assert.deepEqual(result.ids, expected, `${lang}: ${query}`);
      assert.equal(result.exact, exact, `${lang}: ${query} (full matches)`);
    }
  }
});

test("lists of positions decode as the build encoded them", () => {
  for (const [encoded, positions] of data.positions) {
    assert.deepEqual(core.decodePositions(encoded), positions, encoded);
  }
  assert.throws(() => core.decodePositions("0!"), /not a list of positions/);
});

test("a list links the pages the build's pages link", () => {
  for (const [page, pages, items] of data.pages.items) {
    assert.deepEqual(core.pageItems(page, pages, data.pages.around), items, `${page} of ${pages}`);
  }
});

test("index.js gives every case its terms, in library order", () => {
  const payload = {
    count: 3,
    terms: ["cause:a", "cause:b", "domain:x"],
    cases: [data.positions.find((p) => p[1].length === 3)[0], "1", "2"], // [0, 1, 2], [1], [2]
    named: ["201", "", "5"], // how often each case names the term, in the order of `cases`
  };
  const docs = core.documents(payload, ["domain", "cause"]);
  assert.deepEqual(docs.map((d) => d.terms), [
    { domain: [], cause: ["a"] },
    { domain: [], cause: ["a", "b"] },
    { domain: ["x"], cause: ["a"] },
  ]);
  assert.deepEqual(docs.map((d) => d.named), [{ "cause:a": 2 }, {}, { "cause:a": 1, "domain:x": 5 }]);
  assert.deepEqual(docs.map((d) => d.order), [0, 1, 2]);
  assert.deepEqual(core.withIds(docs, ["p", "q", "r"]).map((d) => d.id), ["p", "q", "r"]);
});
