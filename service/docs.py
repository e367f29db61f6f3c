"""The OpenAPI 3 document of every endpoint, and a human-readable API page rendered from it."""
from __future__ import annotations

import html
import json
from functools import lru_cache

from flask import Blueprint, Response, jsonify

from checker import CHECKS, check_module
from indexer.archive import KINDS, LANGUAGES
from service.engine import MAX_K, MAX_LIMIT, MAX_QUESTION

docs = Blueprint("docs", __name__)

ERROR = {"type": "object", "required": ["error"], "additionalProperties": False,
         "properties": {"error": {"type": "object", "required": ["code", "message"],
                                  "properties": {"code": {"type": "string"},
                                                 "message": {"type": "string"}}}}}
NULLABLE_STR = {"type": ["string", "null"]}
RULING = {
    "type": "object",
    "required": ["id", "game", "kind", "lang", "title", "text", "citation", "cards", "translation", "related"],
    "properties": {
        "id": {"type": "string"}, "game": {"type": "string"},
        "kind": {"type": "string", "enum": list(KINDS)},
        "lang": {"type": "string", "enum": list(LANGUAGES)},
        "title": NULLABLE_STR, "context_label": NULLABLE_STR, "context": NULLABLE_STR,
        "text": {"type": "string", "description": "the original text, verbatim"},
        "citation": {"type": "object", "properties": {
            k: {"type": "string"} for k in ("source", "page_ref", "section", "author", "site", "date", "file")}
            | {"pages": {"type": "array", "items": {"type": "string"}}, "line": {"type": "integer"}}},
        "cards": {"type": "array", "items": {"type": "object", "properties": {
            "type": {"type": "string"}, "name": {"type": "string"}, "of": NULLABLE_STR,
            "label": {"type": "string"}}}},
        "amends": {"type": "array", "items": {"type": "object"}},
        "translation": {"oneOf": [{"type": "null"}, {"type": "object", "required": ["lang", "text"], "properties": {
            "lang": {"type": "string"}, "text": {"type": "string"}, "title": NULLABLE_STR,
            "context": NULLABLE_STR, "edition_of": NULLABLE_STR, "label": {"type": "string"}}}]},
        "related": {"type": "array", "items": {"type": "string"}},
    },
}
MATCH = {"allOf": [{"$ref": "#/components/schemas/Ruling"},
                   {"type": "object", "required": ["score"], "properties": {"score": {"type": "number"}}}]}
ASK_RESPONSE = {
    "type": "object",
    "required": ["question", "lang", "game", "declined", "answer", "matches", "took_ms"],
    "properties": {
        "question": {"type": "string"}, "lang": {"type": "string"}, "game": NULLABLE_STR,
        "declined": {"type": "boolean"},
        "answer": {"oneOf": [{"type": "null"}, {"$ref": "#/components/schemas/Match"}]},
        "matches": {"type": "array", "items": {"$ref": "#/components/schemas/Match"}},
        "reason": {"type": "string"}, "took_ms": {"type": "number"},
        "calculators": {"type": "array", "items": {"type": "string"},
                        "description": "checks (POST /v1/check/<name>) that compute the answer's ruling"},
    },
}
ASK_REQUEST = {
    "type": "object", "required": ["question"], "additionalProperties": False,
    "properties": {"question": {"type": "string", "minLength": 1, "maxLength": MAX_QUESTION},
                   "game": {"type": "string"}, "lang": {"type": "string", "enum": list(LANGUAGES)},
                   "k": {"type": "integer", "minimum": 1, "maximum": MAX_K, "default": 3}},
}


def _err(*statuses: int) -> dict:
    text = {400: "Malformed request", 404: "Not found", 405: "Method not allowed",
            413: "Body over 64 KiB", 415: "Body is not JSON", 422: "Invalid values"}
    return {str(s): {"description": text[s], "content": {"application/json": {
        "schema": {"$ref": "#/components/schemas/Error"}}}} for s in statuses}


def _ok(schema: dict, description: str = "OK") -> dict:
    return {"200": {"description": description, "content": {"application/json": {"schema": schema}}}}


def _q(name: str, description: str, schema: dict, required: bool = False) -> dict:
    return {"name": name, "in": "query", "required": required, "description": description, "schema": schema}


@lru_cache(maxsize=1)
def openapi_document() -> dict:
    """The OpenAPI 3.1 document (built once)."""
    game_q = _q("game", "game id or alias (FH, GH, ...); detected from the question when absent", {"type": "string"})
    lang_q = _q("lang", "the asker's language; detected when absent", {"type": "string", "enum": list(LANGUAGES)})
    paths: dict = {
        "/v1/ask": {
            "get": {"summary": "Answer a rules question", "operationId": "askGet",
                    "parameters": [_q("q", "the question", {"type": "string", "minLength": 1, "maxLength": MAX_QUESTION}, True),
                                   game_q, lang_q,
                                   _q("k", "how many matches", {"type": "integer", "minimum": 1, "maximum": MAX_K})],
                    "responses": _ok({"$ref": "#/components/schemas/AskResponse"}) | _err(400, 422)},
            "post": {"summary": "Answer a rules question (JSON body)", "operationId": "askPost",
                     "requestBody": {"required": True, "content": {"application/json": {
                         "schema": {"$ref": "#/components/schemas/AskRequest"}}}},
                     "responses": _ok({"$ref": "#/components/schemas/AskResponse"}) | _err(400, 413, 415, 422)},
        },
        "/v1/rulings/{id}": {"get": {
            "summary": "One ruling", "operationId": "getRuling",
            "parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}, lang_q],
            "responses": _ok({"$ref": "#/components/schemas/Ruling"}) | _err(404, 422)}},
        "/v1/rulings": {"get": {
            "summary": "List rulings; search errata by card", "operationId": "listRulings",
            "parameters": [_q("card", "card, item, monster or class name (forgiving: case, accents, typos, 'item 225')", {"type": "string"}),
                           game_q, _q("kind", "kind of ruling", {"type": "string", "enum": list(KINDS)}), lang_q,
                           _q("limit", "at most this many", {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT})],
            "responses": _ok({"type": "object", "required": ["results", "total"], "properties": {
                "results": {"type": "array", "items": {"$ref": "#/components/schemas/Ruling"}},
                "total": {"type": "integer"}}}) | _err(422)}},
        "/v1/cards": {"get": {"summary": "Known card names (autocomplete)", "operationId": "listCards",
                              "responses": _ok({"type": "object", "properties": {
                                  "cards": {"type": "array", "items": {"type": "string"}}}})}},
        "/v1/games": {"get": {"summary": "The games, their aliases and counts", "operationId": "listGames",
                              "responses": _ok({"type": "object", "required": ["games"], "properties": {
                                  "games": {"type": "array", "items": {"type": "object", "required": [
                                      "id", "name", "aliases", "counts", "languages"]}}}})}},
        "/healthz": {"get": {"summary": "Health: record count, model, index build time", "operationId": "health",
                             "responses": _ok({"type": "object", "required": ["status", "records", "model", "index_built_at"]})}},
        "/openapi.json": {"get": {"summary": "This document", "operationId": "openapi",
                                  "responses": _ok({"type": "object"})}},
    }
    schemas = {"Error": ERROR, "Ruling": RULING, "Match": MATCH, "AskResponse": ASK_RESPONSE,
               "AskRequest": ASK_REQUEST}
    for name in CHECKS:
        try:
            module = check_module(name)
        except ImportError:
            continue
        schemas[f"Check{name.title()}Request"] = module.REQUEST_SCHEMA
        schemas[f"Check{name.title()}Response"] = module.RESPONSE_SCHEMA
        paths[f"/v1/check/{name}"] = {"post": {
            "summary": f"Rules checker: {name}", "operationId": f"check{name.title()}",
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": {"$ref": f"#/components/schemas/Check{name.title()}Request"},
                "example": module.EXAMPLE}}},
            "responses": _ok({"$ref": f"#/components/schemas/Check{name.title()}Response"}) | _err(400, 413, 415, 422)}}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Rulings: curated, cited rules answers", "version": "1.0.0",
                 "description": "Answers board-game rules questions with curated, cited rulings. "
                                "Errors are always {\"error\": {\"code\", \"message\"}}."},
        "paths": paths,
        "components": {"schemas": schemas},
    }


@docs.get("/openapi.json")
def openapi_json():
    return jsonify(openapi_document())


@docs.get("/docs")
def api_page():
    """A readable API page rendered from the OpenAPI document (no external assets)."""
    doc = openapi_document()
    rows = []
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            params = ", ".join(f"{p['name']}{'*' if p.get('required') else ''}" for p in op.get("parameters", []))
            body = op.get("requestBody", {}).get("content", {}).get("application/json", {})
            example = body.get("example")
            rows.append(
                f"<section><h2><code>{method.upper()} {html.escape(path)}</code></h2>"
                f"<p>{html.escape(op['summary'])}</p>"
                + (f"<p>Parameters: <code>{html.escape(params)}</code> (* required)</p>" if params else "")
                + (f"<p>Example body:</p><pre>{html.escape(json.dumps(example, indent=1, ensure_ascii=False))}</pre>" if example else "")
                + f"<p>Responses: {', '.join(op['responses'])}</p></section>")
    page = ("<!doctype html><html lang=en><meta charset=utf-8><meta name=viewport content='width=device-width'>"
            "<title>Rulings API</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:50rem;margin:auto;padding:1rem}"
            "pre{background:#f4f4f4;padding:.5rem;overflow:auto}h2{font-size:1.1rem;margin-top:2rem}</style>"
            f"<h1>Rulings API</h1><p>{html.escape(doc['info']['description'])}</p>"
            "<p>Machine-readable: <a href='/openapi.json'>/openapi.json</a></p>" + "".join(rows) + "</html>")
    return Response(page, mimetype="text/html")
