"""Helpers for tests that watch a batch's store while it runs."""
from __future__ import annotations

import sqlite3
from pathlib import Path


def stored_documents(db: Path) -> int:
    """Documents the store at `db` holds now; 0 while it does not exist yet or is locked."""
    try:
        con = sqlite3.connect(db, timeout=1)
        try:
            return con.execute("SELECT count(*) FROM documents").fetchone()[0]
        finally:
            con.close()
    except sqlite3.Error:
        return 0
