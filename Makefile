# cuberef: `make demo` and `make test` are all a fresh machine needs.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: attack service-check pi-check demo test test-fast lint browser mosquitto native bench bench-solver bench-best bench-match bench-kill fuzz lexicons model clean install-pi

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "cuberef needs Python 3.11 or newer; set PYTHON=python3.11 (or newer) and run make again.")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

demo: $(STAMP) native
	$(BIN)/cuberef demo

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy engine vision models device
	$(BIN)/lint-imports --no-logo

# The whole suite, one worker a core (pytest-xdist), each test module on one worker (its
# module-scoped fixtures made once), in the order tests/conftest.py puts them. CI runs this.
PYTEST := $(BIN)/python -m pytest -n auto --dist loadfile --no-loadscope-reorder
test: lint browser mosquitto native
	$(PYTEST)

# The edit loop's suite: all but the tests marked slow (CI runs them all: make test).
test-fast: $(STAMP) native
	$(PYTEST) -m "not slow"

# The best-crossword search compiled with mypyc, three to four times faster, where this
# machine has a C compiler and Python's headers (else it says so and the search runs as
# Python). Built again only when its sources have changed since; kept in the venv.
native: $(STAMP)
	$(BIN)/python -m engine.adlib.build_native

# The players' page is tested in Debian's headless chromium: install it where it is missing.
browser:
	@test -x /usr/bin/chromium -a -x /usr/bin/chromedriver || { \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq --no-install-recommends chromium chromium-driver; }

# A club's tables are tested against Debian's mosquitto, run by the tests themselves (the
# package's own service is not needed): install it where it is missing.
mosquitto:
	@test -x /usr/sbin/mosquitto -a -x /usr/bin/mosquitto_passwd || { \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq --no-install-recommends mosquitto; }

bench: $(STAMP)
	$(BIN)/cuberef bench

# The best-crossword benchmark: 50 rolls at 1, 10 and 60 s, 20-40 minutes (not run in CI).
bench-best: $(STAMP)
	$(BIN)/python tests/benchmarks/bench_best.py

# The fuzz suite at issue 22's size: 20,000+ command lines, 1,000 photos, 1,000 configurations.
fuzz: $(STAMP)
	CUBEREF_FUZZ=large nice $(BIN)/python -m pytest tests/test_fuzz.py -q -s -p no:cacheprovider

# The players' page's attack suite at the issue's sizes (issue 32): thousands of guesses,
# 1,100 half-sent requests, 100,000 client addresses; prints each attack's tally.
attack: $(STAMP)
	ulimit -n 4096; CUBEREF_ATTACK=large nice $(BIN)/python -m pytest tests/box/test_page_attacks.py -q -s -p no:cacheprovider

lexicons: $(STAMP)
	$(BIN)/cuberef lexicon build

install-pi:
	sudo systemd/install.sh

# The unit under a real systemd in a container (systemd-nspawn, as root; the installer
# run for real, a few minutes; the root is kept in build/service-check). Not in `make test`.
service-check: $(STAMP)
	@if [ "$$(id -u)" -eq 0 ]; then $(BIN)/python systemd/service_check.py; \
	else sudo $(BIN)/python systemd/service_check.py; fi

# The installer and the box in an emulated Pi 4 (debootstrap + qemu-user-static, as root;
# 20-40 minutes the first time, then the root is kept in build/pi-check). Not in `make test`.
pi-check: $(STAMP)
	@if [ "$$(id -u)" -eq 0 ]; then $(BIN)/python systemd/pi_check.py; \
	else sudo $(BIN)/python systemd/pi_check.py; fi

# The models: render, train on the CPU in chunks of 20 minutes (each its own process, each
# resuming the last one's checkpoint in build/model-data/checkpoints/), evaluate, and replace
# models/cube_faces.onnx, models/cube_tops.onnx and their cards only where no figure of the
# committed card is worse (else the new model stays in build/model-candidate/).
# `make model RESUME=1` goes on from the checkpoints of a run that was stopped or killed.
CHECKPOINTS := build/model-data/checkpoints
model: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,train]'
	$(if $(RESUME),,rm -f $(CHECKPOINTS)/cube_faces.pt $(CHECKPOINTS)/cube_tops.pt)
	@for run in cube_faces:train cube_tops:train_tops; do \
		r=; if [ -f $(CHECKPOINTS)/$${run%%:*}.pt ]; then r=--resume; fi; \
		while nice $(BIN)/python -m models.$${run#*:} $$r; s=$$?; [ $$s -eq 3 ]; do r=--resume; done; \
		[ $$s -eq 0 ] || exit $$s; \
	done

clean:
	rm -rf --one-file-system $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache

# The solver's speed figures beside the PyPI solvers (pip install boggler boggle-solver).
bench-solver: $(STAMP)
	$(BIN)/python tests/benchmarks/bench_solver.py

# 100 cuberef score --match writers at once on one file, twice for each game family (~2 min).
bench-match: $(STAMP)
	nice $(BIN)/python tests/benchmarks/bench_match_file.py

# 200 kill -9 cycles of the headless box, twice: every event it said it saved is kept.
bench-kill: $(STAMP)
	nice $(BIN)/python tests/benchmarks/bench_box_kill.py
