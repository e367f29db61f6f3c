"""The project's own question sets (bench/eval/own.yaml, own-outside.yaml) are well-formed.

Fast and model-free: every file loads with the evaluator's own loader, every expected id is a
stored record, the seven languages are all there and no other, no question is asked twice, every
record is expected at least once among the answerable questions, and the game field is valid.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import yaml

from indexer.search.evaluate import LabelledQuestion, load_questions
from tests.conftest import REPO

EVAL_DIR = REPO / "bench" / "eval"
OWN = EVAL_DIR / "own.yaml"
OWN_OUTSIDE = EVAL_DIR / "own-outside.yaml"
RECORDS_DIR = REPO / "rulings" / "records"
SHARED_EVAL = REPO.parent / "shared" / "eval"

LANGUAGES = {"en", "nl", "da", "it", "de", "es", "fr"}
GAMES = {"frosthaven", "gloomhaven", "catan", "wingspan", None}
# The brief's floor per language: 22 answerable and 14 unanswerable questions.
MIN_PER_LANGUAGE = {OWN: 22, OWN_OUTSIDE: 14}


def record_ids() -> set[str]:
    return {path.stem for path in RECORDS_DIR.glob("*.yaml")}


def normalised(text: str) -> str:
    """A question reduced to its words, so that case and spacing do not hide a repeat."""
    return " ".join(text.casefold().split())


@pytest.fixture(scope="module")
def own() -> list[LabelledQuestion]:
    return load_questions(OWN)


@pytest.fixture(scope="module")
def outside() -> list[LabelledQuestion]:
    return load_questions(OWN_OUTSIDE)


@pytest.mark.parametrize("path", [OWN, OWN_OUTSIDE], ids=lambda p: p.name)
def test_every_item_has_exactly_the_four_fields(path: Path) -> None:
    items = yaml.safe_load(path.read_text(encoding="utf-8"))
    for item in items:
        assert set(item) == {"q", "lang", "game", "expect"}, item


@pytest.mark.parametrize("path", [OWN, OWN_OUTSIDE], ids=lambda p: p.name)
def test_languages_are_the_seven_each_with_enough_questions(path: Path) -> None:
    per_language = Counter(q.lang for q in load_questions(path))
    assert set(per_language) == LANGUAGES
    short = {lang: n for lang, n in per_language.items() if n < MIN_PER_LANGUAGE[path]}
    assert not short, f"{path.name}: too few questions in {short}"


@pytest.mark.parametrize("path", [OWN, OWN_OUTSIDE], ids=lambda p: p.name)
def test_game_field_is_valid(path: Path) -> None:
    bad = [(q.q, q.game) for q in load_questions(path) if q.game not in GAMES]
    assert not bad


def test_every_expected_id_is_a_stored_record(own: list[LabelledQuestion]) -> None:
    known = record_ids()
    unknown = {(q.q, i) for q in own for i in q.expect if i not in known}
    assert not unknown


def test_own_questions_are_all_answerable_and_outside_all_unanswerable(
    own: list[LabelledQuestion], outside: list[LabelledQuestion]
) -> None:
    assert all(q.expect for q in own)
    assert not [q.q for q in outside if q.expect]


def test_no_expected_id_is_listed_twice(own: list[LabelledQuestion]) -> None:
    assert not [q.q for q in own if len(set(q.expect)) != len(q.expect)]


def test_every_record_is_expected_at_least_once(own: list[LabelledQuestion]) -> None:
    expected = {i for q in own for i in q.expect}
    assert record_ids() - expected == set()


def test_same_rule_editions_are_listed_together(own: list[LabelledQuestion]) -> None:
    """fh-nl-N and fh-it-N are one rule: a question answered by one is answered by both."""
    for q in own:
        for n in range(1, 7):
            pair = {f"fh-nl-{n}", f"fh-it-{n}"}
            assert len(pair & set(q.expect)) in (0, 2), q.q


def test_no_question_is_asked_twice(
    own: list[LabelledQuestion], outside: list[LabelledQuestion]
) -> None:
    counts = Counter(normalised(q.q) for q in own + outside)
    assert [text for text, n in counts.items() if n > 1] == []


@pytest.mark.skipif(not (SHARED_EVAL / "dev.yaml").exists(), reason="shared dev sets not here")
def test_no_question_repeats_a_shared_dev_question(
    own: list[LabelledQuestion], outside: list[LabelledQuestion]
) -> None:
    shared = {
        normalised(q.q)
        for name in ("dev.yaml", "dev-outside.yaml")
        for q in load_questions(SHARED_EVAL / name)
    }
    assert [q.q for q in own + outside if normalised(q.q) in shared] == []
