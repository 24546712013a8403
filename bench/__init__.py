"""Benchmarks (``make bench``): how many runs and how much time the empirical tests need."""
