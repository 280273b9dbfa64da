"""A headline figure the post states again in its body was measured under the conditions stated there; a figure
the prose gives rounded from a result a program printed in its section was measured by that program's run."""
from __future__ import annotations

import math
import re
from bisect import bisect_left, bisect_right

from extractor.claims.headlines import FigureIndex
from extractor.conditions.code.choice import RUN_SCOPES
from extractor.conditions.policy import SETTLED_BY_CODE
from extractor.conditions.scan import covering
from extractor.conditions.ties import same_model
from extractor.records import Claim, Condition


MAX_RESTATEMENTS = 64   # a figure the post gives more often than this is not "stated again" but common
_RUN_SCOPES = frozenset(RUN_SCOPES) | {"program_output"}   # what a run's code or output states


def fill_from_restatements(claims: list[Claim], ambiguous: list[set[str]]) -> None:
    """Fill each headline's unstated conditions from the one restatement of the same figure.
    `ambiguous[i]`: the conditions of `claims[i]` the post states with several values; they stay so."""
    figures = FigureIndex(claims)   # built once: each headline's restatements by bisection, not a scan
    n_stated = {id(o): _stated(o) for o in claims}   # kept current as claims are filled below
    for c, unclear in zip(claims, ambiguous):
        if not c.headline or not c.conditions:
            continue
        same = figures.same(c, limit=MAX_RESTATEMENTS)
        if same is None:
            continue
        own = n_stated[id(c)]
        # (another headline filled from a restatement is a copy of its source, which `same` holds too: the summary's
        # and the introduction's "up to 24x" both take the body's "24x", not a tie between the body and a copy)
        twins = [o for o in same if n_stated[id(o)] > own and not (o.headline and _filled(o))]
        if not twins:
            continue
        if not distinctive(c.value, c.value_max):
            # a common round figure (2x, 60%) is taken as the same measurement only from the one
            # restatement that states clearly more than any other
            rank = sorted(((n_stated[id(o)], i) for i, o in enumerate(twins)), reverse=True)
            if len(rank) > 1 and rank[0][0] - rank[1][0] < 2:
                continue
            twins = [twins[rank[0][1]]]
        for name, cond in c.conditions.items():
            if cond.status == "stated" or name in unclear:
                continue
            stated = [t.conditions[name] for t in twins if t.conditions.get(name)
                      and t.conditions[name].status == "stated"]
            values = {repr(s.value) for s in stated}
            if len(values) == 1 and len(stated) == sum(1 for t in twins if t.conditions.get(name)):
                src = stated[0]
                twin = next(t for t in twins if t.conditions.get(name) is src)
                c.conditions[name] = src.model_copy(update={
                    "scope": "restatement",
                    "note": "; ".join(x for x in (src.note, f"stated where the post gives this figure again "
                                                             f"({twin.quote!r})") if x)})
        n_stated[id(c)] = _stated(c)


# where a result's own description is read: its sentence or paragraph, its table, the caption of its figure
_OWN_PLACES = frozenset({"sentence", "paragraph", "table_row", "table_column", "table_caption", "footnote",
                         "figure_caption"})


# ... and for a range, the section that reports it: the run's set-up there (a caption or sentence of its section)
# holds for the whole range (only `range_top_conditions` are taken)
_RANGE_PLACES = _OWN_PLACES | {"section"}


def fill_from_range_ends(claims: list[Claim], ambiguous: list[set[str]], names: list[str]) -> None:
    """Fill the unstated conditions of an "up to X" headline from the results the post gives as ranges ending at X
    ("up to 2.1x for Model-A" in the summary; "1.6x-2.1x for Model-A" in the body): a bound over runs restates the
    best of them. Only when the headline's own sentence names its model and every such range (not itself a
    headline) is of that model (one written more fully: `ties.same_model`), the range is specific (`distinctive`:
    "1.62x-2.14x", not "1x-2x"), and all of them state the condition with one value, read at their own place or in
    the section that reports them (`_RANGE_PLACES`: not a setup section or the post, whose setting may be another
    run's; the headline has its own rungs for those). Only `names` (scopes.yaml `range_top_conditions`: what holds
    for the whole range, not its load).
    `ambiguous[i]`: the conditions of `claims[i]` stated with several values; they stay so."""
    ranges: dict[tuple, list[tuple[Claim, set[str]]]] = {}
    for c, unclear in zip(claims, ambiguous):
        if c.value_max is not None and c.conditions and distinctive(c.value, c.value_max):
            ranges.setdefault((c.metric, c.unit), []).append((c, unclear))
    if not ranges:
        return
    for c, unclear in zip(claims, ambiguous):
        if not (c.headline and c.qualifier == "up_to" and c.value_max is None and c.conditions):
            continue
        model = c.conditions.get("model")
        if model is None or model.status != "stated" or model.scope != "sentence":
            continue   # (the headline's own sentence names the model the ranges are of)
        ends = [(o, u) for o, u in ranges.get((c.metric, c.unit), ()) if o is not c and not o.headline
                and math.isclose(o.value_max, c.value, rel_tol=1e-6)]
        if not ends or not all(_alike(str(model.value), o.conditions.get("model")) for o, _ in ends):
            continue
        ends, theirs_unclear = [o for o, _ in ends], [u for _, u in ends]
        for name, cond in c.conditions.items():
            if cond.status == "stated" or name not in names or name in unclear or any(name in u for u in theirs_unclear):
                continue
            agreed = _one_stated(ends, name, _RANGE_PLACES)
            if agreed is not None:
                c.conditions[name] = _restated(agreed, f"stated for the results the post gives as a range ending at "
                                                       f"this figure ({ends[0].quote!r})")


_RATIOS = frozenset({"speedup", "relative_change"})


def fill_from_sentence_figures(claims: list[Claim], ambiguous: list[set[str]], names: list[str], view: str) -> None:
    """Fill the unstated conditions of a headline ratio from the figures its own sentence gives, when the post states
    those again elsewhere with their set-up ("... reaches 26.2K prefill and 10.1K decode tokens/s, a 3-5x gain over
    H200" in a summary; "26.2K prefill ... at 2K input and 2K output tokens" in the introduction): the ratio sums up
    those runs. Only when every such figure states the condition with one value (and none is ambiguous about it), and
    only `names` (scopes.yaml `range_top_conditions`: what holds for the runs, not the load of one of them).
    `ambiguous[i]`: the conditions of `claims[i]` stated with several values; they stay so."""
    heads = [(c, u) for c, u in zip(claims, ambiguous) if c.headline and c.metric in _RATIOS and c.conditions]
    if not heads:
        return
    unclear_of = {id(c): u for c, u in zip(claims, ambiguous)}
    places = sorted((m.span[0], i) for i, o in enumerate(claims) if o.metric not in _RATIOS and o.conditions
                    for m in o.mentions if len(o.mentions) > 1)
    starts = [p for p, _ in places]
    for c, unclear in heads:
        lo, hi = covering(view, c.span[0], c.span[1], "sentence")
        mates = list({id(claims[i]): claims[i] for _, i in places[bisect_left(starts, lo):bisect_left(starts, hi)]}
                     .values())
        if not mates:
            continue
        for name, cond in c.conditions.items():
            if cond.status == "stated" or name not in names or name in unclear \
                    or any(name in unclear_of[id(o)] for o in mates):
                continue
            agreed = _one_stated(mates, name)
            if agreed is not None:
                c.conditions[name] = _restated(agreed, f"stated for the figures this ratio's sentence gives "
                                                       f"({', '.join(repr(o.quote) for o in mates)})")


def fill_from_printed(claims: list[Claim], ambiguous: list[set[str]]) -> None:
    """Fill the unstated conditions of a figure in prose from the one result a program printed in the same section
    that it gives rounded or cut ("around 3.85 s" for a printed "3.8589 s", "about 28 tokens/s" for "28.61"): the
    prose restates that run's result. `ambiguous[i]`: the conditions of `claims[i]` stated with several values."""
    printed: dict[tuple, list[Claim]] = {}
    for c in claims:
        if c.context.block == "code" and c.conditions:
            printed.setdefault((tuple(c.context.section), c.metric, c.unit), []).append(c)
    if not printed:
        return
    for c, unclear in zip(claims, ambiguous):
        if c.context.block != "paragraph" or not c.conditions or c.value_max is not None:
            continue
        places = _decimals(c.value)
        same = [o for o in printed.get((tuple(c.context.section), c.metric, c.unit), ())
                if _decimals(o.value) > places and _rounds_to(o.value, c.value, places)]
        if len(same) != 1:
            continue
        src = same[0]
        for name, cond in c.conditions.items():
            theirs = src.conditions.get(name)
            if cond.status == "stated" or theirs is None or theirs.status != "stated":
                continue
            if name in unclear and not (theirs.scope in _RUN_SCOPES or (theirs.note or "").startswith(SETTLED_BY_CODE)):
                continue   # several values around the prose, and the run's own code or output did not settle it
            c.conditions[name] = theirs.model_copy(update={
                "scope": "restatement",
                "note": "; ".join(x for x in (theirs.note, f"stated for the result the program printed "
                                                            f"({src.quote!r}), which this figure gives rounded") if x)})


_NAMES = ("model", "hardware")   # what the prose's own sentence must name, alike, for a row to be its run


def fill_from_table_rows(claims: list[Claim], ambiguous: list[set[str]]) -> None:
    """Fill the unstated conditions of a figure in prose ("a 13B model on one g5.4xlarge serves 58 tokens/sec")
    from the one table row anywhere in the post whose figure it gives rounded or cut (71.7056), or bounds from below
    (the one row of its model or device above "more than 5,000 tok/s", at the loads its sentence states), when its own
    sentence names the row's model or hardware and names neither otherwise: a summary restating a row of the
    results. `ambiguous[i]`: the conditions of `claims[i]` the post states with several values; they stay so."""
    grouped: dict[tuple, list[Claim]] = {}
    for c in claims:
        if c.context.block == "table" and c.conditions and c.value_max is None:
            grouped.setdefault((c.metric, c.unit), []).append(c)
    if not grouped:
        return
    # per metric and unit, the rows by value: a figure bisects the few that can round or cut to it, not every row
    rows = {key: (sorted(o.value for o in group), sorted(group, key=lambda o: o.value))
            for key, group in grouped.items()}
    for c, unclear in zip(claims, ambiguous):
        if c.context.block == "table" or not c.conditions or c.value_max is not None:
            continue
        own = {n: str(c.conditions[n].value) for n in _NAMES
               if c.conditions.get(n) and c.conditions[n].status == "stated" and c.conditions[n].scope == "sentence"}
        if not own:
            continue
        values, ordered = rows.get((c.metric, c.unit), ((), ()))
        places = _decimals(c.value)
        if c.qualifier == "at_least" and places == 0 and c.value > 0:
            # a round lower bound ("more than 5,000 tok/s") sums up a row only when it is the one row of the
            # sentence's model or device (at the loads the sentence states) above the bound
            same = [o for o in ordered[bisect_right(values, c.value):]
                    if all(_alike(v, o.conditions.get(n)) for n, v in own.items()) and _same_loads(c, o)]
            if len(same) == 1 and same[0].value > BOUND_SPAN * c.value:
                same = []   # "more than 1,000" sums up no row of 48,000: the bound says too little of it
        else:
            step = 10.0 ** -places
            near = ordered[bisect_left(values, c.value - step):bisect_right(values, c.value + step)]
            same = [o for o in near if _decimals(o.value) > places and _rounds_to(o.value, c.value, places)
                    and all(_alike(v, o.conditions.get(n)) for n, v in own.items())]
        if len(same) != 1:
            continue
        src = same[0]
        for name, cond in c.conditions.items():
            theirs = src.conditions.get(name)
            if cond.status == "stated" or name in unclear or theirs is None or theirs.status != "stated":
                continue
            c.conditions[name] = theirs.model_copy(update={
                "scope": "restatement",
                "note": "; ".join(x for x in (theirs.note, f"stated for the table row that gives this figure as "
                                                            f"{src.quote!r}") if x)})


BOUND_SPAN = 1.5   # a round lower bound sums up a row at most this many times its size ("over 10,000" for 10,907)
_LOADS = ("batch_or_concurrency", "input_length", "output_length")


def _one_stated(others: list[Claim], name: str, scopes: frozenset[str] | None = None) -> Condition | None:
    """The condition `name` every one of `others` states with one and the same value (at one of `scopes` when
    given), else None."""
    stated = [o.conditions[name] for o in others if o.conditions.get(name) and o.conditions[name].status == "stated"
              and (scopes is None or o.conditions[name].scope in scopes)]
    if len(stated) != len(others) or len({repr(x.value) for x in stated}) != 1:
        return None
    return stated[0]


def _restated(cond: Condition, why: str) -> Condition:
    """`cond` given to a claim whose restated figures state it, with `why` added to its note."""
    return cond.model_copy(update={"scope": "restatement", "note": "; ".join(x for x in (cond.note, why) if x)})


def _same_loads(c: Claim, row: Claim) -> bool:
    """Whether every load or length the prose figure's own sentence states is the row's too."""
    return all(row.conditions.get(n) is not None and row.conditions[n].status == "stated"
               and row.conditions[n].value == c.conditions[n].value
               for n in _LOADS if c.conditions.get(n) is not None and c.conditions[n].status == "stated"
               and c.conditions[n].scope == "sentence")


def _alike(value: str, theirs) -> bool:
    """Whether a name the prose states and the row's condition name one thing ("Llama 2", "Llama 2 13B")."""
    return theirs is not None and theirs.status == "stated" and same_model(value, str(theirs.value))


def _decimals(value: float) -> int:
    text = f"{value!r}"
    return len(text.split(".", 1)[1].rstrip("0")) if "." in text and "e" not in text else 0


def _rounds_to(full: float, short: float, places: int) -> bool:
    """Whether `full` rounded or cut to `places` decimals is `short`."""
    scale = 10 ** places
    return any(math.isclose(v, short, rel_tol=0, abs_tol=0.5 / scale / 10)
               for v in (round(full, places), math.trunc(full * scale) / scale))


def _filled(claim: Claim) -> bool:
    """Whether a claim took conditions from a restatement of its figure (of a headline: filled above)."""
    return any(v.scope == "restatement" for v in claim.conditions.values())


def _stated(claim: Claim) -> int:
    return sum(v.status == "stated" for v in claim.conditions.values())


def distinctive(value: float, value_max: float | None = None) -> bool:
    """A figure specific enough that two mentions of it are one measurement (25,000; 11.5%; 6-14x),
    unlike common round ratios (2x, 1.5x, 60%)."""
    digits = "".join(re.sub(r"[^0-9]", "", f"{abs(v):g}").lstrip("0") for v in (value, value_max) if v is not None)
    return abs(value) >= 1000 or len(digits) >= 3
