"""A duration written in parts is ONE quantity (numbers.yaml `compound_durations`): the quote and span cover
the whole phrase, the value is the sum in the last part's unit. Sentences written for these tests."""
from __future__ import annotations

import pytest

from extractor.quantities.finder import find_quantities


def _found(text: str) -> list[tuple[str, float, str]]:
    out = []
    for q in find_quantities(text):
        assert text[q.span[0]:q.span[1]] == q.quote
        out.append((q.quote, q.value, q.unit))
    return out


@pytest.mark.parametrize("text,quote,value,unit", [
    ("The whole sweep took 30 minutes and 14 seconds.", "30 minutes and 14 seconds", 1814, "second"),
    ("Fine-tuning lasted 1h 20m in total.", "1h 20m", 80, "minute"),
    ("The job ends in 2 min 30 s here.", "2 min 30 s", 150, "second"),
    ("Indexing needs 1 hour, 5 minutes of compute.", "1 hour, 5 minutes", 65, "minute"),
    ("It converged after 2 hours, and 10 minutes.", "2 hours, and 10 minutes", 130, "minute"),
    ("A full pass: 1 hr 2 min 3 sec.", "1 hr 2 min 3 sec", 3723, "second"),
    ("The soak ran 2 days 3 hours.", "2 days 3 hours", 51, "hour"),
    ("Compilation takes 4 min 12.5 s cold.", "4 min 12.5 s", 252.5, "second"),
])
def test_a_duration_in_parts_is_one_quantity(text, quote, value, unit):
    assert _found(text) == [(quote, value, unit)]


@pytest.mark.parametrize("text,expected", [
    # a series of times in one unit, or parts out of order: separate figures
    ("TTFT was 10 s, 5 s and 2 s.", [("10 s", 10, "second"), ("5 s", 5, "second"), ("2 s", 2, "second")]),
    ("Loading took 5 minutes and 2 hours were spent on tuning.",
     [("5 minutes", 5, "minute"), ("2 hours", 2, "hour")]),
    # a later part not below one of the unit before it, or a first part with decimals: no compound
    ("It took 1 hour 90 minutes.", [("1 hour", 1, "hour"), ("90 minutes", 90, "minute")]),
    ("Setup 1.5 hours and 10 minutes.", [("1.5 hours", 1.5, "hour"), ("10 minutes", 10, "minute")]),
    # a unit skipped (hours then seconds) or milliseconds after seconds: two figures (TTFT and ITL)
    ("TTFT 2 s, 300 ms ITL.", [("2 s", 2, "second"), ("300 ms", 300, "millisecond")]),
    # "20m" alone is no minute
    ("It used 20m of cable.", []),
])
def test_times_that_are_not_one_duration_stay_apart(text, expected):
    assert _found(text) == expected


def test_a_first_part_too_large_for_a_float_is_no_compound():
    """A number that overflows to infinity (a fuzzed run of nines) starts no compound and raises nothing:
    the part after it stays a figure of its own."""
    text = "9" * 400 + " minutes 5 seconds"
    assert ("5 seconds", 5, "second") in _found(text)
