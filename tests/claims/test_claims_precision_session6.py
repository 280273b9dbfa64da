"""Precision classes from the random draws of session 6 (issue 23, helper `precise4`): a run's memory footprint
after "with only", the success rate of requests against a success rate on a test, a log line quoted as an example
of the output, the level a change starts from, a baseline named by a method sentence, and the rules that fired
on one or two writers generalised. Every sentence here is written for the test; each class has its negatives."""
from __future__ import annotations

import pytest

from claim_checks import aside_of as _aside, claim_quoted as _claim
from extractor.api import extract_text
from tests.claim_checks import credited_record


def _record(text: str):
    return extract_text(text, "t.md")


# ---- a run's memory footprint: "ran the model with only N GB of VRAM" is what the run took, not a datasheet
@pytest.mark.parametrize("text,quote", [
    ("Our team served the full checkpoint from one tower PC with only 19GB of VRAM.\n", "19GB"),
    ("Thanks to expert offloading, we trained a 300B mixture-of-experts model with only 48 GB of GPU memory "
     "and 768 GB of RAM.\n", "48 GB"),
    ("Thanks to expert offloading, we trained a 300B mixture-of-experts model with only 48 GB of GPU memory "
     "and 768 GB of RAM.\n", "768 GB"),
    ("The server runs the 30B model in 4-bit with only 18 GB of GPU memory.\n", "18 GB"),
    ("Our tuned build serves the 70B model with just 40 GB of HBM per replica.\n", "40 GB"),
    ("Once quantized, the checkpoint loads with just 9 GB of VRAM on our test box.\n", "9 GB"),
    ("We ran the model using only 64 GB of RAM.\n", "64 GB"),
])
def test_a_run_with_only_so_much_memory_is_a_memory_claim(text: str, quote: str) -> None:
    c = _claim(text, quote)
    assert c is not None and c.metric == "memory", _record(text)


@pytest.mark.parametrize("text,quote", [
    ("The RTX 4060 ships with only 8 GB of VRAM, so the model does not fit.\n", "8 GB"),
    ("We tested on a laptop GPU with only 8 GB of VRAM.\n", "8 GB"),
    ("Run it on any card with only 12 GB of VRAM.\n", "12 GB"),
    ("Budget boards come with just 6 GB of VRAM these days.\n", "6 GB"),
    ("The host has 512 GB of DRAM and two CPUs.\n", "512 GB"),
    ("Each node has 8 GPUs with 80 GB HBM3 each.\n", "80 GB"),
])
def test_a_devices_own_memory_stays_a_datasheet_figure(text: str, quote: str) -> None:
    assert _claim(text, quote) is None
    assert _aside(text, quote) == ("datasheet", "set_aside.device_memory_kind")


def test_a_memory_word_after_a_speedup_does_not_turn_it_into_a_reduction() -> None:
    c = _claim("The patched loader is 40% faster than the old release while keeping RAM needs small.\n", "40%")
    assert c is not None and c.metric == "relative_change" and c.value == 40.0 and c.direction == "better"


# ---- a success rate: of requests, reliability (`other`); on a test or of tasks, a quality score (`accuracy`)
@pytest.mark.parametrize("text,quote,metric", [
    ("All 2,000 requests went through: the router kept a 99.8% success rate under load.\n", "99.8%", "other"),
    ("The job completion rate was 96% over the week.\n", "96%", "other"),
    ("| Scenario | Calls | Success rate | Median delay |\n|---|---:|---:|---:|\n"
     "| short chats | 900 | 99.7% | 4.2 ms |\n| long agents | 300 | 98.1% | 19.8 ms |\n", "99.7%", "other"),
    ("The patched build posts a 97.5% success rate on our needle test.\n", "97.5%", "accuracy"),
    ("The agent reaches an 87% task success rate on the web benchmark.\n", "87%", "accuracy"),
    ("On the coding benchmark the model's resolve rate is 61.2%.\n", "61.2%", "accuracy"),
    ("The new checkpoint lifts the pass rate of the unit tests to 74%.\n", "74%", "accuracy"),
])
def test_a_success_rate_is_a_score_only_on_a_test(text: str, quote: str, metric: str) -> None:
    c = _claim(text, quote)
    assert c is not None and c.metric == metric, _record(text)


# ---- a log line quoted in inline code as an example of the output's format: no result of the post
@pytest.mark.parametrize("text,quote", [
    ("- At start-up you will see log lines like `KV cache usage: 41.5%` for each worker.\n", "41.5%"),
    ("The engine prints a line such as `INFO engine: throughput: 12.3 tokens/s` every ten seconds.\n",
     "12.3 tokens/s"),
    ("The output looks like `Throughput: 36.12 tokens/s` when the script ends.\n", "36.12 tokens/s"),
    ("You will see messages like `step 10: loss 2.1` and `Max memory: 12.5 GB per worker`.\n", "12.5 GB"),
    ("Each health check writes entries similar to `probe ok, 3.2 ms` to the journal.\n", "3.2 ms"),
])
def test_an_example_log_line_in_inline_code_is_no_claim(text: str, quote: str) -> None:
    assert _claim(text, quote) is None
    assert _aside(text, quote) is not None and _aside(text, quote)[0] == "example"


def test_a_token_count_in_an_example_log_line_is_no_claim() -> None:
    text = "- Every worker prints messages like `token budget per worker: 8,400 tokens` when it starts.\n"
    assert not [c for c in _record(text).claims if c.value == 8400]


@pytest.mark.parametrize("text,quote", [
    ("With the patch, the engine logged `decode throughput: 1840 tokens/s` in our run.\n", "1840 tokens/s"),
    ("Our run reached `1840 tokens/s`, which looks like a record.\n", "1840 tokens/s"),
    ("Our log looks like the last run's, and we measured `0.42 ms` per call.\n", "0.42 ms"),
])
def test_a_measured_figure_in_inline_code_stays_a_claim(text: str, quote: str) -> None:
    assert _claim(text, quote) is not None


# ---- the level a change starts from ("fell from 9.2 s to 3.4 s"): the reference's level, set aside as baseline
@pytest.mark.parametrize("text,before,after", [
    ("Batch decode time fell from **9.2 s** to **3.4 s** once the cache was warm.\n", "9.2 s", "3.4 s"),
    ("| Change | Effect |\n|---|---|\n| **Image cache** | Node boot goes from 6–8 minutes to ~25 seconds |\n",
     "6–8 minutes", "~25 seconds"),
    ("Quiz accuracy slid from 84% (FP16 weights) to 79% after pruning.\n", "84%", "79%"),
    ("It shortened the merge step by 80%, from 450 μs to 90 μs.\n", "450 μs", "90 μs"),
    ("Once the kernel was patched, generation speed climbed from 12 tok/s to 33 tok/s.\n", "12 tok/s", "33 tok/s"),
])
def test_the_level_a_change_starts_from_is_its_baseline(text: str, before: str, after: str) -> None:
    assert _claim(text, before) is None
    assert _aside(text, before) == ("baseline", "set_aside.from_level")
    assert _claim(text, after) is not None


@pytest.mark.parametrize("text,quote", [
    ("Depending on prompt length, the slowdown ranges anywhere from 15% to 55%.\n", "15% to 55%"),
    ("Latency varies from 2 s to 5 s across prompts.\n", "2 s to 5 s"),
    ("Speed-ups grew from 1.4x to 2.1x with the new kernel.\n", "1.4x"),
    # a sweep: both ends are measured points, no before and after
    ("TTFT grows from 20 ms to 80 ms as concurrency rises from 1 to 64.\n", "20 ms"),
    ("Throughput climbs from 900 tokens/s to 3,100 tokens/s across batch sizes 1 to 32.\n", "900 tokens/s"),
])
def test_a_range_a_sweep_or_a_speedup_after_from_stays_a_claim(text: str, quote: str) -> None:
    assert _claim(text, quote) is not None
# ---- a baseline named by a method sentence: "we compared ... with and without X" -> the speed-up is against
# the run without X, when the figure's sentence names X
@pytest.mark.parametrize("text,quote,baseline", [
    ("## Study\n\n### Setup\nWe run 200 requests at each batch size and compare the end-to-end runtime with and "
     "without prompt-lookup decoding.\n\n### First turn\nPrompt-lookup decoding delivers a 41% speed-up at batch 1.\n",
     "41%", "without prompt-lookup decoding"),
    ("## Study\n\nWe ran each model with prefix caching enabled and disabled on the chat trace.\n\n"
     "With prefix caching, TTFT drops by 35% on average.\n", "35%", "prefix caching disabled"),
])
def test_a_method_sentence_with_and_without_names_the_baseline(text: str, quote: str, baseline: str) -> None:
    c = _claim(text, quote)
    assert c is not None and c.baseline == baseline


@pytest.mark.parametrize("text,quote,baseline", [
    # the figure's sentence does not name the feature: another comparison
    ("## Study\n\nWe ran each model with and without speculative decoding.\n\n"
     "The new scheduler gives a 1.4x speed-up on long prompts.\n", "1.4x", "not named in the text"),
    # its own comparison wins
    ("## Study\n\nWe compared the runtime with and without speculative decoding.\n\n"
     "Speculative decoding gives a 2.1x speed-up over the vanilla engine.\n", "2.1x", "vanilla engine"),
    # the figure is the run without the feature: not against itself
    ("## Study\n\nWe time cold starts with and without graph capture.\n\n"
     "Without graph capture, each restart suffers a 5x slowdown.\n", "5x", "not named in the text"),
])
def test_a_method_sentence_does_not_name_another_figures_baseline(text: str, quote: str, baseline: str) -> None:
    c = _claim(text, quote)
    assert c is not None and c.baseline == baseline


@pytest.mark.parametrize("text,quote", [
    # the figure's sentence shares only a generic or the first word of the feature: another comparison
    ("## Study\n\nWe timed each batch with and without the new admission queue.\n\n"
     "The new batcher brings a 1.6x speed-up on short prompts.\n", "1.6x"),
    ("## Study\n\nEvery request was replayed with and without our paged expert cache.\n\n"
     "Our paged loader gives a 1.25x speed-up at batch 4.\n", "1.25x"),
    ("## Study\n\nWe benchmark the chat workload with and without model compiled graphs.\n\n"
     "The model reaches a 1.7x speed-up on the long trace.\n", "1.7x"),
    ("## Study\n\nWe served the trace with and without speculative decoding.\n\n"
     "Speculative sampling yields a 2.3x speed-up for greedy requests.\n", "2.3x"),
])
def test_a_method_sentence_needs_the_whole_feature_named(text: str, quote: str) -> None:
    c = _claim(text, quote)
    assert c is not None and c.baseline == "not named in the text"


def test_a_method_sentence_feature_named_past_its_generic_words() -> None:
    text = ("## Study\n\nWe timed each batch with and without our new admission queue.\n\n"
            "The admission queue brings a 1.6x speed-up on short prompts.\n")
    c = _claim(text, "1.6x")
    assert c is not None and c.baseline == "without our new admission queue"


# ---- rules that fired on one or two writers, generalised: the official or published value beside the post's own
@pytest.mark.parametrize("text,quote", [
    ("We measured 71.0% on the quiz; the official score is 71.4%.\n", "71.4%"),
    ("Our FP8 build scores 70.8%, against a published score of 71.2% for the BF16 model.\n", "71.2%"),
    ("The reproduced accuracy is 70.8%, while the paper reports 71.2%.\n", "71.2%"),
    ("Our run reaches 70.8%, matching the reported accuracy of 71.2% within noise.\n", "71.2%"),
])
def test_a_published_value_beside_ours_is_cited(text: str, quote: str) -> None:
    assert _claim(text, quote) is None
    assert _aside(text, quote) == ("cited", "set_aside.official_result")
    assert _claim(text, "70.8%" if "70.8%" in text else "71.0%") is not None


@pytest.mark.parametrize("text,quote", [
    ("Our run reaches 70.8% accuracy, our official result for this release.\n", "70.8%"),
    ("Last month we reported scores of 70.8% on the quiz; the new build reaches 72.5%.\n", "70.8%"),
])
def test_our_own_published_value_stays_a_claim(text: str, quote: str) -> None:
    assert _claim(text, quote) is not None


# ---- a source link and a section reviewing other work
@pytest.mark.parametrize("text,cited", [
    ("The vendor's kernel reaches 3x faster attention ([whitepaper](https://vendor.example/wp.pdf)).\n",
     "https://vendor.example/wp.pdf"),
    ("The new chips deliver 2.5x more tokens per second ([press release](https://vendor.example/news)).\n",
     "https://vendor.example/news"),
    ("Our kernel reaches 3x faster attention ([code](https://github.com/ours/kernel)).\n", None),
    ("## Existing approaches\n\nChunked prefill cuts TTFT by 30% in prior systems.\n", "Existing approaches"),
    ("## Previous studies\n\nOne system reached a 40% higher hit rate with learned eviction.\n", "Previous studies"),
    ("## State of the art\n\nStatic batching reaches 2x lower throughput than continuous batching.\n",
     "State of the art"),
    ("## Our approach versus existing systems\n\nOur router cuts TTFT by 30% on the chat trace.\n", None),
])
def test_a_source_link_or_a_review_section_credits_the_figure(text: str, cited: str | None) -> None:
    claims = credited_record(text).claims
    assert len(claims) == 1 and claims[0].cited_from == cited
