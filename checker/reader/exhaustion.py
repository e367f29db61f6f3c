"""Reading an exhaustion question: cards in hand, in the discard, active bonuses, hit points.

"jeg har 0 kort på hånden og 1 i discard, er jeg udmattet?" -> hand 0, discard 1. A number
goes to the pile word nearest it ("2 cards in hand", "hand: 2"); "no cards in hand" and
"my hand is empty" are 0. Hit points are not needed for the card condition and are never
reported missing (the exhaustion check takes a figure without them as still standing).
"""

from __future__ import annotations

from typing import Any

from checker.message import Sentence, msg
from checker.reader.reading import Reading
from checker.reader.scan import BARRIERS, Scan, Term

SLOTS = {
    "hand": "hand",
    "discard": "discard",
    "active_bonus": "active_bonuses",
    "hp": "hp",
    "lost": None,
}  # a number before "lost" is bound there so no pile takes it
NOUNS = frozenset(SLOTS)
CUES = ("exhausted", "rest", "long_rest", "short_rest")


def _empty_near(scan: Scan, term: Term, window: int = 3) -> bool:
    """ "my hand is empty", "leere Hand": an 'empty' word next to the pile word."""
    for empty in scan.find("empty"):
        lo, hi = sorted((empty.start, term.start))
        if hi - lo <= window and not any(scan.tokens[i].text in BARRIERS for i in range(lo, hi)):
            return True
    return False


def piles(scan: Scan) -> dict[str, int]:
    """The numbers bound to hand, discard, active bonuses and hit points."""
    terms = scan.find(*SLOTS)
    bound = scan.bind([(t, ((-1, 3), (1, 2))) for t in terms], NOUNS)
    values: dict[str, int] = {}
    for term in sorted(terms, key=lambda t: t.start):
        field = SLOTS[term.concept]
        if field is None or field in values:
            continue
        if term in bound:
            values[field] = scan.value(bound[term])
        elif field in ("hand", "discard") and _empty_near(scan, term):
            values[field] = 0
    return values


def read(scan: Scan, lang: str) -> Reading | None:
    """The exhaustion reading, or None when the question asks neither exhaustion nor rest."""
    if not scan.has(*CUES):
        return None
    scan.block()
    values = piles(scan)
    if not values.keys() & {"hand", "discard", "active_bonuses"}:
        return None
    request: dict[str, Any] = {
        k: values[k] for k in ("hp", "hand", "discard", "active_bonuses") if k in values
    }
    missing = [k for k in ("hand", "discard") if k not in values]
    notes: list[Sentence] = []
    if scan.has("damage", "attack", "attacked") and "hp" in request:
        # "3 hp and I take 4 damage": the hit points after the damage are not computed here
        del request["hp"]
        missing.append("hp")
        notes.append(
            msg("the hit points after the damage are not computed: give the hit points left")
        )
    asks = (
        "long_rest"
        if scan.has("long_rest")
        else "rest"
        if scan.has("rest", "short_rest") and not scan.has("exhausted")
        else "exhausted"
    )
    return Reading("exhaustion", request, missing, notes, lang, {"asks": asks})


__all__ = ["read"]
