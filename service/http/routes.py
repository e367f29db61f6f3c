"""The /v1 routes (and /healthz): validate with the API models, ask the engine, shape the answer."""

from __future__ import annotations

from flask import Blueprint, jsonify, request

from checker import run_check
from service.http import models as m
from service.http.context import HttpError, get_engine, json_body, query_args
from service.http.metrics import observe_ask

api = Blueprint("api", __name__)


# -- routes -------------------------------------------------------------------------------
@api.get("/v1/ask")
def ask_get():
    if request.args.get("q") is None:
        raise HttpError(400, "bad_request", "missing query parameter 'q' (the question)")
    ask = m.validated(m.AskQuery, query_args(keep_empty=("q", "k")))
    return jsonify(
        m.shaped(
            m.AskResponse,
            observe_ask(get_engine().ask(ask.question, game=ask.game, lang=ask.lang, k=ask.k)),
        )
    )


@api.post("/v1/ask")
def ask_post():
    ask = m.validated(m.AskBody, json_body())
    return jsonify(
        m.shaped(
            m.AskResponse,
            observe_ask(get_engine().ask(ask.question, game=ask.game, lang=ask.lang, k=ask.k)),
        )
    )


@api.get("/v1/rulings/<path:record_id>")
def ruling(record_id: str):
    query = m.validated(m.LangQuery, query_args())
    return jsonify(m.shaped(m.RulingOut, get_engine().ruling(record_id, query.lang or None)))


@api.get("/v1/rulings")
def rulings():
    query = m.validated(m.RulingsQuery, query_args(keep_empty=("card", "limit")))
    return jsonify(
        m.shaped(
            m.RulingList,
            get_engine().find(
                card=query.card,
                game=query.game,
                kind=query.kind,
                lang=query.lang or None,
                limit=query.limit,
            ),
        )
    )


@api.get("/v1/cards")
def cards():
    """Card, item, monster and class names the archive knows; with `q`, the best matches."""
    query = m.validated(m.CardsQuery, query_args())
    return jsonify(m.shaped(m.CardList, {"cards": get_engine().suggest_cards(query.q)}))


@api.get("/v1/games")
def games():
    return jsonify(m.shaped(m.GameList, get_engine().games()))


@api.get("/healthz")
def healthz():
    return jsonify(m.shaped(m.HealthOut, get_engine().health()))


@api.post("/v1/check/<name>")
def check(name: str):
    return jsonify(run_check(name, json_body()))
