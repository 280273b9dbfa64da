"""The `restatements` table of the claims store: each claim that restates the figure of a claim of an
earlier post, linked to it (see extractor/compare/groups.py for when a figure is restated).

Kept in step with the store: `batch` relinks after storing documents, and a store from before the table
is linked when it is opened (Store's migration). Reads the stored records through the connection only.
"""
from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Mapping, Sequence

from extractor.compare.groups import find_restatements
from extractor.compare.model import ClaimRef
from extractor.compare.rules import load_compare_rules
from extractor.records import DocumentRecord


def stored_refs(conn: sqlite3.Connection, stating: Sequence[str] = (),
                held: Mapping[str, DocumentRecord] | None = None) -> list[ClaimRef]:
    """Every claim of the stored (extracted) documents, by path and position; with `stating` (condition names),
    only the documents of which a claim states all of them (read from the `conditions` table: the other
    records are not read back). `held`: records this process holds already, by stored path (those a batch has
    just stored): taken as they are rather than read back and validated from their JSON."""
    out: list[ClaimRef] = []
    keep = _stating(conn, stating) if stating else None
    held = held or {}
    paths = [path for path, in conn.execute("SELECT path FROM documents WHERE status='ok' ORDER BY path")]
    for path in paths:
        if keep is not None and path not in keep:
            continue
        record = held.get(path)
        if record is None:
            js, = conn.execute("SELECT record_json FROM documents WHERE path=?", (path,)).fetchone()
            record = DocumentRecord.model_validate_json(js)
        out += [ClaimRef.of(record, i, path=path) for i in range(len(record.claims))]
    return out


def can_restate(record: DocumentRecord, stating: Sequence[str]) -> bool:
    """Whether a claim of the record states every condition of `stating` (what `_stating` finds in the store)."""
    return any(all((c := claim.conditions.get(name)) is not None and c.status == "stated" for name in stating)
               for claim in record.claims)


class HeldRecords(dict):
    """The records a batch stores that relinking will read (`can_restate` by the compare rules' `must_state`), by
    stored path: handed to `relink` as `held`. The compare rules are read on the first record offered."""

    def __init__(self, rules_dir: str | Path | None = None):
        super().__init__()
        self.rules_dir = rules_dir
        self._stating: Sequence[str] | None = None

    def offer(self, path: str, record: DocumentRecord) -> None:
        if self._stating is None:
            self._stating = load_compare_rules(self.rules_dir).restatement.must_state
        if can_restate(record, self._stating):
            self[path] = record


def _stating(conn: sqlite3.Connection, names: Sequence[str]) -> set[str]:
    """The paths of the documents with a claim whose conditions `names` are all stated."""
    wanted = sorted(set(names))
    rows = conn.execute("SELECT path FROM conditions WHERE status='stated' "
                        f"AND name IN ({','.join('?' * len(wanted))}) "
                        "GROUP BY path, ord HAVING COUNT(DISTINCT name)=?", (*wanted, len(wanted)))
    return {path for path, in rows}


def relink(conn: sqlite3.Connection, rules_dir: str | Path | None = None,
           held: Mapping[str, DocumentRecord] | None = None) -> int:
    """Recompute the `restatements` table from every stored claim, in one transaction; the number of links.
    Only a claim stating every condition of `restatement.must_state` can restate (compare/groups.py): the
    records of the documents without one are not read back, nor those `held` (`stored_refs`)."""
    rules = load_compare_rules(rules_dir)
    links = find_restatements(stored_refs(conn, rules.restatement.must_state, held), rules=rules)
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
