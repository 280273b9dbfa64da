"""Percents and ratios in prose that no cue word takes, read from how they are written (issue 23):

- the next item of an enumeration after a claimed change of the same kind ("TTFT drops by 24%, and TPOT by
  17%"): a claim of the same metric, sign, direction and baseline;
- the share of a run's time or work spent somewhere ("spends 30% of its time in attention") or of an ideal ("83%
  of the ideal 4x scaling") or of work that hit a cache ("(41.5%) were served from the SSD cache"): metric `other`; a share of memory a run used ("occupying just 47% of device memory"): `memory`;
  a score at a model size ("71.7% at 29.3M parameters"): `accuracy`;
- a percentage right before the name of a rate ("an 82% inversion rate"): metric `other`; the rest of a claimed
  share ("the remaining 80%") and the next level of a series ("to ~60% at rate 1, then down to ~25%"): the
  metric of the claim it follows;
- a decimal ratio right before a device's name ("up to 3.9x L40S"): a speed-up over that device;
- a ratio that states a level against another system ("2.7x that of the old kernel", "3.3x the single-request
  baseline"): a speed-up.

The forms are regexes of `rules/claims.yaml`; `SentenceReader` asks here only for the figures its metric
choice did not take and no claim rule turned down.
"""
from __future__ import annotations

import re
from typing import NamedTuple

from extractor.claims.rules import ClaimRules
from extractor.records import Claim, QuantityRecord

_DECIMAL = re.compile(r"\d\.\d")


class WrittenForm(NamedTuple):
    """The metric a form gives a figure, the baseline it names, and the claim it follows (an enumeration)."""

    metric: str
    baseline: str | None = None
    follows: Claim | None = None


class RatioForms:
    """Reads the written forms above (see the module docstring)."""

    def __init__(self, rules: ClaimRules):
        self.gap = re.compile(rules.enumeration_gap)
        self.share_of_time = re.compile(rules.share_of_time_after)
        self.before_device = re.compile(rules.ratio_before_device)
        self.that_of = re.compile(rules.ratio_that_of)
        self.quantity_of = re.compile(rules.ratio_quantity_of)
        self.share_of_ideal = re.compile(rules.share_of_ideal_after)
        self.memory_before = re.compile(rules.memory_share_before)
        self.memory_after = re.compile(rules.memory_share_after)
        self.score_at_size = re.compile(rules.score_at_size_after)
        self.cache_hit = re.compile(rules.cache_hit_after)
        self.named_rate = re.compile(rules.named_rate_after)
        self.remaining = re.compile(rules.remaining_share_before)
        self.level_series = re.compile(rules.level_series_gap)

    def form(self, q: QuantityRecord, cls: str, view: str, previous: Claim | None,
             previous_cls: str | None, spec: bool = False) -> WrittenForm | None:
        """The form of a percent or ratio figure `q` (class `cls`) of a prose unit, or None. `view`: the
        document's markup-blanked text; `previous`: the last claim of the unit before it, of class
        `previous_cls`; `spec`: a memory, bandwidth or compute word names what the figure compares (no
        "N x that of" speed-up: a datasheet comparison)."""
        start, end = q.span
        if previous is not None and previous_cls == cls and previous.metric in ("speedup", "relative_change") \
                and previous.span[1] <= start and self.gap.match(view[previous.span[1]:start]):
            return WrittenForm(previous.metric, previous.baseline, previous)
        after = view[end:end + 120]
        if cls == "percent":
            if self.share_of_time.match(after) or self.share_of_ideal.match(after) or self.cache_hit.match(after):
                return WrittenForm("other")
            if self.memory_after.match(after) and self.memory_before.search(view, max(0, start - 60), start):
                return WrittenForm("memory")
            if self.score_at_size.match(after):
                return WrittenForm("accuracy")
            if self.named_rate.match(after):
                return WrittenForm("other")       # "an 82% inversion rate"
            if previous is not None and previous_cls == cls and previous.metric in ("other", "accuracy") \
                    and previous.span[1] <= start and (self.remaining.search(view, max(0, start - 40), start)
                                                       or self.level_series.match(view[previous.span[1]:start])):
                return WrittenForm(previous.metric)   # "20% of the computation ... the remaining 80%", "..., to ~25%"
        if cls == "ratio":
            m = self.before_device.match(after)
            if m and _DECIMAL.search(q.quote):
                return WrittenForm("speedup", m.group("base"))
            m = None if spec else self.that_of.match(after)
            if m:
                return WrittenForm("speedup", (m.group("base") or m.group("named")).strip())
        return None

    def named_baseline(self, q: QuantityRecord, view: str) -> str | None:
        """The baseline a ratio's written form names right after it ("6.7x A100", "2.7x that of MLA")."""
        after = view[q.span[1]:q.span[1] + 120]
        m = self.before_device.match(after) if _DECIMAL.search(q.quote) else None
        m = m or self.that_of.match(after) or self.quantity_of.match(after)   # "~3x the throughput of X"
        return (m.group("base") or m.group("named")).strip() if m else None

    def of_ideal(self, q: QuantityRecord, view: str) -> bool:
        """A percentage of an ideal or peak ("83% of the ideal scaling", "under 5% of peak")."""
        return self.share_of_ideal.match(view[q.span[1]:q.span[1] + 120]) is not None

    def device_ratio(self, q: QuantityRecord, view: str) -> bool:
        """A decimal factor the quantity finder read as a count before a device ("6.7x A100"): a ratio."""
        return q.unit in ("dimensionless", "") and q.quote.rstrip()[-1:] in ("x", "X", "×") \
            and bool(_DECIMAL.search(q.quote)) and self.before_device.match(view[q.span[1]:q.span[1] + 120]) is not None

    @staticmethod
    def apply(claim: Claim, form: WrittenForm) -> Claim:
        """The claim built for a figure of this form, with what the form says: the enumeration's sign,
        direction and baseline, or the baseline the form names."""
        update: dict = {}
        prev = form.follows
        if prev is not None:
            if (prev.value < 0) != (claim.value < 0):
                update.update(value=-claim.value, value_max=None if claim.value_max is None else -claim.value_max)
            update.update(direction=prev.direction, baseline=claim.baseline or prev.baseline)
        elif form.baseline and not claim.baseline:
            update["baseline"] = form.baseline
        return claim.model_copy(update=update) if update else claim


__all__ = ["RatioForms", "WrittenForm"]
