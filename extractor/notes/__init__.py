"""Notes: caveats and authorship of a document record."""
