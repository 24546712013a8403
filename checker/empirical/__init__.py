"""Empirical checks of the running code: neighbour pairs for transformations (Hypothesis) and
statistical privacy tests for measurements. Sampling can refute a claim, never prove one."""
