"""The registry of the scope ladder's rung readers: each reader is a function registered under the name a rung
of rules/scopes.yaml `ladder` gives as its `reader` (`@rung_reader("table_row")`); the rules are checked against
the registry at load (rules.py `Rung`), and the ladder takes its readers from it (ladder.py)."""
from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

SENTENCE = "sentence"   # the reader (and scope) of the claim's own sentence: the ladder's first rung


class Tiers(list):
    """What a reader returns when its place has nested parts, most specific first (the claim's own section,
    then each section above it): each tier is a rung of its own, so the nearest part that states a
    condition wins over the broader ones."""


# (ladder: LadderReading, site: ClaimSite) -> list[Located] | Tiers | None
RungReader = Callable[[Any, Any], Any]
_READERS: dict[str, RungReader] = {}
# The modules that define rung readers, imported by name when the registry is first read (as a plugin registry
# loads its entry points): the rules' schema asks the registry, and the readers read those rules.
READER_MODULES = ("extractor.conditions.rungs_local", "extractor.conditions.rungs_document",
                  "extractor.conditions.code.rungs")


def rung_reader(name: str) -> Callable[[RungReader], RungReader]:
    """Registers a rung reader under `name` (one reader per name)."""
    def register(read: RungReader) -> RungReader:
        if name in _READERS and _READERS[name] is not read:
            raise ValueError(f"rung reader {name!r} registered twice")
        _READERS[name] = read
        return read
    return register


def rung_readers() -> dict[str, RungReader]:
    """Every registered rung reader by name (the modules that define them are imported here, once)."""
    for module in READER_MODULES:
        importlib.import_module(module)   # (registers its readers)
    return dict(_READERS)
