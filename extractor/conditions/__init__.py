"""Conditions: the load conditions of each claim (mention finder, canonical names, scope ladder, where-notes)."""
