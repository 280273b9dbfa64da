"""The names that belong to the baseline of a comparison, not to the claim: right after a baseline cue
("than the H100", "compared with vLLM", "outperforms SGLang", "introduced in v0.6"), the short form in
parentheses right after such a name ("than Text Generation Inference (TGI)"), and a name of the same kind
joined to one by a conjunction ("compared with vLLM and TensorRT-LLM")."""
from __future__ import annotations

import re

from extractor.conditions.mentions import Mention
from extractor.conditions.rules import BaselineTail

BASELINE_KINDS = frozenset({"model", "hardware", "engine", "precision"})
_SHORT_FORM_GAP = re.compile(r"\s*\(\s*$")   # between a name and its short form in parentheses
# between two names joined by a conjunction ("vLLM and SGLang", "the H100 or the A100"); not after a comma,
# which often opens a clause of its own ("faster than the H100, and the B200 ...")
_JOINED_GAP = re.compile(r"\s+(?:and|or|&)\s+(?:the\s+|an?\s+)?$")
_GAP_REACH = 12   # characters looked back for either gap


def after_baseline_cue(view: str, m: Mention, tail: BaselineTail) -> bool:
    """A name right after "than / vs / compared with" belongs to the baseline."""
    return m.kind in BASELINE_KINDS and tail.before(view, m.span[0])


def baselines(view: str, found: list[Mention], tail: BaselineTail) -> set[tuple[str, tuple[int, int]]]:
    """(kind, span) of the mentions that name a baseline (see the module docstring)."""
    out = {(m.kind, m.span) for m in found if after_baseline_cue(view, m, tail)}
    ends = {(kind, span[1]) for kind, span in out}
    for m in sorted(found, key=lambda x: x.span):
        if m.kind in BASELINE_KINDS and (m.kind, m.span) not in out:
            lo = max(0, m.span[0] - _GAP_REACH)
            gap = _SHORT_FORM_GAP.search(view, lo, m.span[0]) or _JOINED_GAP.search(view, lo, m.span[0])
            if gap and (m.kind, gap.start()) in ends:
                out.add((m.kind, m.span))
                ends.add((m.kind, m.span[1]))
    return out


def comparison_sides(view: str, found: list[Mention], versus: re.Pattern[str], between_gap: re.Pattern[str],
                     between: re.Pattern[str]) -> tuple[set[tuple[str, tuple[int, int]]], set[tuple[str, tuple[int, int]]]]:
    """(kind, span) of the names that are one side of a comparison: the name right before "vs" / "versus" a name
    of its kind ("Model-A versus Model-B"; in prose usually the system presented, in a figure's caption one of the
    two the figure shows), and both names of "between A and B", whose sides the words do not rank (rules/scopes.yaml
    `versus_gap`, `between_gap`, `between_sides`): (versus sides, between sides)."""
    out, first = set(), set()
    named = sorted((m for m in found if m.kind in BASELINE_KINDS), key=lambda x: x.span)
    last: dict[str, Mention] = {}
    for m in named:
        a = last.get(m.kind)
        last[m.kind] = m
        if a is None or a.span[1] > m.span[0] or \
                (a.canonical or a.value, a.version) == (m.canonical or m.value, m.version):
            continue
        if versus.fullmatch(view, a.span[1], m.span[0]):
            first.add((a.kind, a.span))
        elif between_gap.fullmatch(view, a.span[1], m.span[0]) and \
                between.search(view, max(0, a.span[0] - 24), a.span[0]):
            out |= {(a.kind, a.span), (m.kind, m.span)}
    return first, out
