"""The claims store: an embedded SQLite database of documents, claims and conditions.

One document = one transaction: its old rows are deleted and the new ones inserted
together, so a process killed at any moment leaves each document either fully old
or fully new (never half-written, never duplicated). WAL mode lets `query` read
while a batch writes.

    with Store("claims.db") as store:
        store.put_record(record)                     # DocumentRecord
        store.put_error(error)                       # DocumentError
        store.is_current(path, sha256, ext_version, rules_version)
"""
from __future__ import annotations

import json
import sqlite3
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Iterator
from urllib.parse import quote

from extractor.records import Claim, ClaimMention, Condition, DocumentError, DocumentRecord, SetAside

SCHEMA_VERSION = 4   # 2: documents.source, date_source; 3: claim mentions (`mentions`, `claims.n_mentions`);
# 4: claims.direction, statistic, cited_from; documents.n_set_aside; `set_aside` (figures set aside);
#    `restatements` (claims restating another post's figure, corpus/comparisons.py)
# Columns added to `documents` after version 1, with their SQL type. A version-1 database gains them
# when it is opened (ALTER TABLE ADD COLUMN) and its documents are marked stale, so the next batch
# re-extracts them and fills the new fields in; nothing else is touched.
ADDED_DOCUMENT_COLUMNS = {"source": "TEXT", "date_source": "TEXT", "n_set_aside": "INTEGER NOT NULL DEFAULT 0"}
# Columns added to `claims` after version 2: a database without them gets one mention per claim (its
# own place) in the `mentions` table, until the next batch re-extracts the post and merges its
# restated figures.
ADDED_CLAIM_COLUMNS = {"n_mentions": "INTEGER NOT NULL DEFAULT 1", "direction": "TEXT", "statistic": "TEXT",
                       "cited_from": "TEXT"}

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS documents (
    path TEXT PRIMARY KEY,
    doc TEXT NOT NULL,
    sha256 TEXT,
    title TEXT,
    date TEXT,
    authorship TEXT,
    status TEXT NOT NULL,          -- ok | failed
    error TEXT,
    error_kind TEXT,
    extractor_version TEXT,
    rules_version TEXT,
    n_claims INTEGER NOT NULL DEFAULT 0,
    record_json TEXT NOT NULL,     -- the DocumentRecord (or DocumentError) as `extract` prints it
    source TEXT,                   -- the blog, site or folder the post came from (batch --source)
    date_source TEXT,              -- where `date` came from: front_matter, file_name, html_meta...
    n_set_aside INTEGER NOT NULL DEFAULT 0   -- figures with a performance unit set aside (record.set_aside)
);
CREATE TABLE IF NOT EXISTS claims (
    path TEXT NOT NULL REFERENCES documents(path) ON DELETE CASCADE,
    ord INTEGER NOT NULL,          -- position of the claim in the record
    claim_id TEXT NOT NULL,
    metric TEXT NOT NULL,
    value REAL NOT NULL,
    value_max REAL,
    unit TEXT NOT NULL,
    qualifier TEXT NOT NULL,
    tokens TEXT,
    per TEXT,
    baseline TEXT,
    headline INTEGER NOT NULL,
    quote TEXT NOT NULL,
    span_start INTEGER NOT NULL,
    span_end INTEGER NOT NULL,
    section TEXT,                  -- section path joined with ' > '
    block TEXT,
    base_value REAL,               -- value in pint base units (NULL when the unit is unknown)
    base_value_max REAL,
    base_unit TEXT,                -- sorted base-unit signature, e.g. 'gpu^-1 second^-1 token^1'
    model TEXT,                    -- canonical (else stated) model, hardware, engine
    hardware TEXT,
    engine TEXT,
    n_mentions INTEGER NOT NULL DEFAULT 1,   -- places the post states this claim (title, TL;DR, table...)
    direction TEXT,                -- better | worse | neutral (speedup, relative_change)
    statistic TEXT,                -- mean, median, min, max, pNN (as stated)
    cited_from TEXT,               -- who the post credits the figure to (not its own measurement)
    PRIMARY KEY (path, ord)
);
CREATE TABLE IF NOT EXISTS mentions (
    path TEXT NOT NULL,
    ord INTEGER NOT NULL,          -- the claim's position in the record
    claim_id TEXT NOT NULL,
    m_ord INTEGER NOT NULL,        -- position of the mention in the claim (text order)
    quote TEXT NOT NULL,
    span_start INTEGER NOT NULL,
    span_end INTEGER NOT NULL,
    section TEXT,
    block TEXT,
    row_header TEXT,
    column_header TEXT,
    headline INTEGER NOT NULL,
    is_primary INTEGER NOT NULL,   -- the mention whose quote and span the claim carries
    PRIMARY KEY (path, ord, m_ord),
    FOREIGN KEY (path, ord) REFERENCES claims(path, ord) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS conditions (
    path TEXT NOT NULL,
    ord INTEGER NOT NULL,
    claim_id TEXT NOT NULL,
    name TEXT NOT NULL,
    status TEXT NOT NULL,          -- stated | unrecoverable
    value TEXT,                    -- JSON of the stated value
    canonical TEXT,
    quote TEXT,
    span_start INTEGER,
    span_end INTEGER,
    scope TEXT,
    sweep INTEGER,
    count INTEGER,
    value_partial TEXT,
    note TEXT,
    where_note TEXT,
    why TEXT,
    PRIMARY KEY (path, ord, name),
    FOREIGN KEY (path, ord) REFERENCES claims(path, ord) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS restatements (
    path TEXT NOT NULL,            -- the claim that restates (the later post)
    ord INTEGER NOT NULL,
    claim_id TEXT NOT NULL,
    other_path TEXT NOT NULL,      -- the claim whose figure it restates (the earlier post)
    other_ord INTEGER NOT NULL,
    other_claim_id TEXT NOT NULL,
    other_doc TEXT NOT NULL,
    PRIMARY KEY (path, ord)
);
CREATE TABLE IF NOT EXISTS set_aside (
    path TEXT NOT NULL REFERENCES documents(path) ON DELETE CASCADE,
    ord INTEGER NOT NULL,          -- position in the record's set_aside list (text order)
    quote TEXT NOT NULL,
    span_start INTEGER NOT NULL,
    span_end INTEGER NOT NULL,
    reason TEXT NOT NULL,          -- records.SetAsideReason: datasheet, setting, target...
    rule TEXT NOT NULL,            -- the rule that decided it
    PRIMARY KEY (path, ord)
);
CREATE INDEX IF NOT EXISTS set_aside_reason ON set_aside(reason);
CREATE INDEX IF NOT EXISTS documents_status ON documents(status);
CREATE INDEX IF NOT EXISTS claims_metric ON claims(metric, base_unit, base_value);
CREATE INDEX IF NOT EXISTS claims_base ON claims(base_unit, base_value);
CREATE INDEX IF NOT EXISTS claims_model ON claims(model);
CREATE INDEX IF NOT EXISTS claims_hardware ON claims(hardware);
CREATE INDEX IF NOT EXISTS claims_engine ON claims(engine);
CREATE INDEX IF NOT EXISTS conditions_name_status ON conditions(name, status);
CREATE INDEX IF NOT EXISTS conditions_canonical ON conditions(name, canonical);
"""

CLAIM_COLUMNS = ("path", "ord", "claim_id", "metric", "value", "value_max", "unit", "qualifier",
                 "tokens", "per", "baseline", "headline", "quote", "span_start", "span_end",
                 "section", "block", "base_value", "base_value_max", "base_unit",
                 "model", "hardware", "engine", "n_mentions", "direction", "statistic", "cited_from")
MENTION_COLUMNS = ("path", "ord", "claim_id", "m_ord", "quote", "span_start", "span_end", "section", "block",
                   "row_header", "column_header", "headline", "is_primary")
CONDITION_COLUMNS = ("path", "ord", "claim_id", "name", "status", "value", "canonical", "quote",
                     "span_start", "span_end", "scope", "sweep", "count", "value_partial", "note",
                     "where_note", "why")
DOCUMENT_COLUMNS = ("path", "doc", "sha256", "title", "date", "authorship", "status", "error",
                    "error_kind", "extractor_version", "rules_version", "n_claims", "record_json",
                    "source", "date_source", "n_set_aside")
SET_ASIDE_COLUMNS = ("path", "ord", "quote", "span_start", "span_end", "reason", "rule")
DOCUMENT_INDEXES = """
CREATE INDEX IF NOT EXISTS documents_date ON documents(date);
CREATE INDEX IF NOT EXISTS documents_source ON documents(source);
"""

# Denormalised on each claim row for fast filtering: column -> condition names, first stated wins.
KEY_CONDITIONS = {"model": ("model",), "hardware": ("hardware",), "engine": ("engine_version",)}


@lru_cache(maxsize=1024)
def base_factor(unit: str) -> tuple[float, str] | None:
    """(factor to pint base units, base-unit signature) of a unit; None when pint cannot parse it.

    The signature lists base units sorted by name with their exponents, so two units are
    compatible exactly when their signatures are equal (e.g. 'gpu^-1 second^-1 token^1').
    """
    from extractor.quantities.units import parse_unit, registry

    try:
        q = registry().Quantity(1.0, parse_unit(unit)).to_base_units()
    except Exception:  # noqa: BLE001 - unknown or malformed unit: no normalised value
        return None
    sig = " ".join(f"{name}^{exp:g}" for name, exp in sorted(q.unit_items()))
    return float(q.magnitude), sig


def base_quantity(value: float, unit: str) -> tuple[float, str] | None:
    """`value` in `unit` expressed in base units, with the base-unit signature."""
    fb = base_factor(unit)
    return None if fb is None else (value * fb[0], fb[1])


class StoreError(RuntimeError):
    """The database cannot be used (wrong schema version, not a benchclaims store)."""


def _json(value: Any) -> str | None:
    return None if value is None else json.dumps(value, sort_keys=True, ensure_ascii=False)


def _text(cond: Condition | None) -> str | None:
    """The searchable text of a condition: its canonical form, else its stated value."""
    if cond is None or cond.status != "stated":
        return None
    if cond.canonical:
        return cond.canonical
    if isinstance(cond.value, str):
        return cond.value
    return _json(cond.value)


def claim_row(path: str, ord_: int, claim: Claim) -> tuple:
    """The `claims` row of one claim."""
    base = base_quantity(claim.value, claim.unit)
    base_max = base_quantity(claim.value_max, claim.unit) if claim.value_max is not None else None
    keys = {col: next((t for t in (_text(claim.conditions.get(n)) for n in names) if t), None)
            for col, names in KEY_CONDITIONS.items()}
    return (path, ord_, claim.id, claim.metric, claim.value, claim.value_max, claim.unit,
            claim.qualifier, claim.tokens, claim.per, claim.baseline, int(claim.headline),
            claim.quote, claim.span[0], claim.span[1], " > ".join(claim.context.section) or None,
            claim.context.block, base[0] if base else None, base_max[0] if base_max else None,
            base[1] if base else None, keys["model"], keys["hardware"], keys["engine"], len(claim.mentions) or 1,
            claim.direction, claim.statistic, claim.cited_from)


def mention_rows(path: str, ord_: int, claim: Claim) -> list[tuple]:
    """The `mentions` rows of one claim (a record without mentions: the claim's own place)."""
    mentions = claim.mentions or [ClaimMention(quote=claim.quote, span=claim.span, context=claim.context,
                                               headline=claim.headline)]
    return [(path, ord_, claim.id, i, m.quote, m.span[0], m.span[1], " > ".join(m.context.section) or None,
             m.context.block, m.context.row_header, m.context.column_header, int(m.headline),
             int(m.span == claim.span)) for i, m in enumerate(mentions)]


def condition_row(path: str, ord_: int, claim_id: str, name: str, c: Condition) -> tuple:
    """The `conditions` row of one condition of a claim."""
    span = c.span or (None, None)
    return (path, ord_, claim_id, name, c.status, _json(c.value), c.canonical, c.quote,
            span[0], span[1], c.scope, None if c.sweep is None else int(c.sweep), c.count,
            c.value_partial, c.note, c.where, c.why)


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
            for i, claim in enumerate(claims):
                crow.append(claim_row(path, i, claim))
                mrow.extend(mention_rows(path, i, claim))
                drow.extend(condition_row(path, i, claim.id, name, c)
                            for name, c in sorted(claim.conditions.items()))
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
