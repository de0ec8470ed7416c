# Two entry points for a fresh machine; each bootstraps .venv with the pinned dependencies.
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed

# The compiled kernels (envs/core/compiled.py), built ahead of time whenever one of their
# modules changes; where they cannot be built, they run on numba's JIT instead.
KERNELS := envs/_compiled_kernels.json
KERNEL_SOURCES := $(shell grep -rl --include='*.py' -e '@kernel' -e 'KERNEL_MODULES' envs)

.PHONY: run test bench browser
run: $(STAMP) $(KERNELS)
	$(VENV)/bin/python -m training.main

test: $(STAMP) $(KERNELS) browser
	$(VENV)/bin/python -m pytest

# Chromium for the HTML replay's browser tests (tests/training/test_replay_html.py); where it
# cannot be installed (not root, no apt-get) those tests skip and say why.
browser:
	@command -v chromium >/dev/null || command -v chromium-browser >/dev/null || \
	{ if command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ]; then \
	    apt-get install -y -q chromium >/dev/null || { apt-get update -q >/dev/null && apt-get install -y -q chromium >/dev/null; }; \
	  else echo "chromium not installed (needs root and apt-get): the replay browser tests will skip"; fi; } || true

bench: $(STAMP) $(KERNELS)
	$(VENV)/bin/python -m envs.bench

$(KERNELS): $(STAMP) $(KERNEL_SOURCES)
	$(VENV)/bin/python -m envs.core.build_kernels || true

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -e '.[dev]'
	touch $(STAMP)
