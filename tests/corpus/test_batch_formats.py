"""`batch` reads .mdx as Markdown (import/export statements kept out of the text, offsets kept) and says in its
summary line which files it did not read, by reason and extension (own sentences)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from extractor.api import extract_text
from extractor.corpus.batch import run_batch

MDX = ('import {Chart} from "../components/chart"\nexport const meta = {\n  speed: 999,\n}\n\n# Bench\n\n'
       'We served 100 tok/s on one GPU.\n\n<Chart values={[1, 2]} label="777 tok/s" />\n\n'
       '```python\nimport torch  # 555 tok/s in a code sample\n```\n\n<Note>\nDecode ran at 200 tok/s.\n</Note>\n')


def test_mdx_reads_prose_and_components_not_imports_or_exports():
    record = extract_text(MDX, "post.mdx")
    assert [c.value for c in record.claims] == [100.0, 200.0]
    for c in record.claims:
        assert MDX[c.span[0]:c.span[1]] == c.quote


def test_the_summary_names_every_file_not_read(tmp_path):
    folder = tmp_path / "site"
    (folder / "docs").mkdir(parents=True)
    (folder / "a.mdx").write_text(MDX, encoding="utf-8")
    (folder / "b.rst").write_text("Title\n=====\n\nWe served 300 tok/s.\n", encoding="utf-8")
    (folder / "c.md").write_text("We served 400 tok/s on one GPU.\n", encoding="utf-8")
    (folder / "docs" / "d.txt").write_text("We served 500 tok/s.\n", encoding="utf-8")
    (folder / "logo.png").write_bytes(b"\x89PNG\r\n")
    (folder / "Makefile").write_text("all:\n", encoding="utf-8")
    (folder / ".gitignore").write_text("*.db\n", encoding="utf-8")   # dot files are no pages: not counted
    summary = run_batch([folder], db=tmp_path / "c.db", progress=False)
    assert (summary.total, summary.new, summary.failed) == (3, 3, 0)
    line = summary.line()
    assert line.endswith("; 3 other files not read (not a document format: 1 .png, 1 .rst, 1 without extension)")


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="POSIX file modes")
def test_an_unreadable_file_is_a_failure_named_in_the_summary_line():
    if os.geteuid() == 0 and not shutil.which("setpriv"):
        pytest.skip("root reads every file")
    top = Path(tempfile.mkdtemp(prefix="benchclaims-formats-"))
    try:
        top.chmod(0o777)
        folder = top / "posts"
        folder.mkdir()
        folder.chmod(0o755)
        (folder / "ok.md").write_text("We served 400 tok/s on one GPU.\n", encoding="utf-8")
        (folder / "notes.rst").write_text("We served 300 tok/s.\n", encoding="utf-8")
        locked = folder / "locked.md"
        locked.write_text("We served 600 tok/s.\n", encoding="utf-8")
        locked.chmod(0o000)
        drop = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] if os.geteuid() == 0 else []
        r = subprocess.run([*drop, sys.executable, "-m", "extractor", "batch", str(folder), "--db",
                            str(top / "c.db")], capture_output=True, text=True, timeout=300, cwd=top)
        assert r.returncode == 1, r.stderr
        assert r.stdout.splitlines()[0] == ("2 documents: 1 new, 0 changed, 0 skipped, 1 failed (1 claims extracted); "
                                    "failed: 1 unreadable (.md); 1 other files not read "
                                    "(not a document format: 1 .rst)")
    finally:
        shutil.rmtree(top)
