"""Metric choice: which metric a quantity of a given unit class reports, or None when it is no claim.

It reads the quantity's unit class, the cues around it (through `ClauseCues`) and, for a table cell or a
script's output column, the cues of its headers.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from extractor.claims.cues import (ADJACENT, BARE_NEAR, CHANGE_NEAR, NEAR, ClauseCues, Cue, dropping, gap, inside, labelled,
                                   near, nearest, outside)
from extractor.claims.rules import ClaimRules
from extractor.claims.training_time import training_time
from extractor.records import QuantityRecord

STAT_AFTER = 15    # characters: "48.0 ms on average", "640 ms median", "91 ms (P99)"
SIGNED = re.compile(r"(?:^|[\s*_(~])[+−]\s?\d|(?:^|[\s*_(])-\d")


def change_metric_of(cls: str) -> str:
    """The metric of a change in a quantity of unit class `cls`: a percent change or a ratio."""
    return "relative_change" if cls == "percent" else "speedup"


# limit cues that state a need rather than a target: the figure they govern is not set aside as a target
REQUIREMENT = re.compile(r"(?:require|requires|required|requirement|requirements|needs to|need to)$")
# words right before a size that say a run used it: the figure is no datasheet figure (the rules decide)
USAGE = re.compile(r"\b(?:using|utili[sz]ing|consuming|occupying|taking|needing|requiring)\b[^.;:\n]*$", re.I)
# ...and "target" naming the model that verifies a speculative draft ("the target model")
NOT_A_TARGET = re.compile(r"[ \t]+(?:model|models|LLM|draft|network)\b", re.I)
MODEL_SIZE_NEAR = 20   # a model-size word names the memory figure only close before it, in its clause


def _not_claim(cues: list[Cue]) -> list[Cue]:
    """The not-claim cues that turn down percents and ratios too: not the media words ("video", "course"), which
    turn down times only ("7.4x higher throughput for video generation" is a speed-up)."""
    return [c for c in labelled(cues, "not_claim") if c.label == "not_claim"]


class MetricChooser:
    """Chooses the metric of a quantity from its unit class and the cues around it."""

    def __init__(self, rules: ClaimRules, clauses: ClauseCues):
        self.clauses = clauses
        self.training_metric = rules.training_time_metric
        self.allowed = {cls: [m for m in metrics if m] for cls, metrics in rules.unit_classes.items()}
        self.default = {cls: (metrics[0] if metrics else "") for cls, metrics in rules.unit_classes.items()}

    @staticmethod
    def may_be_score(q: QuantityRecord) -> bool:
        """Whether `bare_class` can take the quantity for a score at all: no unit, 0 to 100."""
        return q.unit in ("dimensionless", "") and 0 <= q.value <= 100

    def bare_class(self, q: QuantityRecord, cues: list[Cue]) -> str | None:
        """A number without a unit is a score when an accuracy cue sits right by it ("0.97 on GSM8K"), an
        acceptance length when an acceptance-length cue comes right before it ("AL 3.1", "acceptance length
        of 3.2"), a request rate right after a rate's name ("an RPS > 10", "up to rate ~5.5"), and a named
        ratio after the ratio's name in its clause ("a real-time factor of 0.47")."""
        if q.unit not in ("dimensionless", ""):
            return None
        if self.named_rate(q, cues):
            return "request_rate"
        if not self.may_be_score(q):
            return None
        if 0 < q.value and any(c.label == "ratio_name" and c.start <= q.span[0] and q.span[0] - c.end <= NEAR
                               and self.clauses.same_clause(cues, c.end, q.span[0])
                               for c in near(cues, q.span[0] - NEAR, q.span[0])):
            return "named_ratio"
        length = [c for c in near(cues, q.span[0] - BARE_NEAR, q.span[1] + BARE_NEAR)
                  if c.label == "length:accept" and c.start <= q.span[0]]
        if 1 < q.value <= 16 and nearest(length, q.span[0], q.span[1], "length:", BARE_NEAR):
            return "accept_length"
        return "score" if nearest(cues, q.span[0], q.span[1], "metric:accuracy", BARE_NEAR) else None

    @staticmethod
    def named_rate(q: QuantityRecord, cues: list[Cue]) -> bool:
        """A rate's name right before the bare number ("RPS > 10", "rate ~5.5", "QPS of 12"), not the end of a
        longer cue ("hit rate", "learning rate") and not after a setting word ("at rate 10")."""
        for c in near(cues, q.span[0] - 4, q.span[0]):
            if c.label != "rate_unit" or c.start > q.span[0] or q.span[0] - c.end > 4:
                continue
            if any(d.start < c.start and d.end >= c.end and d.label not in ("stop", "break")
                   for d in near(cues, c.end, c.end)):
                continue
            if any(d.label == "setting" and 0 <= c.start - d.end <= 3 for d in near(cues, c.start - 3, c.start)):
                continue
            return True
        return False

    def metric_for(self, q: QuantityRecord, cls: str, cues: list[Cue], start: int, end: int,
                   header_cues: list[Cue] = ()) -> str | None:
        """The metric of a quantity of unit class `cls`, or None when it is not a claim."""
        prose = not header_cues
        if prose and self.clauses.baseline_value(cues, start, end, cls):
            return None
        if cls in ("time", "token_time", "item_rate") and any(c.label.startswith("not_claim") for c in header_cues):
            return None                   # a "Benchmark duration (s)" column or line: how long the run took
        if cls in ("percent", "ratio"):
            return self._relative(q, cls, cues, start, end, header_cues)
        if prose and not self._is_result(q, cls, cues, start, end):
            return None
        allowed = self.allowed.get(cls, [])
        if cls == "time" and training_time(self.clauses, cues, start, end, header_cues):
            return self.training_metric   # "a lab can train its 20B assistant in 7 hours": training
        if cls == "token_count":     # "a capacity of 2.5M tokens": only with its own cue, in its clause
            if q.value <= 1:
                return None               # "proposes 2 tokens per step": a setting
            # (the list holds no clause break: the cue is the nearest of them within reach)
            cue = self.clauses.clause_cue([c for c in near(cues, start - NEAR // 2, end + NEAR // 2)
                                           if c.label[7:] in allowed], start, end, "metric:", NEAR // 2)
            return cue.label[7:] if cue and not self.clauses.setting(cues, start, end) else None
        cue = self.clauses.metric_cue(cues, start, end, allowed, NEAR * 2) or self.clauses.metric_cue(header_cues, 0, 0,
                                                                                       allowed, 10**9)
        if cue:
            return cue.label.split(":", 1)[1]
        if cls == "memory" and (self._run_state(cues, end) or (prose and self._stated_statistic(cues, start, end))):
            return "memory"               # "3.2 GiB KV cache per sequence", "the peak was 178 GB": a run's memory
        if not self.default.get(cls) and allowed and nearest(cues, start, end, "change:", CHANGE_NEAR):
            return allowed[-1]     # "a 4 GB improvement": a change in a quantity of this class
        lower = self.clauses.clause_cue(cues, start, end, "polarity:lower", NEAR) if cls == "time" else None
        if lower is not None and not (lower.start >= end and self.clauses.setting(cues, start, end)):
            # "the AllGather overhead (~150 ms/step)", "a 5 ms bubble", "the routing cost is 1-18 ms": time spent
            # on it; not a setting the cost word follows ("a run of 30 seconds costs $0.40")
            return "latency"
        if cls == "time" and prose and self.clauses.before(self.clauses.without_label_break(cues, start), start, end,
                                                           ("stat:",), NEAR // 2) \
                and not self.clauses.setting(cues, start, end):
            return "latency"       # "Average per switch: ~2.6s", "a median of 340 ms": a statistic of a measured time
        if cls == "time" and prose and self.clauses.from_to(cues, start, end):
            return allowed[-1]     # "prefill went from ~5.9 s to ~0.6 s": the two levels of a change
        if cls == "time" and prose and not self.clauses.setting(cues, start, end) and (
                self.clauses.after(cues, start, end, ("stat:",), STAT_AFTER)
                or self.clauses.before(cues, start, end, ("measure",), NEAR * 2)):
            return "latency"       # "0.64 s median / 1.21 s p95", "the GPU build ran at 7.4 ms": a measured time
        if cls in ("memory", "bandwidth", "compute") and prose and self._changed_levels(cues, start, end):
            return allowed[-1]     # "peak HBM rises from 12 GB to 17 GB": the two levels of a change
        return self.default.get(cls) or None

    def rejection(self, q: QuantityRecord, cls: str, cues: list[Cue], start: int, end: int,
                  text: str) -> tuple[str, str] | None:
        """(set-aside reason, rule) of a prose figure `metric_for` did not take, when a claim rule said why
        (a setting, a limit, a datasheet figure); None when no rule did (a figure the rules may miss).
        `text`: the document text the cue offsets point into."""
        if cls in ("percent", "ratio"):
            if self.clauses.baseline_value(cues, start, end, cls):
                return "baseline", "claims.baseline_value"   # "WER 5.3% vs 9.1%": the reference's value
            if nearest(_not_claim(cues), start, end, "not_claim", 25):
                # "90% of GPU memory" is a setting; a ratio the not-claim words turn down ("7.4x higher
                # throughput for video") is no setting: the rules decide
                return ("setting", "claims.not_claim") if cls == "percent" else None
            if self.clauses.setting(cues, start, end):
                return "setting", "claims.setting_intro"
            return None
        why = self.not_result(q, cls, cues, start, end)
        if why is None or why[0] is None:
            return None
        if why[1] == "claims.device_spec" and USAGE.search(text, max(0, start - 30), start):
            return None                   # "running it using only 14GB VRAM": what a run took, not a datasheet
        if why[1] == "claims.limit_cues":
            own = outside(cues, start, end)
            cue = self.clauses.before(own, start, end, ("limit",), 40) or self.clauses.after(own, start, end,
                                                                                            ("limit",), 14)
            if cue is not None and (REQUIREMENT.match(text[cue.start:cue.end].lower())
                                    or NOT_A_TARGET.match(text, cue.end)):
                return None               # "requires 35 s to warm up", "the target model": no target
        return why  # type: ignore[return-value]

    def turned_down(self, q: QuantityRecord, cls: str, cues: list[Cue], start: int, end: int) -> bool:
        """Whether the metric choice turned a percent or ratio down on purpose (a not-claim phrase, a project's
        adoption count, the reference value of a comparison), so that no written form may take it."""
        return bool(nearest(_not_claim(cues), start, end, "not_claim", 25)
                    or self.clauses.before(cues, start, end, ("adoption",), NEAR)
                    or self.clauses.baseline_value(cues, start, end, cls))

    def _is_result(self, q: QuantityRecord, cls: str, cues: list[Cue], start: int, end: int) -> bool:
        """Prose figures that are settings, limits or datasheet values are not claims."""
        return self.not_result(q, cls, cues, start, end) is None

    def not_result(self, q: QuantityRecord, cls: str, cues: list[Cue], start: int,
                   end: int) -> tuple[str | None, str] | None:
        """Why a prose figure of class `cls` is no result: (set-aside reason, rule) for a setting, limit or
        datasheet value (reason None: the rule turns it down without saying what it is), None when it may
        be a result."""
        if cls == "cost":
            if re.search(r"/\s*(?:\w*token|request)\b", q.unit):
                return None               # a cost per token or per request; not "a $0.003 request" (USD * request)
            return None, "claims.cost_not_per_token"   # a list price per GPU-hour, or a cost the rules miss
        if cls in ("time", "token_rate", "request_rate", "item_rate", "memory", "bandwidth", "token_count",
                   "token_time") \
                and self.clauses.limited(cues, start, end):
            return "target", "claims.limit_cues"
        if cls in ("time", "token_time") and "/" not in q.unit and nearest(cues, start, end, "not_claim", 25):
            # "~3 hours, 12 video lessons": the length of a course; not "5.85 seconds/video", a time per item
            return "setting", "claims.not_claim"
        if cls == "item_rate":
            # "renders 240 fps", "we achieved ~14500 iters/s"; not "sampled at 28 fps", "a frame rate of 16 fps"
            if nearest(outside(cues, start, end), start, end, "not_claim", 25) or (
                    self.clauses.setting(cues, start, end)
                    and not self.clauses.before(cues, start, end, ("rate_claim", "measure"))):
                return "setting", "claims.item_rate_setting"
            if self.clauses.measured(cues, start, end, ("measure", "rate_claim")) \
                    or self.clauses.governing_change(cues, start, end) \
                    or any(c.label.startswith("baseline") and c.end <= start and start - c.end <= 8
                           for c in near(cues, start - 8, start)):
                return None
            return None, "claims.measure_cues"   # a count per time nothing says was measured
        if cls == "request_rate":
            if self.clauses.setting(cues, start, end) and not self.clauses.before(cues, start, end, ("rate_claim",)):
                return "setting", "claims.setting_intro"
            if any(c.label == "baseline_value:before" and 0 <= c.start - end <= 30 for c in near(cues, end, end + 30)):
                return None               # "7.3 req/s, up from 6.7 req/s": the result of a comparison
            if self.clauses.measured(cues, start, end, ("measure", "rate_claim")) \
                    or self.clauses.governing_change(cues, start, end):
                return None
            return "setting", "claims.rate_claim_cues"   # "at 4 req/s": the load the run was made at
        if cls == "energy" and not re.search(r"\b(?:token|request)\b", q.unit) \
                and not self.clauses.measured(cues, start, end):
            return "datasheet", "claims.energy_measure_cues"   # "draws 1400W": a datasheet power figure
        if cls in ("memory", "bandwidth", "compute"):
            measured = self.clauses.measured(cues, start, end) or self._stated_statistic(cues, start, end)
            if self._device_spec(cues, start, end) and not measured:
                return "datasheet", "claims.device_spec"   # "an L4 with 24 GB", "a card with 96 GB of HBM"
            if cls == "memory" and self._model_size(cues, start, end):
                return "model_size", "claims.model_size_words"   # "shrinks the model size to 63 GB": the model's
            if measured or self.clauses.governing_change(cues, start, end) \
                    or (cls == "memory" and self._run_state(cues, end)) \
                    or nearest(outside(cues, start, end), start, end, "change:", CHANGE_NEAR) \
                    or self._changed_levels(cues, start, end) or self._named_throughput(cues, end):
                return None
            return None, "claims.measure_cues"   # a size or bandwidth nothing says was measured
        return None

    def _changes_memory(self, cues: list[Cue], start: int) -> bool:
        """The quantity changed "by N" is memory: the nearest metric word before the number in its clause is a
        memory word ("lowers the KV cache size by 3x"; not "improves throughput by 2x, and memory ...")."""
        before = [c for c in near(cues, start - NEAR, start) if c.label.startswith("metric:") and c.end <= start
                  and start - c.end <= NEAR
                  and self.clauses.same_clause(cues, c.end, start)]
        return bool(before) and max(before, key=lambda c: (c.end, c.end - c.start)).label == "metric:memory"

    def _verb_on_memory(self, q: QuantityRecord, cues: list[Cue], end: int) -> bool:
        """A ratio verb whose object is memory ("halves the memory", "quarters the KV cache size"): the metric
        word is the first cue after it, a few characters on, in its clause."""
        if not q.quote.strip(" ~*_").isalpha() or not any(
                c.label.startswith("change:") and c.start <= q.span[0] < c.end for c in near(cues, q.span[0], q.span[0])):
            return False                  # "2x the memory of the older card", "double the batch": no verb of change
        after = [c for c in near(cues, end, end + 24) if c.label.startswith("metric:") and 0 <= c.start - end <= 24
                 and self.clauses.same_clause(cues, end, c.start)]
        if not after:
            return False
        cue = min(after, key=lambda c: (c.start, -c.end))
        return cue.label == "metric:memory" and not any(
            c.label in ("join", "stop", "break") and end <= c.start and c.end <= cue.start for c in near(cues, end, cue.start))

    def _model_size(self, cues: list[Cue], start: int, end: int) -> bool:
        """A word naming the size of a model's weights right after the figure, or before it in its clause with
        no measurement word in between ("after loading the weights, it shows 34 GB free" is measured) and no
        change word unless the figure is the level reached ("FP4 weights save 22 GB" is a saving; "the
        checkpoint shrinks to 63 GB" is the model's size)."""
        if any(c.label == "model_size" and 0 <= c.start - end <= 2 for c in near(cues, end, end + 2)):
            return True
        word = self.clauses.before(cues, start, end, ("model_size",), MODEL_SIZE_NEAR)
        if word is None or any(c.label in ("join", "break") and word.end <= c.start and c.end <= start
                               for c in near(cues, word.end, start)):
            return False                  # "weights and cache live in a single 64 GB pool": another subject
        level = any(c.label == "level_intro" and 0 <= start - c.end <= 2
                    for c in near(cues, start - 2, start))   # "drops to 63 GB"
        return not any((c.label == "measure" or (c.label.startswith("change") and not level))
                       and word.end <= c.start and c.end <= start for c in near(cues, word.end, start))

    @staticmethod
    def _overhead(cue: Cue, cues: list[Cue], end: int, header_cues: Sequence[Cue] = ()) -> bool:
        """The metric word `cue` is an overhead word ("overhead", a cost against a reference) and no share
        phrase follows the number ("the overhead is 4% of total run time" is a share); `cues` and
        `header_cues` are read as one list."""
        return any(c.label == "overhead" and (c.start, c.end) == (cue.start, cue.end)
                   for group in (near(cues, cue.start, cue.end), header_cues) for c in group) \
            and not any(c.label == "share_of" and 0 <= c.start - end <= ADJACENT
                        for group in (near(cues, end, end + ADJACENT), header_cues) for c in group)

    def _stated_statistic(self, cues: list[Cue], start: int, end: int) -> bool:
        """A percentile, median or mean of the figure stated right by it ("250 GB/s P99", "a median of 40 GB",
        "the peak was 178 GB"): a statistic of measurements, so a measured figure. Not across a clause break
        ("a laptop chip, 36 GB unified memory" names a chip)."""
        for c in near(cues, start - NEAR // 2, end + ADJACENT + 2):
            if not c.label.startswith("stat:") or inside(c, start, end):
                continue
            close = c.end <= start and start - c.end <= (ADJACENT + 4 if c.label == "stat:max" else NEAR // 2) \
                and not any(b.label == "break" and c.end <= b.start and b.end <= start for b in near(cues, c.end, start))
            if close or (c.label != "stat:max" and c.start >= end and c.start - end <= ADJACENT + 2):
                return True
        return False

    def _changed_levels(self, cues: list[Cue], start: int, end: int) -> bool:
        """One end of "from A to B" after a change word in its clause ("grows roughly 40%, 12 GB to 17
        GB"): a level of a measured change; a span of settings has none ("page sizes of 8KB up to 4MB")."""
        return self.clauses.from_to(cues, start, end) \
            and self.clauses.before(cues, start, end, ("change:",), NEAR * 2) is not None

    @staticmethod
    def _named_throughput(cues: list[Cue], end: int) -> bool:
        """A throughput word shortly after a bandwidth ("3.1 TB/s of combined read throughput"): a result."""
        return any(c.label == "rate_claim" and 0 <= c.start - end <= 20 for c in near(cues, end, end + 20))

    @staticmethod
    def _run_state(cues: list[Cue], end: int) -> bool:
        """A word of a model's run-time state right after a size ("9.62 GiB KV cache", "3 GB of activations")."""
        return any(c.label == "state_after" and 0 <= c.start - end <= 2 for c in near(cues, end, end + 2))

    @staticmethod
    def _device_spec(cues: list[Cue], start: int, end: int) -> bool:
        """A datasheet cue right before or right after the figure, and no change word nor a word of a model's
        run-time state (a KV cache) right after it."""
        if any(c.label.startswith("change") and 0 <= c.start - end <= 1 for c in near(cues, end, end + 1)) \
                or MetricChooser._run_state(cues, end):   # a blank at most
            return False                  # "with 24 GB less memory", "keeps 3.2 GiB KV cache per sequence"
        return any((c.label == "spec:before" and 0 <= start - c.end <= 2)
                   or (c.label == "spec:after" and 0 <= c.start - end <= 2) for c in near(cues, start - 2, end + 2))

    def _relative(self, q, cls, cues, start, end, header_cues) -> str | None:
        if cls == "percent" and any(c.label == "sla_share" and 0 <= c.start - end <= 3 for c in near(cues, end, end + 3)):
            return "other"                # "28% of requests missed the SLA", "100% SLO attainment"
        if nearest(_not_claim(cues), start, end, "not_claim", 25):
            return None                   # a setting's share ("90% of GPU memory"); media words turn down times only
        if not header_cues and self.clauses.before(cues, start, end, ("adoption",), NEAR):
            return None                   # "contributors went from 300 to 750 (2.5x)": growth of a project
        allowed = self.allowed.get(cls, [])
        specific = [m for m in allowed if m not in ("speedup", "relative_change")]
        if not header_cues and self.clauses.amount_of_change(cues, start, end):
            if cls == "ratio" and "memory" in allowed and self._changes_memory(cues, start):
                return "memory"           # "decreases the memory footprint by 4x": a ratio of memory
            return change_metric_of(cls)  # "improves TPOT on four GPUs by 8.7%", "outperforms X by 30% on Y"
        if cls == "ratio" and not header_cues and "memory" in allowed and self._verb_on_memory(q, cues, end):
            return "memory"               # "halves the memory", "quarters the KV cache": a ratio of memory
        if cls == "percent" and self.clauses.level_share(cues, start, end):
            # "reduced to 61% of the BF16 cost": a level relative to a reference, a ratio written in percent;
            # "97% of BF16 accuracy", "33% of the execution time" keep their own metric
            cue = self.clauses.metric_cue(cues, start, end, specific, 25)
            if cue and cue.label[7:] in ("accuracy", "other"):
                return cue.label[7:]
            # "achieves 68.5% of the optimal throughput": a measured level, an efficiency
            measured = any(c.label == "level_measured" and 0 <= start - c.end <= ADJACENT
                           for c in near(cues, start - ADJACENT, start))
            return "other" if measured else "speedup"
        if cls == "percent" and not header_cues and q.value_max is None and self.clauses.level_pair(cues, start, end):
            # "accuracy slid from 81% at 20 options to 15% at 200": the two levels, not two changes
            cue = self.clauses.metric_cue(cues, start, end, specific, NEAR)
            return cue.label[7:] if cue else "other"
        if cls == "percent" and not header_cues and self.clauses.level_after_change(cues, start, end):
            # "declines gradually to ~46%", "rose to 92.2%": the level a quantity reached, not the change
            cue = self.clauses.metric_cue(cues, start, end, specific, NEAR)
            return cue.label[7:] if cue else "other"
        change = self.clauses.any_change(cues, start, end, header_cues, NEAR if cls == "percent" else NEAR * 2)
        signed = SIGNED.search(q.quote) is not None
        change_metric = "relative_change" if cls == "percent" else "speedup"
        if signed and cls == "percent":
            return change_metric          # "+28% throughput", "-12%": a change, whatever metric is near
        spelled = not re.search(r"\d", q.quote)
        # a metric word after the number that names a setting of the run ("4.5% at a 0 hit rate") is not
        # what the number measures
        named = dropping(cues, lambda c: c.label.startswith("metric:") and c.start >= end
                         and self.clauses.between(cues, end, c.start, ("setting",), False))
        cue = self.clauses.metric_cue(named, start, end, specific, 25)
        if cue and change and change.start <= cue.start and cue.end <= change.end:
            return change_metric          # "a 0.5% accuracy loss": the change phrase holds the metric it changes
        if cls == "percent" and cue and change and cue.start >= end and 0 <= change.start - cue.end <= ADJACENT \
                and gap(cue, start, end) <= ADJACENT * 4 \
                and not self.clauses.between(cues, cue.end, change.start, ("break", "join"), False):
            return change_metric          # "a 30% memory reduction", "62% checkpoint size reduction": a change of it
        if cue and change and cue.label == "metric:accuracy" and cue.start >= end and 0 <= start - change.end <= 1:
            return change_metric          # "loses 0.7% accuracy", "gains 2% accuracy": the amount of the change
        if cue and (not change or gap(cue, start, end) <= gap(change, start, end)
                    # "a WER of 7.35%; that is close to what the authors report": a level its metric names
                    or (change.label.startswith("change:neutral") and change.start >= end and cue.end <= start)):
            metric = cue.label[7:]
            if cls == "percent" and metric == "other" and self._overhead(cue, cues, end):
                return "relative_change"   # "the overhead ranges from 15% to 55%": the cost against a reference
            if cls == "ratio" and metric not in ("memory", "other"):
                return change_metric if change else None
            if cls == "ratio" and metric == "memory" and not change:
                return None               # "8x or 16x accelerators for the memory": a count, not a change
            if metric == "other" and cls == "percent" and (not change or gap(cue, start, end) <= ADJACENT) \
                    and not header_cues and self.clauses.setting(cues, start, end) and not self.clauses.before(cues, start, end, ("measure",)):
                return None               # "at a 70% hit rate": the setting of a run ("with 16x fewer GPUs" is a result)
            return metric
        if change or signed:
            return change_metric
        if spelled and cls == "ratio" and not header_cues:
            # "five times" is a ratio only with a change word or the metric it multiplies right after it
            # ("three times the output"), not a repetition ("runs it five times")
            after = self.clauses.after(cues, start, end, ("metric:", "tokens:"), 20)
            return change_metric if after else None
        cue = self.clauses.metric_cue(cues, start, end, allowed, NEAR) or self.clauses.metric_cue(header_cues, 0, 0, allowed,
                                                                                   10**9)
        if cue:
            metric = cue.label[7:]
            if cls == "percent" and metric == "other" and self._overhead(cue, cues, end, header_cues):
                return "relative_change"   # a table's "Overhead" column against its "Native" one
            if metric == "memory" and cls == "ratio":
                other = nearest(cues, start, end, "metric:", 30)
                if other is not None and gap(other, start, end) < gap(cue, start, end) and not header_cues:
                    return "speedup"      # "1.39x the throughput of X, while using 30% of the HBM"
                return None               # "8x or 16x accelerators for the memory": a count, not a change
            return metric if metric in specific else None
        if cls == "ratio":
            # "2.7x" next to any performance metric word, or measured ("we measured roughly 3x"), is a speed-up
            any_metric = nearest(cues, start, end, "metric:", 30) or (header_cues and nearest(header_cues, 0, 0,
                                                                                              "metric:", 10**9))
            measured = not header_cues and self.clauses.before(cues, start, end, ("measure",), 30)
            return "speedup" if any_metric or measured else None
        return None
