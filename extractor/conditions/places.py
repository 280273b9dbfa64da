"""Where a claim sits, as the scope readers ask it: the list it belongs to, its sections, the paragraph
that leads into its list or table, the footnotes under a table, the setup sections that cover it, the
section a highlight bullet links to, the source a cited result comes from, and the captions near it."""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from pathlib import Path

from rapidfuzz import fuzz

from extractor.claims.rules import load_claim_rules
from extractor.conditions.context import DocContext
from extractor.conditions.credits import CitationRules, DocumentCredits
from extractor.conditions.neighbours import (  # noqa: F401 (the rung readers import them from here too)
    FOOTNOTE_CHARS, NEAR_FIGURE_BLOCKS, SENTENCE_END, ancestors, footnotes, introducing_sentence, labelled_settings,
    lead_in, near_captions, sibling_items)
from extractor.conditions.rules import ScopeRules
from extractor.conditions.setup_references import setup_references
from extractor.ingest import Document
from extractor.ingest.segment import Passage
from extractor.records import Claim

RATIO_OBJECT_CHARS = 40
# where a figure's clause ends after it, and where it starts before it (a comma, a sentence end, a conjunction of
# contrast): "goodput grows 3x, although TTFT barely moves" names goodput's family, not TTFT's
# Metric families whose figures a caption may name ("max throughput", "first-token latency").
FAMILIES = {"throughput": "rate", "request_throughput": "rate", "ttft": "latency", "tpot": "latency",
            "itl": "latency", "e2e_latency": "latency", "latency": "latency"}


class Places:
    """The questions about a claim's place that need the rules: its metric family here; linked section, cited
    source, caption fit and covering setup sections per document (`reading`)."""

    def __init__(self, rules_dir: Path, scopes: ScopeRules):
        self.scopes = scopes
        cue_words = sorted(map(re.escape, scopes.external_cues), key=len, reverse=True)
        self.external_cue = re.compile(rf"(?<!\w)(?:{'|'.join(cue_words)})(?!\w)", re.I) if cue_words \
            else re.compile(r"(?!)")
        self.setup_reference = re.compile(scopes.setup_reference, re.I)
        self.citations = CitationRules(scopes)
        self.ratio_clause_end = re.compile(scopes.ratio_clause_end)
        self.ratio_clause_start = re.compile(scopes.ratio_clause_start)
        self.ratio_levels = re.compile(scopes.ratio_levels, re.I)
        cues = load_claim_rules(rules_dir).metric_cues
        self.names_no_metric = re.compile(scopes.names_no_metric, re.I)
        self.family_cues = {}
        for family in set(FAMILIES.values()):
            # longest first, ties by text: the same pattern in every process (a set's order follows the hash seed)
            phrases = sorted({p for m, f in FAMILIES.items() if f == family for p in cues.get(m, [])},
                             key=lambda p: (-len(p), p))
            self.family_cues[family] = re.compile(r"(?<!\w)(?:" + "|".join(map(self._cue, phrases)) + r")(?!\w)",
                                                  re.I)
        # what a quality figure is named by ("accuracy", "score", "MMLU"): a caption naming only that shows scores
        quality = sorted(set(cues.get("accuracy", [])), key=lambda p: (-len(p), p))
        self.quality_cue = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, quality)) + r")(?!\w)", re.I) \
            if quality else re.compile(r"(?!)")

    def _cue(self, phrase: str) -> str:
        """One metric cue as a pattern; a cue that is a modifier ("end-to-end") names no metric before a noun
        that is not one ("end-to-end serving", "an end-to-end pipeline")."""
        if phrase.lower() in {w.lower() for w in self.scopes.family_modifier_cues}:
            return re.escape(phrase) + r"(?![\s-]+(?:" + self.scopes.family_modified_nouns + r")\b)"
        return re.escape(phrase)

    def family(self, d: Document, claim: Claim) -> str | None:
        """The metric family of a claim: its metric's, or for a speed-up or change what the words right
        after it say it is of ("3.1x faster time to first token" is about latency)."""
        if claim.metric in FAMILIES:
            return FAMILIES[claim.metric]
        if claim.metric not in ("speedup", "relative_change"):
            return None
        in_meta = d.meta_span is not None and d.meta_span[0] <= claim.span[0] < d.meta_span[1]
        text = d.text if in_meta else d.view   # (the view blanks front matter)
        # the figure's own clause: what follows it up to a clause break, else what leads to it
        after = text[claim.span[0]:claim.span[1] + RATIO_OBJECT_CHARS]
        figure_end = claim.span[1] - claim.span[0]
        end = self.ratio_clause_end.search(after, figure_end)
        after = after[:end.start() if end else len(after)]
        hits = [(m.start(), f) for f, rx in self.family_cues.items() if (m := rx.search(after))]
        if hits:
            return min(hits)[1]
        before = text[max(0, claim.span[0] - RATIO_OBJECT_CHARS):claim.span[0]]
        before = before[max((m.end() for m in self.ratio_clause_start.finditer(before)), default=0):]
        hits = [(m.end(), f) for f, rx in self.family_cues.items() for m in rx.finditer(before)]
        if hits:
            return max(hits)[1]
        # the levels it compares, after it: "2.4x quicker, going from 52 tok/s to 125 tok/s"
        if (levels := self.ratio_levels.match(text, claim.span[1])) is None:
            return None
        unit = levels.group("unit")
        return next((f for f, rx in sorted(self.family_cues.items()) if rx.fullmatch(unit)), None)

    def reading(self, ctx: DocContext) -> DocumentPlaces:
        """The place questions of one document, each answered once where many claims ask alike."""
        return DocumentPlaces(self, ctx)


# the longest highlight read as a feature's label: a short label ("Smarter routing"), or a highlight written as one
# clause without a separator ("As much as 4x more tokens per second with the fused paged kernels"); a longer item
# is a sentence of the summary, not the name of a section's feature
LABEL_WORDS = 12


class DocumentPlaces:
    """One document's place questions that need the rules, with what they index or memoise for it: the setup
    sections by parent, the best section per feature label, the paragraphs that cite a source, the families a
    caption names."""

    def __init__(self, places: Places, ctx: DocContext):
        self.places, self.ctx = places, ctx
        self._setup_by_parent: dict[int | None, list[int]] | None = None
        self._top_setup_starts: list[int] | None = None   # the setup sections of parent None, if in text order
        self._section_starts: list[int] | None = None   # the sections' starts when in text order, else []
        self._feature_links: dict[str, list[tuple[float, int | None]]] = {}
        self._external_cue: dict[int, bool] = {}
        self._caption_families: dict[int, tuple[frozenset[str], bool]] = {}
        self.credits = DocumentCredits(places.citations, ctx)   # who the figures are credited to
        self._setup_references: dict[int, list[tuple[int, int]]] | None = None   # section -> (link, linked section)

    def covering_setup(self, section: int | None, before: int) -> tuple[int, ...]:
        """Setup sections that cover a claim in `section` at offset `before`, in section order: top-level ones and
        those of the post's back matter (an appendix sets up the whole post), or ones whose parent is an
        ancestor of the claim's section (the claim's own section included); of those, the ones that start
        before the claim when any do (a set-up given before the results governs them, not a later one). And the
        sections that the claim's section or one above it points to as the set-up before the claim
        (setup_references.py)."""
        covering = self._covering_setup(section, before)
        if self._setup_references is None:
            self._setup_references = setup_references(self.ctx.d, self.places.setup_reference)
        if not self._setup_references:
            return covering
        chain = ancestors(self.ctx.d, section)
        linked = {target for s in chain for at, target in self._setup_references.get(s, ())
                  if at < before and target not in chain}
        return tuple(sorted(linked.union(covering))) if linked else covering

    def _covering_setup(self, section: int | None, before: int) -> tuple[int, ...]:
        ctx = self.ctx
        sections = ctx.d.sections
        if self._setup_by_parent is None:   # indexed once: a claim looks up its chain, not every setup section
            self._setup_by_parent = {}
            for i in ctx.setup:
                parent = None if i in ctx.back_matter_setup else sections[i].parent
                self._setup_by_parent.setdefault(parent, []).append(i)
                self._setup_by_parent.setdefault(-1 - i, []).append(i)   # -1-i: section i is a setup section itself
            starts = [sections[i].start for i in self._setup_by_parent.get(None, ())]
            self._top_setup_starts = starts if all(a <= b for a, b in zip(starts, starts[1:])) else None
        top = self._setup_by_parent.get(None, [])   # (ctx.setup is in section order)
        chain = ancestors(ctx.d, section)
        found = {i for p in chain for i in self._setup_by_parent.get(p, ())}
        found.update(i for p in chain for i in self._setup_by_parent.get(-1 - p, ()))
        found.difference_update(top)
        found = self._own_experiment_setup(found, chain)
        # the top-level ones that start before the claim: a prefix of them (a bisection, not a scan of every one)
        k = bisect_left(self._top_setup_starts, before) if self._top_setup_starts is not None \
            else sum(sections[i].start < before for i in top)
        earlier = {i for i in found if sections[i].start < before}
        if k or earlier:
            return tuple(sorted(earlier.union(top[:k]))) if self._top_setup_starts is not None \
                else tuple(sorted(earlier.union(i for i in top if sections[i].start < before)))
        return tuple(sorted(found.union(top)))

    def _own_experiment_setup(self, found: set[int], chain: list[int]) -> set[int]:
        """`found` without the setup sections of a sibling branch that are set up by labelled items alone and report
        results of their own ("### Case 2" listing "- Configuration: ..." over its figures, "### v1.2" listing
        "- Model: ..." over its table): such a section sets up its own experiment, not the claim's. A set-up without
        results ("## Prerequisites" listing "Hardware: ...") still covers."""
        labelled = self.ctx.labelled_setup
        if not labelled:
            return found
        ctx, sections = self.ctx, self.ctx.d.sections
        return {i for i in found if i in chain or i not in labelled
                or not ctx.claims_in(sections[i].start, sections[i].body_end)}

    def linked_section(self, claim: Claim, passage: Passage) -> int | None:
        """For a headline claim in a list item ("Smarter routing: up to 1.5x ..."), the section
        whose heading names the same feature, when one matches well: of the sections after the item, the
        first of those that match best."""
        d = self.ctx.d
        if not claim.headline or passage.block < 0 or d.blocks[passage.block].kind != "list_item":
            return None
        b = d.blocks[passage.block]
        item = d.view[b.start:b.end]
        label = re.split(r"[:—–]|\s-\s", item, maxsplit=1)[0].strip()
        if not label or len(label.split()) > LABEL_WORDS:
            return None
        if self._section_starts is None:
            starts = [sec.start for sec in d.sections]
            self._section_starts = starts if all(a <= c for a, c in zip(starts, starts[1:])) else []
        starts = self._section_starts
        if d.sections and not starts:   # (sections out of text order: every one is read)
            best, best_score = None, 0.0
            for i, sec in enumerate(d.sections):
                if sec.start > b.start and (score := fuzz.token_set_ratio(label.lower(), sec.title.lower())) > best_score:
                    best, best_score = i, score
            return best if best_score >= self.places.scopes.feature_link_score else None
        best = self._best_after(label.lower())[bisect_right(starts, b.start)]
        return best[1] if best[0] > 0 and best[0] >= self.places.scopes.feature_link_score else None

    def _best_after(self, label: str) -> list[tuple[float, int | None]]:
        """For each section i (sections in text order), the best score of `label` against the titles of
        sections i and after, and the first section that has it; once per document and label, each distinct
        title scored once (a long post repeats its labels and headings)."""
        ctx = self.ctx
        if label not in self._feature_links:
            scores: dict[str, float] = {}
            best: list[tuple[float, int | None]] = [(0.0, None)]
            for i in range(len(ctx.d.sections) - 1, -1, -1):
                title = ctx.d.sections[i].title.lower()
                if title not in scores:
                    scores[title] = fuzz.token_set_ratio(label, title)
                best.append((scores[title], i) if scores[title] >= best[-1][0] else best[-1])
            self._feature_links[label] = best[::-1]
        return self._feature_links[label]

    def external_source(self, claim: Claim, passage: Passage, linked: int | None) -> str | None:
        """The link a post gives as the source of a result it reports from elsewhere ("According to
        its authors ... more details in their post: <link>"), for the claim's paragraph or,
        for a highlight bullet, the paragraph of its `linked` section that gives the same figure."""
        d = self.ctx.d
        blocks = [passage.block] if passage.block >= 0 else []
        if linked is not None:
            sec = d.sections[linked]
            number = re.escape(re.sub(r"\.0$", "", f"{abs(claim.value):g}"))
            blocks += [i for i, b in enumerate(d.blocks) if sec.start <= b.start < sec.body_end
                       and re.search(rf"(?<![\d.]){number}(?![\d])", d.view[b.start:b.end])]
        for i in blocks:
            b = d.blocks[i]
            if i not in self._external_cue:
                self._external_cue[i] = self.places.external_cue.search(d.view, b.start, b.end) is not None
            if not self._external_cue[i]:
                continue
            span_end = d.blocks[i + 1].end if i + 1 < len(d.blocks) else b.end
            link = next((ln.target for ln in d.links if b.start <= ln.start < span_end
                         and ln.target.startswith(("http://", "https://"))), None)
            if link:
                return link
        return None

    def cited_from(self, claim: Claim, passage: Passage, source: str | None) -> str | None:
        """`DocumentCredits.cited_from` (credits.py)."""
        return self.credits.cited_from(claim, passage, source)

    def caption_fits(self, block: int, family: str | None, quality: bool = False) -> bool:
        """A caption that names what its figure shows ("first-token latency") describes claims of that kind
        only; one naming nothing fits any. A caption that names only a quality score ("accuracy", "score",
        "MMLU") shows scores: it fits no speed, latency or memory figure, and a score (`quality`) fits no
        caption that names only speeds or latencies."""
        ctx = self.ctx
        if block not in self._caption_families:
            b = ctx.d.blocks[block]
            # (words that name no metric there, "end-to-end serving performance", are blanked out first)
            caption = self.places.names_no_metric.sub(lambda m: " " * len(m.group(0)), ctx.d.view[b.start:b.end])
            self._caption_families[block] = (frozenset(f for f, rx in self.places.family_cues.items()
                                                       if rx.search(caption)),
                                             self.places.quality_cue.search(caption) is not None)
        named, scores = self._caption_families[block]
        if quality:
            return scores or not named
        if not named:
            return not scores
        return family is None or family in named
