"""The direction of a comparison: whether a speedup or relative change reports an improvement (`better`),
a regression or cost (`worse`), or only that two figures are close (`neutral`).

The order of the rules (their words live in `rules/claims.yaml`):
1. a valence word governing the number says it by itself ("1.3x slowdown", "8% better TTFT");
2. an up or down change word meets the polarity of the quantity it changes ("higher TTFT" is worse,
   "lower TTFT" better, "a throughput reduction" worse);
3. without a change word, a level written as a share of the reference ("at 71% of the BF16 slope",
   "0.6x the latency") or an amount of a lower-is-better quantity ("a 10% overhead").
Anything the rules leave open is `better`: a post presents its own system's gains.
"""
from __future__ import annotations

from typing import Literal, Sequence

from extractor.claims.cues import ADJACENT, ClauseCues, Cue, dropping, inside, near, outside
from extractor.claims.rules import ClaimRules

Direction = Literal["better", "worse", "neutral"]
VALENCE_NEAR = 40     # characters: how far before the number a valence word may govern it
POLARITY_NEAR = 60    # ...and how far the quantity being changed may sit
NEUTRAL_LABELS = frozenset({"valence:neutral", "valence:neutral_before", "change:neutral", "change:neutral_before"})


class DirectionReader:
    """Reads the direction of a comparison claim from the cues around it."""

    def __init__(self, clauses: ClauseCues, rules: ClaimRules):
        self.clauses = clauses
        self.lower_metrics = {f"metric:{m}" for m in rules.lower_is_better_metrics}

    def _governing(self, cues: Sequence["Cue"], start: int, end: int, prefix: str, limit: int) -> "Cue | None":
        """A cue with `prefix` right after the number, else the nearest before it in its clause."""
        own = outside(cues, start, end)
        return (self.clauses.after(own, start, end, (prefix,))
                or self.clauses.before(own, start, end, (prefix,), limit))

    def polarity(self, cues: Sequence["Cue"], start: int, end: int, header_cues: Sequence["Cue"] = (),
                 change: "Cue | None" = None) -> int:
        """+1 when more of the quantity near the number is better, -1 when less is, 0 when unknown. The
        quantity is the nearest polarity word or metric cue in the number's clause (a polarity word wins a
        tie; a metric word that is the change word itself, "costs 8%", does not count; of two cues written
        together, "end-to-end throughput", the last names the quantity); in a table, the headers'. A change word
        right after the number that names its quantity ("4.3x lower latency") decides over a nearer cue of
        another figure of a list ("2.2x the throughput, 3.1x less latency")."""
        named = self._changed_quantity(cues, end, change)
        if named:
            return named
        best, best_key = 0, None
        for group in (cues, header_cues):
            for c in (near(cues, start - POLARITY_NEAR, end + POLARITY_NEAR) if group is cues else group):
                if change is not None and c.start < change.end and change.start < c.end:
                    continue
                if any(d is not c and 0 <= d.start - c.end <= 1 and d.label.startswith(("metric:", "polarity:"))
                       and d.label not in ("metric:other",) for d in near(group, c.end, c.end + 1)):
                    continue          # a modifier: "E2E" in "E2E throughput", "prefill" in "prefill latency"
                if c.label.startswith("polarity:"):
                    sign, rank = (1 if c.label == "polarity:higher" else -1), 0
                elif c.label.startswith("metric:") and c.label not in ("metric:speedup", "metric:relative_change",
                                                                        "metric:other"):
                    sign, rank = (-1 if c.label in self.lower_metrics else 1), 1
                else:
                    continue
                if group is cues:
                    g = max(0, c.start - end, start - c.end)
                    a, b = (c.end, start) if c.end <= start else (end, c.start)
                    if g > POLARITY_NEAR or (a < b and self.clauses.between(cues, a, b, ("break", "join"))):
                        continue
                    key = (0, g, rank, -(c.end - c.start))
                else:
                    key = (1, 0, rank, -(c.end - c.start))
                if best_key is None or key < best_key:
                    best, best_key = sign, key
            if best_key is not None:
                break
        return best

    def _changed_quantity(self, cues: Sequence["Cue"], end: int, change: "Cue | None") -> int:
        """+1 / -1 for the quantity a change word right after the number modifies ("4.3x lower latency"),
        0 when the number is not followed by a change word and its quantity."""
        if change is None or not 0 <= change.start - end <= ADJACENT:
            return 0
        for c in sorted(near(cues, change.end, change.end + ADJACENT), key=lambda c: c.start):
            if c.start < change.end or c.start - change.end > ADJACENT:
                continue
            if self.clauses.between(cues, change.end, c.start, ("break", "join"), skip_label_colon=False):
                return 0                  # "3x lower, throughput 2x higher": the next clause's quantity
            if c.label.startswith("polarity:"):
                return 1 if c.label == "polarity:higher" else -1
            if c.label.startswith("metric:") and c.label not in ("metric:speedup", "metric:relative_change",
                                                                  "metric:other"):
                last = max((d for d in near(cues, c.start, c.end + 1)
                            if d.start >= c.start and d.label.startswith(("metric:", "polarity:"))
                            and d.start - c.end <= 1 and d.label not in ("metric:other",)),
                           key=lambda d: d.start, default=c)     # "lower end-to-end latency": the last word
                if last.label.startswith("polarity:"):
                    return 1 if last.label == "polarity:higher" else -1
                return -1 if last.label in self.lower_metrics else 1
        return 0

    def read(self, cls: str, value: float, cues: Sequence["Cue"], start: int, end: int,
             header_cues: Sequence["Cue"] = (), sign: int = 0) -> Direction:
        """The direction of a comparison figure of unit class `cls` (`ratio` or `percent`); `sign` is +1 or
        -1 when the number is written with a sign ("+12%", "-8%"), which then acts as a change word."""
        cues = dropping(cues, lambda c: c.label == "valence:neutral_before" and c.start >= end)
        far = 10**6 if any(c.label == "by" and 0 <= start - c.end <= ADJACENT
                           for c in near(cues, start - ADJACENT, start)) else VALENCE_NEAR
        # a header that names its column a difference ("Difference", "Delta vs baseline") holds signed changes:
        # their sign says up or down, as a change word would; it does not say the two runs are close
        header_cues = [c for c in header_cues if not (sign and c.label in NEUTRAL_LABELS)]
        valence = self._governing(cues, start, end, "valence:", far)
        if valence is not None and valence.start >= end and self.clauses.between(cues, end, valence.start, ("baseline",),
                                                                                    False):
            valence = None        # "45% cheaper than similar boxes": a word of the baseline's name
        if valence is not None and valence.end <= start and valence.label.startswith("valence:neutral") and any(
                c.label == "pair_from" and 0 <= valence.start - c.end <= ADJACENT
                for c in near(cues, valence.start - ADJACENT, valence.start)):
            valence = None        # "rises from parity at 1 tenant to 1.7x": the level it started from
        valence = valence or next((c for c in header_cues if c.label.startswith("valence:")), None)
        if valence is not None:
            if valence.label == "valence:better" and cls == "ratio" and 0 < value < 1 and not inside(valence, start, end) \
                    and (valence in header_cues or valence.start >= end):
                return "worse"    # "0.89x" in a "Speedup" column, "a 0.8x speedup": a slowdown
            return "neutral" if valence.label == "valence:neutral_before" else valence.label.split(":", 1)[1]
        change = self.clauses.any_change(cues, start, end, header_cues)
        pol = self.polarity(cues, start, end, header_cues, change)
        if change is not None or sign:
            if change is not None and change.label in ("change:neutral", "change:neutral_before"):
                return "neutral"
            if not pol and change is not None and not sign and not inside(change, start, end):
                # "the extra cost is higher still, somewhere between 7% and 39%": the quantity of the change word's clause
                pol = self.polarity(cues, change.start, change.end, (), change)
            up = sign > 0 if sign else change.label == "change:up"
            return "worse" if pol and up != (pol > 0) else "better"
        share = any(c.label == "share_of" and c.start >= end and c.start - end <= ADJACENT
                    for c in near(cues, end, end + ADJACENT))
        level = (cls == "ratio" and value < 1) or (cls == "percent" and share and value < 100)
        if level:
            return "better" if pol < 0 else ("worse" if pol > 0 else "better")
        if cls == "percent" and share:
            return "worse" if pol < 0 else "better"
        return "worse" if pol < 0 else "better"
