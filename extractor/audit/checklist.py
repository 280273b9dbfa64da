"""The load-condition audit of one record: what it reports (`build_audit`, `AuditReport`); `text.py`
writes it out as text, Markdown or JSON.

    from extractor.audit import build_audit, render_audit
    print(render_audit(record, "text"))

Everything shown comes from the record (claims, conditions, caveats, provenance);
the only words added are fixed phrasing. A condition the record marks unrecoverable is
reported as absent with its where-note, never filled in.
"""
from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from extractor.records import CHECKLIST, CONDITIONS, SECONDARY, Claim, Condition, DocumentRecord, Note, SetAside

Format = Literal["text", "markdown", "json"]

LABELS: dict[str, str] = {
    "model": "model", "hardware": "hardware", "batch_or_concurrency": "batch-or-concurrency",
    "input_length": "input length", "output_length": "output length", "engine_version": "engine version",
    "warmup": "warmup", "scenario": "scenario", "precision": "precision", "parallelism": "parallelism",
    "dataset": "dataset", "gpu_count": "GPU count", "prefix_caching": "prefix caching",
    "speculative_decoding": "speculative decoding",
}
QUALIFIERS = {"exact": "", "approx": "~", "at_least": "over ", "up_to": "up to ", "range": ""}
NOT_STATED = "NOT STATED by the source - absent, not inferred."
NOT_IN_RECORD = "not in the record: the extractor produced no entry for this condition"
CLOSING = "None of these were filled in: a plausible value is worse than an absent one, because it would be trusted."


class Figure(BaseModel):
    """The headline figure as the record holds it."""

    claim_id: str
    metric: str
    value: float
    value_max: float | None = None
    unit: str
    qualifier: str
    tokens: str | None = None
    per: str | None = None
    quote: str
    span: tuple[int, int]
    text: str
    stated_at: list[str] = Field(default_factory=list)   # where the post states it ("title", "TL;DR list")


class StatedCondition(BaseModel):
    name: str
    label: str
    text: str
    value: Any = None
    canonical: str | None = None
    quote: str | None = None
    scope: str | None = None
    sweep: bool | None = None
    note: str | None = None


class AbsentCondition(BaseModel):
    name: str
    label: str
    where: str | None = None
    why: str | None = None
    value_partial: str | None = None
    note: str | None = None
    in_record: bool = True


class AuditReport(BaseModel):
    """The audit's content; the three formats render this."""

    doc: str
    title: str | None = None
    date: str | None = None
    has_claims: bool
    headline_marked: bool = False
    claim_id: str | None = None       # the audited claim's id
    chosen: bool = False              # the claim was chosen (`audit --claim ID`) rather than the headline
    engine: str | None = None
    model: str | None = None
    hardware: str | None = None
    figure: Figure | None = None
    same_figure_quotes: list[str] = Field(default_factory=list)
    other_headlines: list[Figure] = Field(default_factory=list)
    conditions: list[StatedCondition] = Field(default_factory=list)
    authorship: str | None = None
    provenance: list[Note] = Field(default_factory=list)
    caveats: list[Note] = Field(default_factory=list)
    set_aside: list[SetAside] = Field(default_factory=list, description="the post's figures that are no claim, "
                                                                        "with their reasons (text order)")
    scenario: str
    scenario_quote: str | None = None
    checklist: list[str] = Field(default_factory=lambda: list(CHECKLIST))
    absent: list[AbsentCondition] = Field(default_factory=list)
    absent_secondary: list[AbsentCondition] = Field(default_factory=list)
    token_scopes: str | None = None   # why token-count notes that seem to disagree both hold


# -- building ---------------------------------------------------------------------------
def fmt_number(v: float, sep: bool = True) -> str:
    """A number as written in the report: integers without a decimal part."""
    if float(v).is_integer():
        return f"{int(v):,}" if sep else str(int(v))
    return f"{v:,.6g}" if sep else f"{v:.6g}"


def figure_text(c: Claim) -> str:
    """'25,000 token/second/gpu (total tokens, per gpu)'."""
    num = fmt_number(c.value)
    if c.value_max is not None:
        num = f"{num} to {fmt_number(c.value_max)}"
    extras = []
    if c.tokens and c.tokens != "unspecified":
        extras.append(f"{c.tokens} tokens")
    elif c.tokens == "unspecified":
        extras.append("tokens counted not stated")
    if c.per:
        extras.append(f"per {c.per}")
    tail = f" ({', '.join(extras)})" if extras else ""
    return f"{QUALIFIERS.get(c.qualifier, '')}{num} {c.unit}{tail}"


def value_text(v: Any) -> str:
    """A condition value in words: ranges as 'SWEPT from A to B', lists joined, numbers plain."""
    if isinstance(v, dict):
        if "min" in v and "max" in v:
            return f"SWEPT from {value_text(v['min'])} to {value_text(v['max'])}"
        return ", ".join(f"{k}={value_text(x)}" for k, x in v.items())
    if isinstance(v, (list, tuple)):
        return ", ".join(value_text(x) for x in v)
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, (int, float)):
        return fmt_number(v, sep=False)
    return str(v)


def _squash(s: str) -> str:
    return "".join(ch for ch in s.lower() if ch.isalnum())


def condition_text(c: Condition, canonical: bool = True) -> str:
    """The value as stated, with the canonical name when it adds something."""
    shown = value_text(c.value) if c.value is not None else (c.quote or "")
    if canonical and c.canonical and _squash(c.canonical) not in _squash(shown):
        shown = f"{shown} ({c.canonical})" if shown else c.canonical
    if c.count and str(c.count) not in shown:
        shown = f"{c.count} x {shown}"
    return shown


def _figure(c: Claim, title: str | None = None) -> Figure:
    return Figure(claim_id=c.id, metric=c.metric, value=c.value, value_max=c.value_max, unit=c.unit,
                  qualifier=c.qualifier, tokens=c.tokens, per=c.per, quote=c.quote, span=c.span,
                  text=figure_text(c), stated_at=mention_places(c, title))


def mention_places(c: Claim, title: str | None = None) -> list[str]:
    """Where the post states a claim, in text order: "title", "summary", "TL;DR list", "Results table",
    "Conclusion" (a paragraph of that section), "introduction"."""
    out: list[str] = []
    for m in c.mentions:
        ctx = m.context
        section = ctx.section[-1] if ctx.section else None
        if ctx.block == "front_matter":
            out.append("summary" if "title" in out or not (title and m.quote in title) else "title")
        elif ctx.block == "heading" and section == title:
            out.append("title")
        else:
            kind = {"table": "table", "caption": "caption", "list_item": "list", "heading": "heading"}.get(ctx.block, "")
            out.append(f"{section or 'introduction'} {kind}".strip())
    return out


def stated_times(f: Figure) -> str:
    """'stated 3 times: title, TL;DR list, Results table' (empty for a figure stated once)."""
    return f"stated {len(f.stated_at)} times: {', '.join(f.stated_at)}" if len(f.stated_at) > 1 else ""


def _stated(c: Claim, name: str) -> str | None:
    cond = c.conditions.get(name)
    if cond is None:
        return None
    if cond.status == "stated":
        return condition_text(cond, canonical=False)
    return cond.value_partial


class UnknownClaim(ValueError):
    """`audit --claim ID` names no claim of the document."""


def find_claim(record: DocumentRecord, claim_id: str) -> int:
    """The index of the claim `claim_id` (its id, or a unique prefix); UnknownClaim lists the claims."""
    found = [i for i, c in enumerate(record.claims) if c.id == claim_id] or [
        i for i, c in enumerate(record.claims) if c.id.startswith(claim_id)]
    if len(found) != 1:
        ids = ", ".join(f"{c.id} ({c.metric} {figure_text(c)})" for c in record.claims[:20])
        raise UnknownClaim(f"{record.doc}: {'no' if not found else 'more than one'} claim {claim_id!r}; "
                           f"its claims: {ids}")
    return found[0]


def build_audit(record: DocumentRecord, claim_id: str | None = None) -> AuditReport:
    """The audit content of a record: the claim `claim_id` (a unique prefix will do), else its best
    stated headline claim (else its first claim)."""
    base = dict(doc=record.doc, title=record.title, date=record.date, authorship=record.authorship,
                provenance=record.provenance, caveats=record.caveats, set_aside=record.set_aside)
    if not record.claims:
        return AuditReport(has_claims=False, scenario="no claims, nothing to audit", **base)
    heads = [c for c in record.claims if c.headline]
    pool = heads or record.claims[:1]
    # the claim with most stated conditions; among equals, the figure the post states most often
    main = max(pool, key=lambda c: (_stated_count(c), len(c.mentions), -pool.index(c)))
    if claim_id is not None:
        main = record.claims[find_claim(record, claim_id)]
    same = [c for c in heads if c is not main and (c.metric, c.unit, c.value, c.value_max)
            == (main.metric, main.unit, main.value, main.value_max)]
    others = [c for c in heads if c is not main and c not in same]
    # the other ways the post writes the figure: its mentions ("25K" in the title), then equal figures
    written: list[str] = []
    for q in [m.quote for m in main.mentions] + [c.quote for c in same]:
        if q != main.quote and q not in written:
            written.append(q)
    stated: list[StatedCondition] = []
    for name in list(CONDITIONS) + sorted(set(main.conditions) - set(CONDITIONS)):
        cond = main.conditions.get(name)
        if cond is None or cond.status != "stated":
            continue
        stated.append(StatedCondition(name=name, label=LABELS.get(name, name.replace("_", " ")),
                                      text=condition_text(cond), value=cond.value, canonical=cond.canonical,
                                      quote=cond.quote, scope=cond.scope, sweep=cond.sweep, note=cond.note))
    absent = [_absent(main, n) for n in CHECKLIST]
    absent = [a for a in absent if a is not None]
    _explain_disagreement(absent, record)
    secondary = [a for a in (_absent(main, n, missing_ok=True) for n in SECONDARY) if a is not None]
    sc = main.conditions.get("scenario")
    if sc is not None and sc.status == "stated":
        scenario, sq = condition_text(sc), sc.quote
    elif sc is not None:
        scenario, sq = NOT_STATED, None
    else:
        scenario, sq = f"NOT CHECKED - {NOT_IN_RECORD}.", None
    return AuditReport(has_claims=True, headline_marked=bool(heads), claim_id=main.id,
                       token_scopes=_token_scopes(record, main),
                       chosen=claim_id is not None, engine=_stated(main, "engine_version"),
                       model=_stated(main, "model"), hardware=_stated(main, "hardware"),
                       figure=_figure(main, record.title), same_figure_quotes=written,
                       other_headlines=[_figure(c, record.title) for c in others], conditions=stated,
                       scenario=scenario, scenario_quote=sq, absent=absent, absent_secondary=secondary, **base)


def _explain_disagreement(absent: list[AbsentCondition], record: DocumentRecord) -> None:
    """An absent engine version beside a "pinned version is named" note says why both hold."""
    pinned = [n.quote for n in record.provenance if n.kind == "repro-pinned-version" and n.quote]
    for a in absent:
        if a.name == "engine_version" and a.in_record and pinned:
            why = (f"a pinned version is named in the post ({', '.join(dict.fromkeys(pinned))}), but the text "
                   "does not tie it to this figure (it may be another run's, e.g. the baseline's)")
            a.note = f"{a.note}; {why}" if a.note else why


TOKENS_NOTE = "tokens-counted"   # the kind of the notes saying which tokens a headline throughput counts
TOKEN_WORDS = {"total": "total tokens", "output": "output tokens only", "input": "input tokens only",
               "unspecified": "not said"}


def _token_scopes(record: DocumentRecord, main: Claim) -> str | None:
    """When the token-count notes differ ("input tokens only" beside "total tokens"), the sentence that
    says which figure each comes from: every such note carries the span of the headline it is about."""
    by_span = {tuple(c.span): c for c in record.claims if c.headline}
    stated = {}
    for c in record.claims:
        if c.headline and c.tokens and c.tokens != "unspecified":
            stated.setdefault((c.unit, c.value), c.tokens)
    scopes: list[tuple[str, Claim]] = []
    for n in record.provenance + record.caveats:
        c = by_span.get(tuple(n.span)) if n.kind == TOKENS_NOTE and n.span else None
        if c is not None:
            tok = c.tokens if c.tokens and c.tokens != "unspecified" else stated.get((c.unit, c.value), "unspecified")
            scopes.append((tok, c))
    if len({tok for tok, _ in scopes}) < 2:
        return None
    parts = []
    for tok, c in scopes:
        where = "the audited figure" if c is main else "another headline figure"
        section = f", section '{' > '.join(c.context.section)}'" if c.context.section else ""
        parts.append(f"{TOKEN_WORDS.get(tok, tok)} for {figure_text(c)} (\"{c.quote}\", {where}{section})")
    return "The token-count notes differ because they are about different figures: " + "; ".join(parts) + "."


def _stated_count(c: Claim) -> int:
    return sum(1 for n in CHECKLIST if (x := c.conditions.get(n)) is not None and x.status == "stated")


def _absent(c: Claim, name: str, missing_ok: bool = False) -> AbsentCondition | None:
    label = LABELS.get(name, name)
    cond = c.conditions.get(name)
    if cond is None:
        return None if missing_ok else AbsentCondition(name=name, label=label, in_record=False, why=NOT_IN_RECORD)
    if cond.status != "unrecoverable":
        return None
    return AbsentCondition(name=name, label=label, where=cond.where, why=cond.why,
                           value_partial=cond.value_partial, note=cond.note)
