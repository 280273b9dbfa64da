"""Ingestion: Markdown, HTML and plain text into a structured view with offsets into the original."""
