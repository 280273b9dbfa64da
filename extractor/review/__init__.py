"""Review: what changed between two extraction runs (alignment, sources, renderers)."""
