"""Every figure decided (issue 23, item 1): a figure with a performance unit that is neither a claim nor a
condition is set aside with a reason from the fixed vocabulary, in text order; figures no reason applies to
stay out (they are claims the rules missed). Then the plumbing: store, diff, audit, report, docs.
Sentences and posts written for these tests."""
from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import get_args

import pytest

from extractor.api import extract_text
from extractor.audit import render_audit
from extractor.audit.page import render_audit_html
from extractor.claims.set_aside import SET_ASIDE_FILE, SetAsideRules, load_set_aside_rules
from extractor.corpus.report import build_report
from extractor.corpus.store import DOCUMENT_COLUMNS, SCHEMA_VERSION, Store
from extractor.quantities.finder import default_finder
from extractor.records import DocumentRecord, SetAside, SetAsideReason
from extractor.review.diff import diff_records
from extractor.review.render import render
from extractor.rules_io import RuleError, default_rules_dir

ROOT = Path(__file__).resolve().parents[2]


def _aside(text: str, quote: str) -> SetAside | None:
    record = extract_text(text, "t.md")
    found = [a for a in record.set_aside if a.quote == quote]
    assert len(found) <= 1
    return found[0] if found else None


@pytest.mark.parametrize("text,quote,reason", [
    # markup
    ('<p align="center">\n  <img src="x.png"\n     style="width: 70%; margin: auto" />\n</p>\n', "70%", "markup"),
    ('<div><img src="plot.png" width="85%"></div>\n', "85%", "markup"),
    ('---\ntitle: "A post"\nreading_time: "9 min read"\n---\n\nText.\n', "9 min", "markup"),
    # log or error text
    ("```\nRuntimeError: CUDA out of memory. Tried to allocate 3.20 GiB\n```\n", "3.20 GiB", "log_or_error"),
    # (an INFO line that prints a duration is program output, read for results: issue 23's log lines)
    ("```\nWARNING 03-02 11:20:41 engine.py:55] Request timed out after 30 seconds\n```\n", "30 seconds",
     "log_or_error"),
    ("```\nweb-predictor-5c7d   1/1   Running   0   91s\n```\n", "91s", "log_or_error"),
    # arithmetic about a design
    ("The cache needs 2048 tokens × 40 layers × 2 bytes = ~160 KB for every sequence we keep.\n", "~160 KB",
     "design_arithmetic"),
    # example or command argument
    ("Start it with `docker run --shm-size=4GB server` on the host.\n", "4GB", "example"),
    ("The dashboard shows `cache usage: 97.5%` in its footer.\n", "97.5%", "example"),
    ("Suppose, e.g., 400 MB of cache per user on the old cluster.\n", "400 MB", "example"),
    # settings
    ("```yaml\nresources:\n  memory_limit: 24GB\n```\n", "24GB", "setting"),
    ("```python\nlimits = {rank: \"40GB\" for rank in range(4)}\n```\n", "40GB", "setting"),
    ("We served the model on 4x L40S cards for the whole study.\n", "4x", "setting"),
    ("| Sparsity | Score |\n|---|---|\n| 40% | 71.2 |\n| 60% | 69.8 |\n", "40%", "setting"),
    ("The idle timeout defaults to 300 seconds for each worker.\n", "300 seconds", "setting"),
    ("Each replay ran for 20 minutes against the staging cluster.\n", "20 minutes", "setting"),
    ("We sized the pool for a 30% variance in prompt lengths.\n", "30%", "setting"),
    # targets
    ("Every request must meet a TTFT target of 250 ms in this study.\n", "250 ms", "target"),
    ("Our SLO list for the chat tier: TTFT < 1 s and TPOT < 50 ms.\n", "< 1 s", "target"),
    # datasheet
    ("The cluster uses nodes with eight cards (96GB × 8) and a fast fabric.\n", "96GB", "datasheet"),
    ("Each storage node carries a 200 Gb/s NIC for the traffic.\n", "200 Gb/s", "datasheet"),
    ("Renting a single card costs $1.85/hour on the public cloud.\n", "$1.85/hour", "datasheet"),
    # model size
    ("Its 9 GB of quantized weights fit on one card.\n", "9 GB", "model_size"),
    ("We load Tinyllama-Nano (33 GB) from local disk before the run.\n", "33 GB", "model_size"),
    ("The state per block is `4 * 2048 * 2 bytes` in bf16 for each layer.\n", "2 bytes", "design_arithmetic"),
    ("Each SM does 2048 ops per cycle (from `700 TFlops / 1500 MHz / 100 SMs` on the card).\n", "1500 MHz",
     "design_arithmetic"),
    ("A mean gap of $2.5 \\times 10^{-3}$ per element remains.\n", "$2.5", "markup"),
    ("The card was power-limited to 300 watts for the run.\n", "300 watts", "setting"),
    ("| Part | Precision |\n|---|---|\n| 4x MTP layers | bf16 |\n", "4x", "model_size"),
    # more settings and datasheet forms
    ("If the option is unset, 6GB is used as default by the loader.\n", "6GB", "setting"),
    ("Send 45 seconds of traffic to the endpoint, then stop.\n", "45 seconds", "setting"),
    ("We timed cold start time with a 320 GiB host KV pool attached.\n", "320 GiB", "setting"),
    ("The host has 2 x AMD EPYC processors and plenty of RAM.\n", "2 x", "setting"),
    ("On paper, a B-class card lists peak memory bandwidth of 4.1 TB/s.\n", "4.1 TB/s", "datasheet"),
    ("Then 3 x 3 convolutions mix the channels of each tile.\n", "3 x", "design_arithmetic"),
    ("```\nFetching files: 100%|██████████| 9/9 [00:04<00:00, 2.1it/s]\n```\n", "100%", "log_or_error"),
    # cited: the title of another page, in a link
    ("* [2024/05] [Serving a 70B model under 2 seconds on one box](https://example.org/p)\n", "under 2 seconds",
     "cited"),
    # versions and dates (an exclusion of the quantity finder)
    ("See <https://example.org/report?share=25%> for the raw file.\n", "25%", "markup"),
])


def test_a_figure_that_is_no_claim_is_set_aside_with_its_reason(text: str, quote: str, reason: str) -> None:
    a = _aside(text, quote)
    assert a is not None, [(x.quote, x.reason) for x in extract_text(text, "t.md").set_aside]
    assert a.reason == reason
    assert text[a.span[0]:a.span[1]] == a.quote


def test_a_target_is_set_aside_even_where_a_claim_rule_took_it() -> None:
    record = extract_text("Our SLO list for the chat tier: TTFT < 1 s and TPOT < 50 ms.\n", "t.md")
    assert not record.claims
    assert [(a.quote, a.reason) for a in record.set_aside] == [("< 1 s", "target"), ("< 50 ms", "target")]
    kept = extract_text("Our engine keeps TTFT < 1 s on 10,000-token prompts.\n", "t.md")
    assert [c.metric for c in kept.claims] == ["ttft"] and not kept.set_aside
@pytest.mark.parametrize("text,quote", [
    ("Our engine reaches 2,450 tokens/s on one card, 1.8x the old release.\n", "2,450 tokens/s"),
    ("Median TTFT dropped to 180 ms after the change.\n", "180 ms"),
    ("| Engine | Throughput (tok/s) |\n|---|---|\n| ours | 3,100 |\n", "3,100"),
])
def test_a_claim_is_never_set_aside(text: str, quote: str) -> None:
    record = extract_text(text, "t.md")
    assert any(quote in c.quote for c in record.claims), [c.quote for c in record.claims]
    assert not any(a.span[0] < c.span[1] and c.span[0] < a.span[1] for a in record.set_aside for c in record.claims)


@pytest.mark.parametrize("text,quote", [
    # a figure no reason covers stays out of set_aside: a claim the rules may miss is not hidden
    ("The last run wrapped up at 14.2 GB/s on the bulk copy path.\n", "14.2 GB/s"),
    ("Training the 13B variant cost $640 in total on rented cards.\n", "$640"),
    # LaTeX for a ratio ("up to $6\\times$ faster") is a figure, not markup
    ("Decoding is up to $6\\times$ faster than the dense baseline.\n", "up to $6"),
    # between two inline code spans, not inside one: no command argument
    ("We tested `v0.4` on Tesla V100 SXM2 16GB nodes with `tp=2` and nothing else.\n", "16GB"),
    # under a heading that says the figures were measured, a size beside "VRAM" is no datasheet figure
    ("## Memory consumption\n\n- Single socket: at least 14GB VRAM\n", "at least 14GB"),
    # a link to a paper from the project's own README is no news item of another party
    ("Paper: [Faster Serving by 10-20 Times](https://example.org/paper.pdf)\n", "10-20 Times"),
    # "target" as in a speculative-decoding target model is no objective
    ("The target model verified 3.1 ms of drafts per step, the log says nothing more.\n", "3.1 ms"),
])
def test_a_figure_without_a_reason_is_not_set_aside(text: str, quote: str) -> None:
    a = _aside(text, quote)
    allowed = {"datasheet"} if "V100" in text else set()   # the device's size, but no command argument
    assert a is None or a.reason in allowed, a


def test_set_aside_entries_are_in_text_order_and_name_their_rule() -> None:
    text = ("# Setup\n\nWe used 8x H100 cards. The request timeout defaults to 600 seconds.\n\n"
            "```\nERROR worker died after 30 s\n```\n\n<img src=\"a.png\" width=\"60%\">\n")
    record = extract_text(text, "t.md")
    starts = [a.span[0] for a in record.set_aside]
    assert starts == sorted(starts)
    assert {a.quote for a in record.set_aside} >= {"600 seconds", "30 s", "60%"}
    assert all(a.rule.startswith(("set_aside.", "numbers.exclude.", "claims.", "names.")) for a in record.set_aside)


def test_the_finder_reports_what_its_exclusions_skip() -> None:
    skipped: list = []
    text = 'See <td style="width: 50%">12 ms</td> and https://x.org/a?w=30% today.'
    found = default_finder().find(text, 10, skipped)
    assert [q.quote for q in found] == ["12 ms"] or [q.quote.strip(">") for q in found] == ["12 ms"]
    assert [(text[s.span[0] - 10:s.span[1] - 10], s.rule) for s in skipped] == [("50%", "html_tag"), ("30%", "url")]
    assert default_finder().find(text) == [q.model_copy(update={"span": (q.span[0] - 10, q.span[1] - 10)})
                                           for q in found]   # the same quantities with or without the list


def test_rules_validate_at_load(tmp_path: Path) -> None:
    for name in ("claims.yaml", "numbers.yaml", "unit_spellings.jsonl", "units.txt", "conditions.yaml"):
        (tmp_path / name).write_bytes((default_rules_dir() / name).read_bytes())
    (tmp_path / SET_ASIDE_FILE).write_text("rules:\n  - {name: x, reason: other, example: 'a 5 ms thing'}\n")
    with pytest.raises(RuleError) as err:
        load_set_aside_rules(tmp_path)
    assert SET_ASIDE_FILE in str(err.value)
    (tmp_path / SET_ASIDE_FILE).write_text("rules:\n  - {name: x, reason: setting, before: '(', example: 'e'}\n")
    with pytest.raises(RuleError):
        load_set_aside_rules.__wrapped__(tmp_path)


def test_every_rule_has_a_reason_of_the_vocabulary_and_the_docs_list_every_reason() -> None:
    rules = load_set_aside_rules(default_rules_dir())
    assert isinstance(rules, SetAsideRules) and rules.rules
    assert {r.reason for r in rules.rules} <= set(get_args(SetAsideReason))
    doc = (ROOT / "docs" / "set-aside.md").read_text(encoding="utf-8")
    for reason in get_args(SetAsideReason):
        assert f"| `{reason}` |" in doc


POST = ("# Results\n\nOur engine reaches 2,450 tokens/s on 8x H100 cards.\n\n"
        "The request timeout defaults to 600 seconds.\n")


def _record(text: str = POST) -> DocumentRecord:
    return extract_text(text, "post.md", path="post.md")


def test_the_store_keeps_set_aside_figures_and_migrates_an_older_database(tmp_path: Path) -> None:
    record = _record()
    assert record.set_aside
    db = tmp_path / "c.db"
    with Store(db) as store:
        store.put_record(record)
        rows = store.conn.execute("SELECT quote, reason, rule FROM set_aside ORDER BY ord").fetchall()
        assert rows == [(a.quote, a.reason, a.rule) for a in record.set_aside]
        assert store.conn.execute("SELECT n_set_aside FROM documents").fetchone()[0] == len(record.set_aside)
    conn = sqlite3.connect(db)
    # a store of schema 3: no set_aside table, no documents.n_set_aside
    cols = ", ".join(c for c in DOCUMENT_COLUMNS if c != "n_set_aside")
    create = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'documents'").fetchone()[0]
    create = re.sub(r",\s*(?:--[^\n]*\s*)*n_set_aside[^\n]*", "\n", create).replace("documents", "old", 1)
    conn.executescript(f"DROP TABLE set_aside; {create}; INSERT INTO old SELECT {cols} FROM documents; "
                       "DROP TABLE documents; ALTER TABLE old RENAME TO documents; PRAGMA user_version=3;")
    conn.close()
    with Store(db) as store:
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert store.counts()["set_aside"] == 0
        assert not store.is_current("post.md", record.sha256, record.extractor_version, record.rules_version)
        store.put_record(record)
        assert store.counts()["set_aside"] == len(record.set_aside)


def test_diff_shows_a_figure_moving_from_the_claims_to_the_set_aside_list() -> None:
    old = _record()
    new = old.model_copy(deep=True)
    claim = new.claims.pop(0)
    new.set_aside = sorted(new.set_aside + [SetAside(quote=claim.quote, span=claim.span, reason="setting",
                                                    rule="set_aside.test")], key=lambda a: a.span)
    report = diff_records([old], [new])
    [doc] = report.documents
    [moved] = [a for a in doc.set_aside if a.kind == "added"]
    assert moved.moved == "from_claim" and moved.new_reason == "setting"
    assert "set aside +1" in report.summary.line and "1 from claim" in report.summary.line
    assert "was a claim, now set aside as setting" in render(report, "text")
    assert "set-aside-changes" in render(report, "html")
    assert report.has_differences({"set_aside"})
    back = diff_records([new], [old])
    assert [a.moved for a in back.documents[0].set_aside] == ["to_claim"]


def test_diff_shows_a_changed_reason_and_nothing_when_the_same() -> None:
    old = _record()
    assert not diff_records([old], [old]).documents
    new = old.model_copy(deep=True)
    new.set_aside[0] = new.set_aside[0].model_copy(update={"reason": "example", "rule": "set_aside.other"})
    [change] = diff_records([old], [new]).documents[0].set_aside
    assert change.kind == "changed" and change.old_reason != change.new_reason == "example"


def test_audit_and_report_show_the_set_aside_figures_apart_from_the_claims(tmp_path: Path) -> None:
    record = _record()
    text = render_audit(record)
    assert "SET ASIDE (" in text and '"600 seconds"' in text.split("SET ASIDE")[1]
    assert "## Set aside (" in render_audit(record, "markdown")
    page = render_audit_html(record, POST)
    aside = page.split('id="set-aside"')[1]
    assert "600 seconds" in aside and "setting" in aside
    db = tmp_path / "c.db"
    with Store(db) as store:
        store.put_record(record)
        store.put_record(extract_text("Nothing to see, only 3 GB of notes.\n", "other.md", path="other.md"))
    report = build_report(db)
    assert report.set_aside == sum(report.set_aside_reasons.values()) == sum(p.set_aside for p in report.posts)
    assert {p.path: p.claims for p in report.posts}["post.md"] == len(record.claims)
