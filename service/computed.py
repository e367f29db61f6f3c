"""One reading of a question's computation, shared by search and the answer.

The question reader (``checker.reader``) turns "Shield 1 and Ward, a monster attacks me for
7" into a damage request, and the check computes it with cited steps. The engine reads each
question once (``Computation.of``) and runs its check once per game it may be about; then:
  - search weighs, for each candidate ruling, whether the computation cites it (``cited``,
    passed to the searcher as data: the check that compares two drawn cards cites fh-clar-19
    or fh-clar-20 by what the cards are);
  - ``/v1/ask`` answers with the result beside the ruling (``answer``: the ``computed`` field),
    its game the question's, else the answered ruling's, reusing the check already run.
The check runs with the question's language: each step also says its action and note in it
(``action_local``, ``note_local``, from the gettext catalogues; ``action`` and ``note`` stay
the English reference), as ``POST /v1/check/<name>?lang=`` does (``run_check`` here).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from checker import run_check as run_english_check
from checker.base import GAMES, CheckInputError
from checker.message import Translate
from checker.reader import Reading, computed, read_question, with_game
from indexer.search.question import Question
from indexer.search.searcher import Searcher
from service.i18n import supported, translations

log = logging.getLogger(__name__)

#: A check's outcome: its response, or the refusal of the values read.
Outcome = dict[str, Any] | CheckInputError


@dataclass(frozen=True)
class Computation:
    """A question's reading (None: it asks for no computation) and its check's outcome for each
    game it was run for (the reading's game, else every checker game)."""

    reading: Reading | None
    outcomes: Mapping[str, Outcome] = field(default_factory=dict)

    @classmethod
    def of(cls, question: Question) -> "Computation":
        """Read the analysed question (its body, in its language, for its game) and run the
        check: once for the game read, else once for each checker game."""
        game = question.game if question.game in GAMES else None
        reading = read_question(question.body, question.lang, game)
        if reading is None or reading.missing:
            return cls(reading)
        games = [reading.input["game"]] if reading.input.get("game") else list(GAMES)
        return cls(reading, {g: _run(reading, g) for g in games})

    @property
    def cited(self) -> frozenset[str]:
        """The rulings the computation cites (for any game it ran for): what search weighs."""
        return frozenset(
            r
            for outcome in self.outcomes.values()
            if isinstance(outcome, dict)
            for r in outcome["rulings"]
        )

    def answer(self, game: str | None, answered_game: str | None) -> dict[str, Any] | None:
        """The `computed` field of an ask; None when the question asks for no computation or is
        about a game without a rules checker.

        `game` is the request's (or the question's) game; else the game read from the question;
        else `answered_game`, the answered ruling's: the game whose rulings state the rule asked
        about.
        """
        reading = self.reading
        if reading is None or (game is not None and game not in GAMES):
            return None
        if game is not None and reading.input.get("game") != game:
            reading = with_game(_without_game(reading), game)
        elif reading.input.get("game") is None and answered_game in GAMES:
            reading = with_game(reading, answered_game)
        chosen = reading.input.get("game")
        outcome = self.outcomes.get(chosen) if chosen else None
        if outcome is None and chosen and not reading.missing:
            outcome = _run(reading, chosen)  # a game the question's reading did not run for
        return computed(reading, outcome, translator(reading.lang))


def translator(lang: str | None) -> Translate:
    """The checker's sentences in `lang` (English, the msgids, when it has no catalogue)."""
    return translations(supported(lang)).gettext


def run_check(name: str, payload: Any, lang: str | None = None) -> dict[str, Any]:
    """Check `name`'s response to `payload`; with `lang`, each step (and the monster's
    explanation) also said in that language (``*_local``). UnknownCheck, CheckInputError."""
    return run_english_check(name, payload, translator(lang) if lang else None)


def _run(reading: Reading, game: str) -> Outcome:
    try:
        return run_check(reading.check, {**reading.input, "game": game}, reading.lang)
    except CheckInputError as err:  # e.g. Ward read in a question tried as Gloomhaven
        return err


def _without_game(reading: Reading) -> Reading:
    return replace(reading, input={**reading.input, "game": None})


def cited_by_questions(searcher: Searcher, texts: Iterable[str]) -> dict[str, frozenset[str]]:
    """Question -> the rulings its computation cites, each question analysed and read as an ask
    reads it: what calibration and evaluation give search for each question."""
    return {text: Computation.of(searcher.analyse(text)).cited for text in texts}
