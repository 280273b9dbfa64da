"""Wrong ties between a claim and a condition (issue 11, classes 2, 3 and 4), on sentences written for these
tests: a name that gives only the kind of a value, a number that counts another quantity, a file or page
anchor named like a model. Each case has its positive counterpart: what the text does tie stays stated."""
from __future__ import annotations

from claim_checks import claim, stated, unrecoverable
from extractor.api import extract_text


# -- a name that gives the kind, not the value: value_partial ----------------------------------------------
def test_a_model_family_alone_is_not_the_model_measured():
    text = "# Results\n\nOur Mistral deployment serves 2,400 tok/s per GPU on H100.\n"
    c = claim(extract_text(text, "t.md"), 2400)
    cond = unrecoverable(c, "model")
    assert cond.value_partial == "Mistral"
    assert "Mistral" in cond.why


def test_a_family_with_size_or_version_is_the_model():
    text = "# Results\n\nOur Mistral-7B-Instruct deployment serves 2,400 tok/s per GPU on H100.\n"
    assert stated(claim(extract_text(text, "t.md"), 2400), "model").value.startswith("Mistral-7B")
    text = "# Results\n\nOn Qwen 2.5 72B the server reaches 1,250 tok/s on H200.\n"
    assert stated(claim(extract_text(text, "t.md"), 1250), "model").canonical == "Qwen2.5 72B"


def test_a_family_named_with_the_posts_one_checkpoint_of_it_is_that_checkpoint():
    text = ("# Serving Gemma\n\nGemma reaches 3,100 tok/s on one L4.\n\n## Setup\n\nWe use gemma-2-9b-it "
            "throughout, with FP16 weights.\n")
    c = claim(extract_text(text, "t.md"), 3100)
    assert stated(c, "model").value == "gemma-2-9b-it"


def test_a_family_with_two_checkpoints_in_the_post_stays_partial():
    text = ("# Serving Gemma\n\nGemma reaches 3,100 tok/s on one L4.\n\n## Setup\n\nWe use gemma-2-9b-it and "
            "gemma-2-27b-it, with FP16 weights.\n")
    assert unrecoverable(claim(extract_text(text, "t.md"), 3100), "model").value_partial == "Gemma"


def test_a_checkpoint_named_only_in_the_acknowledgements_is_no_member_the_post_writes_out():
    text = ("# Serving Gemma\n\nGemma reaches 3,100 tok/s on one L4.\n\n## Kernels\n\nThe fused kernels were "
            "tuned on gemma-2-9b-it.\n\n## Acknowledgements\n\nThanks to the team behind the gemma-2-27b-it "
            "kernels.\n")
    assert stated(claim(extract_text(text, "t.md"), 3100), "model").value == "gemma-2-9b-it"


def test_mixed_precision_alone_names_no_format():
    text = "# Results\n\nWith mixed precision, the decoder reaches 1,900 tok/s on two A100 GPUs.\n"
    cond = unrecoverable(claim(extract_text(text, "t.md"), 1900), "precision")
    assert cond.value_partial == "mixed precision"


def test_mixed_precision_with_its_formats_keeps_the_formats():
    text = ("# Results\n\nWith mixed precision (FP8 experts and BF16 attention) the decoder reaches 1,900 tok/s "
            "on two A100 GPUs.\n")
    value = stated(claim(extract_text(text, "t.md"), 1900), "precision").value
    assert "FP8" in value and "BF16" in value and "mixed" not in value


# -- a number that counts another quantity is no length -----------------------------------------------------
def test_a_count_of_users_after_a_length_label_is_no_length():
    text = ("# Results\n\nOn 4x L40S with Phi-3-mini, P50 latency stays under 700 ms.\n\n"
            "*Figure 3: P50 latency by prompt length at 32 users.*\n")
    unrecoverable(claim(extract_text(text, "t.md"), 700), "input_length")


def test_a_length_label_with_a_token_count_is_a_length():
    text = "# Results\n\nWith a prompt length of 4096 tokens, P50 latency stays under 700 ms on 4x L40S.\n"
    assert stated(claim(extract_text(text, "t.md"), 700), "input_length").value == 4096


# -- a file name or page anchor named like a model is no model ---------------------------------------------
def test_a_config_file_or_page_anchor_is_not_the_model():
    text = ("# Results\n\n| Step | Decode speed | Guide |\n|---|---|---|\n| Fused kernels | 410 tok/s | "
            "[phi3_mini#fused-kernels](https://example.org/guide/phi3_mini#fused-kernels) |\n\n"
            "The launcher reads llama_8b.yaml and reaches 950 tok/s on one A10G.\n")
    r = extract_text(text, "t.md")
    unrecoverable(claim(r, 410), "model")
    unrecoverable(claim(r, 950), "model")


def test_a_model_named_in_prose_next_to_a_file_is_the_model():
    text = "# Results\n\nWith Llama-3.1-8B (settings in run.yaml) the server reaches 950 tok/s on one A10G.\n"
    assert stated(claim(extract_text(text, "t.md"), 950), "model").value == "Llama-3.1-8B"


# -- a rate that is a result, or a run that measured another metric, is no load of the claim --------------
def test_a_rate_given_as_a_result_is_not_the_load():
    text = ("# Results\n\nOn 2x H100 with Llama-3.1-8B the gateway handles 45 QPS before errors appear, and its "
            "median TTFT is 180 ms.\n")
    unrecoverable(claim(extract_text(text, "t.md"), 180, "ttft"), "batch_or_concurrency")


def test_a_rate_the_text_sets_is_the_load():
    for phrase in ("at 12 QPS", "under 12 req/s", "(FP8, 12 QPS)"):
        text = f"# Results\n\nOn 2x H100 with Llama-3.1-8B {phrase} the median TTFT is 180 ms.\n"
        cond = stated(claim(extract_text(text, "t.md"), 180, "ttft"), "batch_or_concurrency")
        assert cond.value == 12, phrase


def test_a_rate_range_is_a_sweep_not_its_upper_end():
    text = ("# Results\n\nWe offered load at rates from 2 to 24 requests per second on 4x A10G; the median TTFT "
            "stayed under 300 ms.\n")
    cond = stated(claim(extract_text(text, "t.md"), 300), "batch_or_concurrency")
    assert cond.value == {"min": 2, "max": 24} and cond.sweep


def test_the_load_of_a_run_that_measured_another_metric_is_not_carried():
    text = ("# Benchmark setup\n\n- Throughput runs: all 4,000 prompts are sent at once, measuring output tokens "
            "per second.\n- Latency runs: requests arrive at a rate of 6 requests per second, measuring p90 "
            "end-to-end latency.\n\n# Results\n\nOn H100 with Qwen2.5-14B, the engine reaches 2.4x higher throughput "
            "than before, and p90 end-to-end latency drops to 1.9 s.\n")
    r = extract_text(text, "t.md")
    # (the throughput runs' own load, the prompts sent at once, is the throughput figure's; never the latency rate)
    assert stated(claim(r, 2.4, "speedup"), "batch_or_concurrency").value == 4000
    assert stated(claim(r, 1.9), "batch_or_concurrency").value == 6


def test_a_figure_of_a_clause_takes_its_family_from_its_own_clause():
    text = ("# Results\n\nLatency runs used 4 concurrent requests, measuring TTFT. Throughput grows by up to 3x, "
            "although TTFT barely moves.\n")
    unrecoverable(claim(extract_text(text, "t.md"), 3), "batch_or_concurrency")


def test_a_label_does_not_reach_the_next_list_item():
    text = "# Results\n\nSustained load before SLO misses:\n- short prompts: **9 QPS**\n- 2–3 images: **5 QPS**\n"
    for line_value in (9, 5):
        for c in extract_text(text, "t.md").claims:
            cond = c.conditions["batch_or_concurrency"]
            assert cond.status == "unrecoverable" or cond.value != {"min": 2, "max": 3}


# -- another sentence that describes another run ----------------------------------------------------------
def test_a_comparison_without_a_figure_keeps_its_setting():
    text = ("# Kernels\n\nWe enable the fused path on H100. Our engine beats the reference runtime at a batch "
            "size of 2, and it keeps every feature. The fused path gives up to a 1.7x speedup in the "
            "test below.\n")
    c = claim(extract_text(text, "t.md"), 1.7)
    unrecoverable(c, "batch_or_concurrency")
    assert "H100" in stated(c, "hardware").value


def test_a_setting_sentence_without_comparison_still_covers_the_figure():
    text = ("# Kernels\n\nWe run the fused path on H100 at a batch size of 2. The fused path gives up to a 1.7x "
            "speedup in the test below.\n")
    assert stated(claim(extract_text(text, "t.md"), 1.7), "batch_or_concurrency").value == 2


def test_a_sentence_with_other_load_settings_describes_another_run():
    text = ("# Results\n\nThe FP8 build on 2x B200 wins clearly. In prefill-heavy runs (ISL=4k, OSL=1, batch=32) "
            "it gives a 1.6x gain. In chat runs (ISL=4k, OSL=512), decode throughput rises to 2,950 tok/s per GPU.\n")
    r = extract_text(text, "t.md")
    unrecoverable(claim(r, 2950), "batch_or_concurrency")
    assert stated(claim(r, 2950), "output_length").value == 512
    assert stated(claim(r, 1.6), "batch_or_concurrency").value == 32


def test_a_sentence_with_the_same_load_settings_still_covers_the_figure():
    text = ("# Results\n\nIn chat runs (ISL=4k, OSL=512, batch=32) the FP8 build on 2x B200 wins clearly. "
            "With ISL=4k and OSL=512, decode throughput rises to 2,950 tok/s per GPU.\n")
    assert stated(claim(extract_text(text, "t.md"), 2950), "batch_or_concurrency").value == 32


# -- the claim's own sentence: a label belongs to its figure, and what clause scope left out stays out --------
def test_a_label_right_before_a_figure_is_that_figures():
    text = ("# Summary\n\nOn 8x H200 the release was tuned for peak throughput (+41%) and for snappier replies "
            "(+9%).\n")
    r = extract_text(text, "t.md")
    unrecoverable(claim(r, 9), "scenario")
    assert stated(claim(r, 41), "scenario").canonical == "max-throughput"
    assert "H200" in stated(claim(r, 9), "hardware").value


def test_another_clauses_setting_does_not_come_back_from_the_paragraph():
    text = ("# Results\n\nOn H100, Llama-3.1-8B reaches 3,000 tok/s at batch size 64, and Qwen2.5-7B reaches "
            "2,600 tok/s.\n")
    r = extract_text(text, "t.md")
    unrecoverable(claim(r, 2600), "batch_or_concurrency")
    assert "H100" in stated(claim(r, 2600), "hardware").value
    assert stated(claim(r, 3000), "batch_or_concurrency").value == 64


# -- what another figure was measured on, named right after it, is that figure's ---------------------------
def test_the_system_named_right_after_another_figure_is_that_figures():
    text = ("# Launch\n\nThe new card reaches **9,400 tokens/s on Mistral-7B** on a single GPU. It is up to 1.7x "
            "faster than the previous generation.\n")
    c = claim(extract_text(text, "t.md"), 1.7)
    unrecoverable(c, "model")
    unrecoverable(c, "parallelism")


def test_a_system_named_before_the_figures_covers_the_paragraph():
    text = ("# Launch\n\nOn Mistral-7B, the new card reaches 9,400 tokens/s. It is up to 1.7x faster than the "
            "previous generation.\n")
    assert stated(claim(extract_text(text, "t.md"), 1.7), "model").value == "Mistral-7B"


def test_a_workload_named_after_a_figure_still_covers_the_next_figure():
    text = ("# Results\n\nWe started at a TPOT of 38 ms for 8K-token inputs on 8x B200. After the changes the "
            "TPOT is 21 ms.\n")
    assert stated(claim(extract_text(text, "t.md"), 21), "input_length").value == 8000


# -- captions of several numbered figures: only what they all state -----------------------------------------
def _two_figures(second_caption: str) -> str:
    return ("# Results\n\n![a](a.png)\n\n*Figure 4. Phi-3-medium on L40S, TP2, 2-GPU curve.*\n\n![b](b.png)\n\n"
            f"*Figure 5. {second_caption}*\n\nThe results show a gain of up to 1.4x for the larger setup.\n")


def test_a_setting_of_only_one_of_two_nearby_figures_is_not_the_claims():
    c = claim(extract_text(_two_figures("Phi-3-medium on L40S, 4-GPU curve."), "t.md"), 1.4)
    unrecoverable(c, "parallelism")
    assert stated(c, "model").value == "Phi-3-medium"


def test_a_setting_all_nearby_figures_state_is_the_claims():
    c = claim(extract_text(_two_figures("Phi-3-medium on L40S, TP2, 4-GPU curve."), "t.md"), 1.4)
    assert stated(c, "parallelism").value == "TP2"


# -- a clause about another model ---------------------------------------------------------------------------
def test_a_clause_about_another_model_is_not_the_results():
    text = "# Mixtral-8x7B on one L40S in INT4 AWQ, and 3.2x faster Llama-3.1-70B vs A100\n\nBody text.\n"
    c = claim(extract_text(text, "t.md"), 3.2)
    assert stated(c, "model").value == "Llama-3.1-70B"
    unrecoverable(c, "precision")
    unrecoverable(c, "parallelism")


def test_a_clause_about_the_same_model_is_the_results():
    text = "# Llama-3.1-70B on one L40S in INT4 AWQ, and 3.2x faster Llama-3.1-70B vs A100\n\nBody text.\n"
    c = claim(extract_text(text, "t.md"), 3.2)
    assert stated(c, "precision").value == "INT4 AWQ"


# -- the baseline's configuration is not the claim's (scopes.yaml baseline_cues) ---------------------------------
def test_a_name_after_gap_to_or_up_from_is_the_baseline():
    # the section names the claim's precision; the sentence names only the baseline's
    for sentence in ("The gap to BF16 is small: only 0.7% worse accuracy.",
                     "Throughput is 18% higher, up from BF16 in the last release."):
        c = claim(extract_text(f"# Results with FP8 weights\n\n{sentence}\n", "t.md"),
                  -0.7 if "gap" in sentence else 18)
        assert stated(c, "precision").value.startswith("FP8"), sentence


def test_a_name_the_gap_sentence_gives_the_claim_itself_stays():
    c = claim(extract_text("# Results\n\nIn BF16 the gap is small: only 0.7% worse accuracy.\n", "t.md"), -0.7)
    assert stated(c, "precision").value == "BF16"
