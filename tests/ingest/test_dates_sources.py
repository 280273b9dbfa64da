"""Post dates (front matter, file name, HTML meta, <time>, JSON-LD) and sources, in the record and the store."""
from __future__ import annotations

import json
import sqlite3

import pytest
from typer.testing import CliRunner

from extractor.api import extract_text
from extractor.cli import app
from extractor.corpus.batch import run_batch
from extractor.corpus.query import ClaimFilter, find_claims
from extractor.corpus.store import SCHEMA_VERSION, Store
from extractor.ingest.dates import NotADate, date_in_name, parse_date

BODY = "# Results\n\nOur server reached 4,200 tokens/s on one L40S GPU.\n"


def md(front: str = "") -> str:
    return (f"---\ntitle: A test post\n{front}---\n\n" if front else "") + BODY


@pytest.mark.parametrize("written, day", [
    ("2025-06-24", "2025-06-24"), ("2025-06-24T09:30:00Z", "2025-06-24"),
    ("2025-06-24 23:30:00 -0700", "2025-06-24"), ("2025/6/4", "2025-06-04"),
    ("Jan 17, 2024", "2024-01-17"), ("September 3, 2023", "2023-09-03"), ("3 March 2022", "2022-03-03"),
])
def test_written_dates_become_iso_days(written, day):
    assert parse_date(written) == day


@pytest.mark.parametrize("written", ["2025-13-01", "2025-02-30", "next Tuesday", "2025"])
def test_not_a_date(written):
    with pytest.raises(NotADate):
        parse_date(written)


def test_file_name_dates():
    assert date_in_name("2025-01-27-fast-decoding.md") == "2025-01-27"
    assert date_in_name("blog--2024-07-25-llama.md") == "2024-07-25"
    assert date_in_name("posts/2025-01-27.md") == "2025-01-27"
    assert date_in_name("2025-13-27-title.md") is None       # no month 13
    assert date_in_name("v12025-01-270.md") is None            # digits run on: not a date on its own
    assert date_in_name("release-notes.md") is None


def test_front_matter_wins_over_the_file_name():
    rec = extract_text(md("date: 2025-03-02\n"), "2025-01-27-post.md")
    assert (rec.date, rec.date_source) == ("2025-03-02", "front_matter")
    rec = extract_text(md("published: \"May 5, 2024\"\n"), "post.md")
    assert (rec.date, rec.date_source) == ("2024-05-05", "front_matter")


def test_jekyll_published_flag_is_not_a_date():
    rec = extract_text(md("published: true\n"), "2025-01-27-post.md")
    assert (rec.date, rec.date_source) == ("2025-01-27", "file_name")
    assert not [n for n in rec.provenance if n.kind == "invalid-date"]


def test_file_name_date_when_front_matter_has_none():
    rec = extract_text(md(), "2025-01-27-post.md")
    assert (rec.date, rec.date_source) == ("2025-01-27", "file_name")
    rec = extract_text(md(), "post.md")
    assert (rec.date, rec.date_source) == (None, None)


@pytest.mark.parametrize("value", ["2025-13-01", "2025-02-30"])
def test_invalid_front_matter_date_keeps_the_post_with_a_note(value):
    text = md(f"date: {value}\nauthor: Someone\n")
    rec = extract_text(text, "2025-01-27-post.md")
    assert rec.date is None and rec.date_source is None      # the file name does not stand in for it
    assert rec.title == "A test post" and rec.claims                # the rest of the front matter is kept
    note = next(n for n in rec.provenance if n.kind == "invalid-date")
    assert "'date: " + value + "'" in note.message
    assert note.quote == value and text[note.span[0]:note.span[1]] == value


def page(head: str = "", body_extra: str = "") -> str:
    return (f"<html><head><title>T</title>{head}</head><body><main><h1>T</h1>{body_extra}"
            "<p>Our server reached 4,200 tokens/s on one L40S GPU.</p></main></body></html>")


def test_html_dates_in_order_meta_time_json_ld():
    ld = '<script type="application/ld+json">{"@graph": [{"@type": "BlogPosting", "datePublished": "2023-11-02T08:00:00+01:00"}]}</script>'
    meta = '<meta property="article:published_time" content="2024-02-01T10:00:00Z">'
    time = '<p>Posted <time datetime="2024-03-05">March 5</time></p>'
    cases = [(page(meta + ld, time), ("2024-02-01", "html_meta")),
             (page(ld, time), ("2024-03-05", "html_time")),
             (page(ld), ("2023-11-02", "json_ld")),
             (page(), (None, None))]
    for html, want in cases:
        rec = extract_text(html, "post.html")
        assert (rec.date, rec.date_source) == want
    assert extract_text(page(ld), "2022-01-01-post.html").date_source == "file_name"
    micro = '<meta itemprop="datePublished" content="2024-04-09">'
    assert extract_text(page(micro), "post.html").date == "2024-04-09"


def jekyll_folder(tmp_path, name, days):
    folder = tmp_path / name
    (folder / "_posts").mkdir(parents=True)
    for day in days:
        (folder / "_posts" / f"{day}-results.md").write_text(
            f"# Results of {day}\n\nThe engine served 3,{day[-2:]}0 tokens/s on one L40S GPU.\n", encoding="utf-8")
    return folder


def test_batch_of_jekyll_posts_is_dated_and_filtered(tmp_path):
    a = jekyll_folder(tmp_path, "engine-blog", ["2025-01-10", "2025-06-01", "2025-08-20"])
    b = jekyll_folder(tmp_path, "vendor-blog", ["2024-12-24"])
    db = tmp_path / "c.db"
    run_batch([a, b], db=db, progress=False)
    with Store(db) as store:
        rows = store.conn.execute("SELECT date, date_source, source FROM documents ORDER BY path").fetchall()
    assert rows == [("2025-01-10", "file_name", "engine-blog"), ("2025-06-01", "file_name", "engine-blog"),
                    ("2025-08-20", "file_name", "engine-blog"), ("2024-12-24", "file_name", "vendor-blog")]
    since = find_claims(db, ClaimFilter(since="2025-06-01"))
    assert sorted(r["date"] for r in since) == ["2025-06-01", "2025-08-20"]
    assert [r["date"] for r in find_claims(db, ClaimFilter(until="2025-01-10"))] == ["2025-01-10", "2024-12-24"]
    assert {r["source"] for r in find_claims(db, ClaimFilter(source="vendor-blog"))} == {"vendor-blog"}
    # --source names them all; a skipped (unchanged) post takes the new name too
    run_batch([b], db=db, progress=False, source="Vendor X")
    assert [r["source"] for r in find_claims(db, ClaimFilter(source="Vendor X"))] == ["Vendor X"]
    out = CliRunner().invoke(app, ["query", "--db", str(db), "--since", "2025-06-01", "--format", "json"])
    assert out.exit_code == 0 and len(json.loads(out.stdout)) == 2
    bad = CliRunner().invoke(app, ["query", "--db", str(db), "--since", "2025-02-30"])
    assert bad.exit_code == 2 and "not a date" in bad.output


def test_version_1_database_is_migrated(tmp_path):
    folder = jekyll_folder(tmp_path, "blog", ["2025-02-03"])
    db = tmp_path / "old.db"
    run_batch([folder], db=db, progress=False)
    con = sqlite3.connect(db)   # make it look like a version-1 store: no source, no date_source, no date
    con.executescript("DROP INDEX documents_date; DROP INDEX documents_source; "
                      "ALTER TABLE documents DROP COLUMN source; ALTER TABLE documents DROP COLUMN date_source; "
                      "UPDATE documents SET date = NULL; PRAGMA user_version = 1;")
    con.close()
    with Store(db) as store:
        cols = {r[1] for r in store.conn.execute("PRAGMA table_info(documents)")}
        assert {"source", "date_source"} <= cols
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert store.counts()["claims"] == 1                      # nothing lost
    again = run_batch([folder], db=db, progress=False)
    assert again.reextracted == 1 and again.skipped == 0       # stale after the migration: re-extracted
    with Store(db) as store:
        assert store.conn.execute("SELECT date, date_source, source FROM documents").fetchall() == [
            ("2025-02-03", "file_name", "blog")]


@pytest.mark.parametrize("body, want", [
    ('<article><header><p>By A. Writer, <time datetime="2024-03-06T10:00">March 6</time></p></header>{p}</article>',
     "2024-03-06"),                                   # the byline in the article's header
    ('<nav><time datetime="2020-01-01">an older post</time></nav><article><time datetime="2024-03-07">x</time>{p}</article>',
     "2024-03-07"),                                   # not a date from the navigation
    ('<aside><time datetime="2020-01-01">older</time></aside><p>By A. <time datetime="2024-03-08">x</time></p>{p}',
     "2024-03-08"),                                   # nor from an aside, on a page without <article>
    ('<header><time datetime="2020-01-01">site header</time></header><main>{p}</main>', None),   # outside the post
])
def test_html_time_belongs_to_the_post(body, want):
    text = "<html><head><title>T</title></head><body>" + body.format(
        p="<p>Our server reached 4,200 tokens/s on one L40S GPU.</p>") + "</body></html>"
    assert extract_text(text, "post.html").date == want
