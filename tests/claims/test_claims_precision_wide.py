"""Precision classes from the random draws of the wide corpus (issue 23, helper `precise3`): a per-device
compute figure, a model's checkpoint sizes in a change, a run's measured memory use, a link's own figure, ratio
words that are no ratio, a count of occurrences, a hardware part's datasheet ratio, the majority share of a
collection. Sentences written for these tests."""
from __future__ import annotations

import pytest

from extractor.api import extract_text
from claim_checks import aside_of, claim_quoted


def _record(text: str):
    return extract_text(text, "t.md")


_claim = claim_quoted
_aside = aside_of


# ---- a compute or bandwidth figure of one device
@pytest.mark.parametrize("text,quote", [
    ("| Setup | Max Throughput per GPU |\n| --- | --- |\n| 2 GPUs | 3.80 TFlops |\n| 4 GPUs | 4.10 TFlops |\n",
     "4.10 TFlops"),
    ("The fused kernel sustained 410 TFLOPS per GPU in our runs.\n", "410 TFLOPS"),
])
def test_a_compute_figure_per_gpu_is_per_gpu(text: str, quote: str) -> None:
    c = _claim(text, quote)
    assert c is not None and c.metric == "compute" and c.per == "gpu" and c.unit == "teraFLOPS / gpu"


def test_a_compute_figure_of_the_system_keeps_per_null() -> None:
    c = _claim("The fused kernel sustained 410 TFLOPS in our runs.\n", "410 TFLOPS")
    assert c is not None and c.per is None and c.unit == "teraFLOPS"


def test_a_throughput_per_gpu_is_unchanged() -> None:
    c = _claim("We measured 3,100 tokens/s per GPU at batch 64.\n", "3,100 tokens/s")
    assert c is not None and c.per == "gpu"


# ---- the two sizes of a model's checkpoint in a change
@pytest.mark.parametrize("text", [
    "Quantization cuts the checkpoint of our 30B model from 60 GB down to 17 GB.\n",
    "With INT4 the model weights shrink from ~14 GB to ~4 GB on disk.\n",
])
def test_checkpoint_sizes_in_a_change_are_model_sizes(text: str) -> None:
    r = _record(text)
    sizes = [a for a in r.set_aside if "GB" in a.quote]
    assert len(sizes) == 2 and {a.reason for a in sizes} == {"model_size"}
    assert not [c for c in r.claims if "GB" in c.quote]


def test_a_measured_memory_change_stays_a_claim() -> None:
    text = "With the new allocator, peak memory usage fell from 60 GB to 41 GB during decode.\n"
    assert sorted(c.value for c in _record(text).claims if c.metric == "memory") == [41.0]
    assert _aside(text, "60 GB") == ("baseline", "set_aside.from_level")   # the level it started from


def test_the_change_of_a_checkpoint_in_percent_stays_a_claim() -> None:
    text = "A 62% smaller checkpoint: the weights go from 66 GB down to 25 GB.\n"
    assert _claim(text, "62%") is not None and _aside(text, "66 GB")[0] == "model_size"


# ---- a run's measured memory use
@pytest.mark.parametrize("text,quote", [
    ("Pinning the router on the card costs about 18.5 GB of VRAM usage.\n", "about 18.5 GB"),
    ("Serving both adapters gives a 12 GB memory footprint on one GPU.\n", "12 GB"),
])
def test_a_size_of_memory_usage_is_a_memory_claim(text: str, quote: str) -> None:
    c = _claim(text, quote)
    assert c is not None and c.metric == "memory"


def test_a_device_memory_size_stays_a_datasheet_figure() -> None:
    assert _aside("The desktop has 24 GB of VRAM and a fast SSD.\n", "24 GB") == \
        ("datasheet", "set_aside.device_memory_kind")


# ---- a link's or a drive's own figure, even where a throughput word is near
def test_a_nic_bandwidth_is_a_datasheet_figure_even_beside_a_throughput() -> None:
    text = "- **61 GB/s read throughput** on a cluster with 8 x 200 Gbps NICs per node.\n"
    assert _aside(text, "200 Gbps") == ("datasheet", "set_aside.drive_or_link")
    assert _claim(text, "61 GB/s") is not None


# ---- ratio words that are no ratio
@pytest.mark.parametrize("text", [
    "The new scheduler brings double-digit gains on long prompts.\n",
    "We use Double Quantization to save a little more memory.\n",
    "Keep the weights in double precision for this check.\n",
    "Pass the (question, passage, answer) triples to the judge.\n",
    "The loader streams triples of ids into the index.\n",
])
def test_a_ratio_word_used_as_a_noun_or_adjective_is_no_claim(text: str) -> None:
    assert [c for c in _record(text).claims if c.metric == "speedup"] == []


@pytest.mark.parametrize("text,quote", [
    ("Speculative decoding doubles decode throughput on H100.\n", "doubles"),
    ("The new kernel nearly triples prefill throughput.\n", "nearly triples"),
])
def test_a_ratio_word_as_a_verb_stays_a_speedup(text: str, quote: str) -> None:
    c = _claim(text, quote)
    assert c is not None and c.metric == "speedup"


# ---- a count of occurrences
def test_a_ratio_per_layer_is_a_count_of_occurrences() -> None:
    text = "Those kernels stay unfused, since the scale update happens 3x per layer.\n"
    assert _aside(text, "3x") == ("design_arithmetic", "set_aside.occurrences_per_unit")
    assert _claim(text, "3x") is None
    text = "The router re-scores its candidates 3x per step before it picks one.\n"
    assert _aside(text, "3x per step") == ("design_arithmetic", "set_aside.occurrences_per_unit_read")
    assert _claim(text, "3x") is None


def test_a_speedup_per_layer_is_no_count_of_occurrences() -> None:
    c = _claim("The fused attention is 3x faster per layer than the eager one.\n", "3x")
    assert c is not None and c.metric == "speedup"


# ---- a hardware part's datasheet ratio
@pytest.mark.parametrize("text,quote", [
    ("The laptop part moves to LPDDR5X, which provides up to 1.3x the memory bandwidth of LPDDR5.\n", "up to 1.3x"),
    ("The NVLink 5 switch provides 2x the bandwidth of the previous generation.\n", "2x"),
])
def test_a_ratio_of_a_hardware_parts_figures_is_a_datasheet_figure(text: str, quote: str) -> None:
    assert _aside(text, quote) == ("datasheet", "set_aside.hardware_spec_ratio")
    assert _claim(text, quote) is None


@pytest.mark.parametrize("text", [
    "PCIe Gen6 doubles the per-lane bandwidth of Gen5 for the host link.\n",
    "Their next accelerators provide twice the FP4 FLOPs of this generation.\n",
])
def test_a_ratio_word_of_a_hardware_part_is_no_claim(text: str) -> None:
    assert [c for c in _record(text).claims if c.metric == "speedup"] == []


@pytest.mark.parametrize("text", [
    "We measured 1.9x higher bandwidth on PCIe 5.0 than on PCIe 4.0.\n",
    "Over NVLink the collective gets 1.9x more bandwidth than over PCIe in our all-reduce test.\n",
])
def test_a_measured_ratio_on_a_hardware_part_stays_a_claim(text: str) -> None:
    assert _claim(text, "1.9x") is not None


# ---- the majority share of a collection (adoption), by the kind of collection, not a place name
@pytest.mark.parametrize("text,quote", [
    ("Most (~70%) of the public checkpoints we surveyed are fine-tunes of one base.\n", "~70%"),
    ("The vast majority (85%) of deployments use a quantized model.\n", "85%"),
    ("There are 900 adapters online. The majority (**~60%**) of them target one base model.\n", "~60%"),
])
def test_the_majority_share_of_a_collection_is_adoption(text: str, quote: str) -> None:
    assert _aside(text, quote) == ("adoption", "set_aside.majority_share")


@pytest.mark.parametrize("text,quote", [
    ("Most (60%) of the requests from users were served from cache.\n", "60%"),
    ("Most (70%) of the decode time is spent in attention.\n", "70%"),
])
def test_a_share_of_work_is_no_majority_share_of_a_collection(text: str, quote: str) -> None:
    assert _aside(text, quote) != ("adoption", "set_aside.majority_share")


# ---- a device's memory in a sentence about a measurement
def test_a_device_memory_in_a_measurement_sentence_is_a_datasheet_figure() -> None:
    text = ("We measure decode throughput of a 70B model on one GPU with offloading (a model that size will "
            "not go into the 80GB VRAM unless we offload).\n")
    assert _aside(text, "80GB") == ("datasheet", "set_aside.device_memory_kind") and _claim(text, "80GB") is None


def test_a_memory_use_with_a_vram_word_stays_a_claim() -> None:
    c = _claim("In our runs the server used 21 GB VRAM at batch 8.\n", "21 GB")
    assert c is not None and c.metric == "memory"


# ---- a count column that names an HTTP status code
_FAULTS = ("Sessions must survive backend faults; recovery is the share of affected sessions that succeed later.\n\n"
           "| Phase | Requests | {header} | Recovery |\n|---|---:|---:|---:|\n| warm | 300 | 40 | 100.00% |\n"
           "| cold | 300 | 64 | 97.50% |\n")


@pytest.mark.parametrize("header", ["Injected 503s", "429 errors", "Injected 5xx"])
def test_a_count_column_of_status_codes_holds_no_results(header: str) -> None:
    r = _record(_FAULTS.format(header=header))
    assert not [c for c in r.claims if c.quote in ("40", "64")]
    assert [c.value for c in r.claims if c.quote == "97.50%"] == [97.5]


def test_a_header_that_names_a_configuration_number_still_holds_results() -> None:
    text = "Decode throughput (tokens/s) by batch size:\n\n| Model | Batch 128 |\n|---|---:|\n| 8B | 5120 |\n"
    assert [c.value for c in _record(text).claims] == [5120.0]


# ---- a requirements table: which card (by its memory) fits which model
def test_a_device_memory_labelling_a_requirements_row_is_a_datasheet_figure() -> None:
    text = ("Which card runs which model:\n\n| Card memory | Card | Runs |\n| :---: | :---: | :---: |\n"
            "| 48GB | NVIDIA L40S | Tiny-30B-Int4, Tiny-14B |\n| 20GB | NVIDIA RTX 4000 Ada | Tiny-7B-Int4 |\n")
    r = _record(text)
    assert not [c for c in r.claims if c.metric == "memory"]
    assert {(a.quote, a.reason) for a in r.set_aside} >= {("48GB", "datasheet"), ("20GB", "datasheet")}


def test_a_memory_column_of_a_results_table_stays_claims() -> None:
    text = ("| Model | Throughput | GPU Memory |\n|---|---|---|\n| Tiny-7B | ~90 tokens/s | 14GB |\n"
            "| Tiny-14B | ~50 tokens/s | 27GB |\n")
    assert sorted(c.value for c in _record(text).claims if c.metric == "memory") == [14.0, 27.0]


# ---- "(s)" as a plural in a header
@pytest.mark.parametrize("header", ["Step(s)", "GPU(s)", "Node(s)"])
def test_a_plural_marker_in_a_header_is_no_unit_of_seconds(header: str) -> None:
    text = f"| Flag | What it does | {header} |\n| --- | --- | --- |\n| --log | Log the loss | 1 |\n| --tb | Log more | 2 |\n"
    assert _record(text).claims == []


@pytest.mark.parametrize("header", ["Time(s)", "E2E(s)", "Time per step(s)", "Latency per request(s)"])
def test_seconds_glued_to_a_time_header_stay_seconds(header: str) -> None:
    text = f"| Model | {header} |\n| --- | --- |\n| Tiny-7B | 1.5 |\n| Tiny-14B | 2.5 |\n"
    assert [c.unit for c in _record(text).claims] == ["second", "second"]


# ---- a share of the peak near a change word
def test_a_share_of_the_peak_is_an_efficiency_not_a_change() -> None:
    text = "Profiling shows the old kernel stays lower than 8% of the peak on this card.\n"
    c = _claim(text, "lower than 8%")
    assert c is not None and c.metric == "other" and c.direction is None


def test_a_reduction_stays_a_change() -> None:
    c = _claim("The kernel cuts latency by 30% versus the old one.\n", "30%")
    assert c is not None and c.metric == "relative_change"


# ---- a swept variable's column
def test_a_column_named_by_a_variable_holds_settings_not_results() -> None:
    text = ("Throughput (req/s) of each system as the number of adapters grows.\n\n"
            "| Setup | n | Ours | Other |\n| --- | --- | --- | --- |\n| A | 5 | 8.05 | 2.04 |\n| | 100 | 7.99 | OOM |\n")
    assert sorted(c.value for c in _record(text).claims) == [2.04, 7.99, 8.05]


# ---- an uptime promise
@pytest.mark.parametrize("text,quote", [
    ("| Plan feature | Basic | Team |\n| --- | --- | --- |\n| Managed availability (99.9%) | - | included |\n", "99.9%"),
    ("The hosted tier promises uptime (99.5%) for every region.\n", "99.5%"),
    ("- Availability: 99.9% for the managed tier\n", "99.9%"),
])
def test_an_uptime_promise_is_a_target(text: str, quote: str) -> None:
    assert _aside(text, quote) == ("target", "set_aside.availability_in_parentheses")


def test_a_measured_uptime_is_no_promise() -> None:
    assert _aside("Over the quarter we measured 99.2% uptime across regions.\n", "99.2%") != \
        ("target", "set_aside.availability_in_parentheses")


def test_a_bandwidth_the_run_achieved_on_hbm_stays_a_claim() -> None:
    c = _claim("During decode the GPUs achieved 5.2 TB/s of HBM bandwidth, close to the peak.\n", "5.2 TB/s")
    assert c is not None and c.metric == "bandwidth"


def test_host_memory_a_placement_requests_is_a_memory_claim() -> None:
    r = _record("Placing the experts on the host means 96GB DRAM memory requests and 11 GB of VRAM usage per run.\n")
    assert sorted(c.value for c in r.claims if c.metric == "memory") == [11.0, 96.0]


# ---- a cost projected for a volume
def test_costs_in_a_row_of_a_volume_per_period_are_projections() -> None:
    text = ("A bill at list prices, by traffic:\n\n| Traffic | Plain | Routed | Per year |\n|---|---|---|---|\n"
            "| 50K queries per day | $1,240 | $96 | **$13.7K/year** |\n"
            "| 2M tokens a week | $58 | $7 | **$2.6K/year** |\n")
    r = _record(text)
    assert not [c for c in r.claims if c.metric == "cost"]
    assert _aside(text, "$1,240") == ("design_arithmetic", "set_aside.cost_at_a_volume")
    assert _aside(text, "$13.7K/year") == ("design_arithmetic", "set_aside.cost_at_a_volume")


def test_a_cost_in_a_row_of_a_setup_is_no_projection() -> None:
    text = "| Setup | Cost of the whole run |\n|---|---|\n| 8 GPUs for 3 hours | $61 |\n| 16 GPUs for 2 hours | $83 |\n"
    r = _record(text)
    assert [c.value for c in r.claims if c.metric == "cost"] == [61.0, 83.0]


def test_a_long_digit_run_in_a_row_label_stays_fast() -> None:
    import time
    text = "| Traffic | Cost |\n|---|---|\n| " + "1" * 8000 + " x | $5 |\n"
    _record("| Traffic | Cost |\n|---|---|\n| 1 x | $5 |\n")   # the extractor built before the clock starts
    t0 = time.process_time()   # CPU time: a loaded machine does not fail it (about 0.4 s when it holds)
    _record(text)
    assert time.process_time() - t0 < 5


def test_a_measured_cost_per_request_in_a_table_stays_a_claim() -> None:
    text = "| Router | Cost per request |\n|---|---|\n| Ours | $0.0021 |\n| Baseline | $0.0100 |\n"
    assert [c.metric for c in _record(text).claims] == ["cost", "cost"]


# ---- a device's memory named by the device
def test_a_size_of_a_named_devices_memory_is_a_datasheet_figure() -> None:
    text = ("| Symptom | Cause |\n|---|---|\n| Worker restarts mid-load on a 13B checkpoint | "
            "The 13B weights overflow the 32GB of V100 memory on one card. |\n")
    assert _aside(text, "32GB") == ("datasheet", "set_aside.device_memory_kind") and _claim(text, "32GB") is None


def test_a_size_of_a_named_devices_memory_a_run_used_stays_a_claim() -> None:
    c = _claim("The run used 14GB of H100 memory at batch 8.\n", "14GB")
    assert c is not None and c.metric == "memory"


def test_a_bandwidth_per_client_node_is_per_node() -> None:
    c = _claim("- 40+ GiB/s peak read throughput per client node for cache lookups\n", "40+ GiB/s")
    assert c is not None and c.per == "node"


# ---- the plural marker's rule has a group 1, also by default
def test_the_plural_marker_needs_its_group() -> None:
    import re

    from pydantic import ValidationError

    from extractor.claims.rules import ClaimRules, load_claim_rules
    from extractor.pipeline import default_rules_dir
    assert re.compile(ClaimRules.model_fields["table_plural_marker"].default).groups == 1
    data = load_claim_rules(default_rules_dir()).model_dump()
    data["table_plural_marker"] = r"\(s\)"
    with pytest.raises(ValidationError):
        ClaimRules.model_validate(data)
