"""Diff two extraction runs: align documents and claims, report what changed.

Pure functions over `DocumentRecord`s. Documents align by path, then by doc
name, then by content hash. Claims align by a content key (metric, normalised
value, normalised quote, rank among equal keys in document order); the rest
align by fuzzy quote similarity (rapidfuzz) plus agreement of metric, value,
context and position, greedily by score with stable tie-breaks.
"""
from __future__ import annotations

import os
from collections import Counter
import re
from typing import Any, Iterable, Literal

from pydantic import BaseModel, ConfigDict, Field
from rapidfuzz import fuzz

from extractor.records import CONDITIONS, Claim, ClaimMention, DocumentRecord
from extractor.review.views import ConditionChange, ContextGroup, Excerpt

CLAIM_FIELDS: tuple[str, ...] = (
    "metric", "value", "value_max", "unit", "qualifier", "tokens", "per", "baseline", "direction", "headline",
    "quote",
)
CONDITION_FIELDS: tuple[str, ...] = ("status", "value", "where")
DOC_FIELDS: tuple[str, ...] = ("title", "date", "date_source", "authorship", "caveats", "provenance")
CLAIM_KINDS: tuple[str, ...] = ("added", "removed", "changed")
KINDS: tuple[str, ...] = CLAIM_KINDS + ("document",)
FUZZY_THRESHOLD = 70.0   # least quote similarity (0-100) for a fuzzy claim match
STRONG_QUOTE = 90.0      # ...that also suffices when metric and value both changed


class DiffModel(BaseModel):
    model_config = ConfigDict(extra="forbid")


class FieldChange(DiffModel):
    """One field of a claim (or document) whose value differs between the sides."""

    field: str
    old: Any = None
    new: Any = None


class ClaimDiff(DiffModel):
    """An added, removed or changed claim; `old_index`/`new_index` are ranks in document order."""

    kind: Literal["added", "removed", "changed"]
    match: Literal["key", "fuzzy", "mention"] | None = None   # mention: one side's claim is a mention of the other's
    score: float | None = None
    old_index: int | None = None
    new_index: int | None = None
    old: Claim | None = None
    new: Claim | None = None
    fields: list[FieldChange] = Field(default_factory=list)
    old_context: Excerpt | None = None
    new_context: Excerpt | None = None
    group: str | None = None
    conditions: list[ConditionChange] = Field(default_factory=list)

    @property
    def claim(self) -> Claim:
        """The claim as it is now (the old one for a removed claim)."""
        c = self.new if self.new is not None else self.old
        assert c is not None
        return c


class DocDiff(DiffModel):
    """Differences in one document (present on one side or both)."""

    doc: str
    path: str | None = None
    status: Literal["added", "removed", "common"]
    old_sha256: str | None = None
    new_sha256: str | None = None
    hash_changed: bool = False
    renamed_from: str | None = None
    old_rules_version: str | None = None
    new_rules_version: str | None = None
    fields: list[FieldChange] = Field(default_factory=list)
    claims: list[ClaimDiff] = Field(default_factory=list)
    unchanged_claims: int = 0
    counts: dict[str, int] = Field(default_factory=dict)
    groups: list[ContextGroup] = Field(default_factory=list)
    context_note: str | None = None
    audit: str | None = None

    @property
    def differs(self) -> bool:
        return self.status != "common" or bool(self.fields) or bool(self.claims)


class DiffSummary(DiffModel):
    """Counts per kind (documents, claims), per metric and kind, and per changed field; `line` says it in one line."""

    documents: dict[str, int]
    claims: dict[str, int]
    fields: dict[str, int]
    by_metric: dict[str, dict[str, int]] = Field(default_factory=dict)
    line: str = ""


class DiffReport(DiffModel):
    """The whole comparison; `documents` lists documents with differences, a changed hash or a new path."""

    old_label: str = "old"
    new_label: str = "new"
    summary: DiffSummary
    documents: list[DocDiff] = Field(default_factory=list)
    errors: list[str] = Field(default_factory=list)

    def kinds_present(self) -> set[str]:
        """The kinds of difference in this report (subset of KINDS)."""
        kinds = {k for k in CLAIM_KINDS if self.summary.claims.get(k)}
        d = self.summary.documents
        if d.get("added") or d.get("removed") or d.get("fields_changed"):
            kinds.add("document")
        return kinds

    def has_differences(self, kinds: Iterable[str] | None = None) -> bool:
        """True when any difference (of the given kinds, when given) is present."""
        present = self.kinds_present()
        return bool(present if kinds is None else present & set(kinds))


# --- normalisation and keys ---------------------------------------------------------------

_WS = re.compile(r"\s+")
_MARKUP = re.compile(r"[*_`]+")


def norm_quote(quote: str | None) -> str:
    """Casefolded quote with emphasis markup dropped and whitespace collapsed."""
    return _WS.sub(" ", _MARKUP.sub("", quote or "")).strip().casefold()


def norm_value(value: float | None) -> str:
    return "" if value is None else f"{value:.6g}"


def norm_path(path: str | None) -> str | None:
    return None if not path else os.path.normpath(path).replace(os.sep, "/")


def ordered_claims(record: DocumentRecord) -> list[Claim]:
    """Claims in document order (span start, span end, then as listed)."""
    indexed = list(enumerate(record.claims))
    indexed.sort(key=lambda ic: (ic[1].span[0], ic[1].span[1], ic[0]))
    return [c for _, c in indexed]


def claim_keys(claims: list[Claim]) -> list[tuple[str, str, str, int]]:
    """Content key per claim: (metric, value, quote, rank among claims sharing the first three)."""
    seen: dict[tuple[str, str, str], int] = {}
    keys = []
    for c in claims:
        base = (c.metric, norm_value(c.value), norm_quote(c.quote))
        rank = seen.get(base, 0)
        seen[base] = rank + 1
        keys.append(base + (rank,))
    return keys


# --- field comparison ---------------------------------------------------------------------


def _cond_dump(cond) -> dict[str, Any]:
    return {} if cond is None else cond.model_dump(mode="json")


def _condition_order(names: Iterable[str]) -> list[str]:
    rank = {n: i for i, n in enumerate(CONDITIONS)}
    return sorted(set(names), key=lambda n: (rank.get(n, len(rank)), n))


def claim_field_changes(old: Claim, new: Claim, *, compare_span: bool = False) -> list[FieldChange]:
    """Every reported field that differs between two aligned claims, in a fixed order."""
    changes: list[FieldChange] = []
    o, n = old.model_dump(mode="json"), new.model_dump(mode="json")
    for f in CLAIM_FIELDS:
        if o[f] != n[f]:
            changes.append(FieldChange(field=f, old=o[f], new=n[f]))
    if compare_span and o["span"] != n["span"]:
        changes.append(FieldChange(field="span", old=o["span"], new=n["span"]))
    for name in _condition_order(list(old.conditions) + list(new.conditions)):
        oc, nc = _cond_dump(old.conditions.get(name)), _cond_dump(new.conditions.get(name))
        for f in CONDITION_FIELDS:
            if oc.get(f) != nc.get(f):
                changes.append(FieldChange(field=f"conditions.{name}.{f}", old=oc.get(f), new=nc.get(f)))
    return changes


def _notes(notes) -> list[str]:
    return [f"{n.kind}: {n.message}" for n in notes]


def doc_field_changes(old: DocumentRecord, new: DocumentRecord) -> list[FieldChange]:
    """Document-level fields that differ (title, date and its source, authorship, caveats, provenance)."""
    changes = []
    for f in DOC_FIELDS:
        ov, nv = getattr(old, f), getattr(new, f)
        if f in ("caveats", "provenance"):
            ov, nv = _notes(ov), _notes(nv)
        if ov != nv:
            changes.append(FieldChange(field=f, old=ov, new=nv))
    return changes


# --- claim alignment ----------------------------------------------------------------------


def _context_key(c: Claim) -> tuple:
    return (tuple(c.context.section), c.context.row_header, c.context.column_header)


def quote_similarity(a: str, b: str) -> float:
    """0-100: full ratio of normalised quotes, or a discounted partial ratio when one contains the other."""
    qa, qb = norm_quote(a), norm_quote(b)
    if not qa or not qb:
        return 0.0
    return max(fuzz.ratio(qa, qb), 0.9 * fuzz.partial_ratio(qa, qb))


def _pair_score(o: Claim, n: Claim, orel: float, nrel: float, same_text: bool) -> tuple[float, float]:
    sim = quote_similarity(o.quote, n.quote)
    score = sim
    score += 10.0 if o.metric == n.metric else 0.0
    score += 10.0 if norm_value(o.value) == norm_value(n.value) else 0.0
    score += 5.0 if _context_key(o) == _context_key(n) else 0.0
    if same_text and o.span[0] < n.span[1] and n.span[0] < o.span[1]:
        score += 10.0
    score -= 10.0 * abs(orel - nrel)
    return sim, round(score, 6)


def align_claims(old: list[Claim], new: list[Claim], *, same_text: bool = False,
                 threshold: float = FUZZY_THRESHOLD) -> list[tuple[int | None, int | None, str | None, float | None]]:
    """Pairs (old_idx, new_idx, how, score) over claims in document order; None marks a missing side."""
    pairs: list[tuple[int | None, int | None, str | None, float | None]] = []
    okeys, nkeys = claim_keys(old), claim_keys(new)
    by_key: dict[tuple, int] = {}
    for j, k in enumerate(nkeys):
        by_key.setdefault(k, j)
    used_new: set[int] = set()
    rest_old: list[int] = []
    for i, k in enumerate(okeys):
        j = by_key.get(k)
        if j is not None and j not in used_new:
            used_new.add(j)
            pairs.append((i, j, "key", 100.0))
        else:
            rest_old.append(i)
    rest_new = [j for j in range(len(new)) if j not in used_new]
    candidates = []
    for i in rest_old:
        orel = i / max(len(old) - 1, 1)
        for j in rest_new:
            nrel = j / max(len(new) - 1, 1)
            sim, score = _pair_score(old[i], new[j], orel, nrel, same_text)
            overlap_same = (same_text and old[i].metric == new[j].metric
                            and old[i].span[0] < new[j].span[1] and new[j].span[0] < old[i].span[1])
            agrees = old[i].metric == new[j].metric or norm_value(old[i].value) == norm_value(new[j].value)
            same_cell = (old[i].metric == new[j].metric and _context_key(old[i]) == _context_key(new[j])
                         and bool(old[i].context.row_header or old[i].context.column_header))
            if (sim >= threshold and (agrees or sim >= STRONG_QUOTE)) or overlap_same or same_cell:
                candidates.append((-score, i, j))
    candidates.sort()
    matched_old: set[int] = set()
    for neg, i, j in candidates:
        if i in matched_old or j in used_new:
            continue
        matched_old.add(i)
        used_new.add(j)
        pairs.append((i, j, "fuzzy", -neg))
    pairs += [(i, None, None, None) for i in rest_old if i not in matched_old]
    pairs += [(None, j, None, None) for j in range(len(new)) if j not in used_new]
    pairs.sort(key=lambda p: (p[1] if p[1] is not None else p[0], p[0] if p[0] is not None else -1,
                              p[1] is None))
    return pairs


# --- documents ----------------------------------------------------------------------------


def places(c: Claim) -> list[ClaimMention]:
    """The places a claim is stated (a record written before claims had mentions: its own place)."""
    return c.mentions or [ClaimMention(quote=c.quote, span=c.span, context=c.context, headline=c.headline)]


def _mention_key(m: ClaimMention, same_text: bool) -> tuple:
    ctx = m.context
    return tuple(m.span) if same_text else (norm_quote(m.quote), tuple(ctx.section), ctx.block, ctx.row_header,
                                           ctx.column_header)


def mention_label(m: ClaimMention) -> str:
    """A mention as a reviewer reads it: its quote and place ("'25K' (list item in 'TL;DR')")."""
    where = m.context.block.replace("_", " ")
    return f"{m.quote!r} ({where} in {m.context.section[-1]!r})" if m.context.section else f"{m.quote!r} ({where})"


def mention_changes(old: Claim, new: Claim, same_text: bool) -> list[FieldChange]:
    """Mentions stated on one side only, as changes of the claim (`mentions.added`, `mentions.removed`).
    A moved or edited primary mention is the claim's own `quote`/`span` change, not listed again."""
    oplaces, nplaces = places(old), places(new)
    okeys = Counter(_mention_key(m, same_text) for m in oplaces)
    nkeys = Counter(_mention_key(m, same_text) for m in nplaces)
    gone, came = okeys - nkeys, nkeys - okeys
    oprimary = _mention_key(ClaimMention(quote=old.quote, span=old.span, context=old.context), same_text)
    nprimary = _mention_key(ClaimMention(quote=new.quote, span=new.span, context=new.context), same_text)
    if gone[oprimary] and came[nprimary]:
        gone[oprimary] -= 1
        came[nprimary] -= 1
        gone, came = +gone, +came
    out: list[FieldChange] = []
    if came:
        out.append(FieldChange(field="mentions.added", new=_take(nplaces, came, same_text)))
    if gone:
        out.append(FieldChange(field="mentions.removed", old=_take(oplaces, gone, same_text)))
    return out


def _take(mentions: list[ClaimMention], wanted: Counter, same_text: bool) -> list[str]:
    left, out = Counter(wanted), []
    for m in sorted(mentions, key=lambda m: m.span):
        k = _mention_key(m, same_text)
        if left[k] > 0:
            left[k] -= 1
            out.append(mention_label(m))
    return out


Pair = tuple[int | None, int | None, str | None, float | None]


def fold_mentions(old: list[Claim], new: list[Claim], pairs: list[Pair], same_text: bool) -> list[Pair]:
    """A claim of one side that is a mention of a claim of the other side (restatements merged into one
    claim, or one claim split) is not added or removed: it is folded into that claim, whose mentions
    changed (`mention_changes`). Returns the pairs left."""
    def index(claims: list[Claim]) -> dict[tuple, int]:
        at: dict[tuple, int] = {}
        for k, c in enumerate(claims):
            for m in places(c):
                at.setdefault((c.metric, norm_value(c.value), _mention_key(m, same_text)), k)
        return at

    new_at, old_at = index(new), index(old)
    partner_of_new = {j: i for i, j, _, _ in pairs if i is not None and j is not None}
    partner_of_old = {i: j for i, j, _, _ in pairs if i is not None and j is not None}

    def taken(c: Claim, k: int | None, partner: dict[int, int], other: list[Claim]) -> bool:
        """The place of `c` that matched claim `k` is also a place of k's partner: `c` is a claim of its own."""
        if k is None or k not in partner:
            return False
        keys = {_mention_key(m, same_text) for m in places(other[partner[k]])}
        return any(_mention_key(m, same_text) in keys for m in places(c))

    folded_new: set[int] = set()
    kept: list[tuple[int | None, int | None, str | None, float | None]] = []
    for i, j, how, score in pairs:
        if j is None and i is not None:
            c = old[i]
            hit = next((new_at[k] for m in places(c)
                        if (k := (c.metric, norm_value(c.value), _mention_key(m, same_text))) in new_at), None)
            if hit is not None and not taken(c, hit, partner_of_new, old):
                if hit not in partner_of_new:
                    partner_of_new[hit], partner_of_old[i] = i, hit
                    kept.append((i, hit, "mention", None))
                    folded_new.add(hit)
                continue
        kept.append((i, j, how, score))
    pairs, kept = kept, []
    for i, j, how, score in pairs:
        if i is None and j is not None and j not in folded_new:
            c = new[j]
            hit = next((old_at[k] for m in places(c)
                        if (k := (c.metric, norm_value(c.value), _mention_key(m, same_text))) in old_at), None)
            if hit is not None and hit in partner_of_old and not taken(c, hit, partner_of_old, new):
                continue
        if i is None and j in folded_new:
            continue
        kept.append((i, j, how, score))
    kept.sort(key=lambda p: (p[1] if p[1] is not None else p[0], p[0] if p[0] is not None else -1, p[1] is None))
    return kept


def align_documents(old: list[DocumentRecord], new: list[DocumentRecord]
                    ) -> list[tuple[DocumentRecord | None, DocumentRecord | None]]:
    """Pairs of records for the same document: by path, then doc name, then content hash."""
    pairs: list[tuple[DocumentRecord | None, DocumentRecord | None]] = []
    free_old = list(range(len(old)))
    free_new = list(range(len(new)))
    for keyf in (lambda r: norm_path(r.path), lambda r: r.doc, lambda r: r.sha256):
        index: dict[Any, list[int]] = {}
        for j in free_new:
            k = keyf(new[j])
            if k:
                index.setdefault(k, []).append(j)
        still_old = []
        for i in free_old:
            k = keyf(old[i])
            if k and index.get(k):
                j = index[k].pop(0)
                free_new.remove(j)
                pairs.append((old[i], new[j]))
            else:
                still_old.append(i)
        free_old = still_old
    pairs += [(old[i], None) for i in free_old]
    pairs += [(None, new[j]) for j in free_new]
    pairs.sort(key=lambda p: _doc_sort_key(p[1] or p[0]))
    return pairs


def _doc_sort_key(r: DocumentRecord) -> tuple[str, str]:
    return (norm_path(r.path) or r.doc, r.doc)


def diff_document(old: DocumentRecord | None, new: DocumentRecord | None) -> DocDiff:
    """Differences for one aligned pair of records (either may be None)."""
    ref = new or old
    assert ref is not None
    d = DocDiff(doc=ref.doc, path=ref.path, status="common" if old and new else ("added" if new else "removed"),
                old_sha256=old.sha256 if old else None, new_sha256=new.sha256 if new else None,
                old_rules_version=old.rules_version if old else None,
                new_rules_version=new.rules_version if new else None)
    oclaims = ordered_claims(old) if old else []
    nclaims = ordered_claims(new) if new else []
    if old and new:
        d.hash_changed = old.sha256 != new.sha256
        if (norm_path(old.path), old.doc) != (norm_path(new.path), new.doc):
            d.renamed_from = old.path or old.doc
        d.fields = doc_field_changes(old, new)
    same_text = bool(old and new and not d.hash_changed)
    # a claim of one side that is a mention of a claim of the other side is a change of that claim
    pairs = fold_mentions(oclaims, nclaims, align_claims(oclaims, nclaims, same_text=same_text), same_text)
    for i, j, how, score in pairs:
        if i is not None and j is not None:
            fields = claim_field_changes(oclaims[i], nclaims[j], compare_span=not d.hash_changed)
            fields += mention_changes(oclaims[i], nclaims[j], same_text)
            if not fields:
                d.unchanged_claims += 1
                continue
            d.claims.append(ClaimDiff(kind="changed", match=how, score=score, old_index=i, new_index=j,
                                      old=oclaims[i], new=nclaims[j], fields=fields))
        elif i is not None:
            d.claims.append(ClaimDiff(kind="removed", old_index=i, old=oclaims[i]))
        else:
            d.claims.append(ClaimDiff(kind="added", new_index=j, new=nclaims[j]))
    d.counts = {k: sum(1 for c in d.claims if c.kind == k) for k in CLAIM_KINDS}
    d.counts["unchanged"] = d.unchanged_claims
    return d


def summarise(docs: list[DocDiff], total_docs: int) -> DiffSummary:
    """Counts over all documents (all of them, not only those listed)."""
    dcounts = {"compared": total_docs, "added": 0, "removed": 0, "changed": 0, "fields_changed": 0,
               "hash_changed": 0}
    ccounts = {k: 0 for k in CLAIM_KINDS} | {"unchanged": 0}
    fields: dict[str, int] = {}
    by_metric: dict[str, dict[str, int]] = {}
    for d in docs:
        if d.status != "common":
            dcounts[d.status] += 1
        elif d.claims or d.fields:
            dcounts["changed"] += 1
        dcounts["fields_changed"] += 1 if d.fields else 0
        dcounts["hash_changed"] += 1 if d.hash_changed else 0
        for k, v in d.counts.items():
            ccounts[k] += v
        for c in d.claims:
            per_kind = by_metric.setdefault(c.claim.metric, {})
            per_kind[c.kind] = per_kind.get(c.kind, 0) + 1
            for f in c.fields:
                fields[f.field] = fields.get(f.field, 0) + 1
        for f in d.fields:
            fields[f.field] = fields.get(f.field, 0) + 1
    return DiffSummary(documents=dcounts, claims=ccounts, fields=dict(sorted(fields.items())),
                       by_metric={m: by_metric[m] for m in sorted(by_metric)})


SUMMARY_FIELDS = 8   # fields named in the summary line; the rest are counted


def summary_line(s: DiffSummary, unchanged_docs: int) -> str:
    """One line for a pull request: documents, claims added/removed/changed by metric, fields changed."""
    d = s.documents
    docs = f"{d['compared'] - unchanged_docs} of {d['compared']} documents differ"
    extra = [f"{d[k]} {k}" for k in ("added", "removed") if d.get(k)]
    parts = [docs + (f" ({', '.join(extra)})" if extra else "")]
    claims = []
    for kind, sign in (("added", "+"), ("removed", "-"), ("changed", "~")):
        n = s.claims.get(kind, 0)
        metrics = sorted(((v[kind], m) for m, v in s.by_metric.items() if v.get(kind)), key=lambda t: (-t[0], t[1]))
        claims.append(f"{sign}{n} {kind}" + (f" ({', '.join(f'{m} {k}' for k, m in metrics)})" if metrics else ""))
    parts.append("claims " + ", ".join(claims) + f", {s.claims.get('unchanged', 0)} unchanged")
    if s.fields:
        ranked = sorted(s.fields.items(), key=lambda t: (-t[1], t[0]))
        named = ", ".join(f"{f} {n}" for f, n in ranked[:SUMMARY_FIELDS])
        more = f" (+{len(ranked) - SUMMARY_FIELDS} more)" if len(ranked) > SUMMARY_FIELDS else ""
        parts.append(f"fields changed: {named}{more}")
    return "; ".join(parts)


def diff_records(old: list[DocumentRecord], new: list[DocumentRecord], *, old_label: str = "old",
                 new_label: str = "new", errors: list[str] | None = None) -> DiffReport:
    """Compare two runs; the report lists documents that differ or whose hash changed."""
    pairs = align_documents(old, new)
    docs = [diff_document(o, n) for o, n in pairs]
    unchanged_docs = [d for d in docs if not d.differs]
    report = DiffReport(old_label=old_label, new_label=new_label, summary=summarise(docs, len(pairs)),
                        documents=[d for d in docs if d.differs or d.hash_changed or d.renamed_from], errors=list(errors or []))
    report.summary.documents["unchanged"] = len(unchanged_docs)
    report.summary.line = summary_line(report.summary, len(unchanged_docs))
    return report
