"""Headless Chromium for the page tests (Debian's `chromium`; .ci/run installs it): the DOM after the
page's scripts ran, with the network off."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

CANDIDATES = ("/usr/bin/chromium", "chromium", "chromium-browser")


def chromium() -> str:
    for c in CANDIDATES:
        found = shutil.which(c)
        if found:
            return found
    pytest.skip("headless Chromium not installed (Debian package `chromium`; .ci/run installs it)")


def dump_dom(url: str, tmp_path: Path) -> str:
    """The DOM after the page's scripts ran; every network request other than the file is refused."""
    profile = tmp_path / "profile"
    cmd = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
           "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={profile}",
           "--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=<-loopback>",
           "--virtual-time-budget=5000", "--dump-dom", url]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=90)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


def no_remote_references(page: str) -> None:
    """The page names nothing it would fetch: no src/href to another place, no url(), no @import."""
    import re

    assert not re.search(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", page, re.I)
    assert "@import" not in page and not re.search(r"url\(\s*['\"]?(?:https?:)?//", page, re.I)
