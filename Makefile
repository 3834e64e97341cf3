# Every target installs what it needs into .venv first, so each works on a fresh clone.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup browser run test bench report clean-cache

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP) browser

# The analysis page's test opens the page in a headless Chromium (tests/test_analyse.py). Where none is
# installed and apt-get runs as root (Debian, Ubuntu, CI), Debian's chromium is installed; elsewhere one line
# says so and that test skips, naming what it looked for.
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	command -v google-chrome >/dev/null 2>&1 || \
	{ [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && \
	  echo "make: installing chromium (apt-get) for the analysis page's browser test" && \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } || \
	echo "make: no Chromium and none installed here: the analysis page's browser test will skip"

# The main job on a default: simulate and referee trinidad deals, then a quick strategy report.
# Each step says what it does; --force: a second `make run` replaces the first one's files in runs/.
run: $(STAMP)
	@mkdir -p runs
	@echo "make run: 1/3 playing 5,000 trinidad deals and writing their game log to runs/trinidad.jsonl"
	@$(BIN)/allfours simulate --rules trinidad --deals 5000 --seed 1 --log runs/trinidad.jsonl --force
	@echo "make run: 2/3 refereeing that log: every play, trick and point checked against the rules"
	@$(BIN)/allfours replay runs/trinidad.jsonl
	@echo "make run: 3/3 a quick strategy report (a couple of minutes) in runs/report-trinidad-quick/"
	@$(BIN)/allfours report --rules trinidad --deals 20000 --seed 1 --out runs/report-trinidad-quick --force
	@echo "make run: done; open runs/report-trinidad-quick/report.html (or REPORT.md)"

test: $(STAMP) browser
	$(BIN)/python -m pytest -q

# Deals per second, then the engine against the plain C reference (scripts/c_reference/;
# needs cc, gcc or clang, else one line says it was skipped), figures also in runs/, and the
# C program against its numba translation (what numba itself reaches); then the open-hand
# solver and the pimc player's card decisions per second.
bench: $(STAMP)
	$(BIN)/allfours bench
	$(BIN)/allfours bench --against-c
	$(BIN)/python scripts/c_port_speed.py --rounds 3
	$(BIN)/python scripts/solver_bench.py --deals 300 --big 0
	$(BIN)/python scripts/pimc_bench.py
	$(BIN)/python scripts/equilibrium_bench.py

# The reference edition under results/ (all presets; about half an hour on 2 cores).
report: $(STAMP)
	$(BIN)/python scripts/reference_edition.py

clean-cache:
	rm -rf $${XDG_CACHE_HOME:-$$HOME/.cache}/allfours
