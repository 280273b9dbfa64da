"""The HTML diff report rendered in headless Chromium: changes show, highlights and filter JS work."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from extractor.review.diff import diff_records
from extractor.review.render_html import render_html
from extractor.records import Claim, Condition, DocumentRecord

CANDIDATES = ("/usr/bin/chromium", "chromium", "chromium-browser")


def chromium() -> str:
    for c in CANDIDATES:
        found = shutil.which(c)
        if found:
            return found
    pytest.skip("headless Chromium not installed (Debian package `chromium`; .ci/run installs it)")


def dump_dom(url: str, tmp_path: Path) -> str:
    """The DOM after the page's scripts ran."""
    profile = tmp_path / "profile"
    cmd = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
           "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={profile}",
           "--dump-dom", url]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=90)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


def claim(metric, value, quote, start, unit="token / second", **kw):
    return Claim(metric=metric, value=value, unit=unit, quote=quote, span=(start, start + len(quote)), **kw)


def report_file(tmp_path: Path) -> Path:
    def rec(claims):
        return DocumentRecord(doc="gpu-post.md", path="posts/gpu-post.md", sha256="0" * 64,
                              extractor_version="0.1", rules_version="r", claims=claims)

    old = rec([claim("throughput", 5400, "aggregate throughput hit 5,400 tokens/s", 20,
                     conditions={"warmup": Condition(status="stated", value="3 warm-up runs")}),
               claim("ttft", 310, "P50 TTFT rose to 310 ms", 400, unit="millisecond")])
    new = rec([claim("throughput", 5900, "aggregate throughput hit 5,900 tokens/s", 20,
                     conditions={"warmup": Condition(status="unrecoverable", where="harness config")}),
               claim("memory", 18, "KV cache used 18 GiB", 700, unit="gibibyte")])
    path = tmp_path / "report.html"
    path.write_text(render_html(diff_records([old], [new])), encoding="utf-8")
    return path


def test_report_renders_changes_in_chromium(tmp_path):
    dom = dump_dom(report_file(tmp_path).as_uri(), tmp_path)
    assert re.search(r'<body[^>]*data-js="ready"', dom), "page script did not run"
    assert "Showing 3 of 3 claim changes (all)" in dom
    assert 'id="count-added">+1 added' in dom and 'id="count-changed">~1 changed' in dom
    assert '5,<del class="hl">4</del>00' in dom and '5,<ins class="hl">9</ins>00' in dom
    assert "conditions.warmup.status" in dom and "KV cache used 18 GiB" in dom
    assert " hidden" not in re.sub(r"<script>.*?</script>", "", dom, flags=re.S)


def test_filter_script_hides_other_kinds(tmp_path):
    dom = dump_dom(report_file(tmp_path).as_uri() + "#only=removed", tmp_path)
    assert "Showing 1 of 3 claim changes (removed)" in dom
    bodies = re.findall(r'<tbody class="chg (\w+)" data-kind="\w+" id="[^"]+"( hidden="")?>', dom)
    assert sorted(bodies) == [("added", ' hidden=""'), ("changed", ' hidden=""'), ("removed", "")]
    assert re.search(r'<button class="filter active" data-filter="removed">', dom)
