"""Scoring records against gold: claim recall and precision, headline recall, metric accuracy,
condition accuracy and guessed conditions, per document and in total.

    report = evaluate(Path("corpus/gold"), Path("corpus"))
    print(report.total.claim_recall)

A gold claim matches one predicted claim (one to one): the span of the predicted claim, or of one of its
mentions, overlaps a place where the gold quote is in the text, and the value is the same (within 1%) once converted to the gold's unit through
pint. Among several, the one with the same metric wins, then the one with the same headline flag, then
the nearest. Conditions are scored on
matched claims, for the conditions the gold gives: right when the status is the same and, when stated,
the value agrees (numbers as numbers; names compared without case, spaces and punctuation, one
containing the other, against the predicted value, canonical name or quote). A condition the gold
says is unrecoverable but the tool states is *guessed*: it should stay 0.
"""
from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any, Callable

from pydantic import BaseModel, Field

from extractor.evaluation.gold import GoldClaim, GoldDocument, GoldError, gold_files, load_gold, locate
from extractor.records import Claim, Condition, DocumentRecord

REL_TOL = 0.01


class ConditionMiss(BaseModel):
    """A condition of a matched claim scored wrong."""

    quote: str
    name: str
    gold: str
    got: str
    kind: str          # guessed | missed | wrong_value


class Counts(BaseModel):
    """Tallies of one document, or of all of them."""

    gold_claims: int = 0
    predicted_claims: int = 0
    matched: int = 0
    precision_matched: int = 0      # matched claims of documents whose gold is complete
    precision_predicted: int = 0    # predicted claims of those documents
    gold_headlines: int = 0
    headlines_found: int = 0
    metric_right: int = 0
    conditions_scored: int = 0
    conditions_right: int = 0
    guessed_conditions: int = 0
    missed_conditions: int = 0
    wrong_values: int = 0

    def add(self, other: "Counts") -> None:
        for name in type(self).model_fields:
            setattr(self, name, getattr(self, name) + getattr(other, name))


class Score(Counts):
    """Counts with the ratios computed from them (None when there is nothing to divide)."""

    claim_recall: float | None = None
    claim_precision: float | None = None
    headline_recall: float | None = None
    metric_accuracy: float | None = None
    condition_accuracy: float | None = None

    @classmethod
    def of(cls, counts: Counts) -> "Score":
        def ratio(a: int, b: int) -> float | None:
            return None if b == 0 else round(a / b, 4)

        c = counts
        return cls(**c.model_dump(), claim_recall=ratio(c.matched, c.gold_claims),
                   claim_precision=ratio(c.precision_matched, c.precision_predicted),
                   headline_recall=ratio(c.headlines_found, c.gold_headlines),
                   metric_accuracy=ratio(c.metric_right, c.matched),
                   condition_accuracy=ratio(c.conditions_right, c.conditions_scored))


class DocumentScore(BaseModel):
    """The score of one document, with what was missed, extra, and wrong."""

    doc: str
    complete: bool = True
    score: Score
    missed_claims: list[str] = Field(default_factory=list)     # gold quotes with no predicted claim
    extra_claims: list[str] = Field(default_factory=list)      # predicted quotes no gold claim took
    wrong_metric: list[str] = Field(default_factory=list)      # "quote: gold -> got"
    condition_misses: list[ConditionMiss] = Field(default_factory=list)


class EvalReport(BaseModel):
    """Per document and in total (totals add the counts, then divide)."""

    gold: str
    docs: str
    documents: list[DocumentScore]
    total: Score


# -- matching ----------------------------------------------------------------------------------
def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=REL_TOL, abs_tol=1e-9)


def value_in(claim: Claim, unit: str, convert: Callable[[float, str, str], float]) -> tuple[float, float | None] | None:
    """The predicted value (and upper end) in the gold's unit; None when the units do not convert."""
    try:
        lo = convert(claim.value, claim.unit, unit)
        hi = None if claim.value_max is None else convert(claim.value_max, claim.unit, unit)
    except Exception:  # noqa: BLE001 - pint: incompatible or unknown unit, so not the same quantity
        return None
    return lo, hi


def value_matches(gold: GoldClaim, claim: Claim, convert: Callable[[float, str, str], float]) -> bool:
    """Same value (and range end) in the gold's unit; a percent change matches whatever its sign."""
    got = value_in(claim, gold.unit, convert)
    if got is None:
        return False
    lo, hi = got
    if gold.value_max is not None and (hi is None or not _close(gold.value_max, hi)):
        return False
    if _close(gold.value, lo):
        return True
    return claim.unit == "percent" and _close(abs(gold.value), abs(lo))


def match_claims(text: str, gold: GoldDocument, claims: list[Claim],
                 convert: Callable[[float, str, str], float]) -> list[tuple[int, int | None]]:
    """(gold index, predicted index or None) for each gold claim, one to one, in gold order."""
    taken: set[int] = set()
    pairs: list[tuple[int, int | None]] = []
    for gi, g in enumerate(gold.claims):
        places = locate(text, g.quote)
        best: tuple[tuple[bool, bool, int], int] | None = None
        for pi, p in enumerate(claims):
            said = [m.span for m in p.mentions] or [p.span]   # a claim is at each place that states it
            if pi in taken or not any(ps[1] > s and ps[0] < e for ps in said for s, e in places) \
                    or not value_matches(g, p, convert):
                continue
            rank = (p.metric != g.metric, p.headline != g.headline,
                    min(abs(ps[0] - s) for ps in said for s, _ in places))
            if best is None or rank < best[0]:
                best = (rank, pi)
        if best is not None:
            taken.add(best[1])
        pairs.append((gi, None if best is None else best[1]))
    return pairs


# -- conditions --------------------------------------------------------------------------------
def _norm(text: Any) -> str:
    return re.sub(r"[\W_]+", "", str(text).lower())


def numbers(value: Any) -> list[float]:
    """The numbers a condition value holds (a number, a list, a {min, max, values} range, digits in text)."""
    if isinstance(value, bool) or value is None:
        return []
    if isinstance(value, (int, float)):
        return [float(value)]
    if isinstance(value, dict):
        return [n for k in ("min", "max", "values") for n in numbers(value.get(k))]
    if isinstance(value, (list, tuple)):
        return [n for v in value for n in numbers(v)]
    return [float(x.replace(",", "")) for x in re.findall(r"\d[\d,]*(?:\.\d+)?", str(value))]


def condition_value_matches(gold_value: Any, cond: Condition) -> bool:
    """Whether a stated condition has the gold's value (see the module docstring)."""
    if gold_value is None:
        return True
    if isinstance(gold_value, (int, float, list)) and not isinstance(gold_value, bool):
        want, got = numbers(gold_value), numbers(cond.value)
        return bool(want) and all(any(_close(w, g) for g in got) for w in want)
    want = _norm(gold_value)
    if not want:
        return True
    forms = [cond.value, cond.canonical, cond.quote]
    if cond.count and cond.value is not None:
        forms.append(f"{cond.count}x {cond.value}")
    for form in forms:
        have = _norm(form) if form is not None and not isinstance(form, (dict, list)) else ""
        if have and (want == have or (len(have) > 1 and have in want) or want in have):
            return True
    return False


def _shown(cond: Condition | None) -> str:
    if cond is None:
        return "(absent)"
    if cond.status != "stated":
        return "unrecoverable"
    return f"stated {cond.quote or cond.value!r}"


def score_conditions(g: GoldClaim, p: Claim, counts: Counts, misses: list[ConditionMiss]) -> None:
    """Count the gold's conditions of one matched claim as right, guessed, missed or wrong."""
    for name, gc in g.conditions.items():
        pc = p.conditions.get(name)
        counts.conditions_scored += 1
        status = pc.status if pc is not None else "unrecoverable"
        if gc.status == "unrecoverable":
            if status == "unrecoverable":
                counts.conditions_right += 1
                continue
            counts.guessed_conditions += 1
            kind = "guessed"
        elif status == "unrecoverable":
            counts.missed_conditions += 1
            kind = "missed"
        elif condition_value_matches(gc.value, pc):  # type: ignore[arg-type]
            counts.conditions_right += 1
            continue
        else:
            counts.wrong_values += 1
            kind = "wrong_value"
        gold_shown = "unrecoverable" if gc.status == "unrecoverable" else f"stated {gc.value!r}"
        misses.append(ConditionMiss(quote=g.quote, name=name, gold=gold_shown, got=_shown(pc), kind=kind))


# -- documents ---------------------------------------------------------------------------------
def score_document(text: str, gold: GoldDocument, record: DocumentRecord,
                   convert: Callable[[float, str, str], float]) -> DocumentScore:
    """The score of one record against its gold."""
    counts = Counts(gold_claims=len(gold.claims), predicted_claims=len(record.claims))
    out = DocumentScore(doc=gold.doc, complete=gold.complete, score=Score())
    pairs = match_claims(text, gold, record.claims, convert)
    used = {pi for _, pi in pairs if pi is not None}
    for gi, pi in pairs:
        g = gold.claims[gi]
        counts.gold_headlines += g.headline
        if pi is None:
            out.missed_claims.append(g.quote)
            continue
        p = record.claims[pi]
        counts.matched += 1
        counts.headlines_found += g.headline and p.headline
        if p.metric == g.metric:
            counts.metric_right += 1
        else:
            out.wrong_metric.append(f"{g.quote}: {g.metric} -> {p.metric}")
        score_conditions(g, p, counts, out.condition_misses)
    out.extra_claims = [c.quote for i, c in enumerate(record.claims) if i not in used]
    if gold.complete:
        counts.precision_matched, counts.precision_predicted = counts.matched, counts.predicted_claims
    out.score = Score.of(counts)
    return out


def evaluate(gold_dir: Path, docs_dir: Path, *, rules_dir: str | None = None) -> EvalReport:
    """Extract each document the gold folder annotates (from `docs_dir`) and score it; GoldError on a
    gold file that is malformed, names a missing document, or quotes text the document lacks."""
    from extractor.api import extract_text, read_document
    from extractor.errors import DocumentFailure
    from extractor.quantities.units import convert

    scores: list[DocumentScore] = []
    total = Counts()
    for path in gold_files(gold_dir):
        gold = load_gold(path)
        doc_path = docs_dir / gold.doc
        try:
            text, sha = read_document(doc_path)
            record = extract_text(text, doc_path.name, path=str(doc_path), sha256=sha, rules_dir=rules_dir)
        except FileNotFoundError:
            raise GoldError(f"{path}: its document {doc_path} does not exist") from None
        except DocumentFailure as err:
            raise GoldError(f"{path}: its document cannot be extracted: {err}") from None
        try:
            scored = score_document(text, gold, record, convert)
        except GoldError as err:
            raise GoldError(f"{path}: {err}") from None
        scores.append(scored)
        total.add(scored.score)
    return EvalReport(gold=str(gold_dir), docs=str(docs_dir), documents=scores, total=Score.of(total))
