"""Synthetic incident corpora for the scale benchmark (see bench/README.md).

    .venv/bin/python bench/generate.py --count 1000 --out /tmp/corpus [--seed 1]

writes a buildable copy of the project into OUT: the real taxonomy.yml, mkdocs.yml, docs/ and
overrides/, and OUT/incidents/ with COUNT made-up incidents and their translations (even-numbered
ones written in English with a `.ko.md` translation, odd-numbered ones the other way round). The
text comes from seeded random choices among the phrase templates in bench/phrases.yml, so the same
seed always gives the same files. Every file passes `incidents check` without errors or warnings.

`write_plain_pages` writes the same kind of content as ready-made Markdown pages into a plain
Material for MkDocs project: the baseline "what a user would otherwise get" in bench/run.py.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import sys
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache
from pathlib import Path

import yaml

from generator.model.incident import SECTION_HEADINGS as HEADINGS
from generator.model.incident import SECTIONS
from generator.validate.review import SUMMARY_LIMIT

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
PHRASES = BENCH / "phrases.yml"
TAXONOMY = REPO / "taxonomy.yml"  # the vocabulary the corpus uses (a test may point elsewhere)
MARKER = ".synthetic-corpus"  # marks folders this module may clear and rewrite

LANGS = ("ko", "en")
FIRST_DAY = date(2015, 1, 1)
LAST_DAY = date(2025, 6, 30)  # publication follows within 180 days, so every date is in the past
WRAP = {"en": 100, "ko": 68}  # Hangul is twice as wide as Latin letters on screen

# --- Korean particles --------------------------------------------------------------------------

_PARTICLES = {  # kind -> (after a final consonant, after a vowel)
    "이": ("이", "가"),
    "을": ("을", "를"),
    "은": ("은", "는"),
    "과": ("과", "와"),
    "으로": ("으로", "로"),
    "이었": ("이었", "였"),
    "이라": ("이라", "라"),
}
# Letters as Korean reads them: 엘, 알 end in ㄹ; 엠, 엔 in another consonant; the rest in a vowel.
_LETTER_FINALS = {"L": "rieul", "R": "rieul", "M": "other", "N": "other"}
# Digits as read at the end of a number: 일 칠 팔 end in ㄹ; 십 백 천 만 (any trailing 0), 삼, 육 in
# another consonant.
_DIGIT_FINALS = {
    "0": "other",
    "1": "rieul",
    "2": "none",
    "3": "other",
    "4": "none",
    "5": "none",
    "6": "other",
    "7": "rieul",
    "8": "rieul",
    "9": "none",
}


def final_sound(word: str) -> str:
    """How `word` ends when read in Korean: "none" (a vowel), "rieul" (ㄹ) or "other"."""
    token = word.strip("`'\" )").split()[-1]
    last = token[-1]
    if "\uac00" <= last <= "\ud7a3":
        final = (ord(last) - 0xAC00) % 28
        return "none" if final == 0 else "rieul" if final == 8 else "other"
    if last.isdigit():
        return _DIGIT_FINALS[last]
    latin = phrases()["_latin"]
    if token.lower() in latin:
        return latin[token.lower()]
    if last.isupper():
        return _LETTER_FINALS.get(last, "none")
    return _guess_final(token.lower())


def _guess_final(word: str) -> str:
    """A guess at how Korean reads the end of a Latin-script word it has no entry for (a new
    organization or product name): words ending in l sound like ㄹ, words ending in a consonant
    sound like another final consonant, the rest like a vowel. A wrong guess only picks the
    other form of a particle in synthetic text, so contributors never have to teach it words."""
    letters = [c for c in word if c.isalpha()]
    if not letters:
        return "none"
    last = letters[-1]
    if last == "l":
        return "rieul"
    if last in "aeiouy" or word.endswith(("er", "or", "ar")):
        return "none"
    return "other"


def particle(word: str, kind: str) -> str:
    """The form of particle `kind` (named by its after-consonant form, "을") that follows `word`."""
    final = final_sound(word)
    if kind == "으로" and final == "rieul":
        return "로"
    after_consonant, after_vowel = _PARTICLES[kind]
    return after_vowel if final == "none" else after_consonant


# --- phrase templates --------------------------------------------------------------------------


@lru_cache(maxsize=1)
def phrases() -> dict:
    """bench/phrases.yml, plus `_latin`: lowercased Latin-script word -> its final sound."""
    data = yaml.safe_load(PHRASES.read_text(encoding="utf-8"))
    data["_latin"] = {
        word.lower(): final for final, words in data["latin_finals"].items() for word in words
    }
    return data


def pair(value: str | list[str]) -> tuple[str, str]:
    """A slot value as (English, Korean); a plain string reads the same in both."""
    return (value, value) if isinstance(value, str) else (value[0], value[1])


_SLOT = re.compile(r"\{(\^?)(\w+)(?::(\w+))?\}")


def fill(template: str, values: dict[str, tuple[str, str]], lang: str) -> str:
    """Fill `{slot}`, `{^slot}` (capitalised) and `{slot:particle}` (Korean) from `values`."""

    def replace(match: re.Match) -> str:
        cap, name, kind = match.groups()
        text = values[name][0 if lang == "en" else 1]
        if cap:
            text = text[0].upper() + text[1:]
        if kind and lang == "ko":
            text += particle(text, kind)
        return text

    return _SLOT.sub(replace, template)


def _phrase(facet: str, term_id: str) -> list:
    """How a term reads inside a sentence: [English, Korean, English title form].

    From bench/phrases.yml where it has the term, else from the term's labels in taxonomy.yml, so
    a term or organization added to the taxonomy never needs benchmark data."""
    table = {"symptom": "symptom_phrases", "cause": "cause_phrases"}.get(facet, "factor_phrases")
    found = phrases()[table].get(term_id)
    if found is None:
        label = next(t["label"] for t in taxonomy_terms()[facet] if t["id"] == term_id)
        found = [label["en"][:1].lower() + label["en"][1:], label["ko"], label["en"]]
    return [*found, found[0][:1].upper() + found[0][1:]] if len(found) == 2 else found


def _products(component: str) -> list:
    """What the prose names for a component: bench/phrases.yml's products, else its labels."""
    found = phrases()["products"].get(component)
    if found is None:
        label = next(t["label"] for t in taxonomy_terms()["component"] if t["id"] == component)
        found = [[label["en"], label["ko"]]]
    return found


@lru_cache(maxsize=4)
def taxonomy(path: Path | None = None):
    """The taxonomy as the generator reads it: facet declarations and terms (the corpus follows
    whatever facets taxonomy.yml declares)."""
    from generator.load.front_matter import parse_yaml
    from generator.load.taxonomy import build_taxonomy

    path = path or TAXONOMY
    text = path.read_text(encoding="utf-8")
    return build_taxonomy(parse_yaml(text, path.name, max_values=None), path.name)[0]


def _byline() -> str:
    facet = taxonomy().byline
    return facet.id if facet is not None else taxonomy().facets[0].id


@lru_cache(maxsize=4)
def taxonomy_terms(path: Path | None = None) -> dict[str, list[dict]]:
    """Facet id -> its terms (id, label, ...) as written in taxonomy.yml."""
    data = yaml.safe_load((path or TAXONOMY).read_text(encoding="utf-8"))
    return {facet["id"]: list(facet["terms"]) for facet in data["facets"]}


@lru_cache(maxsize=4)
def facet_labels(path: Path | None = None) -> dict[str, dict[str, str]]:
    """Facet id -> {"ko": label, "en": label}."""
    data = yaml.safe_load((path or TAXONOMY).read_text(encoding="utf-8"))
    return {facet["id"]: facet["label"] for facet in data["facets"]}


# --- one incident ------------------------------------------------------------------------------


@dataclass(frozen=True)
class SyntheticIncident:
    """A made-up incident: the canonical front matter and the text in both languages."""

    index: int
    id: str
    lang: str  # the original's language
    meta: dict  # every structured field of the canonical file except id, title, summary and lang
    titles: dict[str, str]
    summaries: dict[str, str]
    bodies: dict[str, dict[str, str]]  # lang -> section -> Markdown


def _partial(day: date, precision: str) -> str:
    return {"day": day.isoformat(), "month": day.isoformat()[:7], "year": str(day.year)}[precision]


def _choose(rng: random.Random, pool: list[dict], tags: set[str], low: int, high: int) -> list:
    usable = [p for p in pool if p.get("tag", "any") in tags]
    return rng.sample(usable, min(len(usable), rng.randint(low, high)))


def _prose(sentences: list[str], lang: str) -> str:
    return textwrap.fill(
        " ".join(sentences), WRAP[lang], break_long_words=False, break_on_hyphens=False
    )


def _bullets(items: list[str], lang: str) -> str:
    return "\n".join(
        textwrap.fill(
            item,
            WRAP[lang],
            initial_indent="- ",
            subsequent_indent="  ",
            break_long_words=False,
            break_on_hyphens=False,
        )
        for item in items
    )


def make_incident(index: int, seed: int, used_days: set[tuple[str, str]]) -> SyntheticIncident:
    """Incident number `index` of the corpus for `seed`.

    Each incident draws from its own generator, seeded by (seed, index). `used_days` holds the
    (organization, day) pairs already taken: the validator warns about two incidents of one
    organization on the same day, so a taken day is drawn again (and then added).
    """
    rng = random.Random(f"{seed}:{index}")
    ph = phrases()
    terms = {facet: [t["id"] for t in items] for facet, items in taxonomy_terms().items()}
    byline = _byline()
    labels = {t["id"]: t["label"] for t in taxonomy_terms()[byline]}
    lang = "en" if index % 2 == 0 else "ko"

    # Terms for every facet the taxonomy declares: one for a single-term facet, one to three
    # (none to three where the facet is optional) for the others, in the declared order.
    chosen: dict[str, list[str]] = {}
    for facet in taxonomy().facets:
        pool = terms[facet.id]
        if facet.single:
            chosen[facet.id] = [rng.choice(pool)]
        else:
            low = 1 if facet.required else 0
            picked = rng.sample(pool, rng.randint(low, min(3, len(pool))))
            # A term beside its own descendant says less than the descendant: keep the narrower.
            broader = {a for t in picked for a in taxonomy().ancestors(facet.id, t)}
            picked = [t for t in picked if t not in broader]
            in_order = [t for t in pool if t in picked]  # context terms as the taxonomy orders them
            chosen[facet.id] = in_order if facet.role == "context" else picked
    org = chosen[byline][0]
    for slot in ("symptom", "cause", "component", "contributing_factor"):  # what the prose names
        if not chosen.get(slot) and terms.get(slot):
            chosen[slot] = [rng.choice(terms[slot])]
    domains = chosen.get("domain", [])
    tags = {"any"}
    tags |= {"k8s"} if "kubernetes" in domains else set()
    tags |= {"ai"} if "ai-infra" in domains else set()

    # Dates: occurred at day, month or year precision; published 1-180 days later.
    precision = rng.choices(["day", "month", "year"], weights=[75, 15, 10])[0]
    span = (LAST_DAY - FIRST_DAY).days
    while True:
        day = FIRST_DAY + timedelta(days=rng.randrange(span + 1))
        occurred = _partial(day, precision)
        if precision != "day" or (org, occurred) not in used_days:
            break
    if precision == "day":
        used_days.add((org, occurred))
    published_day = day + timedelta(days=rng.randint(1, 180))
    published = _partial(published_day, rng.choices(["day", "month"], weights=[80, 20])[0])
    ended = None
    if precision == "day" and rng.random() < 0.3:
        ended_day = day + timedelta(days=rng.randint(0, 2))
        ended = ended_day.isoformat() if ended_day <= published_day else None

    # Numbers the prose quotes; scale repeats some of them.
    gpus = 8 * rng.randint(16, 2048)
    names = [pair(rng.choice(_products(c))) for c in chosen["component"]]
    others = [c for c in terms["component"] if c not in chosen["component"]] or terms["component"]
    comp2 = names[1] if len(names) > 1 else pair(rng.choice(_products(rng.choice(others))))
    minor = rng.randint(20, 31)
    small = rng.randint(2, 6)
    factors = chosen["contributing_factor"]
    values = {
        "org": pair(labels[org]["en"]),
        "comp": names[0],
        "comp2": comp2,
        "svc": pair(rng.choice(ph["services"])),
        "metric": pair(rng.choice(ph["metrics"])),
        "region": pair(rng.choice(ph["regions"])),
        "cmd": pair(rng.choice(ph["commands"])),
        "sym": pair(_phrase("symptom", chosen["symptom"][0])[:2]),
        "cause": pair(_phrase("cause", chosen["cause"][0])[:2]),
        "cause_title": pair(_phrase("cause", chosen["cause"][0])[2]),
        "factor": pair(_phrase("contributing_factor", factors[0])[:2]),
        "factor2": pair(_phrase("contributing_factor", factors[-1])[:2]),
        "time_utc": pair(f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}"),
        "gpus": pair(f"{gpus:,}"),
        "hosts": pair(f"{gpus // 8:,}"),
        "nodes": pair(f"{rng.randint(12, 4000):,}"),
        "clusters": pair(str(rng.randint(2, 60))),
        "minutes": pair(str(rng.randint(12, 240))),
        "det_minutes": pair(str(rng.randint(2, 45))),
        "hours": pair(str(rng.randint(2, 30))),
        "pct": pair(str(rng.randint(5, 95))),
        "latency": pair(str(rng.randint(3, 60))),
        "mult": pair(str(rng.randint(3, 12))),
        "ver_old": pair(f"1.{minor}.{rng.randint(0, 15)}"),
        "ver_new": pair(f"1.{minor + 1}.{rng.randint(0, 6)}"),
        "small": pair(str(small)),
        "large": pair(str(small * rng.randint(2, 5))),
        "upd": pair(str(rng.choice([15, 20, 30, 60]))),
        "ck_old": pair(str(rng.choice([60, 120, 180, 240]))),
        "ck_new": pair(str(rng.choice([10, 15, 20, 30]))),
    }

    # Which templates each section uses: chosen once, rendered in both languages.
    symptom_sentences = [rng.choice(ph["symptom_lead"]), *_choose(rng, ph["symptoms"], tags, 5, 8)]
    breaks = sorted(rng.sample(range(2, len(symptom_sentences)), rng.randint(1, 2)))
    trigger = [*_choose(rng, ph["triggers"], tags, 2, 4), rng.choice(ph["cause_lead"])]
    detection = _choose(rng, ph["detection"], tags, 3, 4)
    detection_as_list = rng.random() < 0.4
    actions = _choose(rng, ph["actions"], tags, 4, 6)
    follow_ups = _choose(rng, ph["follow_ups"], tags, 3, 5)
    lessons = [rng.choice(ph["factor_lead"])]
    if len(factors) > 1:
        lessons.append(rng.choice(ph["factor_more"]))
    lessons += _choose(rng, ph["lessons"], tags, 2, 4)
    lessons_as_list = rng.random() < 0.3
    title = rng.choice(ph["titles"])
    summary = rng.choice(ph["summaries"])

    bodies: dict[str, dict[str, str]] = {}
    for text_lang in LANGS:

        def render(items: list[dict], text_lang: str = text_lang) -> list[str]:
            return [fill(item[text_lang], values, text_lang) for item in items]

        rendered = render(symptom_sentences)
        paragraphs = [rendered[a:b] for a, b in zip([0, *breaks], [*breaks, None], strict=True)]
        bodies[text_lang] = {
            "symptoms": "\n\n".join(_prose(p, text_lang) for p in paragraphs),
            "trigger": _prose(render(trigger), text_lang),
            "detection": (_bullets if detection_as_list else _prose)(render(detection), text_lang),
            "actions": _bullets(render(actions), text_lang),
            "follow_ups": _bullets(render(follow_ups), text_lang),
            "lessons": (_bullets if lessons_as_list else _prose)(render(lessons), text_lang),
        }
    titles = {lg: fill(title[lg], values, lg) for lg in LANGS}
    # The first template from the one drawn on that fits the summary limit in both languages
    # (long organization and term names can push a template past it).
    start = ph["summaries"].index(summary)
    for step in range(len(ph["summaries"])):
        summary = ph["summaries"][(start + step) % len(ph["summaries"])]
        summaries = {lg: fill(summary[lg], values, lg) for lg in LANGS}
        if all(len(text) <= SUMMARY_LIMIT for text in summaries.values()):
            break

    incident_id = f"{org}-{chosen['cause'][0]}-{chosen['symptom'][0]}-{index + 1:05d}"
    meta: dict = {"occurred": occurred}
    if ended:
        meta["ended"] = ended
    meta["published"] = published
    meta.update({facet.id: chosen[facet.id] for facet in taxonomy().facets})
    if rng.random() < 0.4:
        scale = {}
        if "ai" in tags:
            scale["gpus"] = gpus
            if rng.random() < 0.5:
                scale["hosts"] = gpus // 8
        if "k8s" in tags:
            scale["nodes"] = int(values["nodes"][0].replace(",", ""))
            if rng.random() < 0.5:
                scale["clusters"] = int(values["clusters"][0])
        # Only figures the text states, as the checker asks of a case.
        written = "\n".join([titles[lang], summaries[lang], *bodies[lang].values()])
        meta["scale"] = {key: n for key, n in scale.items() if _states(written, n)}
    publisher = labels[org]["en"]
    sources = [
        {
            "url": f"https://{org}.bench-reports.dev/blog/{incident_id}",
            "title": f"Postmortem: {titles['en'].split(': ', 1)[1]}",
            "publisher": publisher,
            "date": published,
        }
    ]
    if rng.random() < 0.5:
        sources.append(
            {
                "url": f"https://status.bench-reports.dev/{org}/incidents/{index + 1:06d}",
                "title": f"Incident {index + 1:06d}: {values['svc'][0]} in {values['region'][0]}",
                "publisher": f"{publisher} status page",
                "date": occurred if precision == "day" else published,
            }
        )
    meta["sources"] = sources
    return SyntheticIncident(index, incident_id, lang, meta, titles, summaries, bodies)


def _states(text: str, number: int) -> bool:
    """Whether `text` writes `number` (4088 or 4,088) as a number of its own."""
    forms = "|".join(re.escape(f) for f in {str(number), f"{number:,}"})
    return re.search(rf"(?<![\d.,])(?:{forms})(?![\d,]|\.\d)", text) is not None


def generate_incidents(count: int, seed: int = 1) -> Iterator[SyntheticIncident]:
    """The first `count` incidents of the corpus for `seed`, in order."""
    used_days: set[tuple[str, str]] = set()
    for index in range(count):
        yield make_incident(index, seed, used_days)


# --- files -------------------------------------------------------------------------------------


def _quote(text: str) -> str:
    """A YAML double-quoted scalar (JSON strings are valid YAML)."""
    return json.dumps(text, ensure_ascii=False)


def _flow(items: list[str]) -> str:
    return "[" + ", ".join(items) + "]"


def _body(sections: dict[str, str], lang: str) -> str:
    return "".join(f"\n## {HEADINGS[lang][key]}\n\n{sections[key]}\n" for key in SECTIONS)


def canonical_file(incident: SyntheticIncident) -> str:
    """The text of `incidents/<id>.md`."""
    meta, lang = incident.meta, incident.lang
    lines = [
        "---",
        f"id: {incident.id}",
        f"title: {_quote(incident.titles[lang])}",
        f"summary: {_quote(incident.summaries[lang])}",
        f"lang: {lang}",
        f"occurred: {meta['occurred']}",
    ]
    if "ended" in meta:
        lines.append(f"ended: {meta['ended']}")
    lines.append(f"published: {meta['published']}")
    for facet in taxonomy().facets:
        value = meta[facet.id]
        lines.append(f"{facet.id}: {value[0] if facet.single else _flow(value)}")
    if meta.get("scale"):
        lines.append("scale:")
        lines += [f"  {key}: {value}" for key, value in meta["scale"].items()]
    lines.append("sources:")
    for source in meta["sources"]:
        lines += [
            f"  - url: {source['url']}",
            f"    title: {_quote(source['title'])}",
            f"    publisher: {_quote(source['publisher'])}",
            f"    date: {source['date']}",
        ]
    lines.append("---")
    return "\n".join(lines) + "\n" + _body(incident.bodies[lang], lang)


def translation_file(incident: SyntheticIncident) -> tuple[str, str]:
    """(language, text) of the translation `incidents/<id>.<language>.md`."""
    lang = "ko" if incident.lang == "en" else "en"
    head = (
        f"---\ntitle: {_quote(incident.titles[lang])}\n"
        f"summary: {_quote(incident.summaries[lang])}\n---\n"
    )
    return lang, head + _body(incident.bodies[lang], lang)


def _prepare(out: Path) -> Path:
    """Resolve `out` and make sure it is a folder this module may write into.

    The repository itself (or a folder holding it) and the real incidents/ are refused, and so is an
    existing non-empty folder that this module did not create (it has no marker file).
    """
    out = out.resolve()
    incidents = (REPO / "incidents").resolve()
    if out in (REPO, incidents) or out in REPO.parents or incidents in out.parents:
        raise SystemExit(f"refusing to write a synthetic corpus into {out}")
    if out.exists() and any(out.iterdir()) and not (out / MARKER).exists():
        raise SystemExit(f"{out} exists and was not made by bench/generate.py; choose another")
    out.mkdir(parents=True, exist_ok=True)
    (out / MARKER).write_text("written by bench/generate.py; safe to delete\n", encoding="utf-8")
    return out


def _fresh(folder: Path) -> Path:
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    return folder


def write_project(count: int, out: Path, seed: int = 1) -> Path:
    """Write a buildable project with `count` synthetic incidents (and translations) into `out`."""
    out = _prepare(out)
    shutil.copy2(TAXONOMY, out / "taxonomy.yml")
    shutil.copy2(REPO / "mkdocs.yml", out / "mkdocs.yml")
    for name in ("docs", "overrides"):
        if (out / name).exists():
            shutil.rmtree(out / name)
        shutil.copytree(REPO / name, out / name)
    folder = _fresh(out / "incidents")
    for incident in generate_incidents(count, seed):
        (folder / f"{incident.id}.md").write_text(canonical_file(incident), encoding="utf-8")
        other, text = translation_file(incident)
        (folder / f"{incident.id}.{other}.md").write_text(text, encoding="utf-8")
    return out


# --- the plain Material baseline ---------------------------------------------------------------

PLAIN_MKDOCS_YML = """\
# A plain Material for MkDocs site with the same number of case pages, written as Markdown:
# what a user would get without the incident-library plugin (bench/run.py's baseline).
site_name: Plain Material baseline
use_directory_urls: false
theme:
  name: material
  font: false
  features:
    - navigation.prune
# No search plugin, so the comparison is about building pages. No nav: MkDocs builds it from docs/.
plugins: []
"""
_PLAIN_WORDS = {
    "ko": {
        "occurred": "발생",
        "published": "공개",
        "scale": "규모",
        "sources": "출처",
        "related": "관련 사례",
    },
    "en": {
        "occurred": "Occurred",
        "published": "Published",
        "scale": "Scale",
        "sources": "Sources",
        "related": "Related cases",
    },
}
_SCALE_WORDS = {
    "ko": {
        "gpus": "GPU {n}개",
        "hosts": "호스트 {n}대",
        "nodes": "노드 {n}대",
        "clusters": "클러스터 {n}개",
    },
    "en": {
        "gpus": "{n} GPUs",
        "hosts": "{n} hosts",
        "nodes": "{n} nodes",
        "clusters": "{n} clusters",
    },
}


def plain_page(incident: SyntheticIncident, lang: str, related: list[SyntheticIncident]) -> str:
    """A case page as a plain Markdown page: title, facts, sections, terms as text, sources."""
    meta = incident.meta
    terms = {
        facet: {t["id"]: t["label"][lang] for t in items}
        for facet, items in taxonomy_terms().items()
    }
    facets = facet_labels()
    words = _PLAIN_WORDS[lang]
    body = incident.bodies[lang]

    def term_line(facet: str) -> str:
        return ", ".join(terms[facet][term_id] for term_id in meta[facet])

    out = [f"# {incident.titles[lang]}", "", incident.summaries[lang], ""]
    for facet in taxonomy().context:
        out.append(f"- **{facets[facet.id][lang]}:** {term_line(facet.id)}")
    out.append(f"- **{words['occurred']}:** {meta['occurred']}")
    out.append(f"- **{words['published']}:** {meta['published']}")
    if meta.get("scale"):
        scale = ", ".join(
            _SCALE_WORDS[lang][k].format(n=f"{v:,}") for k, v in meta["scale"].items()
        )
        out.append(f"- **{words['scale']}:** {scale}")
    heading = HEADINGS[lang]
    out += ["", f"## {heading['symptoms']}", "", body["symptoms"], ""]
    for facet in taxonomy().descriptive:
        if facet.case_section == "symptoms":
            out += [f"**{facets[facet.id][lang]}:** {term_line(facet.id)}", ""]
    out += [f"## {heading['trigger']}", "", body["trigger"], ""]
    for facet in taxonomy().descriptive:
        if not facet.case_section:
            out += [f"## {facets[facet.id][lang]}", "", term_line(facet.id), ""]
    for key in ("detection", "actions", "follow_ups", "lessons"):
        out += [f"## {heading[key]}", "", body[key], ""]
    out += [f"## {words['sources']}", ""]
    for number, source in enumerate(meta["sources"], 1):
        out.append(
            f"{number}. [{source['title']}]({source['url']}) — {source['publisher']}, "
            f"{source['date']}"
        )
    if related:
        out += ["", f"## {words['related']}", ""]
        out += [f"- [{other.titles[lang]}]({other.id}.md)" for other in related]
    return "\n".join(out) + "\n"


def write_plain_pages(count_pages: int, out_dir: Path, seed: int = 1, layout: str = "flat") -> int:
    """Write `count_pages` case pages as Markdown into a plain Material project at `out_dir`.

    Pages alternate Korean and English versions of the same synthetic incidents (the incident
    library's case pages: N incidents in 2 languages). The project has no navigation of its own,
    so MkDocs lists every page from the folders, as a plain user's site would. `layout`: "flat"
    puts every case under docs/<lang>/cases/ (each page's navigation then lists all its
    siblings); "by-month" under docs/<lang>/cases/<year>/<month>/ by the date the incident
    occurred, as someone keeping thousands of pages would fold them. Returns the pages written.
    """
    if layout not in ("flat", "by-month"):
        raise ValueError(f"unknown layout {layout!r}")
    out_dir = _prepare(out_dir)
    docs = _fresh(out_dir / "docs")
    (out_dir / "mkdocs.yml").write_text(PLAIN_MKDOCS_YML, encoding="utf-8")
    (docs / "index.md").write_text(
        "# Plain Material baseline\n\nCase pages written as Markdown, in Korean and English.\n",
        encoding="utf-8",
    )
    incidents = list(generate_incidents(-(-count_pages // 2), seed))
    for number in range(count_pages):
        position, lang = divmod(number, 2)
        incident = incidents[position]
        others = [incidents[(position + k) % len(incidents)] for k in range(1, 6)]
        related = list({o.id: o for o in others if o.id != incident.id}.values())
        page = plain_page(incident, LANGS[lang], related)
        folder = docs / LANGS[lang] / "cases"
        if layout == "by-month":
            year, month = (str(incident.meta["occurred"]).split("-") + ["01"])[:2]
            folder = folder / year / month
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{incident.id}.md").write_text(page, encoding="utf-8")
    return count_pages


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, required=True, help="number of incidents")
    parser.add_argument("--out", type=Path, required=True, help="folder for the project")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--plain", type=Path, help="also write the plain Material baseline (2×COUNT pages) here"
    )
    args = parser.parse_args(argv)
    if args.count < 1:
        parser.error("--count must be at least 1")
    out = write_project(args.count, args.out, args.seed)
    print(f"wrote {args.count} incidents ({2 * args.count} files) into {out}", file=sys.stderr)
    if args.plain:
        pages = write_plain_pages(2 * args.count, args.plain, args.seed)
        print(f"wrote {pages} plain pages into {args.plain.resolve()}", file=sys.stderr)


if __name__ == "__main__":
    main()
