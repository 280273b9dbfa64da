"""Claims: the quantities that state performance, with metric, tokens, per, baseline and sign.

The decision reads only data: a quantity's unit class (from pint), the cue phrases
marked in its sentence (`rules/claims.yaml`), and for table cells the cues and unit of
the column and row headers.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from extractor.claims.direction import DirectionReader
from extractor.claims.rules import ClaimRules
from extractor.records import Claim, ClaimContext, QuantityRecord
from extractor.quantities.units import parse_unit

_SIGNED = re.compile(r"(?:^|[\s*_(~])[+−]\s?\d|(?:^|[\s*_(])-\d")
CHANGE_NEAR = 20  # "a 4 GB improvement", "saves 37.5 GB": the change word sits right by its quantity
NEAR = 60        # characters: how far a cue may sit from its quantity and still qualify it
TOKEN_CUE_NEAR = 40
BARE_NEAR = 12


@dataclass(frozen=True, slots=True)
class Cue:
    """A cue phrase found in the text: its role label and absolute span."""

    label: str
    start: int
    end: int


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
        if re.search(r"/\s*\w*second", unit):
            return "bandwidth"
        return "memory" if re.search(r"byte", unit) else None   # "4 bits" is a precision, not a size
    try:
        dims = dict(parse_unit(unit).dimensionality)
    except ValueError:
        return None
    time = dims.get("[time]", 0)
    if dims.get("[currency]"):
        return "cost"
    if dims.get("[token]", 0) > 0 and time < 0:
        return "token_rate"
    if dims.get("[token]", 0) == 1 and len([p for p in dims.values() if p]) == 1:
        return "token_count"
    if dims.get("[token]", 0) == -1 and time == 1 and len([p for p in dims.values() if p]) == 2:
        return "token_time"
    if dims.get("[request]", 0) > 0 and time < 0:
        return "request_rate"
    if dims.get("[token]", 0) > 0 and dims.get("[mass]", 0) < 0:
        return "energy"
    if dims.get("[mass]", 0) > 0 and time:
        return "energy"
    if time == 1 and len([d for d, p in dims.items() if p and d not in ("[gpu]", "[user]", "[node]")]) == 1:
        return "time"
    if time == -1 and len([d for d, p in dims.items() if p and d not in ("[gpu]", "[user]", "[node]")]) == 1:
        return "compute"
    return None


def change_metric_of(cls: str) -> str:
    """The metric of a change in a quantity of unit class `cls`: a percent change or a ratio."""
    return "relative_change" if cls == "percent" else "speedup"


def gap(cue: Cue, start: int, end: int) -> int:
    """Characters between a cue and a span (0 when they touch or overlap)."""
    return max(0, cue.start - end, start - cue.end)


def nearest(cues: list[Cue], start: int, end: int, prefix: str, limit: int) -> Cue | None:
    """The closest cue whose label starts with `prefix`, within `limit` characters."""
    best, best_gap = None, limit + 1
    for c in cues:
        if c.label.startswith(prefix):
            g = gap(c, start, end)
            if g < best_gap or (g == best_gap and best is not None and c.start > best.start):
                best, best_gap = c, g
    return best


def inside(cue: Cue, start: int, end: int) -> bool:
    """The cue lies within the quantity's own span (its unit or qualifier text)."""
    return cue.start >= start and cue.end <= end


class ClaimBuilder:
    """Turns the quantities of one text unit into claims, following the claim rules."""

    def __init__(self, rules: ClaimRules):
        self.rules = rules
        self.allowed = {cls: [m for m in metrics if m] for cls, metrics in rules.unit_classes.items()}
        self.default = {cls: (metrics[0] if metrics else "") for cls, metrics in rules.unit_classes.items()}
        self.directions = DirectionReader(self, rules)
        self.per_device = re.compile(rules.per_device_after) if rules.per_device_after else None

    # -- clauses -------------------------------------------------------------------
    @staticmethod
    def _between(cues: list[Cue], a: int, b: int, labels: tuple[str, ...], skip_label_colon: bool = True) -> bool:
        """A cue with one of `labels` lies in [a, b) (a break right after `a`, as in "Speedup: 3x", does not
        count)."""
        for c in cues:
            if c.label in labels and a <= c.start and c.end <= b:
                if skip_label_colon and c.start - a <= 1 and c.label == "break":
                    continue
                return True
        return False

    def same_clause(self, cues: list[Cue], a: int, b: int) -> bool:
        """No clause break (, ; : —) between positions a and b."""
        return not self._between(cues, a, b, ("break",))

    def _after(self, cues, start, end, prefixes: tuple[str, ...], limit: int = 25) -> Cue | None:
        """The first cue right after the quantity ("22% lower", "3x faster", "6% E2E speedup"): no clause
        break, join or stop word between."""
        best = None
        for c in cues:
            if c.label == "change:neutral_before":
                continue              # "within" governs only the number after it
            if c.label.startswith(prefixes) and c.start >= end and c.start - end <= limit \
                    and not self._between(cues, end, c.start, ("break", "join", "stop"), False):
                if best is None or c.start < best.start or (c.start == best.start and c.end > best.end):
                    best = c
        return best

    def _before(self, cues, start, end, prefixes: tuple[str, ...], limit: int = NEAR) -> Cue | None:
        """The nearest cue before the quantity in the same clause."""
        best = None
        for c in cues:
            if c.label.startswith(prefixes) and c.end <= start and start - c.end <= limit \
                    and self.same_clause(cues, c.end, start):
                if best is None or c.end > best.end or (c.end == best.end and c.start < best.start):
                    best = c
        return best

    def governing_change(self, cues: list[Cue], start: int, end: int) -> Cue | None:
        """The change word that governs a number: right after it, else the nearest before it in its clause.
        Words inside the quantity ("more than 30%") and cues of another clause do not govern."""
        own = [c for c in cues if not inside(c, start, end)]
        cue = self._after(own, start, end, ("change:",))
        if cue:
            return cue
        cue = self._after(own, start, end, ("change:",), NEAR)
        if cue and self._only_metric_words(own, end, cue.start):
            return cue                    # "17% per-token latency improvement": the metric named in between
        adj = [c for c in own if c.label.startswith("change_adj:") and c.end <= start and start - c.end <= 2]
        if adj:
            return Cue(adj[-1].label.replace("change_adj:", "change:"), adj[-1].start, adj[-1].end)
        return self._before(own, start, end, ("change:",))

    @staticmethod
    def _only_metric_words(cues: list[Cue], a: int, b: int) -> bool:
        """Every character of [a, b) that is not a blank or a hyphen lies in a metric or tokens cue."""
        covered = set()
        for c in cues:
            if c.label.startswith(("metric:", "tokens:")) and a <= c.start and c.end <= b:
                covered.update(range(c.start, c.end))
        return b - a - len(covered) <= 3

    def _any_change(self, cues, start, end, header_cues=(), limit: int = NEAR) -> Cue | None:
        return (self.governing_change(cues, start, end) or self.amount_of_change(cues, start, end) or nearest(cues, start, end, "change:", limit)
                or nearest(list(header_cues), 0, 0, "change:", 10**9))

    def _limited(self, cues, start, end) -> bool:
        """A limit, target or SLO figure: a limit word before it in its clause, or right after it."""
        own = [c for c in cues if not inside(c, start, end)]
        return bool(self._before(own, start, end, ("limit",), 40) or self._after(own, start, end, ("limit",), 14))

    def _measured(self, cues, start, end, labels=("measure",)) -> bool:
        own = [c for c in cues if not inside(c, start, end)]
        return bool(self._before(own, start, end, labels, NEAR * 2) or self._after(own, start, end, labels, 40))

    @staticmethod
    def _setting(cues, start, end) -> bool:
        """Introduced as a setting: "at 4 req/s", "for 0% hit rate", "a request rate of 8"."""
        for c in cues:
            if c.label == "setting" and c.end <= start and start - c.end <= 2:
                # "of" in "instead of" is part of a longer phrase, not a setting word
                if not any(d.start < c.start and d.end >= c.end and d.label != "stop" for d in cues):
                    return True
        return False

    @staticmethod
    def baseline_value(cues: list[Cue], start: int, end: int, cls: str) -> bool:
        """A share or score that is the reference of a comparison ("scored 95.1% against 95.4%", "92% → 95%").
        Baseline rates and times ("instead of 1,742 tok/s") stay claims: they are measured results, and a
        number that is no claim would be read as a load condition."""
        if cls not in ("percent", "score"):
            return False
        for c in cues:
            if c.label.startswith("baseline_value:") and c.label != "baseline_value:after" and c.end <= start \
                    and start - c.end <= 3:
                return True
            if c.label == "baseline_value:after" and c.start >= end and c.start - end <= 3:
                return True
        return False

    def amount_of_change(self, cues: list[Cue], start: int, end: int) -> Cue | None:
        """The change word of "<change word> ... by N": the number right after "by", the change word anywhere
        before it in its clause."""
        if not any(c.label == "by" and 0 <= start - c.end <= 2 for c in cues):
            return None
        return self._before([c for c in cues if not inside(c, start, end)], start, end, ("change:",), 10**6)

    @staticmethod
    def level_share(cues: list[Cue], start: int, end: int) -> bool:
        """A percentage between a level word and a share word: "to 54% of", "at 68% of"."""
        return any(c.label == "level_intro" and 0 <= start - c.end <= 2 for c in cues) \
            and any(c.label == "share_of" and 0 <= c.start - end <= 2 for c in cues) \
            and not any(c.label in ("change:neutral", "change:neutral_before") and inside(c, start, end)
                        for c in cues)   # "is within 2% of": a difference

    # -- metric ------------------------------------------------------------------
    @staticmethod
    def may_be_score(q: QuantityRecord) -> bool:
        """Whether `bare_class` can take the quantity for a score at all: no unit, 0 to 100."""
        return q.unit in ("dimensionless", "") and 0 <= q.value <= 100

    def bare_class(self, q: QuantityRecord, cues: list[Cue]) -> str | None:
        """A number without a unit is a score when an accuracy cue sits right by it ("0.97 on GSM8K"), and an
        acceptance length when an acceptance-length cue comes right before it ("AL 2.8", "acceptance length
        of 3.2")."""
        if not self.may_be_score(q):
            return None
        length = [c for c in cues if c.label == "length:accept" and c.start <= q.span[0]]
        if 1 < q.value <= 16 and nearest(length, q.span[0], q.span[1], "length:", BARE_NEAR):
            return "accept_length"
        return "score" if nearest(cues, q.span[0], q.span[1], "metric:accuracy", BARE_NEAR) else None

    def metric_for(self, q: QuantityRecord, cls: str, cues: list[Cue], start: int, end: int,
                   header_cues: list[Cue] = ()) -> str | None:
        """The metric of a quantity of unit class `cls`, or None when it is not a claim."""
        prose = not header_cues
        if prose and self.baseline_value(cues, start, end, cls):
            return None
        if cls in ("percent", "ratio"):
            return self._relative(q, cls, cues, start, end, header_cues)
        if prose and not self._is_result(q, cls, cues, start, end):
            return None
        allowed = self.allowed.get(cls, [])
        if cls == "token_count":     # "a capacity of 2.5M tokens": only with its own cue, in its clause
            if q.value <= 1:
                return None               # "drafts 1 token at a time": a setting
            cue = self._clause_cue([c for c in cues if c.label[7:] in allowed], start, end, "metric:", NEAR // 2)
            return cue.label[7:] if cue and not self._setting(cues, start, end) else None
        cue = self._metric_cue(cues, start, end, allowed, NEAR * 2) or self._metric_cue(header_cues, 0, 0,
                                                                                       allowed, 10**9)
        if cue:
            return cue.label.split(":", 1)[1]
        if not self.default.get(cls) and allowed and nearest(cues, start, end, "change:", CHANGE_NEAR):
            return allowed[-1]     # "a 4 GB improvement": a change in a quantity of this class
        if cls == "time" and prose and self._from_to(cues, start, end):
            return allowed[-1]     # "prefill went from ~5.9 s to ~0.6 s": the two levels of a change
        return self.default.get(cls) or None

    @staticmethod
    def _from_to(cues: list[Cue], start: int, end: int) -> bool:
        """The number is one end of "from A to B": "from" right before it and "to" right after, or "to"
        right before it with "from" earlier in its clause."""
        def right_before(label: str, limit: int = 2) -> list[Cue]:
            return [c for c in cues if c.label == label and 0 <= start - c.end <= limit]
        after_to = any(c.label == "level_intro" and 0 <= c.start - end <= 2 for c in cues)
        if right_before("baseline") and after_to:
            return True
        return bool(right_before("level_intro")) and any(
            c.label == "baseline" and c.end <= start and start - c.end <= 40 for c in cues)

    def _is_result(self, q: QuantityRecord, cls: str, cues: list[Cue], start: int, end: int) -> bool:
        """Prose figures that are settings, limits or datasheet values are not claims."""
        if cls == "cost":
            return bool(re.search(r"\b(?:\w*token|request)\b", q.unit))   # a price per token, not per GPU-hour
        if cls in ("time", "token_rate", "request_rate", "memory", "bandwidth", "token_count", "token_time") \
                and self._limited(cues, start, end):
            return False
        if cls in ("time", "token_time") and nearest(cues, start, end, "not_claim", 25):
            return False                  # "~2 hours, 9 video lessons": the length of a course, not a latency
        if cls == "request_rate":
            if self._setting(cues, start, end) and not self._before(cues, start, end, ("rate_claim",)):
                return False
            if any(c.label == "baseline_value:before" and 0 <= c.start - end <= 30 for c in cues):
                return True               # "7.3 req/s, up from 6.7 req/s": the result of a comparison
            return bool(self._measured(cues, start, end, ("measure", "rate_claim"))
                        or self.governing_change(cues, start, end))
        if cls == "energy" and not re.search(r"\btoken\b", q.unit) and not self._measured(cues, start, end):
            return False                  # "draws 1400W": a datasheet power figure, not a measured efficiency
        if cls in ("memory", "bandwidth", "compute"):
            return bool(self._measured(cues, start, end) or self.governing_change(cues, start, end)
                        or nearest([c for c in cues if not inside(c, start, end)], start, end, "change:",
                                   CHANGE_NEAR))
        return True

    def _metric_cue(self, cues, start, end, allowed, limit) -> Cue | None:
        """The nearest allowed metric cue; one across a clause break or join ("... and ITL") counts only when
        none is in the number's own clause; of equally near cues the longer wins."""
        best, best_key = None, None
        for c in cues:
            if c.label.startswith("metric:") and c.label[7:] in allowed:
                g = gap(c, start, end)
                if g > limit:
                    continue
                a, b = (c.end, start) if c.end <= start else (end, c.start)
                crossed = a < b and self._between(cues, a, b, ("break", "join"))
                key = (crossed, g, -(c.end - c.start), -c.start)
                if best_key is None or key < best_key:
                    best, best_key = c, key
        return best

    def _relative(self, q, cls, cues, start, end, header_cues) -> str | None:
        if nearest(cues, start, end, "not_claim", 25):
            return None
        allowed = self.allowed.get(cls, [])
        specific = [m for m in allowed if m not in ("speedup", "relative_change")]
        if not header_cues and self.amount_of_change(cues, start, end):
            return change_metric_of(cls)  # "improves TPOT on four GPUs by 8.7%", "outperforms X by 30% on Y"
        if cls == "percent" and self.level_share(cues, start, end):
            # "reduced to 54% of the BF16 cost": a level relative to a reference, a ratio written in percent;
            # "97% of BF16 accuracy", "33% of the execution time" keep their own metric
            cue = self._metric_cue(cues, start, end, specific, 25)
            return cue.label[7:] if cue and cue.label[7:] in ("accuracy", "other") else "speedup"
        change = self._any_change(cues, start, end, header_cues, NEAR if cls == "percent" else NEAR * 2)
        signed = _SIGNED.search(q.quote) is not None
        change_metric = "relative_change" if cls == "percent" else "speedup"
        if signed and cls == "percent":
            return change_metric          # "+28% throughput", "-12%": a change, whatever metric is near
        spelled = not re.search(r"\d", q.quote)
        cue = self._metric_cue(cues, start, end, specific, 25)
        if cue and (not change or gap(cue, start, end) <= gap(change, start, end)):
            metric = cue.label[7:]
            if cls == "ratio" and metric not in ("memory", "other"):
                return change_metric if change else None
            if cls == "ratio" and metric == "memory" and not change:
                return None               # "8x or 16x accelerators for the memory": a count, not a change
            if metric == "other" and not change and not header_cues and self._setting(cues, start, end) \
                    and not self._before(cues, start, end, ("measure",)):
                return None               # "at a 70% hit rate": the setting of a run
            return metric
        if change or signed:
            return change_metric
        if spelled and not header_cues:
            # "five times" is a ratio only with a change word or the metric it multiplies right after it
            # ("three times the output"), not a repetition ("runs it five times")
            after = self._after(cues, start, end, ("metric:", "tokens:"), 20)
            return change_metric if after else None
        cue = self._metric_cue(cues, start, end, allowed, NEAR) or self._metric_cue(header_cues, 0, 0, allowed,
                                                                                   10**9)
        if cue:
            metric = cue.label[7:]
            if metric == "memory" and cls == "ratio":
                return None               # "8x or 16x accelerators for the memory": a count, not a change
            return metric if metric in specific else None
        if cls == "ratio":
            # "2.7x" next to any performance metric word, or measured ("we are seeing about 3x"), is a speed-up
            any_metric = nearest(cues, start, end, "metric:", 30) or (header_cues and nearest(header_cues, 0, 0,
                                                                                              "metric:", 10**9))
            measured = not header_cues and self._before(cues, start, end, ("measure",), 30)
            return "speedup" if any_metric or measured else None
        return None

    # -- attributes ----------------------------------------------------------------
    def _clause_cue(self, cues, start, end, prefix: str, limit: int) -> Cue | None:
        """The nearest cue with `prefix` not across a clause break or join from the quantity."""
        best, best_gap = None, limit + 1
        for c in cues:
            if not c.label.startswith(prefix):
                continue
            g = gap(c, start, end)
            a, b = (c.end, start) if c.end <= start else (end, c.start)
            if g < best_gap and not (a < b and self._between(cues, a, b, ("break", "join"))):
                best, best_gap = c, g
        return best

    def tokens_for(self, cues: list[Cue], start: int, end: int, header_cues=()) -> str:
        cue = (self._clause_cue(cues, start, end, "tokens:", TOKEN_CUE_NEAR)
               or nearest(cues, start, end, "tokens:", TOKEN_CUE_NEAR)
               or nearest(list(header_cues), 0, 0, "tokens:", 10**9))
        return cue.label.split(":", 1)[1] if cue else "unspecified"

    def per_for(self, unit: str, cues: list[Cue], start: int, end: int, header_cues=()) -> str:
        for kind in ("gpu", "user", "node"):
            if re.search(rf"\b{kind}\b", unit):
                return kind
        # a per-word before the number may reach it across commas ("per-node throughputs of 57,674, 54,543,
        # and 50,302"); one after it only within its clause ("34,250 tokens/s, or 4,280 per GPU")
        own = [c for c in cues if c.label.startswith("per:") and gap(c, start, end) <= TOKEN_CUE_NEAR
               and (c.end <= start or not self._between(cues, end, c.start, ("break",)))]
        cue = nearest(own, start, end, "per:", TOKEN_CUE_NEAR) or nearest(list(header_cues), 0, 0, "per:", 10**9)
        return cue.label.split(":", 1)[1] if cue else "system"

    def direction(self, cues: list[Cue], start: int, end: int, header_cues=()) -> int:
        """-1 when the governing change word says down ("22% lower", "reduces TTFT by 12%")."""
        cue = self._any_change(cues, start, end, header_cues)
        return -1 if cue and cue.label == "change:down" else 1

    def baseline(self, text: str, base: int, cues: list[Cue], start: int, end: int, unit_start: int) -> str | None:
        """The phrase after 'than / over / vs / compared with ...' following the value, or a leading
        'Compared with X,' clause."""
        after = [c for c in cues if c.label == "baseline" and c.start >= end and c.start - end <= 80]
        stops = sorted(c.start for c in cues if c.label == "stop")
        lead = [c for c in cues if c.label == "baseline" and c.start - unit_start <= 2 and c.end <= start]
        for c in after[:1] + lead[:1]:
            limit = next((s for s in stops if s >= c.end + 1), None)
            stop = min(x for x in (limit, c.end + 80, len(text) + base) if x is not None)
            phrase = text[c.end - base:stop - base]
            phrase = re.split(r"[,;:()!?\n]|\.(?!\w)| — | – ", phrase)[0].strip(" *_")
            if re.match(r"[~≈<>]?\s*[\d.,]+(?:\s|$)", phrase):
                continue                  # a bare number is the baseline value, not what was compared with
            if phrase and len(phrase.split()) <= 10 and re.search(r"[A-Za-z0-9]", phrase):
                return re.sub(r"\s+", " ", phrase)
        return None

    # -- claims ------------------------------------------------------------------
    def claim(self, q: QuantityRecord, metric: str, cls: str, cues: list[Cue], text: str, base: int,
              unit_start: int, context: ClaimContext, header_cues=(), unit: str | None = None) -> Claim:
        """Build the claim for quantity `q` of metric `metric`."""
        start, end = q.span
        unit = unit or q.unit
        value, value_max = q.value, q.value_max
        tokens = per = None
        if cls == "accept_length":
            unit = "token"                # tokens accepted per verification step
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
        if metric == "relative_change" and value > 0 and (value_max is None or value_max > 0) \
                and not _SIGNED.search(q.quote):
            if self.direction(cues, start, end, header_cues) < 0:
                value, value_max = -value, (None if value_max is None else -value_max)
        baseline = direction = None
        if metric in ("speedup", "relative_change"):
            baseline = self.baseline(text, base, cues, start, end, unit_start)
            signed = _SIGNED.search(q.quote)
            sign = 0 if not signed else (1 if "+" in signed.group() else -1)
            direction = self.directions.read(cls, q.value, cues, start, end, header_cues, sign)
            if metric == "relative_change" and not signed and direction in ("better", "worse") \
                    and self.directions.polarity(cues, start, end, header_cues,
                                                 self._any_change(cues, start, end, header_cues)) < 0:
                # a change in a lower-is-better quantity: an improvement is a decrease ("improves TTFT by 9%")
                down = direction == "better"
                if (value > 0) == down:
                    value, value_max = -value, (None if value_max is None else -value_max)
        return Claim(metric=metric, value=value, value_max=value_max, unit=unit, qualifier=q.qualifier,
                     tokens=tokens, per=per, baseline=baseline, direction=direction, quote=q.quote, span=q.span,
                     context=context)
