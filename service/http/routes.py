"""The /v1 routes (and /healthz): validate with the API models, ask the engine, shape the answer."""
from __future__ import annotations

import weakref
from types import SimpleNamespace
from typing import Any

from flask import Blueprint, jsonify, request

from checker import run_check
from indexer.text import fold
from service.engine import Engine
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
        from indexer.archive.cards import CardLookup
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
