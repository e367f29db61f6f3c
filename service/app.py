"""The Flask app: ``create_app(config)`` builds it; the engine is reached through ``get_engine()``.

Every response is JSON (UTF-8) except the page and the API docs; every error has the shape
``{"error": {"code": str, "message": str}}``. No client input reaches a 500 or an HTML page.
"""
from __future__ import annotations

import json
import logging
import threading
import weakref
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from flask import Blueprint, Flask, current_app, jsonify, request
from werkzeug.exceptions import HTTPException

from checker import run_check
from indexer.errors import RulingsError
from indexer.text import fold
from service import api_models as m
from service import metrics, polite
from service.engine import Engine, Settings as EngineSettings
from service.metrics import observe_ask
from service.settings import Settings

log = logging.getLogger(__name__)

MAX_BODY = 64 * 1024
api = Blueprint("api", __name__)
_engine_lock = threading.Lock()


class ApiError(RulingsError):
    """An error about the HTTP request itself (no query, body not JSON, too large)."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message, status=status, code=code)


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app. Config keys: ARCHIVE_DIR, INDEX_DIR, MODEL, REBUILD_INDEX, EAGER_LOAD, and
    SETTINGS (a ``service.settings.Settings`` instead of the environment's)."""
    # A bad environment value is one SettingsError line, at start.
    settings = (test_config or {}).get("SETTINGS") or Settings.load()
    app = Flask(__name__)
    app.config.from_mapping(ARCHIVE_DIR=str(settings.archive_dir), INDEX_DIR=str(settings.index_dir),
                            MODEL=settings.model, REBUILD_INDEX=False, EAGER_LOAD=False,
                            MAX_CONTENT_LENGTH=MAX_BODY, PUBLIC_BASE_URL=settings.public_url,
                            DISCORD_PUBLIC_KEY=settings.discord_public_key)
    if test_config:
        app.config.update(test_config)
    metrics.install(app)              # first: it times everything after it, refusals included
    polite.install_cors(app, settings)
    polite.install_rate_limit(app, settings)
    app.json.ensure_ascii = False
    app.json.sort_keys = False
    app.register_blueprint(api)
    from service.docs import docs
    app.register_blueprint(docs)
    try:
        from service.web import web
        app.register_blueprint(web)
    except ImportError:  # the page is optional for API-only deployments
        pass
    from service.interactions import interactions  # Discord over HTTP (off without its key)
    app.register_blueprint(interactions)
    _register_errors(app)
    if app.config["EAGER_LOAD"]:
        with app.app_context():
            get_engine().searcher  # load the model and index now: a bad index fails at start
    return app


def get_engine() -> Engine:
    """The app's engine, loaded on first use (thread-safe) and kept for the process."""
    app = current_app._get_current_object()
    engine = app.extensions.get("rulings_engine")
    if engine is None:
        with _engine_lock:
            engine = app.extensions.get("rulings_engine")
            if engine is None:
                cfg = app.config
                settings = EngineSettings(
                    **{k: v for k, v in {
                        "archive_dir": Path(cfg["ARCHIVE_DIR"]) if cfg["ARCHIVE_DIR"] else None,
                        "index_dir": Path(cfg["INDEX_DIR"]) if cfg["INDEX_DIR"] else None,
                        "model": cfg["MODEL"]}.items() if v is not None},
                    rebuild=bool(cfg["REBUILD_INDEX"]))
                engine = Engine(settings)
                app.extensions["rulings_engine"] = engine
    return engine


def error_response(status: int, code: str, message: str):
    response = jsonify({"error": {"code": code, "message": message}})
    response.status_code = status
    return response


HTTP_CODES = {400: "bad_request", 404: "not_found", 405: "method_not_allowed",
              413: "payload_too_large", 415: "unsupported_media_type"}


def _register_errors(app: Flask) -> None:
    @app.errorhandler(RulingsError)
    def _domain(exc: RulingsError):
        # Every domain error carries its own status and code: no list of classes here.
        if exc.status >= 500:
            log.error("%s on %s %s: %s", exc.code, request.method, request.path, exc.message)
        return error_response(exc.status, exc.code, exc.message)

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException):
        messages = {404: f"no such route: {request.path}",
                    405: f"method {request.method} is not allowed on {request.path}",
                    413: f"request body is over {MAX_BODY // 1024} KiB"}
        status = exc.code or 500
        message = messages.get(status) or (exc.description or exc.name)
        response = error_response(status, HTTP_CODES.get(status, exc.name.lower().replace(" ", "_")),
                                  message)
        # A 405 names the methods the route allows (RFC 9110), as werkzeug's own page does.
        for name, value in exc.get_headers():
            if name.lower() == "allow":
                response.headers["Allow"] = value
        return response

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):
        log.exception("unhandled error on %s %s", request.method, request.path)
        return error_response(500, "internal_error", "internal error; it has been logged")


# -- request helpers ----------------------------------------------------------------------
def json_body() -> dict[str, Any]:
    """The POST body as a JSON object, or a 413 / 415 / 400 / 422 error."""
    if request.content_length is not None and request.content_length > MAX_BODY:
        raise ApiError(413, "payload_too_large", f"request body is over {MAX_BODY // 1024} KiB")
    if not request.is_json:
        raise ApiError(415, "unsupported_media_type", "the request body must be JSON "
                       "(Content-Type: application/json)")
    raw = request.get_data(cache=True)
    if len(raw) > MAX_BODY:
        raise ApiError(413, "payload_too_large", f"request body is over {MAX_BODY // 1024} KiB")
    try:
        body = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise ApiError(400, "bad_request", f"the request body is not valid JSON: {exc}".splitlines()[0]) from None
    if not isinstance(body, dict):
        raise ApiError(422, "invalid_request", "the request body must be a JSON object")
    return body


def query_args(*, keep_empty: tuple[str, ...] = ()) -> dict[str, str]:
    """The query string as a dict; an empty value means "not given" except for `keep_empty`."""
    return {k: v for k, v in request.args.items() if v != "" or k in keep_empty}


# -- routes -------------------------------------------------------------------------------
@api.get("/v1/ask")
def ask_get():
    if request.args.get("q") is None:
        raise ApiError(400, "bad_request", "missing query parameter 'q' (the question)")
    ask = m.validated(m.AskQuery, query_args(keep_empty=("q", "k")))
    return jsonify(m.shaped(m.AskResponse, observe_ask(get_engine().ask(
        ask.question, game=ask.game, lang=ask.lang, k=ask.k))))


@api.post("/v1/ask")
def ask_post():
    ask = m.validated(m.AskBody, json_body())
    return jsonify(m.shaped(m.AskResponse, observe_ask(get_engine().ask(
        ask.question, game=ask.game, lang=ask.lang, k=ask.k))))


@api.get("/v1/rulings/<path:record_id>")
def ruling(record_id: str):
    query = m.validated(m.LangQuery, query_args())
    return jsonify(m.shaped(m.RulingOut, get_engine().ruling(record_id, query.lang or None)))


@api.get("/v1/rulings")
def rulings():
    query = m.validated(m.RulingsQuery, query_args(keep_empty=("card", "limit")))
    return jsonify(m.shaped(m.RulingList, get_engine().find(
        card=query.card, game=query.game, kind=query.kind, lang=query.lang or None,
        limit=query.limit)))


@api.get("/v1/cards")
def cards():
    """Card, item, monster and class names the archive knows; with `q`, the best matches."""
    query = m.validated(m.CardsQuery, query_args())
    return jsonify(m.shaped(m.CardList, {"cards": suggest_cards(get_engine(), query.q)}))


@api.get("/v1/games")
def games():
    return jsonify(m.shaped(m.GameList, get_engine().games()))


@api.get("/healthz")
def healthz():
    return jsonify(m.shaped(m.HealthOut, get_engine().health()))


@api.post("/v1/check/<name>")
def check(name: str):
    return jsonify(run_check(name, json_body()))


_NAME_LOOKUPS: "weakref.WeakKeyDictionary[Engine, Any]" = weakref.WeakKeyDictionary()


def suggest_cards(engine: Engine, typed: str | None, limit: int = m.MAX_SUGGESTIONS) -> list[str]:
    """Every card name (sorted) for no text; else the best `limit` names for what was typed:
    ranked by the matcher of /v1/rulings?card= (``CardLookup.query``, run over the names
    themselves), then the names a word of which starts with the text (a name half typed)."""
    if not typed or not typed.strip():
        return engine.card_names()
    lookup = _NAME_LOOKUPS.get(engine)
    if lookup is None:  # one matcher whose "records" are the card names, built once per engine
        from indexer.cards import CardLookup
        names: dict[str, Any] = {}
        for rec in engine.archive.records.values():
            for card in rec.cards:  # the card as the archive names it, and its label ("Item 225")
                entry = names.setdefault(card.label, SimpleNamespace(id=card.label, cards=[]))
                entry.cards += [card, SimpleNamespace(name=card.label, of=None, label=card.label)]
        lookup = _NAME_LOOKUPS[engine] = CardLookup(SimpleNamespace(records=names))
    scores = lookup.query(typed)
    ranked = sorted(scores, key=lambda name: (-scores[name], name))
    folded = fold(typed).strip()
    if not any(ch.isalnum() for ch in folded):
        return ranked[:limit]
    started = [n for n in engine.card_names() if n not in scores
               and any(w.startswith(folded) for w in [fold(n), *fold(n).split()])]
    return (ranked + started)[:limit]
