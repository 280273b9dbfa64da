"""A headline bound that gives the top of a body range ("up to 2.40x for Orca-70B" over "1.55x-2.40x for Orca-70B"):
the summary's best point of the body's result. It takes what holds for the whole range (hardware, layout, lengths,
engine: scopes.yaml `range_top_conditions`), not its load, when its own sentence names the range's model."""
from __future__ import annotations

from tests.claim_checks import claim_in, stated, unrecoverable

POST = """# Draft models for Orca

Our new draft heads deliver up to 2.40x throughput gains for Orca-70B on Z300 accelerators.

## Setup

We serve each model behind one endpoint and sweep the load.

## Results

### Orca-70B

For Orca-70B the draft path lifts output throughput by 1.55x-2.40x over the plain decoder at 1K/1K, on eight Z300
accelerators with TP=8, from 64 concurrent users down to a single one.
"""


def test_a_headline_bound_takes_the_setup_of_the_range_it_tops():
    c = claim_in(POST, 2.40)
    assert c.headline
    assert stated(c, "parallelism").value == "TP=8"
    assert stated(c, "input_length").value == 1000   # "1K" with no power of two in the post


def test_it_does_not_take_the_ranges_load():
    c = claim_in(POST, 2.40)
    unrecoverable(c, "batch_or_concurrency")


def test_a_bound_for_another_model_takes_nothing():
    text = POST.replace("gains for Orca-70B on Z300", "gains for Orca-8B on Z300")
    c = claim_in(text, 2.40)
    unrecoverable(c, "parallelism")


def test_a_bound_that_tops_no_range_takes_nothing():
    text = POST.replace("by 1.55x-2.40x", "by 1.55x-2.30x")
    c = claim_in(text, 2.40)
    unrecoverable(c, "parallelism")
