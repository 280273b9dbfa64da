"""The extraction pipeline: ingest -> claims -> headlines -> conditions -> ids -> set-aside -> notes -> record.

This module wires the stages and assembles the record; each stage is a reader of its own package
(docs/architecture.md). `STAGES` lists what each stage sets and reads of a claim, in the order they run.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from extractor import __version__, limits
from extractor.claims.headlines import HeadlineMarker
from extractor.claims.reading import ClaimStage, ReadClaims
from extractor.claims.rules import load_claim_rules
from extractor.claims.script_output import ScriptOutputReader
from extractor.claims.sentences import SentenceReader
from extractor.claims.set_aside import FigureDecider
from extractor.claims.tables import TableReader
from extractor.conditions.resolver import ConditionResolver, DocumentConditions
from extractor.contracts import StageContract
from extractor.ingest import Document, ingest
from extractor.ingest.dates import DocumentDate, document_date
from extractor.notes.caveats import CaveatReader
from extractor.records import BASELINE_NOT_NAMED, Claim, DocumentRecord, Note
from extractor.rules_io import RuleError, default_rules_dir, rules_fingerprint

# The conditions stage (ConditionResolver.attach) ties each claim to its conditions and merges the claims that
# state one figure again for one setup into one claim with several mentions (the primary mention's claim, with
# a baseline or token kind that only another mention states, and the headline flag of any of them).
CONDITIONS = StageContract(
    "conditions", "ties each claim to its load conditions; merges restatements of one figure into one claim",
    assigns=("conditions", "mentions", "headline", "cited_from", "baseline", "tokens"),
    requires=("metric", "value", "value_max", "unit", "qualifier", "per", "quote", "span", "context"))
IDS = StageContract("ids", "gives each claim its content-derived id", assigns=("id",),
                    requires=("metric", "value", "value_max", "unit", "quote"))
# the stages that touch a claim, in the order they run (the claim readers create it)
STAGES: tuple[StageContract, ...] = (
    SentenceReader.contract, TableReader.contract, ScriptOutputReader.contract, ClaimStage.contract,
    HeadlineMarker.contract, CONDITIONS, IDS, FigureDecider.contract, CaveatReader.contract)


class Extractor:
    """Holds the loaded rules and the stages; `extract` turns one text into a record."""

    def __init__(self, rules_dir: Path):
        self.rules_dir = rules_dir
        self.rules_version = rules_fingerprint(rules_dir)
        self.claim_rules = load_claim_rules(rules_dir)
        self.claims = ClaimStage(rules_dir, self.claim_rules)
        self.headlines = HeadlineMarker(self.claim_rules)
        self.conditions = ConditionResolver(rules_dir)
        self.caveats = CaveatReader.from_rules(rules_dir)

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

    def extract(self, text: str, *, doc: str, fmt: str, path: str | None, sha256: str,
                max_claims: int | None = None) -> DocumentRecord:
        """The record of one text; `max_claims`: the cap on candidate claims (limits.max_claims: None reads
        $BENCHCLAIMS_MAX_CLAIMS, else the default; 0: no cap), over which TooManyClaims names `doc`."""
        d = ingest(text, doc, fmt)
        read, ctx, claims = self.credited_claims(d, limits.max_claims(max_claims))
        claims, cited = self.conditions.credited_elsewhere(ctx, claims)
        mark_unnamed_baselines(claims)
        counted = self.claims.counted_notes(d, read, claims)
        assign_ids(doc, claims)
        dated = document_date(d, doc)
        set_aside = self.claims.figures.decide(d, read.places, claims, read.rejected, read.prose, cited)
        notes = self.caveats.read(d, claims)
        date_notes = [_date_note(d, dated)] if dated.problem else []
        return DocumentRecord(doc=doc, path=path, sha256=sha256, title=d.title, date=dated.date,
                              date_source=dated.source, authorship=notes.authorship,
                              extractor_version=__version__, rules_version=self.rules_version, claims=claims,
                              set_aside=set_aside, caveats=notes.caveats, provenance=counted + notes.provenance + date_notes)

    def credited_claims(self, d: Document, cap: int | None) -> tuple[ReadClaims, DocumentConditions, list[Claim]]:
        """What the claim stage read of a document, its condition context, and its claims with their conditions and
        credits (`cited_from`), before those its text credits to another party are set aside."""
        mentions = self.conditions.mentions(d)
        read = self.claims.read(d, cap, [(m.span, m.kind) for m in mentions])
        claims = [c for c, _ in read.placed]
        leads = {id(c) for c in self.headlines.mark(d, claims)}
        ctx = self.conditions.context(d, mentions, claims)
        # a figure stated again for the same setup becomes one claim with several mentions
        return read, ctx, self.conditions.attach(ctx, read.placed, leads)


def _date_note(d: Document, dated: DocumentDate) -> Note:
    """The provenance note of a front-matter date that is no date: it names the field and its value."""
    problem = dated.problem
    assert problem is not None
    span = problem.span
    return Note(kind="invalid-date",
                message=f"front matter '{problem.field}: {problem.value}' is not a date ({problem.reason}): "
                        "the post has no date",
                quote=d.text[span[0]:span[1]] if span else None, span=span)


def mark_unnamed_baselines(claims: list[Claim]) -> None:
    """A speed-up or relative change whose text names no baseline says so (GOLD: never null). Done after the
    restatements merge, which takes a named baseline from any mention of a claim."""
    for c in claims:
        if c.baseline is None and c.metric in ("speedup", "relative_change"):
            c.baseline = BASELINE_NOT_NAMED


def assign_ids(doc: str, claims: list[Claim]) -> None:
    """Content-derived ids: document, metric, value, unit, quote, and rank among equals."""
    seen: dict[str, int] = {}
    for c in claims:
        key = f"{doc}|{c.metric}|{c.value:g}|{c.value_max}|{c.unit}|{c.quote}"
        n = seen.get(key, 0)
        seen[key] = n + 1
        c.id = hashlib.sha1(f"{key}|{n}".encode()).hexdigest()[:12]
