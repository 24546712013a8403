"""Mutation testing of the constructors (``python -m mutation``, ``make mutate``).

Single-point mutations of ``mechanisms/make_*.py`` (:mod:`mutation.operators`) are checked one
by one on an isolated copy of the project (:mod:`mutation.runner`); the mutants the checker does
not reject are compared with the committed table ``mutation/classification.toml``
(:mod:`mutation.classification`), and the figures are written to ``mutation/results.md`` and
``mutation/results.json`` (:mod:`mutation.report`).
"""
