"""``GET /metrics``: the service in Prometheus text format (prometheus_client).

Requests by route (the URL rule, ``/v1/rulings/<path:record_id>``, never the raw path, so one
series per route) and status; latency histograms by route; asks answered vs declined; computed
answers by check; the index in use (passages, records, build time).

Under gunicorn each worker is a process with its own counters. ``rulings serve`` points
prometheus_client's multiprocess mode at a fresh folder (``PROMETHEUS_MULTIPROC_DIR``) before
anything imports prometheus_client, so every worker writes its counts there and any worker's
``/metrics`` reports the sum over all of them. Run gunicorn yourself without that variable and
each worker reports only its own requests. The index gauges are read at scrape time from the
answering worker's engine (every worker switches to a rebuilt index within seconds).
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
import time
from calendar import timegm
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, Response, current_app, g, request

log = logging.getLogger(__name__)

ENV = "PROMETHEUS_MULTIPROC_DIR"
# The WSGI environ key of requests the service makes of itself (the warm-up before the fork):
# not traffic, so not counted.
INTERNAL = "rulings.internal"
# Latency buckets (seconds): a cached question answers in a few ms, a first one in tens of ms,
# a 2-core machine under load in hundreds.
BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

metrics = Blueprint("metrics", __name__)


def prepare_multiprocess(settings_dir: Path | None) -> Path:
    """Before prometheus_client is imported: the folder the workers share (the setting's,
    emptied of a previous run's files, or a new temp folder), exported as the variable."""
    if settings_dir is not None:
        folder = Path(settings_dir)
        folder.mkdir(parents=True, exist_ok=True)
        for stale in folder.glob("*.db"):  # counts of a previous run would be added in
            stale.unlink()
    else:
        folder = Path(tempfile.mkdtemp(prefix="rulings-metrics-"))
    os.environ[ENV] = str(folder)
    return folder


def remove_multiprocess(folder: Path, made: bool) -> None:
    """After serving: remove the temp folder `rulings serve` made (a configured one is kept)."""
    if made:
        shutil.rmtree(folder, ignore_errors=True)


def multiprocess_mode() -> bool:
    """Whether prometheus_client chose its multiprocess mode (it does so once, at import)."""
    from prometheus_client import values

    return bool(getattr(values.ValueClass, "_multiprocess", False))


def worker_gone(pid: int) -> None:
    """gunicorn's child_exit hook: a dead worker's live gauges stop counting."""
    if multiprocess_mode():
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(pid)


class _Metrics:
    """The metric objects, made once per process (prometheus_client registers them globally)."""

    def __init__(self) -> None:
        from prometheus_client import Counter, Histogram

        self.requests = Counter(
            "rulings_http_requests",
            "HTTP requests answered, by route and status",
            ["method", "route", "status"],
        )
        self.latency = Histogram(
            "rulings_http_request_duration_seconds",
            "Time to answer an HTTP request, by route",
            ["method", "route"],
            buckets=BUCKETS,
        )
        self.asks = Counter(
            "rulings_asks",
            "Questions asked over HTTP, by outcome (answered, declined)",
            ["outcome"],
        )
        self.computed = Counter(
            "rulings_computed_answers", "Answers the rules checker computed, by check", ["check"]
        )
        self.log_failures = Counter(
            "rulings_ask_log_failures",
            "Question log writes that failed (the asks were answered), by stage "
            "(write, vote, retention; dropped: an entry given up, held too long while the database "
            "was away or refused by it)",
            ["stage"],
        )
        self.feedback = Counter(
            "rulings_feedback", "Votes on answers (POST /v1/feedback), by vote", ["vote"]
        )


_METRICS: _Metrics | None = None


def _metrics() -> _Metrics:
    global _METRICS
    if _METRICS is None:
        _METRICS = _Metrics()
    return _METRICS


def observe_ask(result: dict[str, Any]) -> dict[str, Any]:
    """Count one answered question (answered or declined; its computed check, if any) and
    return it unchanged, so the route reads ``shaped(observe_ask(engine.ask(...)))``."""
    if not request.environ.get(INTERNAL):
        found = _metrics()
        found.asks.labels("declined" if result.get("declined") else "answered").inc()
        check = (result.get("computed") or {}).get("check")
        if check:
            found.computed.labels(str(check)).inc()
    return result


def count_log_failure(stage: str) -> None:
    """One failed write of the question log (called from its writing thread)."""
    _metrics().log_failures.labels(stage).inc()


def observe_feedback(helpful: bool) -> None:
    _metrics().feedback.labels("helpful" if helpful else "unhelpful").inc()


def install(app: Flask) -> None:
    """Time and count every request, and serve ``GET /metrics``."""
    _metrics()
    app.register_blueprint(metrics)

    @app.before_request
    def _started() -> None:
        g.metrics_started = time.perf_counter()

    @app.after_request
    def _count(response: Response) -> Response:
        started = g.pop("metrics_started", None)
        if started is not None and not request.environ.get(INTERNAL):
            # The URL rule, not the path: /v1/rulings/fh-it-1 and /v1/rulings/x are one series,
            # and an unknown path cannot add one.
            route = request.url_rule.rule if request.url_rule is not None else "<unmatched>"
            found = _metrics()
            found.requests.labels(request.method, route, str(response.status_code)).inc()
            found.latency.labels(request.method, route).observe(time.perf_counter() - started)
        return response


class _IndexCollector:
    """The index the answering worker uses, read when scraped (no model is loaded for it)."""

    def collect(self) -> Iterator[Any]:
        from prometheus_client.core import GaugeMetricFamily

        engine = current_app.extensions.get("rulings_engine")
        snapshot = engine.snapshot() if engine is not None else None
        searcher = snapshot.searcher if snapshot is not None else None
        if searcher is None:  # not loaded yet (serving loads it at start): nothing to report
            return
        manifest = searcher.index.manifest
        yield GaugeMetricFamily(
            "rulings_index_passages", "Passages in the index in use", value=manifest["passages"]
        )
        yield GaugeMetricFamily(
            "rulings_index_records",
            "Rulings in the index in use",
            value=manifest.get("records", len(searcher.archive)),
        )
        built = _timestamp(manifest.get("built_at"))
        if built is not None:
            yield GaugeMetricFamily(
                "rulings_index_built_timestamp_seconds",
                "When the index in use was built (Unix time)",
                value=built,
            )


def _timestamp(text: str | None) -> float | None:
    """The manifest's ``built_at`` (``2026-12-01T10:49:10Z``) as Unix time."""
    try:
        return float(timegm(time.strptime(str(text), "%Y-%m-%dT%H:%M:%SZ")))
    except ValueError:
        return None


@metrics.get("/metrics")
def scrape():
    """Prometheus text format: every worker's counts (multiprocess mode) and the index."""
    from prometheus_client import REGISTRY, CollectorRegistry, generate_latest
    from prometheus_client.exposition import CONTENT_TYPE_LATEST

    if multiprocess_mode():
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    else:  # one process (tests, --dev): its own registry
        registry = CollectorRegistry()
        registry.register(_Forward(REGISTRY))
    registry.register(_IndexCollector())
    return Response(generate_latest(registry), mimetype=None, content_type=CONTENT_TYPE_LATEST)


class _Forward:
    """The process's default registry as one collector of a scrape's own registry."""

    def __init__(self, registry: Any) -> None:
        self._registry = registry

    def collect(self) -> Iterator[Any]:
        return iter(self._registry.collect())
