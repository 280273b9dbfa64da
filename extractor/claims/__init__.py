"""Claims: which quantities state performance, with metric, tokens, per and baseline (sentences, tables, headlines)."""
