"""The HTML audit page of the bundled sample post in headless Chromium: it loads offline, lists every
claim headline first, and clicking a claim shows its record and highlights its condition spans."""
from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from browser import dump_dom, no_remote_references
from extractor.api import extract_path
from extractor.cli import app
from extractor.ingest import ingest

SAMPLE = Path(__file__).resolve().parents[2] / "corpus" / "version-compare-docker.md"


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    out = tmp_path_factory.mktemp("audit") / "audit.html"
    res = CliRunner().invoke(app, ["audit", str(SAMPLE), "--format", "html", "-o", str(out)])
    assert res.exit_code == 0, res.output
    return out


def highlighted(dom: str, cls: str) -> dict[str, str]:
    """Condition key -> the text of the segments over it that carry class `cls`, joined."""
    found: dict[str, str] = {}
    for m in re.finditer(r'<span class="([^"]*)" (?:data-c="[^"]*" )?data-k="([^"]*)">(.*?)</span>', dom, re.S):
        if cls in m.group(1).split():
            for key in m.group(2).split():
                found[key] = found.get(key, "") + html.unescape(m.group(3))
    return found


def test_page_is_self_contained(page):
    text = page.read_text(encoding="utf-8")
    no_remote_references(text)
    assert "Content-Security-Policy" in text and "default-src 'none'" in text


def test_page_lists_every_claim_headline_first(page, tmp_path):
    record = extract_path(SAMPLE)
    dom = dump_dom(page.as_uri(), tmp_path)
    assert re.search(r'<body[^>]*data-js="ready"', dom), "page script did not run"
    n, heads = len(record.claims), sum(c.headline for c in record.claims)
    assert n > 5 and heads >= 1
    assert f'id="claim-count">{n} claims, {heads} headline<' in dom
    items = re.findall(r'<button type="button" class="claim-item[^"]*" data-claim="(\d+)">', dom)
    assert len(items) == n
    flags = [record.claims[int(i)].headline for i in items]
    assert flags == sorted(flags, reverse=True)             # headline claims first
    # every claim is marked in the text, with its metric label after it
    marked = set(re.findall(r'<span class="seg claim[^"]*" data-c="([\d ]+)"', dom))
    assert {int(i) for m in marked for i in m.split()} == set(range(n))


def test_clicking_a_claim_highlights_its_condition_spans(page, tmp_path):
    record = extract_path(SAMPLE)
    i = next(k for k, c in enumerate(record.claims)
             if sum(v.status == "stated" and v.span is not None for v in c.conditions.values()) >= 3)
    claim = record.claims[i]
    dom = dump_dom(page.as_uri() + f"#claim={i}", tmp_path)
    assert f'<section id="record" data-claim="{i}">' in dom
    stated = {name: c for name, c in claim.conditions.items() if c.status == "stated" and c.span}
    lit = highlighted(dom, "cond-hl")
    for name, cond in stated.items():
        assert lit.get(f"c{i}-{name}") == cond.quote, name          # exactly the span it came from
    # and nothing else: every highlighted segment lies under a span of this claim's conditions
    for m in re.finditer(r'<span class="([^"]*)" (?:data-c="[^"]*" )?data-k="([^"]*)">', dom):
        if "cond-hl" in m.group(1).split():
            assert any(k.startswith(f"c{i}-") for k in m.group(2).split())
    # the record panel: one row per condition, unrecoverable ones with their where-note
    rows = re.findall(r'<tr class="cond (stated|unrecoverable)(?: far)?" data-name="(\w+)"', dom)
    assert {name for _, name in rows} == set(claim.conditions)
    for name, cond in claim.conditions.items():
        if cond.status == "unrecoverable":
            assert html.escape("where: " + cond.where, quote=False) in dom
    # the selected claim's own span is marked as selected
    sel = re.findall(rf'<span class="seg claim sel[^"]*" data-c="[^"]*\b{i}\b[^"]*"[^>]*>(.*?)</span>', dom)
    assert html.unescape("".join(sel)) == claim.quote
    assert "Caveats (" in dom


def test_html_post_is_shown_as_the_extractor_saw_it(tmp_path):
    """An HTML post is shown with its markup blanked; each claim's segments still read its quote."""
    post = SAMPLE.parent / "html-full-page.html"
    out = tmp_path / "a.html"
    assert CliRunner().invoke(app, ["audit", str(post), "-f", "html", "-o", str(out)]).exit_code == 0
    page_text = out.read_text(encoding="utf-8")
    body = page_text.split('<main id="text" class="raw">', 1)[1].split("</main>", 1)[0]
    assert "&lt;p&gt;" not in body and "&lt;script" not in body
    record = extract_path(post)
    view = ingest(post.read_text(encoding="utf-8"), post.name, "html").view
    for i, claim in enumerate(record.claims):
        segs = re.findall(rf'<span class="seg claim" data-c="(?:\d+ )*{i}(?: \d+)*"[^>]*>(.*?)</span>', body, re.S)
        assert html.unescape("".join(segs)).split() == view[claim.span[0]:claim.span[1]].split(), claim.quote


def test_claim_option_opens_the_page_on_that_claim(tmp_path):
    record = extract_path(SAMPLE)
    i = len(record.claims) - 1
    out = tmp_path / "chosen.html"
    res = CliRunner().invoke(app, ["audit", str(SAMPLE), "-f", "html", "--claim", record.claims[i].id, "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert f'<section id="record" data-claim="{i}">' in dump_dom(out.as_uri(), tmp_path)
    j = 0 if i else 1                                   # a #claim=N fragment still wins
    assert f'<section id="record" data-claim="{j}">' in dump_dom(out.as_uri() + f"#claim={j}", tmp_path)


def test_markdown_post_is_rendered_with_its_marks_and_opens_on_the_headline(page, tmp_path):
    record = extract_path(SAMPLE)
    dom = dump_dom(page.as_uri(), tmp_path)
    assert '<main id="text" class="rendered">' in dom
    assert re.search(r"<h2><span class=\"md\">## </span>", dom)            # headings drawn as headings
    assert '<table class="post-table">' in dom and "<th>" in dom            # the results table as a table
    # every marked segment still holds the post's characters at its offsets: the claims' quotes are intact
    for i, claim in enumerate(record.claims):
        text = "".join(html.unescape(t) for t in re.findall(
            rf'<span class="seg claim[^"]*" data-c="(?:[\d ]* )?{i}(?: [\d ]*)?"[^>]*>(.*?)</span>', dom, re.S))
        assert claim.quote.replace("\n", " ") in text.replace("\n", " "), (claim.quote, text)
    head = next(i for i, c in enumerate(record.claims) if c.headline)
    assert re.search(rf'<section id="record" data-claim="{head}">', dom)   # selected on open
    assert re.search(rf'class="claim-item sel" data-claim="{head}"', dom)


def test_conditions_carry_their_scope_and_far_ones_a_warning(page, tmp_path):
    record = extract_path(SAMPLE)
    head = next(c for c in record.claims if c.headline)
    dom = dump_dom(page.as_uri(), tmp_path)
    found = re.findall(r'<tr class="cond stated( far)?" data-name="(\w+)" data-scope="(\w*)"', dom)
    assert found
    for far, name, scope in found:
        assert scope == head.conditions[name].scope
        assert bool(far) == (scope not in ("sentence", "table_row")), (name, scope)
    assert any(far for far, _, _ in found) and "\u26a0 from" in dom
    assert '<section id="set-aside"><h2>Set aside (' in dom
