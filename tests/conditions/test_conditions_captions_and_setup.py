"""Conditions stated where posts put them (issue 24, the missed kinds): a figure caption's or setup section's
lengths given as averages of a distribution."""
from __future__ import annotations

import pytest

from extractor.api import get_extractor
from extractor.conditions.mentions import MentionFinder
from extractor.rules_io import default_rules_dir

FINDER = MentionFinder(default_rules_dir())
EXTRACTOR = get_extractor()   # the one extractor of this test process


def _values(text: str, kind: str) -> list:
    return [m.value for m in FINDER.find(text) if m.kind == kind]


@pytest.mark.parametrize("sentence, isl, osl", [
    ("Prompt and generation lengths follow a normal law with means of 1800 and 90, respectively.", 1800, 90),
    ("Input and output lengths averaging 512 and 128 tokens were drawn per request.", 512, 128),
])
def test_lengths_given_as_averages_of_a_distribution(sentence, isl, osl):
    assert _values(sentence, "input_length") == [isl]
    assert _values(sentence, "output_length") == [osl]


def test_two_settings_written_with_slashes_are_not_one_pair():
    sentence = "Input and output lengths with averages of 900/1800 and 64/90, respectively."
    assert _values(sentence, "input_length") == []


CAPTIONED = """# Faster generation

## Results

![Throughput chart](chart.png)

*Figure 2: Throughput of our engine on Llama-2-70B (4x A100). Prompt and generation lengths were drawn from a
normal distribution with averages of 1800 and 90, respectively.*

Our engine delivers up to 2.1x higher effective throughput than the reference server.
"""


def test_a_caption_near_the_claim_states_its_average_lengths():
    record = EXTRACTOR.extract(CAPTIONED, doc="t.md", fmt="markdown", path=None, sha256="0")
    claim = next(c for c in record.claims if "2.1x" in c.quote)
    assert (claim.conditions["input_length"].value, claim.conditions["output_length"].value) == (1800, 90)
