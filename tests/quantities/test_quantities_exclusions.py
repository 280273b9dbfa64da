"""Numbers that are not quantities: identifiers, versions, dates, references, labels, URLs."""
import pytest
from hypothesis import given, settings, strategies as st

from extractor.quantities.finder import _lower, _merge, default_finder, find_quantities


@pytest.mark.parametrize("text", [
    "we ran it on B300 and MI325X boxes",
    "the Mistral-24B and Gemma3-12B checkpoints",
    "a Qwen2.5-72B-Instruct model",
    "built from v0.9.2 of the engine",
    "installed 2.7.1rc3 and 0.10.0.dev1234",
    "commit 4f2a9c1 fixed it; also 9b3e7d20aa",
    "see #41235 for details",
    "published 2026-02-17",
    "released on 03/14/2025",
    "posted March 3, 2026",
    "posted 14 June 2025",
    "in 2024 we switched",
    "at 14:30 UTC",
    "the 2nd and 3rd runs",
    "see https://example.org/bench/2048/results_3.html",
    "a [link](https://example.org/x/77) here",
    '<img src="chart.png" width="640" height="480">',
    "as shown in Figure 4 and Table 2",
    "Step 3: launch the server",
    "fixed in PR 8812",
    "footnote marker[^2] here",
    "a config_8 file and fp8_e4m3 weights",
])
def test_quantities_exclusions_nothing_reported(text):
    assert find_quantities(text) == [], [q.quote for q in find_quantities(text)]


@pytest.mark.parametrize("text", [
    "1. Install the engine\n2. Start it",
    "### 4. Results\nnothing numeric",
    "## 2.1 Setup",
    "  3) a nested item",
    "- 7. a bulleted numbered item",
])
def test_quantities_exclusions_list_and_heading_numbers(text):
    assert find_quantities(text) == []


@pytest.mark.parametrize("text, kept", [
    ("On H200 we reach 3.1x over v0.5.1", [3.1]),
    ("In 2025 the GB300 got 12% faster", [12]),
    ("see Figure 2: 450 tok/s per user", [450]),
    ("1. Throughput rose 1.6x", [1.6]),
    ("released 2025-11-02 with a 25% gain", [25]),
])
def test_quantities_exclusions_keep_the_real_quantity(text, kept):
    assert [q.value for q in find_quantities(text)] == kept


PIECES = ["Llama", "LLAMA-3", "qwen 2.5", "Phı-3", "İnternLM 2", "ſtarcoder 7", "GPT-4", "yi-34", "<b>",
          "</td>", "&#8211;", "[^3]", "[2]", "](https://x.org/1)", "HTTP://A.B/9", "www.x.io/4", " ", "\n",
          "12", "7%", "tok/s", "quarters", "QUARTERS", "Quarters", "the last two ", "three ", " of", " ago",
          "quarterſ", "\t"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=12).map("".join))
def test_quantities_exclusion_prefilter_skips_only_scans_that_cannot_match(text):
    finder = default_finder()
    every_scan = _merge([m.span() for scan in finder._scan_excl for m in scan.rx.finditer(text)
                         if m.end() > m.start()])
    assert finder._excluded(text, _lower(text)) == every_scan
