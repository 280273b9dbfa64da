"""Diff two extraction runs: align documents and claims, report what changed.

Pure functions over `DocumentRecord`s. Documents align by path, then by doc
name, then by content hash. Claims align by a content key (metric, normalised
value, normalised quote, rank among equal keys in document order); the rest
align by fuzzy quote similarity (rapidfuzz) plus agreement of metric, value,
context and position, greedily by score with stable tie-breaks.
"""
from __future__ import annotations

import os
from typing import Any, Iterable

from rapidfuzz import fuzz

from extractor.records import CONDITIONS, Claim, DocumentRecord
from extractor.review.diff_report import (CLAIM_FIELDS, CLAIM_KINDS, CONDITION_FIELDS, DOC_FIELDS, KINDS,
                                          ClaimDiff, DiffModel, DiffReport, DiffSummary, DocDiff, FieldChange)
from extractor.review.set_aside_diff import SET_ASIDE_KINDS, SetAsideChange, set_aside_changes
from extractor.review.mention_diff import Pair, fold_mentions, mention_changes, mention_label, norm_quote, \
    norm_value, places

__all__ = ["CLAIM_FIELDS", "CLAIM_KINDS", "CONDITION_FIELDS", "DOC_FIELDS", "KINDS", "ClaimDiff", "DiffModel",
           "DiffReport", "DiffSummary", "DocDiff", "FieldChange", "Pair", "align_claims", "align_documents",
           "claim_keys", "diff_document", "diff_records", "fold_mentions", "mention_changes", "mention_label",
           "norm_path", "norm_quote", "norm_value", "places", "summarise", "summary_line"]

FUZZY_THRESHOLD = 70.0   # least quote similarity (0-100) for a fuzzy claim match
STRONG_QUOTE = 90.0      # ...that also suffices when metric and value both changed


# --- normalisation and keys ---------------------------------------------------------------


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
    d.set_aside = set_aside_changes(old.set_aside if old else [], new.set_aside if new else [], oclaims, nclaims,
                                    same_text) if old and new else []
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
    aside = {k: 0 for k in SET_ASIDE_KINDS} | {"from_claim": 0, "to_claim": 0}
    for d in docs:
        for a in d.set_aside:
            aside[a.kind] += 1
            if a.moved:
                aside[a.moved] += 1
        if d.status != "common":
            dcounts[d.status] += 1
        elif d.claims or d.fields or d.set_aside:
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
                       by_metric={m: by_metric[m] for m in sorted(by_metric)}, set_aside=aside)


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
    a = s.set_aside
    if any(a.get(k) for k in SET_ASIDE_KINDS):
        moves = [f"{a[k]} {k.replace('_', ' ')}" for k in ("from_claim", "to_claim") if a.get(k)]
        parts.append(f"set aside +{a.get('added', 0)} -{a.get('removed', 0)} ~{a.get('changed', 0)}"
                     + (f" ({', '.join(moves)})" if moves else ""))
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
