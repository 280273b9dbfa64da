"""What the policy derives from a rung, once per `SharedRung` when many claims read it: the same function of its
mentions as for a plain list, kept on the rung (and, of a rung joined from parts, derived from its parts').
Each helper takes a rung either way and gives what the plain reading would."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from extractor.conditions._internals.shared_rungs import SharedRung, folded, summary
from extractor.conditions.located import Located
from extractor.conditions.mentions import Mention


def by_condition(located: list[Located]) -> dict[str, list[Located]]:
    """The usable mentions of one rung, grouped by the condition they state (in document order); of a
    `SharedRung`, once per rung (each group a `SharedRung` too)."""
    if isinstance(located, SharedRung):
        return located.grouped("by_condition", usable=True)
    out: dict[str, list[Located]] = {}
    for x in located:
        if x.usable:
            out.setdefault(x.name, []).append(x)
    return out


def of_condition(located: list[Located], name: str, usable: bool, key: Any, leaf: Callable[[list[Located]], Any],
                 merge: Callable[[Any, Any], Any], empty: Any) -> Any:
    """`leaf(located)`, where `leaf` reads only the mentions of condition `name` (only the usable ones when
    `usable`); of a `SharedRung`, from its group of that condition, once per rung and `key` (`merge` gives two
    consecutive parts' results as one), `empty` when it holds none."""
    if not isinstance(located, SharedRung):
        return leaf(located)
    group = located.grouped("by_condition" if usable else "by_name", usable=usable).get(name)
    return summary(group, key, leaf, merge) if group is not None else empty


def tallied(located: list[Located], key: Any, fold: Callable[[Any, list[Located]], Any], start: Callable[[], Any],
            copy: Callable[[Any], Any]) -> Any:
    """`fold(start(), located)`, a value built mention by mention in order; of a `SharedRung`, once per rung (a
    rung joined from parts: its first part's value, copied, folded on with the others' mentions)."""
    if isinstance(located, SharedRung):
        return folded(located, key, fold, start, copy)
    return fold(start(), list(located))


def distinct_values(cands: list[Located], layout: bool, memo: dict[tuple, list[Mention]],
                    fold: Callable[[dict, list[Located], bool], dict], distinct: Callable[[dict, bool], list[Mention]]
                    ) -> list[Mention]:
    """`distinct(fold({}, cands, layout), layout)`, else the first candidate's mention: of a `SharedRung`, kept on
    the rung; of a plain list, in `memo` by the candidates' identity (the claims of a section share its broader
    scopes, and the located mentions live as long as the document's context)."""
    if isinstance(cands, SharedRung):   # read by many claims: kept on the rung, no key of every mention
        if ("specific", layout) not in cands.memo:
            by_key = folded(cands, ("by_key", layout), lambda state, xs: fold(state, xs, layout), dict, dict)
            cands.memo["specific", layout] = distinct(by_key, layout) or [cands.first().m]
        return cands.memo["specific", layout]
    key = (layout, *map(id, cands))
    if key not in memo:
        memo[key] = distinct(fold({}, cands, layout), layout) or [cands[0].m]
    return memo[key]


def summed(located: list[Located], key: Any, leaf: Callable[[list[Located]], Any], merge: Callable[[Any, Any], Any]
           ) -> Any:
    """`leaf(located)`; of a `SharedRung`, once per rung and `key` (`merge` gives two consecutive parts' results as
    one, so a rung that extends another costs what it adds)."""
    if isinstance(located, SharedRung):
        return summary(located, key, leaf, merge)
    return leaf(list(located))
