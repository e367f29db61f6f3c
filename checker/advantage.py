"""Advantage check: which of two drawn attack modifier cards is used, or "ambiguous".

Frosthaven: advantage uses the better card, disadvantage the worse (fh-nl-3 / fh-it-3). Every
non-numeric effect has a positive but unknown value: a card beats a card with fewer effects
(a subset of its own) when its number is not lower; cards with different effects cannot be
compared, whatever their numbers (fh-clar-19); identical effects are compared on their numbers
(fh-clar-20: +1 Stun beats +0 Stun). A Null makes the damage 0 (fh-clar-15).

Where the archive is silent (``rulings: []`` and a note):
  - a card with extra effects but a lower number (+0 Stun against +1): the effects' value is
    unknown, so the draw is reported ambiguous;
  - Null is ranked below every other number; x2 is worth 2 x 'attack' when 'attack' is given,
    otherwise it is counted as better than any +N (give 'attack' to compare numerically);
  - two equally good cards: card 0 is reported (either gives the same result);
  - how an ambiguous draw is then resolved;
  - Gloomhaven: the archive holds no advantage ruling (only gh-example-null, for Null): the
    cards are compared on their numbers, and cards whose effects differ are reported ambiguous.
Rolling modifiers are out of scope: exactly two non-rolling cards.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Literal

from checker.base import (GAME_SCHEMA, CheckInputError, Step, by_game, check_int, check_list,
                          check_object, check_str, open_request, reject_unknown_fields,
                          response, response_schema, shown)

Mode = Literal["advantage", "disadvantage"]
Chosen = Literal[0, 1, "ambiguous"]
MODES: tuple[str, ...] = ("advantage", "disadvantage")
FIELDS = {"game", "mode", "cards", "attack"}
CARD_FIELDS = {"value", "effects"}
MAX_EFFECTS = 10
_VALUE = re.compile(r"(?:(?P<sign>[+-])(?P<n>\d{1,2})|(?P<x2>x2)|(?P<null>null))", re.IGNORECASE)
NO_GH = "The archive holds no Gloomhaven ruling on advantage and disadvantage"


@dataclass(frozen=True)
class Card:
    """A drawn modifier card: its number (+N / -N / x2 / null) and its non-numeric effects."""

    value: str
    kind: Literal["add", "x2", "null"]
    amount: int
    effects: frozenset[str]


@dataclass(frozen=True)
class AdvantageRequest:
    game: str
    mode: Mode
    cards: tuple[Card, Card]
    attack: int | None = None


@dataclass(frozen=True)
class AdvantageResult:
    game: str
    chosen: Chosen
    steps: tuple[Step, ...]

    def to_dict(self) -> dict[str, Any]:
        return response(self.game, {"chosen": self.chosen}, self.steps)


# --- parsing ---------------------------------------------------------------------------------

def normal_effect(text: str) -> str:
    """Effects compare case- and spacing-insensitively ("Stun" == " stun ")."""
    return " ".join(text.split()).casefold()


def parse_card(raw: Any, index: int) -> Card:
    label = f"'cards'[{index}]"
    card = check_object(raw, label)
    reject_unknown_fields(card, CARD_FIELDS, label)
    if "value" not in card:
        raise CheckInputError(f"{label}.value is required")
    value = card["value"]
    if not isinstance(value, str):
        raise CheckInputError(f"{label}.value must be a string (got {shown(value)})")
    if value.lower().endswith(" rolling"):
        raise CheckInputError(f"{label}.value: rolling modifiers are out of scope for this check "
                              f"(got {shown(value)})")
    match = _VALUE.fullmatch(value)
    if not match:
        raise CheckInputError(f"{label}.value must be '+N' or '-N' (N from 0 to 99), 'x2' or "
                              f"'null' (got {shown(value)})")
    raw_effects = check_list(card.get("effects", []), f"{label}.effects", max_items=MAX_EFFECTS)
    effects: list[str] = []
    for j, eff in enumerate(raw_effects):
        text = normal_effect(check_str(eff, f"{label}.effects[{j}]"))
        if text in effects:
            raise CheckInputError(f"{label}.effects[{j}] repeats the effect {shown(eff)}")
        effects.append(text)
    if match["null"]:
        kind, amount, text = "null", 0, "null"
    elif match["x2"]:
        kind, amount, text = "x2", 0, "x2"
    else:
        amount = int(match["n"]) * (-1 if match["sign"] == "-" else 1)
        kind, text = "add", f"{match['sign']}{int(match['n'])}"
    return Card(text, kind, amount, frozenset(effects))


def parse(payload: Any) -> AdvantageRequest:
    """Validate the JSON request (CheckInputError with a precise message)."""
    payload, game = open_request(payload, FIELDS)
    mode = payload.get("mode")
    if mode not in MODES:
        raise CheckInputError(f"'mode' must be one of: {', '.join(MODES)} (got {shown(mode)})")
    if "cards" not in payload:
        raise CheckInputError("'cards' is required")
    raw = check_list(payload["cards"], "'cards'")
    if len(raw) != 2:
        raise CheckInputError(f"'cards' must hold exactly 2 cards (got {len(raw)})")
    cards = (parse_card(raw[0], 0), parse_card(raw[1], 1))
    attack = payload.get("attack")
    if attack is not None:
        attack = check_int(attack, "'attack'", minimum=0)
    return AdvantageRequest(game, mode, cards, attack)


# --- computation -----------------------------------------------------------------------------

def describe(card: Card) -> str:
    return card.value + "".join(f" {e}" for e in sorted(card.effects))


def number(card: Card, attack: int | None) -> float:
    """The card's number for comparison: Null lowest; x2 = 2 x attack, or above any +N."""
    if card.kind == "null":
        return -math.inf
    if card.kind == "x2":
        return math.inf if attack is None else 2 * attack
    return (attack or 0) + card.amount


def number_steps(req: AdvantageRequest) -> list[Step]:
    """How Null and x2 are given numbers (the rest is the card's own number)."""
    steps: list[Step] = []
    kinds = {c.kind for c in req.cards}
    if "null" in kinds:
        steps.append(Step("a Null makes the damage 0: it counts as the lowest number",
                          "null", by_game(req.game, ("fh-clar-15",), ("gh-example-null",)),
                          "Ranking the Null below every other number (even a -N that also ends "
                          "at 0 damage) is not stated in the archive."))
    if "x2" in kinds:
        if req.attack is None:
            steps.append(Step("x2 counted as better than any +N (no 'attack' given)", "x2", (),
                              "The archive holds no ruling on comparing x2 with numbers; without "
                              "'attack' x2 is ranked above every +N. Give 'attack' to compare "
                              "it numerically."))
        else:
            steps.append(Step(f"x2 with attack {req.attack} counts as {2 * req.attack} "
                              f"(a +N card as {req.attack} + N)", 2 * req.attack, (),
                              "The archive holds no ruling on comparing x2 with numbers; "
                              "compared by the resulting attack value."))
    return steps


def better_card(req: AdvantageRequest) -> tuple[int | Literal["equal", "ambiguous"], list[Step]]:
    """Which card is better: 0, 1, "equal" or "ambiguous"."""
    fh = req.game == "frosthaven"
    a, b = req.cards
    na, nb = number(a, req.attack), number(b, req.attack)
    by_number: int | Literal["equal"] = 0 if na > nb else 1 if nb > na else "equal"
    label = f"card 0 ({describe(a)}) against card 1 ({describe(b)})"
    if a.effects == b.effects:
        action = f"{label}: {'same effects' if a.effects else 'no effects'}, compared on numbers"
        if not fh:
            return by_number, [Step(action, by_number, (),
                                    f"{NO_GH}: the cards are compared on their numbers.")]
        if a.effects:
            return by_number, [Step(action, by_number, ("fh-clar-20",))]
        return by_number, [Step(action, by_number, (), "The archive holds no ruling on comparing "
                                "plain numbers; the higher number is taken as better.")]
    if not fh:
        return "ambiguous", [Step(f"{label}: their effects differ", "ambiguous", (),
                                  f"{NO_GH}: cards with different effects cannot be compared "
                                  f"from the archive.")]
    common = ("fh-clar-20",) if a.effects & b.effects else ()
    for more, less, idx in ((a, b, 0), (b, a, 1)):
        if less.effects < more.effects:
            extra = ", ".join(sorted(more.effects - less.effects))
            if number(more, req.attack) >= number(less, req.attack):
                return idx, [Step(f"{label}: card {idx} has extra effect(s) {extra} of positive "
                                  f"value and a number at least as good: card {idx} is better",
                                  idx, ("fh-clar-19", *common))]
            return "ambiguous", [
                Step(f"{label}: card {idx} has extra effect(s) {extra} of positive but unknown "
                     f"value", "ambiguous", ("fh-clar-19", *common)),
                Step(f"card {idx} has the lower number: cannot be compared", "ambiguous", (),
                     "The archive does not say whether an effect outweighs a higher number; "
                     "with an unknown positive value the draw is taken as ambiguous.")]
    return "ambiguous", [Step(f"{label}: different non-numeric effects cannot be compared; the "
                              f"numbers are irrelevant", "ambiguous", ("fh-clar-19",))]


def compute(req: AdvantageRequest) -> AdvantageResult:
    """The card used under advantage / disadvantage."""
    fh = req.game == "frosthaven"
    steps = number_steps(req)
    better, more = better_card(req)
    steps += more
    rule = by_game(req.game, ("fh-nl-3", "fh-it-3"), ())
    wanted = "better" if req.mode == "advantage" else "worse"
    note = None if fh else f"{NO_GH}: taken as using the {wanted} card."
    chosen: Chosen
    if better == "ambiguous":
        chosen = "ambiguous"
        steps.append(Step(f"{req.mode}: use the {wanted} card, which cannot be determined",
                          chosen, rule, (note + " " if note else "") +
                          "The archive does not say how an ambiguous draw is resolved."))
    elif better == "equal":
        chosen = 0
        steps.append(Step(f"{req.mode}: the cards are equally good, card 0 reported", chosen, rule,
                          (note + " " if note else "") + "Either card gives the same result; "
                          "which one is reported is not a rule."))
    else:
        chosen = better if req.mode == "advantage" else 1 - better
        steps.append(Step(f"{req.mode}: use the {wanted} card: card {chosen}", chosen, rule, note))
    return AdvantageResult(req.game, chosen, tuple(steps))


def run(payload: Any) -> dict[str, Any]:
    """Validate, compute, return the JSON response."""
    return compute(parse(payload)).to_dict()


_CARD_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["value"],
    "properties": {
        "value": {"type": "string", "pattern": "^([+-][0-9]{1,2}|[xX]2|[nN][uU][lL][lL])$"},
        "effects": {"type": "array", "maxItems": MAX_EFFECTS, "default": [],
                    "items": {"type": "string", "minLength": 1},
                    "description": "Non-numeric effects (conditions, elements, shield, heal...),"
                                   " compared case-insensitively; no repeats."},
    },
    "additionalProperties": False,
}

REQUEST_SCHEMA: dict[str, Any] = {
    "title": "AdvantageRequest",
    "type": "object",
    "required": ["game", "mode", "cards"],
    "properties": {
        "game": GAME_SCHEMA,
        "mode": {"type": "string", "enum": list(MODES)},
        "cards": {"type": "array", "minItems": 2, "maxItems": 2, "items": _CARD_SCHEMA,
                  "description": "The two cards drawn, in draw order (no rolling modifiers)."},
        "attack": {"type": ["integer", "null"], "minimum": 0, "default": None,
                   "description": "Attack value, to compare x2 numerically; without it x2 "
                                  "counts as better than any +N."},
    },
    "additionalProperties": False,
}

RESPONSE_SCHEMA: dict[str, Any] = response_schema("AdvantageResponse", {
    "chosen": {"oneOf": [{"type": "integer", "enum": [0, 1]},
                         {"type": "string", "enum": ["ambiguous"]}],
               "description": "Index of the card used, or 'ambiguous'."},
}, ["chosen"])

EXAMPLE: dict[str, Any] = {"game": "frosthaven", "mode": "advantage",
                           "cards": [{"value": "+0", "effects": ["stun"]},
                                     {"value": "+1", "effects": ["stun"]}]}
