"""The graph of cases and their terms, laid out at build time. Pure and deterministic.

Terms (symptoms, causes, components, contributing factors) are placed by a force-directed layout
of the term co-occurrence graph; each case then sits near the centre of its own terms. The same
library always gives the same coordinates, so two builds are byte-identical, and the browser only
draws: it never has to run a layout, whatever the number of cases.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping
from dataclasses import dataclass

from ..model.library import Library
from ..model.taxonomy import Term

WIDTH, HEIGHT = 1000.0, 640.0
ITERATIONS = 150


def _jitter(key: str) -> tuple[float, float]:
    digest = hashlib.sha1(key.encode("utf-8")).digest()
    return digest[0] / 255.0 - 0.5, digest[1] / 255.0 - 0.5


@dataclass(frozen=True)
class Layout:
    """Where each drawn term and each case sits, worked out once for both languages."""

    positions: Mapping[tuple[str, str], tuple[float, float]]  # (facet, term) -> (x, y)
    cases: Mapping[str, tuple[float, float]]  # case id -> (x, y)


def layout_terms(library: Library) -> Layout:
    """Fruchterman–Reingold over the used terms of the drawn facets, weighted by co-occurrence,
    from a fixed start; then each case amid its own drawn terms. The layout depends only on
    the cases' terms and the taxonomy: a preview keeps it while those are as they were
    (pipeline/changes.py)."""
    drawn = {f.id for f in library.taxonomy.graphed}
    terms = sorted(
        {t for i in library.incidents for t in library.descriptive_terms(i) if t.facet in drawn}
    )
    weights = {
        (a, b): w for (a, b), w in library.pairs().items() if a.facet in drawn and b.facet in drawn
    }
    positions = _layout(terms, weights, tuple(library.taxonomy.graph)) if terms else {}
    keys = sorted(positions)
    index = {key: i for i, key in enumerate(keys)}
    cases = {}
    for incident in library.incidents:
        own = [index[t.key] for t in library.descriptive_terms(incident) if t.key in index]
        cases[incident.id] = _case_position(incident.id, own, keys, positions)
    return Layout(positions, cases)


def _layout(
    terms: list[Term], weights, facets: tuple[str, ...]
) -> dict[tuple[str, str], tuple[float, float]]:
    # Start each facet on its own arc of a circle, so facets begin apart and the result is stable.
    position: dict[Term, list[float]] = {}
    for index, term in enumerate(terms):
        facet_index = facets.index(term.facet)
        angle = 2 * math.pi * (facet_index + index / max(1, len(terms))) / len(facets)
        jx, jy = _jitter(term.facet + ":" + term.id)
        position[term] = [math.cos(angle) + jx * 0.1, math.sin(angle) + jy * 0.1]
    n = len(terms)
    xs = [position[t][0] for t in terms]
    ys = [position[t][1] for t in terms]
    at = {t: i for i, t in enumerate(terms)}
    edges = sorted((at[a], at[b], 1 + math.log(w)) for (a, b), w in weights.items())
    k2 = 10.0 / n
    k = math.sqrt(k2)
    temperature = 0.1
    for _ in range(ITERATIONS):
        fx = [-x * 0.3 for x in xs]  # a pull to the centre keeps unrelated terms on screen
        fy = [-y * 0.3 for y in ys]
        for i in range(n):
            xi, yi = xs[i], ys[i]
            for j in range(i + 1, n):
                dx = xi - xs[j]
                dy = yi - ys[j]
                d2 = dx * dx + dy * dy or 1e-8
                f = k2 / d2  # repulsion k²/d, along the unit vector (dx, dy)/d
                fx[i] += dx * f
                fy[i] += dy * f
                fx[j] -= dx * f
                fy[j] -= dy * f
        for i, j, w in edges:
            dx = xs[i] - xs[j]
            dy = ys[i] - ys[j]
            f = math.sqrt(dx * dx + dy * dy) / k * w  # attraction d²/k, scaled by co-occurrence
            fx[i] -= dx * f
            fy[i] -= dy * f
            fx[j] += dx * f
            fy[j] += dy * f
        for i in range(n):
            length = math.hypot(fx[i], fy[i]) or 1e-9
            step = min(length, temperature)
            xs[i] += fx[i] / length * step
            ys[i] += fy[i] / length * step
        temperature = max(temperature * 0.97, 0.002)
    position = {t: [xs[i], ys[i]] for i, t in enumerate(terms)}
    return _fit({t.key: (p[0], p[1]) for t, p in position.items()}, margin=70.0)


def _fit(points: dict, margin: float) -> dict:
    xs = [p[0] for p in points.values()]
    ys = [p[1] for p in points.values()]
    span_x = max(max(xs) - min(xs), 1e-9)
    span_y = max(max(ys) - min(ys), 1e-9)
    out = {}
    for key, (x, y) in points.items():
        fx = margin + (x - min(xs)) / span_x * (WIDTH - 2 * margin)
        fy = margin + (y - min(ys)) / span_y * (HEIGHT - 2 * margin)
        out[key] = (round(fx, 1), round(fy, 1))
    return out


def _case_position(case_id: str, own: list[int], keys, term_positions) -> tuple[float, float]:
    """A case sits amid its drawn terms (the middle without any), jittered by its id, clear of
    every term node."""
    if own:
        cx = sum(term_positions[keys[i]][0] for i in own) / len(own)
        cy = sum(term_positions[keys[i]][1] for i in own) / len(own)
    else:
        cx, cy = WIDTH / 2, HEIGHT / 2
    jx, jy = _jitter(case_id)
    return _clear_of_terms(cx + jx * 60, cy + jy * 60, term_positions.values())


def _clear_of_terms(x: float, y: float, terms, gap: float = 26.0) -> tuple[float, float]:
    """Nudge a case node off any term node it would cover, so both stay clickable."""
    for _ in range(8):
        moved = False
        for tx, ty in terms:
            dx, dy = x - tx, y - ty
            distance = math.hypot(dx, dy)
            if distance < gap:
                if distance < 1e-6:
                    dx, dy, distance = 1.0, 0.0, 1.0
                x, y = tx + dx / distance * gap, ty + dy / distance * gap
                moved = True
        if not moved:
            break
    return round(x, 1), round(y, 1)


def graph_payload(library: Library, lang: str, layout: Layout) -> dict:
    """Nodes with build-time coordinates for the library page's graph (compact, per language).

    `layout` comes from `layout_terms`, computed once for both languages. Each case lists its
    drawn terms by index (`t`) and the terms of every other facet by id (`f`), for filtering."""
    term_positions = layout.positions
    drawn = {f.id for f in library.taxonomy.graphed}
    keys = sorted(term_positions)
    index = {key: i for i, key in enumerate(keys)}
    terms = []
    for facet, term_id in keys:
        term = library.taxonomy.term(facet, term_id)
        x, y = term_positions[(facet, term_id)]
        terms.append({"f": facet, "id": term_id, "label": term.label(lang), "x": x, "y": y})
    cases = []
    for incident in library.incidents:
        own = [index[t.key] for t in library.descriptive_terms(incident) if t.key in index]
        x, y = layout.cases[incident.id]
        cases.append(
            {
                "id": incident.id,
                "title": incident.text(lang).title,
                "x": x,
                "y": y,
                "t": own,
                "f": {
                    f.id: list(incident.term_ids(f.id))
                    for f in library.taxonomy.facets
                    if f.id not in drawn
                },
            }
        )
    return {"width": WIDTH, "height": HEIGHT, "terms": terms, "cases": cases}
