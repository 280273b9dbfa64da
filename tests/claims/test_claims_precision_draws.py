"""Precision classes from the random draws of session 6 (issue 23, helper `precise4`): a run's memory footprint
after "with only", the success rate of requests against a success rate on a test, ... Sentences written for these
tests."""
from __future__ import annotations

import pytest

from extractor.api import extract_text


def _record(text: str):
    return extract_text(text, "t.md")


def _claim(text: str, quote: str):
    found = [c for c in _record(text).claims if c.quote.startswith(quote)]
    return found[0] if found else None


def _aside(text: str, quote: str) -> tuple[str, str] | None:
    found = [a for a in _record(text).set_aside if a.quote == quote]
    return (found[0].reason, found[0].rule) if found else None


# ---- a run's memory footprint: "ran the model with only 21 GB of VRAM" is what the run took, not a datasheet
@pytest.mark.parametrize("text,quote", [
    ("We managed to operate the whole model on a workstation with only 19GB of VRAM.\n", "19GB"),
    ("- **Lean**: fine-tune the 400B model with just **60GB GPU memory** + 1TB of RAM\n", "60GB"),
    ("- **Lean**: fine-tune the 400B model with just **60GB GPU memory** + 1TB of RAM\n", "1TB"),
    ("The server runs the 30B model in 4-bit with only 18 GB of GPU memory.\n", "18 GB"),
    ("Our tuned build serves the 70B model with just 40 GB of HBM per replica.\n", "40 GB"),
    ("We ran the model using only 64 GB of RAM.\n", "64 GB"),
])
def test_a_run_with_only_so_much_memory_is_a_memory_claim(text: str, quote: str) -> None:
    c = _claim(text, quote)
    assert c is not None and c.metric == "memory", _record(text)


@pytest.mark.parametrize("text,quote", [
    ("The RTX 4060 ships with only 8 GB of VRAM, so the model does not fit.\n", "8 GB"),
    ("We tested on a laptop GPU with only 8 GB of VRAM.\n", "8 GB"),
    ("Run it on any card with only 12 GB of VRAM.\n", "12 GB"),
    ("The host has 512 GB of DRAM and two CPUs.\n", "512 GB"),
    ("Each node has 8 GPUs with 80 GB HBM3 each.\n", "80 GB"),
])
def test_a_devices_own_memory_stays_a_datasheet_figure(text: str, quote: str) -> None:
    assert _claim(text, quote) is None
    assert _aside(text, quote) == ("datasheet", "set_aside.device_memory_kind")


def test_a_memory_word_after_a_speedup_does_not_turn_it_into_a_reduction() -> None:
    c = _claim("- **Mode B is nearly as fast** (65% faster than the old release) with minimal RAM requirements\n", "65%")
    assert c is not None and c.metric == "relative_change" and c.value == 65.0 and c.direction == "better"


# ---- a success rate: of requests, reliability (`other`); on a test or of tasks, a quality score (`accuracy`)
@pytest.mark.parametrize("text,quote,metric", [
    ("All 2,000 requests went through: the router kept a 99.8% success rate under load.\n", "99.8%", "other"),
    ("The job completion rate was 96% over the week.\n", "96%", "other"),
    ("| Workload | Requests | Success rate | p95 overhead |\n|---|---:|---:|---:|\n"
     "| chat-a | 1,024 | 99.90% | 5.1 ms |\n| batch-b | 512 | 100.00% | 22.4 ms |\n", "99.90%", "other"),
    ("The tuned build reaches a 97.5% success rate on the retrieval test.\n", "97.5%", "accuracy"),
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
])
def test_an_example_log_line_in_inline_code_is_no_claim(text: str, quote: str) -> None:
    assert _claim(text, quote) is None
    assert _aside(text, quote) is not None and _aside(text, quote)[0] == "example"


def test_a_token_count_in_an_example_log_line_is_no_claim() -> None:
    text = "- When the server starts, you will see logs like `GPU KV cache size: 52000 tokens` per rank.\n"
    assert not [c for c in _record(text).claims if c.value == 52000]


@pytest.mark.parametrize("text,quote", [
    ("With the patch, the engine logged `decode throughput: 1840 tokens/s` in our run.\n", "1840 tokens/s"),
    ("Our run reached `1840 tokens/s`, which looks like a record.\n", "1840 tokens/s"),
])
def test_a_measured_figure_in_inline_code_stays_a_claim(text: str, quote: str) -> None:
    assert _claim(text, quote) is not None


# ---- the level a change starts from ("from 572 ms to 61 ms"): the reference's level, set aside as baseline
@pytest.mark.parametrize("text,before,after", [
    ("The warm cache cut mean TTFT from **572.5 ms** to **61.5 ms** on the long prompts.\n", "572.5 ms", "61.5 ms"),
    ("| Feature | What it does |\n|---|---|\n| **Warm cache** | Cuts pod start-up from 10–12 minutes to ~40 seconds |\n",
     "10–12 minutes", "~40 seconds"),
    ("FP8 accuracy dropped from 91% (BF16 run) to just 13% on the long task.\n", "91%", "13%"),
    ("It reduced kernel latency by 96%, from 870 μs to 34 μs.\n", "870 μs", "34 μs"),
    ("Decode throughput rose from 17 tokens/s to 40 tokens/s after the fix.\n", "17 tokens/s", "40 tokens/s"),
])
def test_the_level_a_change_starts_from_is_its_baseline(text: str, before: str, after: str) -> None:
    assert _claim(text, before) is None
    assert _aside(text, before) == ("baseline", "set_aside.from_level")
    assert _claim(text, after) is not None


@pytest.mark.parametrize("text,quote", [
    ("The overhead ranges from 10% to 68% depending on the batch.\n", "10% to 68%"),
    ("Latency varies from 2 s to 5 s across prompts.\n", "2 s to 5 s"),
    ("Speed-ups grew from 1.4x to 2.1x with the new kernel.\n", "1.4x"),
])
def test_a_range_or_a_speedup_after_from_stays_a_claim(text: str, quote: str) -> None:
    assert _claim(text, quote) is not None
