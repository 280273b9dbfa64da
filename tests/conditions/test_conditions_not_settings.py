"""Mentions that are no setting of the measured run (issue 24, the guessed kinds): what a warm-up does to a
system, a heading that names a result, and the other negative rules, each with the positive case beside it."""
from __future__ import annotations

import pytest

from extractor.api import get_extractor
from extractor.conditions.mentions import MentionFinder
from extractor.rules_io import default_rules_dir

FINDER = MentionFinder(default_rules_dir())
EXTRACTOR = get_extractor()   # the one extractor of this test process


def _kinds(text: str, kind: str) -> list[str]:
    return [m.quote for m in FINDER.find(text) if m.kind == kind]


def _claim(text: str, quote: str):
    record = EXTRACTOR.extract(text, doc="t.md", fmt="markdown", path=None, sha256="0")
    return next(c for c in record.claims if quote in c.quote or any(quote in m.quote for m in c.mentions))


@pytest.mark.parametrize("sentence", [
    "Once the warm-up phase ends, the engine switches off its GEMM tuner for good.",
    "Restarts keep the compiled kernels, so the kernel warmup is not paid again.",
    "A summary: it keeps allocators, CUDA graphs and warm-up state when a model is swapped out.",
])
def test_a_warmup_that_prepares_the_system_is_no_setting(sentence):
    assert _kinds(sentence, "warmup") == []


@pytest.mark.parametrize("sentence", [
    "The kernels are warmed up with 20 requests before the clock starts.",
    "Graph capture happens during warm-up, and that time is excluded from the figures.",
    "After warm-up, the compiled kernel reaches 900 tokens per second.",
    "We ran 5 warm-up iterations before the timed loop.",
])
def test_a_warmup_of_the_measurement_is_kept(sentence):
    assert _kinds(sentence, "warmup") != []


RESULT_HEADING = """# Our engine on new accelerators

## Results

On the MI300X the engine serves Llama-3-70B at 1,840 tokens per second.

## Improving throughput for chat workloads

Our fine-tuning runs use a batch size of 6 on the same machine.
"""

SETUP_HEADING = """# Our engine on new accelerators

## Chat workloads

All runs use a batch size of 6.

## Results

On the MI300X the engine serves Llama-3-70B at 1,840 tokens per second.
"""


def test_a_heading_that_names_a_gain_sets_up_no_measurement():
    batch = _claim(RESULT_HEADING, "1,840 tokens per second").conditions["batch_or_concurrency"]
    assert batch.status == "unrecoverable"


def test_a_short_heading_naming_the_workload_still_sets_up_the_results():
    batch = _claim(SETUP_HEADING, "1,840 tokens per second").conditions["batch_or_concurrency"]
    assert (batch.status, batch.value, batch.scope) == ("stated", 6, "setup_section")


def test_the_goal_a_configuration_was_picked_for_is_no_load_scenario():
    assert _kinds("For max throughput, the 13B model reached 296 tokens/sec on the larger instance.", "scenario") == []
    assert _kinds("For the lowest latency, the small model answered in 16 ms per token.", "scenario") == []
    assert _kinds("Measured in the max-throughput scenario, the engine reached 296 tokens/sec.", "scenario") != []
    assert _kinds("At peak throughput the engine reached 296 tokens/sec.", "scenario") != []


def test_a_name_used_as_the_modifier_of_a_kind_is_no_model_or_device_measured():
    assert _kinds("That is 8.7x smaller than the estimate for a 61-layer Qwen3-style stack.", "model") == []
    assert _kinds("The design targets any H100-class GPU.", "hardware") == []
    assert _kinds("We serve Qwen3-32B on 8x H200.", "model") != []
    assert _kinds("It runs on one H100 GPU.", "hardware") != []


UPCOMING = """# Faster drafts

The support is merged into main and will be available via the nightly build and the upcoming **v2.4.0** release.

With vLLM on one B200, the drafter delivers 2.03x higher per-user throughput.
"""

USED = """# Faster drafts

We benchmarked the v2.3.1 release. With vLLM on one B200, the drafter delivers 2.03x higher per-user throughput.
"""


def test_an_upcoming_release_is_not_the_version_a_run_used():
    engine = _claim(UPCOMING, "2.03x").conditions["engine_version"]
    assert (engine.status, engine.value_partial) == ("unrecoverable", "vLLM")


def test_a_release_the_post_ran_is_its_version():
    assert _claim(USED, "2.03x").conditions["engine_version"].value == "vLLM v2.3.1"


def test_the_data_type_of_a_cache_is_no_precision_of_the_run():
    assert _kinds("* `--mamba-ssm-cache-dtype bfloat16` raises the cache capacity", "precision") == []
    assert _kinds('we pass kv_cache_dtype="fp8_e4m3" to the engine', "precision") == []
    assert _kinds("The model runs in bfloat16.", "precision") != []


def test_a_count_of_one_side_of_a_disaggregated_deployment_is_no_gpu_count_of_the_run():
    assert _kinds("On the prefill side, two endpoints ran with DEP4 (expert parallel across 4 GPUs each).", "gpu_count") == []
    assert _kinds("Each replica runs on 2 GPUs.", "gpu_count") == []
    assert _kinds("The benchmark ran on 16 GPUs across two nodes.", "gpu_count") != []


# A disaggregated run whose settings sit in a recipes section and a "settings" subsection (sentences of our own).
DISAGGREGATED = """# Serving a large MoE model disaggregated

## Recipes and lessons

Several settings matter:

* Prefix caching is disabled: a random dataset shares no prefixes.

## Results

### 1. Environment

Runs used a GB300 NVL72 rack with ISL/OSL = 4096/512 and the Kimi-K2-Instruct model. The decode side ran one
endpoint with DEP16 (expert parallel across 16 GPUs); the prefill side used 2 to 6 endpoints of DEP4.

### 2. Notes on run settings

All runs draw fixed-length random prompts (`random_range_ratio=0.5`).

### 3. Throughput

Total throughput per GPU reaches **9,100** tokens per second.
"""


def test_a_disaggregated_run_states_its_dataset_and_prefix_caching_and_no_count_of_one_side():
    claim = _claim(DISAGGREGATED, "9,100")
    conditions = claim.conditions
    assert conditions["dataset"].status == "stated" and "random" in str(conditions["dataset"].value)
    assert conditions["prefix_caching"].status == "stated"
    assert conditions["prefix_caching"].canonical == "disabled"
    assert conditions["gpu_count"].status == "unrecoverable"


# -- a policy named after the prefix cache is no setting of the cache --------------------------------------
@pytest.mark.parametrize("text", [
    "Latency fell by half after we turned on prefix-cache aware routing in the gateway.",
    "With a prefix cache-aware scheduler the pool kept 40% more requests inside the target.",
    "The router's prefix-cache-based load balancing spreads sessions across six replicas.",
    "We compare round-robin with prefix cache routing on the same cluster.",
])
def test_a_routing_policy_named_after_the_prefix_cache_sets_no_cache(text):
    assert _kinds(text, "prefix_caching") == []


@pytest.mark.parametrize("text,quote", [
    ("Throughput doubled once prefix caching was enabled on each replica.", "prefix caching was enabled"),
    ("A cache-aware router sits in front; we ran without prefix caching.", "without prefix caching"),
])
def test_the_cache_itself_switched_is_still_read_beside_a_routing_word(text, quote):
    assert _kinds(text, "prefix_caching") == [quote]


# -- a prompting method is no dataset ----------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "The agent loop is written in ReAct prompting style, and the score table follows.",
    "Start from the ReAct example in the cookbook before timing tool calls.",
    "Each question uses a Tree-of-Thought prompt template with three branches.",
])
def test_a_prompting_method_named_as_such_is_no_dataset(text):
    assert _kinds(text, "dataset") == []


def test_agent_traces_of_a_prompting_method_are_still_a_workload():
    assert _kinds("The replay drives ReAct agent traces through one server.", "dataset") == ["ReAct"]


# -- a dataset an accuracy clause names is the set of that score, not the speed figure's workload --------------
@pytest.mark.parametrize("text,quote", [
    ("The pruned build keeps full accuracy on GSM8K and decodes 5.5x faster than the dense one.", "5.5x"),
    ("With an accuracy drop on MMLU under half a point, the int4 variant serves 3,210 tokens/s.", "3,210"),
])
def test_a_dataset_in_the_accuracy_clause_is_no_workload_of_the_speed_claim(text, quote):
    assert _claim(text, quote).conditions["dataset"].status == "unrecoverable"


@pytest.mark.parametrize("text,quote", [
    ("The pruned build decodes 5.5x faster than the dense one on GSM8K prompts.", "5.5x"),
    ("We measured throughput and accuracy on MMLU: the int4 variant serves 3,210 tokens/s.", "3,210"),
])
def test_a_dataset_the_speed_run_used_stays_its_workload(text, quote):
    assert _claim(text, quote).conditions["dataset"].status == "stated"


# -- a processor under a CPU label with a dump key after it is the host, not the run's device --------------
@pytest.mark.parametrize("cpu_line", [
    "- CPU: model_name: Intel Xeon Platinum 8480+, 56 cores",
    "- CPU: Model name: Intel Xeon Platinum 8480+",
])
def test_a_labelled_host_processor_is_not_the_hardware_beside_an_unnamed_accelerator(cpu_line):
    text = f"## Setup\n\n{cpu_line}\n- GPU: one in-house card, 24 GB\n\nDecode reaches 1,234 tokens/s on this box.\n"
    assert _claim(text, "1,234").conditions["hardware"].status == "unrecoverable"


def test_a_processor_named_in_prose_of_a_cpu_run_stays_the_hardware():
    text = ("## Setup\n\nThe whole run is on the processor: an Intel Xeon Platinum 8480+ with 56 cores.\n\n"
            "Decode reaches 1,234 tokens/s on this box.\n")
    assert _claim(text, "1,234").conditions["hardware"].value == "Intel Xeon Platinum 8480+"


# -- the load that meets a service objective is another operating point than a maximum given before it --------
@pytest.mark.parametrize("text,quote", [
    ("Although the gateway can sustain up to 21 requests per second, it meets our latency SLOs only at a "
     "request rate of 4 requests per second.", "21 requests"),
    ("Peak decode hits 9,870 tokens/s, yet the p99 stays within the latency budget only up to 32 concurrent users.",
     "9,870"),
])
def test_the_load_meeting_an_slo_is_no_load_of_the_maximum_before_it(text, quote):
    conditions = _claim(text, quote).conditions
    assert conditions["batch_or_concurrency"].status == "unrecoverable"
    assert conditions["scenario"].status == "unrecoverable"


def test_a_figure_after_the_slo_words_is_measured_at_that_load():
    text = "The service meets the SLO at a request rate of 4 requests per second, with a p99 TTFT of 180 ms."
    assert _claim(text, "180 ms").conditions["batch_or_concurrency"].value == 4


def test_a_cpu_label_on_a_line_broken_with_html_is_a_label_too():
    text = ("# Box\n\nOur test machine: <br>\nCPU: Intel Xeon Platinum 8480+ with 1 TB of DRAM <br>\n"
            "GPU: one in-house card <br>\n\n## Result\n\nDecode reaches 1,234 tokens/s on this box.\n")
    assert _claim(text, "1,234").conditions["hardware"].status == "unrecoverable"
