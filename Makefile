# Two entry points for a fresh machine; each bootstraps .venv with the pinned dependencies.
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed

.PHONY: run test bench browser
run: $(STAMP)
	$(VENV)/bin/python -m training.main

test: $(STAMP) browser
	$(VENV)/bin/python -m pytest

# Chromium for the HTML replay's browser tests (tests/training/test_replay_html.py); where it
# cannot be installed (not root, no apt-get) those tests skip and say why.
browser:
	@command -v chromium >/dev/null || command -v chromium-browser >/dev/null || \
	{ if command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ]; then \
	    apt-get install -y -q chromium >/dev/null || { apt-get update -q >/dev/null && apt-get install -y -q chromium >/dev/null; }; \
	  else echo "chromium not installed (needs root and apt-get): the replay browser tests will skip"; fi; } || true

bench: $(STAMP)
	$(VENV)/bin/python -m envs.bench

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -e '.[dev]'
	touch $(STAMP)
