"""The corpus report: how much the posts of a claims database disclose, as data.

    data = build_report("claims.db")          # CorpusReport (pydantic); `render_report_html` draws it

The disclosure scorecard counts, for each checklist condition, the claims that state it, over all
claims and over headline claims, per source and per authorship category. Beside it: claims per metric,
the most-claimed hardware and models, and checklist conditions stated vs unrecoverable per month of
the posts' dates. Everything is counted from the store's rows; nothing is estimated.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path

from pydantic import BaseModel, Field

from extractor.corpus.report_groups import GroupView, comparable_views
from extractor.corpus.store import Store
from extractor.records import CHECKLIST

UNDATED = "undated"
UNKNOWN = "(unknown)"


class Share(BaseModel):
    """k of n claims state a condition."""

    stated: int = 0
    claims: int = 0

    @property
    def share(self) -> float | None:
        return None if self.claims == 0 else self.stated / self.claims


class Scorecard(BaseModel):
    """Per checklist condition, the claims that state it (all claims, headline claims)."""

    claims: int = 0
    headline_claims: int = 0
    all: dict[str, Share] = Field(default_factory=dict)
    headline: dict[str, Share] = Field(default_factory=dict)


class Ranked(BaseModel):
    """A name with the number of claims and of posts that give it."""

    name: str
    claims: int
    documents: int


class Period(BaseModel):
    """Checklist conditions of the claims of posts dated in one month: stated and unrecoverable."""

    period: str
    claims: int = 0
    stated: int = 0
    unrecoverable: int = 0


class PostRow(BaseModel):
    """One post of the corpus: what the per-post table shows, and its audit page when one was written."""

    path: str
    doc: str
    title: str | None = None
    date: str | None = None
    authorship: str | None = None
    source: str | None = None
    claims: int = 0
    headline: str | None = None          # the first headline claim: metric and figure as quoted
    headline_claim: int | None = None    # its index in the record (the audit page's #claim=N)
    stated: int = 0                      # checklist conditions stated, over all its claims
    checked: int = 0                     # checklist conditions checked (claims x checklist)
    audit: str | None = None             # href of its audit page, relative to the report
    set_aside: int = 0                   # figures set aside (record.set_aside)
    reasons: dict[str, int] = Field(default_factory=dict)   # set-aside figures per reason

    @property
    def disclosure(self) -> float | None:
        return None if self.checked == 0 else self.stated / self.checked


class CorpusReport(BaseModel):
    """Everything the report page shows."""

    database: str
    documents: int
    failed_documents: int
    claims: int
    first_date: str | None = None
    last_date: str | None = None
    undated_documents: int = 0
    checklist: list[str] = Field(default_factory=lambda: list(CHECKLIST))
    scorecard: Scorecard
    by_source: dict[str, Scorecard] = Field(default_factory=dict)
    by_authorship: dict[str, Scorecard] = Field(default_factory=dict)
    metrics: dict[str, int] = Field(default_factory=dict)
    hardware: list[Ranked] = Field(default_factory=list)
    models: list[Ranked] = Field(default_factory=list)
    over_time: list[Period] = Field(default_factory=list)
    set_aside: int = 0
    set_aside_reasons: dict[str, int] = Field(default_factory=dict, description="set-aside figures per reason")
    posts: list[PostRow] = Field(default_factory=list, description="the posts: claims, set-aside figures, audit page")
    comparable_groups: list[GroupView] = Field(default_factory=list)   # corpus/report_groups.py


class ReportError(ValueError):
    """The report cannot be made (no database)."""


def _card(claims: dict[tuple[str, int], tuple[bool, set[str]]], keys: list[tuple[str, int]]) -> Scorecard:
    card = Scorecard(all={n: Share() for n in CHECKLIST}, headline={n: Share() for n in CHECKLIST})
    for key in keys:
        headline, stated = claims[key]
        card.claims += 1
        card.headline_claims += headline
        for name in CHECKLIST:
            for target in (card.all, card.headline) if headline else (card.all,):
                target[name].claims += 1
                target[name].stated += name in stated
    return card


def _ranked(rows: list[tuple[str, str | None]], top: int) -> list[Ranked]:
    """(path, name) rows -> the `top` names by claims, then posts, then name."""
    claims = Counter(name for _, name in rows if name)
    docs: dict[str, set[str]] = defaultdict(set)
    for path, name in rows:
        if name:
            docs[name].add(path)
    order = sorted(claims, key=lambda n: (-claims[n], -len(docs[n]), n))[:top]
    return [Ranked(name=n, claims=claims[n], documents=len(docs[n])) for n in order]


def build_report(db: str | Path, top: int = 10) -> CorpusReport:
    """Count the report's figures from the store at `db`."""
    if not Path(db).exists():
        raise ReportError(f"{db}: no such database (run `benchclaims batch` first)")
    with Store(db, readonly=True) as store:
        q = store.conn.execute
        docs = q("SELECT path, source, authorship, date, status, doc, title FROM documents ORDER BY path").fetchall()
        claim_rows = q("SELECT c.path, c.ord, c.headline, c.metric, c.hardware, c.model, c.quote FROM claims c "
                       "JOIN documents d ON d.path = c.path WHERE d.status = 'ok' ORDER BY c.path, c.ord").fetchall()
        marks = ",".join("?" * len(CHECKLIST))
        cond_rows = q(f"SELECT k.path, k.ord, k.name FROM conditions k JOIN documents d ON d.path = k.path "
                      f"WHERE d.status = 'ok' AND k.status = 'stated' AND k.name IN ({marks})", CHECKLIST).fetchall()
        comparable = comparable_views(store)
        aside_rows = q("SELECT a.path, a.reason, count(*) FROM set_aside a JOIN documents d ON d.path = a.path "
                       "WHERE d.status = 'ok' GROUP BY a.path, a.reason ORDER BY a.path, a.reason").fetchall()
    ok = {p: (src or UNKNOWN, auth or UNKNOWN, date) for p, src, auth, date, status, *_ in docs if status == "ok"}
    stated: dict[tuple[str, int], set[str]] = defaultdict(set)
    for path, ord_, name in cond_rows:
        stated[(path, ord_)].add(name)
    claims = {(p, o): (bool(h), stated.get((p, o), set())) for p, o, h, *_ in claim_rows}
    keys = list(claims)
    groups: dict[str, dict[str, list]] = {"source": defaultdict(list), "authorship": defaultdict(list)}
    periods: dict[str, Period] = {}
    for path, o in keys:
        source, authorship, date = ok[path]
        groups["source"][source].append((path, o))
        groups["authorship"][authorship].append((path, o))
        period = date[:7] if date else UNDATED
        per = periods.setdefault(period, Period(period=period))
        n_stated = len(claims[(path, o)][1])
        per.claims += 1
        per.stated += n_stated
        per.unrecoverable += len(CHECKLIST) - n_stated
    dates = sorted(d for _, _, d in ok.values() if d)
    posts = _posts(docs, claim_rows, claims)
    by_path = {p.path: p for p in posts}
    reasons: Counter[str] = Counter()
    for path, reason, n in aside_rows:
        by_path[path].reasons[reason] = n
        by_path[path].set_aside += n
        reasons[reason] += n
    return CorpusReport(
        database=str(db), documents=len(ok), failed_documents=len(docs) - len(ok), claims=len(keys),
        first_date=dates[0] if dates else None, last_date=dates[-1] if dates else None,
        undated_documents=sum(1 for _, _, d in ok.values() if not d),
        scorecard=_card(claims, keys),
        by_source={k: _card(claims, v) for k, v in sorted(groups["source"].items())},
        by_authorship={k: _card(claims, v) for k, v in sorted(groups["authorship"].items())},
        metrics=dict(sorted(Counter(r[3] for r in claim_rows).items(), key=lambda kv: (-kv[1], kv[0]))),
        hardware=_ranked([(r[0], r[4]) for r in claim_rows], top),
        models=_ranked([(r[0], r[5]) for r in claim_rows], top),
        over_time=sorted(periods.values(), key=lambda p: (p.period == UNDATED, p.period)),
        set_aside=sum(reasons.values()),
        set_aside_reasons=dict(sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))),
        posts=posts, comparable_groups=comparable)


def _posts(docs: list[tuple], claim_rows: list[tuple], claims: dict[tuple[str, int], tuple[bool, set[str]]]
           ) -> list[PostRow]:
    """The per-post rows, newest first (undated last), then by file."""
    rows = {p: PostRow(path=p, doc=doc, title=title, date=date, authorship=auth, source=src)
            for p, src, auth, date, status, doc, title in docs if status == "ok"}
    for path, ord_, headline, metric, _, _, quote in claim_rows:
        row = rows[path]
        row.claims += 1
        row.checked += len(CHECKLIST)
        row.stated += len(claims[(path, ord_)][1])
        if headline and row.headline is None:
            row.headline, row.headline_claim = f"{metric} \u201c{quote}\u201d", ord_
    out = sorted(rows.values(), key=lambda r: r.doc)
    out.sort(key=lambda r: r.date or "", reverse=True)   # stable: newest first, undated ("") last
    return out


def report_json(report: CorpusReport) -> str:
    """The report as JSON, with each share's ratio written out."""
    data = report.model_dump()

    def shares(card: dict) -> None:
        for part in ("all", "headline"):
            for name, s in card[part].items():
                s["share"] = None if s["claims"] == 0 else round(s["stated"] / s["claims"], 4)

    shares(data["scorecard"])
    for group in ("by_source", "by_authorship"):
        for card in data[group].values():
            shares(card)
    import json

    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
