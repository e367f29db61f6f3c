"""Computed answers in /v1/ask (issue 14): the numbers read from the question, computed by the
rules checker with cited steps, beside the ruling; `missing` when the question leaves out what
the answer depends on; null when it asks for no computation. Through the real model and index
(the ask route), the CLI and the bot's embed; in a real browser: tests/web/test_browser.py."""

from __future__ import annotations

import json
from typing import Any

import pytest

from checker import run_check
from checker.reader import read_question
from service.cli import cli
from service.discord.embeds import answer_embed, fit_embed
from tests.checker.test_reader import ADVANTAGE, DAMAGE, EXHAUSTION, INITIATIVE

FH, GH = "frosthaven", "gloomhaven"
TABLES = {
    "damage": DAMAGE,
    "advantage": ADVANTAGE,
    "initiative": INITIATIVE,
    "exhaustion": EXHAUSTION,
}
CASES = [(check, row[0], row[1], row[2]) for check, table in TABLES.items() for row in table]


def english(result: dict[str, Any]) -> dict[str, Any]:
    """A check's response without the fields said in the asker's language (``*_local``)."""
    steps = [{k: v for k, v in s.items() if not k.endswith("_local")} for s in result["steps"]]
    return {k: v for k, v in result.items() if not k.endswith("_local")} | {"steps": steps}


def asked(client, question: str, **params: str) -> dict[str, Any]:
    response = client.get("/v1/ask", query_string={"q": question, **params})
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()


# -- every check, every language: the API answers as the reader and the check do --------------
@pytest.mark.parametrize(
    "check, lang, game, question", CASES, ids=[f"{c[0]}-{c[1]}-{c[3][:30]}" for c in CASES]
)
def test_ask_computes_what_the_question_asks(
    client, check: str, lang: str, game: str | None, question: str
) -> None:
    params = {"lang": lang, **({"game": game} if game else {})}
    computed = asked(client, question, **params)["computed"]
    reading = read_question(question, lang, game)
    assert computed is not None and computed["check"] == check
    assert computed["missing"] == reading.missing
    # The input is the reader's; a game the question does not give comes from the ruling found.
    assert {k: v for k, v in computed["input"].items() if k != "game"} == {
        k: v for k, v in reading.input.items() if k != "game"
    }
    if reading.input.get("game"):
        assert computed["input"]["game"] == reading.input["game"]
    assert computed["input"]["game"] in (FH, GH)
    assert computed["summary"]
    if not computed["missing"]:
        # The result is exactly what POST /v1/check/<check>?lang= answers for the input: the
        # check's English response, each step also said in the question's language.
        posted = client.post(f"/v1/check/{check}?lang={lang}", json=computed["input"])
        assert posted.status_code == 200
        assert computed["result"] == posted.get_json()
        assert english(computed["result"]) == run_check(check, computed["input"])
        # Every step cites its rulings, or the check says that none covers it.
        steps = computed["result"]["steps"]
        assert set(computed["result"]["rulings"]) == {r for step in steps for r in step["rulings"]}
    else:
        assert computed["result"] is None


# -- the issue's examples, the language detected ---------------------------------------------
@pytest.mark.parametrize(
    "question, check, key, expected",
    [
        ("Frosthaven: Schild 1, Angriff 5, ich ziehe -1. Wie viel Schaden?", "damage", "damage", 3),
        ("attacco 3, pesco +1 con lancio e poi x2: quanto fa al massimo?", "damage", "damage", 8),
        (
            "Gloomhaven: Spellweaver initiative 10, Cragheart 45, the Vermling Scouts 30. Order?",
            "initiative",
            "order",
            ["Spellweaver", "Vermling Scouts", "Cragheart"],
        ),
        (
            "jeg har 0 kort på hånden og 1 i discard, er jeg udmattet?",
            "exhaustion",
            "exhausted",
            True,
        ),
        (
            "Shield 1 and Ward, a monster attacks me for 7, how much damage do I take?",
            "damage",
            "damage",
            3,
        ),
    ],
)
def test_issue_examples(client, question: str, check: str, key: str, expected: Any) -> None:
    res = asked(client, question)
    computed = res["computed"]
    assert computed["check"] == check and computed["missing"] == []
    assert computed["result"][key] == expected
    # The ruling answer is decided as before and stays beside it.
    assert {"answer", "matches", "declined", "calculators"} <= set(res)


def test_ward_question_without_a_game_is_computed_as_frosthaven(client) -> None:
    computed = asked(
        client, "Shield 1 and Ward, a monster attacks me for 7, how much damage do I take?"
    )["computed"]
    assert computed["input"]["game"] == FH
    assert computed["summary"] == "You suffer 3 damage."
    cited = {rid for step in computed["result"]["steps"] for rid in step["rulings"]}
    assert "fh-clar-10" in cited  # Shield before Ward


def test_summary_is_in_the_askers_language(client) -> None:
    computed = asked(client, "Frosthaven: Schild 1, Angriff 5, ich ziehe -1. Wie viel Schaden?")[
        "computed"
    ]
    assert computed["summary"] == "Du erleidest 3 Schaden."


def test_exhaustion_needs_no_hit_points(client) -> None:
    computed = asked(client, "1 card in hand and 1 in the discard, am I exhausted?", game=FH)[
        "computed"
    ]
    assert computed["missing"] == [] and "hp" not in computed["input"]
    assert computed["result"]["exhausted"] is True
    assert computed["result"]["steps"][0]["action"].startswith("hit points not given")


# -- what is missing is named, never guessed --------------------------------------------------
@pytest.mark.parametrize(
    "question, game, missing",
    [
        ("Shield 2 against an attack, how much do I take?", None, ["attack"]),
        ("Schild 2 gegen einen Angriff, wie viel Schaden bekomme ich?", FH, ["attack"]),
        ("scudo 2 contro un attacco, quanti danni subisco?", FH, ["attack"]),
    ],
)
def test_missing_values_are_named_and_nothing_is_computed(
    client, question: str, game: str | None, missing: list[str]
) -> None:
    computed = asked(client, question, **({"game": game} if game else {}))["computed"]
    assert computed["check"] == "damage"
    assert computed["missing"] == missing and computed["result"] is None
    assert computed["input"]["shield"] == 2 and "attack" not in computed["input"]


def test_a_value_out_of_range_is_a_note_not_an_error(client) -> None:
    res = asked(client, "Attack 400 with a +1, how much damage?", game=FH)
    computed = res["computed"]
    assert computed["result"] is None and "attack" in computed["missing"]
    assert any("400" in note for note in computed["notes"])


# -- questions that ask for no computation ----------------------------------------------------
@pytest.mark.parametrize(
    "question",
    [
        "what does Brittle do exactly?",
        "is Jump decided before the move?",
        "can I do two top actions?",
        "item 225",
        "Was macht Brittle genau?",
        "In Catan, attack 3 and shield 1, how much damage?",
    ],
)
def test_no_computation_gives_null(client, question: str) -> None:
    assert asked(client, question)["computed"] is None


def test_post_ask_has_the_same_computed_field(client) -> None:
    question = "attacco 3, pesco +1 con lancio e poi x2: quanto fa al massimo?"
    posted = client.post("/v1/ask", json={"question": question})
    assert posted.status_code == 200
    assert posted.get_json()["computed"] == asked(client, question)["computed"]


def test_openapi_documents_the_computed_field(client) -> None:
    spec = client.get("/openapi.json").get_json()
    ask = spec["components"]["schemas"]["AskResponse"]["properties"]
    assert "computed" in ask
    computed = spec["components"]["schemas"]["ComputedOut"]
    assert set(computed["required"]) >= {"check", "input", "result", "summary", "missing"}


# -- the CLI and the bot ------------------------------------------------------------------------
def test_cli_prints_the_computed_answer(runner, index_dir) -> None:
    question = [
        "Shield",
        "1",
        "and",
        "Ward,",
        "a",
        "monster",
        "attacks",
        "me",
        "for",
        "7,",
        "how",
        "much",
        "damage",
        "do",
        "I",
        "take?",
    ]
    result = runner.invoke(cli, ["--index", str(index_dir), "ask", *question])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Computed (damage): You suffer 3 damage.")
    assert "[fh-clar-10]" in result.output
    as_json = runner.invoke(cli, ["--index", str(index_dir), "ask", "--json", *question])
    assert json.loads(as_json.output)["computed"]["result"]["damage"] == 3


def test_cli_names_what_is_missing(runner, index_dir) -> None:
    result = runner.invoke(
        cli, ["--index", str(index_dir), "ask", "Shield 2 against an attack, how much do I take?"]
    )
    assert result.exit_code == 0, result.output
    assert "Not in the question: attack" in result.output
    assert "Fill it in: rulings check damage with" in result.output


def test_bot_embed_shows_the_computed_answer_first(client) -> None:
    res = asked(client, "jeg har 0 kort på hånden og 1 i discard, er jeg udmattet?")
    embed = fit_embed(answer_embed(res, "https://rulings.example", "da"), "da")
    first = embed["fields"][0]
    assert first["name"] == "Beregnet ud fra dit spørgsmål (Udmattelse)"
    assert first["value"].startswith("**Du er udmattet.**")
    assert "https://rulings.example/r/fh-nl-2" in first["value"]  # each step's ruling linked


def test_bot_embed_without_computation_is_unchanged(client) -> None:
    res = asked(client, "can I do two top actions?")
    assert res["computed"] is None
    names = [f["name"] for f in answer_embed(res, None, "en")["fields"]]
    assert not any(name.startswith("Computed") for name in names)
