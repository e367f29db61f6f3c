"""The OpenAPI document at /openapi.json, and a readable API page rendered from it at /docs."""

from __future__ import annotations

import html
import json
from typing import TYPE_CHECKING, Any, cast

from flask import Blueprint, Response, current_app, jsonify

from service.http.context import get_engine
from service.http.openapi import openapi_document

if TYPE_CHECKING:
    from flask import Flask
    from werkzeug.local import LocalProxy

docs = Blueprint("docs", __name__)


def app_document() -> dict[str, Any]:
    """The app's document, generated once (its game enums come from the app's archive)."""

    # current_app is a proxy (flask types it as the app): the app behind it, kept by reference.
    app = cast("LocalProxy[Flask]", current_app)._get_current_object()
    doc = app.extensions.get("rulings_openapi")
    if doc is None:
        doc = openapi_document(get_engine().catalogue.game_spellings())
        app.extensions["rulings_openapi"] = doc
    return doc


@docs.get("/openapi.json")
def openapi_json():
    return jsonify(app_document())


@docs.get("/docs")
def api_page():
    """A readable API page rendered from the OpenAPI document (no external assets)."""
    doc = app_document()
    rows = []
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            params = ", ".join(
                f"{p['name']}{'*' if p.get('required') else ''}" for p in op.get("parameters", [])
            )
            body = op.get("requestBody", {}).get("content", {}).get("application/json", {})
            example = body.get("example")
            rows.append(
                f"<section><h2><code>{method.upper()} {html.escape(path)}</code></h2>"
                f"<p>{html.escape(op['summary'])}</p>"
                + (
                    f"<p>Parameters: <code>{html.escape(params)}</code> (* required)</p>"
                    if params
                    else ""
                )
                + (
                    f"<p>Example body:</p><pre>{html.escape(json.dumps(example, indent=1, ensure_ascii=False))}</pre>"
                    if example
                    else ""
                )
                + f"<p>Responses: {', '.join(op['responses'])}</p></section>"
            )
    page = (
        "<!doctype html><html lang=en><meta charset=utf-8><meta name=viewport content='width=device-width'>"
        "<title>Rulings API</title><style>"
        "body{font:16px/1.5 system-ui,sans-serif;max-width:50rem;margin:auto;padding:1rem}"
        "pre{background:#f4f4f4;padding:.5rem;overflow:auto}h2{font-size:1.1rem;margin-top:2rem}</style>"
        f"<h1>Rulings API</h1><p>{html.escape(doc['info']['description'])}</p>"
        "<p>Machine-readable: <a href='/openapi.json'>/openapi.json</a></p>"
        + "".join(rows)
        + "</html>"
    )
    return Response(page, mimetype="text/html")
