"""Setup given in a tutorial's prose (issue 24): a first-person statement of what the whole post uses ("In this
blog, we'll be running ...", "In our implementation, we will use one MI210 GPU") covers every result of the
post; a statement about one step or one model, or about what could be used, does not. Posts written for
these tests."""
from __future__ import annotations

from claim_checks import claim, stated, unrecoverable
from extractor.api import extract_text


def _post(setup: str) -> str:
    return f"""# Leaner inference on one accelerator

## Implementation

{setup}

## Results

The quantized model reaches 41.2 tokens/s.
"""


def test_a_statement_of_what_the_post_uses_covers_its_results():
    c = claim(extract_text(_post("In our implementation, we will use an MI210 GPU for every test."), "t.md"), 41.2)
    assert stated(c, "hardware").value == "1x MI210"
    assert stated(c, "parallelism").value == "single GPU"
    c = claim(extract_text(_post("In this tutorial, we'll be running Llama-3.1-8B-Instruct."), "t.md"), 41.2)
    assert stated(c, "model").value == "Llama-3.1-8B-Instruct"


def test_a_statement_about_one_step_or_a_possibility_does_not():
    for text in ("For the calibration step, we will use an MI210 GPU.",
                 "In this blog, readers could use an MI210 GPU as well.",
                 "We will use an MI210 GPU to convert the weights."):
        unrecoverable(claim(extract_text(_post(text), "t.md"), 41.2), "hardware")
