"""`audit` and `quantities` on several files, `audit --claim` on the HTML page, and token-count notes
that seem to disagree saying which figure each is about."""
from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from extractor.api import extract_path
from extractor.audit import build_audit, render_audit, render_audit_html
from extractor.cli import app
from extractor.records import Note

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
FIRST, SECOND = CORPUS / "recipe-repo-command.md", CORPUS / "two-isl-ambiguous.md"


def run(*args: str):
    return CliRunner().invoke(app, list(args))


def test_audit_of_one_file_is_unchanged():
    record = extract_path(FIRST)
    for fmt in ("text", "markdown", "json"):
        res = run("audit", str(FIRST), "-f", fmt)
        assert res.exit_code == 0 and res.stdout == render_audit(record, fmt)
    line = run("audit", str(FIRST), "-f", "jsonl").stdout
    assert line.count("\n") == 1 and json.loads(line) == json.loads(render_audit(record, "json"))


def test_audit_of_several_files_in_each_format():
    one, two = (render_audit(extract_path(p), "text") for p in (FIRST, SECOND))
    res = run("audit", str(FIRST), str(SECOND))
    assert res.exit_code == 0
    assert res.stdout == f"==> {FIRST} <==\n\n{one}\n==> {SECOND} <==\n\n{two}"
    md = run("audit", str(FIRST), str(SECOND), "-f", "markdown").stdout
    assert md.startswith(f"## {FIRST}\n\n# ") and f"\n## {SECOND}\n\n# " in md
    audits = json.loads(run("audit", str(FIRST), str(SECOND), "-f", "json").stdout)
    assert [a["doc"] for a in audits] == [FIRST.name, SECOND.name]
    lines = run("audit", str(FIRST), str(SECOND), "-f", "jsonl").stdout.splitlines()
    assert [json.loads(x)["doc"] for x in lines] == [FIRST.name, SECOND.name]


def test_audit_of_several_files_goes_on_past_a_missing_one():
    res = run("audit", str(FIRST), "missing.md", str(SECOND), "-f", "jsonl")
    assert res.exit_code == 2 and "benchclaims: missing.md: no such file" in res.stderr
    assert [json.loads(x)["doc"] for x in res.stdout.splitlines()] == [FIRST.name, SECOND.name]


def test_audit_refuses_what_several_files_cannot_mean():
    for extra in (["-f", "html"], ["--claim", "abc"]):
        res = run("audit", str(FIRST), str(SECOND), *extra)
        assert res.exit_code == 2 and res.stderr.startswith("benchclaims: ") and not res.stdout


def test_quantities_of_one_file_is_unchanged_and_several_carry_the_document():
    single = [json.loads(x) for x in run("quantities", str(FIRST)).stdout.splitlines()]
    assert single and all("doc" not in q for q in single)
    res = run("quantities", str(FIRST), str(SECOND))
    both = [json.loads(x) for x in res.stdout.splitlines()]
    assert res.exit_code == 0 and {q["doc"] for q in both} == {FIRST.name, SECOND.name}
    assert [{k: v for k, v in q.items() if k != "doc"} for q in both if q["doc"] == FIRST.name] == single
    array = json.loads(run("quantities", str(FIRST), str(SECOND), "-f", "json").stdout)
    assert array == both
    table = run("quantities", str(FIRST), str(SECOND), "-f", "text").stdout
    assert table.startswith(f"==> {FIRST} <==\nvalue") and f"\n\n==> {SECOND} <==\nvalue" in table


def test_quantities_goes_on_past_a_missing_file():
    res = run("quantities", "missing.txt", str(SECOND))
    assert res.exit_code == 2 and "benchclaims: missing.txt: no such file" in res.stderr
    assert {json.loads(x)["doc"] for x in res.stdout.splitlines()} == {SECOND.name}


def test_html_audit_opens_on_the_chosen_claim():
    record = extract_path(FIRST)
    assert len(record.claims) > 1
    index = len(record.claims) - 1
    chosen = record.claims[index]
    res = run("audit", str(FIRST), "-f", "html", "--claim", chosen.id[:8])
    assert res.exit_code == 0
    assert re.search(rf'<body data-selected="{index}">', res.stdout)
    assert 'getAttribute("data-selected")' in res.stdout
    plain = run("audit", str(FIRST), "-f", "html").stdout     # no --claim: opens on the first headline claim
    first = next((i for i, c in enumerate(record.claims) if c.headline), 0)
    assert f'<body data-selected="{first}">' in plain
    page = render_audit_html(record, FIRST.read_text(encoding="utf-8"), None, index, markdown=FIRST.suffix == ".md")
    assert res.stdout.rstrip("\n") == page.rstrip("\n")
    bad = run("audit", str(FIRST), "-f", "html", "--claim", "nope")
    assert bad.exit_code == 2 and bad.stderr.startswith("benchclaims: ") and record.claims[0].id in bad.stderr


def _two_headlines(tokens: tuple[str, str]):
    """A record with two headline throughput claims counting `tokens`, and the notes the extractor
    writes for them (each carries its headline's span)."""
    record = extract_path(SECOND)
    first, second = record.claims[0], record.claims[1]
    for claim, tok in zip((first, second), tokens):
        claim.headline, claim.metric, claim.tokens = True, "throughput", tok
    record.provenance = [n for n in record.provenance if n.kind != "tokens-counted"] + [
        Note(kind="tokens-counted", message=f"the headline counts {tok} tokens ({c.quote})", quote=c.quote,
             span=c.span) for c, tok in zip((first, second), tokens)]
    return record, first, second


def test_token_notes_that_differ_say_which_figure_each_is_about():
    record, first, second = _two_headlines(("input", "total"))
    report = build_audit(record, first.id)
    assert report.token_scopes is not None
    assert f'input tokens only for {report.figure.text} ("{first.quote}", the audited figure' in report.token_scopes
    assert f'total tokens for ' in report.token_scopes and f'("{second.quote}", another headline figure' in report.token_scopes
    assert report.token_scopes in render_audit(record, "text", first.id)
    assert report.token_scopes in render_audit(record, "markdown", first.id)


def test_token_notes_that_agree_add_nothing():
    record, first, _ = _two_headlines(("total", "total"))
    report = build_audit(record, first.id)
    assert report.token_scopes is None and "token-count notes differ" not in render_audit(record, "text", first.id)
