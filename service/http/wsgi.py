"""Serving with gunicorn: ``rulings serve`` (or ``gunicorn --preload service.http.wsgi:app``).

Settings (service.settings): ``WEB_WORKERS`` worker processes (default one per core),
``WEB_THREADS`` threads per worker (default 4). Each worker's ONNX Runtime session uses the
cores left to it (``RULINGS_ORT_THREADS``, default cores // workers; see indexer.embedder).
``rulings serve`` also gives the workers one folder for their /metrics counts (service.metrics);
with ``gunicorn service.http.wsgi:app`` set ``PROMETHEUS_MULTIPROC_DIR`` yourself for that.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import Flask

from service.http.metrics import INTERNAL, prepare_multiprocess, remove_multiprocess, worker_gone
from service.settings import Settings

log = logging.getLogger(__name__)

DEFAULT_THREADS = 4
WARM_UP_QUESTION = "How many cards can I hold in my hand?"
# gunicorn caps the request line at 8190 bytes (larger values are silently lowered to it; only 0,
# "unlimited", goes beyond, and would let one request line fill memory). 8190 carries a
# 5,000-character ASCII question, and any question the API accepts (500 characters, up to 12
# bytes each once percent-encoded), to the app, which answers its own 422 JSON instead of
# gunicorn's 414 HTML page.
LIMIT_REQUEST_LINE = 8190


def web_workers() -> int:
    """Worker processes: ``WEB_WORKERS``, default one per core."""
    return Settings.load().workers


def web_threads() -> int:
    """Threads per worker: ``WEB_THREADS``, default 4 (requests wait on the ONNX session or
    the network with the GIL released, so a few threads keep each core busy)."""
    return Settings.load().web_threads


def exit_worker_now(server, worker) -> None:
    """gunicorn's worker_exit hook: once a worker has stopped serving, end it with os._exit.

    A normal exit runs ONNX Runtime's static destructors, which wait on a condition variable
    whose waiters are threads of the master that a forked worker does not have: every worker
    hung at exit until the master's graceful timeout killed it, and a master stopped sooner
    left it orphaned (docs/decisions.md, "Workers exit with os._exit").
    """
    exc = sys.exc_info()[1]  # the SystemExit carrying the worker's status, as gunicorn exits
    code = (
        exc.code
        if isinstance(exc, SystemExit) and isinstance(exc.code, int)
        else int(exc is not None)
    )
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def child_exited(server, worker) -> None:
    """gunicorn's child_exit hook (in the master): forget a dead worker's live metrics."""
    worker_gone(worker.pid)


def gunicorn_settings(host: str, port: int, workers: int | None = None) -> dict:
    """The gunicorn settings `run_gunicorn` applies."""
    settings = Settings.load()
    return {
        "bind": f"{host}:{port}",
        "workers": workers or settings.workers,
        "threads": settings.web_threads,
        "worker_class": "gthread",
        "timeout": 60,
        "limit_request_line": LIMIT_REQUEST_LINE,
        "accesslog": settings.access_log or None,  # "" = no access log
        "worker_exit": exit_worker_now,
        "child_exit": child_exited,
    }


def warm_up(app: Flask) -> None:
    """Answer one question in this process, so that what loads lazily on first use (the
    language detector's models, the runtime's first buffers) is loaded before the fork, and
    freeze the garbage collector's view of it all: a collection in a worker would otherwise
    write into every object's header and un-share its page."""
    import gc

    # Marked internal: not counted in /metrics, and never rate-limited (it is not a client).
    response = app.test_client().get(
        "/v1/ask", query_string={"q": WARM_UP_QUESTION}, environ_overrides={INTERNAL: True}
    )
    if response.status_code != 200:
        log.warning("warm-up question answered %s", response.status_code)
    gc.collect()
    gc.freeze()
    release_free_memory()


def release_free_memory() -> None:
    """Give the C heap's free pages back to the system (glibc's ``malloc_trim``).

    Loading leaves freed blocks in the heap (the runtime's graph parsing, the language models'
    construction) that every forked worker would map too (docs/decisions.md). Elsewhere than
    glibc this does nothing.
    """
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("c")
    try:
        trim = ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):  # not glibc: no malloc_trim
        trim = None
    if trim is not None:
        trim(0)


def run_gunicorn(app: Flask, host: str, port: int, workers: int | None = None) -> None:
    """Run `app`, already loaded, under gunicorn in this process.

    The app (archive, index, BM25, tokenizer, ONNX session, language models) is loaded once,
    here in the master, and the workers fork from it, sharing its pages copy-on-write: what
    each worker adds is mostly the Python objects a request touches. The shared part is mostly
    the language models, the ONNX session (its word-embedding table is memory-mapped from the
    model folder: only the rows questions use are resident) and the SentencePiece tokenizer
    (docs/decisions.md). One-thread ONNX sessions (the default, one worker per core) survive
    the fork; a session with a thread pool is rebuilt in each worker (indexer.model.embedder).
    """
    from gunicorn.app.base import BaseApplication

    settings = gunicorn_settings(host, port, workers)
    warm_up(app)

    class _Server(BaseApplication):
        def load_config(self):
            for key, value in settings.items():
                self.cfg.set(key, value)

        def load(self):
            return app

    _Server().run()


@contextmanager
def metrics_folder(settings: Settings) -> Iterator[None]:
    """While serving with gunicorn: the folder the workers share their metrics in (made and
    exported before the app imports prometheus_client; a temp folder is removed after)."""
    folder = prepare_multiprocess(settings.metrics_dir)
    try:
        yield
    finally:
        remove_multiprocess(folder, made=settings.metrics_dir is None)


def serve(config: dict[str, Any], host: str, port: int, dev: bool = False) -> None:
    """`rulings serve`: build the app from `config` (loading everything now, so a bad index
    fails here in one line) and serve it: gunicorn, or Flask's development server."""
    from service.http.app import create_app

    settings = Settings.load()
    if dev:
        create_app(config).run(host=host, port=port)
        return
    with metrics_folder(settings):
        run_gunicorn(create_app(config), host, port)


_app: Flask | None = None


def __getattr__(name: str):
    """`gunicorn service.http.wsgi:app` builds the app on first access (PEP 562), eagerly loaded so
    that a missing or stale index fails at start-up with its one-line message."""
    global _app
    if name != "app":
        raise AttributeError(name)
    if _app is None:
        from service.http.app import create_app

        _app = create_app({"EAGER_LOAD": True})
        warm_up(_app)  # with --preload, before the fork; without, once in each worker
    return _app
