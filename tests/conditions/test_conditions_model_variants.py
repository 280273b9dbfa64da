"""A model name the post also writes out as several variants ("Kimi-K9" beside "Kimi-K9-Lite" and
"Kimi-K9-Max"): the short name alone does not say which one a claim measured (scopes.yaml `variant_names`).
Sentences written for these tests; each negative case has its positive counterpart."""
from __future__ import annotations

from claim_checks import claim, stated, unrecoverable
from extractor.api import extract_text


def _post(result: str, setup: str) -> str:
    return f"# Serving Kimi-K9\n\n## Setup\n\n{setup}\n\n## Results\n\n{result}\n"


def test_a_name_with_two_variants_in_the_post_is_not_the_model_measured():
    text = _post("Kimi-K9 reaches 4,200 tok/s per GPU on H100.",
                 "The family comes in two checkpoints, Kimi-K9-Lite and Kimi-K9-Max, and both are served the same way.")
    cond = unrecoverable(claim(extract_text(text, "t.md"), 4200), "model")
    assert "lite" in cond.why and "max" in cond.why


def test_variants_named_only_in_a_code_block_count_too():
    text = ("# Kimi-K9 on vLLM\n\n```bash\n# the 32k version\nhf download acme/Kimi-K9-32k\n"
            "# or the 128k version\n# hf download acme/Kimi-K9-128k\n```\n\n"
            "## Results\n\nKimi-K9 reaches 4,200 tok/s per GPU on H100.\n")
    assert unrecoverable(claim(extract_text(text, "t.md"), 4200), "model").value_partial == "Kimi-K9"


def test_a_name_with_one_variant_in_the_post_stays_the_model():
    text = _post("Kimi-K9 reaches 4,200 tok/s per GPU on H100.", "We serve Kimi-K9-Max in BF16.")
    assert stated(claim(extract_text(text, "t.md"), 4200), "model").status == "stated"


def test_sizes_precisions_and_draft_models_are_no_variants():
    text = _post("Kimi-K9 reaches 4,200 tok/s per GPU on H100.",
                 "We use the Kimi-K9-FP8 checkpoint with the Kimi-K9-EAGLE3 draft model; Kimi-K9-Instruct is not "
                 "tested. Kimi-K9-based agents and the Kimi-K9-style router are out of scope.")
    assert stated(claim(extract_text(text, "t.md"), 4200), "model").status == "stated"


def test_file_names_and_lower_case_compounds_are_no_variants():
    text = _post("Kimi-K9 reaches 4,200 tok/s per GPU on H100.",
                 "See kimi-k9-throughput.png and Kimi-K9-latency.png; the kimi-k9-serving guide has more.")
    assert stated(claim(extract_text(text, "t.md"), 4200), "model").status == "stated"


def test_the_claims_own_variant_is_stated():
    text = _post("Kimi-K9-Max reaches 4,200 tok/s per GPU on H100.",
                 "The family comes in two checkpoints, Kimi-K9-Lite and Kimi-K9-Max.")
    assert stated(claim(extract_text(text, "t.md"), 4200), "model").value == "Kimi-K9-Max"


def test_two_variants_in_the_claims_own_sentence_are_ambiguous():
    # one family name for both ("Kimi K9") is no reason to take the first of them
    text = "# Results\n\nWe serve Kimi-K9-Lite and Kimi-K9-Max; the pair reaches 4,200 tok/s per GPU on H100.\n"
    cond = unrecoverable(claim(extract_text(text, "t.md"), 4200), "model")
    assert "lite" in cond.why and "max" in cond.why


def test_a_name_cut_from_a_longer_one_keeps_its_one_variant():
    text = "# Results\n\nWe serve Kimi-K9-Max here; it reaches 4,200 tok/s per GPU on H100.\n"
    assert stated(claim(extract_text(text, "t.md"), 4200), "model").status == "stated"


def _versions_post(result: str, setup: str) -> str:
    return f"# Faster serving\n\n## Setup\n\n{setup}\n\n## Results\n\n{result}\n"


def test_a_model_named_by_family_and_size_takes_the_version_a_broader_rung_writes_out():
    text = _versions_post("Llama-70B reaches 3,456 tok/s on H100.",
                          "All runs serve Llama-3.1-70B-Instruct in BF16.")
    assert stated(claim(extract_text(text, "t.md"), 3456), "model").value == "Llama-3.1-70B-Instruct"


def test_two_versions_of_that_size_leave_the_short_name():
    text = _versions_post("Llama-70B reaches 3,456 tok/s on H100.",
                          "We compare Llama-2-70B with Llama-3.1-70B-Instruct in BF16.")
    assert claim(extract_text(text, "t.md"), 3456).conditions["model"].value != "Llama-3.1-70B-Instruct"


def test_another_size_or_a_sub_model_is_no_version():
    text = _versions_post("Llama-8B reaches 3,456 tok/s on H100.",
                          "All runs serve Llama-3.1-70B-Instruct in BF16.")
    assert stated(claim(extract_text(text, "t.md"), 3456), "model").value == "Llama-8B"


def test_a_figure_restated_without_the_version_is_one_claim():
    text = ("# Llama2-70B twice as fast\n\nLlama2-70B serves 2.5x more requests on H200.\n\n## Results\n\n"
            "On H200, Llama-70B serves 2.5x more requests than on the A100.\n")
    assert len([c for c in extract_text(text, "t.md").claims if c.value == 2.5]) == 1
