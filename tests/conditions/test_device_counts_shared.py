"""`counted_twice` of a rung many claims read (a `SharedRung` joined from parts, as the setup sections before a
claim are) gives what the plain list of its mentions gives: parts in text order summed, parts out of order read
whole, with the counts of a part's edge compared to the next part's."""
from __future__ import annotations

import pytest

from extractor.conditions._internals.shared_rungs import SharedRung
from extractor.conditions.device_counts import counted_twice
from extractor.conditions.located import Located
from extractor.conditions.readings import Mention

VIEW = "Runs: 1xL4 here, 4xL4 there; then 8xH100, Model-A 7B, 4xL4 and 1xL4 again, and 4xL4 at the end."


def _device(count: int, start: int, name: str = "L4", for_model: str | None = None) -> Located:
    quote = f"{count}x{name}"
    m = Mention(kind="hardware", value=name, canonical=name, count=count, quote=quote, span=(start, start + len(quote)))
    return Located(m=m, block=0, section=None, for_model=for_model)


def _at(quote: str, count: int, nth: int = 0, name: str = "L4") -> Located:
    at = -1
    for _ in range(nth + 1):
        at = VIEW.index(quote, at + 1)
    return _device(count, at, name)


ONE, FOUR = _at("1xL4", 1), _at("4xL4", 4)
H100 = _at("8xH100", 8, name="H100")
SIZED_FOUR, SIZED_ONE = _at("4xL4", 4, 1), _at("1xL4", 1, 1)   # after "Model-A 7B": the size splits them
LAST_FOUR = _at("4xL4", 4, 2)

CASES = {
    "two counts across parts": [[ONE], [H100], [FOUR]],
    "one count per part": [[ONE], [SIZED_ONE]],
    "a size between the parts": [[H100], [SIZED_FOUR]],
    "a size between, then two counts": [[SIZED_FOUR], [SIZED_ONE], [LAST_FOUR]],
    "parts out of text order": [[SIZED_FOUR, H100], [ONE]],   # sorted: a size between the counts
    "paired with a model": [[_device(1, 5, for_model="A")], [_device(4, 17, for_model="B")]],
    "empty parts": [[], [ONE], [], [H100]],
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_joined_rung_reads_as_its_mentions_in_one_list(name):
    parts = CASES[name]
    plain = [x for part in parts for x in part]
    rung = SharedRung(parts[0])
    for part in parts[1:]:   # each claim's rung extends the one before (setup sections before a claim)
        rung = SharedRung.joined([rung, SharedRung(part)])
    for x in plain:
        if x.m.count:
            assert counted_twice(rung, x.m, VIEW) == counted_twice(plain, x.m, VIEW), x.m.quote


def test_the_cases_read_both_ways():
    """The cases are not all one answer: some rungs count the device twice, some do not."""
    answers = {counted_twice([x for p in parts for x in p], ONE.m, VIEW) for parts in CASES.values()}
    assert answers == {True, False}
