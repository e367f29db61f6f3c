"""The HTTP contract: routes, shapes, and every error status with its exact message.

Answers need the real model (`client`); shapes and errors do not (`fast_client`: the same app
over a fake embedder), so they also run in `make test-fast`.
"""

from __future__ import annotations

import httpx
import pytest

RULING_FIELDS = {
    "id",
    "game",
    "kind",
    "lang",
    "title",
    "text",
    "citation",
    "cards",
    "translation",
    "related",
}


def test_ask_get_answers_with_the_frosthaven_ruling_and_its_pages(client):
    r = client.get("/v1/ask", query_string={"q": "can I do two top actions"})
    assert r.status_code == 200 and r.content_type == "application/json"
    body = r.get_json()
    assert set(body) >= {"question", "lang", "game", "declined", "answer", "matches", "took_ms"}
    assert body["declined"] is False and body["lang"] == "en"
    answer = body["answer"]
    assert answer["id"] in ("fh-nl-1", "fh-it-1") and answer["game"] == "frosthaven"
    assert answer["citation"]["pages"] == ["18", "20", "34"]
    assert answer == {k: v for k, v in body["matches"][0].items()}
    assert set(answer) >= RULING_FIELDS | {"score"}
    # The original text is kept; the asker's language comes as a labelled translation.
    assert answer["translation"]["lang"] == "en" and "top action" in answer["translation"]["text"]
    assert "original" in answer["translation"]["label"]


def test_ask_post_with_game_lang_and_k(client):
    r = client.post(
        "/v1/ask",
        json={
            "question": "Shield 2 and Ward against 6 damage?",
            "game": "FH",
            "lang": "de",
            "k": 5,
        },
    )
    body = r.get_json()
    assert r.status_code == 200, body
    assert body["game"] == "frosthaven" and body["lang"] == "de" and len(body["matches"]) == 5
    assert body["answer"]["id"] == "fh-clar-10"
    assert body["answer"]["translation"]["lang"] == "de"
    assert body["calculators"] == ["damage"]  # the checker computes this ruling


def test_declined_answer_still_lists_matches(client):
    body = client.get("/v1/ask", query_string={"q": "any good pizza places near me?"}).get_json()
    assert body["declined"] is True and body["answer"] is None and body["matches"]
    assert body["game"] is None


def test_ruling_by_id_with_translation(fast_client):
    body = fast_client.get("/v1/rulings/fh-errata-09?lang=it").get_json()
    assert body["id"] == "fh-errata-09" and body["text"].startswith("Item 225")
    assert body["translation"]["lang"] == "it"
    assert fast_client.get("/v1/rulings/fh-errata-09").get_json()["translation"] is None


@pytest.mark.parametrize(
    "card, first",
    [
        ("item 225", "fh-errata-09"),
        ("225", "fh-errata-09"),
        ("CHILLING BREATH", "fh-errata-04"),
        ("chiling breth", "fh-errata-04"),
        ("Blinkblade", "fh-errata-13"),
        ("1451", "fh-errata-10"),
    ],
)
def test_errata_by_card(fast_client, card, first):
    body = fast_client.get("/v1/rulings", query_string={"card": card}).get_json()
    assert body["results"][0]["id"] == first and body["total"] >= 1


def test_rulings_filters_by_game_kind_and_limit(fast_client):
    body = fast_client.get("/v1/rulings?game=frosthaven&kind=erratum&limit=5").get_json()
    assert body["total"] == 13 and len(body["results"]) == 5
    assert all(r["kind"] == "erratum" for r in body["results"])


def test_games_health_cards(fast_client):
    games = {g["id"]: g for g in fast_client.get("/v1/games").get_json()["games"]}
    assert games["frosthaven"]["counts"]["erratum"] == 13 and "FH" in games["frosthaven"]["aliases"]
    assert games["gloomhaven"]["languages"] == ["en", "nl", "da", "it", "de", "es", "fr"]
    health = fast_client.get("/healthz").get_json()
    assert health["status"] == "ok" and health["records"] == 70 and health["index_built_at"]
    assert "Item 225" in fast_client.get("/v1/cards").get_json()["cards"]


KNOWN = "frosthaven, gloomhaven, catan, wingspan"
BAD = [
    ("get", "/v1/ask", {}, None, 400, "bad_request", "missing query parameter 'q' (the question)"),
    (
        "get",
        "/v1/ask?q=",
        {},
        None,
        422,
        "invalid_request",
        "'question' must be a non-empty string",
    ),
    (
        "get",
        "/v1/ask?q=" + "x" * 501,
        {},
        None,
        422,
        "invalid_request",
        "'question' is too long (501 characters; at most 500)",
    ),
    (
        "get",
        "/v1/ask?q=hi&k=0",
        {},
        None,
        422,
        "invalid_request",
        "'k' must be an integer from 1 to 10",
    ),
    (
        "get",
        "/v1/ask?q=hi&k=11",
        {},
        None,
        422,
        "invalid_request",
        "'k' must be an integer from 1 to 10",
    ),
    (
        "get",
        "/v1/ask?q=hi&k=two",
        {},
        None,
        422,
        "invalid_request",
        "'k' must be an integer from 1 to 10",
    ),
    (
        "get",
        "/v1/ask?q=hi&game=monopoly",
        {},
        None,
        422,
        "invalid_request",
        f"unknown game 'monopoly'; known games: {KNOWN}",
    ),
    (
        "get",
        "/v1/ask?q=hi&lang=pt",
        {},
        None,
        422,
        "invalid_request",
        "'lang' must be one of: en, nl, da, it, de, es, fr",
    ),
    (
        "post",
        "/v1/ask",
        {"data": "question=hi", "content_type": "application/x-www-form-urlencoded"},
        None,
        415,
        "unsupported_media_type",
        "the request body must be JSON (Content-Type: application/json)",
    ),
    (
        "post",
        "/v1/ask",
        {"data": "{not json", "content_type": "application/json"},
        None,
        400,
        "bad_request",
        None,
    ),
    (
        "post",
        "/v1/ask",
        {"data": "x" * (64 * 1024 + 1), "content_type": "application/json"},
        None,
        413,
        "payload_too_large",
        "request body is over 64 KiB",
    ),
    (
        "post",
        "/v1/ask",
        {},
        [1, 2],
        422,
        "invalid_request",
        "the request body must be a JSON object",
    ),
    ("post", "/v1/ask", {}, {"k": 3}, 422, "invalid_request", "'question' is required"),
    (
        "post",
        "/v1/ask",
        {},
        {"question": 42},
        422,
        "invalid_request",
        "'question' must be a non-empty string",
    ),
    (
        "post",
        "/v1/ask",
        {},
        {"question": "   "},
        422,
        "invalid_request",
        "'question' must be a non-empty string",
    ),
    (
        "post",
        "/v1/ask",
        {},
        {"question": "hi", "k": True},
        422,
        "invalid_request",
        "'k' must be an integer from 1 to 10",
    ),
    (
        "post",
        "/v1/ask",
        {},
        {"question": "hi", "k": "3"},
        422,
        "invalid_request",
        "'k' must be an integer from 1 to 10",
    ),
    (
        "post",
        "/v1/ask",
        {},
        {"question": "hi", "game": ["fh"]},
        422,
        "invalid_request",
        "'game' must be a string",
    ),
    (
        "post",
        "/v1/ask",
        {},
        {"question": "hi", "qestion": "x"},
        422,
        "invalid_request",
        "unknown field(s): qestion; allowed: game, k, lang, question",
    ),
    ("get", "/v1/rulings/nope-1", {}, None, 404, "not_found", "no ruling with id 'nope-1'"),
    (
        "get",
        "/v1/rulings?kind=rumour",
        {},
        None,
        422,
        "invalid_request",
        "'kind' must be one of: rulebook, erratum, clarification, edge case, example",
    ),
    (
        "get",
        "/v1/rulings?limit=0",
        {},
        None,
        422,
        "invalid_request",
        "'limit' must be an integer from 1 to 100",
    ),
    (
        "get",
        "/v1/rulings?card=",
        {},
        None,
        422,
        "invalid_request",
        "'card' must be a non-empty string of at most 200 characters",
    ),
    ("get", "/nowhere", {}, None, 404, "not_found", "no such route: /nowhere"),
    (
        "delete",
        "/v1/ask",
        {},
        None,
        405,
        "method_not_allowed",
        "method DELETE is not allowed on /v1/ask",
    ),
    (
        "get",
        "/v1/check/damage",
        {},
        None,
        405,
        "method_not_allowed",
        "method GET is not allowed on /v1/check/damage",
    ),
    (
        "post",
        "/v1/check/teleport",
        {},
        {},
        404,
        "not_found",
        "unknown check 'teleport'; known: damage, initiative, advantage, exhaustion, monster",
    ),
    (
        "post",
        "/v1/check/damage",
        {},
        {"game": "gloomhaven", "attack": 3, "ward": True},
        422,
        "invalid_request",
        None,
    ),
]


@pytest.mark.parametrize(
    "method, url, kwargs, body, status, code, message",
    BAD,
    ids=[f"{b[0]} {b[1][:40]} {b[4]}" for b in BAD],
)
def test_bad_input_gets_a_json_error(fast_client, method, url, kwargs, body, status, code, message):
    if body is not None:
        kwargs = dict(kwargs, json=body)
    r = getattr(fast_client, method)(url, **kwargs)
    assert r.status_code == status
    assert r.content_type == "application/json"
    error = r.get_json()["error"]
    assert error["code"] == code
    if message is not None:
        assert error["message"] == message
    else:
        assert error["message"]


def test_openapi_document_is_valid_and_matches_the_routes(fast_app, fast_client):
    from openapi_spec_validator import validate

    doc = fast_client.get("/openapi.json").get_json()
    validate(doc)
    rules = {
        (str(rule).replace("<path:record_id>", "{id}").replace("<name>", "{name}"), method.lower())
        for rule in fast_app.url_map.iter_rules()
        for method in rule.methods - {"HEAD", "OPTIONS"}
    }
    for path, ops in doc["paths"].items():
        for method in ops:
            generic = path if not path.startswith("/v1/check/") else "/v1/check/{name}"
            assert (generic, method) in rules, (path, method)
    assert "/v1/check/monster" in doc["paths"] and "/v1/check/damage" in doc["paths"]
    page = fast_client.get("/docs")
    assert page.status_code == 200 and b"/v1/ask" in page.data


def test_real_server_answers_and_errors_as_json(live_server):
    r = httpx.get(f"{live_server}/v1/ask", params={"q": "can I do two top actions"}, timeout=30)
    assert r.status_code == 200 and r.json()["answer"]["citation"]["pages"] == ["18", "20", "34"]
    r = httpx.post(
        f"{live_server}/v1/ask",
        content=b"x" * 70000,
        headers={"Content-Type": "application/json"},
        timeout=30,
    )
    assert r.status_code == 413 and r.json()["error"]["code"] == "payload_too_large"
    r = httpx.post(
        f"{live_server}/v1/check/damage",
        json={"game": "frosthaven", "attack": 6, "shield": 2, "ward": True},
        timeout=30,
    )
    assert r.json()["damage"] == 2 and "fh-clar-10" in r.json()["rulings"]
