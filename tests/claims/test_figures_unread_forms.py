"""Forms of results that writers we have not seen use (issue 23, the wide corpus): each a class many writers
write, read as a claim, or set aside with a reason; negatives beside them.
Sentences written for these tests."""
from __future__ import annotations

import pytest

from extractor.api import extract_text


def _claims(text: str) -> list[tuple[str, str, float]]:
    return [(c.quote, c.metric, c.value) for c in extract_text(text, "t.md").claims]


def _asides(text: str) -> list[tuple[str, str]]:
    return [(a.quote, a.reason) for a in extract_text(text, "t.md").set_aside]


# ---- a ratio written as LaTeX math
@pytest.mark.parametrize("text,value", [
    ("Our kernel decodes up to $6\\times$ faster on long prompts.\n", 6.0),
    ("Batching gives a $2.5\\times$ speedup over the eager loop.\n", 2.5),
    ("The fused path is 3$\\times$ faster than the reference.\n", 3.0),
    ("Prefill runs 4\\times faster with chunking.\n", 4.0),
])
def test_a_ratio_in_latex_math_is_a_speedup_not_a_price(text: str, value: float) -> None:
    claims = extract_text(text, "t.md").claims
    assert [(c.metric, c.value, c.unit) for c in claims] == [("speedup", value, "x")]


@pytest.mark.parametrize("text", [
    "Each shard costs $6 \\times 10^{3}$ bytes to send.\n",      # a product in math: markup, no claim
    "The sweep cost $6 on spot nodes, and times were stable.\n",  # a price, "times" a word
])
def test_latex_products_and_prices_are_no_latex_ratio(text: str) -> None:
    assert all(c.unit != "x" for c in extract_text(text, "t.md").claims)


# ---- line ends
def test_a_crlf_post_gives_the_claims_of_its_lf_twin_at_the_same_spans() -> None:
    lf = "# Speed\n\nOn one H100 the server reached 2,400 tok/s,\nand TTFT dropped 35%.\n"
    a, b = extract_text(lf, "a.md"), extract_text(lf.replace("\n", "\r\n"), "b.md")
    assert [(c.quote, c.span) for c in b.claims] == [(c.quote, c.span) for c in a.claims]
    assert len(a.claims) == 2


# ---- a figure a "Performance:" label introduces
@pytest.mark.parametrize("text,quote", [
    ("Performance: 2900 GB/s memory-bound and 610 TFLOPS compute-bound on one card.\n", "610 TFLOPS"),
    ("We reached solid performance: 1.9 TB/s on the copy test.\n", "1.9 TB/s"),
    ("Result: 2.4 TB/s on the all-reduce test.\n", "2.4 TB/s"),
])
def test_a_bandwidth_or_compute_after_a_performance_label_is_a_claim(text: str, quote: str) -> None:
    assert quote in [q for q, _, _ in _claims(text)]


@pytest.mark.parametrize("text,quote", [
    ("Theoretical performance: 2000 TFLOPS of dense FP8 per chip.\n", "2000 TFLOPS"),
    ("Rated performance: 4.8 TB/s per GPU.\n", "4.8 TB/s"),
])
def test_a_rated_performance_label_is_a_datasheet_figure(text: str, quote: str) -> None:
    assert _claims(text) == []
    assert any(q.startswith(quote) and reason == "datasheet" for q, reason in _asides(text))


# ---- two clauses sharing one verb ("reads from A to B, and writes from C to D")
def test_the_second_clause_of_an_elided_verb_is_a_claim_too() -> None:
    text = ("With four newer SSDs, reads rise from 12 GB/s to 30 GB/s, and writes from 6 GB/s to 13 GB/s. "
            "With eight SSDs, reads improve further to 50 GB/s, and writes to 28 GB/s.\n")
    quotes = " ".join(q for q, _, _ in _claims(text))
    for figure in ("30 GB/s", "6 GB/s", "13 GB/s", "50 GB/s", "28 GB/s"):
        assert figure in quotes
    # the level the first change starts from: set aside as baseline
    assert "12 GB/s" not in quotes and ("12 GB/s", "baseline") in _asides(text)


def test_the_elided_form_does_not_make_settings_claims() -> None:
    text = "The sweep covered block sizes from 4KB to 16MB, and transfer sizes from 1MB to 64MB.\n"
    assert _claims(text) == []


# ---- "halves / quarters the memory": a ratio of memory (a lower precision's nominal halving, "FP8 halves the memory
# per token", is arithmetic of the format: set_aside.precision_halves_memory, tests/claims/test_set_aside_session9.py)
@pytest.mark.parametrize("text,word,value", [
    ("Paging the cache halves the memory per token.\n", "halves", 0.5),
    ("Offloading the experts quarters the memory to about 40 GB.\n", "quarters", 0.25),
    ("The new layout quarters the activation memory on long prompts.\n", "quarters", 0.25),
])
def test_halves_or_quarters_the_memory_is_a_memory_ratio(text: str, word: str, value: float) -> None:
    assert (word, "memory", value) in _claims(text)


@pytest.mark.parametrize("text", [
    "Revenue grew over the last two quarters while memory prices fell.\n",
    "Three quarters of the requests hit the memory cache within 2 ms.\n",
    "To match the load we double the batch and halve the KV cache length.\n",
])
def test_quarters_as_a_noun_and_ratio_settings_are_no_memory_claims(text: str) -> None:
    assert not [c for c in _claims(text) if c[0] in ("quarters", "double", "halve")]


# ---- set-aside rules read the figure's sentence, hard-wrapped or not
@pytest.mark.parametrize("text,quote", [
    ("  --duration SECS   How long each benchmark runs. The default\n                    is 45 seconds.\n", "45 seconds"),
    ("The request timeout defaults\nto 90 seconds on every route.\n", "90 seconds"),
])
def test_a_wrapped_default_is_a_setting(text: str, quote: str) -> None:
    assert (quote, "setting") in _asides(text)
    assert _claims(text) == []


def test_a_new_sentence_on_the_next_line_is_not_read_as_the_wrapped_one() -> None:
    text = "The timeout has a default.\nPrefill took 45 seconds on the long prompts.\n"
    assert ("45 seconds", "setting") not in _asides(text)


@pytest.mark.parametrize("text,quote", [
    ("The first request paid the warm-up, eg. **12s**, and the later ones did not.\n", "12s"),
    ("- **Quick start:** deploy the gateway in 10 minutes with Helm.\n", "10 minutes"),
    ("You can get started in under 15 minutes on a laptop.\n", "under 15 minutes"),
])
def test_examples_and_quick_start_promises_are_set_aside_as_examples(text: str, quote: str) -> None:
    assert (quote, "example") in _asides(text)


def test_a_measured_run_time_is_no_quick_start_promise() -> None:
    text = "After the upgrade, the nightly job finished in 12 minutes instead of 40.\n"
    assert ("12 minutes", "example") not in _asides(text)


# ---- a percentage that names its rate, the rest of a share, detection accuracy, an eliminated amount
@pytest.mark.parametrize("text,quote,metric", [
    ("Half of the anchors landed far from their queries. That is a 64% miss rate.\n", "64%", "other"),
    ("The filter shows a 2.5% false-positive rate on the held-out set.\n", "2.5%", "other"),
    ("The pruned detector keeps at least 98% of the dense model's mAP.\n", "at least 98%", "accuracy"),
])
def test_percent_forms_are_claims(text: str, quote: str, metric: str) -> None:
    assert any(q == quote and m == metric for q, m, _ in _claims(text))


def test_the_rest_of_a_claimed_share_is_a_share_too() -> None:
    text = "Prefill takes about 30% of all compute, whereas decoding takes the remaining 70%.\n"
    assert {(q, m) for q, m, _ in _claims(text)} >= {("about 30%", "other"), ("70%", "other")}


@pytest.mark.parametrize("text", [
    "We replay the trace at a 50% sampling rate to keep the run short.\n",
    "Set the dropout to 10% and the learning rate to 3e-4.\n",
])
def test_a_rate_set_for_a_run_is_no_claim(text: str) -> None:
    assert not [c for c in _claims(text) if c[0] in ("50%", "10%")]


def test_an_eliminated_transfer_is_a_saving() -> None:
    claims = extract_text("The new path eliminates ~40 MB of copies per request.\n", "t.md").claims
    assert [(c.metric, c.value) for c in claims] == [("memory", -40.0)]


def test_the_next_level_of_a_series_takes_the_metric_of_the_level_before() -> None:
    text = ("Plain serving degrades quickly under load, from 100% at rate 1 to ~55% at rate 2, settling to ~20% by rate 4.\n"
            "The survey also had an ~80% response rate.\n")
    claims = _claims(text)
    assert ("~20%", "other", 20.0) in claims
    assert not [c for c in claims if c[0] in ("4", "~80%")]   # the rate is the setting; the survey share adoption
    assert ("~80%", "adoption") in _asides(text)


# ---- a row label that names the setup, not a limit
def test_a_threshold_in_a_row_label_does_not_make_a_p50_cell_a_setting() -> None:
    text = ("| Detector | F1 | p50 |\n|---|---|---|\n| small, tuned threshold | 0.71 | ~31 ms |\n"
            "| large | 0.85 | ~120 ms |\n")
    quotes = [q for q, m, _ in _claims(text) if m == "latency"]
    assert quotes == ["~31 ms", "~120 ms"]


def test_a_timeout_column_stays_a_setting_beside_a_p50_column() -> None:
    text = "| Config | p50 | Timeout |\n|---|---|---|\n| A | 12 ms | 30 s |\n"
    assert ("30 s", "setting") in _asides(text)
    assert [q for q, _, _ in _claims(text)] == ["12 ms"]


# ---- a time a cost word names is time spent; prices of things are datasheet figures
def test_a_time_named_as_a_cost_is_a_latency() -> None:
    assert _claims("On a CPU, one routing call's cost is typically 2-15 ms.\n")[0][1] == "latency"


def test_a_run_length_before_a_cost_word_is_no_latency() -> None:
    assert _claims("A run of 45 seconds costs very little.\n") == []


@pytest.mark.parametrize("text,quote", [
    ("Simple prompts go to the $0 local model.\n", "$0"),
    ("Run locally, the call becomes a $0.002 request rather than $0.04.\n", "$0.04"),
    ("We bought a $1,299 GPU for the lab.\n", "$1,299 GPU"),
    ("- Works 100% offline once the weights are cached\n", "100%"),
])
def test_prices_of_things_and_feature_shares_are_datasheet_figures(text: str, quote: str) -> None:
    assert (quote, "datasheet") in _asides(text)
    assert _claims(text) == []


def test_a_measured_cost_per_token_is_no_price_of_a_thing() -> None:
    text = "The whole run came to $0.29 per million output tokens.\n"
    assert [m for _, m, _ in _claims(text)] == ["cost"]


# ---- a processor's model number in a hardware list
@pytest.mark.parametrize("text,quote", [
    ("- CPU: i7 13700K w/o overclocking\n", "13700K"),
    ("- CPU: Ryzen 9 7950X3D, 64 GB DDR5\n", "7950X3D"),
])
def test_a_cpu_model_number_is_a_datasheet_name(text: str, quote: str) -> None:
    assert (quote, "datasheet") in _asides(text)


def test_a_context_size_in_k_is_no_cpu_model() -> None:
    asides = _asides("The model handles 128K context, and we tested 32K prompts.\n")
    assert ("128K context", "setting") in asides and not [a for a in asides if a[0] == "32K"]


def test_the_majority_share_of_a_collection_is_adoption() -> None:
    text = "Some 3000 adapters are public; the vast majority (**~88%**) of them share one base.\n"
    assert ("~88%", "adoption") in _asides(text)


def test_a_share_of_requests_is_no_majority_share_of_a_collection() -> None:
    assert ("60%", "adoption") not in _asides("Most (60%) of the requests were served from cache.\n")


# ---- media words ("video", "course") turn down times only
@pytest.mark.parametrize("text,quote,metric", [
    ("The fused kernel gives 5.1x higher throughput for video generation.\n", "5.1x", "speedup"),
    ("Decoding is 25% faster on long videos.\n", "25%", "relative_change"),
])
def test_a_media_word_does_not_veto_a_ratio_or_a_percent(text: str, quote: str, metric: str) -> None:
    assert (quote, metric) in [(q, m) for q, m, _ in _claims(text)]


def test_a_media_word_still_makes_a_time_a_length() -> None:
    text = "The workshop runs ~4 hours, with 10 video lessons.\n"
    assert _claims(text) == [] and ("~4 hours", "setting") in _asides(text)
