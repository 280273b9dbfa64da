"""Cloud instance types named as the machine of a run (issue 24, a name in the claim's own sentence or row):
AWS EC2/SageMaker accelerated families, GCP accelerator-optimized machine types and Azure N-series sizes are
hardware as written; the chips inside are not inferred. Every sentence is written for this test."""
from __future__ import annotations

import pytest

from extractor.conditions.mentions import find_mentions
from extractor.pipeline import Extractor


def _hardware(text: str) -> list[str]:
    return [m.quote for m in find_mentions(text) if m.kind == "hardware"]


def _hardware_of(extractor: Extractor, text: str) -> dict[str, str | None]:
    record = extractor.extract(text, doc="t.md", fmt="markdown", path=None, sha256="0")
    return {c.quote: c.conditions["hardware"].value for c in record.claims}


@pytest.mark.parametrize("text,quote", [
    ("We served it from an inf2.48xlarge instance.", "inf2.48xlarge"),
    ("The endpoint ran on ml.g5.12xlarge.", "ml.g5.12xlarge"),
    ("A p4d.24xlarge node handled the sweep", "p4d.24xlarge"),
    ("Our p5en.48xlarge fleet", "p5en.48xlarge"),
    ("on a g6e.xlarge with one GPU", "g6e.xlarge"),
    ("a trn1n.32xlarge cluster", "trn1n.32xlarge"),
    ("The GCP a3-highgpu-8g machine type", "a3-highgpu-8g"),
    ("a single g2-standard-8 VM", "g2-standard-8"),
    ("Azure Standard_ND96asr_v4 VMs", "Standard_ND96asr_v4"),
])
def test_an_instance_type_is_hardware_as_written(text: str, quote: str) -> None:
    assert quote in _hardware(text)


@pytest.mark.parametrize("text", [
    "The xlarge variant of the model is slower.",                 # a model size word
    "Load config.p4d.24xlarge.yaml before starting.",              # part of a file name
    "Pick the a2-standard profile in the console.",                # no machine size
    "We chose m5.2xlarge for the web tier.",                       # a CPU instance family outside the list
    "The g5 family is cheaper than p4d.",                           # families, no size
])
def test_no_instance_type(text: str) -> None:
    assert _hardware(text) == []


def test_each_claim_takes_the_instance_of_its_own_sentence(extractor: Extractor) -> None:
    text = ("# Results\n\nIn GPTQ, a 7B Falcon on one g5.2xlarge serves 64 tokens/sec per user. "
            "For peak load, Falcon 40B reached 512 tokens/sec on ml.p4d.24xlarge.\n")
    hw = _hardware_of(extractor, text)
    assert hw["64 tokens/sec per user"] == "g5.2xlarge"
    assert hw["512 tokens/sec"] == "ml.p4d.24xlarge"


def test_a_table_row_names_its_instance(extractor: Extractor) -> None:
    text = ("# Results\n\n| Model | Instance | Throughput (tokens/s) |\n|---|---|---|\n"
            "| Falcon 7B | g5.2xlarge | 61 |\n| Falcon 7B | inf2.8xlarge | 83 |\n")
    hw = _hardware_of(extractor, text)
    assert hw["61"] == "g5.2xlarge"
    assert hw["83"] == "inf2.8xlarge"


def test_an_instance_of_another_paragraph_is_not_taken(extractor: Extractor) -> None:
    text = ("# Costs\n\nA g5.2xlarge costs about a dollar an hour on demand.\n\n"
            "# Results\n\nAcross the runs we measured 58 tokens/sec on average for Falcon 7B, "
            "on a machine we do not name here.\n")
    hw = _hardware_of(extractor, text)
    assert hw["58 tokens/sec"] is None
