"""Table notes that credit some of a table's figures to other reports (issue 23, cited figures): a note under the
table, or its lead-in, crediting the compared systems' rows (or columns) to their own reports, and a note crediting
the cells that carry a mark; the post's own rows stay its results. Negatives: a note that says the post ran the
compared systems itself, a table whose own rows cannot be told apart, a mark that is only emphasis. Tables and notes
written for these tests."""
from __future__ import annotations

import pytest

from tests.claim_checks import credited_record

TABLE = """# Reading-quiz results of Orca-LM

| Model | QuizA accuracy (%) | QuizB accuracy (%) |
|---|---|---|
| Heron-7B | 41.2 | 55.0 |
| Kite-13B | 48.9 | 60.3 |
| {own} | 52.4 | 63.1 |

{note}
"""


def cited_by_row(text: str) -> dict[str, set[str | None]]:
    out: dict[str, set[str | None]] = {}
    for c in credited_record(text, "t.md").claims:
        out.setdefault(c.context.row_header or "", set()).add(c.cited_from)
    return out


@pytest.mark.parametrize("note", [
    "\\* Scores of the other models are copied from their technical reports.",
    "Baseline models show the published results of their authors, or a leaderboard's where that is higher.",
    "Numbers for the compared systems come from the original papers; ours were measured on one node.",
    "- Results of competing models are taken from their model cards.",
])
def test_a_note_crediting_the_compared_rows_cites_them_and_keeps_ours(note):
    rows = cited_by_row(TABLE.format(own="**Orca-LM-7B**", note=note))
    assert None not in rows["Heron-7B"] and None not in rows["Kite-13B"]
    assert rows["Orca-LM-7B"] == {None}


def test_the_own_row_is_told_by_the_title_or_an_ours_label_as_well_as_by_bold():
    by_title = cited_by_row(TABLE.format(own="Orca-LM-7B", note="Other models' scores are quoted from their papers."))
    assert by_title["Orca-LM-7B"] == {None} and None not in by_title["Kite-13B"]
    by_label = cited_by_row(TABLE.replace("of Orca-LM", "").format(
        own="Wren-7B (ours)", note="Other models' scores are quoted from their papers."))
    assert by_label["Wren-7B (ours)"] == {None} and None not in by_label["Heron-7B"]


def test_a_lead_in_before_the_table_credits_the_compared_rows_too():
    text = TABLE.replace("| Model |", "Figures of the other models below are taken from their own reports.\n\n| Model |")
    rows = cited_by_row(text.format(own="**Orca-LM-7B**", note=""))
    assert None not in rows["Heron-7B"] and rows["Orca-LM-7B"] == {None}


@pytest.mark.parametrize("note", [
    "We re-ran every other model with our harness rather than quoting their reports.",
    "The other models were evaluated by us on the same quiz; their reported results differ by under a point.",
    "Other models are shown for reference.",
    "The compared models run the same prompts as ours.",
])
def test_a_note_that_does_not_credit_another_report_cites_nothing(note):
    rows = cited_by_row(TABLE.format(own="**Orca-LM-7B**", note=note))
    assert rows and all(v == {None} for v in rows.values()), rows


def test_no_row_is_cited_when_the_posts_own_rows_cannot_be_told_apart():
    text = TABLE.replace("of Orca-LM", "").format(own="Tern-7B", note="Other models' scores are quoted from their papers.")
    rows = cited_by_row(text)
    assert rows and all(v == {None} for v in rows.values()), rows


MARKED = """# Decode speed of three engines

| Engine | Decode (tokens/s) |
|---|---|
| Alpha | 1200 |
| Beta | 1350{mark} |
| Gamma{mark} | 980 |
| Delta | **1510** |

{note}
"""


@pytest.mark.parametrize("mark,note", [
    ("†", "Numbers marked with † are taken from the vendors' published benchmarks."),
    ("†", "† From the vendor's published benchmark page."),
    ("\\*", "Values marked with an asterisk come from the projects' own announcements."),
])
def test_a_note_crediting_marked_cells_cites_those_cells_only(mark, note):
    note = note.replace("an asterisk", "\\*")
    rows = cited_by_row(MARKED.format(mark=mark, note=note))
    gamma = next(v for k, v in rows.items() if k.startswith("Gamma"))   # the row label keeps a mark it carries
    assert None not in rows["Beta"] and None not in gamma
    assert rows["Alpha"] == {None} and rows["Delta"] == {None}   # bold is no mark


def test_a_mark_note_that_credits_no_one_cites_nothing():
    rows = cited_by_row(MARKED.format(mark="†", note="Numbers marked with † were measured with a warm cache."))
    assert rows and all(v == {None} for v in rows.values())


def test_a_table_under_a_label_under_a_citing_lead_is_cited_as_a_list_there_would_be():
    lead = "A recent study of long prompts found that accuracy fades as the context grows:"
    text = (f"# Long prompts\n\n{lead}\n\n**Answer accuracy per context length:**\n\n"
            "| Context (K tokens) | Plain accuracy (%) | Chunked accuracy (%) |\n|---|---|---|\n"
            "| 8 | 97.5 | 98.0 |\n| 256 | 38.6 | 71.2 |\n")
    rows = cited_by_row(text)
    assert rows and all(None not in v for v in rows.values()), rows
    ours = text.replace(lead, "Our chunking keeps accuracy up:")
    rows = cited_by_row(ours)
    assert rows and all(v == {None} for v in rows.values()), rows


def test_a_title_that_compares_two_systems_tells_no_own_row():
    text = ("# Kite-13B vs. Orca: quiz scores\n\n| Model | QuizA accuracy (%) |\n|---|---|\n| Kite-13B | 48.9 |\n"
            "| Orca (ours) | 52.4 |\n\nOther models' scores are quoted from their papers.\n")
    rows = cited_by_row(text)
    assert None not in rows["Kite-13B"] and rows["Orca (ours)"] == {None}


@pytest.mark.parametrize("title", ["Kite-13B: a comparison of quiz scores", "Kite-13B holds up against larger models"])
def test_a_title_naming_one_system_with_a_word_of_comparison_still_tells_the_own_row(title):
    text = (f"# {title}\n\n| Model | QuizA accuracy (%) |\n|---|---|\n| Kite-13B | 48.9 |\n"
            "| Orca-7B | 45.1 |\n\nOther models' scores are quoted from their papers.\n")
    rows = cited_by_row(text)
    assert rows["Kite-13B"] == {None} and None not in rows["Orca-7B"], rows


@pytest.mark.parametrize("title", ["Kite-13B versus Orca-7B", "Kite-13B compared with Orca-7B"])
def test_a_title_comparing_two_named_systems_tells_no_own_row_by_its_names(title):
    text = (f"# {title}\n\n| Model | QuizA accuracy (%) |\n|---|---|\n| Kite-13B | 48.9 |\n"
            "| Orca-7B | 45.1 |\n\nOther models' scores are quoted from their papers.\n")
    rows = cited_by_row(text)   # neither is told the post's own, so the note credits neither row
    assert rows["Kite-13B"] == rows["Orca-7B"] == {None}, rows
