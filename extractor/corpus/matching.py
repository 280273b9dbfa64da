"""How a query's name filters (`--model`, `--hardware`, `--engine`) pick the names stored in the database.

A filter term is matched **exactly** against the canonical names the batch stored (case, spaces and
punctuation do not matter; the term may be any spelling the gazetteers know, `h100` for `NVIDIA H100`),
or as a **substring** when it starts with `~` (`~h20` matches `NVIDIA H200` too). Several terms of one
field are alternatives (OR); the fields combine with AND.

    names_matching("hardware", ["h100", "~mi3"], ["NVIDIA H100", "NVIDIA H200", "AMD MI300X"])
    -> ['NVIDIA H100', 'AMD MI300X']
"""
from __future__ import annotations

import re
from typing import Iterable

SUBSTRING = "~"
# the gazetteer kind of each claim column that holds a canonical name
KINDS = {"model": "model", "hardware": "hardware", "engine": "engine"}


def _norm(s: str) -> str:
    return re.sub(r"[^a-z0-9.]+", "", s.lower())


def _spellings(kind: str, term: str) -> set[str]:
    """The normalised forms a term stands for: itself and its canonical name under the gazetteers."""
    from extractor.conditions.mentions import canonical

    forms = {_norm(term)}
    for variant in (term, term.upper(), term.title()):
        found = canonical(kind, variant)
        if found:
            forms.add(_norm(found))
    return forms


def _without_maker(name: str) -> str | None:
    """`NVIDIA H100` -> `H100`: a hardware or engine name without its maker's word (letters only)."""
    first, _, rest = name.partition(" ")
    return rest if rest and first.isalpha() and any(ch.isdigit() for ch in rest) else None


def term_matches(kind: str, term: str, name: str, forms: set[str] | None = None) -> bool:
    """True when the stored `name` answers the filter `term` (see the module docstring)."""
    if term.startswith(SUBSTRING):
        return term[1:].strip().lower() in name.lower()
    forms = forms if forms is not None else _spellings(kind, term)
    if _norm(name) in forms:
        return True
    short = _without_maker(name) if kind in ("hardware", "engine") else None
    return short is not None and _norm(short) in forms


def names_matching(kind: str, terms: Iterable[str], names: Iterable[str]) -> list[str]:
    """The stored names (in their order) that answer at least one of the terms."""
    terms = [t.strip() for t in terms if t.strip()]
    forms = {t: _spellings(kind, t) for t in terms if not t.startswith(SUBSTRING)}
    return [n for n in names if any(term_matches(kind, t, n, forms.get(t)) for t in terms)]
