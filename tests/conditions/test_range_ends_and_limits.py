"""Issue 24, session 6 (vLLM posts): an "up to X" headline restating the results the body gives as ranges ending at
X, and a limit of what one request may hold that is no run of one request. Sentences written for these tests; each
class has its negative cases."""
from __future__ import annotations

from claim_checks import claim, stated, unrecoverable
from extractor.api import extract_text


# -- "up to X" in the summary, "A-X" in the body ------------------------------------------------------------------
_SUMMARY_THEN_RANGES = (
    "---\ntitle: Draft heads on our cluster\nsummary: \"Speculative decoding gives up to 2.14x more throughput for "
    "Llama-3.1-70B.\"\n---\n\nThis post explains how we trained the draft heads.\n\n## Results\n\n"
    "Throughput of Llama-3.1-70B rises by 1.62x-2.14x on 4x MI300X at 2K/512 input/output tokens (Figure 3).\n")


def test_an_up_to_headline_takes_what_the_range_ending_at_it_states_at_its_own_place():
    c = claim(extract_text(_SUMMARY_THEN_RANGES, "t.md"), 2.14)
    assert c.headline and c.qualifier == "up_to"
    lengths = stated(c, "input_length"), stated(c, "output_length")
    assert [x.value for x in lengths] == [2048, 512] and lengths[0].scope == "restatement"


def test_a_range_of_another_model_lends_nothing():
    text = _SUMMARY_THEN_RANGES.replace("Throughput of Llama-3.1-70B", "Throughput of Qwen3-8B")
    unrecoverable(claim(extract_text(text, "t.md"), 2.14), "input_length")


def test_a_headline_without_a_stated_model_takes_nothing_from_a_range():
    text = _SUMMARY_THEN_RANGES.replace(" for Llama-3.1-70B.", ".")
    unrecoverable(claim(extract_text(text, "t.md"), 2.14), "input_length")


def test_a_range_ending_elsewhere_or_a_figure_not_written_as_a_bound_lends_nothing():
    other_end = _SUMMARY_THEN_RANGES.replace("1.62x-2.14x", "1.62x-2.31x")
    unrecoverable(claim(extract_text(other_end, "t.md"), 2.14), "input_length")
    exact = _SUMMARY_THEN_RANGES.replace("gives up to 2.14x", "gives 2.14x")
    unrecoverable(claim(extract_text(exact, "t.md"), 2.14), "input_length")


def test_a_setting_the_range_took_from_its_section_is_not_lent():
    # (the section's setting may be another run's: the headline reads its own rungs for it)
    text = _SUMMARY_THEN_RANGES.replace(
        "## Results\n\n", "## Results\n\nWe ran these at a concurrency of 16.\n\n")
    c = extract_text(text, "t.md")
    assert stated(claim(c, 1.62), "batch_or_concurrency").scope == "section"
    unrecoverable(claim(c, 2.14), "batch_or_concurrency")


# -- what one request may hold is a limit, not a run of one request ---------------------------------------------
def _batch(sentence: str):
    text = f"# Results\n\nOn 8x H100 the server reaches 1,400 tok/s. {sentence}\n"
    return claim(extract_text(text, "t.md"), 1400).conditions["batch_or_concurrency"]


def test_what_a_model_can_process_in_a_single_request_is_no_batch():
    assert _batch("The context length is the most tokens a model can process in a single request.").status \
        == "unrecoverable"
    assert _batch("Prompts were cut to what fits into a single request.").status == "unrecoverable"


def test_a_run_of_a_single_request_is_still_a_batch_of_one():
    assert _batch("We timed a single request at a time.").value == 1
    assert _batch("Latency was read with a single request in flight.").value == 1
