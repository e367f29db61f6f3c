"""The /v1 routes (and /healthz): validate with the API models, ask the engine, shape the answer."""

from __future__ import annotations

from flask import Blueprint, jsonify, request

from indexer.language import LANGUAGES
from service.computed import run_check
from service.http import models as m
from service.http.checks import CheckQuery
from service.http.context import HttpError, get_ask_log, get_engine, json_body, query_args
from service.http.metrics import INTERNAL, observe_ask

api = Blueprint("api", __name__)


#: The ``X-Rulings-Client`` values the service's own clients send (any other caller: "api").
OWN_CLIENTS = ("page", "discord-gateway")


def _answered(ask: m.AskBody) -> dict:
    """The engine's answer, counted and logged (its ``ask_id``); the log never delays it."""
    # The reader's language (the page sends its own; a browser or the bot the user's): a prior
    # for detecting the question's, which a short question cannot show by itself.
    hint = request.accept_languages.best_match(LANGUAGES)
    answer = observe_ask(
        get_engine().ask(ask.question, game=ask.game, lang=ask.lang, k=ask.k, hint=hint)
    )
    ask_log = get_ask_log()
    if ask_log is not None and not request.environ.get(INTERNAL):  # the warm-up is no ask
        client = request.headers.get("X-Rulings-Client", "").strip().lower()
        channel = client if client in OWN_CLIENTS else "api"
        # The gateway bot names the Discord server so that asks can be counted per server;
        # the log keeps only a keyed hash of it.
        server = request.headers.get("X-Rulings-Server") if channel == "discord-gateway" else None
        answer["ask_id"] = ask_log.record(answer, channel, server)
    return m.shaped(m.AskResponse, answer)


# -- routes -------------------------------------------------------------------------------
@api.get("/v1/ask")
def ask_get():
    if request.args.get("q") is None:
        raise HttpError(400, "bad_request", "missing query parameter 'q' (the question)")
    return jsonify(_answered(m.validated(m.AskQuery, query_args(keep_empty=("q", "k")))))


@api.post("/v1/ask")
def ask_post():
    return jsonify(_answered(m.validated(m.AskBody, json_body())))


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
    """A check's response; with ``?lang=``, its steps also in that language (``*_local``)."""
    query = m.validated(CheckQuery, query_args())
    return jsonify(run_check(name, json_body(), query.lang or None))
