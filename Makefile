# Every target sets itself up on a new machine: a virtual environment in .venv, the
# package, the libraries the target needs, and the compiled engine (one build for all).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
SUM := $(shell cksum < pyproject.toml | cut -d' ' -f1)
STAMP := $(VENV)/.installed-all-$(SUM)
# The compiled engine (setup.py, mypyc): rebuilt only when its sources change. The
# installs below skip it (DURAK_SKIP_ENGINE=1) and leave it in place: it is built once.
ENGINE_MODULES := $(shell sed -n '/^ENGINE: Final = (/,/)/p' src/durak/build.py | grep -o '"[a-z._]*"' | tr -d '"')
ENGINE := $(VENV)/.engine-built
ENGINE_SRC := setup.py src/durak/build.py src/durak/envs/_arrays.c $(patsubst %,src/durak/%.py,$(subst .,/,$(ENGINE_MODULES)))

.PHONY: test play serve bench bench-bots bench-envs load lint typecheck browser postgres redis clean engine mutate

# Every step says what it does and about how long, and prints a line at least every
# 10 s while it runs (scripts/step.py).
STEP := $(PY) scripts/step.py
EXTRAS = $$($(BIN)/python scripts/extras.py $(1))

# (The pip that comes with Python 3.11 does editable installs: no upgrade, no wait. A
# recent setuptools in the venv builds the package without pip's isolated build
# environment, which would fetch and unpack mypy and numpy first: 30 s more.)
$(BIN)/python:
	@$(STEP) "Creating the virtual environment $(VENV) (about 10 s)" -- $(PY) -m venv $(VENV)

# The package itself, pure Python and editable, without compiling (about 5 s). It
# leaves a compiled engine where it is.
BASE := $(VENV)/.installed-base-$(SUM)
$(BASE): pyproject.toml setup.py | $(BIN)/python
	@$(STEP) "Installing setuptools in it (about 5 s)" -- $(BIN)/python -m pip install "setuptools>=77"
	@DURAK_SKIP_ENGINE=1 $(STEP) "Installing the durak package, uncompiled (about 5 s)" -- \
		$(BIN)/python -m pip install --no-build-isolation --no-deps -e .
	@touch $@

# Everything for make test and the rest; play and serve install only what they need, so
# a new player waits less. Only libraries: the durak package is not built again.
$(STAMP): pyproject.toml $(BASE)
	@$(STEP) "Installing every library for the tests, the bots, the web and learning (3-5 min the first time)" -- \
		$(BIN)/python -m pip install $(call EXTRAS,dev tui web arena rl postgres dist)
	@touch $@

$(VENV)/.installed-%-$(SUM): pyproject.toml $(BASE)
	@$(STEP) "Installing the libraries of the $* extra (about 15-60 s the first time)" -- \
		$(BIN)/python -m pip install $(call EXTRAS,$*)
	@touch $@

# Compiles the engine in place with mypyc (about 2-3 min on 2 cores; pure Python if there is
# no C compiler), once: rebuilt only when its sources change. If `make play` is building
# it in the background, this waits for that build instead of starting another.
$(ENGINE): $(ENGINE_SRC) | $(BASE)
	@PY=$(PY) sh scripts/build-engine.sh $(VENV)

engine: $(ENGINE)

# play and serve start at once: with the engine compiled if it is, else on the pure-Python
# engine (quick enough for people) while the compiled one builds in the background, for
# the next run (log in .venv/engine-build.log).
RUN_NOW = if $(MAKE) -s -q $(ENGINE) 2>/dev/null; then $(BIN)/durak $(1); else \
	echo "==> Starting on the pure-Python engine; the compiled one (about 3 times faster) builds in"; \
	echo "    the background for the next run, about 2-3 min (log: $(VENV)/engine-build.log)"; \
	PY=$(PY) nohup nice -n 10 sh scripts/build-engine.sh $(VENV) > $(VENV)/engine-build.log 2>&1 & \
	DURAK_PURE=1 $(BIN)/durak $(1); fi

# Debian's Chromium for the browser tests: installed, or `make test` fails (opt out on
# purpose with DURAK_NO_BROWSER=1).
browser:
	@$(STEP) "Looking for Debian's Chromium, installing it if missing (1-2 min then)" -- \
		sh scripts/ensure-browser.sh

# Debian's PostgreSQL for the server's store tests, which start a throwaway one of their
# own; `make test` fails without it unless DURAK_SKIP_POSTGRES=1.
postgres:
	@$(STEP) "Looking for Debian's PostgreSQL, installing it if missing (1-2 min then)" -- \
		sh scripts/ensure-postgres.sh

# Debian's Redis for the tests of several server workers, which start a throwaway one of
# their own; `make test` fails without it unless DURAK_SKIP_REDIS=1.
redis:
	@$(STEP) "Looking for Debian's Redis, installing it if missing (about 1 min then)" -- \
		sh scripts/ensure-redis.sh

test: $(STAMP) $(ENGINE) browser postgres redis
	@echo "==> make test 1/5: ruff check (a few seconds)"
	$(BIN)/ruff check src tests benchmarks examples scripts
	@echo "==> make test 2/5: ruff format --check (a few seconds)"
	$(BIN)/ruff format --check src tests benchmarks examples scripts
	@$(STEP) "make test 3/5: mypy --strict (about 1 min the first time, seconds after)" -- $(BIN)/mypy
	@echo "==> make test 4/5: the whole suite (6-9 min on 2 cores; the percentage is on the right)"
	$(BIN)/python -m pytest --durations=15
	@echo "==> make test 5/5: the engine's rules cases once more on its pure-Python modules (about 1 min)"
	DURAK_PURE=1 $(BIN)/python -m pytest -q tests/test_conformance.py tests/test_invariants.py \
		$(patsubst %,src/durak/%.py,$(subst .,/,$(ENGINE_MODULES)))

play: $(VENV)/.installed-tui-$(SUM)
	@$(call RUN_NOW,play)

# make serve PORT=8080 HOST=0.0.0.0
PORT ?= 8000
HOST ?= 127.0.0.1
serve: $(VENV)/.installed-web-$(SUM)
	@$(call RUN_NOW,serve --host $(HOST) --port $(PORT))

bench: $(STAMP) $(ENGINE)
	$(BIN)/durak bench

# The bots' ladder and pool (benchmarks/bots/README.md; about three hours of CPU on one
# core; run files in scratch/bots/, a stopped run continues where it stopped).
bench-bots: $(STAMP) $(ENGINE)
	$(BIN)/python benchmarks/bots/run.py ladder && $(BIN)/python benchmarks/bots/run.py pool

# The learning environments' steps/s beside the raw engine's (benchmarks/envs/README.md).
bench-envs: $(STAMP) $(ENGINE)
	$(BIN)/python benchmarks/envs/run.py

load: $(STAMP) $(ENGINE)
	$(BIN)/python benchmarks/load/run.py --tables 200 --seconds 60

# Mutation testing of the rules engine (game, rules, actions, match) against its fast
# tests; not part of `make test` (about an hour on two shared cores). See docs/conformance.md.
mutate: $(STAMP) $(VENV)/.installed-mutate-$(SUM)
	rm -rf mutants
	# mutants are of the Python sources: the compiled modules must not shadow them
	DURAK_PURE=1 $(BIN)/python scripts/mutation_preload.py > mutants.preload
	# each worker imports the mutated modules (100,000 lines): from bytecode written once,
	# not compiled again per mutant
	PYTHONDONTWRITEBYTECODE= DURAK_PURE=1 nice -n 19 $(BIN)/mutmut run --max-children 2
	$(BIN)/python scripts/mutation_report.py

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks examples scripts
	$(BIN)/ruff format --check src tests benchmarks examples scripts

typecheck: $(STAMP)
	$(BIN)/mypy

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info
	find src \( -name "*.so" -o -name "*.pyd" \) -delete
