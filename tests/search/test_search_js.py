"""The browser's engine (search-core.js) runs the same vectors in Node's test runner, and agrees
with the Python engine on the repository's own library and query set."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from conftest import REPO, SEARCH_ALL
from search_vectors import corpus, vectors

from generator.outputs.search_data import encode_positions
from generator.pages.kinds import PAGES_AROUND, page_items
from generator.search.analyzer import browser_rules
from generator.search.corpus import build_corpus
from generator.search.engine import search

NODE = shutil.which("node")
POSITIONS = ([], [0], [31], [32], [0, 1, 2], [7, 1_023, 1_024, 1_056, 40_000, 1_048_576])


def documents(found) -> list[dict]:
    return [
        {
            "id": d.id,
            "words": sorted(d.words),
            "lead": list(d.lead),
            "title": list(d.title),
            "often": list(d.often),
            "terms": {f: list(ids) for f, ids in d.terms.items()},
            "order": d.order,
            "named": dict(d.named),
        }
        for d in found.documents
    ]


@pytest.mark.skipif(NODE is None, reason="Node.js runs the browser modules' tests")
def test_the_browser_engine_passes_the_vectors_and_agrees_with_python(tmp_path, repository_library):
    small = corpus()
    library = repository_library
    queries = SEARCH_ALL
    answers = {}
    for lang in ("ko", "en"):
        built = build_corpus(library, lang)
        answers[lang] = {
            "docs": documents(built.corpus),
            "synonyms": {w: list(o) for w, o in built.corpus.synonyms.items()},
            "shown": built.corpus.shown,
            "termNames": {w: list(k) for w, k in built.corpus.term_names.items()},
            "termPhrases": [[list(w), list(k)] for w, k in built.corpus.term_phrases.items()],
            "answers": [
                [q["query"], list(found.ids), found.exact]
                for q in queries[lang]
                if (found := search(built.corpus, q["query"]))
            ],
        }
    data = {
        "rules": browser_rules(),
        "corpus": documents(small),
        "synonyms": {w: list(o) for w, o in small.synonyms.items()},
        "shown": small.shown,
        "termNames": {w: list(k) for w, k in small.term_names.items()},
        "termPhrases": [[list(w), list(k)] for w, k in small.term_phrases.items()],
        "vectors": vectors(),
        "library": answers,
        # Lists of positions as the build encodes them for the browser (outputs/search_data.py)
        "positions": [[encode_positions(p), p] for p in POSITIONS],
        # The pages a list links (generator/pages/kinds.py), for the browser's pageItems
        "pages": {
            "around": PAGES_AROUND,
            "items": [
                [n, count, list(page_items(n, count))]
                for count in range(1, 30)
                for n in range(1, count + 1)
            ],
        },
    }
    path = tmp_path / "vectors.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    done = subprocess.run(
        [NODE, "--test", str(REPO / "tests" / "js")],
        env={"SEARCH_VECTORS_JSON": str(path), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    failed = [line for line in done.stdout.splitlines() if "not ok" in line or "Error" in line]
    assert done.returncode == 0, "\n".join(failed[:20]) + done.stdout[-3000:] + done.stderr[-2000:]
    assert "# fail 0" in done.stdout
