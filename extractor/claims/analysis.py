"""The spaCy pass over the text units that may hold a claim: their quantities and metric cues.

spaCy runs only on the text units that can hold a claim: table cells with a number in them, and
sentences in which the quantity finder (run first, its results handed to the spaCy component) saw a
quantity with a unit class, or a bare number with a possible metric cue in the sentence. This keeps
extraction close to tokenizer speed. The sentence, table and program-output readers share one analyser.
"""
from __future__ import annotations

import re
from contextlib import ExitStack
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

from extractor import spacy_import  # noqa: F401  (spaCy without its command line)
import spacy
from spacy.attrs import LOWER

from extractor.claims import cue_component as _cues  # noqa: F401  (registers the factory)
from extractor.claims.classify import ClaimBuilder, Cue, unit_class
from extractor.claims.cue_component import cue_labels, family
from extractor.claims.rules import ClaimRules
from extractor.quantities import component as _quantities
from extractor.quantities.finder import trie
from extractor.records import QuantityRecord

if TYPE_CHECKING:
    from extractor.claims.set_aside import ProseFigures

LEX_ATTRS_READ = (LOWER,)   # the lexical attributes the pipeline reads (tests/pipeline/test_speed_paths.py)
VOCAB_RESET_POSTS = 100  # spaCy forgets the words it learnt after this many posts (see `enter_document`)
_DIGIT = re.compile(r"\d")
# spaCy splits a token's prefixes and suffixes one at a time, each time searching the rest of the token
# again: a run of N characters without a space ("((((...1.2x))))") costs N**2. No word is this long, so
# for the tokenizer alone such a run is cut every RUN_CUT characters by a space (same length, same offsets).
LONG_RUN_MIN = 400
LONG_RUN = re.compile(rf"\S{{{LONG_RUN_MIN},}}")
RUN_CUT = 100


class TextAnalyser:
    """Holds the spaCy pipeline (quantities, then metric cues) and the claim builder; reads short texts."""

    def __init__(self, rules_dir: Path, claim_rules: ClaimRules):
        self.nlp = spacy.blank("en")
        # The pipeline reads one attribute of a word, LOWER (the cue matcher's): a word spaCy meets for the first
        # time gets only that one computed, not the ~25 others (shape, stop word, like_num...), each a Python
        # call per new word (about a third of the tokenizer's time on table cells and sentences of figures).
        getters = self.nlp.vocab.lex_attr_getters
        self.nlp.vocab.lex_attr_getters = {attr: getters[attr] for attr in LEX_ATTRS_READ}
        self.nlp.add_pipe("benchclaims_quantities", config={"rules_dir": str(rules_dir)})
        self.nlp.add_pipe("benchclaims_cues", config={"rules_dir": str(rules_dir)})
        self.builder = ClaimBuilder(claim_rules)
        self.quantity_finder = self.nlp.get_pipe("benchclaims_quantities").finder
        self._mark_cues = self.nlp.get_pipe("benchclaims_cues")
        # table headers and cells repeat ("Model", "Throughput (tok/s)", "1.0x"): each text is read once
        self._read = lru_cache(maxsize=4096)(self._read_text)
        self.quantities = lru_cache(maxsize=4096)(self._quantities)
        self.cues = lru_cache(maxsize=4096)(self._cues)
        self.metric_words = _first_words(self.nlp, cue_labels(claim_rules))
        words = _quantities.number_words(rules_dir)
        # a trie, not a flat alternation: (?i) alternations get no fast first-character skip
        self.number_words = re.compile(rf"\b{trie(set(words))}\b", re.I) if words else None
        self.vocab_reset_posts = VOCAB_RESET_POSTS
        self._zone = ExitStack()
        self._zone_posts = 0

    def enter_document(self) -> None:
        """spaCy's vocabulary learns every new word it reads, without bound. The posts are read inside
        an `nlp.memory_zone()` that is closed, and its words forgotten, every `vocab_reset_posts` posts:
        memory stays bounded over a long batch, and the words posts share are learnt once per run of
        posts, not once per post (~15% of the time). Nothing spaCy made outlives its post: the pass
        keeps plain records."""
        if self._zone_posts >= self.vocab_reset_posts:
            self._zone.close()
            self._zone_posts = 0
        if self._zone_posts == 0:
            self._zone = ExitStack()
            self._zone.enter_context(self.nlp.memory_zone())
        self._zone_posts += 1

    def analyse(self, texts: list[str], offsets: list[int], found: list[list[QuantityRecord]] | None = None,
                seen: "ProseFigures | None" = None) -> Iterator[tuple[list[QuantityRecord], list[Cue]]]:
        """Run spaCy over text pieces; yield (quantities, cues) with absolute offsets. `found`: the
        quantities the quantity finder already found in each piece, offset like the piece (each text
        is then read afresh: no shifted copies of its records are needed). `seen`: each text is the
        document's text at its offset (a table cell, an output line): its quantities are noted there for
        the set-aside pass, which then does not read that text again."""
        if found is not None:
            yield from map(self._read_text, texts, found, offsets)
            return
        for text, base in zip(texts, offsets):
            qs, cues = self._read(text)
            shifted = [_shift(q, base) for q in qs]
            if seen is not None:           # table cells and output lines: the figures pass skips them
                seen.quantities.extend(shifted)
                seen.units.append((base, base + len(text)))
            yield shifted, [Cue(c.label, base + c.start, base + c.end) for c in cues]

    def _read_text(self, text: str, found: list[QuantityRecord] | None = None, base: int = 0):
        """(quantities, cues) of one text, offsets shifted by `base`; `found`: the quantity finder's
        results (offsets shifted by `base` as well)."""
        # The quantity component places exactly the finder's records over the doc's text, or the records it
        # is handed (`quantities_of(doc) == finder.find(doc.text)`), and the cue marker reads tokens only:
        # the records are taken as they are and only the cue marker runs (no quantity spans to build).
        broken = broken_runs(text)
        qs = tuple(self.quantity_finder.find(broken) if found is None else found)
        hits = self._mark_cues.hits(self.nlp.make_doc(broken), broken)   # what the marker's spans would hold
        return qs, tuple(Cue(label, base + start, base + end) for label, start, end in hits)

    def _cues(self, text: str) -> tuple[Cue, ...]:
        """The cues `analyse` would give for `text` (offset 0), without its quantities: a caller that reads
        only the cues (a table header, a lead-in paragraph) skips the quantity finder."""
        return self._read_text(text, ())[1]

    def _quantities(self, text: str) -> tuple[QuantityRecord, ...]:
        """The quantities `analyse` would give for `text` (offset 0) without the spaCy pass: the quantity
        component places exactly the finder's records over the same text (`quantities_of(doc) ==
        finder.find(doc.text)`), so a caller that needs no cues ("1 tokens/s" read for a header's unit)
        skips the tokenizer and the cue matcher."""
        return tuple(self.quantity_finder.find(broken_runs(text)))

    def may_hold_number(self, text: str, start: int = 0, end: int | None = None) -> bool:
        """Whether text[start:end] has a digit or a number word: a unit without one cannot hold a claim.
        (The digit search first: it skips ahead at C speed.)"""
        end = len(text) if end is None else end
        return bool(_DIGIT.search(text, start, end)
                    or self.number_words is not None and self.number_words.search(text, start, end))

    def may_claim(self, text: str, found: list[QuantityRecord]) -> bool:
        """Whether a piece with these quantities can hold a claim: a quantity with a unit class, or a
        bare number that `bare_class` would take with every metric cue the piece may hold right by it."""
        near: list[str] | None = None
        for q in found:
            if unit_class(q.unit) is not None:
                return True
            if not self.builder.may_be_score(q):
                continue       # spares the cue-word scan below
            if near is None:
                low = text.lower()
                near = sorted({label for word, labels in self.metric_words.items() if word in low
                               for label in labels})
            if near and self.builder.bare_class(q, [Cue(label, q.span[0], q.span[1]) for label in near]):
                return True
        return False


def _first_words(nlp, labels: dict[str, list[str]]) -> dict[str, set[str]]:
    """Lowercased first token of each metric cue phrase -> its labels (a phrase can match only where
    its first token is in the text; a first token that is blank or not ASCII is always "there")."""
    words: dict[str, set[str]] = {}
    for label, phrases in labels.items():
        if family(label) not in ("metric", "length", "ratio_name", "rate_unit"):
            continue
        for sdoc in nlp.tokenizer.pipe(phrases):
            if len(sdoc):
                w = sdoc[0].lower_
                words.setdefault(w if w.strip() and w.isascii() else "", set()).add(label)
    return words


def _shift(q: QuantityRecord, base: int) -> QuantityRecord:
    return q.model_copy(update={"span": (q.span[0] + base, q.span[1] + base)})


def broken_runs(text: str) -> str:
    """`text` with every run of LONG_RUN_MIN or more non-space characters cut by a space every RUN_CUT."""
    if len(text) < LONG_RUN_MIN or not LONG_RUN.search(text):
        return text
    chars = list(text)
    for m in LONG_RUN.finditer(text):
        for i in range(m.start() + RUN_CUT, m.end(), RUN_CUT):
            chars[i] = " "
    return "".join(chars)
