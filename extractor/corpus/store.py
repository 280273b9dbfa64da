"""The claims store: an embedded SQLite database of documents, claims and conditions.

One document = one transaction: its old rows are deleted and the new ones inserted
together, so a process killed at any moment leaves each document either fully old
or fully new (never half-written, never duplicated). WAL mode lets `query` read
while a batch writes. A batch into a fresh store makes the secondary indexes once its
documents are in (`loading`): one sort each instead of upkeep on every row.

    with Store("claims.db") as store:
        store.put_record(record)                     # DocumentRecord
        store.put_error(error)                       # DocumentError
        store.is_current(path, sha256, ext_version, rules_version)
        with store.loading():                        # many records into a fresh store
            ...
"""
from __future__ import annotations

import sqlite3
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator
from urllib.parse import quote

from extractor.corpus.rows import claim_row, condition_rows, mention_rows
from extractor.corpus.schema import (ADDED_CLAIM_COLUMNS, ADDED_DOCUMENT_COLUMNS, CLAIM_COLUMNS, CONDITION_COLUMNS,
                                     DOCUMENT_COLUMNS, DOCUMENT_INDEXES, INDEXES, MENTION_COLUMNS, SCHEMA,
                                     SCHEMA_VERSION, SECONDARY_INDEXES, SET_ASIDE_COLUMNS)
from extractor.records import Claim, DocumentError, DocumentRecord, SetAside

class StoreError(RuntimeError):
    """The database cannot be used (wrong schema version, not a benchclaims store)."""


class _OlderSchema(StoreError):
    """A store of an older schema version, opened read-only."""


def _readonly_uri(path: Path, immutable: bool) -> str:
    """The SQLite URI that opens `path` read-only (`immutable`: no locks and no -shm file either)."""
    uri = f"file:{quote(str(path.absolute()))}?mode=ro"
    return uri + "&immutable=1" if immutable else uri


class Store:
    """A claims database on disk (created on first use).

    `readonly=True` (query, export, report) never writes: the file is opened with SQLite's `mode=ro`, so a
    read-only file works; in a read-only folder or on a read-only mount, where SQLite cannot make the WAL's
    shared-memory file, it is opened `immutable` (nothing can be writing it there)."""

    def __init__(self, path: str | Path = "claims.db", *, readonly: bool = False):
        self.path = Path(path)
        self.closed = False   # (set by `close`: sqlite3 keeps no such state to read)
        if self.path.is_dir():
            raise StoreError(f"{self.path}: is a folder, not a database file")
        if readonly:
            try:
                self.conn = self._open_readonly()
            except _OlderSchema as older:   # upgraded in place once, as a batch would, where it can be written
                try:
                    Store(self.path).close()
                except StoreError:
                    raise StoreError(str(older)) from None
                self.conn = self._open_readonly()
            if not self._has_indexes():   # a batch stopped while loading (`loading`): made where it can be written
                try:
                    Store(self.path).close()
                except StoreError:
                    return   # (a read-only file: the same rows, read by scans)
                self.conn.close()
                self.conn = self._open_readonly()
            return
        try:
            self.conn = sqlite3.connect(str(self.path), timeout=30, isolation_level=None)
        except sqlite3.Error as err:
            raise StoreError(f"{self.path}: cannot open the database ({err})") from None
        try:
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=NORMAL")
            self.conn.execute("PRAGMA foreign_keys=ON")
            self._init_schema()
        except sqlite3.DatabaseError as err:  # a file that is not SQLite, or not writable
            self.conn.close()
            raise StoreError(f"{self.path}: not a usable benchclaims database ({err})") from None
        except StoreError:
            self.conn.close()
            raise

    def _has_indexes(self) -> bool:
        """Whether every secondary index of the schema is there."""
        names = {row[0] for row in self.conn.execute("SELECT name FROM sqlite_master WHERE type='index'")}
        return names.issuperset(SECONDARY_INDEXES)

    def _open_readonly(self) -> sqlite3.Connection:
        problem: sqlite3.Error | None = None
        for immutable in (False, True):
            try:
                conn = sqlite3.connect(_readonly_uri(self.path, immutable), uri=True, timeout=30,
                                       isolation_level=None)
            except sqlite3.Error as err:
                problem = err
                continue
            try:
                self._check_readonly_schema(conn)
                return conn
            except sqlite3.OperationalError as err:   # cannot make the -shm file: read-only folder or mount
                conn.close()
                problem = err
            except (sqlite3.DatabaseError, StoreError) as err:   # _OlderSchema too
                conn.close()
                if isinstance(err, StoreError):
                    raise
                raise StoreError(f"{self.path}: not a usable benchclaims database ({err})") from None
        raise StoreError(f"{self.path}: cannot open the database read-only ({problem})")

    def _check_readonly_schema(self, conn: sqlite3.Connection) -> None:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if version == 0 or "documents" not in tables:
            raise StoreError(f"{self.path}: not a benchclaims database (no documents table)")
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.path}: schema version {version}, expected at most {SCHEMA_VERSION} "
                             "(written by a newer benchclaims)")
        if version < SCHEMA_VERSION:
            raise _OlderSchema(f"{self.path}: schema version {version} from an older benchclaims; it is upgraded "
                             "when opened for writing (`benchclaims batch`), and this file cannot be written")

    def _init_schema(self) -> None:
        version = self.conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.path}: schema version {version}, expected at most {SCHEMA_VERSION} "
                             "(written by a newer benchclaims)")
        self.conn.executescript(SCHEMA)
        self._migrate()
        self.conn.executescript(DOCUMENT_INDEXES)
        self.conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        if 0 < version < 4:   # a store from before restatement links: link its claims now, in place
            from extractor.corpus.restatements import relink

            relink(self.conn)

    def _migrate(self) -> None:
        """Add the columns a database made by an older version lacks (additive only); its documents
        are marked stale (no extractor version) so the next batch re-extracts them and fills them in.
        A database from before claim mentions gets one mention per claim (its own place) meanwhile."""
        have = {row[1] for row in self.conn.execute("PRAGMA table_info(documents)")}
        missing = [name for name in ADDED_DOCUMENT_COLUMNS if name not in have]
        have_claims = {row[1] for row in self.conn.execute("PRAGMA table_info(claims)")}
        missing_claims = [name for name in ADDED_CLAIM_COLUMNS if name not in have_claims]
        if not missing and not missing_claims:
            return
        cur = self.conn.cursor()
        cur.execute("BEGIN IMMEDIATE")
        try:
            for name in missing:
                cur.execute(f"ALTER TABLE documents ADD COLUMN {name} {ADDED_DOCUMENT_COLUMNS[name]}")
            for name in missing_claims:
                cur.execute(f"ALTER TABLE claims ADD COLUMN {name} {ADDED_CLAIM_COLUMNS[name]}")
            if "n_mentions" in missing_claims:
                cur.execute("INSERT OR IGNORE INTO mentions SELECT path, ord, claim_id, 0, quote, span_start, "
                            "span_end, section, block, NULL, NULL, headline, 1 FROM claims")
            cur.execute("UPDATE documents SET extractor_version = NULL")
            cur.execute("COMMIT")
        except BaseException:
            self._rollback()
            raise

    def _rollback(self) -> None:
        """Undo the open transaction, if any: SQLite has already rolled it back after a full disk or an
        I/O error, and an interrupt can land before BEGIN ran (a ROLLBACK then would only hide the cause)."""
        if self.conn.in_transaction:
            self.conn.execute("ROLLBACK")

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self.conn.close()
        self.closed = True

    @contextmanager
    def loading(self) -> Iterator[None]:
        """Records stored inside this block into a store that holds no document yet do without the secondary
        indexes, made at the end in the schema's order (same rows, same schema). Each document is still one
        transaction. A block left by an exception (Ctrl-C, a full disk) makes no index, so nothing replaces that
        error; a store left without them (so, or by a killed process) gets them from the next `Store` opened on it
        where the file can be written (`_init_schema`: CREATE INDEX IF NOT EXISTS; a read-only open too)."""
        if self.conn.in_transaction:   # (executescript would commit it)
            raise StoreError(f"{self.path}: loading inside an open transaction")
        fresh = self.conn.execute("SELECT 1 FROM documents LIMIT 1").fetchone() is None
        if fresh:
            self.conn.executescript("BEGIN IMMEDIATE;" + "".join(f"DROP INDEX IF EXISTS {name};"
                                                                 for name in SECONDARY_INDEXES) + "COMMIT;")
            # `_replace` writes each document before its rows and deletes its rows itself (no cascade needed):
            # a store that held no document has no parent row to miss, so the per-row key look-ups are skipped
            # (~25 % of the inserts' time); the same rows are written, and every later opening checks keys
            self.conn.execute("PRAGMA foreign_keys=OFF")
        try:
            yield
        finally:
            # (a store closed inside the block, abandoned, has no connection left to restore)
            if fresh and not self.closed:
                self.conn.execute("PRAGMA foreign_keys=ON")   # (a no-op inside an open transaction: none is)
        if fresh:
            if self.conn.in_transaction:   # (every document commits or rolls back its own)
                raise StoreError(f"{self.path}: a transaction left open while loading")
            self.conn.executescript(INDEXES + DOCUMENT_INDEXES)

    # -- incremental -------------------------------------------------------------------------
    def state(self, path: str) -> tuple[str | None, str | None, str | None, str] | None:
        """(sha256, extractor_version, rules_version, status) stored for a path, or None."""
        return self.conn.execute(
            "SELECT sha256, extractor_version, rules_version, status FROM documents WHERE path=?",
            (path,)).fetchone()

    def is_current(self, path: str, sha256: str, extractor_version: str, rules_version: str) -> bool:
        """True when the stored record of `path` was extracted from these bytes with these versions.

        Failed documents are never current: the failure may depend on options (size limit,
        time budget) rather than on the bytes.
        """
        return self.state(path) == (sha256, extractor_version, rules_version, "ok")

    # -- writes ------------------------------------------------------------------------------
    def _replace(self, doc_row: tuple, claims: Iterable[Claim] = (), set_aside: Iterable[SetAside] = ()) -> None:
        path = doc_row[0]
        cur = self.conn.cursor()
        cur.execute("BEGIN IMMEDIATE")
        try:
            cur.execute("DELETE FROM restatements WHERE path=? OR other_path=?", (path, path))
            cur.execute("DELETE FROM set_aside WHERE path=?", (path,))
            cur.execute("DELETE FROM conditions WHERE path=?", (path,))
            cur.execute("DELETE FROM mentions WHERE path=?", (path,))
            cur.execute("DELETE FROM claims WHERE path=?", (path,))
            cur.execute("DELETE FROM documents WHERE path=?", (path,))
            cur.execute(f"INSERT INTO documents ({', '.join(DOCUMENT_COLUMNS)}) "
                        f"VALUES ({','.join('?' * len(DOCUMENT_COLUMNS))})", doc_row)
            crow, drow, mrow = [], [], []
            fields: dict[int, tuple] = {}   # a shared condition's columns, once (rows.condition_rows)
            for i, claim in enumerate(claims):
                crow.append(claim_row(path, i, claim))
                mrow.extend(mention_rows(path, i, claim))
                drow.extend(condition_rows(path, i, claim, fields))
            cur.executemany(f"INSERT INTO claims ({', '.join(CLAIM_COLUMNS)}) "
                            f"VALUES ({','.join('?' * len(CLAIM_COLUMNS))})", crow)
            cur.executemany(f"INSERT INTO mentions VALUES ({','.join('?' * len(MENTION_COLUMNS))})", mrow)
            cur.executemany(
                f"INSERT INTO conditions VALUES ({','.join('?' * len(CONDITION_COLUMNS))})", drow)
            cur.executemany(f"INSERT INTO set_aside ({', '.join(SET_ASIDE_COLUMNS)}) "
                            f"VALUES ({','.join('?' * len(SET_ASIDE_COLUMNS))})",
                            [(path, i, a.quote, a.span[0], a.span[1], a.reason, a.rule) for i, a in enumerate(set_aside)])
            cur.execute("COMMIT")
        except BaseException:
            self._rollback()
            raise

    def put_record(self, record: DocumentRecord, *, path: str | None = None,
                   record_json: str | None = None, source: str | None = None) -> None:
        """Store (or replace) a document's record, claims and conditions in one transaction."""
        key = path or record.path or record.doc
        self._replace((key, record.doc, record.sha256, record.title, record.date, record.authorship,
                       "ok", None, None, record.extractor_version, record.rules_version,
                       len(record.claims), record_json or record.model_dump_json(), source,
                       record.date_source, len(record.set_aside)),
                      record.claims, record.set_aside)

    def put_error(self, error: DocumentError, *, path: str | None = None,
                  extractor_version: str | None = None, rules_version: str | None = None,
                  source: str | None = None) -> None:
        """Record a document that failed (its old claims are removed)."""
        key = path or error.path or error.doc
        self._replace((key, error.doc, error.sha256, None, None, None, "failed", error.error,
                       error.kind, extractor_version, rules_version, 0, error.model_dump_json(),
                       source, None, 0))

    def set_source(self, path: str, source: str | None) -> None:
        """Name the source of a stored document (a skipped document can change source between runs)."""
        self.conn.execute("UPDATE documents SET source=? WHERE path=? AND source IS NOT ?",
                          (source, path, source))

    # -- reads -------------------------------------------------------------------------------
    def record_json(self, paths: Iterable[str] | None = None) -> Iterator[str]:
        """Stored records (`extract` JSON) sorted by path; all, or those of `paths`."""
        if paths is None:
            for (js,) in self.conn.execute("SELECT record_json FROM documents ORDER BY path"):
                yield js
            return
        for p in sorted(set(paths)):
            row = self.conn.execute("SELECT record_json FROM documents WHERE path=?", (p,)).fetchone()
            if row:
                yield row[0]

    def counts(self) -> dict[str, int]:
        """Rows per table."""
        return {t: self.conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                for t in ("documents", "claims", "mentions", "conditions", "set_aside")}
