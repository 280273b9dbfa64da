"""Evaluation against hand-made gold: is the extraction right? (`benchclaims eval`; format in GOLD.md)."""
