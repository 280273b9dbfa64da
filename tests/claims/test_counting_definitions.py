"""What a post's token rates count, defined once (rules/counting.yaml, extractor/claims/counting.py): a methodology
note, a metrics list, a legend or a formula carries its kind of tokens to the token-rate figures it governs that do
not say it themselves. Sentences of our own; negatives included."""
from __future__ import annotations

import pytest

from claim_checks import claim_in, claims_in
from extractor.api import extract_text

TABLE = """
| Batch | Throughput (tok/s) |
|---|---|
| 1 | 118.4 |
| 16 | 1402.7 |
"""


def tokens_of(text: str) -> dict[float, str | None]:
    return {c.value: c.tokens for c in claims_in(text) if c.metric == "throughput"}


@pytest.mark.parametrize("definition, kind", [
    # a methodology note under the table
    ("Per card, our throughput is calculated as generated tokens per second.", "output"),
    ("Our throughput is defined as the number of prompt tokens processed per second.", "input"),
    ("Throughput is computed from input and output tokens over the wall-clock time.", "total"),
    ("Our speed is computed from output and input tokens over the run time.", "total"),
    # averaged over / counts
    ("The reported speed is averaged over the prompt and the generated tokens.", "total"),
    ("Throughput counts output tokens only.", "output"),
    ("Throughput includes both input and output tokens.", "total"),
    # a formula, also in LaTeX or as a line of code
    ("Throughput = (prompt tokens + generated tokens) / elapsed time", "total"),
    (r"$$\mathrm{Throughput} = \frac{\mathrm{tokens}_{\mathrm{in}} + \mathrm{tokens}_{\mathrm{out}}}{t_{\mathrm{run}}}$$",
     "total"),
    # a legend, also numbered or with its unit in parentheses
    ("Decode speed (tok/s): how many output tokens one request receives each second.", "output"),
    ("3) TPS: generated tokens per second, summed over users", "output"),
    # a division said of a throughput
    ("For throughput we divide the wall time by the count of input plus output tokens.", "total"),
    # a rate named only by what is counted
    ("Each run's log reports the number of decoded tokens per second.", "output"),
    ("Our headline metric is the count of output tokens per second across all streams.", "output"),
])
def test_a_definition_reaches_the_table_it_notes(definition, kind):
    assert set(tokens_of(f"# Results\n{TABLE}\n{definition}\n").values()) == {kind}


def test_a_formula_in_the_code_that_measured_the_figures():
    text = ("# Results\n\n```python\nstart = time.perf_counter()\nout = model.generate(batch)\n"
            "elapsed = time.perf_counter() - start\ntok_per_s = n_output_tokens / elapsed\n```\n\n"
            "The compiled model reaches 212.5 tok/s.\n")
    assert tokens_of(text) == {212.5: "output"}


def test_a_definition_in_a_methodology_section_reaches_the_whole_post():
    text = ("# Method\n\nWe measured each engine for ten minutes.\n\n- Throughput: number of output tokens per "
            "second.\n- Latency: time from request to last token.\n\n# Results\n\nOur engine reaches 2,310 tok/s on "
            "the large model.\n\n## Small model\n" + TABLE)
    assert tokens_of(text) == {2310: "output", 118.4: "output", 1402.7: "output"}


def test_a_definition_after_the_figures_still_governs_the_post():
    text = ("# Results\n\nThe new build serves 930 tok/s.\n\n## Notes\n\nOur throughput is computed as decoded "
            "tokens per second on each card.\n")
    assert tokens_of(text) == {930: "output"}


def test_the_claims_own_kind_is_never_replaced():
    text = ("# Results\n\nPrefill reaches 9,800 tokens/s and the server sustains 640 tokens/s.\n\n"
            "Our throughput is derived from prompt and decoded tokens together.\n")
    got = tokens_of(text)
    assert got[9800] == "input" and got[640] == "total"


def test_conflicting_definitions_each_govern_their_own_section():
    text = ("# Offline\n\nHere throughput is computed as decoded tokens per second.\n\nThe batch run reaches "
            "1,200 tok/s.\n\n# Online\n\nHere throughput is computed from input and output tokens per second."
            "\n\nThe server reaches 3,400 tok/s.\n\n# Summary\n\nBoth engines reached 2,000 tok/s.\n")
    # the summary sits under neither: two kinds in the post, nothing to choose by -> unspecified
    assert tokens_of(text) == {1200: "output", 3400: "total", 2000: "unspecified"}


def test_conflicting_definitions_are_chosen_by_the_name_the_header_repeats():
    text = ("# Results\n\n| Batch | Speed (tok/s) | Throughput (tok/s) |\n|---|---|---|\n| 4 | 31.5 | 126.0 |\n\n"
            "Speed is measured as decoded tokens per second for one request. Throughput is computed from input "
            "and output tokens per second over all requests.\n")
    assert tokens_of(text) == {31.5: "output", 126.0: "total"}


def test_a_per_user_definition_reaches_only_per_user_rates():
    text = ("# Results\n\nEach user sees 42 tok/s per user. The node as a whole serves 5,100 tok/s.\n\n"
            "Speed is computed as decoded tokens per second per user.\n")
    assert tokens_of(text) == {42: "output", 5100: "unspecified"}


@pytest.mark.parametrize("sentence", [
    # a length, not a rate
    "The longest context a request may use counts its prompt tokens plus its generated ones.",
    "`max_new_tokens`: the maximum number of tokens generated per request.",
    "completion_tokens: the number of tokens generated.",
    # a setup, not what is counted
    "Throughput is measured on 8 GPUs with prompts of 1,000 input tokens.",
    "Throughput grows as the batch includes more prompt tokens.",
    # both kinds, not joined: no single kind
    "The tool reports the number of input tokens and the number of output tokens per second.",
    "Throughput: the harness counts input/output/total tokens per second for each run.",
    # a rate of requests, not of tokens
    "Throughput is defined as the number of requests completed per second.",
])
def test_no_definition(sentence):
    assert set(tokens_of(f"# Results\n{TABLE}\n{sentence}\n").values()) == {"unspecified"}


def test_the_definition_is_named_in_the_record():
    text = f"# Results\n{TABLE}\nThroughput counts output tokens only.\n"
    rec = extract_text(text, doc="t.md")
    note = next(n for n in rec.provenance if n.kind == "counting-definition")
    assert note.quote == "Throughput counts output tokens only." == text[note.span[0]:note.span[1]]
    assert "output" in note.message and "2 claim" in note.message


def test_a_post_without_a_definition_has_no_note():
    rec = extract_text(f"# Results\n{TABLE}", doc="t.md")
    assert not [n for n in rec.provenance if n.kind == "counting-definition"]
    assert claim_in(f"# Results\n{TABLE}", 118.4).tokens == "unspecified"


@pytest.mark.parametrize("text", [
    # a code line of thousands of links: each ":" or "=" could look back over the whole line for a name
    "```\nthroughput" + ": throughput" * 5000 + " output tokens\n```\n\nThe run held 500 tok/s.\n",
    "tokens " + "throughput = " * 8000 + "\n\nThe run held 500 tok/s.\n",
    "$$" + "\\text{Speed} = " * 5000 + " tokens$$\n\nThe run held 500 tok/s.\n",
])
def test_long_lines_of_links_are_read_in_bounded_time(text):
    """Each of these took 15 s to minutes before the name search was bounded to a window before its link."""
    rec = extract_text(text, doc="links.md", timeout=15)
    assert any(c.value == 500 for c in rec.claims)


def test_a_post_level_definition_does_not_reach_a_cited_figure():
    # the post's definition says what the post measured; a figure credited to another party keeps its own
    text = ("# Results\n\nOur server holds 1,450 tok/s on the small model. According to the vendor's report, "
            "their runtime reaches 2,900 tok/s.\n\n# Method\n\nOur throughput is computed as decoded tokens per "
            "second.\n")
    rec = extract_text(text, doc="t.md")
    got = {c.value: c.tokens for c in rec.claims if c.metric == "throughput"}
    assert got == {1450: "output"}   # the vendor's figure is no claim of the post: set aside as cited
    assert [(a.quote, a.reason) for a in rec.set_aside] == [("2,900 tok/s", "cited")]


def test_many_definitions_and_claims_are_carried_in_one_pass():
    """A post of 300 sections, each with a definition and a table of 5 cells: each claim's scopes are read once
    per place (indexed by table and section), not by scanning every definition for every claim."""
    part = ("## Run {i}\n\nHere throughput is computed as decoded tokens per second.\n\n"
            "| Batch | Throughput (tok/s) |\n|---|---|\n" + "".join(f"| {b} | {{i}}{b}.5 |\n" for b in (1, 2, 4, 8, 16)))
    text = "# Results\n\n" + "\n".join(part.format(i=i) for i in range(1, 301))
    rec = extract_text(text, doc="many.md", timeout=120)
    rates = [c for c in rec.claims if c.metric == "throughput"]
    assert len(rates) == 1500 and {c.tokens for c in rates} == {"output"}
