"""Every way of writing a number gives its right value or no claim, never a wrong value (own sentences).

Powers of ten and exponents are not read (never the exponent alone as the value); Unicode digits are read as
digits; apostrophe and thin-space thousands, "1.000,5" (dot thousands, decimal comma); a bare decimal comma
("1,5 ms", a decimal or a list) is not read; invisible and combining characters inside a number are read
through; a Markdown exporter's escaped point or comma ("5\\.0") is part of the number."""
from __future__ import annotations

import pytest

from extractor.api import extract_text
from extractor.quantities.finder import find_quantities


def claims(text: str, name: str = "p.md") -> list[tuple[float, str, str]]:
    record = extract_text(text, name)
    for c in record.claims:
        assert text[c.span[0]:c.span[1]] == c.quote
    return [(c.value, c.unit, c.quote) for c in record.claims]


def values(text: str) -> list[float]:
    return [q.value for q in find_quantities(text)]


@pytest.mark.parametrize("written", ["10^3", "10 ^ 3", "10^999", "2**10", "2 ** 1024", "1.5×10^3", "1.5 x 10^3",
                                     "3·10³", "10³", "1e3", "1.2E4", "4e-3", "10^-3"])
def test_powers_and_exponents_give_no_value(written):
    text = f"The router sustained {written} tok/s on one node during the soak test."
    got = find_quantities(text)
    assert [q for q in got if q.unit != "dimensionless" and "tok" in q.surface_unit] == []
    assert all(q.value not in (3.0, 999.0, 10.0, 1024.0, 4.0, 2.0) or q.quote.strip() == "one node" for q in got)


@pytest.mark.parametrize("written,value", [
    ("1'000", 1000.0), ("12'500", 12500.0), ("1\u2019250", 1250.0), ("1\u2009000", 1000.0), ("1\u202f000", 1000.0),
    ("1.000,5", 1000.5), ("12.345,25", 12345.25), ("1٢٠٠", 1200.0), ("1\U0001d7d0\U0001d7ce\U0001d7ce", 1200.0),
    ("1\uff12\uff10\uff10", 1200.0), ("1\u00ad500", 1500.0), ("1\ufe0f500", 1500.0), ("1\u0301500", 1500.0),
    ("2\u0301.5", 2.5), ("1\u200e200", 1200.0),
])
def test_number_forms_read_whole(written, value):
    text = f"Our cluster served {written} tok/s with the new scheduler."
    got = find_quantities(text)
    assert [(q.value, q.unit) for q in got] == [(value, "token / second")]
    assert got[0].quote == f"{written} tok/s"


@pytest.mark.parametrize("written", ["\u0661\u0662\u0660\u0660", "\U0001d7cf\U0001d7d0\U0001d7ce\U0001d7ce"])
def test_numbers_written_only_in_other_digits_are_refused_whole(written):
    assert values(f"Our cluster served {written} tok/s with the new scheduler.") == []


@pytest.mark.parametrize("written", ["1,5 ms", "2,5x", "0,75 s"])
def test_a_bare_decimal_comma_is_not_read_as_two_numbers(written):
    text = f"The median came out at {written} in the second run."
    assert values(text) == []


def test_lists_and_english_thousands_are_unchanged():
    assert values("We tried 1,2,4 and 8 GPUs.") == [8.0] or 8.0 in values("We tried 1,2,4 and 8 GPUs.")
    assert values("It served 12,000 tok/s.") == [12000.0]
    assert values("It served 1.5 tok/s.") == [1.5]
    assert values("A 5'10\" engineer ran 300 tok/s.")[-1] == 300.0   # feet and inches: no thousands


def test_markdown_escaped_decimals_give_the_stated_values_and_no_failure():
    text = ("The cold start took around 5\\.0 seconds compared with approximately 5\\.2 seconds on the old "
            "image, and decode ran at 1\\,200 tok/s, 3\\.5x faster.\n")
    got = claims(text)
    assert (5.0, "second", "around 5\\.0 seconds") in got or any(q == "5\\.0 seconds" for _, _, q in got)
    quotes = {q: v for v, _, q in got}
    assert all(v not in (0.0, 0.2, 200.0) for v in quotes.values()), got
    assert any(v == 1200.0 for v, _, _ in got) and any(v == 3.5 for v, _, _ in got)


def test_a_zero_before_a_comparison_does_not_divide_by_zero():
    claims("Warm-up took 0 seconds compared with 3 seconds on the cold path, and 0 ms versus 12 ms later.\n")
