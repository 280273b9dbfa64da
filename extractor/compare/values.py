"""A claim's conditions and fields as the comparison reads them: one `Value` each, matched per rule.

    v = condition_value(claim, "hardware", rules)     # Value(key=("nvidia h100", 8), text="8x NVIDIA H100")
    status = match(v_a, v_b, rules.conditions["hardware"])   # same | differs | unknown
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from extractor.compare.model import Status
from extractor.compare.rules import CompareRules, ConditionRule
from extractor.records import BASELINE_NOT_NAMED, Claim, Condition

_BLANKS = re.compile(r"[\s_]+")
_LIST = re.compile(r",|;|\s/\s")   # a stated value listing alternatives ("GPTQ, AWQ", "MBPP; Alpaca")


@dataclass(frozen=True)
class Value:
    """One side of a row: `key` is what is matched (None: unknown), `text` what is shown, `note` why it
    is unknown (the where-note) or what it stands for."""

    key: Any = None
    text: str | None = None
    number: float | None = None
    count: int | None = None
    note: str | None = None
    free: bool = False   # stated as free text (no canonical name)

    @property
    def known(self) -> bool:
        return self.key is not None


def _norm(text: str) -> str:
    return _BLANKS.sub(" ", text.strip().lower())


def _shown(cond: Condition) -> str:
    if cond.canonical:
        return cond.canonical
    return cond.value if isinstance(cond.value, str) else json.dumps(cond.value, ensure_ascii=False)


def _unknown(cond: Condition | None) -> Value:
    if cond is None:
        return Value(note="not in the record")
    note = cond.where or "not stated"
    if cond.why:
        note += f" (why: {cond.why})"
    return Value(text="unrecoverable", note=note)


def device_count(claim: Claim) -> int | None:
    """The number of devices the claim was measured on: the hardware's count, else `gpu_count`."""
    hw = claim.conditions.get("hardware")
    if hw is not None and hw.status == "stated" and hw.count:
        return hw.count
    gc = claim.conditions.get("gpu_count")
    if gc is not None and gc.status == "stated" and isinstance(gc.value, int) and not isinstance(gc.value, bool):
        return gc.value
    return None


def _number(cond: Condition) -> Value:
    v = cond.value
    if cond.sweep or isinstance(v, (dict, list)):
        lo, hi = (v.get("min"), v.get("max")) if isinstance(v, dict) else (None, None)
        span = f" ({lo:g}-{hi:g})" if isinstance(lo, (int, float)) and isinstance(hi, (int, float)) else ""
        return Value(text=f"sweep{span}", note=f"a sweep{span}: the point this figure was measured at is not stated")
    try:
        num = float(v)
    except (TypeError, ValueError):
        return Value(key=_norm(_shown(cond)), text=_shown(cond))
    return Value(key=num, text=f"{num:g}", number=num)


def condition_value(claim: Claim, name: str, rules: CompareRules) -> Value:
    """The value of condition `name` of `claim` as its rule matches it."""
    cond = claim.conditions.get(name)
    if cond is None or cond.status != "stated":
        return _unknown(cond)
    how = rules.conditions[name].match
    if how in ("text", "stated", "forms") and isinstance(cond.value, str) and _LIST.search(cond.value):
        return Value(text=cond.value, note=f"the post lists several ({cond.value}): which one this figure was "
                                            "measured with is not stated")
    if how == "number":
        return _number(cond)
    if how == "hardware":
        name_ = cond.canonical or (cond.value if isinstance(cond.value, str) else _shown(cond))
        count = device_count(claim)
        text = f"{count}x {name_}" if count else name_
        return Value(key=_norm(name_), text=text, count=count)
    if how == "stated":
        text = cond.value if isinstance(cond.value, str) else _shown(cond)
        return Value(key=_norm(text), text=text)
    if how == "forms":
        text = _shown(cond)
        forms = rules.precision_forms_of(f"{cond.canonical or ''} {cond.value}")
        return Value(key=forms or _norm(text), text=text)
    return Value(key=_norm(_shown(cond)), text=_shown(cond), free=not cond.canonical)


def _similar(a: Value, b: Value, threshold: int) -> bool:
    """Two free-text values (no canonical name on at least one side) that name the same thing: one's words
    within the other's ("random prompts" and "random prompts of fixed length")."""
    from rapidfuzz import fuzz

    return (a.free or b.free) and isinstance(a.key, str) and isinstance(b.key, str) \
        and fuzz.token_set_ratio(a.key, b.key) >= threshold


def match(a: Value, b: Value, rule: ConditionRule) -> tuple[Status, str | None]:
    """(same | differs | unknown, a note) of two values under `rule`."""
    if not a.known or not b.known:
        if not a.known and not b.known and a.note == b.note:
            return "unknown", a.note and f"both: {a.note}"
        notes = [f"{side}: {v.note}" for side, v in (("A", a), ("B", b)) if not v.known and v.note]
        return "unknown", "; ".join(notes) or None
    if rule.match == "number" and a.number is not None and b.number is not None:
        top = max(abs(a.number), abs(b.number))
        return ("same" if abs(a.number - b.number) <= rule.tolerance * top else "differs"), None
    if a.key != b.key and not (rule.match == "text" and _similar(a, b, rule.similarity)):
        return "differs", None
    if rule.match == "hardware":
        if a.count is None or b.count is None:
            missing = " and ".join(side for side, v in (("A", a), ("B", b)) if v.count is None)
            return "unknown", f"the device count is not stated ({missing})"
        if a.count != b.count:
            return "differs", None
    return "same", None


def field_value(claim: Claim, name: str) -> Value:
    """A claim field compared as a row (tokens counted, statistic, baseline)."""
    raw = getattr(claim, name)
    if raw is None or raw == "unspecified" or (name == "baseline" and raw == BASELINE_NOT_NAMED):
        what = {"tokens": "which tokens are counted", "statistic": "which statistic (mean, median, p99...)",
                "baseline": "what the figure is relative to"}[name]
        return Value(text=raw, note=f"the post does not say {what}")
    return Value(key=_norm(str(raw)), text=str(raw))


def same_baseline(a: Value, b: Value) -> bool:
    """Two stated baselines name the same thing (word order and small wording aside)."""
    from rapidfuzz import fuzz

    return a.key == b.key or fuzz.token_set_ratio(a.key, b.key) >= 90
