# dpcert: `make check` runs the gate over the catalogue, `make test` runs the test suite.
# Both create the virtual environment in .venv when it is missing.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: check test test-slow audit-corpus bench proofs venv clean outsiders mutate

# Python may keep compiled modules (pytest its rewritten tests) in __pycache__, which git ignores:
# each worker and each checked module's process then starts without compiling them again.
unexport PYTHONDONTWRITEBYTECODE

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

check: $(STAMP)
	$(BIN)/dpcert check --strict --jobs 2

test: $(STAMP)
	bash tests/install-chromium.sh
	$(BIN)/python -m pytest -q -n 2 -m "not slow and not audit_corpus"

# End-to-end runs over the whole catalogue (report shards, HTML in Chromium, --arithmetic ieee,
# proof staleness in a copy of the repository), audits of the real opendp package, long audits
# and commands stopped by time-outs and signals; CI runs them after make test.
test-slow: $(STAMP)
	bash tests/install-chromium.sh
	$(BIN)/python -m pytest -q -n 2 -m "slow and not audit_corpus"

# dpcert audit on the black-box corpus (tests/audit_corpus): about 500 s of CPU, not in CI.
audit-corpus: $(STAMP)
	$(BIN)/python -m pytest -q -n 2 -m audit_corpus

# The outsiders' corpus: no wrong variant passes, >= 90 % refuted and confirmed, right ones pass
# unless README lists them (at most 10 %). CI passes OUTSIDERS_FLAGS to gate on a floor instead.
OUTSIDERS_FLAGS ?=
outsiders: $(STAMP)
	$(BIN)/python -m checker.corpus tests/outsiders --jobs 2 --out tests/outsiders/RESULTS.md $(OUTSIDERS_FLAGS)

# dpcert and StatDP side by side (bench/results.md); the bench extra (pystatdp, numba) has its
# own stamp so that make test and make check do not install it.
BENCH_STAMP := $(VENV)/.installed-bench

$(BENCH_STAMP): $(STAMP) pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	touch $(BENCH_STAMP)

bench: $(BENCH_STAMP)
	$(BIN)/python -m bench

# Mutation testing of the constructors: mutation/results.md, fails on unclassified survivors;
# then the untrusted proof code replaced by an adversary: mutation/untrusted.md, fails if any
# wrong variant passes.
mutate: $(STAMP)
	$(BIN)/python -m mutation --jobs 2
	$(BIN)/python -m mutation.untrusted --jobs 2

# One PDF per proof in proofs_tex/build/, with the checker's current verdicts; installs TeX if missing.
proofs: $(STAMP)
	bash proofs_tex/install-tex.sh
	$(BIN)/dpcert proofs --jobs 2

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis proofs_tex/build proofs_tex/generated
