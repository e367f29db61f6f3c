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
from typing import TYPE_CHECKING, Annotated, Any, Literal, cast

from pydantic import AfterValidator, Field, StrictStr, WithJsonSchema, model_validator

from checker.base import (
    CheckModel,
    CheckRequest,
    CheckResponse,
    FieldProblem,
    Game,
    Int,
    Step,
    Text,
    by_game,
    json_schema,
    parse_request,
    respond,
    shown,
)
from checker.message import Msg, Sentence, join, msg

Mode = Literal["advantage", "disadvantage"]
Chosen = Literal[0, 1, "ambiguous"]
MAX_EFFECTS = 10
_VALUE = re.compile(r"(?:(?P<sign>[+-])(?P<n>\d{1,2})|(?P<x2>x2)|(?P<null>null))", re.IGNORECASE)
VALUE_PATTERN = "^([+-][0-9]{1,2}|[xX]2|[nN][uU][lL][lL])$"
#: Every ruling this check may cite.
RULINGS = frozenset(
    {"fh-nl-3", "fh-it-3", "fh-clar-19", "fh-clar-20", "fh-clar-15", "gh-example-null"}
)


@dataclass(frozen=True)
class Card:
    """A drawn modifier card: its number (+N / -N / x2 / null) and its non-numeric effects."""

    value: str
    kind: Literal["add", "x2", "null"]
    amount: int
    effects: frozenset[str]


def normal_effect(text: str) -> str:
    """Effects compare case- and spacing-insensitively ("Stun" == " stun ")."""
    return " ".join(text.split()).casefold()


def _card_value(value: str) -> str:
    if value.lower().endswith(" rolling"):
        raise ValueError(
            f": rolling modifiers are out of scope for this check (got {shown(value)})"
        )
    if not _VALUE.fullmatch(value):
        raise ValueError(
            f"must be '+N' or '-N' (N from 0 to 99), 'x2' or 'null' (got {shown(value)})"
        )
    return value


class DrawnCard(CheckModel):
    """One card as the request gives it."""

    value: Annotated[
        StrictStr,
        AfterValidator(_card_value),
        WithJsonSchema({"type": "string", "pattern": VALUE_PATTERN}),
    ]
    effects: tuple[Text, ...] = Field(
        default=(),
        max_length=MAX_EFFECTS,
        json_schema_extra={"uniqueItems": True},
        description="Non-numeric effects (conditions, elements, shield, heal...), compared "
        "case-insensitively; no repeats.",
    )

    @model_validator(mode="after")
    def _no_repeats(self) -> "DrawnCard":
        seen: list[str] = []
        for j, effect in enumerate(self.effects):
            if normal_effect(effect) in seen:
                raise FieldProblem(("effects", j), f"repeats the effect {shown(effect)}")
            seen.append(normal_effect(effect))
        return self

    def card(self) -> Card:
        """The card as the computation compares it."""
        match = _VALUE.fullmatch(self.value)
        assert match is not None  # the value was validated by _card_value against _VALUE
        effects = frozenset(normal_effect(e) for e in self.effects)
        if match["null"]:
            return Card("null", "null", 0, effects)
        if match["x2"]:
            return Card("x2", "x2", 0, effects)
        amount = int(match["n"]) * (-1 if match["sign"] == "-" else 1)
        return Card(f"{match['sign']}{int(match['n'])}", "add", amount, effects)


def _two_cards(drawn: tuple[DrawnCard, ...]) -> tuple[Card, Card]:
    if len(drawn) != 2:
        raise ValueError(f"must hold exactly 2 cards (got {len(drawn)})")
    return drawn[0].card(), drawn[1].card()


class AdvantageRequest(CheckRequest):
    """Two cards drawn with advantage or disadvantage."""

    mode: Mode
    if TYPE_CHECKING:
        # What a validated request holds: _two_cards turns the drawn cards into two Cards.
        cards: tuple[Card, Card]
    else:
        cards: Annotated[
            tuple[DrawnCard, ...],
            AfterValidator(_two_cards),
            Field(
                json_schema_extra={"minItems": 2, "maxItems": 2},
                description="The two cards drawn, in draw order (no rolling modifiers).",
            ),
        ]
    attack: Int | None = Field(
        default=None,
        ge=0,
        description=(
            "Attack value, to compare x2 numerically; without it x2 counts as better than any +N."
        ),
    )


class AdvantageResponse(CheckResponse):
    chosen: Chosen = Field(description="Index of the card used, or 'ambiguous'.")


@dataclass(frozen=True)
class AdvantageResult:
    game: Game
    chosen: Chosen
    steps: tuple[Step, ...]

    def to_dict(self) -> dict[str, Any]:
        return respond(AdvantageResponse, self.game, {"chosen": self.chosen}, self.steps)


def parse(payload: Any) -> AdvantageRequest:
    """Validate the JSON request (CheckInputError with a precise message)."""
    return parse_request(AdvantageRequest, payload)


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
        steps.append(
            Step(
                msg("a Null makes the damage 0: it counts as the lowest number"),
                "null",
                by_game(req.game, ("fh-clar-15",), ("gh-example-null",)),
                msg(
                    "Ranking the Null below every other number (even a -N that also ends "
                    "at 0 damage) is not stated in the archive."
                ),
            )
        )
    if "x2" in kinds:
        if req.attack is None:
            steps.append(
                Step(
                    msg("x2 counted as better than any +N (no 'attack' given)"),
                    "x2",
                    (),
                    msg(
                        "The archive holds no ruling on comparing x2 with numbers; without "
                        "'attack' x2 is ranked above every +N. Give 'attack' to compare "
                        "it numerically."
                    ),
                )
            )
        else:
            steps.append(
                Step(
                    msg(
                        "x2 with attack %(attack)s counts as %(doubled)s (a +N card as "
                        "%(attack)s + N)",
                        attack=req.attack,
                        doubled=2 * req.attack,
                    ),
                    2 * req.attack,
                    (),
                    msg(
                        "The archive holds no ruling on comparing x2 with numbers; compared by "
                        "the resulting attack value."
                    ),
                )
            )
    return steps


def _gloomhaven_note(rule: Msg) -> Msg:
    """A Gloomhaven step's note: the archive holds no ruling, and the rule taken instead."""
    return msg(
        "The archive holds no Gloomhaven ruling on advantage and disadvantage: %(rule)s", rule=rule
    )


def better_card(req: AdvantageRequest) -> tuple[int | Literal["equal", "ambiguous"], list[Step]]:
    """Which card is better: 0, 1, "equal" or "ambiguous"."""
    fh = req.game == "frosthaven"
    a, b = req.cards
    na, nb = number(a, req.attack), number(b, req.attack)
    by_number: int | Literal["equal"] = 0 if na > nb else 1 if nb > na else "equal"
    label = msg(
        "card 0 (%(first)s) against card 1 (%(second)s)", first=describe(a), second=describe(b)
    )
    if a.effects == b.effects:
        action = (
            msg("%(cards)s: same effects, compared on numbers", cards=label)
            if a.effects
            else msg("%(cards)s: no effects, compared on numbers", cards=label)
        )
        if not fh:
            note = _gloomhaven_note(msg("the cards are compared on their numbers."))
            return by_number, [Step(action, by_number, (), note)]
        if a.effects:
            return by_number, [Step(action, by_number, ("fh-clar-20",))]
        note = msg(
            "The archive holds no ruling on comparing plain numbers; the higher number is taken "
            "as better."
        )
        return by_number, [Step(action, by_number, (), note)]
    if not fh:
        note = _gloomhaven_note(
            msg("cards with different effects cannot be compared from the archive.")
        )
        return "ambiguous", [
            Step(msg("%(cards)s: their effects differ", cards=label), "ambiguous", (), note)
        ]
    return _different_effects(req, label)


def _different_effects(
    req: AdvantageRequest, label: Msg
) -> tuple[int | Literal["ambiguous"], list[Step]]:
    """Frosthaven cards whose effects differ: only a card with more effects and a number at
    least as good is better (fh-clar-19)."""
    a, b = req.cards
    common = ("fh-clar-20",) if a.effects & b.effects else ()
    for more, less, idx in ((a, b, 0), (b, a, 1)):
        if less.effects < more.effects:
            values = {
                "cards": label,
                "card": idx,
                "extra": ", ".join(sorted(more.effects - less.effects)),
            }
            if number(more, req.attack) >= number(less, req.attack):
                better = msg(
                    "%(cards)s: card %(card)s has extra effect(s) %(extra)s of positive value and "
                    "a number at least as good: card %(card)s is better",
                    **values,
                )
                return idx, [Step(better, idx, ("fh-clar-19", *common))]
            unknown = msg(
                "%(cards)s: card %(card)s has extra effect(s) %(extra)s of positive but unknown "
                "value",
                **values,
            )
            why = msg(
                "The archive does not say whether an effect outweighs a higher number; "
                "with an unknown positive value the draw is taken as ambiguous."
            )
            return "ambiguous", [
                Step(unknown, "ambiguous", ("fh-clar-19", *common)),
                Step(
                    msg("card %(card)s has the lower number: cannot be compared", card=idx),
                    "ambiguous",
                    (),
                    why,
                ),
            ]
    differ = msg(
        "%(cards)s: different non-numeric effects cannot be compared; the numbers are irrelevant",
        cards=label,
    )
    return "ambiguous", [Step(differ, "ambiguous", ("fh-clar-19",))]


def _with_note(note: Msg | None, why: Msg) -> Sentence:
    """The Gloomhaven note (if any), then why the step reports what it does."""
    return join([note, why]) if note else why


def compute(req: AdvantageRequest) -> AdvantageResult:
    """The card used under advantage / disadvantage."""
    fh = req.game == "frosthaven"
    steps = number_steps(req)
    better, more = better_card(req)
    steps += more
    rule = by_game(req.game, ("fh-nl-3", "fh-it-3"), ())
    adv = req.mode == "advantage"
    note = None
    if not fh:
        note = _gloomhaven_note(
            msg("taken as using the better card.") if adv else msg("taken as using the worse card.")
        )
    chosen: Chosen
    if better == "ambiguous":
        chosen = "ambiguous"
        action = (
            msg("advantage: use the better card, which cannot be determined")
            if adv
            else msg("disadvantage: use the worse card, which cannot be determined")
        )
        why = msg("The archive does not say how an ambiguous draw is resolved.")
        steps.append(Step(action, chosen, rule, _with_note(note, why)))
    elif better == "equal":
        chosen = 0
        action = (
            msg("advantage: the cards are equally good, card 0 reported")
            if adv
            else msg("disadvantage: the cards are equally good, card 0 reported")
        )
        why = msg("Either card gives the same result; which one is reported is not a rule.")
        steps.append(Step(action, chosen, rule, _with_note(note, why)))
    else:
        # better is 0 or 1 here, and so is the chosen index
        chosen = cast(Chosen, better if adv else 1 - better)
        action = (
            msg("advantage: use the better card: card %(card)s", card=chosen)
            if adv
            else msg("disadvantage: use the worse card: card %(card)s", card=chosen)
        )
        steps.append(Step(action, chosen, rule, note))
    return AdvantageResult(req.game, chosen, tuple(steps))


def run(payload: Any) -> dict[str, Any]:
    """Validate, compute, return the JSON response."""
    return compute(parse(payload)).to_dict()


# The check's models, as the registry and the OpenAPI document read them.
Request, Response = AdvantageRequest, AdvantageResponse
REQUEST_SCHEMA: dict[str, Any] = json_schema(AdvantageRequest)
RESPONSE_SCHEMA: dict[str, Any] = json_schema(AdvantageResponse, "serialization")

EXAMPLE: dict[str, Any] = {
    "game": "frosthaven",
    "mode": "advantage",
    "cards": [{"value": "+0", "effects": ["stun"]}, {"value": "+1", "effects": ["stun"]}],
}
