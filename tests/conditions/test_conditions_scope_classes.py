"""Scope failure classes of issue 11, on sentences written for these tests: setup given after the claim
still covers it (class 1), never a condition from another experiment (class 2), clause-level scope
(class 4). Each class has its negative cases: when the text does not tie a value to the claim, the
condition is unrecoverable."""
from __future__ import annotations

from claim_checks import claim, stated, unrecoverable
from extractor.api import extract_text


# -- class 4: clause-level scope --------------------------------------------------------------
def test_each_result_takes_its_own_clause():
    text = ("# Results\n\nWith the new kernels, Llama-3.1-8B on H100 gets 3.6x the throughput, and Mixtral-8x7B "
            "on A100 2.1x higher throughput.\n")
    r = extract_text(text, "t.md")
    first, second = claim(r, 3.6), claim(r, 2.1)
    assert "Llama" in stated(first, "model").value and "H100" in stated(first, "hardware").value
    assert "Mixtral" in stated(second, "model").value and "A100" in stated(second, "hardware").value


def test_coordinated_results_share_the_phrase_after_them_but_not_the_next_clause():
    text = ("# Results\n\nThe scheduler brings 2.5x higher throughput and 4x lower TPOT on Qwen2.5-7B, and "
            "1.5x higher throughput on Qwen2.5-72B.\n")
    r = extract_text(text, "t.md")
    for value in (2.5, 4):
        assert stated(claim(r, value), "model").value.startswith("Qwen2.5-7B")
    assert stated(claim(r, 1.5), "model").value.startswith("Qwen2.5-72B")


def test_setting_before_the_first_result_covers_every_clause():
    text = ("# Results\n\nOn 8x H200 the engine went from 80 to 120 tokens/s per user (1.5x), and then "
            "to 160 tokens/s per user (2x).\n")
    r = extract_text(text, "t.md")
    assert "H200" in stated(claim(r, 2), "hardware").value


def test_next_sentence_with_its_own_result_does_not_leak_in():
    text = ("# Results\n\nDecoding reaches 1,500 tokens/s on one H100. With 64 concurrent users, TTFT stays "
            "under 200 ms.\n")
    r = extract_text(text, "t.md")
    unrecoverable(claim(r, 1500), "batch_or_concurrency")


def test_a_later_sentence_without_a_result_still_gives_the_workload():
    text = ("# Results\n\nDecoding reaches 1,500 tokens/s on one H100. The load was 64 "
            "concurrent requests.\n")
    assert stated(claim(extract_text(text, "t.md"), 1500), "batch_or_concurrency").value == 64


# -- class 2: never from another experiment ----------------------------------------------------
def test_a_value_measured_for_another_metric_stays_with_it():
    text = ("# Results\n\nThroughput is shown for the whole run. TPOT measured at 16 QPS.\n\n"
            "The release brings 2x higher throughput and 3x lower TPOT over the old one on a single L40S.\n")
    r = extract_text(text, "t.md")
    unrecoverable(claim(r, 2), "batch_or_concurrency")
    assert stated(claim(r, 3), "batch_or_concurrency").value == 16


def test_an_example_value_is_not_the_measured_setting():
    text = ("# Background\n\nBatching matters in busy deployments (e.g. 512 concurrent requests).\n\n"
            "# Results\n\nOur engine serves 9,000 tokens/s on one H100.\n")
    unrecoverable(claim(extract_text(text, "t.md"), 9000), "batch_or_concurrency")


def _command_post(intro: str) -> str:
    return ("# Results\n\nThe engine serves 4,200 tokens/s of output on one H100.\n\n# Setup\n\n" + intro +
            "\n\n```bash\nvllm bench serve --model meta-llama/Llama-3.1-8B --input-len 1000 --output-len 200\n```\n")


def test_a_command_the_post_calls_an_example_is_not_the_measurement():
    r = extract_text(_command_post("The command below is only an example of how to start a run:"), "t.md")
    unrecoverable(claim(r, 4200), "input_length")


def test_a_command_said_to_make_the_results_is_the_measurement():
    for intro in ("Here is the command we ran:", "This example command was used to generate these results:"):
        r = extract_text(_command_post(intro), "t.md")
        assert stated(claim(r, 4200), "input_length").value == 1000


def _howto_post(heading: str) -> str:
    return ("# Results\n\nThe engine serves 4,200 tokens/s of output on one H100.\n\n## " + heading +
            "\n\nStart the server, then in a second terminal run the load generator:\n\n```bash\n"
            "vllm bench serve --model meta-llama/Llama-3.1-8B --input-len 1000 --output-len 200\n```\n")


def test_a_how_to_section_for_the_reader_is_not_the_measured_setup():
    for heading in ("How to set up", "How to Setup", "Getting started", "Quick-start", "Quickstart", "Try it out!",
                    "How To Get Started",
                    "Installation and first run"):
        c = claim(extract_text(_howto_post(heading), "t.md"), 4200)
        for name in ("model", "input_length", "output_length"):
            unrecoverable(c, name)


def test_a_setup_or_reproduce_heading_after_the_results_still_sets_up():
    for heading in ("Benchmark setup", "How to reproduce", "Experimental setup"):
        c = claim(extract_text(_howto_post(heading), "t.md"), 4200)
        assert stated(c, "input_length").value == 1000, heading


def test_a_setup_phrase_anywhere_in_the_heading_sets_up():
    # a setup phrase of several words counts anywhere in the heading, a setup word only at its end
    for heading in ("Evaluation Setup and Load Scripts", "Benchmarking notes:", "Notes on the measurement methodology",
                    "Benchmark configuration and caveats", "A word on the test environment we used",
                    "Serving details and known limits"):
        c = claim(extract_text(_howto_post(heading), "t.md"), 4200)
        assert stated(c, "input_length").value == 1000, heading


def test_a_heading_with_no_setup_phrase_after_the_results_does_not_set_up():
    for heading in ("Hardware trends for next year", "What we learned about tuning", "System design goals",
                    "Benchmark results in detail"):
        c = claim(extract_text(_howto_post(heading), "t.md"), 4200)
        unrecoverable(c, "input_length")


def _alternatives_post(lead_in: str) -> str:
    return ("# Setup\n\n" + lead_in + "\n\n- Long prompts: inputs of 8000 tokens and outputs of 16 tokens.\n"
            "- Chat: a realistic online serving load with short prompts.\n\n"
            "# Results\n\nThe engine reaches 5,300 tokens/s of total throughput on one H100.\n")


def test_an_item_of_a_list_of_other_experiments_is_not_the_claims_setting():
    for lead_in in ("We measure two workloads:", "The runs cover three representative serving scenarios:"):
        c = claim(extract_text(_alternatives_post(lead_in), "t.md"), 5300)
        unrecoverable(c, "scenario")
        unrecoverable(c, "input_length")


def test_a_setup_list_of_one_experiment_still_sets_up():
    for lead_in in ("Our setup:", "The workload we measure:"):
        c = claim(extract_text(_alternatives_post(lead_in), "t.md"), 5300)
        assert stated(c, "input_length").value == 8000, lead_in


def _figures_post(paragraph: str) -> str:
    return ("# Results\n\n" + paragraph + "\n\n![a](a.png)\n\nFigure 1: Accuracy of the models on reasoning "
            "tasks.\n\n![b](b.png)\n\nFigure 2: Serving cost per million tokens, batch size 4, 2k/1k ISL/OSL.\n")


def test_a_paragraph_about_several_figures_does_not_take_one_figures_caption():
    for paragraph in ("As Figures 1 and 2 show, the engine cuts serving cost by 41% against the older stack.",
                      "Figure 1, Figure 2: the engine cuts serving cost by 41% against the older stack."):
        c = claim(extract_text(_figures_post(paragraph), "t.md"), -41)
        unrecoverable(c, "batch_or_concurrency")
        unrecoverable(c, "input_length")


def test_a_paragraph_about_one_figure_takes_its_caption():
    c = claim(extract_text(_figures_post("As Figure 2 shows, the engine cuts serving cost by 41% against the "
                                         "older stack."), "t.md"), -41)
    assert stated(c, "batch_or_concurrency").value == 4


def test_a_result_in_one_figures_caption_does_not_take_the_previous_figures_settings():
    text = ("# Results\n\nSome words about the models.\n\n<p>\n<img src=\"a.svg\">\n<br>\nFigure 1: Accuracy "
            "on reasoning tasks.\n</p>\n\n<p>\n<img src=\"b.svg\">\n<br>\nFigure 2: Throughput of the models, "
            "batch size 4, 2k/1k ISL/OSL.\n</p>\n<p>\n<img src=\"c.svg\">\n<br>\nFigure 3: The engine cuts "
            "serving cost by up to 41%.\n</p>\n")
    c = claim(extract_text(text, "t.md"), -41)
    unrecoverable(c, "batch_or_concurrency")
    unrecoverable(c, "input_length")


def test_prose_above_the_result_still_sets_it_up():
    text = ("# Results\n\nAll runs use batch size 4.\n\n<p>\n<img src=\"a.svg\">\n<br>\nFigure 1: Accuracy "
            "on reasoning tasks.\n</p>\n\nLater on, the engine cuts serving cost by 41%.\n")
    assert stated(claim(extract_text(text, "t.md"), -41), "batch_or_concurrency").value == 4


def test_accuracy_evaluation_datasets_are_not_a_throughput_workload():
    text = ("# Setup\n\nWe serve Llama-3.1-8B on one H100. For the accuracy evaluations we use GSM8K and "
            "MMLU.\n\n# Results\n\nThe FP8 model serves 1.8x more tokens per second than BF16.\n")
    unrecoverable(claim(extract_text(text, "t.md"), 1.8), "dataset")


def test_a_long_result_title_ending_in_a_setup_word_is_not_a_setup_section():
    text = ("# Results\n\nDecode TPOT fell to 21 ms on 8x B200.\n\n"
            "## Why we did not keep the fastest prefill configuration\n\nThe TP2 prefill layout was faster "
            "but used twice the GPUs.\n")
    unrecoverable(claim(extract_text(text, "t.md"), 21), "parallelism")


def test_a_short_setup_heading_still_sets_up():
    text = ("# Results\n\nDecode TPOT fell to 21 ms.\n\n## Hardware configuration\n\nAll runs: 8x B200 "
            "with TP8.\n")
    assert "TP8" in stated(claim(extract_text(text, "t.md"), 21), "parallelism").value


# -- class 1: setup given after the claim ------------------------------------------------------
def test_a_statement_of_universal_scope_after_the_claim_covers_it():
    text = ("# Results\n\nThe engine serves 6,100 tokens/s of output.\n\n# Closing notes\n\nThanks to the "
            "team. All experiments in this post use Mistral-7B-Instruct on 2x L40S with vLLM v0.8.3.\n")
    c = claim(extract_text(text, "t.md"), 6100)
    model = stated(c, "model")
    assert model.value.startswith("Mistral-7B") and model.scope == "document"
    assert stated(c, "engine_version").value == "vLLM v0.8.3"


def test_unless_noted_otherwise_covers_the_claims():
    text = ("# Results\n\nPrefill runs at 30,000 tokens/s.\n\n> Unless noted otherwise, we use an input "
            "length of 2,048 tokens.\n")
    assert stated(claim(extract_text(text, "t.md"), 30000), "input_length").value == 2048


def test_a_sentence_that_only_mentions_experiments_is_not_universal():
    text = ("# Results\n\nPrefill runs at 30,000 tokens/s.\n\n# Notes\n\nWe plan more experiments on "
            "Mistral-7B next month.\n")
    unrecoverable(claim(extract_text(text, "t.md"), 30000), "model")


# -- a serving run named as a figure's load (conditions.yaml serving_scenario) ----------------------------------
def test_a_serving_benchmark_or_scenario_is_the_scenario():
    from claim_checks import claim, stated
    from extractor.api import extract_text
    text = "# Results\n\nIn low-concurrency serving scenarios the new kernel cut TPOT by 35%.\n"
    assert "serving" in stated(claim(extract_text(text, "t.md"), -35), "scenario").value


def test_serving_as_a_product_or_a_general_regime_is_no_scenario():
    from claim_checks import claim, unrecoverable
    from extractor.api import extract_text
    for sentence in ("Our serving engine cut TPOT by 35%.", "The serving throughput went up by 35%.",
                     "It cut TPOT by 35%, which matters in memory-constrained serving scenarios."):
        text = f"# Results\n\n{sentence}\n"
        unrecoverable(claim(extract_text(text, "t.md"), 35 if "up" in sentence else -35), "scenario")
