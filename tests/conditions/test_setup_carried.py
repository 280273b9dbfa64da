"""Issue 11 class 1, setup carried to the claim from where posts put it, on posts written for these tests:
a summary's clauses read in the front matter as written, a subsection's own set-up before its parents',
the items of a comma series of results. Each with its negative case (two values in scope, an item that is
nobody's): the condition stays unrecoverable."""
from __future__ import annotations

from claim_checks import claim, stated, unrecoverable
from extractor.api import extract_text


# -- a front-matter summary parts into clauses like a sentence of the body -------------------------
def test_each_result_of_a_summary_takes_its_own_clause():
    text = ('---\ntitle: "Engine notes"\nsummary: "The release brings up to 2.4x higher throughput for '
            'Mistral-7B and 1.6x for Phi-3-mini on one L4 GPU."\n---\n\nSome words of introduction.\n')
    r = extract_text(text, "t.md")
    assert stated(claim(r, 2.4), "model").value == "Mistral-7B"
    assert stated(claim(r, 1.6), "model").value == "Phi-3-mini"


def test_an_item_of_a_series_without_a_result_is_nobodys():
    text = ('---\ntitle: "Engine 3.0: 5x Faster Prefill on Qwen2-7B, 2x Faster Decoding, Vision Support for '
            'Pixtral-12B"\n---\n\nSome words of introduction.\n')
    r = extract_text(text, "t.md")
    assert stated(claim(r, 5), "model").value == "Qwen2-7B"
    unrecoverable(claim(r, 2), "model")   # neither the first item's model nor the trailing item's


# -- a subsection's own set-up wins over what the sections above state for all of them -------------
POST_WITH_SUBSECTIONS = (
    "# Benchmarks\n\nThe runs below use ISL 1024 and ISL 8192 on one H100.\n\n"
    "## Short prompts (1024 input tokens)\n\nThe engine reaches 12,345 tokens/s.\n\n"
    "## Mixed prompts\n\nThe engine reaches 7,654 tokens/s.\n")


def test_the_subsection_heading_states_its_workload():
    r = extract_text(POST_WITH_SUBSECTIONS, "t.md")
    assert stated(claim(r, 12345), "input_length").value == 1024
    assert "H100" in stated(claim(r, 12345), "hardware").value   # the parent's set-up still covers it


def test_two_values_above_a_subsection_that_states_none_stay_ambiguous():
    r = extract_text(POST_WITH_SUBSECTIONS, "t.md")
    assert "several values" in unrecoverable(claim(r, 7654), "input_length").why


# -- a setup section in the back matter covers the whole post; one under another experiment does not --
def test_an_appendix_setup_covers_the_results_before_it():
    text = ("# Results\n\nThe engine reaches 4,321 tokens/s with the new scheduler.\n\n"
            "# Appendix\n\n## Test environment\n\n- GPU: 2x L40S\n- Model: Qwen2.5-14B\n- Dataset: ShareGPT\n")
    c = claim(extract_text(text, "t.md"), 4321)
    assert "L40S" in stated(c, "hardware").value
    assert stated(c, "model").scope == "setup_section"
    assert "ShareGPT" in stated(c, "dataset").value


def test_the_setup_of_another_experiment_does_not_cover_a_claim():
    text = ("# Experiment one\n\nThe engine reaches 4,321 tokens/s with the new scheduler.\n\n"
            "# Experiment two\n\n## Test environment\n\n- GPU: 2x L40S\n- Model: Qwen2.5-14B\n\n"
            "The engine reaches 2,100 tokens/s.\n")
    r = extract_text(text, "t.md")
    unrecoverable(claim(r, 4321), "hardware")
    unrecoverable(claim(r, 4321), "model")
    assert "L40S" in stated(claim(r, 2100), "hardware").value


# -- a rate the load was offered at names the fixed-rate scenario; a rate reached is a result -----------
def test_a_rate_measured_at_is_the_fixed_rate_scenario():
    r = extract_text("# Results\n\nMean TPOT is 21 ms for Llama-3.1-8B on one H100, measured at 12 QPS.\n", "t.md")
    cond = stated(claim(r, 21), "scenario")
    assert cond.value == "12 QPS" and cond.canonical == "fixed-rate"


def test_a_fixed_request_rate_flag_named_by_the_setup_is_the_scenario():
    text = ("# Results\n\nMean TTFT is 480 ms on one H100.\n\n# Appendix\n\n## Benchmark methodology\n\n"
            "Requests were sent at a fixed `--request-rate` for every point, with random prompts.\n")
    cond = stated(claim(extract_text(text, "t.md"), 480), "scenario")
    assert cond.canonical == "fixed-rate" and cond.scope == "setup_section"


def test_a_rate_a_system_sustains_is_a_result_not_its_scenario():
    text = "# Results\n\nThe new router sustains 8 QPS on Llama-3.1-8B before the P99 target is missed, a 1.6x gain.\n"
    r = extract_text(text, "t.md")
    unrecoverable(claim(r, 1.6), "scenario")
    unrecoverable(claim(r, 8), "scenario")


# -- a Python script or module named for a benchmark is a benchmark command; a launch script is not ----
def _router_post(command: str) -> str:
    return f"# Results\n\nOur router gives 1.7x higher throughput.\n\n```\n{command}\n```\n"


def test_a_script_named_for_a_benchmark_states_what_it_passes():
    text = _router_post("python tools/bench_router.py --model-path Qwen/Qwen2.5-7B-Instruct --num-prompts 400")
    cond = stated(claim(extract_text(text, "t.md"), 1.7), "model")
    assert cond.value == "Qwen/Qwen2.5-7B-Instruct" and cond.scope == "command_line"


def test_a_script_that_only_serves_is_no_benchmark_command():
    text = _router_post("python serve_app.py --model-path Qwen/Qwen2.5-7B-Instruct --port 8000")
    unrecoverable(claim(extract_text(text, "t.md"), 1.7), "model")


# -- a statement of universal scope after the results covers them; a statement about one run does not -
def test_all_performance_data_collected_on_covers_the_results_before_it():
    text = ("# Results\n\nThe new scheduler reaches 6,789 tokens/s.\n\n# Notes\n\n"
            "All performance data was collected on 4x L40S with Qwen2.5-14B.\n")
    c = claim(extract_text(text, "t.md"), 6789)
    assert stated(c, "hardware").scope == "document" and stated(c, "model").value == "Qwen2.5-14B"


def test_data_of_another_release_does_not_cover_the_results():
    text = ("# Results\n\nThe new scheduler reaches 6,789 tokens/s.\n\n# Notes\n\n"
            "Performance data for the older release was collected on 4x L40S with Qwen2.5-14B.\n")
    c = claim(extract_text(text, "t.md"), 6789)
    unrecoverable(c, "hardware")
    unrecoverable(c, "model")


def test_a_note_box_saying_every_run_can_be_reproduced_with_a_stack_covers_the_results():
    text = ("# Results\n\nThe new scheduler reaches 6,789 tokens/s on Qwen2.5-14B.\n\n"
            "> [!NOTE]\n> Every run in this post can be reproduced with the following stack:\n>\n"
            "> - **SGLang**: v0.5.3\n> - **CUDA**: 12.8\n\n# Closing words\n\nThanks for reading.\n")
    c = stated(claim(extract_text(text, "t.md"), 6789), "engine_version")
    assert c.value == "SGLang v0.5.3" and c.scope == "document"


def test_a_stack_that_reproduces_one_other_run_does_not_cover_the_results():
    text = ("# Results\n\nThe new scheduler reaches 6,789 tokens/s on Qwen2.5-14B.\n\n"
            "The older baseline can be reproduced with SGLang v0.4.1.\n")
    unrecoverable(claim(extract_text(text, "t.md"), 6789), "engine_version")


def test_two_stacks_in_a_universal_note_stay_ambiguous():
    text = ("# Results\n\nThe new scheduler reaches 6,789 tokens/s on Qwen2.5-14B.\n\n"
            "All experiments can be reproduced with SGLang v0.5.3 or SGLang v0.5.4.\n")
    assert "several values" in unrecoverable(claim(extract_text(text, "t.md"), 6789), "engine_version").why


def test_the_above_numbers_collected_with_covers_the_results_before_it_only():
    text = ("# Decode\n\nThe new scheduler reaches 6,789 tokens/s on Qwen2.5-14B.\n\n"
            "The above numbers were collected with SGLang v0.5.3 on 2x L40S.\n\n"
            "# Prefill\n\nPrefill reaches 43,210 tokens/s on Qwen2.5-14B.\n")
    r = extract_text(text, "t.md")
    assert stated(claim(r, 6789), "hardware").value == "2x L40S"
    assert stated(claim(r, 6789), "engine_version").value == "SGLang v0.5.3"
    unrecoverable(claim(r, 43210), "hardware")
    unrecoverable(claim(r, 43210), "engine_version")


def test_the_results_in_this_post_were_measured_on_covers_the_headline():
    text = ('---\ntitle: "Engine notes"\nsummary: "The release brings 2.4x higher decode throughput."\n---\n\n'
            "# About\n\nThe results in this post were measured on 2x L40S with Mistral-7B.\n")
    c = claim(extract_text(text, "t.md"), 2.4)
    assert stated(c, "hardware").value == "2x L40S" and stated(c, "model").value == "Mistral-7B"


def test_the_baseline_results_in_this_post_do_not_cover_the_headline():
    text = ('---\ntitle: "Engine notes"\nsummary: "The release brings 2.4x higher decode throughput."\n---\n\n'
            "# About\n\nThe baseline results in this post were measured on 2x L40S with Mistral-7B.\n")
    c = claim(extract_text(text, "t.md"), 2.4)
    unrecoverable(c, "hardware")
    unrecoverable(c, "model")


# -- a table column that holds both lengths gives each claim row its input and output length ----------
def _table_post(header: str, cell: str) -> str:
    return ("# Results\n\nDecode throughput by workload on one L40S:\n\n"
            f"| Model | {header} | Output throughput (tok/s) |\n| --- | --- | --- |\n"
            f"| Qwen2.5-7B | {cell} | 2,345 |\n| Qwen2.5-7B | 512/64 | 3,456 |\n")


def test_an_isl_osl_column_gives_the_rows_lengths():
    r = extract_text(_table_post("ISL/OSL", "2048/256"), "t.md")
    c = claim(r, 2345)
    assert stated(c, "input_length").value == 2048 and stated(c, "output_length").value == 256
    assert stated(claim(r, 3456), "output_length").value == 64


def test_a_spelled_out_paired_length_column_with_k_values():
    c = claim(extract_text(_table_post("Input / output seq length", "8K/1K"), "t.md"), 2345)
    assert stated(c, "input_length").value == 8000 and stated(c, "output_length").value == 1000


def test_a_paired_column_of_other_quantities_gives_no_length():
    r = extract_text(_table_post("Input/output throughput", "2048/256"), "t.md")
    unrecoverable(claim(r, 2345), "input_length")
    unrecoverable(claim(r, 2345), "output_length")


# -- labelled set-up items of a list cover its labelled result items; a list of several runs does not ---------
def test_labelled_setting_items_cover_the_result_item_of_their_list():
    text = ("# Tuning\n\n* **Model:** Qwen2.5-14B\n* **Dataset:** LongBench\n* **GPU:** 1x L40S\n"
            "* **Result:** the new kernel gives a 1.3x speedup over the old one.\n")
    c = claim(extract_text(text, "t.md"), 1.3)
    assert stated(c, "hardware").value == "1x L40S" and stated(c, "dataset").value == "LongBench"
    assert stated(c, "model").value == "Qwen2.5-14B"


def test_labelled_setting_items_after_the_result_item_cover_it_too():
    text = ("# Tuning\n\n- Result: the new kernel gives a 1.3x speedup over the old one.\n"
            "- Hardware: 2x L40S\n- Model: Qwen2.5-14B\n")
    c = claim(extract_text(text, "t.md"), 1.3)
    assert stated(c, "hardware").value == "2x L40S" and stated(c, "model").value == "Qwen2.5-14B"


def test_a_labelled_item_beside_an_unlabelled_result_is_a_parallel_statement():
    text = "# Highlights\n\n- Model: Qwen2.5-14B support\n- The new kernel gives a 1.3x speedup over the old one.\n"
    unrecoverable(claim(extract_text(text, "t.md"), 1.3), "model")


def test_a_list_that_labels_two_runs_alike_sets_up_neither():
    text = ("# Tuning\n\n- GPU: 1x L40S\n- Result: a 1.3x speedup over the old kernel.\n"
            "- GPU: 2x A10G\n- Result: a 1.6x speedup over the old kernel.\n")
    r = extract_text(text, "t.md")
    for value in (1.3, 1.6):
        unrecoverable(claim(r, value), "hardware")
        unrecoverable(claim(r, value), "parallelism")


def test_the_items_of_a_list_of_alternative_runs_set_up_no_other_item():
    text = ("# Runs\n\nWe test two workloads:\n\n- Dataset: LongBench\n"
            "- Result: a 1.3x speedup over the old kernel on one L40S.\n")
    unrecoverable(claim(extract_text(text, "t.md"), 1.3), "dataset")
