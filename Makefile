# Every target installs what it needs into .venv first, so each works on a fresh clone.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup run test bench report clean-cache

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

# The main job on a default: simulate and referee trinidad deals, then a quick strategy report.
run: $(STAMP)
	mkdir -p runs
	$(BIN)/allfours simulate --rules trinidad --deals 5000 --seed 1 --log runs/trinidad.jsonl
	$(BIN)/allfours replay runs/trinidad.jsonl
	$(BIN)/allfours report --rules trinidad --deals 20000 --seed 1 --out runs/report-trinidad-quick

test: $(STAMP)
	$(BIN)/python -m pytest -q

# Deals per second, then the engine against the plain C reference (scripts/c_reference/;
# needs cc, gcc or clang, else one line says it was skipped), figures also in runs/.
bench: $(STAMP)
	$(BIN)/allfours bench
	$(BIN)/allfours bench --against-c

# The reference edition under results/ (all presets; about a quarter of an hour on 2 cores).
report: $(STAMP)
	$(BIN)/python scripts/reference_edition.py

clean-cache:
	rm -rf $${XDG_CACHE_HOME:-$$HOME/.cache}/allfours
