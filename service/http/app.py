"""The Flask app: ``create_app(config)`` builds it, registers the blueprints and the error handlers.

Every response is JSON (UTF-8) except the page and the API docs; every error has the shape
``{"error": {"code": str, "message": str}}``. No client input reaches a 500 or an HTML page.
"""

from __future__ import annotations

import logging
from typing import Any, cast

from flask import Flask, request
from flask.json.provider import DefaultJSONProvider
from werkzeug.exceptions import HTTPException

from indexer.errors import RulingsError
from service.asklog import AskLog
from service.discord.interactions import interactions
from service.http import limits as polite
from service.http import metrics
from service.http.context import MAX_BODY, error_response, get_engine
from service.http.docs import docs
from service.http.routes import api
from service.http.votes import votes
from service.settings import OFF, Settings
from service.web.page import web

log = logging.getLogger(__name__)


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app. Config keys: ARCHIVE_DIR, INDEX_DIR, MODEL, REBUILD_INDEX, EAGER_LOAD,
    ASK_LOG (RULINGS_LOG's value: a path, a URL or "off") and SETTINGS (a
    ``service.settings.Settings`` instead of the environment's)."""
    # A bad environment value is one SettingsError line, at start.
    settings = (test_config or {}).get("SETTINGS") or Settings.load()
    app = Flask(__name__)
    app.config.from_mapping(
        ARCHIVE_DIR=str(settings.archive_dir),
        INDEX_DIR=str(settings.index_dir),
        MODEL=settings.model,
        REBUILD_INDEX=False,
        EAGER_LOAD=False,
        MAX_CONTENT_LENGTH=MAX_BODY,
        PUBLIC_BASE_URL=settings.public_url,
        DISCORD_PUBLIC_KEY=settings.discord_public_key,
        ASK_LOG=settings.ask_log,
    )
    if test_config:
        app.config.update(test_config)
    if str(app.config["ASK_LOG"]).lower() != OFF:
        app.extensions["rulings_ask_log"] = AskLog(
            str(app.config["ASK_LOG"]),
            days=settings.ask_log_days,
            key=settings.secret("ask_log_key"),
            on_failure=metrics.count_log_failure,
        )
    metrics.install(app)  # first: it times everything after it, refusals included
    polite.install_cors(app, settings)
    polite.install_rate_limit(app, settings)
    json_provider = cast(DefaultJSONProvider, app.json)  # Flask's own: the app sets no other
    json_provider.ensure_ascii = False
    json_provider.sort_keys = False
    app.register_blueprint(api)
    app.register_blueprint(votes)
    app.register_blueprint(docs)
    app.register_blueprint(web)
    app.register_blueprint(interactions)  # Discord over HTTP (a 404 without its key)
    _register_errors(app)
    if app.config["EAGER_LOAD"]:
        with app.app_context():
            _ = get_engine().searcher  # load the model and index now: a bad index fails at start
    return app


HTTP_CODES = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    415: "unsupported_media_type",
}


def _register_errors(app: Flask) -> None:
    @app.errorhandler(RulingsError)
    def _domain(exc: RulingsError):
        # Every domain error carries its own status and code: no list of classes here.
        if exc.status >= 500:
            log.error("%s on %s %s: %s", exc.code, request.method, request.path, exc.message)
        return error_response(exc.status, exc.code, exc.message)

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException):
        messages = {
            404: f"no such route: {request.path}",
            405: f"method {request.method} is not allowed on {request.path}",
            413: f"request body is over {MAX_BODY // 1024} KiB",
        }
        status = exc.code or 500
        message = messages.get(status) or (exc.description or exc.name)
        response = error_response(
            status, HTTP_CODES.get(status, exc.name.lower().replace(" ", "_")), message
        )
        # A 405 names the methods the route allows (RFC 9110), as werkzeug's own page does.
        for name, value in exc.get_headers():
            if name.lower() == "allow":
                response.headers["Allow"] = value
        return response

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):
        log.exception("unhandled error on %s %s", request.method, request.path)
        return error_response(500, "internal_error", "internal error; it has been logged")
