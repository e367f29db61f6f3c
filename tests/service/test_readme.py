"""Every example in the README answers as the README says (real model, real index).

The README shows these commands and, in comments, what they answer; this test runs the same
requests and checks the same facts, so the two cannot drift apart.
"""

from __future__ import annotations

import json

import pytest

from service.cli import cli
from tests.conftest import REPO

README = (REPO / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "snippet",
    [
        "curl 'localhost:8000/v1/ask?q=can+I+do+two+top+actions'",
        '"Tengo Escudo 2 y Ward y me hacen 8 de daño"',
        "curl 'localhost:8000/v1/rulings?card=chiling+breth'",
        "curl 'localhost:8000/v1/rulings/fh-errata-09?lang=de'",
        'rulings ask "Frosthaven: wann handelt meine Beschwörung?"',
        'rulings ask --json --game GH "do traps trigger when I step in?"',
        'rulings errata "item 225"',
    ],
)
def test_the_readme_still_shows_the_example(snippet):
    assert snippet in README


def test_http_examples(client):
    body = client.get("/v1/ask", query_string={"q": "can I do two top actions"}).get_json()
    assert body["answer"]["id"] in ("fh-it-1", "fh-nl-1")
    assert body["answer"]["citation"]["pages"] == ["18", "20", "34"]
    assert body["answer"]["translation"]["lang"] == "en"
    body = client.post(
        "/v1/ask", json={"question": "Tengo Escudo 2 y Ward y me hacen 8 de daño", "k": 2}
    ).get_json()
    assert body["answer"]["id"] == "fh-clar-10" and len(body["matches"]) == 2
    body = client.get("/v1/rulings", query_string={"card": "chiling breth"}).get_json()
    assert body["results"][0]["id"] == "fh-errata-04"
    body = client.get("/v1/rulings/fh-errata-09?lang=de").get_json()
    assert body["translation"]["lang"] == "de"
    body = client.post(
        "/v1/check/damage", json={"game": "frosthaven", "attack": 6, "shield": 2, "ward": True}
    ).get_json()
    assert body["damage"] == 2 and "fh-clar-10" in body["rulings"]


def test_cli_examples(runner, index_dir):
    def run(*args, input=None):
        result = runner.invoke(cli, ["--index", str(index_dir), *args], input=input)
        assert result.exit_code == 0, result.output
        return result.output

    summon = json.loads(run("ask", "--json", "Frosthaven: wann handelt meine Beschwörung?"))
    assert not summon["declined"] and summon["answer"]["id"] in ("fh-nl-5", "fh-it-5")
    traps = json.loads(run("ask", "--json", "--game", "GH", "do traps trigger when I step in?"))
    assert not traps["declined"] and traps["answer"]["id"] == "gh-da-3"
    assert "[fh-clar-15]" in run("show", "fh-clar-15", "--lang", "it")
    assert "[fh-errata-09]" in run("errata", "item 225")
    damage = run(
        "check", "damage", input='{"game":"frosthaven","attack":3,"modifiers":["+1 rolling","x2"]}'
    )
    assert '"damage": 8' in damage
