"""The extraction pipeline: ingest -> spaCy doc -> quantities -> claims -> conditions -> record.

spaCy runs only on the text units that can hold a claim: table cells with a number in
them, and sentences in which the quantity finder (run first, its results handed to the
spaCy component) saw a quantity with a unit class, or a bare number with a possible
metric cue in the sentence. This keeps extraction close to tokenizer speed.
"""
from __future__ import annotations

import hashlib
import re
from contextlib import ExitStack
from functools import lru_cache
from pathlib import Path

from extractor import spacy_import  # noqa: F401  (spaCy without its command line)
import spacy

from extractor import __version__, limits
from extractor.errors import TooManyClaims
from extractor.claims import cue_component as _cues  # noqa: F401  (registers the factory)
from extractor.quantities import component as _quantities  # noqa: F401  (registers the factory)
from extractor.claims.rules import load_claim_rules
from extractor.claims.classify import ClaimBuilder, Cue, unit_class
from extractor.claims.cue_component import cue_labels, family
from extractor.notes.caveats import CaveatReader
from extractor.conditions.resolver import ConditionResolver
from extractor.claims.headlines import HeadlineMarker, front_matter_units
from extractor.ingest import Document, ingest
from extractor.ingest.dates import DocumentDate, document_date
from extractor.quantities.finder import trie
from extractor.records import Claim, ClaimContext, DocumentRecord, Note, QuantityRecord
from extractor.rules_io import RuleError, default_rules_dir, rules_fingerprint
from extractor.spans import inside_near
from extractor.ingest.segment import Passage, units
from extractor.claims.output_blocks import OutputBlocks
from extractor.claims.script_output import ScriptOutputReader
from extractor.claims.compared import compared_unit
from extractor.claims.tables import TableReader
from extractor.claims.set_aside import FigureDecider, ProseFigures

NAME_KINDS = {"model", "hardware", "engine"}
# why a figure inside a name is set aside: "20B" in a model's name, "80GB" in a device's, "0.5.1" in an engine's
NAME_REASONS = {"model": "model_size", "hardware": "datasheet", "engine": "date_or_version"}
VOCAB_RESET_POSTS = 100  # spaCy forgets the words it learnt after this many posts (see `_enter_vocab_zone`)
_DIGIT = re.compile(r"\d")
# spaCy splits a token's prefixes and suffixes one at a time, each time searching the rest of the token
# again: a run of N characters without a space ("((((...1.2x))))") costs N**2. No word is this long, so
# for the tokenizer alone such a run is cut every RUN_CUT characters by a space (same length, same offsets).
LONG_RUN_MIN = 400
LONG_RUN = re.compile(rf"\S{{{LONG_RUN_MIN},}}")
RUN_CUT = 100


class Extractor:
    """Holds the loaded rules and the spaCy pipeline; `extract` turns one text into a record."""

    def __init__(self, rules_dir: Path):
        self.rules_dir = rules_dir
        self.rules_version = rules_fingerprint(rules_dir)
        self.claim_rules = load_claim_rules(rules_dir)
        self.nlp = spacy.blank("en")
        self.nlp.add_pipe("benchclaims_quantities", config={"rules_dir": str(rules_dir)})
        self.nlp.add_pipe("benchclaims_cues", config={"rules_dir": str(rules_dir)})
        self.builder = ClaimBuilder(self.claim_rules)
        self.quantity_finder = self.nlp.get_pipe("benchclaims_quantities").finder
        self._mark_cues = self.nlp.get_pipe("benchclaims_cues")
        # table headers and cells repeat ("Model", "Throughput (tok/s)", "1.0x"): each text is read once
        self._read = lru_cache(maxsize=4096)(self._read_text)
        self.quantities = lru_cache(maxsize=4096)(self._quantities)
        self.cues = lru_cache(maxsize=4096)(self._cues)
        self.metric_words = _first_words(self.nlp, cue_labels(self.claim_rules))
        self.abbreviations = frozenset(a.lower() for a in self.claim_rules.abbreviations)
        words = _quantities.number_words(rules_dir)
        # a trie, not a flat alternation: (?i) alternations get no fast first-character skip
        self.number_words = re.compile(rf"\b{trie(set(words))}\b", re.I) if words else None
        self.headlines = HeadlineMarker(self.claim_rules)
        self.tables = TableReader(self)
        self.output_blocks = OutputBlocks.from_rules(rules_dir)
        self.script_output = ScriptOutputReader(self.tables, self.output_blocks)
        self.figures = FigureDecider(rules_dir, self.quantity_finder)
        self.conditions = ConditionResolver(rules_dir)
        self.caveats = CaveatReader.from_rules(rules_dir)
        self.vocab_reset_posts = VOCAB_RESET_POSTS
        self._zone = ExitStack()
        self._zone_posts = 0
        self._seen: ProseFigures | None = None   # the post being read: the quantities its readers found

    @classmethod
    def from_rules(cls, rules_dir: str | Path | None = None) -> "Extractor":
        """The extractor of a rules folder; a folder that is missing, a file, or lacks a rule file raises
        RuleError naming it (never an error that could be read as the post being missing)."""
        folder = Path(rules_dir) if rules_dir else default_rules_dir()
        if not folder.is_dir():
            raise RuleError(folder, "folder", "is a file, not a rules folder" if folder.exists() else "no such folder")
        try:
            return cls(folder)
        except OSError as err:
            reason = ("missing from the rules folder" if isinstance(err, FileNotFoundError)
                      else f"cannot be read ({err.strerror or err})")
            raise RuleError(err.filename or folder, "file", reason) from None

    # -- the spaCy pass ------------------------------------------------------------
    def analyse(self, texts: list[str], offsets: list[int], found: list[list[QuantityRecord]] | None = None,
                located: bool = False):
        """Run spaCy over text pieces; yield (quantities, cues) with absolute offsets. `found`: the
        quantities the quantity finder already found in each piece, offset like the piece (each text
        is then read afresh: no shifted copies of its records are needed). `located`: each text is the
        document's text at its offset (a table cell, an output line): its quantities are noted for the
        set-aside pass, which then does not read that text again."""
        if found is not None:
            yield from map(self._read_text, texts, found, offsets)
            return
        seen = self._seen if located else None
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
        broken = _broken_runs(text)
        qs = tuple(self.quantity_finder.find(broken) if found is None else found)
        sdoc = self._mark_cues(self.nlp.make_doc(broken))
        return qs, tuple(Cue(s.label_, base + s.start_char, base + s.end_char) for s in sdoc.spans["cues"])

    def _cues(self, text: str) -> tuple[Cue, ...]:
        """The cues `analyse` would give for `text` (offset 0), without its quantities: a caller that reads
        only the cues (a table header, a lead-in paragraph) skips the quantity finder."""
        return self._read_text(text, ())[1]

    def _quantities(self, text: str) -> tuple[QuantityRecord, ...]:
        """The quantities `analyse` would give for `text` (offset 0) without the spaCy pass: the quantity
        component places exactly the finder's records over the same text (`quantities_of(doc) ==
        finder.find(doc.text)`), so a caller that needs no cues ("1 tokens/s" read for a header's unit)
        skips the tokenizer and the cue matcher."""
        return tuple(self.quantity_finder.find(_broken_runs(text)))

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

    def extract(self, text: str, *, doc: str, fmt: str, path: str | None, sha256: str,
                max_claims: int | None = None) -> DocumentRecord:
        """The record of one text; `max_claims`: the cap on candidate claims (limits.max_claims: None reads
        $BENCHCLAIMS_MAX_CLAIMS, else the default; 0: no cap), over which TooManyClaims names `doc`."""
        cap = limits.max_claims(max_claims)
        d = ingest(text, doc, fmt)
        mentions = self.conditions.mentions(d)
        # a number inside a name ("Llama 3.1", "8xH100") is part of the name, not a claim
        named = sorted((m.span, m.kind) for m in mentions if m.kind in NAME_KINDS)
        names = [span for span, _ in named]
        self._enter_vocab_zone()
        rejected: dict[int, tuple[str, str]] = {}
        prose = ProseFigures([], [], [])
        self._seen = prose
        try:
            read = self.sentence_claims(d, cap, rejected, prose) + self.tables.claims(d) + self.script_output.claims(d)
        finally:
            self._seen = None
        places = self.figures.places(d)
        demoted = self.figures.demoted(d, places, [c for c, _ in read])
        placed = []
        for i, p in enumerate(read):
            if i in demoted:
                rejected.setdefault(p[0].span[0], demoted[i])   # "TTFT < 1 s" in an SLO: a target, no result
            elif inside_near(names, *p[0].span):
                kind = next((k for (a, b), k in named if a <= p[0].span[0] < b), "model")
                rejected.setdefault(p[0].span[0], (NAME_REASONS.get(kind, "model_size"), f"names.{kind}"))
            else:
                placed.append(p)
        placed.sort(key=lambda p: (p[0].span[0], p[0].span[1], p[0].metric))
        claims = [c for c, _ in placed]
        leads = {id(c) for c in self.headlines.mark(d, claims)}
        ctx = self.conditions.context(d, mentions, claims)
        # a figure stated again for the same setup becomes one claim with several mentions
        claims = self.conditions.attach(ctx, placed, leads)
        _assign_ids(doc, claims)
        dated = document_date(d, doc)
        set_aside = self.figures.decide(d, places, claims, rejected, prose)
        notes = self.caveats.read(d, claims)
        date_notes = [_date_note(d, dated)] if dated.problem else []
        return DocumentRecord(doc=doc, path=path, sha256=sha256, title=d.title, date=dated.date,
                              date_source=dated.source, authorship=notes.authorship,
                              extractor_version=__version__, rules_version=self.rules_version, claims=claims,
                              set_aside=set_aside, caveats=notes.caveats, provenance=notes.provenance + date_notes)

    def _enter_vocab_zone(self) -> None:
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

    def sentence_claims(self, d: Document, cap: int | None = None,
                        rejected: dict[int, tuple[str, str]] | None = None,
                        seen: ProseFigures | None = None) -> list[tuple[Claim, Passage]]:
        """Claims stated in prose sentences, captions, headings and front-matter headline fields. Past `cap`
        candidate claims (the quantities of the pieces that may hold one) raises TooManyClaims, as soon as
        the count passes it: before the costly steps. `rejected` gains, by start offset, the (set-aside
        reason, rule) of each figure a claim rule turned down; `seen` the quantities found in prose, the
        numbers its exclusions skipped there, and the prose units read (the set-aside pass reads the rest)."""
        # a block without a digit or number word has no sentence with one: it is not split
        prose = units(d, self.abbreviations, cells=False, block_filter=self.may_hold_number)
        fm = front_matter_units(d, self.claim_rules)
        pieces: list[tuple[Passage, str]] = [(u, d.view[u.start:u.end]) for u in prose]
        pieces += [(u, d.text[u.start:u.end]) for u in fm]
        pieces += [(u, d.text[u.start:u.end]) for u in self.script_output.sentences(d)]
        pieces = [(u, t) for u, t in pieces if self.may_hold_number(t)]
        # spaCy runs only where the quantity finder saw something that can be a claim
        kept: list[tuple[Passage, str]] = []
        found: list[list[QuantityRecord]] = []
        candidates = 0
        if seen is not None:
            seen.units.extend((u.start, u.end) for u in prose)
            seen.units.extend((u.start, u.end) for u in fm)
        for u, t in pieces:
            qs = self.quantity_finder.find(t, u.start, None if seen is None else seen.skipped)
            if seen is not None:
                seen.quantities.extend(qs)
            if self.may_claim(t, qs):
                kept.append((u, t))
                found.append(qs)
                candidates += len(qs)
                if cap is not None and candidates > cap:
                    raise TooManyClaims(d.name, f"over the limit of {cap} candidate claims per document "
                                                f"(quantities in prose that may state a result; "
                                                f"raise it with --max-claims N or ${limits.MAX_CLAIMS_ENV}, "
                                                f"0 = no limit)")
        pieces = kept
        out: list[tuple[Claim, Passage]] = []
        analysed = self.analyse([t for _, t in pieces], [u.start for u, _ in pieces], found)
        for (u, t), (qs, cues) in zip(pieces, analysed):
            context = ClaimContext(section=d.section_path(u.section), block=u.kind)
            for q in qs:
                cls = unit_class(q.unit) or self.builder.bare_class(q, cues)
                if cls is None and (same := compared_unit(q, qs, cues)):
                    cls = same[0]
                    q = q.model_copy(update={"unit": same[1]})     # "2,038 tok/s versus 1,742"
                if cls is None:
                    continue
                metric = self.builder.metric_for(q, cls, cues, q.span[0], q.span[1])
                if metric is None:
                    if rejected is not None and (why := self.builder.metrics.rejection(q, cls, cues, *q.span,
                                                                                           d.view)):
                        rejected[q.span[0]] = why
                    continue
                claim = self.builder.claim(q, metric, cls, cues, t, u.start, u.start, context, written=d.text)
                out.append((claim, u))
        return out


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


def _date_note(d: Document, dated: DocumentDate) -> Note:
    """The provenance note of a front-matter date that is no date: it names the field and its value."""
    problem = dated.problem
    assert problem is not None
    span = problem.span
    return Note(kind="invalid-date",
                message=f"front matter '{problem.field}: {problem.value}' is not a date ({problem.reason}): "
                        "the post has no date",
                quote=d.text[span[0]:span[1]] if span else None, span=span)


def _assign_ids(doc: str, claims: list[Claim]) -> None:
    """Content-derived ids: document, metric, value, unit, quote, and rank among equals."""
    seen: dict[str, int] = {}
    for c in claims:
        key = f"{doc}|{c.metric}|{c.value:g}|{c.value_max}|{c.unit}|{c.quote}"
        n = seen.get(key, 0)
        seen[key] = n + 1
        c.id = hashlib.sha1(f"{key}|{n}".encode()).hexdigest()[:12]


def _broken_runs(text: str) -> str:
    """`text` with every run of LONG_RUN_MIN or more non-space characters cut by a space every RUN_CUT."""
    if len(text) < LONG_RUN_MIN or not LONG_RUN.search(text):
        return text
    chars = list(text)
    for m in LONG_RUN.finditer(text):
        for i in range(m.start() + RUN_CUT, m.end(), RUN_CUT):
            chars[i] = " "
    return "".join(chars)
