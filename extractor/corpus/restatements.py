"""The `restatements` table of the claims store: each claim that restates the figure of a claim of an
earlier post, linked to it (see extractor/compare/groups.py for when a figure is restated).

Kept in step with the store: `batch` relinks after storing documents, and a store from before the table
is linked when it is opened (Store's migration). Reads the stored records through the connection only.
"""
from __future__ import annotations

import sqlite3
from pathlib import Path

from extractor.compare.groups import find_restatements
from extractor.compare.model import ClaimRef
from extractor.records import DocumentRecord


def stored_refs(conn: sqlite3.Connection) -> list[ClaimRef]:
    """Every claim of the stored (extracted) documents, by path and position."""
    out: list[ClaimRef] = []
    for path, js in conn.execute("SELECT path, record_json FROM documents WHERE status='ok' ORDER BY path"):
        record = DocumentRecord.model_validate_json(js)
        out += [ClaimRef.of(record, i, path=path) for i in range(len(record.claims))]
    return out


def relink(conn: sqlite3.Connection, rules_dir: str | Path | None = None) -> int:
    """Recompute the `restatements` table from every stored claim, in one transaction; the number of links."""
    links = find_restatements(stored_refs(conn), rules_dir=rules_dir)
    ords: dict[tuple[str, str], int] = {}
    for path, ord_, cid in conn.execute("SELECT path, ord, claim_id FROM claims ORDER BY path, ord"):
        ords.setdefault((path, cid), ord_)
    rows = [(l.claim.key[0], ords[l.claim.key], l.claim.claim.id, l.restates.key[0], ords[l.restates.key],
             l.restates.claim.id, l.restates.doc) for l in links if l.claim.key in ords and l.restates.key in ords]
    cur = conn.cursor()
    cur.execute("BEGIN IMMEDIATE")
    try:
        cur.execute("DELETE FROM restatements")
        cur.executemany("INSERT OR IGNORE INTO restatements VALUES (?,?,?,?,?,?,?)", rows)
        cur.execute("COMMIT")
    except BaseException:
        cur.execute("ROLLBACK")
        raise
    return len(rows)


def restated(conn: sqlite3.Connection) -> dict[tuple[str, int], tuple[str, str]]:
    """(path, ord) of each restating claim -> (the restated claim's id, its post)."""
    return {(p, o): (cid, doc) for p, o, cid, doc in
            conn.execute("SELECT path, ord, other_claim_id, other_doc FROM restatements")}
