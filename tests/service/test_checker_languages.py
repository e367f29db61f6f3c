"""The rules checker in the asker's language (issue "The answer first, in the asker's
language", item 3): every step's action and note, and the monster's explanation, said in the
question's language from the gettext catalogues (``action_local``, ``note_local``,
``explanation_local``), the English fields unchanged beside them as the reference, the rulings
cited the same in every language."""

from __future__ import annotations

import ast
from typing import Any

import pytest

from checker import CHECKS, check_module
from checker import run_check as run_english
from checker.reader import read_question
from service import i18n
from service.computed import run_check
from tests.conftest import REPO
from tests.service.test_computed_answers import CASES, asked, english

LANGS = ("en", "de", "fr", "it", "es", "nl", "da")
FH, GH = "frosthaven", "gloomhaven"
#: Catalogue entries that are rightly the msgid itself: the game's own terms as that language's
#: editions print them (Ward, Brittle), or the same word in both languages.
SAME_WORD = {
    "de": {"Ward", "Brittle"},
    "fr": {"Ward", "Brittle", "focus", "destination"},
    "it": {"Brittle", "focus"},
    "es": {"Ward", "Brittle"},
    "nl": {"Ward", "Brittle", "focus"},
    # Danish tables keep the English game terms (the page's catalogue says so too).
    "da": {"Ward", "Brittle", "negative hexes", "destination", "Shield", "Hit points"},
}


def _computed_inputs(lang: str) -> list[tuple[str, dict[str, Any]]]:
    """(check, request) for every reader case in `lang` that needs nothing more, per game."""
    out = []
    for check, case_lang, game, question in CASES:
        reading = read_question(question, case_lang, game)
        if case_lang != lang or reading is None or reading.missing:
            continue
        for each in [reading.input["game"]] if reading.input.get("game") else [FH, GH]:
            out.append((check, {**reading.input, "game": each}))
    return out


def _checker_msgids() -> list[str]:
    return [
        m.id
        for m in i18n.extract()
        if isinstance(m.id, str) and m.id and any(p.startswith("checker/") for p, _ in m.locations)
    ]


# -- every language: local steps in it, the English reference unchanged ------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_steps_are_said_in_the_question_language(lang: str) -> None:
    inputs = _computed_inputs(lang)
    assert len(inputs) >= 10, lang
    for check, request in inputs:
        local = run_check(check, request, lang)
        reference = run_english(check, request)
        assert english(local) == reference, (check, request)  # the English, byte for byte
        for step in local["steps"]:
            assert step["action_local"] and (step["note"] is None) == (step["note_local"] is None)
            if lang == "en":
                assert step["action_local"] == step["action"]
            else:  # no English template left: each sentence has its translation
                assert step["action_local"] != step["action"], (lang, step)
                assert step["note"] is None or step["note_local"] != step["note"], (lang, step)


@pytest.mark.parametrize("check", ["damage", "advantage", "initiative", "exhaustion", "monster"])
def test_the_rulings_cited_are_the_same_in_every_language(check: str) -> None:
    request = check_module(check).EXAMPLE
    answers = {lang: run_check(check, request, lang) for lang in LANGS}
    reference = run_english(check, request)
    for lang, answer in answers.items():
        assert answer["rulings"] == reference["rulings"], lang
        assert [s["rulings"] for s in answer["steps"]] == [
            s["rulings"] for s in reference["steps"]
        ], lang
        assert english(answer) == reference, lang


def test_the_issue_example_in_danish(client) -> None:
    computed = asked(
        client, "Hvornår er jeg udmattet hvis jeg har 1 kort på hånden og 0 i discard?"
    )["computed"]
    assert computed["check"] == "exhaustion" and computed["summary"] == "Du er udmattet."
    actions = [s["action_local"] for s in computed["result"]["steps"]]
    assert "1 kort på hånden: kan ikke spille to kort" in actions
    assert "udmattet: ja (kan ikke spille to kort og kan ikke hvile)" in actions
    # the English stays beside it, and the rulings are the English answer's
    assert english(computed["result"]) == run_english("exhaustion", computed["input"])


@pytest.mark.parametrize("lang", LANGS)
def test_the_ask_says_its_steps_in_the_question_language(client, lang: str) -> None:
    check, _lang, game, question = next(
        (c, la, g, q) for c, la, g, q in CASES if la == lang and not read_question(q, la, g).missing
    )
    computed = asked(client, question, lang=lang, **({"game": game} if game else {}))["computed"]
    assert computed["check"] == check
    assert computed["result"] == run_check(check, computed["input"], lang)
    assert all("action_local" in s and "note_local" in s for s in computed["result"]["steps"])


# -- the monster's explanation and POST /v1/check/<name>?lang= ------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_the_monster_explains_itself_in_the_language_asked(fast_client, lang: str) -> None:
    request = check_module("monster").EXAMPLE
    plain = fast_client.post("/v1/check/monster", json=request).get_json()
    local = fast_client.post(f"/v1/check/monster?lang={lang}", json=request).get_json()
    assert english(local) == plain == run_english("monster", request)
    keys = list(local)
    assert keys.index("explanation_local") == keys.index("explanation") + 1
    if lang == "en":
        assert local["explanation_local"] == plain["explanation"]
    else:
        assert local["explanation_local"] != plain["explanation"]
        assert all(
            s["action_local"] != s["action"] or s["action"] in SAME_WORD[lang]
            for s in local["steps"]
        )


def test_without_lang_a_check_answers_exactly_as_before(fast_client) -> None:
    for name in CHECKS:
        request = check_module(name).EXAMPLE
        answer = fast_client.post(f"/v1/check/{name}?other=1", json=request).get_json()
        assert answer == run_english(name, request)
        assert not any(k.endswith("_local") for k in answer)
        assert not any(k.endswith("_local") for s in answer["steps"] for k in s)
        empty = fast_client.post(f"/v1/check/{name}?lang=", json=request).get_json()
        assert empty == answer


def test_an_unknown_lang_is_refused(fast_client) -> None:
    response = fast_client.post("/v1/check/damage?lang=pt", json=check_module("damage").EXAMPLE)
    assert response.status_code == 422
    assert response.get_json()["error"]["message"].startswith("'lang' must be one of: ")


def test_openapi_documents_the_local_fields(fast_client) -> None:
    doc = fast_client.get("/openapi.json").get_json()
    for name in CHECKS:
        params = doc["paths"][f"/v1/check/{name}"]["post"]["parameters"]
        lang = next(p for p in params if p["name"] == "lang")
        assert not lang["required"] and "action_local" in lang["description"]
    schemas = doc["components"]["schemas"]
    assert {"action_local", "note_local"} <= set(schemas["StepOut"]["properties"])
    assert "explanation_local" in schemas["MonsterResponse"]["properties"]
    assert "action_local" in schemas["ComputedOut"]["properties"]["result"]["description"]


# -- the catalogues hold every sentence of the checker ---------------------------------------------
def test_every_checker_sentence_is_extractable() -> None:
    """A msg() whose text is not a literal would never reach the catalogues."""
    calls = 0
    paths = [path for pattern in i18n.CHECKER_SOURCES for path in REPO.glob(pattern)]
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "msg":
                calls += 1
                first = node.args[0] if node.args else None
                assert isinstance(first, ast.Constant) and isinstance(first.value, str), (
                    f"{path.name}:{node.lineno}"
                )
    assert calls >= len(_checker_msgids()) > 150


@pytest.mark.parametrize("lang", [lang for lang in LANGS if lang != "en"])
def test_every_checker_sentence_is_translated(lang: str) -> None:
    catalogue = i18n.translations(lang)
    untranslated = [
        msgid
        for msgid in _checker_msgids()
        if catalogue.gettext(msgid) == msgid and msgid not in SAME_WORD[lang]
    ]
    assert untranslated == []
