"""Phrasing cases per condition kind (own sample sentences, not from any post)."""
from __future__ import annotations

import pytest

from extractor.conditions.mentions import Mention, find_mentions


def _of(text: str, kind: str) -> list[Mention]:
    return [m for m in find_mentions(text) if m.kind == kind]


def _one(text: str, kind: str) -> Mention:
    found = _of(text, kind)
    assert found, f"no {kind} in {text!r}: {find_mentions(text)}"
    return found[0]


@pytest.mark.parametrize("text,quote,canonical", [
    ("We served Llama-3.1-70B-Instruct-FP8 on the cluster.", "Llama-3.1-70B-Instruct-FP8", "Llama 3.1 70B"),
    ("The Llama2-13B checkpoint was used.", "Llama2-13B", "Llama 2 13B"),
    ("Results for Llama 3.3 70B follow.", "Llama 3.3 70B", "Llama 3.3 70B"),
    ("Our run of Qwen3.5-397B-A17B-NVFP4 shows", "Qwen3.5-397B-A17B-NVFP4", "Qwen3.5 397B"),
    ("A DeepSeek-R1-0528 deployment", "DeepSeek-R1-0528", "DeepSeek R1"),
    ("a Falcon-180B model", "Falcon-180B", "Falcon 180B"),
    ("we test GPT-J 6B today", "GPT-J 6B", "GPT-J 6B"),
    ("serving gpt-oss-120b with", "gpt-oss-120b", "gpt-oss 120B"),
    ("the Mixtral-8x7B MoE", "Mixtral-8x7B", "Mixtral 8x7B"),
    ("loaded meta-llama/Llama-3.2-1B-Instruct for", "meta-llama/Llama-3.2-1B-Instruct", "Llama 3.2 1B"),
    ("compared to QwQ-32B and", "QwQ-32B", "QwQ 32B"),
    ("Kimi K2 runs on", "Kimi K2", "Kimi K2"),
])
def test_model_names_full_surface(text: str, quote: str, canonical: str) -> None:
    m = _one(text, "model")
    assert m.quote == quote
    assert m.canonical == canonical


def test_model_quant_suffix_also_yields_precision() -> None:
    text = "We ran Qwen3.5-397B-A17B-NVFP4 end to end."
    prec = _one(text, "precision")
    assert prec.quote == "NVFP4"
    assert text[prec.span[0]:prec.span[1]] == "NVFP4"
    assert prec.span[0] > text.index("Qwen")


def test_family_in_prose_is_a_model_mention() -> None:
    assert _one("the Llama architecture is dense", "model").quote == "Llama"


@pytest.mark.parametrize("text,canonical,count", [
    ("on 8xH200 with", "NVIDIA H200", 8),
    ("a 8×B200 node", "NVIDIA B200", 8),
    ("using 8 H100 GPUs for", "NVIDIA H100", 8),
    ("a pool of 96 H100 GPUs", "NVIDIA H100", 96),
    ("an H200 SXM board", "NVIDIA H200", None),
    ("NVIDIA H200 results", "NVIDIA H200", None),
    ("inside a single DGX H100 we", "NVIDIA H100", 8),
    ("on 16 NVIDIA GB300 NVL72 GPUs", "NVIDIA GB300", 16),
    ("with 4x MI355X accelerators", "AMD MI355X", 4),
    ("an Intel Xeon 6 host", "Intel Xeon 6", None),
    ("on TPU v6e slices", "Google TPU v6e", None),
])
def test_hardware_canonical_and_count(text: str, canonical: str, count: int | None) -> None:
    m = _one(text, "hardware")
    assert m.canonical == canonical
    assert m.count == count


@pytest.mark.parametrize("text,canonical,version", [
    ("benchmarked with vLLM 0.10.1 on", "vLLM", "0.10.1"),
    ("SGLang v0.4 brings", "SGLang", "v0.4"),
    ("TensorRT-LLM v0.7a was", "TensorRT-LLM", "v0.7a"),
    ("image vllm/vllm-openai:nightly-d223c90 was", "vLLM", "nightly-d223c90"),
    ("pull lmsysorg/sglang:v0.4.6-cu124 first", "SGLang", "v0.4.6-cu124"),
    ("vLLM at commit 0a1b2c3d4e5f was", "vLLM", "0a1b2c3d4e5f"),
    ("TRT-LLM 1.2.0.dev20260526 shows", "TensorRT-LLM", "1.2.0.dev20260526"),
    ("we compare with llama.cpp here", "llama.cpp", None),
])
def test_engine_versions(text: str, canonical: str, version: str | None) -> None:
    m = _one(text, "engine")
    assert m.canonical == canonical
    assert m.version == version


def test_engine_speedup_is_not_a_version() -> None:
    m = _one("vLLM 1.5x faster than before", "engine")
    assert m.version is None


@pytest.mark.parametrize("text,isl,osl", [
    ("measured at ISL/OSL = 4096/512 tokens", 4096, 512),
    ("with ISL 4K / OSL 1K and", 4000, 1000),
    ("workload in=2048, out=256 here", 2048, 256),
    ("64 input tokens and 256 output tokens", 64, 256),
    ("lengths 16k/2048 were", 16384, 2048),
])
def test_io_length_pairs(text: str, isl: int, osl: int) -> None:
    assert _one(text, "input_length").value == isl
    assert _one(text, "output_length").value == osl


def test_k_base_from_caller() -> None:
    ms = find_mentions("the 4K/1K case", k_base=1024)
    assert [m.value for m in ms if m.kind in ("input_length", "output_length")] == [4096, 1024]


@pytest.mark.parametrize("text,kind,value", [
    ("input length 3000 was used", "input_length", 3000),
    ("3000-token input sequences", "input_length", 3000),
    ("input sequences of 1500 tokens", "input_length", 1500),
    ("a prompt length of 700", "input_length", 700),
    ("--random-input-len 900 --random-output-len 90", "output_length", 90),
    ("output length of 300 tokens", "output_length", 300),
])
def test_single_lengths(text: str, kind: str, value: int) -> None:
    assert _one(text, kind).value == value


@pytest.mark.parametrize("text,value,sweep", [
    ("at batch size 48 the", 48, False),
    ("bs=16 gives", 16, False),
    ("concurrency 128 yields", 128, False),
    ("with a max concurrency of 2048 we", 2048, False),
    ("with 32 concurrent requests in flight", 32, False),
    ("cc=4096 point", 4096, False),
    ("--max-concurrency 96", 96, False),
    ("We swept concurrency from 8 up to 4096.", {"min": 8, "max": 4096}, True),
    ("batch sizes 1 to 512 were tried", {"min": 1, "max": 512}, True),
    ("concurrency 2, 8, 32, 128 in turn", {"min": 2, "max": 128, "values": [2, 8, 32, 128]}, True),
    ("request rate 6 req/s", {"rate": 6}, False),
    ("QPS 3 steady", {"rate": 3}, False),
])
def test_batch_or_concurrency(text: str, value, sweep: bool) -> None:
    m = _one(text, "batch_or_concurrency")
    assert m.value == value
    assert m.sweep is sweep


@pytest.mark.parametrize("text,quote", [
    ("we used TP8 for decode", "TP8"),
    ("TP=4 on prefill", "TP=4"),
    ("a TP4xEP8 layout", "TP4xEP8"),
    ("the DEP16 decode side", "DEP16"),
    ("pipeline PP2 only", "PP2"),
    ("a tensor parallel size of 8", "tensor parallel size of 8"),
    ("tensor parallelism of 4 gave", "tensor parallelism of 4"),
    ("with DP Attention enabled", "DP Attention"),
    ("launch --tp 8 now", "--tp 8"),
])
def test_parallelism(text: str, quote: str) -> None:
    assert _one(text, "parallelism").quote == quote


def test_gpu_count_nodes_times_per_node() -> None:
    m = _one("We used 6 nodes, each with 8 H200 GPUs.", "gpu_count")
    assert m.value == {"nodes": 6, "gpus_per_node": 8, "total": 48}
    hw = _one("We used 6 nodes, each with 8 H200 GPUs.", "hardware")
    assert (hw.count, hw.nodes) == (48, 6)   # the devices of the measured system, over 6 machines


def test_gpu_count_plain() -> None:
    assert _one("scaled to 64 GPUs", "gpu_count").value == 64


@pytest.mark.parametrize("text", [
    "each run starts with a warm-up phase",
    "after 10 warmup iterations we measure",
    "pass --warmup 5 to the script",
    "we discarded the first 3 runs",
    "set warm_up_steps=2 in config",
])
def test_warmup(text: str) -> None:
    assert _of(text, "warmup")


def test_warm_cache_is_not_warmup() -> None:
    assert not _of("requests hit a warm cache most of the time", "warmup")


@pytest.mark.parametrize("text,canonical", [
    ("the MLPerf Server scenario", "Server"),
    ("MLPerf Inference Offline numbers", "Offline"),
    ("a single-stream setting", "SingleStream"),
    ("an offline throughput benchmark", "Offline"),
    ("in the min-latency case", "min-latency"),
    ("the max throughput scenario", "max-throughput"),
    ("at a fixed request rate", "fixed-rate"),
])
def test_scenarios(text: str, canonical: str) -> None:
    assert _one(text, "scenario").canonical == canonical


@pytest.mark.parametrize("text", [
    "The release keeps every online serving feature we ship, such as streaming.",
    "Brisk is an offline inference engine for batch jobs.",
    "It adds online serving support for vision models.",
    "the offline batch API accepts JSONL files",
])
def test_online_offline_naming_a_product_is_not_a_scenario(text: str) -> None:
    assert not _of(text, "scenario")


@pytest.mark.parametrize("text,isl,osl", [
    ("each request has 2048 input and 256 output tokens", 2048, 256),
    ("we fixed 4096 prompt tokens and 512 generated tokens", 4096, 512),
    ("the 2k input / 128 output case", 2048, 128),
    ("runs with 1024 input, 512 output at 8 users", 1024, 512),
])
def test_coordinated_input_and_output_lengths(text: str, isl: int, osl: int) -> None:
    assert (_one(text, "input_length").value, _one(text, "output_length").value) == (isl, osl)


@pytest.mark.parametrize("text", [
    "the router has 3 input and 4 output queues",
    "a mixer with 2 input, 6 output ports",
])
def test_counts_of_other_input_and_output_things_are_no_lengths(text: str) -> None:
    assert not _of(text, "input_length") and not _of(text, "output_length")


@pytest.mark.parametrize("text,quote,canonical", [
    ("PicoChat-3B is our smallest model yet.", "PicoChat-3B", "PicoChat 3B"),
    ("we load acme/Orca-Mini-13B-Instruct from the hub", "acme/Orca-Mini-13B-Instruct", "Orca-Mini 13B"),
    ("the BERT-340M encoder", "BERT-340M", "BERT 340M"),
    ("Qwen2.5-7B-Instruct served", "Qwen2.5-7B-Instruct", "Qwen2.5 7B"),   # a known family keeps its entry
])
def test_a_name_with_a_size_suffix_is_a_model(text: str, quote: str, canonical: str) -> None:
    m = _one(text, "model")
    assert (m.quote, m.canonical) == (quote, canonical)


@pytest.mark.parametrize("text", ["Figure-3B shows the sweep.", "Phase-2B of the rollout", "a 3B model",
                                  "H100-80GB cards"])
def test_labels_and_bare_sizes_are_no_model(text: str) -> None:
    assert not _of(text, "model")


@pytest.mark.parametrize("text,version", [
    ("we built llama.cpp b4321 from source", "b4321"),
    ("llama.cpp build 3990 on the board", "3990"),
    ("vLLM b200 GPUs ran the sweep", None),          # a chip, not a build
    ("llama.cpp builds 3 times faster", None),
])
def test_an_engine_build_number_is_its_version(text: str, version: str | None) -> None:
    assert _one(text, "engine").version == version


@pytest.mark.parametrize("text,n", [
    ("At 8 users: 41 tok/s per user", 8),
    ("with 32 clients the queue stayed short", 32),
    ("latency under 4 users was flat", 4),
])
def test_users_a_result_was_measured_at_are_the_concurrency(text: str, n: int) -> None:
    assert _one(text, "batch_or_concurrency").value == n


@pytest.mark.parametrize("text", ["a service with 9,000 users per day", "We have 64 users on the beta."])
def test_a_user_base_is_no_concurrency(text: str) -> None:
    assert not _of(text, "batch_or_concurrency")


@pytest.mark.parametrize("text,found", [
    ("prompts from the sonnet dataset", True),
    ("--dataset-name sonnet --num-prompts 200", True),
    ("9x faster than Claude 3.7 Sonnet on our prompts", False),
    ("Claude Sonnet 4 answered in 2 s", False),
])
def test_the_sonnet_prompt_set_is_not_the_model_of_that_name(text: str, found: bool) -> None:
    assert bool(_of(text, "dataset")) is found


@pytest.mark.parametrize("text,kept", [
    ("We serve Mixtral-8x22B with a draft model of Mistral-7B at batch 4.", ["Mixtral-8x22B"]),
    ("Qwen3-32B with Qwen3-0.6B as the draft model kept its accuracy.", ["Qwen3-32B"]),
    ("the Llama 3.2 1B drafter speeds up Llama 3.3 70B", ["Llama 3.3 70B"]),
    ("Draft model: Qwen3-0.6B", []),
    ("EAGLE-3 draft heads for Llama-3.1-8B were trained in a day.", ["Llama-3.1-8B"]),
])
def test_a_draft_model_is_no_model_of_the_run(text: str, kept: list[str]) -> None:
    assert [m.quote for m in _of(text, "model")] == kept


@pytest.mark.parametrize("text", [
    "Scenario B: single stream (one request in flight)",
    "Single-stream latency stays under 9 ms.",
    "a single-stream run on one card",
    "we repeat it in multi-stream mode",
])
def test_single_stream_naming_how_load_was_offered_is_a_scenario(text: str) -> None:
    assert _one(text, "scenario").canonical in ("SingleStream", "MultiStream")


@pytest.mark.parametrize("text", [
    "With 32 users online, a single stream sees about 40 tok/s.",
    "each single stream gets its own KV blocks",
    "The decoder emits one stream per request.",
])
def test_single_stream_counting_streams_is_not_a_scenario(text: str) -> None:
    assert not _of(text, "scenario")


@pytest.mark.parametrize("text", [
    "We measured it as an online serving benchmark with Poisson arrivals.",
    "In offline inference mode the node reached its peak.",
])
def test_online_offline_naming_how_load_was_offered_is_a_scenario(text: str) -> None:
    assert _of(text, "scenario")


@pytest.mark.parametrize("text,canonical", [
    ("prefix caching is disabled for all runs", "disabled"),
    ("with prefix caching enabled", "enabled"),
    ("start with --enable-prefix-caching", "enabled"),
    ("RadixAttention reuses", "RadixAttention"),
    ("the cache hit rate was 40%", "cache hit rate"),
])
def test_prefix_caching(text: str, canonical: str) -> None:
    assert _one(text, "prefix_caching").canonical == canonical


@pytest.mark.parametrize("text,canonical", [
    ("EAGLE-3 drafting helps", "EAGLE-3"),
    ("speculative decoding with a draft model", "speculative decoding"),
    ("we enable MTP3 here", "MTP"),
])
def test_speculative(text: str, canonical: str) -> None:
    assert _one(text, "speculative_decoding").canonical == canonical


@pytest.mark.parametrize("text,canonical", [
    ("prompts from ShareGPT were", "ShareGPT"),
    ("a random dataset with", "random"),
    ("accuracy on GSM8K stayed", "GSM8K"),
    ("scores on MMLU match", "MMLU"),
    ("--dataset-name sonnet --num-prompts 10", "sonnet"),
])
def test_datasets(text: str, canonical: str) -> None:
    assert _one(text, "dataset").canonical == canonical


def test_random_range_ratio_value() -> None:
    m = _one("flags --random-range-ratio 0.5 set", "dataset")
    assert m.value == {"name": "random", "random_range_ratio": 0.5}


@pytest.mark.parametrize("text", [
    "FP8 KV cache halves memory",
    "weights in BF16",
    "an INT4 AWQ checkpoint",
    "W4A16 kernels",
])
def test_precisions(text: str) -> None:
    assert _of(text, "precision")


@pytest.mark.parametrize("text,canonical", [
    ("vllm bench serve --model x --max-concurrency 8", "vllm bench"),
    ("python3 -m sglang.bench_serving --backend sglang", "sglang.bench_serving"),
    ("trtllm-bench --model y throughput", "trtllm-bench"),
    ("guidellm benchmark --target http://localhost:8000", "guidellm"),
])
def test_command_lines(text: str, canonical: str) -> None:
    assert _one(text, "command_line").canonical == canonical


def test_masked_markup_is_fine() -> None:
    text = "Throughput of   Qwen3   on   8xH100   at   TP8  ."
    kinds = {m.kind for m in find_mentions(text)}
    assert {"model", "hardware", "parallelism"} <= kinds


@pytest.mark.parametrize("text,quote,canonical", [
    ("We ran Orion4-Nano on two cards.", "Orion4-Nano", "Orion4 Nano"),
    ("the acme/Zephyr2.5-Flash checkpoint", "acme/Zephyr2.5-Flash", "Zephyr2.5 Flash"),
    ("Serving Tessera12-Ultra-FP8 at scale", "Tessera12-Ultra-FP8", "Tessera12 Ultra"),
    ("MiniMax-Q7 was served", "MiniMax-Q7", "MiniMax Q7"),   # a maker's name and a versioned letter
])
def test_a_versioned_name_with_a_tier_is_a_model(text: str, quote: str, canonical: str) -> None:
    m = _one(text, "model")
    assert (m.quote, m.canonical) == (quote, canonical)


@pytest.mark.parametrize("text", [
    "an Orion4-Mini-style stack",          # a name used as a kind
    "the MI300-Pro board",                 # a device, not a model
    "GB300-Max racks",
    "the Step2-Pro plan",                  # a label
    "Figure3-Max shows the peak",
    "X1-Nano sensor",                      # one letter before the digits
])
def test_tier_words_after_devices_or_labels_are_no_model(text: str) -> None:
    assert not _of(text, "model")


@pytest.mark.parametrize("text,values", [
    ("ISL=4K, OSL=512, 32 & 96 concurrent requests", [32, 96]),
    ("measured at 4, 12 and 40 concurrent users", [4, 12, 40]),
    ("with 2 or 6 parallel streams", [2, 6]),
])
def test_several_loads_before_one_noun_are_a_sweep(text: str, values: list[int]) -> None:
    assert _one(text, "batch_or_concurrency").value["values"] == values


@pytest.mark.parametrize("text,n", [
    ("on 4 GPUs and 24 concurrent requests", 24),     # a count of something else before the load
    ("we sent 72 concurrent requests", 72),
])
def test_one_load_after_another_count_stays_one(text: str, n: int) -> None:
    assert _one(text, "batch_or_concurrency").value == n


@pytest.mark.parametrize("text,n", [
    ("the cache needs 7 GiB per sequence at 1M context", 1000000),
    ("TTFT at 64K context length stays under 3 s", 64000),
    ("decode speed at 16K tokens of context", 16000),
])
def test_a_result_at_a_context_length_has_that_input_length(text: str, n: int) -> None:
    assert _one(text, "input_length").value == n


@pytest.mark.parametrize("text", [
    "the model has a 256K context window",
    "it supports 1M context out of the box",
    "up to 128K context",
    "runs at 32K context window sizes",
])
def test_a_models_context_capacity_is_no_input_length(text: str) -> None:
    assert not _of(text, "input_length")


@pytest.mark.parametrize("spelled,n", [("1,048,576", 1048576), ("1,000,000", 1000000)])
def test_a_token_count_written_out_tells_how_the_post_reads_m_and_k(spelled: str, n: int) -> None:
    from claim_checks import claim, stated
    from extractor.api import extract_text
    text = (f"# Long context\n\nOur new layout cuts the KV cache to 3.25 GiB per sequence at 1M context, 6x less "
            f"than before.\n\n## Appendix\n\n"
            f"At {spelled} tokens the cache holds every layer's entries.\n")
    assert stated(claim(extract_text(text, "t.md"), 3.25), "input_length").value == n


@pytest.mark.parametrize("text,lo,hi", [
    ("- Request rate: 0.25 to 6 (step 0.25)", 0.25, 6),
    ("we used request rates of 1.5-12 req/s", 1.5, 12),
])
def test_a_labelled_range_of_request_rates_is_a_sweep(text: str, lo: float, hi: float) -> None:
    assert _one(text, "batch_or_concurrency").value == {"min": lo, "max": hi}


@pytest.mark.parametrize("text,rate", [("attainment drops to 41% at rate 9", 9), ("at rate = 2.5 the queue grows", 2.5)])
def test_a_result_at_one_rate_of_a_sweep(text: str, rate: float) -> None:
    assert _one(text, "batch_or_concurrency").value == {"rate": rate}


@pytest.mark.parametrize("text", ["the request rate grew 2 to 3x", "at rate 10% of peak", "a rate limiter"])
def test_growth_of_a_rate_is_no_load(text: str) -> None:
    assert not _of(text, "batch_or_concurrency")


@pytest.mark.parametrize("text,values", [
    ("we sweep concurrency levels C ∈ {1,2,4,8,16}", [1, 2, 4, 8, 16]),   # commas without spaces: five values
    ("batch sizes 1,024, 2,048 and 4,096", [1024, 2048, 4096]),            # thousands separators stay
])
def test_a_list_of_loads_is_read_value_by_value(text: str, values: list[int]) -> None:
    assert _one(text, "batch_or_concurrency").value["values"] == values
