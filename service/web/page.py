"""The page players meet: one HTML page over the /v1 API, plus server-rendered permalinks.

``/`` is a single page (vanilla JS + CSS from ``service/web/static``, no build step) that calls the
JSON API; ``/r/<id>`` renders one ruling on the server, so a permalink works without JS.
Nothing here changes the API: /v1 stays JSON-only, only these page routes answer in HTML.

Both are in the reader's language: ``?ui=``, else the browser's ``Accept-Language``, else
English (``service.i18n``). The templates translate with ``_()``; the page's scripts get their
strings from a JSON catalogue embedded in the page (no inline script: the CSP stays self-only).
"""

from __future__ import annotations

import hashlib
import logging
from functools import lru_cache
from pathlib import Path
from typing import Any, cast
from urllib.parse import urlencode

from flask import Blueprint, Flask, Response, g, render_template, request
from flask.blueprints import BlueprintSetupState

from indexer.archive.schema import KINDS
from indexer.errors import InvalidRequest, NotFound
from service import i18n
from service.http.context import get_engine
from service.presentation import (
    LANGUAGE_NAMES,
    check_games,
    language_name,
    local_labels,
    page_labels,
)

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
web = Blueprint(
    "web", __name__, static_folder="static", static_url_path="/assets", template_folder="templates"
)

#: The game selector's choices when the engine cannot list the games: the checker's games.
FALLBACK_GAMES: list[dict[str, str]] = [{"id": gid, "name": name} for gid, name in check_games()]
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


def kind_class(kind: str) -> str:
    """A CSS-safe class for the kind badge: 'edge case' -> 'kind-edge-case'."""
    return "kind-" + kind.replace(" ", "-") if kind in KINDS else "kind-other"


@lru_cache(maxsize=64)
def _asset_version(name: str) -> str:
    path = STATIC / name
    return hashlib.sha256(path.read_bytes()).hexdigest()[:10] if path.is_file() else "0"


def _games() -> list[dict[str, Any]]:
    """Games for the selector; the two checker games if the engine cannot be reached."""
    try:
        return [{"id": g["id"], "name": g["name"]} for g in get_engine().games()["games"]]
    except Exception:  # the page must render even if the engine failed to load
        log.exception("could not list the games for the page")
        return FALLBACK_GAMES


@web.app_template_global()
def asset(name: str) -> str:
    """URL of a static file, with a content hash so browsers never run a stale script."""
    return f"/assets/{name}?v={_asset_version(name)}"


def ui_language() -> str:
    """The interface language of the current request (English outside one)."""
    return g.get("ui", i18n.SOURCE_LANGUAGE)


@web.record_once
def _install_gettext(state: BlueprintSetupState) -> None:
    app = cast(Flask, state.app)  # the blueprint is registered on Flask apps only
    app.jinja_env.add_extension("jinja2.ext.i18n")
    # Jinja fills the placeholders itself (escaping the values): hand it the raw catalogue.
    current = lambda: i18n.translations(i18n.supported(ui_language()))  # noqa: E731
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda message: current().gettext(message),
        ngettext=lambda s, p, n: current().ngettext(s, p, n),
        pgettext=lambda c, message: current().pgettext(c, message),
        newstyle=True,
    )


@web.before_request
def _choose_language() -> None:
    g.ui = i18n.negotiate(request.args.get("ui"), request.accept_languages)


@web.after_request
def _page_headers(response: Response) -> Response:
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    response.vary.add("Accept-Language")  # the same URL answers in the browser's language
    return response


def language_links() -> list[dict[str, Any]]:
    """The language switcher: this page in each interface language, other parameters kept."""
    links = []
    for code in i18n.available():
        args = {k: v for k, v in request.args.items() if k != "ui"}
        args["ui"] = code
        links.append(
            {
                "code": code,
                "name": language_name(code),
                "href": f"{request.path}?{urlencode(args)}",
                "current": code == ui_language(),
            }
        )
    return links


def _context(**extra: Any) -> dict[str, Any]:
    ui = ui_language()
    # A language chosen on the page (?ui=) is kept by the links back to the start page.
    home = f"/?ui={ui}" if request.args.get("ui") else "/"
    return {
        "languages": LANGUAGE_NAMES,
        "kind_class": kind_class,
        "ui": ui,
        "home": home,
        "ui_links": language_links(),
        **extra,
    }


# -- routes -----------------------------------------------------------------------------------
@web.get("/")
def index() -> str:
    """The page: ask, errata by card, and the checker (the JS reads ?q= / ?card= on load)."""
    games = _games()
    ui = ui_language()
    return render_template(
        "index.html",
        **_context(
            games=games,
            check_games=check_games({g["id"]: g["name"] for g in games}),
            script_messages={"messages": i18n.script_messages(ui), "labels": page_labels(ui)},
        ),
    )


@web.get("/r/<path:record_id>")
def ruling_page(record_id: str) -> tuple[str, int] | str:
    """One ruling, rendered on the server (works without JS); an HTML 404 for unknown ids."""
    engine = get_engine()
    lang = request.args.get("lang") or None
    if lang not in LANGUAGE_NAMES:
        lang = None
    try:
        ruling = engine.ruling(record_id, lang)
    except (NotFound, InvalidRequest):
        return render_template("not_found.html", **_context(record_id=record_id)), 404
    related = [_related(engine, rid, ui_language()) for rid in ruling["related"]]
    return render_template(
        "ruling.html",
        **_context(
            r=local_labels(ruling, ui_language()),
            lang=lang,
            game_name=ruling["game_name"],
            related=[r for r in related if r],
        ),
    )


def _related(engine: Any, record_id: str, ui: str) -> dict[str, Any] | None:
    try:
        return local_labels(engine.ruling(record_id), ui)
    except NotFound:
        return None
