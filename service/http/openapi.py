"""The OpenAPI 3.1 document, generated from the models the routes validate and answer with.

Each operation names its query, path, body and response models (``service.api_models``, and
each check's own request / response models); pydantic's JSON Schema turns them into the
document. The game parameters list the archive's own spellings, so the document is built
per archive (once per app).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from checker import CHECKS, check_module
from checker.base import JsonSchema
from service.http import models as m
from service.http.checks import CheckQuery
from service.http.votes import FeedbackBody, FeedbackOut

if TYPE_CHECKING:
    from pydantic.json_schema import JsonSchemaMode

REF = "#/components/schemas/{model}"
ERROR_TEXT = {
    400: "Malformed request",
    404: "Not found",
    405: "Method not allowed",
    413: "Body over 64 KiB",
    415: "Body is not JSON",
    422: "Invalid values",
    429: "Too many requests",
    503: "A resource the answer needs is unavailable",
}


@dataclass(frozen=True)
class Operation:
    method: str
    path: str
    operation_id: str
    summary: str
    response: type[BaseModel] | None = None
    query: type[BaseModel] | None = None
    body: type[BaseModel] | None = None
    path_params: tuple[tuple[str, str], ...] = ()
    errors: tuple[int, ...] = ()
    example: dict[str, Any] | None = None
    response_schema: dict[str, Any] | None = None  # for a response with no model


BODY_ERRORS = (400, 413, 415, 422)
OPERATIONS: tuple[Operation, ...] = (
    Operation(
        "get",
        "/v1/ask",
        "askGet",
        "Answer a rules question",
        m.AskResponse,
        query=m.AskQuery,
        errors=(400, 422, 503),
    ),
    Operation(
        "post",
        "/v1/ask",
        "askPost",
        "Answer a rules question (JSON body)",
        m.AskResponse,
        body=m.AskBody,
        errors=(*BODY_ERRORS, 503),
    ),
    Operation(
        "post",
        "/v1/feedback",
        "postFeedback",
        "A vote on an answer: did it answer the question?",
        FeedbackOut,
        body=FeedbackBody,
        errors=(*BODY_ERRORS, 404, 503),
    ),
    Operation(
        "get",
        "/v1/rulings/{id}",
        "getRuling",
        "One ruling",
        m.RulingOut,
        query=m.LangQuery,
        path_params=(("id", "the ruling's id, e.g. fh-errata-09"),),
        errors=(404, 422),
    ),
    Operation(
        "get",
        "/v1/rulings",
        "listRulings",
        "List rulings; search errata by card",
        m.RulingList,
        query=m.RulingsQuery,
        errors=(422,),
    ),
    Operation(
        "get",
        "/v1/cards",
        "listCards",
        "Known card names; with q, the best matches (autocomplete)",
        m.CardList,
        query=m.CardsQuery,
        errors=(422,),
    ),
    Operation("get", "/v1/games", "listGames", "The games, their aliases and counts", m.GameList),
    Operation(
        "get",
        "/healthz",
        "health",
        "Health: record count, model, index build time",
        m.HealthOut,
        errors=(503,),
    ),
    Operation(
        "get", "/openapi.json", "openapi", "This document", response_schema={"type": "object"}
    ),
)


def check_operations() -> list[Operation]:
    """One POST /v1/check/<name> per check, from its own request and response models."""
    out = []
    for name in CHECKS:
        module = check_module(name)
        out.append(
            Operation(
                "post",
                f"/v1/check/{name}",
                f"check{name.title()}",
                f"Rules checker: {name}",
                module.Response,
                query=CheckQuery,
                body=module.Request,
                errors=BODY_ERRORS,
                example=module.EXAMPLE,
            )
        )
    return out


def _fill_games(node: Any, spellings: list[str]) -> Any:
    """Replace every schema marked as a game name by the enum of the archive's spellings."""
    if isinstance(node, dict):
        if node.get(m.GAME_ENUM_MARK):
            node = {k: v for k, v in node.items() if k != m.GAME_ENUM_MARK}
            node["enum"] = ["", *spellings]
            return node
        return {k: _fill_games(v, spellings) for k, v in node.items()}
    if isinstance(node, list):
        return [_fill_games(v, spellings) for v in node]
    return node


def _query_schema(prop: dict[str, Any]) -> dict[str, Any]:
    """A query parameter's schema: a query string cannot carry null, so `X | None` is `X`."""
    prop = {k: v for k, v in prop.items() if k != "title"}
    branches = [b for b in prop.pop("anyOf", []) if b.get("type") != "null"]
    if len(branches) == 1:
        prop = {**branches[0], **prop}
    elif branches:
        prop["anyOf"] = branches
    if prop.get("default", 0) is None:
        del prop["default"]
    return prop


def _parameters(op: Operation, schemas: dict[str, Any]) -> list[dict[str, Any]]:
    params = [
        {
            "name": name,
            "in": "path",
            "required": True,
            "description": text,
            "schema": {"type": "string", "minLength": 1},
        }
        for name, text in op.path_params
    ]
    if op.query is None:
        return params
    schema = schemas[op.query.__name__]
    required = set(schema.get("required", []))
    for name, prop in schema["properties"].items():
        prop = _query_schema(prop)
        description = prop.pop("description", None)
        param = {"name": name, "in": "query", "required": name in required, "schema": prop}
        if description:
            param["description"] = description
        params.append(param)
    return params


def _responses(op: Operation) -> dict[str, Any]:
    if op.response is not None:
        schema: dict[str, Any] = {"$ref": REF.format(model=op.response.__name__)}
    else:
        schema = op.response_schema or {"type": "object"}
    out = {"200": {"description": "OK", "content": {"application/json": {"schema": schema}}}}
    for status in (*op.errors, 405):
        out[str(status)] = {
            "description": ERROR_TEXT[status],
            "content": {"application/json": {"schema": {"$ref": REF.format(model="ErrorOut")}}},
        }
    if op.path.startswith("/v1/"):  # the per-client rate limit (service/http/limits.py)
        out["429"] = {
            "description": ERROR_TEXT[429],
            "headers": {
                "Retry-After": {
                    "description": "seconds to wait",
                    "schema": {"type": "integer", "minimum": 1},
                }
            },
            "content": {"application/json": {"schema": {"$ref": REF.format(model="ErrorOut")}}},
        }
    return out


def openapi_document(game_spellings: list[str]) -> dict[str, Any]:
    """The whole document, for an archive whose games are spelled `game_spellings`."""
    operations = [*OPERATIONS, *check_operations()]
    models: list[tuple[type[BaseModel], JsonSchemaMode]] = [(m.ErrorOut, "serialization")]
    mode: JsonSchemaMode
    for op in operations:
        for model, mode in (
            (op.query, "validation"),
            (op.body, "validation"),
            (op.response, "serialization"),
        ):
            if model is not None and (model, mode) not in models:
                models.append((model, mode))
    _, defs = models_json_schema(models, ref_template=REF, schema_generator=JsonSchema)
    schemas = _fill_games(defs.get("$defs", {}), game_spellings)
    paths: dict[str, dict[str, Any]] = {}
    for op in operations:
        entry: dict[str, Any] = {
            "summary": op.summary,
            "operationId": op.operation_id,
            "responses": _responses(op),
        }
        params = _parameters(op, schemas)
        if params:
            entry["parameters"] = params
        if op.body is not None:
            content: dict[str, Any] = {"schema": {"$ref": REF.format(model=op.body.__name__)}}
            if op.example is not None:
                content["example"] = op.example
            entry["requestBody"] = {"required": True, "content": {"application/json": content}}
        paths.setdefault(op.path, {})[op.method] = entry
    # Query models are documented as parameters, not as schemas of their own.
    for op in operations:
        if op.query is not None:
            schemas.pop(op.query.__name__, None)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Rulings: curated, cited rules answers",
            "version": "1.2.0",
            "description": "Answers board-game rules questions with curated, cited rulings. "
            'Errors are always {"error": {"code", "message"}}.',
        },
        "paths": paths,
        "components": {"schemas": schemas},
    }
