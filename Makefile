# Every target sets itself up on a new machine: a virtual environment in .venv,
# the package with the extras the target needs.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
SUM := $(shell cksum < pyproject.toml | cut -d' ' -f1)
STAMP := $(VENV)/.installed-all-$(SUM)
# The compiled engine (setup.py, mypyc): rebuilt only when its sources change. The
# installs below skip it (DURAK_PURE=1) and drop this stamp, so it is built once, here.
ENGINE_MODULES := $(shell sed -n 's/^ENGINE: Final = (\(.*\)).*/\1/p' src/durak/build.py | tr -d '",')
ENGINE := $(VENV)/.engine-built
ENGINE_SRC := setup.py src/durak/build.py src/durak/envs/_arrays.c $(patsubst %,src/durak/%.py,$(subst .,/,$(ENGINE_MODULES)))

.PHONY: test play serve bench bench-bots bench-envs load lint typecheck browser postgres clean engine mutate

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	DURAK_PURE=1 $(BIN)/python -m pip install -q -e ".[dev,tui,web,arena,rl,postgres,dist]"
	rm -f $(ENGINE)
	touch $(STAMP)

# play and serve install only what they need, so a new player waits less.
$(VENV)/.installed-%-$(SUM): pyproject.toml | $(BIN)/python
	DURAK_PURE=1 $(BIN)/python -m pip install -q -e ".[$*]"
	rm -f $(ENGINE)
	touch $@

# Compiles the engine in place (a minute or two; pure Python if there is no C compiler).
$(ENGINE): $(ENGINE_SRC) | $(BIN)/python
	$(BIN)/python -m pip install -q --no-deps -e .
	@$(BIN)/python -c "from durak import build; print('durak engine:', build.engine_name())"
	touch $@

engine: $(ENGINE)

# Debian's Chromium for the browser tests: installed, or `make test` fails (opt out on
# purpose with DURAK_NO_BROWSER=1).
browser:
	@sh scripts/ensure-browser.sh

# Debian's PostgreSQL for the server's store tests, which start a throwaway one of their
# own; `make test` fails without it unless DURAK_SKIP_POSTGRES=1.
postgres:
	@sh scripts/ensure-postgres.sh

test: $(STAMP) $(ENGINE) browser postgres
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests benchmarks examples scripts
	$(BIN)/mypy
	$(BIN)/python -m pytest
	# The engine's rules cases, invariants and examples once more on its pure-Python modules.
	DURAK_PURE=1 $(BIN)/python -m pytest -q tests/test_conformance.py tests/test_invariants.py \
		$(patsubst %,src/durak/%.py,$(subst .,/,$(ENGINE_MODULES)))

play: $(VENV)/.installed-tui-$(SUM) $(ENGINE)
	$(BIN)/durak play

serve: $(VENV)/.installed-web-$(SUM) $(ENGINE)
	$(BIN)/durak serve

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
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests benchmarks examples scripts

typecheck: $(STAMP)
	$(BIN)/mypy

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info
	find src \( -name "*.so" -o -name "*.pyd" \) -delete
