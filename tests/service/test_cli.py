"""The `rulings` command: human output, --json, and one-line errors with a non-zero exit."""

from __future__ import annotations

import json

import pytest

from service.cli import cli

pytestmark = pytest.mark.slow


@pytest.fixture()
def invoke(runner, index_dir):
    def run(*args: str, input: str | None = None):
        return runner.invoke(cli, ["--index", str(index_dir), *args], input=input)

    return run


def test_ask_human_and_json(invoke):
    result = invoke("ask", "Shield 2 and Ward, I take 6 damage, how much?")
    assert result.exit_code == 0, result.output
    assert "[fh-clar-10]" in result.output and "boardgamegeek.com" in result.output
    data = json.loads(invoke("ask", "--json", "item 225 slot?").output)
    assert data["answer"]["id"] == "fh-errata-09"


def test_ask_declines_in_words(invoke):
    result = invoke("ask", "where can I buy pizza tonight?")
    assert result.exit_code == 0 and "No ruling answers this question." in result.output


def test_show_and_errata(invoke):
    result = invoke("show", "gh-da-4", "--lang", "en")
    assert (
        result.exit_code == 0 and "Translation (en" in result.output and "p. 29-30" in result.output
    )
    result = invoke("errata", "--json", "chilling breath")
    assert json.loads(result.output)["results"][0]["id"] == "fh-errata-04"


@pytest.mark.parametrize(
    "args, message",
    [
        (["show", "nope"], "Error: no ruling with id 'nope'"),
        (
            ["ask", "--game", "monopoly", "hi"],
            "Error: unknown game 'monopoly'; known games: frosthaven, gloomhaven, catan, wingspan",
        ),
        (
            ["check", "teleport", "-"],
            "Error: unknown check 'teleport'; known: damage, initiative, advantage, exhaustion, monster",
        ),
    ],
)
def test_errors_are_one_line(invoke, args, message):
    result = invoke(*args, input="{}")
    assert result.exit_code != 0
    assert result.output.strip().splitlines()[-1] == message


def test_check_damage_from_stdin(invoke):
    result = invoke(
        "check",
        "damage",
        input=json.dumps({"game": "frosthaven", "attack": 3, "modifiers": ["+1 rolling", "x2"]}),
    )
    assert result.exit_code == 0, result.output
    assert '"damage": 8' in result.output and "fh-clar-15" in result.output
    bad = invoke("check", "damage", input="{not json")
    assert bad.exit_code == 1 and bad.output.startswith("Error: the request is not valid JSON")


def test_missing_index_is_one_clear_line(runner, tmp_path):
    result = runner.invoke(cli, ["--index", str(tmp_path / "none"), "ask", "hi"])
    assert result.exit_code == 1
    assert result.output.strip() == f"Error: no index at {tmp_path / 'none'}; run `rulings build`"


def test_eval_writes_figures(invoke, tmp_path):
    from tests.conftest import REPO

    out = tmp_path / "eval.json"
    result = invoke("eval", str(REPO / "bench" / "eval" / "own.yaml"), "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "overall" in result.output
    assert json.loads(out.read_text())["overall"]["answerable"] == 175
