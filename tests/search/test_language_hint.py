"""The reader's language as a prior for detecting the question's (issue: the answer first)."""

from __future__ import annotations

import pytest
import yaml

from indexer.language import detect_language
from indexer.paths import REPO_ROOT

SETS = (
    *(REPO_ROOT.parent / "shared" / "eval" / n for n in ("dev.yaml", "dev-outside.yaml")),
    REPO_ROOT / "bench" / "eval" / "own.yaml",
    REPO_ROOT / "bench" / "eval" / "own-outside.yaml",
    REPO_ROOT / "tests" / "data" / "rulebooks" / "questions.yaml",
)


def _questions() -> list[tuple[str, str]]:
    found = []
    for path in SETS:
        if path.exists():
            found += [
                (q["q"], q["lang"]) for q in yaml.safe_load(path.read_text()) if q.get("lang")
            ]
    return found


def test_no_question_read_right_today_turns_wrong_with_its_own_language_as_hint():
    questions = _questions()
    assert len(questions) > 500
    right_before = {q for q, lang in questions if detect_language(q) == lang}
    with_hint = {q for q, lang in questions if detect_language(q, hint=lang) == lang}
    assert right_before <= with_hint
    assert len(with_hint) == len(questions)  # the short ones misread before are read right now


@pytest.mark.parametrize(
    ("text", "hint", "lang"),
    [
        ("Can monsters open doors?", "en", "en"),  # read as Dutch without the hint
        ("item 225 errata?", "en", "en"),
        ("Danke, super!", "de", "de"),
        ("carte Garde de la ville 1451 errata", "fr", "fr"),
        # Clearly another language: the hint does not overrule it.
        ("Hvornår er jeg udmattet hvis jeg har 1 kort på hånden og 0 i discard?", "en", "da"),
        ("Wie viel Schaden bekomme ich mit Schild 1 gegen Angriff 3?", "fr", "de"),
        ("Can a monster with shield 2 be hit for full damage by a pierce attack?", "da", "en"),
    ],
)
def test_a_short_question_takes_the_hint_a_clear_one_keeps_its_language(text, hint, lang):
    assert detect_language(text, hint=hint) == lang


def test_no_hint_or_an_unknown_one_changes_nothing():
    for text, _ in _questions()[:200]:
        assert detect_language(text, hint=None) == detect_language(text)
        assert detect_language(text, hint="pt") == detect_language(text)


def test_the_api_reads_accept_language_as_the_hint(fast_client):
    plain = fast_client.get("/v1/ask", query_string={"q": "Can monsters open doors?"}).get_json()
    hinted = fast_client.get(
        "/v1/ask",
        query_string={"q": "Can monsters open doors?"},
        headers={"Accept-Language": "en-GB,en;q=0.9"},
    ).get_json()
    danish = fast_client.get(
        "/v1/ask", query_string={"q": "item 225"}, headers={"Accept-Language": "da-DK"}
    ).get_json()
    assert (plain["lang"], hinted["lang"], danish["lang"]) == ("nl", "en", "da")
