"""Engine versions in the forms writers give them (issue 11, class 10): a version in parentheses or after a
colon in a setup list, a pinned install, a commit written apart from the engine name, the tag of an image
whose name carries the engine. And what is no run's version: a figure after the name, a minimum, a commit a
fix landed in. Every sentence is written for this test."""
from __future__ import annotations

import pytest

from extractor.conditions.resolver import ConditionResolver
from extractor.ingest import ingest
from extractor.pipeline import Extractor
from extractor.rules_io import default_rules_dir


@pytest.fixture(scope="module")
def resolver() -> ConditionResolver:
    return ConditionResolver(default_rules_dir())


def _versions(resolver: ConditionResolver, text: str) -> list[tuple[str | None, str | None]]:
    d = ingest(text, "t.md", "markdown")
    return [(m.canonical, m.version) for m in resolver.mentions(d) if m.kind == "engine" and m.version]


@pytest.mark.parametrize("text,engine,version", [
    ("- vLLM (v0.9.2): the engine under test", "vLLM", "v0.9.2"),
    ("- **SGLang**: 0.4.9\n- **CUDA**: 12.8", "SGLang", "0.4.9"),
    ("Reproduce with pip install vllm==0.10.1 and the script below.", "vLLM", "0.10.1"),
    ("We served it with TensorRT-LLM (0.21.0) and FP8 weights.", "TensorRT-LLM", "0.21.0"),
    ("Runs used the image ghcr.io/someorg/vllm-rocm:2b3c4d5 on every node.", "vLLM", "2b3c4d5"),
    ("The image docker.io/rocm/vllm:rocm6.3.1_vllm_0.8.5_20250521 served every request.", "vLLM",
     "rocm6.3.1_vllm_0.8.5_20250521"),
    ("The container rocm/sgl-dev:v0.4.9-rocm630-mi30x ran the server.", "SGLang", "v0.4.9-rocm630-mi30x"),
    ("The image openmmlab/lmdeploy:v0.7.3-cu12 served the model.", "LMDeploy", "v0.7.3-cu12"),
    ("ollama/ollama:0.6.8 ran the quantised model on one laptop.", "Ollama", "0.6.8"),
])
def test_version_forms_next_to_the_engine(resolver: ConditionResolver, text: str, engine: str, version: str) -> None:
    assert (engine, version) in _versions(resolver, text)


@pytest.mark.parametrize("text", [
    "The new vLLM: 2.5x faster than before on long prompts.",   # a figure after a colon
    "SGLang (0.25 s) answered first in every run.",            # a latency in parentheses
    "This needs vLLM (>= 0.13) or a newer release.",           # a minimum
    "Pin vllm>=0.8 in your requirements file.",                # a minimum pin
])
def test_no_version_next_to_the_engine(resolver: ConditionResolver, text: str) -> None:
    assert _versions(resolver, text) == []


def test_a_commit_apart_from_the_engine_name_in_a_one_engine_post(resolver: ConditionResolver) -> None:
    text = "We benchmarked the kernels with vLLM on H200 GPUs (commit 9f8e7d6c5b) and report the mean."
    assert _versions(resolver, text) == [("vLLM", "9f8e7d6c5b")]
    text = "Software: SGLang built at commit a1b2c3d4e5f6, with CUDA 12.8."
    assert _versions(resolver, text) == [("SGLang", "a1b2c3d4e5f6")]


@pytest.mark.parametrize("text", [
    "This regression was fixed in commit a1b2c3d4e5f6 of vLLM.",                     # where a fix landed
    "vLLM reverted commit a1b2c3d4e5f6 last week.",                                   # a revert
    "We compared vLLM and SGLang on H200 GPUs (commit 9f8e7d6c5b) for a week.",       # two engines: whose?
    "The vLLM run id was (commit deadbeef) in the log.",                              # no digit: not a hash
])
def test_commits_that_are_no_runs_version(resolver: ConditionResolver, text: str) -> None:
    assert _versions(resolver, text) == []


POST = """# Faster decoding

## Benchmarks

We measured everything with vLLM on four H100 GPUs (commit 0a1b2c3d4e5f). Results follow.

### Throughput

The new scheduler reaches 7,400 output tokens per second at a concurrency of 32.
"""


def test_the_commit_is_the_claims_engine_version_written_as_a_commit() -> None:
    record = Extractor.from_rules().extract(POST, doc="t.md", fmt="markdown", path=None, sha256="0")
    [claim] = [c for c in record.claims if c.quote.startswith("7,400")]
    ev = claim.conditions["engine_version"]
    assert (ev.status, ev.value, ev.canonical) == ("stated", "vLLM commit 0a1b2c3d4e5f", "vLLM")
    assert POST[ev.span[0]:ev.span[1]] == ev.quote == "0a1b2c3d4e5f"


TABLE = """# Upgrade results

We benchmarked {engines} on one H100 with Llama-3.1-8B at a concurrency of 16.

| Build | Output throughput (tok/s) | Median TTFT (ms) |
|---|---|---|
| before (v0.8.5) | 1,740 | 210 |
| after (v0.9.1) | 2,050 | 180 |
"""


def test_a_version_in_the_claims_table_row_is_its_engine_version() -> None:
    post = TABLE.format(engines="vLLM")
    record = Extractor.from_rules().extract(post, doc="t.md", fmt="markdown", path=None, sha256="0")
    got = {c.quote: (c.conditions["engine_version"].value, c.conditions["engine_version"].scope)
           for c in record.claims}
    assert got["1,740"] == ("vLLM v0.8.5", "table_row")
    assert got["2,050"] == ("vLLM v0.9.1", "table_row")


def test_a_bare_version_in_a_post_about_two_engines_is_nobodys() -> None:
    post = TABLE.format(engines="vLLM and SGLang")
    record = Extractor.from_rules().extract(post, doc="t.md", fmt="markdown", path=None, sha256="0")
    assert all(c.conditions["engine_version"].status == "unrecoverable" for c in record.claims)
