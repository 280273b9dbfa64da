"""`--max-claims N` on every command that extracts: one validation with $BENCHCLAIMS_MAX_CLAIMS, a refusal that
names the limit and the option, 0 = no cap, and the value handed to every batch worker (jobs 1, 2, Dask)."""
from __future__ import annotations

import json
import sqlite3
import subprocess
from pathlib import Path

import pytest

from extractor import limits
from extractor.corpus.batch import run_batch

from cli_runner import as_process, in_process


def results(n: int) -> str:
    """One paragraph of `n` results, each its own sentence (our own wording)."""
    return "".join(f"The next run served {100 + i} tokens per second. " for i in range(n))


def cli(*args: str, env: dict | None = None, process: bool = False) -> subprocess.CompletedProcess:
    """The command in this process, or as a process of its own (`process`: for what batch workers receive)."""
    r = (as_process if process else in_process)(*args, env={limits.MAX_CLAIMS_ENV: None, **(env or {})})
    assert "Traceback" not in r.stderr, r.stderr
    return r


@pytest.fixture
def posts(tmp_path) -> Path:
    folder = tmp_path / "posts"
    folder.mkdir()
    (folder / "many.md").write_text(results(30), encoding="utf-8")
    (folder / "few.md").write_text(results(3), encoding="utf-8")
    return folder


def test_extract_over_the_cap_is_refused_naming_the_limit_and_the_option(posts):
    r = cli("extract", str(posts / "many.md"), "--max-claims", "5")
    assert r.returncode == 2 and r.stdout == ""
    assert "many.md" in r.stderr and "limit of 5 candidate claims" in r.stderr
    assert "--max-claims" in r.stderr and limits.MAX_CLAIMS_ENV in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_extract_zero_means_no_cap_and_the_option_wins_over_the_environment(posts):
    many = str(posts / "many.md")
    capped = cli("extract", many, "-f", "jsonl", env={limits.MAX_CLAIMS_ENV: "5"})
    assert capped.returncode == 2 and "limit of 5 " in capped.stderr
    for value in ("0", "30"):   # no cap; a cap the document does not pass
        r = cli("extract", many, "-f", "jsonl", "--max-claims", value, env={limits.MAX_CLAIMS_ENV: "5"})
        assert r.returncode == 0, r.stderr
        assert len(json.loads(r.stdout)["claims"]) == 30
    assert cli("extract", many, "--max-claims", "29").returncode == 2


def test_the_default_output_is_unchanged_by_the_option(posts):
    many = str(posts / "many.md")
    default = cli("extract", many)
    assert default.returncode == 0 and len(json.loads(default.stdout)["claims"]) == 30
    assert cli("extract", many, "--max-claims", "0").stdout == default.stdout


@pytest.mark.parametrize("value", ["-1", "2.5", "many", ""])
@pytest.mark.parametrize("command", ["extract", "batch"])
def test_bad_values_are_usage_errors_naming_the_option(posts, tmp_path, command, value):
    extra = ["--db", str(tmp_path / "c.db")] if command == "batch" else []
    r = cli(command, str(posts / "few.md"), *extra, "--max-claims", value)
    assert r.returncode == 2 and "--max-claims" in r.stderr
    assert not (tmp_path / "c.db").exists()


@pytest.mark.parametrize("command", ["extract", "batch"])
def test_a_bad_environment_value_is_refused_the_same_way(posts, tmp_path, command):
    extra = ["--db", str(tmp_path / "c.db")] if command == "batch" else []
    r = cli(command, str(posts / "few.md"), *extra, env={limits.MAX_CLAIMS_ENV: "-3"})
    assert r.returncode == 2 and limits.MAX_CLAIMS_ENV in r.stderr and "0 (no cap) or more" in r.stderr


def test_one_validation_for_the_option_and_the_environment():
    assert limits.valid_max_claims("0") is None and limits.valid_max_claims(" 12 ") == 12
    assert limits.valid_max_claims(7) == 7
    for bad in ("-1", "2.5", "x", "", 2.5, True):
        with pytest.raises(limits.LimitError, match="--max-claims"):
            limits.valid_max_claims(bad)
        with pytest.raises(limits.LimitError, match=limits.MAX_CLAIMS_ENV):
            limits.valid_max_claims(bad, limits.MAX_CLAIMS_ENV)


def stored(db: Path) -> dict[str, dict]:
    rows = sqlite3.connect(db).execute("SELECT path, record_json FROM documents").fetchall()
    return {Path(path).name: json.loads(record) for path, record in rows}


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_batch_stores_the_refused_document_as_failed_and_the_others(posts, tmp_path, jobs):
    db = tmp_path / "c.db"
    r = cli("batch", str(posts), "--db", str(db), "--jobs", jobs, "--max-claims", "5", process=jobs != "1")
    assert r.returncode == 1 and "1 failed" in r.stdout
    rows = stored(db)
    assert rows["many.md"]["kind"] == "too_many_claims"
    assert "limit of 5 candidate claims" in rows["many.md"]["error"] and "--max-claims" in rows["many.md"]["error"]
    assert len(rows["few.md"]["claims"]) == 3


def test_batch_workers_take_the_option_not_their_environment(posts, tmp_path):
    db = tmp_path / "c.db"
    r = cli("batch", str(posts), "--db", str(db), "--jobs", "2", "--max-claims", "0",
            env={limits.MAX_CLAIMS_ENV: "5"}, process=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert {name: len(rec["claims"]) for name, rec in stored(db).items()} == {"many.md": 30, "few.md": 3}


def test_dask_workers_take_the_cap(posts, tmp_path):
    pytest.importorskip("dask.distributed")
    summary = run_batch([posts], db=tmp_path / "d.db", jobs=1, engine="dask", max_claims=5, progress=False)
    assert (summary.total, summary.failed) == (2, 1)
    rows = stored(tmp_path / "d.db")
    assert rows["many.md"]["kind"] == "too_many_claims" and len(rows["few.md"]["claims"]) == 3
