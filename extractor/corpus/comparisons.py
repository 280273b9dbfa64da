"""Comparisons over the claims store: naming a claim (`ID` or `FILE#N`), the claims of a query as
comparable groups, and the restatement links (`restatements` table) kept in step with the store.

    a, b = resolve_ref("claims.db", "3f2a9c"), resolve_ref(None, "post.md#2")
    groups = store_groups("claims.db", ClaimFilter(metric="throughput"))
    relink_restatements(store)           # every later figure linked to the earlier post's (batch does it)
"""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Iterable, Mapping

from extractor.compare.groups import Groups, comparable_groups
from extractor.compare.model import ClaimRef
from extractor.corpus.names import QueryError
from extractor.corpus.restatements import relink, restated
from extractor.corpus.store import Store
from extractor.records import DocumentRecord


class RefError(QueryError):
    """A claim reference that names no claim, or more than one."""


def _refs_of(store: Store, keys: Iterable[tuple[str, int]]) -> list[ClaimRef]:
    """ClaimRefs of (path, ord) pairs, read from the stored records (each document parsed once)."""
    wanted: dict[str, list[int]] = defaultdict(list)
    order = list(keys)
    for path, ord_ in order:
        wanted[path].append(ord_)
    refs: dict[tuple[str, int], ClaimRef] = {}
    for path in sorted(wanted):
        row = store.conn.execute("SELECT record_json FROM documents WHERE path=? AND status='ok'",
                                 (path,)).fetchone()
        if row is None:
            continue
        record = DocumentRecord.model_validate_json(row[0])
        for ord_ in wanted[path]:
            if ord_ < len(record.claims):
                refs[(path, ord_)] = ClaimRef.of(record, ord_, path=path)
    return [refs[k] for k in order if k in refs]


def relink_restatements(store: Store, rules_dir: str | Path | None = None,
                        held: Mapping[str, DocumentRecord] | None = None) -> int:
    """Recompute the store's restatement links (see corpus/restatements.py); the number of links. `held`: records
    stored by this process, by path, used as they are (not read back)."""
    return relink(store.conn, rules_dir, held)


def _from_store(db: str | Path, ref: str) -> ClaimRef:
    if not Path(db).exists():
        raise RefError(f"{ref!r} is not FILE#N and {db}: no such database (run `benchclaims batch` first)")
    with Store(db) as store:
        found = store.conn.execute("SELECT path, ord FROM claims WHERE claim_id=? ORDER BY path, ord",
                                   (ref,)).fetchall()
        if not found:
            found = store.conn.execute("SELECT path, ord FROM claims WHERE claim_id LIKE ? ORDER BY path, ord",
                                       (ref.replace("%", "").replace("_", "") + "%",)).fetchall()
        if len(found) != 1:
            where = ", ".join(f"{p}#{o + 1}" for p, o in found[:5])
            raise RefError(f"{ref!r}: {'no claim of that id' if not found else 'more than one claim: ' + where}"
                           f" in {db} (give FILE#N, N as `extract` lists the claims from 1)")
        refs = _refs_of(store, found)
    refs[0].ref = ref
    return refs[0]


def _from_file(ref: str, rules_dir: str | None) -> ClaimRef:
    from extractor.api import extract_path

    file, _, which = ref.rpartition("#")
    if not Path(file).is_file():
        raise RefError(f"{ref!r}: no such file {file!r}")
    record = extract_path(file, rules_dir=rules_dir)
    if which.isdigit():
        n = int(which)
        if not 1 <= n <= len(record.claims):
            raise RefError(f"{ref!r}: {record.doc} has {len(record.claims)} claims (N counts from 1)")
        return ClaimRef.of(record, n - 1, ref=ref, path=file)
    found = [i for i, c in enumerate(record.claims) if c.id.startswith(which)] if which else []
    if len(found) != 1:
        raise RefError(f"{ref!r}: {'no' if not found else 'more than one'} claim {which!r} in {record.doc}")
    return ClaimRef.of(record, found[0], ref=ref, path=file)


def resolve_ref(db: str | Path | None, ref: str, rules_dir: str | None = None) -> ClaimRef:
    """The claim a reference names: `FILE#N` (the N-th claim `extract` lists, from 1; or `FILE#ID`), else a
    claim id (or a unique prefix of one) of the store `db`."""
    if "#" in ref and Path(ref.rpartition("#")[0]).is_file():
        return _from_file(ref, rules_dir)
    if db is None:
        raise RefError(f"{ref!r} is not FILE#N and no --db was given")
    return _from_store(db, ref)


def store_groups(db: str | Path, rows: list[dict], hide_restatements: bool = True) -> Groups:
    """Comparable groups of the claims of a query's rows (`run_query`), restatements left out by default
    (a figure restated in another post is the same measurement, not a second one)."""
    with Store(db) as store:
        ords = {(p, cid): o for p, o, cid in store.conn.execute("SELECT path, ord, claim_id FROM claims")}
        keys = [(r["path"], ords[(r["path"], r["claim_id"])]) for r in rows if (r["path"], r["claim_id"]) in ords]
        if hide_restatements:
            linked = restated(store.conn)
            keys = [k for k in keys if k not in linked]
        refs = _refs_of(store, keys)
    return comparable_groups(refs)
