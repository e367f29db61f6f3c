"""The question reader: a player's rules question read into a rules-checker request.

    reading = read_question("Shield 1 and Ward, a monster attacks me for 7, how much damage "
                            "do I take?", "en", "frosthaven")
    computed(reading)  # {"check": "damage", "input": {...}, "result": {...damage: 3...},
                       #  "summary": "You suffer 3 damage.", "missing": [], "notes": []}

`read_question` returns None when the question asks for no computation (no numbers, or no
mechanical question: "what does Brittle do?", "item 225", "rulebook page 18"). It reads
with the vocabulary tables of ``vocab/<lang>.yaml`` (over the English one) and never
guesses: what the answer depends on and the question does not give is in `missing`.

The game: the `game` argument if given; else the game the question names ("Frosthaven",
"GH") or implies (Ward and Brittle, or a class only one game has); else
``input["game"]`` is None and the caller fills it with the game of the ruling it retrieved
for the question (`with_game(reading, game)`): the game whose rulings state the rule asked
about. `computed` does not run a check without a game.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from checker import run_check
from checker.base import GAMES, CheckInputError
from checker.message import Sentence, Translate, msg, render
from checker.reader import advantage, damage, exhaustion, initiative
from checker.reader.lexicon import lexicon
from checker.reader.reading import Reading, with_game
from checker.reader.scan import Scan, scan
from checker.reader.summary import summary

logger = logging.getLogger(__name__)

# Most specific first: "exhausted" and "advantage" are unmistakable words; an attack value
# also appears in advantage questions, so damage is read last.
READERS: tuple[Callable[[Scan, str], Reading | None], ...] = (
    exhaustion.read,
    advantage.read,
    initiative.read,
    damage.read,
)


def game_named(found: Scan) -> tuple[str | None, list[Sentence]]:
    """The game the question names or implies, and a note when it is unclear."""
    named = {t.concept.split(".", 1)[1] for t in found.find("game.")}
    if len(named) == 1:
        return named.pop(), []
    if named:
        return None, [msg("the question names both games")]
    implied = {t.concept.split(".", 1)[1] for t in found.find("class.")}
    if found.has("ward", "brittle"):
        implied.add("frosthaven")
    if len(implied) == 1:
        return implied.pop(), []
    return None, ([msg("the question mixes both games' terms")] if implied else [])


def read_question(text: str, lang: str, game: str | None = None) -> Reading | None:
    """The check request a question asks for, or None when it asks for no computation.

    `game` is the request's game (it wins over the question's words); a game with no rules
    checker gives None. See the module docstring for how the game is found otherwise.
    """
    if not isinstance(text, str) or not text.strip():
        return None
    if game is not None and game not in GAMES:
        return None
    lex = lexicon(lang)
    first = scan(text, lex)
    if not any(
        t.kind in ("num", "mod")
        or (t.number is not None and not t.weak and t.index not in first.term_of)
        for t in first.tokens
    ):
        return None  # no numbers ("null" or "double" alone are card names): nothing to compute
    for reader in READERS:
        fresh = Scan(first.tokens, first.terms, lex)  # each reader binds numbers anew
        reading = reader(fresh, lex.lang)
        if reading is not None:
            break
    else:
        return None
    named, notes = game_named(first)
    found_game = game if game is not None else named
    return replace(
        reading,
        input={"game": found_game, **reading.input},
        notes=notes + reading.notes,
        lang=lex.lang,
    )


def computed(
    reading: Reading,
    outcome: dict[str, Any] | CheckInputError | None = None,
    translate: Translate | None = None,
) -> dict[str, Any]:
    """The `computed` field of /v1/ask: check, input, result (or None), summary, missing, notes.

    The check runs only when nothing is missing and the game is known; a request the check
    refuses (CheckInputError) gives ``result: None`` with the check's message in notes.
    `outcome`: the check's response (or refusal) for this reading, when the caller has run it
    already; it is not run again. `translate`: the question's language's catalogue, for
    ``notes_local`` (the notes said in it; ``notes`` stay English).
    """
    notes: list[Sentence] = list(reading.notes)
    result: dict[str, Any] | None = None
    if not reading.missing and reading.input.get("game") is not None:
        if outcome is None:
            try:
                outcome = run_check(reading.check, reading.input)
            except CheckInputError as err:
                outcome = err
        if isinstance(outcome, CheckInputError):
            logger.info("check %s refused a read request: %s", reading.check, outcome)
            notes.append(str(outcome))  # the check's own message: English only
        else:
            result = outcome
    return {
        "check": reading.check,
        "input": reading.input,
        "result": result,
        "summary": summary(reading, result),
        "missing": list(reading.missing),
        "notes": [render(n) for n in notes],
        **({"notes_local": [render(n, translate) for n in notes]} if translate else {}),
    }


__all__ = ["Reading", "computed", "read_question", "with_game"]
