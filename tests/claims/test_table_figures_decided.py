"""Every figure of a table or a program's output decided (issue 23): a result cell's figure that no header,
lead text or cue names the metric of is a claim of its unit's metric unless a set-aside rule says why not
(a setting column, a size beside a time, a workload's shape). Tables and outputs written for these tests."""
from __future__ import annotations

import pytest

from extractor.api import extract_text


def _read(text: str):
    record = extract_text(text, "t.md")
    claims = {c.quote: c for c in record.claims}
    aside = {a.quote: a for a in record.set_aside}
    return claims, aside


def test_unnamed_result_cells_are_claims_of_their_units_metric():
    text = ("## Fine-tuning runs\n\n| Nodes | Small model | Large model |\n|---|---|---|\n"
            "| 4x L40S | 3.5 hours ($71) | 11 hours ($226) |\n\n"
            "| Workload | Requests | Completed |\n|---|---:|---:|\n| mixed-8x16 | 512 | 99.80% |\n")
    claims, _ = _read(text)
    assert claims["$71"].metric == "cost" and claims["$71"].unit == "USD"
    assert claims["$226"].value == 226
    assert claims["99.80%"].metric == "other" and claims["99.80%"].unit == "percent"


def test_a_header_stating_a_share_of_a_reference_makes_a_level_against_it():
    text = ("| Model | Decode slope (% of FP16) | Goodput (% of baseline) |\n|---|---|---|\n"
            "| tiny-2b | 58% | 121% |\n")
    claims, _ = _read(text)
    slope = claims["58%"]
    assert (slope.metric, slope.baseline, slope.direction) == ("speedup", "FP16", "better")  # less slope is better
    goodput = claims["121%"]
    assert goodput.metric == "speedup" and goodput.baseline == "baseline"


def test_an_arrow_glued_to_a_header_does_not_hide_its_metric():
    text = ("| System | Routing (Acc.↑) | Misfires↓ |\n|---|---|---|\n| ours | 91.5% | 2.5% |\n"
            "| theirs | 80.1% | 9.0% |\n")
    claims, _ = _read(text)
    assert claims["91.5%"].metric == "accuracy" and claims["80.1%"].metric == "accuracy"
    assert claims["2.5%"].metric == "other"


def test_settings_in_cells_are_set_aside_not_claimed():
    text = ("| Model | Sync time | Cache layout | Shape |\n|---|---|---|---|\n"
            "| tiny-1b | 2.31s (1.50GiB) | 200 GiB shared pool | 4 × 1,024 tokens |\n"
            "| tiny-3b | 4.02s (2.25GiB) | 2 x 31.5 GiB private pools | 2 × 512 tokens |\n")
    claims, aside = _read(text)
    assert claims["2.31s"].metric == "latency"
    assert aside["1.50GiB"].rule == "set_aside.size_beside_time" and aside["1.50GiB"].reason == "setting"
    assert aside["200 GiB"].rule == "set_aside.sized_pool_cell"
    assert aside["31.5 GiB"].rule == "set_aside.sized_pool_cell"
    assert aside["4 ×"].rule == "set_aside.workload_shape"
    assert not {"1.50GiB", "200 GiB", "31.5 GiB", "4 ×"} & set(claims)


def test_a_cost_beside_a_time_stays_a_claim():
    # negative of size_beside_time: only a size beside a time is a setting
    text = "| Nodes | Run |\n|---|---|\n| 8x H100 | 2 hours ($98) |\n"
    claims, aside = _read(text)
    assert "$98" in claims and "$98" not in aside


def test_setting_columns_stay_out_of_the_claims():
    # negative: a cell under a header naming a setting is no residual claim
    text = "| Model | Timeout | Clip length | Latency |\n|---|---|---|---|\n| tiny | 30 s | 8 seconds | 412 ms |\n"
    claims, _ = _read(text)
    assert "412 ms" in claims
    assert not {"30 s", "8 seconds"} & set(claims)


def test_printed_figures_without_a_metric_word_are_claims_unless_a_reason_applies():
    text = ("Output:\n\n```\nScenario: sync\nThroughput (items/sec): 41.2\nTime breakdown:\n"
            "     tokenize: 12.50%\n     forward: 86.10%\nAccelerator-0 : 71.25%\n"
            "Size: ~512MB\nInstalled-Size: 9.8 kB\n  Total data:\t409600 bytes\nCPU(s):        64\n"
            "max_len: 2048\nidle_timeout: 45 s\n```\n")
    claims, aside = _read(text)
    assert claims["12.50%"].metric == "other" and claims["86.10%"].value == 86.1
    assert claims["71.25%"].unit == "percent"
    assert (aside["~512MB"].reason, aside["~512MB"].rule) == ("model_size", "set_aside.artifact_size_line")
    assert aside["9.8 kB"].rule == "set_aside.package_metadata_line"
    assert aside["409600 bytes"].rule == "set_aside.transfer_total_line"
    # negatives: a count whose label holds a unit-like "(s)" is no time; a timeout setting is no result
    assert "64" not in claims and "45 s" not in claims


def test_figures_with_a_unit_under_a_count_header_are_unnamed_results():
    text = ("| Setup | Host RAM/rank | Requests | vs. eager |\n|---|---|---|---|\n"
            "| offload | 3.5 GB | 128 | 2.4× |\n\n| Metric | Value |\n|---|---|\n| Misrouted requests (sampled) | ~7% |\n")
    claims, _ = _read(text)
    assert claims["3.5 GB"].metric == "memory"
    assert claims["~7%"].metric == "other"
    assert "128" not in claims                       # a count stays out
    assert claims["2.4×"].metric == "speedup" and claims["2.4×"].baseline == "eager"


def test_setting_rows_replicas_and_shapes_are_set_aside():
    text = ("| Spec | Small | Large |\n|---|---|---|\n| Frame rate | 24 frames / second | 12 frames / second |\n"
            "| Clip length | 4 seconds or 8 seconds | 6 seconds |\n| Replicas | 2× Encoder + 3× Decoder | 1× Encoder |\n"
            "| Hardware | 2 × 8 H200 (16 GPUs) | 1 node |\n| Staging buffers | 2 × chunk_size per rank | none |\n"
            "| Hosting | 6+ GPU types, L40S from $0.99 | DIY |\n"
            "| `--offload-ratio` | Share kept on the host. Example: 0.2 means 20% of all layers stay on the host. | |\n"
            "| Render time | 41 seconds | 95 seconds |\n")
    claims, aside = _read(text)
    assert {aside[q].rule for q in ("24 frames / second", "4 seconds", "8 seconds", "6 seconds")} \
        == {"set_aside.setting_row"}
    assert aside["2×"].rule == "set_aside.replica_mix" and aside["3×"].rule == "set_aside.replica_mix"
    assert aside["2 ×"].rule in ("set_aside.nodes_times_devices", "set_aside.times_identifier")
    assert aside["$0.99"].reason == "datasheet"
    assert aside["20%"].reason == "example"
    # negative: the render time row is a result
    assert claims["41 seconds"].metric == "latency" and "41 seconds" not in aside


def test_module_prints_and_tree_logs_in_code_are_set_aside():
    text = ("```\nModel(\n  (layers): ModuleList(\n    (0-11): 12 x DecoderLayer(\n```\n\n"
            "```\n├──tuning: warmup iters 2 [0.52 ms], then tuning iters 30 [11.4 ms]\n```\n")
    _, aside = _read(text)
    assert aside["12 x"].rule == "set_aside.module_repeat"
    assert aside["0.52 ms"].rule == "set_aside.tree_log_line" and aside["11.4 ms"].reason == "log_or_error"


def test_figure_lines_without_a_label_are_read_and_unit_spellings():
    text = ("Benchmark output:\n\n```\n9120.50 iter/s (1.0965s)\n```\n\n"
            "| Setup | Peak per GPU |\n|---|---|\n| 2 GPU TP | 3.80 TFlops |\n")
    claims, _ = _read(text)
    assert claims["9120.50 iter/s"].unit == "1 / second" and claims["9120.50 iter/s"].metric == "other"
    assert claims["1.0965s"].metric == "latency"
    # "Peak per GPU": the rate of one device (unit and per say so)
    assert claims["3.80 TFlops"].metric == "compute" and claims["3.80 TFlops"].unit == "teraFLOPS / gpu"
    assert claims["3.80 TFlops"].per == "gpu"


def test_a_figure_cited_after_it_is_set_aside_as_cited():
    text = ("Our kernel sustains 410 TFlops on one card. The new chip reaches up to 900 TFlops in the forward "
            "pass, as reported by its vendor.\n")
    claims, aside = _read(text)
    assert "410 TFlops" in claims
    cited = [a for q, a in aside.items() if "900 TFlops" in q]
    assert cited and cited[0].reason == "cited" and not any("900" in q for q in claims)


def test_a_throttled_practical_peak_is_a_datasheet_figure():
    text = ("The card is rated at 900 TFlops. Under throttling the practical peak FLOPs drops to ~700 TFlops, so "
            "our kernel at 610 TFlops reaches 87% of it.\n")
    claims, aside = _read(text)
    assert aside["~700 TFlops"].rule == "set_aside.device_peak_figure" and "~700 TFlops" not in claims
    assert "610 TFlops" in claims


@pytest.mark.parametrize("text,quote", [
    ("With a 400 W power cap, the GPU's effective peak bandwidth falls to 2.9 TB/s.", "2.9 TB/s"),
    ("Once thermals kick in, the accelerator's peak dense rate decreases to about 1,450 TFLOPS.", "about 1,450 TFLOPS"),
    ("The new chip's peak FP8 rate sits at 1.8 PFLOPS.", "1.8 PFLOPS"),
])
def test_a_devices_lowered_or_rated_peak_is_a_datasheet_figure(text, quote):
    claims, aside = _read(text + "\n")
    assert aside[quote].rule == "set_aside.device_peak_figure" and quote not in claims


@pytest.mark.parametrize("text,quote", [
    # a kernel's own measured peak, with a device named: a result
    ("On one GPU we measured the kernel's peak bandwidth at 2.6 TB/s.", "2.6 TB/s"),
    # no device on the line: a run's peak, a result
    ("The attention kernel's peak throughput drops to 310 TFLOPS at long contexts.", "310 TFLOPS"),
])
def test_a_measured_or_deviceless_peak_stays_a_claim(text, quote):
    claims, aside = _read(text + "\n")
    assert quote in claims and quote not in aside


def test_a_models_generated_answer_in_output_is_an_example():
    text = ('The server replies:\n\n```bash\n{\n  "choices": [{"message": {"content": "| **Layer** | **Why** |\\n'
            '| **Kernels** | • **Fused attention** – gives 3× higher throughput <br>• **Paged cache** |"}}]\n}\n```\n\n'
            "```python\nsize = 2**20  # 1 MB buffers\nprint(f\"{tps:.1f} tokens/s\")\n```\n")
    _, aside = _read(text)
    assert aside["3×"].rule == "set_aside.generated_answer_line" and aside["3×"].reason == "example"
    # negative: a power in source code is no generated text
    assert "set_aside.generated_answer_line" not in {a.rule for a in aside.values() if a.quote == "1 MB"}
