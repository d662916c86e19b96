"""What a build may keep from the site before it: a preview's rebuild after an edit.

A preview builds the site again after every saved edit, and most of what its last build made
still holds. Whether it does is decided here, once per build, from four facts about the checked
library against the last site's: whether the taxonomy is the same, whether the cases are the
same ones in the same order, whether each case has the terms it had, and which cases were edited
(new, or different in any way). The stages are handed what holds; none of them compares the new
site with the old one itself, and a build without a last site works everything out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Protocol

from ..model.incident import Incident
from ..model.library import Library, newest_first
from ..model.taxonomy import Taxonomy
from ..outputs.graph import Layout
from ..outputs.search_data import LastSearch, card_path
from ..pages.kinds import CasePage, Page
from ..render.renderer import Sections
from ..search.corpus import Analysed, SearchCorpus

Rendered = tuple[bytes, "Sections | None", "bytes | None"]  # content, sections, card
EMPTY: Mapping = MappingProxyType({})


class LastSite(Protocol):
    """What a build reads of the last site (pipeline/site.py's `Site`)."""

    library: Library
    layout: Layout
    corpora: Mapping[str, SearchCorpus]
    analysed: Mapping[str, Analysed]
    files: Mapping[str, bytes]
    contents: Mapping[str, bytes]
    sections: Mapping[str, Sections]

    def page(self, url: str) -> Page | None: ...


@dataclass(frozen=True)
class Changes:
    """The library against the last site's (`since`), and what of that site each stage keeps."""

    last: LastSite | None
    same_taxonomy: bool
    same_order: bool  # the same cases, in the same order
    same_terms: bool  # the same taxonomy and cases, each case with the terms it had
    edited: frozenset[str]  # the cases new or different since the last site (all, without one)

    @classmethod
    def since(
        cls, last: LastSite | None, taxonomy: Taxonomy, incidents: Iterable[Incident]
    ) -> Changes:
        ordered = sorted(incidents, key=newest_first)
        if last is None:
            return cls(None, False, False, False, frozenset(i.id for i in ordered))
        before = {i.id: i for i in last.library.incidents}  # in the last library's order
        edited = frozenset(i.id for i in ordered if before.get(i.id) != i)
        same_taxonomy = last.library.taxonomy == taxonomy
        same_order = [i.id for i in ordered] == list(before)
        same_terms = (
            same_taxonomy
            and len(ordered) == len(before)
            and all(
                i.id in before
                and all(before[i.id].term_ids(f.id) == i.term_ids(f.id) for f in taxonomy.facets)
                for i in ordered
                if i.id in edited
            )
        )
        return cls(last, same_taxonomy, same_order, same_terms, edited)

    def ranked(self) -> Library | None:
        """The last library, if its ranking of related cases holds: it reads every case's terms
        and the order (a term's newest cases are the candidates, ties go to the newer)."""
        return self.last.library if self.last and self.same_terms and self.same_order else None

    def counted(self) -> Library | None:
        """The last library, if its term pairs and companions hold (they read the terms only)."""
        return self.last.library if self.last and self.same_terms else None

    def layout(self) -> Layout | None:
        """The last graph layout, if it holds: it reads the cases' terms and the taxonomy."""
        return self.last.layout if self.last and self.same_terms else None

    def analysed(self) -> Mapping[str, Analysed]:
        """The last analyses of the cases not edited, under the same taxonomy (a case's lead
        holds its terms' labels). A last site that was not a preview's kept none."""
        if self.last is None or not self.same_taxonomy:
            return EMPTY
        return {k: case for k, case in self.last.analysed.items() if k not in self.edited}

    def sentences(self, lang: str) -> Mapping[str, tuple[str, ...]]:
        """The sentences the last site's cards quoted from the cases not edited, in `lang`
        (they read the case's text alone)."""
        if self.last is None or lang not in self.last.corpora:
            return EMPTY
        quoted = self.last.corpora[lang].sentences
        return {k: found for k, found in quoted.items() if k not in self.edited}

    def search(self, library: Library) -> LastSearch | None:
        """The last search files, if every position still means the case it meant, under the
        same taxonomy."""
        if self.last is None or not (self.same_taxonomy and self.same_order and self.last.corpora):
            return None
        corpus = next(iter(self.last.corpora.values())).corpus
        edited = frozenset(at for at, i in enumerate(library.incidents) if i.id in self.edited)
        return LastSearch(self.last.files, corpus, edited)

    def rendered(self, page: Page) -> Rendered | None:
        """What the last site rendered for a page equal to `page` (the page's value holds
        everything it shows): its content, its sections and, for a case, its card."""
        last = self.last
        if last is None or last.page(page.url) != page or page.url not in last.contents:
            return None
        card = None
        if isinstance(page, CasePage):
            card = last.files.get(card_path(page.lang, page.incident.id))
        return last.contents[page.url], last.sections.get(page.url), card
