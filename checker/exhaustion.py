"""Exhaustion check: is a character exhausted, and can it play two cards, rest, long rest?

Gloomhaven (gh-da-1): exhausted if hit points drop below 1, or if at the start of a round it
cannot play two cards (0 or 1 in hand) and cannot rest (0 or 1 in the discard pile).
Frosthaven (fh-nl-2 / fh-it-2): exhausted on reaching 0 hit points or without at least two cards
to play / rest; active bonus cards without lost icons count as discarded for whether a long rest
is possible (fh-errata-01).

Where the archive is silent (noted in the steps):
  - Frosthaven short rest: the archive states the two-card requirement only for resting in
    general; the errata covers the long rest only, so active bonuses are not counted for it;
  - Gloomhaven: gh-da-1 does not tell short and long rest apart (both need two discarded
    cards); no Gloomhaven ruling counts active bonus cards, so they are not counted;
  - an exhausted character is removed (gh-da-1 / fh-nl-2), so it can neither play nor rest.
'can_rest' is true when a short or a long rest is possible; 'can_short_rest' is also returned.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import Field

from checker.base import (
    CheckRequest,
    CheckResponse,
    Game,
    Int,
    Step,
    by_game,
    json_schema,
    parse_request,
    respond,
)
from checker.message import msg

MAX_CARDS = 99
#: Every ruling this check may cite.
RULINGS = frozenset({"gh-da-1", "fh-nl-2", "fh-it-2", "fh-errata-01"})


class ExhaustionRequest(CheckRequest):
    """A character's hit points and cards at the start of a round."""

    hp: Int | None = Field(
        default=None,
        ge=0,
        description=(
            "Current hit points; absent: the figure is taken as still standing and only its cards are checked."
        ),
    )
    hand: Int = Field(ge=0, le=MAX_CARDS)
    discard: Int = Field(ge=0, le=MAX_CARDS)
    active_bonuses: Int = Field(
        default=0, ge=0, le=MAX_CARDS, description="Active bonus cards WITHOUT lost icons."
    )


class ExhaustionResponse(CheckResponse):
    exhausted: bool
    can_play: bool = Field(description="Can play two cards.")
    can_rest: bool = Field(description="Can rest (short or long).")
    can_short_rest: bool
    can_long_rest: bool


@dataclass(frozen=True)
class ExhaustionResult:
    game: Game
    exhausted: bool
    can_play: bool
    can_rest: bool
    can_short_rest: bool
    can_long_rest: bool
    steps: tuple[Step, ...]

    def to_dict(self) -> dict[str, Any]:
        return respond(
            ExhaustionResponse,
            self.game,
            {
                "exhausted": self.exhausted,
                "can_play": self.can_play,
                "can_rest": self.can_rest,
                "can_short_rest": self.can_short_rest,
                "can_long_rest": self.can_long_rest,
            },
            self.steps,
        )


def parse(payload: Any) -> ExhaustionRequest:
    """Validate the JSON request (CheckInputError with a precise message)."""
    return parse_request(ExhaustionRequest, payload)


def _hit_points(req: ExhaustionRequest, rule: tuple[str, ...], steps: list[Step]) -> bool:
    """Whether the character is out of hit points (its step added to `steps`)."""
    if req.hp is None:
        # "1 card in hand and 1 in the discard, am I exhausted?" is answered by the cards alone:
        # the step says so instead of asking for a figure the answer does not depend on.
        hp_out = False
        steps.append(
            Step(
                msg(
                    "hit points not given: the character is taken as still standing (above 0), "
                    "only its cards are checked"
                ),
                False,
                rule,
            )
        )
    else:
        hp_out = req.hp < 1
        said = (
            msg("hit points %(hp)s: exhausted", hp=req.hp)
            if hp_out
            else msg("hit points %(hp)s: not below 1", hp=req.hp)
        )
        steps.append(Step(said, hp_out, rule))
    return hp_out


def _rests(req: ExhaustionRequest, rule: tuple[str, ...], steps: list[Step]) -> tuple[bool, bool]:
    """Whether a short and a long rest are possible (their steps added to `steps`)."""
    fh = req.game == "frosthaven"
    can_short = req.discard >= 2
    if fh:
        steps.append(
            Step(
                msg(
                    "%(discard)s card(s) in the discard pile: short rest possible",
                    discard=req.discard,
                )
                if can_short
                else msg(
                    "%(discard)s card(s) in the discard pile: short rest not possible",
                    discard=req.discard,
                ),
                can_short,
                rule,
                msg(
                    "The archive states the two-card requirement for resting in general "
                    "(fh-nl-2); short-rest eligibility is not stated separately, and the "
                    "active bonus errata covers the long rest only."
                ),
            )
        )
        pile = req.discard + req.active_bonuses
        can_long = pile >= 2
        counted = {"discard": req.discard, "bonuses": req.active_bonuses, "pile": pile}
        steps.append(
            Step(
                msg(
                    "%(discard)s discarded + %(bonuses)s active bonus card(s) without lost icons "
                    "= %(pile)s: long rest possible",
                    **counted,
                )
                if can_long
                else msg(
                    "%(discard)s discarded + %(bonuses)s active bonus card(s) without lost icons "
                    "= %(pile)s: long rest not possible",
                    **counted,
                ),
                can_long,
                ("fh-nl-2", "fh-it-2", "fh-errata-01"),
            )
        )
    else:
        can_long = can_short
        steps.append(
            Step(
                msg("%(discard)s card(s) in the discard pile: can rest", discard=req.discard)
                if can_short
                else msg(
                    "%(discard)s card(s) in the discard pile: cannot rest", discard=req.discard
                ),
                can_short,
                rule,
                msg(
                    "gh-da-1 does not tell short and long rest apart; both are taken to "
                    "need two cards in the discard pile."
                ),
            )
        )
        if req.active_bonuses:
            steps.append(
                Step(
                    msg(
                        "%(bonuses)s active bonus card(s) not counted as discarded",
                        bonuses=req.active_bonuses,
                    ),
                    can_short,
                    (),
                    msg(
                        "The archive holds no Gloomhaven ruling for this: active bonus cards are "
                        "not counted for resting."
                    ),
                )
            )
    return can_short, can_long


def compute(req: ExhaustionRequest) -> ExhaustionResult:
    """Exhaustion and what the character can still do at the start of the round."""
    fh = req.game == "frosthaven"
    rule = by_game(req.game, ("fh-nl-2", "fh-it-2"), ("gh-da-1",))
    steps: list[Step] = []
    hp_out = _hit_points(req, rule, steps)
    can_play = req.hand >= 2
    steps.append(
        Step(
            msg("%(hand)s card(s) in hand: can play two cards", hand=req.hand)
            if can_play
            else msg("%(hand)s card(s) in hand: cannot play two cards", hand=req.hand),
            can_play,
            rule,
        )
    )
    can_short, can_long = _rests(req, rule, steps)
    can_rest = can_short or can_long
    exhausted = hp_out or not (can_play or can_rest)
    steps.append(
        Step(
            msg("exhausted: yes (hit points)")
            if hp_out
            else msg("exhausted: yes (cannot play two cards and cannot rest)")
            if exhausted
            else msg("exhausted: no (can play two cards or rest)"),
            exhausted,
            rule
            + (
                ("fh-errata-01",)
                if fh and not exhausted and not hp_out and not can_play and not can_short
                else ()
            ),
            None
            if fh or hp_out
            else msg("gh-da-1: the card condition is checked at the start of a round."),
        )
    )
    if exhausted:
        steps.append(
            Step(
                msg(
                    "an exhausted character is removed from the scenario: it can neither play "
                    "nor rest"
                ),
                False,
                rule,
            )
        )
        can_play = can_rest = can_short = can_long = False
    return ExhaustionResult(
        req.game, exhausted, can_play, can_rest, can_short, can_long, tuple(steps)
    )


def run(payload: Any) -> dict[str, Any]:
    """Validate, compute, return the JSON response."""
    return compute(parse(payload)).to_dict()


# The check's models, as the registry and the OpenAPI document read them.
Request, Response = ExhaustionRequest, ExhaustionResponse
REQUEST_SCHEMA: dict[str, Any] = json_schema(ExhaustionRequest)
RESPONSE_SCHEMA: dict[str, Any] = json_schema(ExhaustionResponse, "serialization")

EXAMPLE: dict[str, Any] = {
    "game": "frosthaven",
    "hp": 5,
    "hand": 1,
    "discard": 1,
    "active_bonuses": 1,
}
