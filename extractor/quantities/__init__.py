"""Quantities: numbers with their units and spans (finder, number grammar, pint units, spaCy component)."""
