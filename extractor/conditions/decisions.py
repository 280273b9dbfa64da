"""What the resolution policy decides for one condition of a claim (policy.py), and a claim's rungs as it reads
them (`Scopes`); statement.py and where.py turn a decision into the record's `Condition`."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from extractor.conditions._internals.rung_summaries import by_condition
from extractor.conditions.ladder import Level
from extractor.conditions.located import Located
from extractor.conditions.mentions import Mention
from extractor.conditions.rules import Reason

_NON_NAME = re.compile(r"[^a-z0-9.]+")


@lru_cache(maxsize=8192)
def norm(s: str) -> str:
    """Lower case, runs of other characters than letters, digits and dots made one space. (Not one function
    with canonical.py's `_norm`, which drops those characters: "GPT 4" is inside "GPT4o" there and not here,
    and the fuzzy scores of canonical names are tuned on the dropped form; merging would change output.)"""
    return _NON_NAME.sub(" ", s.lower()).strip()


def name_key(m: Mention) -> str:
    """The normalised name (canonical, else value) of a mention."""
    return norm(m.canonical or str(m.value))


@dataclass(frozen=True, slots=True)
class Pick:
    """One mention states the condition at `scope`."""

    mention: Mention
    scope: str
    note: str | None = None
    uncounted: bool = False   # hardware: the rung counts the device two ways, so its count is not stated


@dataclass(frozen=True, slots=True)
class Parts:
    """A condition stated in parts at one scope (TP8 and EP8): all of them."""

    mentions: list[Mention]
    scope: str


@dataclass(frozen=True, slots=True)
class EngineVersion:
    """The serving engine and its version; `others`: supporting engines run with it, with versions."""

    mention: Mention
    engine: str
    scope: str
    others: list[str] = field(default_factory=list)
    commit: Mention | None = None   # the commit the release was built at, stated with it ("v0.6.2 (commit 1a2b3c4d)")


@dataclass(frozen=True, slots=True)
class ColumnCell:
    """The claim sits in a table and no rung up to its column headers states the condition: a column labelled
    with it may, through the claim row's cell; failing that, `fallback` (what a broader rung states), if any."""

    fallback: "Pick | Parts | Unstated | None" = None


@dataclass(frozen=True, slots=True)
class Unstated:
    """The condition is unrecoverable for `reason`; `values` (ambiguous) and `engine` (no_version) fill
    the why-wording."""

    reason: Reason
    values: str = ""
    engine: str = ""
    scope: str | None = None   # ambiguous: the scope that states the several values
    mentions: tuple[Mention, ...] = ()   # ambiguous: one mention of each of them


Decision = Pick | Parts | EngineVersion | ColumnCell | Unstated


@dataclass(slots=True)
class Scopes:
    """A claim's rungs, most specific first: their mentions, and the usable ones by condition name."""

    levels: list[Level]
    usable: list[tuple[str, dict[str, list[Located]]]] = field(init=False)
    first: dict[str, tuple[str, list[Located]]] = field(init=False)   # condition -> its most specific scope
    in_table: bool = field(init=False)   # the claim sits in a table whose column headers may name a condition
    # conditions first stated on a rung broader than the column headers (a caption, the section): the claim
    # row's cell under a column labelled with the condition is more specific than those
    after_cell: set[str] = field(init=False)
    row_count: int | None = None   # the device count the claim's table row gives in a labelled column ("GPUs | 1")

    def __post_init__(self) -> None:
        self.usable = [(level.scope, by_condition(level.located)) for level in self.levels]
        self.first = {}
        self.after_cell = set()
        cell_seen = False
        for level, (scope, by_name) in zip(self.levels, self.usable):
            cell_seen = cell_seen or level.via_cell
            if not level.via_cell:
                for name, cands in by_name.items():
                    if name not in self.first:
                        self.first[name] = (scope, cands)
                        if cell_seen:
                            self.after_cell.add(name)
        self.in_table = cell_seen
