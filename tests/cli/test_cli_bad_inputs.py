"""Every bad argument, file or option ends in a one-line message and exit 2: never a traceback, hang or unbounded read."""
from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from extractor import api, limits
from extractor.errors import DocumentTimeout, DocumentTooLarge, UnreadableDocument
from extractor.ingest.reading import decode

from cli_runner import as_process, in_process

POST = "Our server reached 2,400 tokens/s on two A100 GPUs at batch size 32.\n"


def cli(*args: str, env: dict | None = None, input: bytes | None = None) -> subprocess.CompletedProcess:
    """The command run in this process (what it prints and its exit code)."""
    r = in_process(*args, env=env, input=input)
    assert "Traceback" not in r.stderr, r.stderr
    return r


def cli_process(*args: str, stdin=None, timeout: float = 120) -> subprocess.CompletedProcess:
    """The command as a process of its own: for reads from a real stdin and reads the time budget stops."""
    r = as_process(*args, stdin=stdin, timeout=timeout)
    assert "Traceback" not in r.stderr, r.stderr
    return r


@pytest.fixture
def post(tmp_path) -> Path:
    f = tmp_path / "post.md"
    f.write_text(POST, encoding="utf-8")
    return f


# -- the time budget: one validation for the option and the environment ----------------------------
@pytest.mark.parametrize("value", ["-1", "nan", "1e12", "soon"])
def test_bad_timeouts_are_usage_errors(post, value):
    r = cli("extract", str(post), "--timeout", value)
    assert r.returncode == 2 and "--timeout" in r.stderr


@pytest.mark.parametrize("value", ["-5", "nan", "1e12"])
def test_bad_timeout_in_the_environment_is_refused_the_same_way(post, value):
    r = cli("extract", str(post), env={limits.TIMEOUT_ENV: value})
    assert r.returncode == 2 and limits.TIMEOUT_ENV in r.stderr


@pytest.mark.parametrize("value", ["inf", "0"])
def test_inf_and_zero_mean_no_budget(post, value):
    r = cli("extract", str(post), "--timeout", value)
    assert r.returncode == 0 and '"claims"' in r.stdout
    assert limits.valid_timeout(value) is None
    assert cli("extract", str(post), env={limits.TIMEOUT_ENV: value}).returncode == 0


def test_valid_timeout_names_its_source():
    with pytest.raises(limits.LimitError, match="BENCHCLAIMS_TIMEOUT='-5'"):
        limits.valid_timeout("-5", "BENCHCLAIMS_TIMEOUT")
    assert limits.valid_timeout(2.5) == 2.5


# -- --input-format ------------------------------------------------------------------------------
def test_unknown_input_format_lists_the_formats(post):
    r = cli("extract", "-", "--input-format", "pdf", input=POST.encode())
    assert r.returncode == 2 and "html, markdown, text" in r.stderr
    r = cli("extract", str(post), "--input-format", "pdf")
    assert r.returncode == 2 and "html, markdown, text" in r.stderr


def test_input_format_is_honoured_for_a_file(tmp_path):
    f = tmp_path / "page.txt"   # HTML in a .txt file: the option says how to read it
    f.write_text("<html><body><h1>Run</h1><p>We measured 1,500 tok/s on one H100.</p></body></html>")
    as_html = api.extract_path(f, fmt="html")
    as_text = api.extract_path(f)
    assert as_html.title == "Run" and as_text.title != "Run"
    r = cli("extract", str(f), "--input-format", "html", "--format", "text")
    assert r.returncode == 0 and r.stdout.startswith("page.txt: Run")


# -- paths that are not readable documents ---------------------------------------------------------
def test_folder_symlink_loop_unreadable_and_missing_files(tmp_path, post):
    loop = tmp_path / "loop.md"
    loop.symlink_to(loop)
    cases = {str(tmp_path): "is a folder", str(loop): "symlink loop", str(tmp_path / "nope.md"): "no such file"}
    for path, says in cases.items():
        for cmd in ("extract", "audit", "quantities"):
            r = cli(cmd, path)
            assert r.returncode == 2 and says in r.stderr, (cmd, path, r.stderr)
    with pytest.raises(UnreadableDocument, match="is a folder"):
        api.extract_path(tmp_path)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_unreadable_file_is_exit_2(post):
    post.chmod(0)
    try:
        r = cli("extract", str(post))
        assert r.returncode == 2 and "permission denied" in r.stderr
    finally:
        post.chmod(0o644)


def test_unreadable_file_is_an_unreadable_document(post, monkeypatch):
    real_open = os.open

    def refusing(path, flags, *a, **kw):
        if os.fspath(path) == str(post):
            raise PermissionError(13, "Permission denied", str(post))
        return real_open(path, flags, *a, **kw)

    monkeypatch.setattr(os, "open", refusing)
    with pytest.raises(UnreadableDocument, match="permission denied"):
        api.extract_path(post)


# -- reads are bounded in size and in time ------------------------------------------------------------
def test_symlink_to_dev_zero_stops_at_the_size_limit(tmp_path):
    zero = tmp_path / "zero.md"
    zero.symlink_to("/dev/zero")
    t0 = time.monotonic()
    with pytest.raises(DocumentTooLarge, match="1048576-byte limit"):
        api.extract_path(zero, max_bytes=1 << 20)
    r = cli("extract", str(zero), "--max-bytes", "1000000")
    assert r.returncode == 2 and "1000000-byte limit" in r.stderr
    with open("/dev/zero", "rb") as stdin:
        r = cli_process("extract", "-", "--max-bytes", "1000000", stdin=stdin)
    assert r.returncode == 2 and "1000000-byte limit" in r.stderr
    assert time.monotonic() - t0 < 60


def test_stdin_from_dev_urandom_is_refused_quickly():
    with open("/dev/urandom", "rb") as stdin:
        r = cli_process("extract", "-", "--timeout", "5", stdin=stdin, timeout=60)
    assert r.returncode == 2 and ("binary" in r.stderr or "byte limit" in r.stderr or "time budget" in r.stderr)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_fifo_nobody_writes_to_is_stopped_by_the_time_budget(tmp_path):
    fifo = tmp_path / "pipe.md"
    os.mkfifo(fifo)
    t0 = time.monotonic()
    with pytest.raises(DocumentTimeout, match="pipe.md"):
        api.extract_path(fifo, timeout=0.5)
    assert time.monotonic() - t0 < 5
    r = cli_process("extract", str(fifo), "--timeout", "1", timeout=60)
    assert r.returncode == 2 and "time budget" in r.stderr


def test_stdin_that_never_ends_is_stopped_by_the_time_budget():
    proc = subprocess.Popen([sys.executable, "-m", "extractor", "extract", "-", "--timeout", "1"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        proc.stdin.write(b"Throughput is 5 tok/s.\n")
        proc.stdin.flush()
        assert proc.wait(timeout=60) == 2   # stdin is still open: the read itself was stopped
        err = proc.stderr.read().decode()
        assert "time budget" in err and "Traceback" not in err
    finally:
        proc.kill()
        proc.wait()


# -- --rules, --db, -o --------------------------------------------------------------------------------
def test_rules_naming_a_file_or_missing_a_rule_file(tmp_path, post):
    r = cli("extract", str(post), "--rules", str(post))
    assert r.returncode == 2 and "--rules" in r.stderr and "not a folder" in r.stderr
    r = cli("batch", str(post), "--rules", str(post), "--db", str(tmp_path / "c.db"))
    assert r.returncode == 2 and "not a folder" in r.stderr
    broken = tmp_path / "rules"
    import shutil

    shutil.copytree(Path(api.get_extractor().rules_dir), broken, ignore=shutil.ignore_patterns("claims.yaml"))
    r = cli("extract", str(post), "--rules", str(broken))
    assert r.returncode == 2 and "claims.yaml" in r.stderr and "missing from the rules folder" in r.stderr
    assert "no such file" not in r.stderr    # the post is there


def test_db_naming_a_folder_or_a_non_database(tmp_path, post):
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not SQLite at all\n" * 100)
    for db, says in ((tmp_path, "is a folder"), (junk, "not a usable benchclaims database")):
        for args in (("batch", str(post)), ("query",), ("export", "--format", "csv", "-o", str(tmp_path / "o.csv"))):
            r = cli(*args, "--db", str(db))
            assert r.returncode == 2 and says in r.stderr, (args, db, r.stderr)
    assert junk.read_bytes().startswith(b"this is not SQLite")   # left as it was


def test_export_to_a_folder(tmp_path, post):
    db = tmp_path / "c.db"
    assert cli("batch", str(post), "--db", str(db)).returncode == 0
    r = cli("export", "--format", "csv", "-o", str(tmp_path), "--db", str(db))
    assert r.returncode == 2 and "cannot write" in r.stderr
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT count(*) FROM documents").fetchone() == (1,)


# -- decoding -----------------------------------------------------------------------------------------
def test_nul_byte_after_the_first_8_kib_is_binary():
    data = POST.encode() * 300 + b"\x00" + POST.encode()
    assert len(data) > 8192 + 1000
    with pytest.raises(UnreadableDocument, match="binary content"):
        decode(data, "late-nul.md")


def test_utf8_with_a_few_bad_bytes_stays_utf8():
    good = ("Le débit atteint 1 500 tok/s sur H100 — ça dépasse l’ancienne version. " * 20).encode()
    data = good[:300] + b"\xff\xfe" + good[300:900] + b"\xc3" + good[900:]
    text = decode(data, "mostly-utf8.md")
    assert "débit" in text and "l’ancienne" in text and 3 <= text.count("\ufffd") <= 5


def test_latin1_text_is_not_taken_for_broken_utf8():
    data = ("Le débit atteint 1500 tok/s sur une carte. Résultat: très rapide. " * 10).encode("cp1252")
    assert "débit" in decode(data, "latin1.md")


def test_cr_only_line_endings_read_like_lf():
    lf = ("# Results\n\nWe measured 1,200 tok/s on one H100.\n\n## Latency\n\n"
          "| batch | TTFT (ms) |\n|---|---|\n| 1 | 35 |\n| 8 | 52 |\n")
    cr = lf.replace("\n", "\r")
    a = api.extract_text(lf, "lf.md")
    b = api.extract_text(cr, "cr.md")
    assert len(a.claims) >= 3
    assert [(c.value, c.span) for c in b.claims] == [(c.value, c.span) for c in a.claims]
    assert decode(cr.encode(), "cr.md") == lf   # the file path decodes the same way
    assert decode("a\r\nb\rc".encode(), "mixed.md") == "a\nb\nc"


def test_crlf_line_ends_read_like_lf_so_spans_index_the_text_python_reads():
    """A post saved with Windows line ends: its spans index the text `open(path).read()` gives (universal
    newlines), the text a reader checks a quote against, not the raw bytes."""
    lf = "# Results\n\nWe measured 1,200 tok/s on one H100.\n\nTTFT fell to 35 ms at batch 1.\n"
    a = api.extract_text(lf, "lf.md")
    b = api.extract_text(lf.replace("\n", "\r\n"), "crlf.md")
    assert len(a.claims) >= 2
    assert [(c.value, c.span, c.quote) for c in b.claims] == [(c.value, c.span, c.quote) for c in a.claims]
    assert decode(lf.replace("\n", "\r\n").encode(), "crlf.md") == lf
