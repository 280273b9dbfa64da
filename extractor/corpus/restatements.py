"""The `restatements` table of the claims store: each claim that restates the figure of a claim of an
earlier post, linked to it (see extractor/compare/groups.py for when a figure is restated).

Kept in step with the store: `batch` relinks after storing documents, and a store from before the table
is linked when it is opened (Store's migration). Reads the stored records through the connection only.
"""
from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Sequence

from extractor.compare.groups import find_restatements
from extractor.compare.model import ClaimRef
from extractor.compare.rules import load_compare_rules
from extractor.records import DocumentRecord


def stored_refs(conn: sqlite3.Connection, stating: Sequence[str] = ()) -> list[ClaimRef]:
    """Every claim of the stored (extracted) documents, by path and position; with `stating` (condition names),
    only the documents of which a claim states all of them (read from the `conditions` table: the other
    records are not read back)."""
    out: list[ClaimRef] = []
    keep = _stating(conn, stating) if stating else None
    for path, js in conn.execute("SELECT path, record_json FROM documents WHERE status='ok' ORDER BY path"):
        if keep is not None and path not in keep:
            continue
        record = DocumentRecord.model_validate_json(js)
        out += [ClaimRef.of(record, i, path=path) for i in range(len(record.claims))]
    return out


def _stating(conn: sqlite3.Connection, names: Sequence[str]) -> set[str]:
    """The paths of the documents with a claim whose conditions `names` are all stated."""
    wanted = sorted(set(names))
    rows = conn.execute("SELECT path FROM conditions WHERE status='stated' "
                        f"AND name IN ({','.join('?' * len(wanted))}) "
                        "GROUP BY path, ord HAVING COUNT(DISTINCT name)=?", (*wanted, len(wanted)))
    return {path for path, in rows}


def relink(conn: sqlite3.Connection, rules_dir: str | Path | None = None) -> int:
    """Recompute the `restatements` table from every stored claim, in one transaction; the number of links.
    Only a claim stating every condition of `restatement.must_state` can restate (compare/groups.py): the
    records of the documents without one are not read back."""
    rules = load_compare_rules(rules_dir)
    links = find_restatements(stored_refs(conn, rules.restatement.must_state), rules=rules)
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
