"""The secondary conditions (precision, parallelism, dataset) read as writers state them, on sentences
written for these tests: a layout stated in parts, the weight precision rather than a detail of the run,
the prompt source rather than the accuracy check. Each class has its negative cases."""
from __future__ import annotations

from extractor.api import extract_text


def claim(record, value, metric=None):
    found = [c for c in record.claims if abs(c.value - value) < 1e-6 and (metric is None or c.metric == metric)]
    assert found, f"no claim {value} {metric or ''} in {[(c.metric, c.value) for c in record.claims]}"
    return found[0]


def stated(c, name):
    cond = c.conditions[name]
    assert cond.status == "stated", f"{name} of {c.quote!r}: {cond.status} ({cond.why})"
    return cond


def unrecoverable(c, name):
    cond = c.conditions[name]
    assert cond.status == "unrecoverable", f"{name} of {c.quote!r} stated as {cond.value!r} ({cond.scope})"
    assert cond.where
    return cond


# -- a layout stated in parts, restated in another order ------------------------------------------
RESTATED_LAYOUT = """---
title: "Fleet 3 reaches 9,412 tok/s per GPU"
---

## Summary

Fleet 3 reaches 9,412 tok/s per GPU, with the decode pool on TEP4 and the prefill pool on DEP2.

## Results

Here the prefill pool ran DEP2 and the decode pool TEP4, and the cluster held 9,412 tok/s per GPU.
"""


def test_a_layout_restated_with_its_parts_in_another_order_is_one_layout():
    c = claim(extract_text(RESTATED_LAYOUT, "t.md"), 9412)
    assert len(c.mentions) >= 2
    layout = stated(c, "parallelism")
    assert {p.strip() for p in layout.value.split(",")} == {"TEP4", "DEP2"}


def test_a_layout_restated_with_other_parts_stays_ambiguous():
    text = RESTATED_LAYOUT.replace("ran DEP2 and the decode pool TEP4", "ran DEP2 and the decode pool TEP8")
    c = claim(extract_text(text, "t.md"), 9412)
    if len(c.mentions) >= 2:    # merged: the two layouts differ, so neither is picked
        layout = unrecoverable(c, "parallelism")
        assert "TEP4" in layout.why and "TEP8" in layout.why


# -- the post's accuracy check is not a serving workload anywhere in the post --------------------------
def test_a_set_the_post_checks_accuracy_on_is_no_workload_where_it_is_named_again():
    text = ("# Quality\n\nBefore timing anything we checked accuracy on GSM8K for every configuration.\n\n"
            "# Results\n\nEach recipe also has a variant that replays GSM8K three times on the same nodes. "
            "The main run serves 12,345 tokens/s on 8x H100.\n")
    unrecoverable(claim(extract_text(text, "t.md"), 12345), "dataset")


def test_a_few_shot_prompt_mentioned_elsewhere_stays_a_workload():
    text = ("# Background\n\nShared prompt parts include few-shot examples and the search history of ReAct "
            "agents.\n\n# Results\n\nWe replay ReAct agent traces. The engine serves 2,345 tokens/s on one "
            "L40S.\n")
    assert stated(claim(extract_text(text, "t.md"), 2345), "dataset").value == "ReAct"
