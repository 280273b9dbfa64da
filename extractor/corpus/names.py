"""The names a corpus query may use, and "did you mean" when one is unknown.

Metrics may be written as any of their cue phrases in the claim rules (TTFT,
time_to_first_token, time-to-first-token all name `ttft`); conditions, statuses, columns and sort
fields must be written exactly, and an unknown one is an error naming the closest choices.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterable, get_args

from extractor.records import CONDITIONS, Metric

CONDITION_NAMES: tuple[str, ...] = CONDITIONS
STATUSES: tuple[str, ...] = ("stated", "unrecoverable")
METRICS: tuple[str, ...] = get_args(Metric)


class QueryError(ValueError):
    """A query cannot be run as asked (unknown name or unit, malformed filter, mixed units)."""


def suggestions(word: str, choices: Iterable[str], limit: int = 3) -> list[str]:
    """The choices closest to `word` (rapidfuzz WRatio, best first)."""
    from rapidfuzz import fuzz, process, utils

    found = process.extract(word, list(choices), scorer=fuzz.WRatio, processor=utils.default_process,
                            limit=limit, score_cutoff=60)
    best = found[0][1] if found else 0
    return [name for name, score, _ in found if score >= best - 5]   # the close ones, not every partial match


def unknown(kind: str, word: str, choices: Iterable[str]) -> QueryError:
    """The error for an unknown name: the closest choices first, then every choice."""
    choices = list(choices)
    close = suggestions(word, choices)
    hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    return QueryError(f"unknown {kind} {word!r}{hint} (choices: {', '.join(choices)})")


def check_name(word: str, choices: Iterable[str], kind: str) -> str:
    """`word` when it is one of `choices`, else a QueryError with suggestions."""
    choices = tuple(choices)
    if word in choices:
        return word
    raise unknown(kind, word, choices)


def _key(phrase: str) -> str:
    return re.sub(r"[\s_\-]+", " ", phrase.strip().lower())


@lru_cache(maxsize=1)
def metric_aliases() -> dict[str, str]:
    """Every way of writing a metric (its name and its unambiguous cue phrases) -> the metric."""
    from extractor.claims.rules import load_claim_rules
    from extractor.rules_io import default_rules_dir

    owners: dict[str, set[str]] = {}
    for metric, cues in load_claim_rules(default_rules_dir()).metric_cues.items():
        for cue in cues:
            owners.setdefault(_key(cue), set()).add(metric)
    aliases = {k: next(iter(v)) for k, v in owners.items() if len(v) == 1}
    aliases.update({_key(m): m for m in METRICS})
    return aliases


def resolve_metric(word: str) -> str:
    """The metric `word` names (case, `_`, `-` and spaces do not matter); QueryError when none."""
    found = metric_aliases().get(_key(word))
    if found:
        return found
    raise unknown("metric", word, METRICS)
