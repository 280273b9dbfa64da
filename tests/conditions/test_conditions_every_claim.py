"""Conditions of every claim, not only headlines (issue 24): the model a setup section writes out for a claim whose
own place names only the family, a device counted with its memory size, a generation length written as steps,
a run labelled with one request. Sentences written for these tests; each class has its negative cases."""
from __future__ import annotations

from claim_checks import claim, stated, unrecoverable
from extractor.api import extract_text


# -- a family name refined by the most specific rung that writes it out ------------------------------------------
_SETUP_THEN_RESULTS = ("Our gateway also fronts the hosted Mistral-7B service.\n\n## Evaluation\n\n"
                       "### Experimental setup\n\nWe serve Mistral-Small-24B on 8x H100 for every run below.\n\n"
                       "### Results\n\nMatching the settings Mistral published, decode reaches 3,400 tok/s per node.\n")


def test_the_setup_sections_full_name_refines_a_family_named_near_the_claim():
    # (before: the two fuller names of the post, the setup's and the introduction's, left the family alone)
    cond = stated(claim(extract_text(_SETUP_THEN_RESULTS, "t.md"), 3400), "model")
    assert cond.value == "Mistral-Small-24B" and cond.scope == "setup_section"


def test_two_full_names_at_the_most_specific_rung_that_writes_one_out_leave_the_family():
    text = _SETUP_THEN_RESULTS.replace("We serve Mistral-Small-24B on", "We serve Mistral-Small-24B and Mistral-Nemo-12B on")
    assert unrecoverable(claim(extract_text(text, "t.md"), 3400), "model").value_partial == "Mistral"


def test_a_fuller_name_only_in_the_introduction_is_taken_when_no_nearer_rung_writes_one():
    text = _SETUP_THEN_RESULTS.replace("We serve Mistral-Small-24B on", "We serve it on")
    assert stated(claim(extract_text(text, "t.md"), 3400), "model").value == "Mistral-7B"


# -- a bare count before a device written with its memory size -----------------------------------------------
def test_a_count_before_a_device_with_its_memory_counts_devices():
    text = "# Results\n\nOn a 70B model with 4 A100x80GB, the server reaches 1.4 rps at 9 seconds of latency.\n"
    c = claim(extract_text(text, "t.md"), 1.4)
    assert stated(c, "hardware").value == "4x A100-80GB"
    assert stated(c, "gpu_count").value == 4


def test_a_count_before_a_device_with_its_memory_and_a_machine_noun_counts_machines():
    text = "# Results\n\nOn 2 H100 80GB nodes, the server reaches 1.4 rps at 9 seconds of latency.\n"
    c = claim(extract_text(text, "t.md"), 1.4)
    assert not stated(c, "hardware").value.startswith("2x")


def test_a_bare_count_before_a_device_without_memory_still_needs_a_device_word():
    text = "# Results\n\nWe tried 4 A100 configurations; the best reaches 1.4 rps at 9 seconds of latency.\n"
    c = claim(extract_text(text, "t.md"), 1.4)
    assert not str(stated(c, "hardware").value).startswith("4x")


# -- a generation length written as generation steps ---------------------------------------------------------
def test_generation_steps_are_the_output_length():
    text = "# Results\n\nWith 1200-token prompts and 60 generation steps, throughput is 2.4x higher.\n"
    c = claim(extract_text(text, "t.md"), 2.4)
    assert stated(c, "output_length").value == 60
    assert stated(c, "input_length").value == 1200


def test_decoding_steps_of_a_profile_are_no_output_length():
    text = "# Results\n\nWe profile 100 decoding steps; the fused kernel gives 2.4x higher throughput on one H100.\n"
    unrecoverable(claim(extract_text(text, "t.md"), 2.4), "output_length")


# -- a run labelled with one request -------------------------------------------------------------------------
def test_a_run_labelled_with_one_request_has_a_batch_of_one():
    text = "# Results\n\nTTFT is 1885.25 ms on 2x H100 (Request=1, INPUT/OUTPUT=1024/1024).\n"
    c = claim(extract_text(text, "t.md"), 1885.25)
    assert stated(c, "batch_or_concurrency").value == 1


def test_a_label_counting_more_requests_is_no_batch():
    text = "# Results\n\nTTFT is 1885.25 ms on 2x H100 (Requests=1000, INPUT/OUTPUT=1024/1024).\n"
    unrecoverable(claim(extract_text(text, "t.md"), 1885.25), "batch_or_concurrency")


def test_a_count_of_one_thousand_requests_is_no_batch_of_one():
    text = "# Results\n\nWith requests: 1,000 sent at once, TTFT stays at 1885.25 ms on 8x H100.\n"
    cond = claim(extract_text(text, "t.md"), 1885.25).conditions["batch_or_concurrency"]
    assert cond.value != 1


# -- "end-to-end performance" names no one metric ------------------------------------------------------------------
_E2E_CAPTION = ("# Results\n\nWith weight-only quantization, the engine gives a 1.4x reduction in latency and a 2.9x "
                "increase in throughput over the 16-bit baseline.\n\n![chart](a.png)\n\n*Figure 1: {caption} with 24 "
                "clients, on 2x A100 with two-way tensor parallelism.*\n")


def test_a_caption_on_end_to_end_performance_fits_a_throughput_claim():
    text = _E2E_CAPTION.format(caption="End-to-end serving performance of both engines")
    c = claim(extract_text(text, "t.md"), 2.9)
    assert stated(c, "batch_or_concurrency").value == 24
    assert stated(c, "parallelism").value == "TP2"


def test_a_caption_on_end_to_end_latency_still_fits_only_latency_claims():
    text = _E2E_CAPTION.format(caption="End-to-end latency of both engines")
    record = extract_text(text, "t.md")
    unrecoverable(claim(record, 2.9), "batch_or_concurrency")
    assert stated(claim(record, 1.4), "batch_or_concurrency").value == 24


def test_a_run_measuring_end_to_end_performance_binds_its_load_to_no_metric():
    text = ("# Results\n\n## Serving run\n\nTo measure end-to-end serving performance, we run 200 requests at "
            "concurrency 16, each with about 8k input tokens.\n\n| Config | Output tok/s |\n| -- | -- |\n"
            "| FP8 | 913.4 |\n")
    c = claim(extract_text(text, "t.md"), 913.4)
    assert stated(c, "batch_or_concurrency").value == 16


# -- a scenario named with the metric its runs measured -------------------------------------------------------------
_MODES = ("# Engine comparison\n\nOur engine reaches up to 2.6x higher throughput than the reference engine on "
          "Model-70B.\n\n## Methodology\n\nThere are two modes.\n\n- In the offline mode, 1K to 2K "
          "requests are submitted at once, measuring output throughput.\n- In the online mode, requests arrive at 1 to 8 "
          "requests per second, measuring the median end-to-end latency.\n\n## Results\n\n{results}\n")


def test_a_throughput_claim_takes_the_scenario_and_load_of_the_runs_that_measured_throughput():
    text = _MODES.format(results="Latency stays below 180 ms at every rate.")
    c = claim(extract_text(text, "t.md"), 2.6)
    assert "offline" in stated(c, "scenario").value
    cond = stated(c, "batch_or_concurrency")
    assert cond.value == {"min": 1000, "max": 2000} or cond.value == [1000, 2000] or cond.sweep


def test_a_latency_claim_takes_the_online_scenario():
    text = _MODES.format(results="In the online runs, latency stays below 180 ms at every rate.")
    c = claim(extract_text(text, "t.md"), 180)
    assert "online" in stated(c, "scenario").value


def test_a_claim_whose_paragraph_names_both_modes_takes_neither_modes_load():
    text = _MODES.format(results="The online benchmark below shows a trend like the offline case. Both engines sustain "
                                 "a throughput of 3,900 tok/s.")
    unrecoverable(claim(extract_text(text, "t.md"), 3900), "batch_or_concurrency")


def test_requests_sent_at_once_is_the_batch_but_a_limit_is_not():
    text = "# Results\n\nWe send 512 requests at once and reach 7,300 tok/s on 8x H100.\n"
    assert stated(claim(extract_text(text, "t.md"), 7300), "batch_or_concurrency").value == 512
    text = "# Results\n\nThe gateway accepts up to 512 requests at once and reaches 7,300 tok/s on 8x H100.\n"
    unrecoverable(claim(extract_text(text, "t.md"), 7300), "batch_or_concurrency")


# -- a length written number first ------------------------------------------------------------------------------------
def test_a_length_written_before_its_label_is_the_claims_own():
    text = ("# Results\n\nFor prefill we tested an input length of 4,096 on 4 nodes.\n\nIn a larger batch setting (256 "
            "sequences, 2,000 input length), decode reaches 21,930 tokens per second per node.\n")
    assert stated(claim(extract_text(text, "t.md"), 21930), "input_length").value == 2000


def test_inputs_counted_in_thousands_of_tokens_are_the_input_length():
    text = "# Results\n\n## Decode\n\nWith 4K inputs on 9 nodes, each node decodes 16,420 tokens/sec.\n"
    assert stated(claim(extract_text(text, "t.md"), 16420), "input_length").value in (4000, 4096)


def test_a_count_of_inputs_a_limit_or_a_printed_count_is_no_input_length():
    for text in ("# Results\n\nWe ran 1000 inputs through the server at 16,420 tokens/sec on 8x H100.\n",
                 "# Results\n\nWithin the 2000 input length limit, the server reaches 16,420 tokens/sec on 8x H100.\n",
                 "# Results\n\n```text\nNumber of parameters: 2768345600\nPrompt length\n```\n\nThe server reaches "
                 "16,420 tokens/sec on 8x H100.\n"):
        unrecoverable(claim(extract_text(text, "t.md"), 16420), "input_length")


def test_an_output_length_written_before_its_label():
    text = "# Results\n\nAt 8K prompt length and 1K output length, the server reaches 16,420 tokens/sec on 8x H100.\n"
    c = claim(extract_text(text, "t.md"), 16420)
    assert stated(c, "output_length").value in (1000, 1024)
    assert stated(c, "input_length").value in (8000, 8192)


# -- "respectively": the k-th figure takes the k-th value ---------------------------------------------------------------
_RESPECTIVELY = ("# Results\n\n- **Prefill**: Four nodes process 41,210, 39,870, and 36,455 tokens per second "
                 "at prompt lengths of 1K, 2K, and 4K{end}.\n")


def test_a_sentence_that_says_respectively_pairs_its_figures_with_the_list_in_order():
    record = extract_text(_RESPECTIVELY.format(end=", respectively"), "t.md")
    assert [stated(claim(record, v), "input_length").value for v in (41210, 39870, 36455)] == [1000, 2000, 4000]


def test_without_respectively_the_list_is_no_single_figures_value():
    record = extract_text(_RESPECTIVELY.format(end=""), "t.md")
    unrecoverable(claim(record, 41210), "input_length")   # (another clause's list)
    cond = stated(claim(record, 36455), "input_length")
    assert cond.sweep and cond.value["values"] == [1000, 2000, 4000]


def test_a_list_of_another_length_than_the_figures_is_not_paired():
    text = ("# Results\n\nFour nodes process 41,210 and 36,455 tokens per second at prompt lengths of 1K, 2K, and 4K, "
            "respectively.\n")
    cond = stated(claim(extract_text(text, "t.md"), 36455), "input_length")
    assert cond.sweep and cond.value["values"] == [1000, 2000, 4000]


# -- a family named in passing by the introduction ----------------------------------------------------------------------
_FEATURES = ("This release brings new features:\n\n- A faster router: up to 1.7x throughput.\n- Expert kernels for "
             "Mixtral models: up to 2.2x decoding throughput.\n\n## Router\n\nOn our cluster the router reaches "
             "{figure} tokens per second.\n\n## Expert kernels\n\n```\nvllm serve mistralai/Mixtral-8x7B"
             "-Instruct-v0.1 --tp 8\nvllm bench serve --model mistralai/Mixtral-8x7B-Instruct-v0.1 --num-prompts 500"
             "\n```\n")


def test_a_family_the_introduction_names_for_another_feature_is_not_every_results_model():
    c = claim(extract_text(_FEATURES.format(figure="153,120"), "t.md"), 153120)
    assert c.conditions["model"].status == "unrecoverable"


def test_a_family_the_claims_own_sentence_names_is_the_posts_one_model_of_it():
    c = claim(extract_text(_FEATURES.format(figure="153,120"), "t.md"), 2.2)
    assert "Mixtral-8x7B" in stated(c, "model").value
