"""How the policy reads a value against the other rungs of a claim: one mention per distinct value of a rung
(`most_specific`), a name a broader rung writes out more fully (`refined`), a device a broader rung counts
(`counted`)."""
from __future__ import annotations

import re

from extractor.conditions._internals.rung_summaries import distinct_values, of_condition
from extractor.conditions.decisions import Level, name_key, norm
from extractor.conditions.located import Located
from extractor.conditions.mentions import Mention


def _key(m: Mention) -> str:
    if isinstance(m.value, dict):
        return repr(sorted(m.value.items()))
    return name_key(m)


def named_id(quote: str) -> bool:
    """A repository id whose name is words alone, no size or version ("org/Vid-Gen", "org/Vid-Gen-Edit"): exact (not
    a family, scopes.yaml `partial_values`), so a longer id is another checkpoint, not this one written out more
    fully. An id with a size or version ("org/Coder-2b", "org/Coder-2b-instruct") keeps the fuller-form reading."""
    return "/" in quote and not any(ch.isdigit() for ch in quote)


def most_specific(cands: list[Located], memo: dict[tuple, list[Mention]], layout: bool = False) -> list[Mention]:
    """One mention per distinct value; a value contained in a longer one of the same kind is dropped
    ("Mistral" inside "Mistral-Small-24B"). A layout (`layout`) compares its canonical parts: "TP8" is
    inside "TP8EP2" but "TP1" is not inside "TP16", and of one layout written two ways the shorter form
    is kept ("TP8" over "--tensor-parallel-size 8"). Memoised per document (`memo`,
    _internals/rung_summaries.py `distinct_values`)."""
    return distinct_values(cands, layout, memo, _fold_values, _distinct)


def _fold_values(by_key: dict[str, Mention], cands: list[Located], layout: bool) -> dict[str, Mention]:
    """`by_key` with the candidates' values added in order: one mention per value (the counted one, else
    the longest quote; of a layout, the shortest); a device the post counts two ways for two models is two
    values."""
    for x in cands:
        m = x.m
        k = " ".join(sorted(_key(m).split())) if layout else _key(m)
        if m.count and not layout and x.for_model is not None:
            k += f" x{m.count}"   # one device at two counts, each paired with its model ("A (1x L40S), B (4x L40S)")
        shorter = layout and any(c.isdigit() for c in k)   # "TP8" over "--tensor-parallel-size 8"
        if k not in by_key or (m.count and not by_key[k].count) or \
                (len(m.quote) < len(by_key[k].quote) if shorter else len(m.quote) > len(by_key[k].quote)):
            by_key[k] = m
    return by_key


def _distinct(by_key: dict[str, Mention], layout: bool) -> list[Mention]:
    """The values not contained in a longer one of the same kind (a model's repository id named by words alone
    never is, `named_id`: it names one checkpoint), nor a model named by family and size alone that another value
    names with its version ("Llama-70B" beside "Llama2-70B": one model written two ways)."""
    surfaces = {k: norm(str(m.quote)) for k, m in by_key.items()}
    if layout:
        parts = {k: frozenset(k.split()) for k in by_key}
        return [by_key[k] for k in by_key if not any(k2 != k and parts[k] < parts[k2] for k2 in by_key)]
    return [by_key[k] for k, surface in surfaces.items()
            if by_key[k].kind == "model" and named_id(by_key[k].quote)   # exact: "org/A-Img", "org/A-Img-Edit"
            or not any(k2 != k and (k in k2 or surface in s2) and len(k2) >= len(k)
                       for k2, s2 in surfaces.items() if s2 != surface)
            and not any(k2 != k and versioned(by_key[k].canonical, by_key[k2].canonical) for k2 in by_key)]


def refined(m: Mention, scope: str, name: str, levels: list[Level]) -> tuple[Mention, str]:
    """The same name written out more fully in a broader scope ("Mistral Large" in the sentence,
    "Mistral-Large-Instruct-2411" in the setup section; "GB200", "GB200 NVL72"): the fuller one of the most
    specific rung that writes it out, like any value of the ladder (a setup section's "DeepSeek-V3" over the
    introduction's "DeepSeek Chat" API)."""
    if name == "model" and named_id(m.quote):
        return m, scope   # a repository id named by words names one checkpoint: a longer one is another
    base = norm(m.quote)
    short = m.canonical if name == "model" and unversioned(m.canonical) else None
    for level in levels:
        keys, fullest, size = _fuller(level.located, name, base, short)
        if size <= len(base) or fullest is None:
            continue
        if len(keys) > 1 and not any(all(k2 == k or k2 in k for k2 in keys) for k in keys):
            return m, scope   # two different fuller names at one rung ("gemma-2-9b", "gemma-2-27b"): neither
        return fullest, level.scope
    return m, scope


def _fuller(located: list[Located], name: str, base: str, short: str | None) -> tuple[set[str], Mention | None, int]:
    """The mentions of `name` in one rung that write `base` out more fully (or, of a model named by family and
    size alone, `short`, the same model with its version: "Llama-70B", "Llama-3.3-70B-Instruct"): their names,
    and the first of the longest with its length (0: none); of a `SharedRung`, once per rung and name."""
    return of_condition(located, name, False, ("fuller", base, short), lambda xs: _fuller_in(xs, name, base, short),
                        _longer, (set(), None, 0))


def _fuller_in(located: list[Located], name: str, base: str, short: str | None) -> tuple[set[str], Mention | None, int]:
    keys: set[str] = set()
    best, best_len = None, 0
    for x in located:
        if x.name != name:
            continue
        full = norm(x.m.quote)
        if len(full) > len(base) and (full.startswith(base) and not full[len(base)].isalnum()
                                      or short is not None and versioned(short, x.m.canonical)):
            keys.add(name_key(x.m))
            if len(full) > best_len:
                best, best_len = x.m, len(full)
    return keys, best, best_len


_SIZE = re.compile(r"^\d+(?:\.\d+)?[bmt]$|^\d+x\d+b$")
_VERSION = re.compile(r"^v?\d+(?:\.\d+)*$")


def unversioned(canonical: str | None) -> bool:
    """A model's canonical name that is a family and a size alone ("Llama 70B")."""
    words = norm(canonical or "").split()
    return len(words) == 2 and bool(_SIZE.match(words[1]))


def versioned(short: str | None, canonical: str | None) -> bool:
    """`canonical` names the model `short` (a family and a size) with version numbers between them ("Llama 70B",
    "Llama 3.3 70B"): another size, another family or another sub-model is not it."""
    if not unversioned(short):
        return False
    family, size = norm(short or "").split()
    words = norm(canonical or "").split()
    return len(words) > 2 and words[0] == family and words[-1] == size and all(_VERSION.match(w) for w in words[1:-1])


def _longer(first: tuple[set[str], Mention | None, int], then: tuple[set[str], Mention | None, int]
            ) -> tuple[set[str], Mention | None, int]:
    """Two `_fuller` results of consecutive mentions as one: the names of both, the first of the longest."""
    return first[0] | then[0], *(then[1:] if then[2] > first[2] else first[1:])


def counted(m: Mention, scope: str, levels: list[Level]) -> tuple[Mention, str]:
    """A device named without its count ("on the AMD MI300X") whose count a broader scope gives for the
    same device ("8x MI300X" in the setup section, a caption): that mention, from the most specific rung
    that counts it, when the rung gives one count (two counts there: the name stays without one)."""
    if not m.canonical:
        return m, scope
    for level in levels:
        if level.via_cell:
            continue
        first, counts = _counts(level.located, m.canonical)
        if first is not None:
            if len(counts) == 1:
                return first, level.scope
            return m, scope
    return m, scope


def _counts(located: list[Located], canonical: str) -> tuple[Mention | None, frozenset]:
    """The first hardware mention of one rung that counts the device `canonical`, and the counts of all such;
    of a `SharedRung`, once."""
    return of_condition(located, "hardware", True, ("counts", canonical), lambda xs: _counts_in(xs, canonical),
                        first_and_union, (None, frozenset()))


def _counts_in(located: list[Located], canonical: str) -> tuple[Mention | None, frozenset]:
    counted = [x.m for x in located if x.usable and x.name == "hardware" and x.m.count and x.m.canonical == canonical]
    return (counted[0] if counted else None), frozenset(x.count for x in counted)


def first_and_union(first: tuple, then: tuple) -> tuple:
    """Two (first mention or None, set) results of consecutive mentions as one."""
    return (first[0] if first[0] is not None else then[0]), first[1] | then[1]
