"""Missed kinds found by the session-7 sample check of writers outside the dev set (docs/conditions-sample-check.md):
conditions the post states for a claim that the record left unrecoverable. A table row that leaves its leading
cells empty (Markdown has no merged cells) or sits under an HTML cell spanning rows shares those cells with the
row above; a set-up note that writes the label before the number ("Input tokens 2048, output tokens 128").
Posts written for these tests; each kind with its negative cases."""
from __future__ import annotations

from claim_checks import claim, stated, unrecoverable
from extractor.api import extract_text

BLANK_LABELS = """# Decode speed

## Results

| Model | GPUs | Tokens/s |
|---|---|---|
| Falcon-7B | 1 | 120.5 |
| | 2 | 201.3 |
| | 4 | 333.7 |
| Falcon-40B | 2 | 41.2 |
| | 4 | 77.9 |
"""


def test_a_row_with_an_empty_leading_cell_repeats_the_label_above():
    record = extract_text(BLANK_LABELS, "t.md")
    for value, model in ((201.3, "Falcon-7B"), (333.7, "Falcon-7B"), (77.9, "Falcon-40B"), (41.2, "Falcon-40B")):
        c = claim(record, value)
        assert stated(c, "model").value == model
    assert stated(claim(record, 333.7), "gpu_count").value == 4


def test_an_empty_cell_between_filled_ones_or_past_a_group_label_repeats_nothing():
    # a blank cell after the row's first filled one may mean "not measured": not the value above
    text = """# Speeds

## Results

| Run | Model | Tokens/s |
|---|---|---|
| a | Falcon-7B | 120.5 |
| b | | 201.3 |
"""
    unrecoverable(claim(extract_text(text, "t.md"), 201.3), "model")
    # a group-label row ends what rows above can give to the rows below it
    text = """# Speeds

## Results

| Model | Batch | Tokens/s |
|---|---|---|
| Falcon-7B | 1 | 120.5 |
| **Second system** | | |
| | 8 | 201.3 |
"""
    unrecoverable(claim(extract_text(text, "t.md"), 201.3), "model")


HTML_SPANS = """<html><body><h1>Speeds</h1><h2>Results</h2>
<table>
<tr><th>Model</th><th>Input Length</th><th>Precision</th><th>Tokens/s</th><th>Note</th></tr>
<tr><td rowspan="3">Mistral-7B</td><td rowspan="2">2048</td><td>BF16</td><td>310.5</td><td></td></tr>
<tr><td>FP8</td><td>402.25</td><td></td></tr>
<tr><td>8192</td><td>BF16</td><td>281.75</td><td></td></tr>
</table>
</body></html>
"""


def test_an_html_cell_spanning_rows_is_the_cell_of_each_row_it_spans():
    record = extract_text(HTML_SPANS, "t.html")
    c = claim(record, 402.25)
    assert stated(c, "model").value == "Mistral-7B"
    assert stated(c, "input_length").value == 2048
    assert stated(c, "precision").value == "FP8"
    c = claim(record, 281.75)
    assert stated(c, "model").value == "Mistral-7B"
    assert stated(c, "input_length").value == 8192


def test_an_empty_html_cell_keeps_its_place_in_the_row():
    from extractor.ingest import ingest
    d = ingest(HTML_SPANS, "t.html", "html")
    for row in d.tables[0].rows:
        starts = [c.start for c in row]
        assert starts == sorted(starts) and starts[0] > 0   # (an empty cell used to sit at offset 0)


SETUP_NOTE = """# Quantized serving

## Throughput

> Benchmark scenario: Input tokens 2048, output tokens 128. Other flags as in the build guide.

| Model | FP8 tok/s |
|---|---|
| Falcon-40B | 1,310.5 |
"""


def test_a_setup_note_that_writes_the_label_before_the_number_states_the_lengths():
    c = claim(extract_text(SETUP_NOTE, "t.md"), 1310.5)
    assert stated(c, "input_length").value == 2048
    assert stated(c, "output_length").value == 128
    text = SETUP_NOTE.replace("Input tokens 2048, output tokens 128", "prompt tokens: 4k; generated tokens=256")
    c = claim(extract_text(text, "t.md"), 1310.5)
    assert stated(c, "input_length").value == 4000
    assert stated(c, "output_length").value == 256


def test_a_total_a_limit_or_a_per_token_figure_is_no_length():
    for note in ("Total input tokens: 215000, total output tokens: 9000.",
                 "The server ran with --max-input-tokens 4096 and --max-total-tokens 8192.",
                 "The cache held 3,100 tokens per output token on average.",
                 "Output tokens/s: 900 at the peak."):
        c = claim(extract_text(SETUP_NOTE.replace(
            "Benchmark scenario: Input tokens 2048, output tokens 128. Other flags as in the build guide.", note),
            "t.md"), 1310.5)
        unrecoverable(c, "input_length")
        unrecoverable(c, "output_length")
