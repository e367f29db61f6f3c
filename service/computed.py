"""Computed answers from the question's own words, and what they tell retrieval.

The question reader (``checker.reader``) turns "Shield 1 and Ward, a monster attacks me for
7" into a damage request; the check computes it with cited steps. Two users of that here:
  - ``/v1/ask`` answers with the result beside the ruling (``computed``), filling the game from
    the answered ruling when the question names none;
  - search weighs, for each candidate ruling, whether the computation cites it (the check that
    compares two drawn cards cites fh-clar-19 or fh-clar-20 by what the cards are), passed to
    the searcher as `cited_by_computation`.
"""
from __future__ import annotations

import logging
from typing import Any

from checker import run_check
from checker.base import GAMES, CheckInputError
from checker.reader import computed, read_question, with_game

log = logging.getLogger(__name__)


def computed_answer(question: str, lang: str, game: str | None,
                    answered_game: str | None) -> dict[str, Any] | None:
    """The `computed` field of an ask: None when the question asks for no computation.

    `game` is the request's (or the question's) game; else the answered ruling's game is the
    game whose rulings state the rule asked about.
    """
    reading = read_question(question, lang, game)   # a game without a checker: None
    if reading is None:
        return None
    if reading.input.get("game") is None and answered_game in GAMES:
        reading = with_game(reading, answered_game)
    return computed(reading)


def cited_by_computation(text: str, lang: str, game: str | None) -> frozenset[str]:
    """The rulings a computation of the question cites (every checker game when it names
    none); empty when the question asks for no computation or misses what it needs."""
    reading = read_question(text, lang, game if game in GAMES else None)
    if reading is None or reading.missing:
        return frozenset()
    games = [reading.input["game"]] if reading.input.get("game") else list(GAMES)
    cited: set[str] = set()
    for g in games:
        try:
            cited.update(run_check(reading.check, {**reading.input, "game": g})["rulings"])
        except CheckInputError:
            continue  # e.g. Ward read in a question tried as Gloomhaven
    return frozenset(cited)
