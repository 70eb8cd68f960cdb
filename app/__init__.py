"""Fray: a rules-aware virtual tabletop."""
