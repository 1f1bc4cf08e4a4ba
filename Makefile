# Every target sets itself up on a new machine: a virtual environment in .venv,
# the package with the extras the target needs.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
SUM := $(shell cksum < pyproject.toml | cut -d' ' -f1)
STAMP := $(VENV)/.installed-all-$(SUM)

.PHONY: test play serve bench bench-bots bench-envs load lint typecheck browser postgres clean mutate

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e ".[dev,tui,web,arena,rl,postgres]"
	touch $(STAMP)

# play and serve install only what they need, so a new player waits less.
$(VENV)/.installed-%-$(SUM): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e ".[$*]"
	touch $@

# Debian's Chromium for the browser tests: installed, or `make test` fails (opt out on
# purpose with DURAK_NO_BROWSER=1).
browser:
	@sh scripts/ensure-browser.sh

# Debian's PostgreSQL for the server's store tests, which start a throwaway one of their
# own; `make test` fails without it unless DURAK_SKIP_POSTGRES=1.
postgres:
	@sh scripts/ensure-postgres.sh

test: $(STAMP) browser postgres
	$(BIN)/ruff check src tests
	$(BIN)/mypy
	$(BIN)/python -m pytest

play: $(VENV)/.installed-tui-$(SUM)
	$(BIN)/durak play

serve: $(VENV)/.installed-web-$(SUM)
	$(BIN)/durak serve

bench: $(STAMP)
	$(BIN)/durak bench

# The bot benchmarks (about an hour of CPU) and the web table under load.
bench-bots: $(STAMP)
	sh benchmarks/bots/run.sh

# The learning environments' steps/s beside the raw engine's (benchmarks/envs/README.md).
bench-envs: $(STAMP)
	$(BIN)/python benchmarks/envs/run.py

load: $(STAMP)
	$(BIN)/python benchmarks/load/run.py --tables 200 --seconds 60

# Mutation testing of the rules engine (game, rules, actions, match) against its fast
# tests; not part of `make test` (tens of minutes on two cores). See docs/conformance.md.
mutate: $(STAMP) $(VENV)/.installed-mutate-$(SUM)
	rm -rf mutants
	nice -n 10 $(BIN)/mutmut run --max-children 2
	$(BIN)/python scripts/mutation_report.py

lint: $(STAMP)
	$(BIN)/ruff check src tests

typecheck: $(STAMP)
	$(BIN)/mypy

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info
