"""Wrong kinds found by the session-7 sample check of writers outside the dev set
(docs/conditions-sample-check.md): settings another figure, run or section states, given to a claim. Each case
is a class of layout many posts share; the claim's own settings beside them stay. Posts written for these tests."""
from __future__ import annotations

from claim_checks import claim, stated, unrecoverable
from extractor.api import extract_text

SCORE_FIGURE = """# Running a large model at home

## Footprint

![Falcon-40B score on the coding leaderboard](img/score.png)

The offloaded build needs only 19GB of VRAM on one desktop card.
"""


def test_a_caption_that_names_only_a_score_is_no_setting_of_a_memory_figure():
    # the figure next to the claim shows a quality score: its model is not the one whose memory is measured
    unrecoverable(claim(extract_text(SCORE_FIGURE, "t.md"), 19), "model")


def test_a_score_caption_still_sets_up_a_score_and_a_speed_caption_a_speed():
    text = SCORE_FIGURE.replace("The offloaded build needs only 19GB of VRAM on one desktop card.",
                                "The offloaded build scores 71.5 on the leaderboard.")
    assert stated(claim(extract_text(text, "t.md"), 71.5), "model").value == "Falcon-40B"
    text = SCORE_FIGURE.replace("score on the coding leaderboard", "decode throughput on one card").replace(
        "needs only 19GB of VRAM on one desktop card", "decodes at 31 tokens/s on one desktop card")
    assert stated(claim(extract_text(text, "t.md"), 31), "model").value == "Falcon-40B"


def test_a_caption_that_names_only_speeds_is_no_setting_of_a_score():
    text = SCORE_FIGURE.replace("score on the coding leaderboard", "decode throughput on one card").replace(
        "needs only 19GB of VRAM on one desktop card", "scores 71.5 on the coding leaderboard")
    unrecoverable(claim(extract_text(text, "t.md"), 71.5), "model")
    # a caption that names no metric at all still fits a score
    text = SCORE_FIGURE.replace(" score on the coding leaderboard", " served from one card").replace(
        "needs only 19GB of VRAM on one desktop card", "scores 71.5 on the coding leaderboard")
    assert stated(claim(extract_text(text, "t.md"), 71.5), "model").value == "Falcon-40B"
