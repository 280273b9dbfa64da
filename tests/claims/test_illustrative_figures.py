"""Figures shown as an illustration, not as the post's measurement (issue 23): program output or a table under a
heading that names it an example or the expected output, output a lead presents as what the reader will see, and
the steps of a worked scenario in units of a symbol. Each is set aside as `example` with the rule that decided
it; a tutorial's own run ("Sample output" of what it ran, a numbered "Example 2" section, a table the text
points at) stays a claim. Every post and sentence here is written for the test."""
from __future__ import annotations

import pytest

from extractor.api import extract_text


def record(text: str):
    return extract_text(text, doc="t.md")


def claims(text: str) -> set[str]:
    return {c.quote for c in record(text).claims}


def asides(text: str) -> dict[str, tuple[str, str]]:
    return {a.quote: (a.reason, a.rule) for a in record(text).set_aside}


OUTPUT = "```\nDecode rate (tok/s): 812.5\nMean step time: 31.7 ms\nPeak step time: 44.0 ms\n```\n"
TABLE = ("| Request | Served by | Spend |\n|---|---|---|\n| a greeting | the small local model | $0 |\n"
         "| a long report | the hosted large model | ~$0.07 |\n")


@pytest.mark.parametrize("heading", [
    "### Example output", "#### Example benchmark output of the two modes", "## Expected results",
    "### Example usage", "## 4. Expected Output", "### Output example",
])
def test_output_under_an_illustrative_heading_is_an_example(heading):
    text = f"# The tool\n\nRun `ourbench --model m` on a host.\n\n{heading}\n\n{OUTPUT}"
    assert claims(text) == set()
    aside = asides(text)
    assert aside["31.7 ms"] == ("example", "set_aside.illustrative_section")
    assert aside["44.0 ms"] == ("example", "set_aside.illustrative_section")
    # a printed figure whose unit only its label gives is listed too, not dropped in silence
    assert aside["812.5"][0] == "example"


def test_a_table_of_expected_results_is_an_example():
    text = f"# Routing by cost\n\n## Expected results\n\nTwo prompts, one session:\n\n{TABLE}"
    assert claims(text) == set()
    assert asides(text)["~$0.07"] == ("example", "set_aside.illustrative_section")


@pytest.mark.parametrize("lead", [
    "Once it finishes, you should see lines like these:", "The summary will look similar to this:",
    "Expected output:", "**Expected output:**", "The client prints something like the following:",
    "Your terminal should print numbers similar to the following:",
])
def test_output_an_illustrative_lead_presents_is_an_example(lead):
    text = f"# The tool\n\n## Running it\n\n{lead}\n\n{OUTPUT}"
    assert claims(text) == set()
    assert asides(text)["31.7 ms"] == ("example", "set_aside.illustrative_lead")


@pytest.mark.parametrize("heading", [
    # a tutorial's sample run: its output is what the post measured
    "### Sample output on our card",
    # a numbered example of a worked tutorial, and plain result headings
    "## Example 2: the 13B model", "## Results", "### Benchmark output",
])
def test_a_tutorials_own_run_stays_a_claim(heading):
    text = f"# Timing the model\n\nWe ran the script below on one card.\n\n{heading}\n\n{OUTPUT}"
    assert {"31.7 ms", "44.0 ms"} <= claims(text)


def test_a_sample_output_lead_is_no_illustration():
    # "sample output" names what a sample run printed: the tutorial's measurement, as under a "Sample output" heading
    text = f"# Timing the model\n\n## Running it\n\nHere is the sample output of our run:\n\n{OUTPUT}"
    assert {"31.7 ms", "44.0 ms"} <= claims(text)


def test_a_results_table_a_lead_points_at_stays_a_claim():
    # "as you can see" before a table is no illustration: only code blocks read the reader-will-see leads
    text = ("# Results\n\nAs you can see in the table below, the new path is faster:\n\n"
            "| Path | TTFT |\n|---|---|\n| old | 140 ms |\n| new | 95 ms |\n")
    assert {"140 ms", "95 ms"} <= claims(text)


@pytest.mark.parametrize("text,rule", [
    ("Run alone, the jobs need 4X ms; packed together they need a faster 2X ms.", "multiple_of_a_symbol"),
    # in code spans the reason is inline_code's; the demotion of the speed-up is still this class's
    ("Served one by one the jobs need `4X ms`; packed together they need a quicker `2X ms`.", "inline_code"),
    ("If a decode step costs X ms, four unbatched requests cost **4X ms** and a batch of them **2X ms**.",
     "multiple_of_a_symbol"),
    ("- one by one: 4X ms\n- in one batch: 2X ms\n", "multiple_of_a_symbol"),
])
def test_a_multiple_of_a_symbol_is_a_step_of_a_worked_scenario(text, rule):
    # "4X ms" counts time in units of X: the step of a scenario, never a 4x speed-up
    assert claims(text) == set()
    assert asides(text) == {"4X": ("example", f"set_aside.{rule}"), "2X": ("example", f"set_aside.{rule}")}


def test_a_multiple_of_a_symbol_in_other_units_and_decimals():
    text = "Say loading takes X minutes: three serial loads take 3X minutes and parallel loads 1.2X minutes."
    assert claims(text) == set()
    assert asides(text) == {"3X": ("example", "set_aside.multiple_of_a_symbol"),
                            "1.2X": ("example", "set_aside.multiple_of_a_symbol")}


@pytest.mark.parametrize("text,quote", [
    ("The fused kernel is 3X faster than the old one on our H100.", "3X"),
    ("Batching gives a 2X speedup at 40 ms per step.", "2X"),
    ("With batching, throughput rose 3X, ms per token fell.", "3X"),      # a unit of another clause
])
def test_a_measured_multiple_stays_a_claim(text, quote):
    assert quote in claims(text)


def test_a_log_line_or_a_listing_inside_an_illustration_is_part_of_it():
    text = ("# The tool\n\n## Scaling up\n\nExpected output:\n\n```\nNAME           READY   STATUS    AGE\n"
            "worker-7f2c    1/1     Running   48s\nINFO 10:02:11 warm-up took 3.5 seconds\n```\n")
    aside = asides(text)
    assert aside["48s"] == ("example", "set_aside.illustrative_lead")
    assert aside["3.5 seconds"] == ("example", "set_aside.illustrative_lead")
