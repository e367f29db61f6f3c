"""Serving with gunicorn: ``gunicorn service.wsgi:app`` or ``rulings serve``."""
from __future__ import annotations

import os

from flask import Flask


def run_gunicorn(app: Flask, host: str, port: int, workers: int | None = None) -> None:
    """Run `app` under gunicorn in this process (the app is loaded before the workers fork)."""
    from gunicorn.app.base import BaseApplication

    class _Server(BaseApplication):
        def load_config(self):
            self.cfg.set("bind", f"{host}:{port}")
            # Threads, not processes: one copy of the model (~1.3 GB) serves every request;
            # torch releases the GIL while it computes.
            self.cfg.set("workers", workers or int(os.environ.get("WEB_WORKERS", 1)))
            self.cfg.set("threads", int(os.environ.get("WEB_THREADS", 8)))
            self.cfg.set("worker_class", "gthread")
            self.cfg.set("timeout", 60)
            self.cfg.set("accesslog", os.environ.get("ACCESS_LOG", "-") or None)  # "" = no access log

        def load(self):
            return app

    _Server().run()


_app: Flask | None = None


def __getattr__(name: str):
    """`gunicorn service.wsgi:app` builds the app on first access (PEP 562), eagerly loaded so
    that a missing or stale index fails at start-up with its one-line message."""
    global _app
    if name != "app":
        raise AttributeError(name)
    if _app is None:
        from service.app import create_app
        _app = create_app({"EAGER_LOAD": True})
    return _app
