"""The rows the claims store writes for a record: a claim, its mentions, its conditions (with the claim's value
in pint base units, for comparing values across units)."""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from extractor.quantities.units import base_units
from extractor.records import Claim, ClaimMention, Condition

# Denormalised on each claim row for fast filtering: column -> condition names, first stated wins.
KEY_CONDITIONS = {"model": ("model",), "hardware": ("hardware",), "engine": ("engine_version",)}


@lru_cache(maxsize=1024)
def base_factor(unit: str) -> tuple[float, str] | None:
    """(factor to pint base units, base-unit signature) of a unit; None when pint cannot parse it.

    The signature lists base units sorted by name with their exponents, so two units are
    compatible exactly when their signatures are equal (e.g. 'gpu^-1 second^-1 token^1').
    Kept across processes (units.base_units): storing a record neither imports pint nor builds its registry
    for a unit read before.
    """
    try:
        return base_units(unit)
    except Exception:  # noqa: BLE001 - unknown or malformed unit: no normalised value
        return None


def base_quantity(value: float, unit: str) -> tuple[float, str] | None:
    """`value` in `unit` expressed in base units, with the base-unit signature."""
    fb = base_factor(unit)
    return None if fb is None else (value * fb[0], fb[1])


def _json(value: Any) -> str | None:
    return None if value is None else json.dumps(value, sort_keys=True, ensure_ascii=False)


def _text(cond: Condition | None) -> str | None:
    """The searchable text of a condition: its canonical form, else its stated value."""
    if cond is None or cond.status != "stated":
        return None
    if cond.canonical:
        return cond.canonical
    if isinstance(cond.value, str):
        return cond.value
    return _json(cond.value)


def claim_row(path: str, ord_: int, claim: Claim) -> tuple:
    """The `claims` row of one claim."""
    base = base_quantity(claim.value, claim.unit)
    base_max = base_quantity(claim.value_max, claim.unit) if claim.value_max is not None else None
    keys = {col: next((t for t in (_text(claim.conditions.get(n)) for n in names) if t), None)
            for col, names in KEY_CONDITIONS.items()}
    return (path, ord_, claim.id, claim.metric, claim.value, claim.value_max, claim.unit,
            claim.qualifier, claim.tokens, claim.per, claim.baseline, int(claim.headline),
            claim.quote, claim.span[0], claim.span[1], " > ".join(claim.context.section) or None,
            claim.context.block, base[0] if base else None, base_max[0] if base_max else None,
            base[1] if base else None, keys["model"], keys["hardware"], keys["engine"], len(claim.mentions) or 1,
            claim.direction, claim.statistic, claim.cited_from)


def mention_rows(path: str, ord_: int, claim: Claim) -> list[tuple]:
    """The `mentions` rows of one claim (a record without mentions: the claim's own place)."""
    mentions = claim.mentions or [ClaimMention(quote=claim.quote, span=claim.span, context=claim.context,
                                               headline=claim.headline)]
    return [(path, ord_, claim.id, i, m.quote, m.span[0], m.span[1], " > ".join(m.context.section) or None,
             m.context.block, m.context.row_header, m.context.column_header, int(m.headline),
             int(m.span == claim.span)) for i, m in enumerate(mentions)]


def condition_fields(c: Condition) -> tuple:
    """The columns of a `conditions` row that the condition alone gives (after path, ord, claim_id, name)."""
    span = c.span or (None, None)
    return (c.status, _json(c.value), c.canonical, c.quote, span[0], span[1], c.scope,
            None if c.sweep is None else int(c.sweep), c.count, c.value_partial, c.note, c.where, c.why)


def condition_rows(path: str, ord_: int, claim: Claim, fields: dict[int, tuple]) -> list[tuple]:
    """The `conditions` rows of a claim, by name; `fields`: the columns of each condition object met so far
    (by id; the claims of a record share identical conditions, so most rows reuse them): the caller holds the
    record, and with it every object, while it uses `fields`."""
    rows = []
    for name, c in sorted(claim.conditions.items()):
        tail = fields.get(id(c))
        if tail is None:
            tail = fields[id(c)] = condition_fields(c)
        rows.append((path, ord_, claim.id, name) + tail)
    return rows
