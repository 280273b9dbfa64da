"""Printed results restated in prose (issue 24): a harness's summary labels its scenario ("Scenario : Server");
a paragraph that reports a figure a program printed just above it takes the setup lines printed before that
figure; a round figure, or one the output did not print, does not. Posts written for these tests."""
from __future__ import annotations

from claim_checks import claim, stated, unrecoverable
from extractor.api import extract_text

FENCE = "```"


def _post(tail: str = "", between: str = "") -> str:
    return f"""# Reproducing a submission

An introduction.

## Results

The summary of the Server run:

{FENCE}text
Scenario : Server
Mode     : PerformanceOnly
Completed tokens per second: 20360.10
Result is : VALID
{FENCE}
{between}
We recorded 20,360.10 completed tokens per second in this trial.

The summary of the Offline run:

{FENCE}text
Scenario : Offline
Tokens per second: 23545.5
{FENCE}

We recorded 23,545.5 tokens per second, about 2x the old number.
{tail}"""


def test_a_labelled_scenario_and_a_printed_figure_restated_below_it():
    rec = extract_text(_post(), "t.md")
    assert stated(claim(rec, 20360.1), "scenario").value == "Server"
    assert stated(claim(rec, 23545.5), "scenario").value == "Offline"
    unrecoverable(claim(rec, 2), "scenario")


def test_a_figure_the_output_above_did_not_print_takes_nothing_from_it():
    text = _post().replace("We recorded 20,360.10 completed", "A rerun gave 19,870.5 completed")
    unrecoverable(claim(extract_text(text, "t.md"), 19870.5), "scenario")


def test_a_scenario_word_without_its_label_is_no_setting():
    text = ("# Notes\n\nAn introduction.\n\n## Results\n\nIn this scenario: server load stays high, and the new "
            "engine reaches 812 tokens/s.\n")
    unrecoverable(claim(extract_text(text, "t.md"), 812), "scenario")
