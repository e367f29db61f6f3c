"""What the reader makes of a question: the check, its request as read, what is missing."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from checker.base import GAMES
from checker.message import Sentence, msg

MAX_VALUE = 99  # attack, Shield and hit points above this are read as a mistake, not a value


@dataclass(frozen=True)
class Reading:
    """A question read into a rules-checker request.

    `input` is the check's JSON request as read (its "game" may be None: see `with_game`);
    `missing` names the fields the answer depends on that the question does not give;
    `notes` are short remarks (a value out of range, a word taken one way). `wording` keeps
    what the summary sentence needs and the request does not hold (who suffers the damage,
    the card names as the asker wrote them, which question was asked).
    """

    check: str
    input: dict[str, Any]
    missing: list[str] = field(default_factory=list)
    notes: list[Sentence] = field(default_factory=list)
    lang: str = "en"
    wording: dict[str, Any] = field(default_factory=dict, compare=False)


def with_game(reading: Reading, game: str) -> Reading:
    """The reading with its game filled in (when the question named none).

    The caller passes the game of the ruling it retrieved for the question; a game the
    question itself named (or the request gave) is kept.
    """
    if reading.input.get("game") is not None:
        return reading
    notes = list(reading.notes)
    if game not in GAMES:
        notes.append(msg("game '%(game)s' has no rules checker", game=game))
    return replace(reading, input={**reading.input, "game": game}, notes=notes)


def out_of_range(
    label: Sentence,
    value: int,
    name: str,
    missing: list[str],
    notes: list[Sentence],
    wording: dict[str, Any],
) -> bool:
    """Record a value over MAX_VALUE (notes, missing, and for the summary); True if it was."""
    if value <= MAX_VALUE:
        return False
    notes.append(
        msg(
            "%(label)s %(value)s is over the maximum (%(max)s)",
            label=label,
            value=value,
            max=MAX_VALUE,
        )
    )
    if name not in missing:
        missing.append(name)
    wording.setdefault("out_of_range", []).append(name)
    return True


__all__ = ["MAX_VALUE", "Reading", "out_of_range", "with_game"]
