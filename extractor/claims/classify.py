"""Claims: the quantities that state performance, with metric, tokens, per, baseline and sign.

The decision reads only data: a quantity's unit class (from pint), the cue phrases
marked in its sentence (`rules/claims.yaml`), and for table cells the cues and unit of
the column and row headers. The jobs live in three rooms: `cues.py` (the clause-aware cue look-ups),
`metric.py` (which metric a quantity reports, or none) and here the claim's attributes and its assembly.
"""
from __future__ import annotations

import re
from functools import lru_cache

from extractor.claims.baselines import BaselineReader
from extractor.claims.cues import TOKEN_CUE_NEAR, ClauseCues, Cue, gap, inside, near, nearest
from extractor.claims.direction import DirectionReader
from extractor.claims.metric import SIGNED, STAT_AFTER, MetricChooser, change_metric_of
from extractor.claims.rules import ClaimRules
from extractor.records import Claim, ClaimContext, ClaimMention, QuantityRecord
from extractor.quantities.units import dimensions
from extractor.spans import markup_free, markup_free_pieces

# unit classes of levels a text may state a change of ("reduced by 500 ms", "grew by 300 tok/s")
ABSOLUTE_CLASSES = frozenset({"time", "token_time", "token_rate", "request_rate", "item_rate", "memory",
                              "bandwidth", "cost", "energy", "compute"})
# a figure, then an opening parenthesis still open at the end: what follows is an aside on that figure
_ASIDE_AFTER_A_FIGURE = re.compile(r"\d[^()]*\([^()]*$")
STAT_LEAD = 200   # characters: the sentence before a number whose opening phrase names a statistic
STAT_BEFORE = 60   # characters: "average first-chunk delay drops from ~4100 ms to ~700 ms"

__all__ = ["ClaimBuilder", "Cue", "change_metric_of", "gap", "inside", "nearest", "unit_class"]


@lru_cache(maxsize=256)
def unit_class(unit: str) -> str | None:
    """The class of a canonical unit: token_rate, time, ratio, percent... or None (bare or other)."""
    if unit in ("percent", "%"):
        return "percent"
    if unit == "x":
        return "ratio"
    if unit in ("dimensionless", ""):
        return None
    if re.search(r"\b\w*(?:byte|bit)\b", unit):   # pint's information units carry no dimension
        if re.search(r"/\s*\w*(?:second|minute|hour)\b", unit):   # "3.66 TiB/min": a rate of bytes too
            return "bandwidth"
        return "memory" if re.search(r"byte", unit) else None   # "4 bits" is a precision, not a size
    try:
        dims = dimensions(unit)
    except ValueError:
        return None
    time = dims.get("[time]", 0)
    if any(d.startswith("[currency") and p for d, p in dims.items()):
        return "cost"              # USD, and every other currency (each its own dimension: EUR, JPY...)
    if dims.get("[token]", 0) > 0 and time < 0:
        return "token_rate"
    if dims.get("[token]", 0) == 1 and len([p for p in dims.values() if p]) == 1:
        return "token_count"
    if dims.get("[token]", 0) == -1 and time == 1 and len([p for p in dims.values() if p]) == 2:
        return "token_time"
    if dims.get("[request]", 0) > 0 and time < 0:
        return "request_rate"
    if dims.get("[request]", 0) == -1 and time == 1 and len([p for p in dims.values() if p]) == 2:
        return "time"              # "5.85 seconds/video", "1.2 s/request": the time one item takes
    if dims.get("[token]", 0) > 0 and dims.get("[mass]", 0) < 0:
        return "energy"
    if dims.get("[mass]", 0) > 0 and time:
        return "energy"
    if time == 1 and len([d for d, p in dims.items() if p and d not in ("[gpu]", "[user]", "[node]")]) == 1:
        return "time"
    if time == -1 and len([d for d, p in dims.items() if p and d not in ("[gpu]", "[user]", "[node]")]) == 1:
        # FLOPS and clock rates; a bare count per time ("14500 iters/s", "28 fps") is a rate of work items
        return "compute" if re.search(r"FLOP|hertz", unit) else "item_rate"
    return None


class ClaimBuilder:
    """Turns the quantities of one text unit into claims, following the claim rules: the metric (through
    `MetricChooser`), then tokens, per, sign, baseline and direction, then the `Claim` itself."""

    def __init__(self, rules: ClaimRules):
        self.rules = rules
        self.clauses = ClauseCues()
        self.metrics = MetricChooser(rules, self.clauses)
        self.directions = DirectionReader(self.clauses, rules)
        self.baselines = BaselineReader(rules)
        self.per_device = re.compile(rules.per_device_after) if rules.per_device_after else None
        self.stat_lead = re.compile(rules.statistic_sentence_lead) if rules.statistic_sentence_lead else None

    # -- metric (the interface the pipeline and the table readers use) --------------
    @staticmethod
    def may_be_score(q: QuantityRecord) -> bool:
        """Whether `bare_class` can take the quantity for a score at all: no unit, 0 to 100."""
        return MetricChooser.may_be_score(q)

    def bare_class(self, q: QuantityRecord, cues: list[Cue]) -> str | None:
        """The class of a number without a unit: `score`, `accept_length` or None (see `MetricChooser`)."""
        return self.metrics.bare_class(q, cues)

    def metric_for(self, q: QuantityRecord, cls: str, cues: list[Cue], start: int, end: int,
                   header_cues: list[Cue] = ()) -> str | None:
        """The metric of a quantity of unit class `cls`, or None when it is not a claim."""
        return self.metrics.metric_for(q, cls, cues, start, end, header_cues)

    # -- attributes ----------------------------------------------------------------
    def tokens_for(self, cues: list[Cue], start: int, end: int, header_cues=()) -> str:
        cue = (self.clauses.clause_cue(cues, start, end, "tokens:", TOKEN_CUE_NEAR)
               or nearest(cues, start, end, "tokens:", TOKEN_CUE_NEAR)
               or nearest(list(header_cues), 0, 0, "tokens:", 10**9))
        return cue.label.split(":", 1)[1] if cue else "unspecified"

    def per_for(self, unit: str, cues: list[Cue], start: int, end: int, header_cues=()) -> str:
        for kind in ("gpu", "user", "node"):
            if re.search(rf"\b{kind}\b", unit):
                return kind
        # a per-word before the number may reach it across commas ("per-node rates of 41,200, 39,800,
        # and 38,050"); one after it only within its clause ("34,250 tokens/s, or 4,280 per GPU")
        own = [c for c in near(cues, start - TOKEN_CUE_NEAR, end + TOKEN_CUE_NEAR)
               if c.label.startswith("per:") and gap(c, start, end) <= TOKEN_CUE_NEAR
               and (c.end <= start or not self.clauses.between(cues, end, c.start, ("break",)))]
        cue = nearest(own, start, end, "per:", TOKEN_CUE_NEAR) or nearest(list(header_cues), 0, 0, "per:", 10**9)
        return cue.label.split(":", 1)[1] if cue else "system"

    def direction(self, cues: list[Cue], start: int, end: int, header_cues=()) -> int:
        """-1 when the governing change word says down ("22% lower", "reduces TTFT by 12%")."""
        cue = self.clauses.any_change(cues, start, end, header_cues)
        return -1 if cue and cue.label == "change:down" else 1

    def baseline(self, text: str, base: int, cues: list[Cue], start: int, end: int, unit_start: int) -> str | None:
        """What a speed-up or change is compared with, as its sentence names it (see `BaselineReader`)."""
        return self.baselines.read(text, base, cues, start, end, unit_start)

    # -- claims ------------------------------------------------------------------
    def claim(self, q: QuantityRecord, metric: str, cls: str, cues: list[Cue], text: str, base: int,
              unit_start: int, context: ClaimContext, header_cues=(), unit: str | None = None, *,
              written: str, saved: bool = False) -> Claim:
        """Build the claim for quantity `q` of metric `metric`. `text` is the (markup-masked) text read from
        `base` on; `written` the document as written, which the claim's span and quote index; `saved`: a table
        cell under a header naming a memory saving ("Memory Savings": the amount saved, a reduction)."""
        start, end = q.span
        unit = unit or q.unit
        value, value_max = q.value, q.value_max
        tokens = per = None
        if cls == "accept_length":
            unit = "token"                # tokens accepted per verification step
        elif cls == "named_ratio":
            unit = "x"                    # "a real-time factor of 0.47": a ratio written without its x
        elif cls == "request_rate" and unit in ("dimensionless", ""):
            unit = "request / second"     # "can sustain an RPS > 10": the rate's name before the number
        elif cls == "token_time":
            unit = re.sub(r"\s*/\s*token\b", "", unit)   # "16 ms per token": a TPOT of 16 ms
        elif cls == "time":
            unit = re.sub(r"\s*/\s*request\b", "", unit)   # "5.85 seconds/video": the latency of one item
        elif cls == "score" and metric == "accuracy" and unit in ("dimensionless", "") and 10 < value <= 100 \
                and (value_max is None or value_max <= 100):
            unit = "percent"              # a score on a 0-100 scale written without its % sign
        if cls in ("token_rate", "request_rate"):
            per = self.per_for(unit, cues, start, end, header_cues)
            if per == "system" and self.per_device and self.per_device.match(text, end - base):
                per = "gpu"               # "tokens/s per H200 GPU", "tok/s/MI300X", "/die"
            if per in ("gpu", "user", "node") and not re.search(rf"\b{per}\b", unit):
                unit = f"{unit} / {per}"
            if cls == "token_rate":
                tokens = self.tokens_for(cues, start, end, header_cues)
        elif cls in ("compute", "bandwidth") or metric == "memory":
            # "4.9 TFLOPS" under "Max Throughput per GPU", "3.2 TB/s per GPU", "10.5 GB" under "Memory per GPU":
            # the rate or footprint of one device, not of the whole system; a compute, bandwidth or memory
            # figure no per-word governs keeps per null
            per = self.per_for(unit, cues, start, end, header_cues)
            if per == "system" and self.per_device and self.per_device.match(text, end - base):
                per = "gpu"
            if per not in ("gpu", "node"):
                per = None
            elif not re.search(rf"\b{per}\b", unit):
                unit = f"{unit} / {per}"
        if metric == "relative_change" and value > 0 and (value_max is None or value_max > 0) \
                and not SIGNED.search(q.quote):
            if self.direction(cues, start, end, header_cues) < 0:
                value, value_max = -value, (None if value_max is None else -value_max)
        baseline = direction = None
        if metric in ("speedup", "relative_change"):
            baseline = self.baseline(text, base, cues, start, end, unit_start)
            signed = SIGNED.search(q.quote)
            sign = 0 if not signed else (1 if "+" in signed.group() else -1)
            direction = self.directions.read(cls, q.value, cues, start, end, header_cues, sign)
            if metric == "relative_change" and not signed and direction in ("better", "worse") \
                    and self.directions.polarity(cues, start, end, header_cues,
                                                 self.clauses.any_change(cues, start, end, header_cues)) < 0:
                # a change in a lower-is-better quantity: an improvement is a decrease ("improves TTFT by 9%")
                down = direction == "better"
                if (value > 0) == down:
                    value, value_max = -value, (None if value_max is None else -value_max)
        elif cls in ABSOLUTE_CLASSES and (change := self.clauses.absolute_change(
                cues, start, end, lambda a, b: not text[a - base:b - base].strip(" \t*_"))) is not None:
            # "TTFT reduced by 500 ms", "1200 ms faster than X", "a 15 ms difference": a change of the quantity,
            # signed as the change goes (a reduction is negative), with the direction of a comparison
            direction = self.directions.read(cls, q.value, cues, start, end, header_cues)
            # a time is less when it gets better ("900 ms faster", "cut TTFT by 400 ms"), more when worse
            # ("2 s slower"); other levels change as their change word says ("saves 2.4 GB", "150 tok/s lower")
            down = (direction == "better") if cls in ("time", "token_time") and direction != "neutral" \
                else change.label == "change:down"
            if down and value > 0:
                value, value_max = -value, (None if value_max is None else -value_max)
            baseline = self.baseline(text, base, cues, start, end, unit_start)
        elif cls in ABSOLUTE_CLASSES and header_cues and ((signed := SIGNED.search(q.quote)) or saved):
            # a table's change cell: a signed level under its column ("+1.5 ms (degradation)" under "TPOT Impact")
            # or the size under "Memory Savings" (a reduction, negative): a change with the direction it goes
            sign = 0 if not signed else (1 if "+" in signed.group() else -1)
            direction = self.directions.read(cls, q.value, cues, start, end, header_cues, sign or -1)
            if saved and value > 0:
                value, value_max = -value, (None if value_max is None else -value_max)
        # the quote as written, without Markdown markers or HTML entities ("up to **1.9x", "0.42&nbsp;s"):
        # the fields were read from the whole phrase above, the quote is its markup-free piece with the number
        a, b = markup_free(written, start, end)
        # the other end of a range written with markup between its ends ("**1.4x** to **1.8x**") is a mention
        # of the claim: the quote holds only the first
        ends = [] if value_max is None else [ClaimMention(quote=written[x:y], span=(x, y), context=context)
                                             for x, y in markup_free_pieces(written, start, end) if y <= a or x >= b]
        return Claim(metric=metric, value=value, value_max=value_max, unit=unit, qualifier=q.qualifier,
                     tokens=tokens, per=per, baseline=baseline, direction=direction,
                     statistic=self.statistic(metric, cues, start, end, header_cues,
                                              text[max(0, start - base - STAT_LEAD):start - base]),
                     quote=written[a:b],
                     span=(a, b), context=context, mentions=ends)

    def statistic(self, metric: str, cues: list[Cue], start: int, end: int, header_cues=(), before_text: str = "",
                  ) -> str | None:
        """The statistic a latency or rate states: a statistic word in its clause before the number ("P99 TTFT
        of 77 ms", "mean TPOT fell to 20 ms") or right after it ("61.5 ms on average"), else in its headers."""
        if metric not in self.rules.statistic_metrics:
            return None
        # (what `own` is read for lies within STAT_BEFORE before the number and STAT_AFTER after it)
        own = [c for c in self.clauses.without_label_break(near(cues, start - STAT_BEFORE, end + STAT_AFTER), start)
               if (c.label.startswith("stat:") and not inside(c, start, end)) or c.label in ("break", "join", "stop")]
        # not the word of another figure the parenthesis holding this one follows ("the mean RAM draw is 1.7 GB
        # (close to 5 tokens/s ...)"); "the mean TTFT climbs steeply (41.9s)" restates what the word says
        base = start - len(before_text)
        before = [c for c in own if c.label.startswith("stat:") and c.end <= start and start - c.end <= STAT_BEFORE
                  and not self.clauses.between(own, c.end, start, ("break", "join"), False)
                  and not _ASIDE_AFTER_A_FIGURE.search(before_text[max(0, c.end - base):])]
        if metric in ("speedup", "relative_change"):
            # "a minimum 2x speedup", "a maximum of 30% lower": a bound on the ratio (its qualifier), not the
            # statistic of what was compared
            before = [c for c in before if c.label not in ("stat:min", "stat:max") or start - c.end > 4]
        cue = (self.clauses.after(own, start, end, ("stat:",), STAT_AFTER)
               or max(before, key=lambda c: c.end, default=None)
               or nearest([c for c in header_cues if c.label.startswith("stat:")], 0, 0, "stat:", 10**9))
        if cue is None and self.stat_lead is not None:
            # a sentence's opening phrase that says its figures are averages ("Averaged over batch sizes, X is
            # 1.6x faster", "On average, ..."): the mean, though a comma parts it from the figure
            lead = self.stat_lead.search(before_text)
            if lead:
                return "mean"
        if cue is None or (cue.label == "stat:min" and metric in self.rules.statistic_min_is_requirement):
            return None           # "Minimum GPU memory": a requirement, no statistic of measurements
        return cue.label[5:]
