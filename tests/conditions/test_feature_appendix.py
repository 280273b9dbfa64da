"""A back-matter section per feature ("Appendix > Benchmark instructions for paged decoding") holds the commands of
the results in the section about that feature ("Paged decoding latency improvements"): its heading, less the
words of scopes.yaml `back_matter_feature_words`, names the feature (rungs_local.py `feature_appendix`). An appendix
for another feature, or a claim whose own section shows its command, reads nothing from it."""
from __future__ import annotations

import pytest

from tests.claim_checks import claim_in, stated, unrecoverable

POST = """# Release 3.2

## Paged decoding latency improvements

Paged decoding now cuts decode latency by up to 1.7x at small batch sizes.

## Speculative drafts

Drafts are now trained in one pass.

## Appendix

### Benchmark instructions for paged decoding

```
# launch the server
python3 -m sglang.launch_server --model org/Orca-8B-Instruct --enable-paged-decoding

# run the benchmark
python3 -m sglang.bench_serving --backend sglang --dataset-name random --random-input-len 256 --random-output-len 640 --num-prompts 1
```

### Benchmark instructions for speculative drafts

```
python3 -m sglang.launch_server --model org/Orca-70B-Instruct --speculative-algorithm EAGLE

python3 -m sglang.bench_serving --backend sglang --dataset-name sharegpt --num-prompts 800
```
"""


def test_the_appendix_of_the_claims_feature_gives_its_run():
    c = claim_in(POST, 1.7)
    assert stated(c, "model").value == "org/Orca-8B-Instruct"
    assert stated(c, "input_length").value == 256
    assert stated(c, "output_length").value == 640


def test_an_appendix_for_another_feature_gives_nothing():
    text = POST.replace("### Benchmark instructions for paged decoding", "### Benchmark instructions for prefix caching")
    c = claim_in(text, 1.7)
    unrecoverable(c, "input_length")
    unrecoverable(c, "model")


NUMBERED = """# Serving report

## 1. Setup

We serve org/Orca-8B-Instruct behind one router.

## 2. Throughput results

Decode throughput rises by 1.4x over the previous build.

## Appendix

### Setup 2

```
python3 -m sglang.bench_serving --backend sglang --dataset-name random --random-input-len 384 --random-output-len 96 --num-prompts 1
```
"""


def test_a_numbered_appendix_heading_names_no_feature():
    """"Setup 2" ("Run 2b") less the feature words is "2" ("2b"): a number, which the numbered heading
    "2. Throughput results" ("2b. ...") shares by chance; its command is no run of that claim."""
    for text in (NUMBERED, NUMBERED.replace("### Setup 2", "### Run 2b").replace("## 2. Throughput", "## 2b. Throughput")):
        c = claim_in(text, 1.4)
        unrecoverable(c, "input_length")
        unrecoverable(c, "output_length")


@pytest.mark.parametrize("section,appendix", [
    # a number beside words still names the section's feature
    ("## FP8 kernels v2 throughput", "### Reproducing the FP8 kernels v2 results"),
    # a dotted name is one word of its letters
    ("## 2. Faster decode with jit.trace", "### Commands for jit.trace"),
])
def test_a_feature_of_another_shape_gives_its_run(section: str, appendix: str):
    text = NUMBERED.replace("## 2. Throughput results", section).replace("### Setup 2", appendix)
    c = claim_in(text, 1.4)
    assert stated(c, "input_length").value == 384
    assert stated(c, "output_length").value == 96
