"""Program output as a block kind (issue 23 item 2, issue 24 item 2): the lines a program printed are read for
results whatever the fence says, source code, commands, configuration and error text are not, and the setup
lines printed with a result are its conditions. Every block here is written for the test."""
from __future__ import annotations

import pytest

from extractor.api import extract_text
from extractor.claims.output_blocks import is_source


def claims(text: str):
    return extract_text(text, doc="t.md").claims


def values(text: str) -> set[tuple[str, float, str]]:
    return {(c.metric, c.value, c.unit) for c in claims(text)}


def fenced(lang: str, body: str) -> str:
    return f"# Trying the new kernel\n\nWe ran it on one card.\n\n```{lang}\n{body}\n```\n"


PRINTED = "Load time:  3.10 seconds\nLatency:   8.25 seconds\nThroughput:  52.40 tokens/s"


@pytest.mark.parametrize("lang", ["python", "text", "bash", "", "cpp"])
def test_printed_results_are_claims_whatever_the_fence_says(lang):
    got = values(fenced(lang, PRINTED))
    assert ("latency", 8.25, "second") in got
    assert ("throughput", 52.4, "token / second") in got


def test_results_after_code_and_an_output_marker_in_one_block():
    body = ('out = model.generate(**inputs, max_new_tokens=64)\nprint(f"Latency: {dt:.2f} s")\n'
            "Output:\nLatency: 0.91 s")
    assert ("latency", 0.91, "second") in values(fenced("python", body))


@pytest.mark.parametrize("body,value,metric,unit", [
    # a label, then a key=value of the measured figure
    ("Mean step time for the small net(test): t_step=4.125 ms", 4.125, "latency", "millisecond"),
    # log lines: the prefix is not the label; several results on one line
    ("INFO 03-14 09:26:53 stats.py:88] Avg prompt throughput: 731.5 tokens/s, Running: 12 reqs", 731.5,
     "throughput", "token / second"),
    ("[INFO] step 3 | decode latency: 17.5 ms", 17.5, "latency", "millisecond"),
    # a bare value after a labelled one takes its label; a label with a unit in parentheses
    ("Time for run 2: 4.40 sec total, 58.18 tokens/sec.", 58.18, "throughput", "token / second"),
    ("Request throughput (req/s):   3.75", 3.75, "request_throughput", "request / second"),
    ("setup + generation time: 27.03s", 27.03, "latency", "second"),
    # a statistic in the label is no setting
    ("Max TTFT (ms):                80.15", 80.15, "ttft", "millisecond"),
])
def test_result_line_shapes(body, value, metric, unit):
    assert (metric, value, unit) in values(fenced("", body))


@pytest.mark.parametrize("lang,body", [
    # source code with numbers and units in it: ast.parse accepts it
    ("python", 'latency_ms = 12.5  # ms\nbudget = "30 s"\nprint(f"Throughput: {tps:.1f} tokens/s")'),
    ("", "def run(n: int = 4):\n    time.sleep(0.5)\n    return 'took 0.5 s'"),
    # configuration files, fenced as such or not
    ("yaml", "latency: 120 ms\nthroughput: 900 tokens/s"),
    ("", "max_model_len: 4096\ngpu_memory_utilization: 0.9\nrequest_timeout: 30 s"),
    # a shell command with its options
    ("bash", "python serve.py --request-rate 8 \\\n    --latency-budget 200ms --max-tokens 128"),
    # error text
    ("", "Traceback (most recent call last):\ntorch.OutOfMemoryError: out of memory. Tried to allocate 2.50 GiB"),
    ("", "ERROR 04-02 11:00:01 engine.py:12] Latency: 3000 ms exceeded, request aborted"),
    # settings and targets printed by a program
    ("", "Request timeout: 30 s\nTTFT SLO: 1 s\nBatch size: 8"),
])
def test_code_configuration_commands_errors_and_settings_are_not_results(lang, body):
    assert not claims(fenced(lang, body))


def test_is_source_tells_code_from_printed_annotations():
    assert is_source("import torch\nx = torch.ones(3)\n")
    assert is_source("!pip install vllm\nfrom vllm import LLM\n")
    assert not is_source("Latency: 14.0\nThroughput: 31.5\n")      # parses, but only as bare annotations
    assert not is_source("Latency: 14.0 seconds\n")


SWEEP = """# Two models, three batch sizes

```text
== sweep, batch size 1 ==
model: acme/tiny-lm-1.3b
input length 512 | output length 256
end-to-end time: 4.10s
memory used: 3GB

model: other-org/small-net-2b
input length 512 | output length 256
end-to-end time: 6.35s

== sweep, batch size 8 ==
model: acme/tiny-lm-1.3b
input length 512 | output length 256
end-to-end time: 5.20s
```
"""


def _cond(claim, name):
    c = claim.conditions[name]
    return c.value if c.status == "stated" else None


def test_setup_lines_are_the_conditions_of_the_results_printed_after_them():
    found = {c.value: c for c in claims(SWEEP) if c.metric != "memory"}
    first, second, third = found[4.1], found[6.35], found[5.2]
    assert _cond(first, "model") == "acme/tiny-lm-1.3b" and _cond(second, "model") == "other-org/small-net-2b"
    assert _cond(third, "model") == "acme/tiny-lm-1.3b"
    assert [_cond(c, "batch_or_concurrency") for c in (first, second, third)] == [1, 1, 8]
    assert all(_cond(c, "input_length") == 512 and _cond(c, "output_length") == 256 for c in (first, second, third))
    assert first.conditions["batch_or_concurrency"].scope == "program_output"
    assert first.conditions["model"].quote == "acme/tiny-lm-1.3b"


def test_setup_printed_after_a_result_is_not_its_condition():
    text = "# Run\n\n```\nend-to-end time: 4.10s\nBatch size: 16\nend-to-end time: 9.80s\n```\n"
    found = {c.value: c for c in claims(text)}
    assert _cond(found[4.1], "batch_or_concurrency") is None
    assert _cond(found[9.8], "batch_or_concurrency") == 16


def test_precision_of_a_heading_line_printed_before_each_run():
    text = ("# Quantised or not\n\n```bash\nBaseline (float16) model run:\nLatency: 0.2200 seconds\n\n"
            "INT4 quantized model run:\nLatency: 0.0810 seconds\n```\n")
    found = {c.value: c for c in claims(text)}
    assert str(_cond(found[0.22], "precision")).lower() == "float16"
    assert str(_cond(found[0.081], "precision")).lower() == "int4"


def test_output_setup_lines_do_not_reach_claims_outside_the_block():
    text = SWEEP + "\nThe mean request latency of the service was 2.5 s in this post.\n"
    prose = next(c for c in claims(text) if c.value == 2.5)
    assert _cond(prose, "batch_or_concurrency") is None and _cond(prose, "model") is None


def test_a_short_printed_sentence_around_one_figure_is_read_as_prose():
    body = "[INFO] Sending the request\n[INFO] First token arrived after 0.12s (TTFT)\nWall time taken is 3.41s"
    got = values(fenced("", body))
    assert ("ttft", 0.12, "second") in got and ("latency", 3.41, "second") in got


def test_printed_lines_of_several_numbers_or_long_generated_text_are_not_read_as_prose():
    body = ("rss 41 GB = cache(29) + anon(12)\n"
            "The assistant replied: dedicated matrix units give 2-8x higher ops per watt than general cores, and "
            "newer parts are up to 3x faster on sparse workloads in most published comparisons.")
    assert not claims(fenced("text", body))


def test_output_presented_as_an_illustration_states_no_result():
    text = ("# Trying the router\n\nAfter a request, you should see logs like:\n\n```text\n"
            "[INFO] First token arrived after 0.12s (TTFT)\nLatency: 0.95 s\n```\n")
    assert not claims(text)
