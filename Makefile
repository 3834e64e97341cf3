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

# The analysis page's test opens the page in a headless Chromium (tests/analysis/play/test_analyse.py). Where
# none is installed and apt-get runs as root (Debian, Ubuntu, CI), Debian's chromium is installed; elsewhere one
# line says so and that test skips, naming what it looked for.
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	command -v google-chrome >/dev/null 2>&1 || \
	{ [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && \
	  echo "make: installing chromium (apt-get) for the analysis page's browser test" && \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } || \
	echo "make: no Chromium and none installed here: the analysis page's browser test will skip"

# A first look at what the tool answers, in about half a minute once the engine is compiled (the very
# first run compiles it first, and says so): a what-if answered in a sentence, one deal played by the
# built-in heuristic player and told trick by trick, then the commands to try next. RUNS: where the deal's
# log goes (a second `make run` replaces it).
RUNS ?= runs
run: $(STAMP)
	@mkdir -p $(RUNS)
	@echo "== 1/2  A what-if. You are the eldest (first to speak) holding A♠ J♠ 4♥ 7♦ 9♣ 10♣; the turn-up is K♠."
	@echo "        Stand or beg? Both are played out on the same sampled deals by the heuristic player:"
	@echo "        allfours whatif --hand \"AS JS 4H 7D 9C TC\" --turnup KS"
	@echo
	@$(BIN)/allfours whatif --hand "AS JS 4H 7D 9C TC" --turnup KS
	@echo
	@echo "== 2/2  One deal of trinidad All Fours, every seat played by the heuristic player (the tool's"
	@echo "        rule-of-thumb computer player, not a person), told trick by trick:"
	@echo "        allfours simulate --deals 1 --policy heuristic --seed 5 --log $(RUNS)/one-deal.jsonl"
	@echo "        allfours replay --show $(RUNS)/one-deal.jsonl"
	@echo
	@$(BIN)/allfours simulate --rules trinidad --deals 1 --policy heuristic --seed 5 --threads 1 \
		--log $(RUNS)/one-deal.jsonl --force >/dev/null
	@$(BIN)/allfours replay --show $(RUNS)/one-deal.jsonl
	@echo
	@echo "== Where next (allfours --help lists every command; the README explains the words)"
	@echo "   your own hand:        allfours whatif --hand \"...\" --turnup ..   (--explain: how to read the numbers)"
	@echo "   when to beg or give:  allfours strategy --deals 20000"
	@echo "   the whole picture:    allfours report --deals 20000 --out $(RUNS)/report   (a few minutes; then open"
	@echo "                         $(RUNS)/report/report.html)"
	@echo "   which card now:       allfours hint --dealer 3 --seat 0 --hand \"...\" --turnup .. --played \"...\""
	@echo "   a deal you played:    allfours record --out FILE (guided entry), then: allfours analyse FILE"
	@echo "   a match to practise:  allfours play   (against the computer, with a coach)"
	@echo "   (allfours is $(BIN)/allfours; or run: source $(BIN)/activate)"

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
