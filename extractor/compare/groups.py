"""Over many claims: the groups of claims comparable with each other, the near-miss pairs (one condition
apart), and the figures one post restates from another.

    found = comparable_groups(refs)          # Groups(groups=[[ref, ref], ...], near_misses=[NearMiss...])
    links = find_restatements(refs)          # [Restatement(claim=ref_later, restates=ref_earlier)]

Each claim's values are read once (`profile`); pairs are matched on them, so a metric's claims are
compared pairwise without building a row table per pair.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel

from extractor.compare.engine import Profile, entity, per_row, profile, rows_of, table_label_row
from extractor.compare.model import ClaimRef, Row
from extractor.compare.rules import CompareRules, ConditionRule, load_compare_rules
from extractor.compare.values import match


class NearMiss(BaseModel):
    """Two claims that one condition keeps apart (it differs, or one side does not state it)."""

    a: ClaimRef
    b: ClaimRef
    row: Row


class Groups(BaseModel):
    """Comparable groups (two claims or more, each comparable with every other) and near-miss pairs."""

    groups: list[list[ClaimRef]]
    near_misses: list[NearMiss]


@dataclass
class _Item:
    ref: ClaimRef
    prof: Profile
    blocking: dict[int, list[Row]] = field(default_factory=dict)


def _checks(rules: CompareRules, metric: str) -> list[tuple[str, str, ConditionRule]]:
    """(name, role, rule) of the fields and conditions that can keep two claims of `metric` apart."""
    items = [(n, r.role, ConditionRule(role=r.role)) for n, r in rules.claim_fields.items()
             if not r.metrics or metric in r.metrics]
    return items + [(n, r.role_for(metric), r) for n, r in rules.conditions.items() if r.role_for(metric) != "shown"]


def _at_least_two(a: _Item, b: _Item, checks: list[tuple[str, str, ConditionRule]]) -> bool:
    """Whether two or more conditions or fields keep the claims apart, read on their profiles alone (a
    cheap first pass: no rows are built for the pairs that are neither comparable nor near misses)."""
    apart = 0
    for name, role, rule in checks:
        va, vb = a.prof[name], b.prof[name]
        if not va.known and not vb.known:
            apart += role == "required"
        elif not va.known or not vb.known:
            apart += 1
        elif name != "baseline":
            apart += match(va, vb, rule)[0] != "same"
        if apart >= 2:
            return True
    return False


def _blocking(a: _Item, b: _Item, rules: CompareRules, checks: list) -> list[Row]:
    """The rows that keep two claims from being comparable (none: comparable); two rows at most when
    there are more."""
    if _at_least_two(a, b, checks):
        return [Row(name="(several)", role="required", status="differs", blocks=True)] * 2
    every = rows_of(a.ref.claim, b.ref.claim, rules, a.prof, b.prof)
    if a.ref.claim.metric == b.ref.claim.metric:
        per = per_row(a.ref.claim, b.ref.claim, rules)
        if per is not None:
            every.insert(0, per)
    label = table_label_row(a.ref, b.ref, every, rules)
    return [r for r in every + ([label] if label else []) if r.blocks]


def comparable_groups(refs: list[ClaimRef], rules: CompareRules | None = None,
                      rules_dir: str | Path | None = None) -> Groups:
    """Claims of one metric grouped when comparable with every member (in the given order, each claim joins
    the first group it fits), and the pairs apart by exactly one blocking row."""
    rules = rules or load_compare_rules(rules_dir)
    by_metric: dict[str, list[_Item]] = defaultdict(list)
    for ref in refs:
        by_metric[ref.claim.metric].append(_Item(ref, profile(ref.claim, rules)))
    groups: list[list[ClaimRef]] = []
    misses: list[NearMiss] = []
    for metric in sorted(by_metric):
        items = by_metric[metric]
        checks = _checks(rules, metric)
        apart: dict[tuple[int, int], list[Row]] = {}
        for i, a in enumerate(items):
            for j in range(i + 1, len(items)):
                apart[(i, j)] = _blocking(a, items[j], rules, checks)
        member_of: dict[int, int] = {}
        local: list[list[int]] = []
        for i in range(len(items)):
            for g, members in enumerate(local):
                if all(not apart[(m, i)] for m in members):
                    members.append(i)
                    member_of[i] = g
                    break
            else:
                member_of[i] = len(local)
                local.append([i])
        groups += [[items[i].ref for i in members] for members in local if len(members) > 1]
        for (i, j), rows in apart.items():
            if len(rows) == 1 and member_of[i] != member_of[j]:
                misses.append(NearMiss(a=items[i].ref, b=items[j].ref, row=rows[0]))
    return Groups(groups=groups, near_misses=misses)


class Restatement(BaseModel):
    """A claim that restates the figure of a claim of another post (the earlier one, when dated)."""

    claim: ClaimRef
    restates: ClaimRef


def _order(ref: ClaimRef) -> tuple:
    """Earlier first: dated before undated, by date; a cited figure after the post it may cite; then path."""
    return (ref.date is None, ref.date or "", ref.claim.cited_from is not None, ref.path or ref.doc)


def _same_figure(a: ClaimRef, b: ClaimRef, rules: CompareRules) -> bool:
    ca, cb = a.claim, b.claim
    rule = rules.restatement
    tol = rule.approx_tolerance if "approx" in (ca.qualifier, cb.qualifier) else rule.tolerance
    for x, y in ((ca.value, cb.value), (ca.value_max, cb.value_max)):
        if (x is None) != (y is None) or (x is not None and abs(x - y) > tol * max(abs(x), abs(y))):
            return False
    return True


def find_restatements(refs: list[ClaimRef], rules: CompareRules | None = None,
                      rules_dir: str | Path | None = None) -> list[Restatement]:
    """Claims of different posts that state the same figure (same metric, unit, per and value within the
    rules' tolerance) for the same system (`must_state` stated on both and equal), with no condition or
    claim field that differs. Each later claim is linked to the earliest such claim."""
    rules = rules or load_compare_rules(rules_dir)
    buckets: dict[tuple[str, str, str], list[ClaimRef]] = defaultdict(list)
    for ref in refs:
        c = ref.claim
        if all(c.conditions.get(n) is not None and c.conditions[n].status == "stated"
               for n in rules.restatement.must_state):
            buckets[(c.metric, c.unit, entity(c))].append(ref)
    links: list[Restatement] = []
    for key in sorted(buckets):
        items = sorted(buckets[key], key=lambda r: (r.claim.value, _order(r)))
        profiles = [profile(r.claim, rules) for r in items]
        linked: set[int] = set()
        for i, a in enumerate(items):
            if i in linked:
                continue
            for j in range(i + 1, len(items)):
                b = items[j]
                if not _same_figure(a, b, rules):
                    if b.claim.value > a.claim.value * (1 + rules.restatement.approx_tolerance) + 1e-12:
                        break
                    continue
                if j in linked or b.key[0] == a.key[0]:
                    continue
                rows = rows_of(a.claim, b.claim, rules, profiles[i], profiles[j])
                if any(r.status == "differs" for r in rows):
                    continue
                if key[0] in rules.relative_metrics and any(
                        r.name == "baseline" and r.status != "same" for r in rows):
                    continue
                first, later = sorted((a, b), key=_order)
                links.append(Restatement(claim=later, restates=first))
                linked.add(j if later is b else i)
                if later is a:
                    break
    return sorted(links, key=lambda r: r.claim.key)
