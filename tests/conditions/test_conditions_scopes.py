"""Each scope rule of the condition audit, on small posts written for these tests, plus the corpus posts.

A condition is stated from the most specific scope that states it (sentence, table row, column header,
caption, footnote, paragraph, section, command line, setup section, front matter); when the winning scope
states two values and nothing ties one to the claim, it is unrecoverable and says the post is ambiguous.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from extractor.api import extract_path, extract_text
from extractor.records import CHECKLIST, CONDITIONS

CORPUS = Path(__file__).resolve().parents[2] / "corpus"


def claim(record, value, metric=None):
    found = [c for c in record.claims if abs(c.value - value) < 1e-6 and (metric is None or c.metric == metric)]
    assert found, f"no claim {value} {metric or ''} in {[(c.metric, c.value) for c in record.claims]}"
    return found[0]


def test_conditions_scopes_sentence_wins_over_setup_section():
    text = ("# Results\n\n## Benchmark setup\n\nAll runs used Llama-3.1-8B on 8x H100 with vLLM v0.6.0.\n\n"
            "## Numbers\n\nOn a single A100, Llama-3.1-8B reached 1,200 tokens/s of output throughput.\n")
    c = claim(extract_text(text, "t.md"), 1200)
    hw = c.conditions["hardware"]
    assert (hw.status, hw.scope) == ("stated", "sentence")
    assert "A100" in hw.value
    assert c.conditions["engine_version"].scope == "setup_section"
    assert c.conditions["engine_version"].value == "vLLM v0.6.0"


def test_conditions_scopes_setup_section_covers_later_results():
    record = extract_path(CORPUS / "setup-section-h200.md")
    c = claim(record, 4812, "throughput")
    for name in ("model", "hardware", "engine_version"):
        assert c.conditions[name].status == "stated"
        assert c.conditions[name].scope == "setup_section"
    assert c.conditions["warmup"].status == "stated"


def test_conditions_scopes_table_row_and_caption():
    record = extract_path(CORPUS / "html-results-table.html")
    c = claim(record, 7315, "throughput")
    assert c.conditions["batch_or_concurrency"].scope == "table_row"
    assert c.conditions["batch_or_concurrency"].value == 64
    assert c.conditions["model"].scope == "table_caption"


def test_conditions_scopes_column_header_labels_a_condition_column():
    text = ("Measured with SGLang 0.4.6 on 1x H100.\n\n"
            "| Model | Batch Size | Input Length | Throughput (out tok/s) |\n|---|---|---|---|\n"
            "| Llama-3.1-8B | 32 | 512 | 4,410 |\n| Llama-3.1-8B | 64 | 2048 | 5,980 |\n")
    c = claim(extract_text(text, "t.md"), 5980)
    assert c.conditions["batch_or_concurrency"].value == 64
    assert c.conditions["input_length"].value == 2048
    assert c.conditions["batch_or_concurrency"].scope == "table_row"
    assert c.span and text[c.span[0]:c.span[1]] == c.quote


def test_conditions_scopes_layout_columns_give_the_rows_parallel_layout():
    text = ("Measured with vLLM 0.9.0 on H200 nodes.\n\n"
            "| Model | TP | EP | Output tok/s |\n|---|---|---|---|\n"
            "| Qwen3-30B-A3B | 2 | 2 | 6,140 |\n| Qwen3-235B-A22B | 8 | 8 | 3,270 |\n"
            "| Qwen3-235B-A22B | 4/8 | n/a | 2,990 |\n")
    record = extract_text(text, "t.md")
    small, big = claim(record, 6140), claim(record, 3270)
    assert (small.conditions["parallelism"].value, big.conditions["parallelism"].value) == ("TP2, EP2", "TP8, EP8")
    p = big.conditions["parallelism"]
    assert p.scope == "table_row" and text[p.span[0]:p.span[1]] == p.quote == "8"
    # a cell that is not one whole number gives no layout
    assert claim(record, 2990).conditions["parallelism"].status == "unrecoverable"


def test_conditions_scopes_a_column_named_like_a_layout_in_another_table_gives_nothing():
    text = ("| Setting | TP |\n|---|---|\n| big | 8 |\n\nThe engine reached 3,270 output tokens per second.\n\n"
            "| Model | Output tok/s |\n|---|---|\n| Qwen3-8B | 6,140 |\n")
    record = extract_text(text, "t.md")
    assert claim(record, 6140).conditions["parallelism"].status == "unrecoverable"
    assert claim(record, 3270).conditions["parallelism"].status == "unrecoverable"


def test_conditions_scopes_systems_as_columns_name_their_cells_hardware():
    text = ("## Results\n\n| Model | 4x L40S (tok/s) | 4x H200 (tok/s) |\n|---|---|---|\n"
            "| Mistral-7B | 3,150 | 8,720 |\n| Qwen3-14B | 1,980 | 6,040 |\n")
    record = extract_text(text, "t.md")
    assert claim(record, 3150).conditions["hardware"].value == "4x L40S"
    assert claim(record, 6040).conditions["hardware"].value == "4x H200"
    hw = claim(record, 6040).conditions["hardware"]
    assert hw.scope == "table_column" and text[hw.span[0]:hw.span[1]] == hw.quote
    assert claim(record, 6040).conditions["model"].value == "Qwen3-14B"


@pytest.mark.parametrize("header", ["Speed-up vs H100", "Throughput H200/H100", "Gain over A100"])
def test_conditions_scopes_a_header_that_compares_names_no_system(header):
    text = (f"## Results\n\n| Model | {header} |\n|---|---|\n| Mistral-7B | 1.8x |\n| Qwen3-14B | 2.1x |\n")
    record = extract_text(text, "t.md")
    assert claim(record, 1.8).conditions["hardware"].status == "unrecoverable"


def test_conditions_scopes_named_condition_columns_give_the_cell_as_written():
    text = ("## Results\n\n| Scenario | Data type | Dataset | Output tok/s |\n|---|---|---|---|\n"
            "| Server | FP8 | OrcaChat-v2 | 9,120 |\n| Offline | | OrcaChat-v2 | 10,480 |\n"
            "| 42 | BF16 | 7 | 8,060 |\n")
    record = extract_text(text, "t.md")
    server, offline, odd = claim(record, 9120), claim(record, 10480), claim(record, 8060)
    assert (server.conditions["scenario"].value, offline.conditions["scenario"].value) == ("Server", "Offline")
    assert server.conditions["dataset"].value == "OrcaChat-v2"
    sc = server.conditions["scenario"]
    assert sc.scope == "table_row" and text[sc.span[0]:sc.span[1]] == sc.quote == "Server"
    assert offline.conditions["precision"].value == "FP8"   # an empty cell repeats the one above it
    # a bare number in a column of names names nothing
    assert odd.conditions["scenario"].status == odd.conditions["dataset"].status == "unrecoverable"


def test_conditions_scopes_a_draft_model_column_is_no_model():
    text = ("## Results\n\nAll rows serve Qwen3-32B on 2x H100.\n\n| Draft model | Output tok/s |\n|---|---|\n"
            "| none | 61.2 |\n| Qwen3-0.6B | 142.7 |\n\n| Model | Output tok/s |\n|---|---|\n| Qwen3-14B | 98.4 |\n")
    record = extract_text(text, "t.md")
    assert claim(record, 142.7).conditions["model"].value == "Qwen3-32B"
    assert claim(record, 98.4).conditions["model"].value == "Qwen3-14B"   # a plain model column still names it


def test_conditions_scopes_figure_caption_under_a_chart():
    record = extract_path(CORPUS / "figure-caption-footnote.md")
    c = claim(record, 2940, "throughput")
    for name in ("input_length", "output_length", "batch_or_concurrency", "engine_version"):
        assert c.conditions[name].status == "stated", name
        assert c.conditions[name].scope == "figure_caption", name
    assert c.conditions["output_length"].value == 256
    assert c.conditions["batch_or_concurrency"].value == 512


def test_conditions_scopes_lead_in_paragraph_covers_its_list():
    text = ("## Prefill kernel\n\nOn an 8xB200 node running Qwen3-32B, the new kernel delivered:\n\n"
            "* 1.4x higher prefill throughput.\n* A 9% reduction in mean TTFT.\n")
    c = claim(extract_text(text, "t.md"), 1.4, "speedup")
    assert c.conditions["hardware"].scope == "paragraph"
    assert c.conditions["hardware"].count == 8
    assert c.conditions["gpu_count"].value == 8
    assert c.conditions["model"].value == "Qwen3-32B"


def test_conditions_scopes_benchmark_command_in_the_section():
    text = ("## Scheduler\n\nThe new scheduler gives a 1.3x speedup in throughput.\n\n```bash\n"
            "python3 -m sglang.bench_serving --backend sglang --dataset-name random --random-input 1024 "
            "--random-output 256 --num-prompts 500\n```\n")
    c = claim(extract_text(text, "t.md"), 1.3, "speedup")
    assert c.conditions["input_length"].scope == "command_line"
    assert c.conditions["input_length"].value == 1024
    assert c.conditions["output_length"].value == 256


def test_conditions_scopes_usage_example_is_not_the_benchmark():
    text = ("## Structured outputs\n\nJSON decoding is up to 4x faster with the new backend.\n\n```\n"
            "python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct\n```\n")
    c = claim(extract_text(text, "t.md"), 4, "speedup")
    assert c.conditions["model"].status == "unrecoverable"


def test_conditions_scopes_front_matter_names_the_hardware():
    text = ('---\ntitle: "Serving notes"\nhardware: "4x L40S"\n---\n\n## Results\n\n'
            "Mistral-7B reached a median TTFT of 85 ms.\n")
    c = claim(extract_text(text, "t.md"), 85, "ttft")
    hw = c.conditions["hardware"]
    assert (hw.status, hw.scope, hw.count) == ("stated", "front_matter", 4)
    assert text[hw.span[0]:hw.span[1]] == hw.quote


def test_conditions_scopes_ambiguous_setups_are_never_picked():
    record = extract_path(CORPUS / "two-isl-ambiguous.md")
    c = claim(record, 22, "relative_change")
    isl = c.conditions["input_length"]
    assert isl.status == "unrecoverable"
    assert "several values" in isl.why and "1024" in isl.why.replace(",", "")
    assert isl.where and isl.value is None


def test_conditions_scopes_baseline_names_do_not_become_conditions():
    text = "On B200, Llama-3.1-70B runs 2.2x faster than on the H100 in our tests with vLLM v0.7.0.\n"
    c = claim(extract_text(text, "t.md"), 2.2, "speedup")
    assert "B200" in c.conditions["hardware"].value
    assert "H100" not in str(c.conditions["hardware"].value)


def test_conditions_scopes_every_condition_present_with_where_when_unrecoverable():
    record = extract_path(CORPUS / "sweep-pareto-figure.md")
    for c in record.claims:
        assert set(c.conditions) == set(CONDITIONS)
        for name, cond in c.conditions.items():
            if cond.status == "unrecoverable":
                assert cond.where and cond.why and cond.value is None, name
            else:
                assert cond.span and record_text(record)[cond.span[0]:cond.span[1]] == cond.quote, name
    assert set(CHECKLIST) <= set(CONDITIONS)


def test_conditions_scopes_sweep_points_at_the_figure():
    record = extract_path(CORPUS / "sweep-pareto-figure.md")
    c = claim(record, 21500, "throughput")
    bc = c.conditions["batch_or_concurrency"]
    assert bc.status == "stated" and bc.sweep is True
    assert bc.value["min"] == 16 and bc.value["max"] == 512
    assert "Figure 2" in bc.note


def test_conditions_scopes_cited_result_points_at_its_source():
    text = ("## Grammar backend\n\nAccording to the benchmark results in their blog, the backend is up to 6x "
            "faster for JSON decoding. Learn more in the [xgr blog post](https://example.org/xgr-bench).\n")
    c = claim(extract_text(text, "t.md"), 6, "speedup")
    assert c.conditions["model"].status == "unrecoverable"
    assert "https://example.org/xgr-bench" in c.conditions["model"].where


@pytest.mark.parametrize("name", sorted(p.name for p in CORPUS.iterdir() if p.suffix in (".md", ".html", ".txt")))
def test_conditions_scopes_corpus_records_never_state_without_provenance(name):
    record = extract_path(CORPUS / name)
    text = record_text(record)
    for c in record.claims:
        for cond in c.conditions.values():
            if cond.status == "stated":
                assert cond.scope and cond.span and text[cond.span[0]:cond.span[1]] == cond.quote


def record_text(record) -> str:
    return Path(record.path).read_text(encoding="utf-8")
