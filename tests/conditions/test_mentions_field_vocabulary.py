"""Condition vocabulary of the whole field (issue 11, classes 3, 9, 10): what is a run's setting and what is
not, hardware/engines/datasets beyond the posts the rules were written on, and configuration forms.
Every sentence is written for this test."""
from __future__ import annotations

import pytest

from extractor.conditions.mentions import Mention, find_mentions


def _of(text: str, kind: str) -> list[Mention]:
    return [m for m in find_mentions(text) if m.kind == kind]


# -- class 3: mentions that are not the measurement's condition ------------------------------------------
@pytest.mark.parametrize("text,kind", [
    ("The new kernels support FP8, BF16 and INT4 weights.", "precision"),
    ("This release adds support for tensor, data and pipeline parallelism.", "parallelism"),
    ("The checkpoint is compatible with H100 and MI300X accelerators.", "hardware"),
    ("Our scheduler works with EAGLE and Medusa drafts.", "speculative_decoding"),
    ("---\ntags: [fp8, H100, vllm]\ntitle: Notes\n---\n", "precision"),
    ("---\nkeywords:\n  - H200\n  - tensor parallelism\n---\n", "hardware"),
])
def test_capability_lists_and_tags_are_not_settings(text: str, kind: str) -> None:
    assert _of(text, kind) == []


@pytest.mark.parametrize("text,kind,quote", [
    ("We served the FP8 checkpoint on 8x H100 GPUs.", "precision", "FP8"),
    ("We served the FP8 checkpoint on 8x H100 GPUs.", "hardware", "8x H100"),
    ("The support team ran everything on two H200 GPUs.", "precision", None),   # no precision at all
    # a support statement stops at its sentence (and clause): the measured setup next to it stays
    ("The library supports INT4 weights; our run used FP8 on one H100.", "precision", "FP8"),
    ("Kernels support many formats. We measured BF16 throughput on B200.", "precision", "BF16"),
])
def test_settings_beside_a_capability_statement_stay(text: str, kind: str, quote: str | None) -> None:
    found = _of(text, kind)
    assert [m.quote for m in found] == ([quote] if quote else [])


@pytest.mark.parametrize("text", [
    "We turn on CUDA graphs for batch sizes 1 to 64, where launch overhead dominates.",
    "The fused MoE kernel is enabled only for batch sizes 1 to 16.",
    "The team switched on the new allocator for all batch sizes from 8 to 256.",
])
def test_the_batch_range_a_feature_is_enabled_for_is_not_a_setting(text: str) -> None:
    assert _of(text, "batch_or_concurrency") == []


@pytest.mark.parametrize("text,quote", [
    ("We enable prefix caching and measure throughput for batch sizes 1 to 64.", "batch sizes 1 to 64"),
    ("For batch sizes 1 to 64, the fused kernel wins.", "batch sizes 1 to 64"),
    ("With CUDA graphs enabled for batch size 8, decoding is faster.", "batch size 8"),   # one measured point
])
def test_a_measured_batch_sweep_beside_an_enabled_feature_stays(text: str, quote: str) -> None:
    assert [m.quote for m in _of(text, "batch_or_concurrency")] == [quote]


@pytest.mark.parametrize("text", [
    "The kernels target MoE models such as Mixtral 8x7B/8x22B/8x7B-Instruct.",
    "The recipe covers Qwen3 4B/8B/14B.",
    "Llama 3 8B / 70B / 405B all load with the new loader.",
])
def test_a_name_with_several_slashed_variants_is_no_measured_model(text: str) -> None:
    assert _of(text, "model") == []


@pytest.mark.parametrize("text,quote", [
    ("We serve Llama-3.1-8B at 2k/1k ISL/OSL.", "Llama-3.1-8B"),
    ("Results for Llama-3.1-70B/FP8 on one H100.", "Llama-3.1-70B"),     # one variant: a precision, kept
    ("Llama-3.1-8B with 1k/1k/2k prompt lengths.", "Llama-3.1-8B"),
])
def test_a_model_beside_other_slashed_figures_stays(text: str, quote: str) -> None:
    assert [m.quote for m in _of(text, "model")] == [quote]


@pytest.mark.parametrize("text", [
    "The V1 engine of vLLM V1 reworks the scheduler.",      # an architecture name, not a release
    "Install vLLM v0.7.3+ before trying the recipe.",        # a minimum version
    "It requires SGLang 0.4.1 or later.",
    "pip install 'vllm>=0.10.2' first.",
    "You need at least vLLM 0.9 for this feature.",
])
def test_architecture_names_and_minimum_versions_are_not_versions(text: str) -> None:
    engines = _of(text, "engine")
    assert engines, text                                    # the engine stays named: it becomes value_partial
    assert all(m.version is None for m in engines), engines


@pytest.mark.parametrize("text,version", [
    ("We benchmarked vLLM v0.9.1 on the new nodes.", "v0.9.1"),
    ("All numbers come from SGLang v0.4.3.", "v0.4.3"),              # a version ending the sentence
    ("Built with TensorRT-LLM 0.17.0.post1 today.", "0.17.0.post1"),
])
def test_a_pinned_version_is_still_read(text: str, version: str) -> None:
    assert [m.version for m in _of(text, "engine")] == [version]


# -- class 9: gazetteers of the whole field ------------------------------------------------------------
@pytest.mark.parametrize("text,canonical", [
    ("The cluster runs Tesla V100 cards.", "NVIDIA V100"),
    ("A GB300 NVL72 rack served the model.", "NVIDIA GB300"),
    ("We tried NVIDIA Blackwell Ultra for the long runs.", "NVIDIA Blackwell Ultra"),
    ("An Instinct MI100 node and an MI355X node.", "AMD MI100"),
    ("Numbers on Intel Gaudi 3 are below.", "Intel Gaudi 3"),
    ("It runs on an Intel Arc Pro B60 workstation card.", "Intel Arc Pro B60"),
    ("The Intel Data Center GPU Max 1550 was used.", "Intel Data Center GPU Max 1550"),
    ("A TPU v5e-8 slice served it.", "Google TPU v5e"),
    ("We also measured a v6e-1 slice.", "Google TPU v6e"),
    ("AWS Inferentia2 instances were cheapest.", "AWS Inferentia2"),
    ("The CPU baseline is AWS Graviton4.", "AWS Graviton4"),
    ("An Ampere Altra Max server handled it.", "Ampere Altra Max"),
    ("Our laptop numbers use an Apple M3 Max.", "Apple M3 Max"),
    # workstation cards of the Ampere generation and a data-center card sold in China
    ("The desk machine holds an RTX A6000 with 48 GB.", "NVIDIA RTX A6000"),
    ("Smaller models were served on an A4000 GPU.", "NVIDIA A4000"),
    ("Two A5000 cards shared the load.", "NVIDIA A5000"),
    ("The L20 node handled the long prompts.", "NVIDIA L20"),
    # TPU generations by their code name alone
    ("Decode got 12% faster on Trillium (v6e).", "Google TPU Trillium"),
    ("We served it on Google Ironwood.", "Google TPU Ironwood"),
])
def test_hardware_of_the_field(text: str, canonical: str) -> None:
    assert canonical in [m.canonical for m in _of(text, "hardware")]


@pytest.mark.parametrize("text", [
    "Hopper introduced a new memory hierarchy.",            # an architecture alone spans many chips
    "We drove a v5 prototype of the tool.",                 # not a TPU slice
    "The Max setting of the slider.",
    "Fill in form A4001 for the refund.",                   # not a card's number
    "Route A6 and the L2 cache.",
    "A trillium flower grows in the shade.",                # the plant, lower case
])
def test_hardware_negatives(text: str) -> None:
    assert _of(text, "hardware") == []


@pytest.mark.parametrize("text,canonical", [
    ("Serving through Optimum-Habana on the node.", "Optimum Habana"),
    ("A CTranslate2 port and an OpenVINO build were tested.", "CTranslate2"),
    ("Our ONNX Runtime build was slower.", "ONNX Runtime"),
    ("DeepSpeed-FastGen served the same model.", "DeepSpeed-MII"),
    ("We compared against LMDeploy and MLC-LLM.", "LMDeploy"),
])
def test_engines_of_the_field(text: str, canonical: str) -> None:
    assert canonical in [m.canonical for m in _of(text, "engine")]


@pytest.mark.parametrize("text,canonical", [
    ("Perplexity on WikiText-2 stayed flat.", "WikiText-2"),
    ("Accuracy on ARC-Challenge and WinoGrande.", "ARC-Challenge"),
    ("Prompts were drawn from the BurstGPT trace.", "BurstGPT"),
    ("- Dataset: ShareGPT", "ShareGPT"),
    ("* **Dataset:** ShareGTP  ", "ShareGPT"),        # a misspelt value under an explicit label
])
def test_datasets_of_the_field(text: str, canonical: str) -> None:
    assert canonical in [m.canonical for m in _of(text, "dataset")]


def test_a_dataset_label_value_is_kept_as_written() -> None:
    [m] = _of("- Dataset: our internal chat logs", "dataset")
    assert m.value == "our internal chat logs" and m.canonical is None
    assert _of("The dataset is described below.", "dataset") == []


# -- class 10: configuration forms ---------------------------------------------------------------------
@pytest.mark.parametrize("text,kind,value", [
    ("rocm_serve --model m -tp 8 --port 80", "parallelism", "-tp 8"),
    ("(ISL=4K, OSL=1K, batch=128)", "batch_or_concurrency", 128),
    ("settings: num_warmups=3, seeds=5", "warmup", "num_warmups=3"),
    ("Every run used a single GPU.", "parallelism", "single GPU"),
    ("served on 1x H200 for this test", "parallelism", "single GPU"),
    ("input lengths swept from 512 to 32k tokens", "input_length", {"min": 512, "max": 32768}),
    ("output lengths varied between 128 and 2,048", "output_length", {"min": 128, "max": 2048}),
])
def test_configuration_forms(text: str, kind: str, value) -> None:
    assert value in [m.value for m in _of(text, kind)]


@pytest.mark.parametrize("text,kind", [
    ("Per-GPU numbers: the single-GPU throughput doubled.", "parallelism"),   # a per-GPU figure
    ("Tensor parallelism splits each layer across devices.", "parallelism"),  # a topic, not a setting
    ("The batch dimension is 3 in this kernel.", "batch_or_concurrency"),
    ("The rate stays flat while prompts lengthen from 1K to 32K tokens.", "input_length"),
])
def test_configuration_negatives(text: str, kind: str) -> None:
    assert _of(text, kind) == []


def test_device_counts_are_kept() -> None:
    for text, count in (("on 8 x MI300X", 8), ("a 1x MI300X box", 1), ("2x H100 with tensor parallelism", 2)):
        [hw] = _of(text, "hardware")
        assert hw.count == count, text
    assert [m.value for m in _of("2x H100 with tensor parallelism", "parallelism")] == ["tensor parallelism"]


def test_support_as_a_verb_after_to_is_a_capability() -> None:
    assert _of("It is the first engine to support speculative decoding with tensor parallelism.",
               "speculative_decoding") == []


@pytest.mark.parametrize("text", [
    "We borrowed ideas from DeepSeek's inference stack.",
    "The Qwen team shipped a new tokenizer.",
    "It uses a Llama-style chat template.",
])
def test_a_family_name_for_its_maker_or_as_an_adjective_is_no_model(text: str) -> None:
    assert _of(text, "model") == []


@pytest.mark.parametrize("text,canonical", [
    ("We served DeepSeek-V3.2 on the rack.", "DeepSeek V3.2"),
    ("A DeepSeek Coder V2 Lite run.", "DeepSeek Coder V2"),
    ("with Llama 4 Scout", "Llama 4"),
    ("Kimi K2.5 was the target.", "Kimi K2.5"),
    ("gemma-2-9b-it on one card", "Gemma 2 9B"),
])
def test_versioned_families_are_models(text: str, canonical: str) -> None:
    assert canonical in [m.canonical for m in _of(text, "model")]


@pytest.mark.parametrize("text,version", [
    ("docker run vllm/vllm-openai-rocm:nightly-0a1b2c3d for the test", "nightly-0a1b2c3d"),
    ("the lmsysorg/sglang-rocm:v0.4.9-rocm630 image", "v0.4.9-rocm630"),
    ("pulled vllm/vllm-openai:v0.10.0 first", "v0.10.0"),
])
def test_engine_images_with_a_platform_suffix_keep_their_tag(text: str, version: str) -> None:
    assert [m.version for m in _of(text, "engine")] == [version]
