"""The size of a model's weights (model size, checkpoint, weights) is a property of the model, like its
parameter count, not a measured result: an amount of memory named so is no claim; a memory ratio and a
measured memory figure stay claims. Every sentence here is written for the test."""
from __future__ import annotations

import pytest

from extractor.api import extract_text


def values(text: str) -> list[float]:
    return [c.value for c in extract_text(text, doc="t.md").claims if c.metric == "memory"]


@pytest.mark.parametrize("text", [
    "Quantising the experts shrinks the model sizes to 58 GB and 12 GB, so each fits on one card.",
    "With FP8 the checkpoint size drops to 71 GB for the large variant.",
    "INT4 brings the model weights down to 19 GB, small enough for a laptop GPU.",
    "The release ships a 36 GB checkpoint alongside the tokenizer.",
])
def test_size_of_the_weights_is_no_claim(text):
    assert values(text) == []
    reasons = {s.reason for s in extract_text(text, doc="t.md").set_aside if "GB" in s.quote}
    assert reasons == {"model_size"}          # set aside as the model's size, not left unexplained


@pytest.mark.parametrize("text,value", [
    ("With prefix caching, peak memory usage dropped to 61 GB per GPU.", 61),
    ("The new allocator reduces KV cache memory to 12 GB on the same workload.", 12),
    ("Against BF16, quantisation lowers the memory footprint of the checkpoint by 4x.", 4),
    ("After loading the model weights, the TP layout shows 29 GB free device memory per GPU.", 29),
    ("Peak memory fell to 48 GB, while the weights stayed in BF16.", 48),
])
def test_measured_memory_stays_a_claim(text, value):
    assert value in values(text)


def test_a_shared_memory_pool_is_not_the_model_size():
    # the weights are one of several subjects sharing the pool: the 96 GB is the device's, not the model's
    text = "The runtime, the model weights, and the KV cache share one 96 GB memory pool on this box."
    assert not [s for s in extract_text(text, doc="t.md").set_aside if s.reason == "model_size"]
