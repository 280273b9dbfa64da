"""Regression tests for the defects listed in issue 13 (sentences written for these tests)."""
import spacy

from extractor.quantities.component import quantities_of
from extractor.quantities.finder import find_quantities


def rows(text: str) -> list[tuple]:
    return [(q.quote, q.value, q.value_max, q.unit, q.qualifier) for q in find_quantities(text)]


def test_range_multiplier_scales_both_ends():
    assert rows("Peak decode sat at 10-15K tok/s.") == [("10-15K tok/s", 10000, 15000, "token / second", "range")]
    assert rows("a budget of $10 to $15 billion") == [("$10 to $15 billion", 1e10, 1.5e10, "USD", "range")]


def test_change_by_then_level_is_two_quantities():
    assert rows("Decode speed rose by 300 tok/s to 2,000 tok/s.") == [
        ("300 tok/s", 300, None, "token / second", "exact"),
        ("2,000 tok/s", 2000, None, "token / second", "exact")]


def test_decades_and_model_names_are_not_seconds_or_ratios():
    assert rows("Chips of the 1970s and the 2020s") == []
    assert rows("the Model 3s were parked next to the X6") == []
    assert rows("latency fell by X3") == [("X3", 3, None, "x", "exact")]   # still a ratio after a verb


def test_magnitude_letters_after_currency_and_frequencies():
    assert rows("a $5.4m round and a $4.2b valuation") == [
        ("$5.4m", 5.4e6, None, "USD", "exact"), ("$4.2b", 4.2e9, None, "USD", "exact")]
    assert rows("clocked at 2.4GHz with a 300 Hz refresh") == [
        ("2.4GHz", 2.4, None, "gigahertz", "exact"), ("300 Hz", 300, None, "hertz", "exact")]


def test_component_keeps_two_quantities_of_one_token_apart():
    nlp = spacy.blank("en")
    nlp.add_pipe("benchclaims_quantities")
    for text in ("Only 1/16 of the experts fire.", "a 3:1 read/write mix"):
        doc = nlp(text)
        spans = doc.spans["quantities"]
        assert [s._.quantity.value for s in spans] == [q.value for q in find_quantities(text)]
        assert [q.value for q in quantities_of(doc)] == [q.value for q in find_quantities(text)]
        assert len({s.text for s in spans}) == 1 and len(spans) == 2


def test_quantities_the_claim_layer_needs_are_found():
    """Code-block output, 'per token' and 'from ~X ms to ~Y ms' (the claim layer makes claims of them)."""
    text = "```\nmean TPOT: 16ms per token\nthroughput: 1523.4 tok/s\n```\nTTFT fell from ~5884 ms to ~632 ms."
    assert rows(text) == [
        ("16ms per token", 16, None, "millisecond / token", "exact"),
        ("1523.4 tok/s", 1523.4, None, "token / second", "exact"),
        ("~5884 ms", 5884, None, "millisecond", "approx"),
        ("~632 ms", 632, None, "millisecond", "approx")]
