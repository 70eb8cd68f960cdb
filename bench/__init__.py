"""Benchmarks: they print figures (one JSON line per scenario); they are not tests."""
