"""The claims store's SQLite schema: its version, tables, indexes, and the columns each row fills."""
from __future__ import annotations

import re

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

TABLES = """
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
"""
# The secondary indexes (for `query`, `report`, relinking), after the tables they index.
INDEXES = """
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
SCHEMA = TABLES + INDEXES

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
# Every secondary index by name, in the order the schema creates them (a fresh batch makes them after loading its
# documents: store.py `Store.loading`).
SECONDARY_INDEXES = tuple(re.findall(r"CREATE INDEX IF NOT EXISTS (\w+)", INDEXES + DOCUMENT_INDEXES))
