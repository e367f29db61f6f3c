"""What every HTTP handler shares, flaskr-style: the engine through one accessor (``get_engine``),
the request's JSON body and query, and the error response shape ``{"error": {"code", "message"}}``.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from flask import current_app, jsonify, request

from indexer.errors import RulingsError
from service.asklog import AskLog
from service.engine import Engine, EngineConfig

if TYPE_CHECKING:
    from flask import Flask
    from werkzeug.local import LocalProxy

MAX_BODY = 64 * 1024
_engine_lock = threading.Lock()


class HttpError(RulingsError):
    """An error about the HTTP request itself (no query, body not JSON, too large)."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message, status=status, code=code)


def get_engine() -> Engine:
    """The app's engine, loaded on first use (thread-safe) and kept for the process."""
    # current_app is a proxy (flask types it as the app): the app behind it, kept by reference.
    app = cast("LocalProxy[Flask]", current_app)._get_current_object()
    engine = app.extensions.get("rulings_engine")
    if engine is None:
        with _engine_lock:
            engine = app.extensions.get("rulings_engine")
            if engine is None:
                cfg = app.config
                settings = EngineConfig(
                    **{
                        k: v
                        for k, v in {
                            "archive_dir": Path(cfg["ARCHIVE_DIR"]) if cfg["ARCHIVE_DIR"] else None,
                            "index_dir": Path(cfg["INDEX_DIR"]) if cfg["INDEX_DIR"] else None,
                            "model": cfg["MODEL"],
                        }.items()
                        if v is not None
                    },
                    rebuild=bool(cfg["REBUILD_INDEX"]),
                )
                engine = Engine(settings)
                app.extensions["rulings_engine"] = engine
    return engine


def get_ask_log() -> AskLog | None:
    """The app's question log (None when RULINGS_LOG=off)."""
    app = cast("LocalProxy[Flask]", current_app)._get_current_object()
    return app.extensions.get("rulings_ask_log")


def error_response(status: int, code: str, message: str):
    response = jsonify({"error": {"code": code, "message": message}})
    response.status_code = status
    return response


# -- request helpers ----------------------------------------------------------------------
def json_body() -> dict[str, Any]:
    """The POST body as a JSON object, or a 413 / 415 / 400 / 422 error."""
    if request.content_length is not None and request.content_length > MAX_BODY:
        raise HttpError(413, "payload_too_large", f"request body is over {MAX_BODY // 1024} KiB")
    if not request.is_json:
        raise HttpError(
            415,
            "unsupported_media_type",
            "the request body must be JSON (Content-Type: application/json)",
        )
    raw = request.get_data(cache=True)
    if len(raw) > MAX_BODY:
        raise HttpError(413, "payload_too_large", f"request body is over {MAX_BODY // 1024} KiB")
    try:
        body = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise HttpError(
            400, "bad_request", f"the request body is not valid JSON: {exc}".splitlines()[0]
        ) from None
    if not isinstance(body, dict):
        raise HttpError(422, "invalid_request", "the request body must be a JSON object")
    return body


def query_args(*, keep_empty: tuple[str, ...] = ()) -> dict[str, str]:
    """The query string as a dict; an empty value means "not given" except for `keep_empty`."""
    return {k: v for k, v in request.args.items() if v != "" or k in keep_empty}
