"""Identical conditions of one document are one object.

A results table of N rows gives 6N claims of 14 conditions each, and most of them are the same for
every claim (the model and hardware of the section, the unrecoverable ones with their where-notes): a
pydantic `Condition` costs ~1 KB, so a table of 8,000 rows held ~670,000 of them (~700 MB). Conditions
are frozen values (records.py), so a claim may hold the very object another claim holds; the pool
keeps the first of each distinct condition and hands it out again. Sharing changes no output: two
conditions share only when every field (with its type: 1, 1.0 and True stay apart) and the set of
fields given explicitly are the same.
"""
from __future__ import annotations

from typing import Any, Hashable

from extractor.records import Condition

_PLAIN = frozenset({type(None), str, int, bool})   # `frozen` of these is (type, value): built inline by `key`


def frozen(value: Any) -> Hashable:
    """A hashable key that is equal for two values only when they dump alike."""
    if value is None or isinstance(value, (str, int)):
        return type(value), value          # bool is an int: the type keeps True and 1 apart
    if isinstance(value, float):
        return float, repr(value)          # -0.0 == 0.0 and nan != nan: compare as written
    if isinstance(value, dict):
        return dict, tuple((frozen(k), frozen(v)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return type(value), tuple(frozen(v) for v in value)
    return object, id(value)               # anything else: only the same object is the same


class ConditionPool:
    """The conditions of one document: one object per distinct condition."""

    def __init__(self) -> None:
        self._seen: dict[Hashable, Condition] = {}
        # the pool's own objects by id (each held by `_seen`, so an id stays its object's): a condition handed
        # in again (the where-notes give one object per note, held by most claims) is found without its key
        self._own: dict[int, Condition] = {}

    def share(self, conditions: dict[str, Condition]) -> dict[str, Condition]:
        """`conditions` with each one replaced by the pool's identical one (the first seen)."""
        return {name: self.one(cond) for name, cond in conditions.items()}

    def one(self, cond: Condition) -> Condition:
        """The pool's condition identical to `cond` (`cond` itself when it is the first such)."""
        own = self._own.get(id(cond))
        if own is not None:
            return own
        shared = self._seen.setdefault(self.key(cond), cond)
        if shared is cond:
            self._own[id(cond)] = cond
        return shared

    @staticmethod
    def key(cond: Condition) -> Hashable:
        """Every field with its type, and which fields were given explicitly (`exclude_unset` dumps)."""
        # (type, value) inline for the plain fields (most of them): what `frozen` gives, without a call each
        return (tuple((v.__class__, v) if v.__class__ in _PLAIN else frozen(v) for v in cond.__dict__.values()),
                frozenset(cond.model_fields_set))
