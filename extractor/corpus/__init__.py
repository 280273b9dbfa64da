"""Corpus: many documents into one store (batch, SQLite store, query, export, Dask)."""
