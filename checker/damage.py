"""Damage check: attack modifiers, Shield, Ward / Brittle, negation, suffered vs would suffer.

Order (Frosthaven): modifiers before shields and Ward (fh-nl-3 / fh-it-3); a Null anywhere makes
the damage 0 and a x2 goes wherever it helps the attacker most (fh-clar-15); Shield, then Ward
halves / Brittle doubles (fh-clar-10); they are removed only if at least 1 damage remains at
their step (fh-clar-11); losing a card to negate comes after them and still spends them
(fh-clar-12); "suffered" is capped by hit points, "would suffer" is not (fh-clar-13).

Where the archive is silent (each such step has ``rulings: []`` and a note):
  - Ward's halving of an odd number is rounded down;
  - Ward and Brittle on the same figure cancel each other out (damage unchanged), and both are
    removed under the same at-least-1-damage condition;
  - an attack modified below 0 deals 0;
  - Gloomhaven: only Null (gh-example-null) is in the archive; modifiers, Shield, negation and
    the hit-point cap are computed the same way without a citation. Ward and Brittle do not
    exist in Gloomhaven and are refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import AfterValidator, ConfigDict, Field, StrictStr, WithJsonSchema, model_validator

from checker.base import (
    Bool,
    CheckRequest,
    CheckResponse,
    Game,
    Int,
    Step,
    by_game,
    json_schema,
    parse_request,
    respond,
    shown,
)
from checker.message import Msg, msg

MAX_MODIFIERS = 30
_MODIFIER = re.compile(
    r"(?:(?P<sign>[+-])(?P<n>\d+)|(?P<x2>x2)|(?P<null>null))(?P<rolling> rolling)?", re.IGNORECASE
)
_MODIFIER_FORMAT = "must be '+N', '-N', 'x2' or 'null', optionally followed by ' rolling'"
MODIFIER_PATTERN = "^([+-][0-9]{1,2}|[xX]2|[nN][uU][lL][lL])( [rR][oO][lL][lL][iI][nN][gG])?$"
#: Every ruling this check may cite.
RULINGS = frozenset(
    {
        "fh-nl-3",
        "fh-it-3",
        "fh-clar-10",
        "fh-clar-11",
        "fh-clar-12",
        "fh-clar-13",
        "fh-clar-15",
        "gh-example-null",
    }
)


@dataclass(frozen=True)
class Modifier:
    """One attack modifier card: add `amount`, double (x2) or Null; maybe rolling."""

    kind: Literal["add", "x2", "null"]
    amount: int
    rolling: bool
    text: str


def parse_modifier(text: str) -> Modifier:
    """One entry of 'modifiers' (case-insensitive), or ValueError saying what is wrong."""
    match = _MODIFIER.fullmatch(text)
    if not match:
        raise ValueError(f"{_MODIFIER_FORMAT} (got {shown(text)})")
    rolling = match["rolling"] is not None
    if match["null"]:
        return Modifier("null", 0, rolling, text)
    if match["x2"]:
        return Modifier("x2", 0, rolling, text)
    digits = match["n"]
    if len(digits) > 2:
        raise ValueError(f": N in '+N' / '-N' must be from 0 to 99 (got {shown(text)})")
    amount = int(digits)
    return Modifier("add", -amount if match["sign"] == "-" else amount, rolling, text)


if TYPE_CHECKING:
    # What a validated request holds: parse_modifier turns each string into a Modifier.
    ModifierCard = Modifier
else:
    ModifierCard = Annotated[
        StrictStr,
        AfterValidator(parse_modifier),
        WithJsonSchema({"type": "string", "pattern": MODIFIER_PATTERN}),
    ]


class DamageRequest(CheckRequest):
    """One attack against one figure."""

    # Ward and Brittle exist only in Frosthaven: said in the schema too, for generated clients.
    model_config = ConfigDict(
        extra="forbid",
        frozen=True,
        json_schema_extra={
            "if": {"properties": {"game": {"const": "gloomhaven"}}, "required": ["game"]},
            "then": {"properties": {"ward": {"const": False}, "brittle": {"const": False}}},
        },
    )

    attack: Int = Field(ge=0, description="Attack value after all attack bonuses and penalties.")
    modifiers: tuple[ModifierCard, ...] = Field(
        default=(),
        max_length=MAX_MODIFIERS,
        description="Attack modifier cards drawn for this target, in order; none means +0.",
    )
    shield: Int = Field(default=0, ge=0)
    ward: Bool = Field(default=False, description="Frosthaven only.")
    brittle: Bool = Field(default=False, description="Frosthaven only.")
    hp: Int | None = Field(
        default=None,
        ge=1,
        description="Remaining hit points of the target; caps the damage suffered.",
    )
    negate: Bool = Field(default=False, description="A card is lost to negate the damage.")

    @model_validator(mode="after")
    def _frosthaven_conditions(self) -> "DamageRequest":
        if self.game == "gloomhaven":
            for name in ("ward", "brittle"):
                if getattr(self, name):
                    raise ValueError(
                        f"'{name}' does not exist in Gloomhaven (it is a Frosthaven "
                        f"condition): send false or leave it out"
                    )
        return self


class DamageResponse(CheckResponse):
    damage: int = Field(ge=0, description="Damage suffered (capped by hp).")
    would_suffer: int = Field(ge=0, description="Damage not capped by hp.")
    ward_removed: bool
    brittle_removed: bool
    negated: bool


@dataclass(frozen=True)
class DamageResult:
    game: Game
    damage: int
    would_suffer: int
    ward_removed: bool
    brittle_removed: bool
    negated: bool
    steps: tuple[Step, ...]

    def to_dict(self) -> dict[str, Any]:
        return respond(
            DamageResponse,
            self.game,
            {
                "damage": self.damage,
                "would_suffer": self.would_suffer,
                "ward_removed": self.ward_removed,
                "brittle_removed": self.brittle_removed,
                "negated": self.negated,
            },
            self.steps,
        )


def parse(payload: Any) -> DamageRequest:
    """Validate the JSON request (CheckInputError with a precise message)."""
    return parse_request(DamageRequest, payload)


# --- computation -----------------------------------------------------------------------------

#: The rule each Gloomhaven step the archive holds no ruling for takes (said in its note).
GLOOMHAVEN_RULES = {
    "attack": msg("the attack value is taken as given."),
    "modifiers": msg("modifiers are applied to the attack value before Shield."),
    "x2": msg(
        "the order of x2 and other modifiers is not recorded; x2 is placed where it helps the "
        "attacker most."
    ),
    "shield": msg("Shield is subtracted after the modifiers."),
    "negate": msg("negating by losing a card is taken to prevent all the damage."),
    "would_suffer": msg("'would suffer' is the damage before the hit-point cap."),
    "cap": msg("suffered damage is taken as capped by hit points."),
}


def gloomhaven_note(game: str, rule: str) -> Msg | None:
    """The note of a step Gloomhaven computes without a ruling; None for Frosthaven (cited)."""
    if game == "frosthaven":
        return None
    return msg(
        "The archive holds no Gloomhaven ruling for this step: %(rule)s",
        rule=GLOOMHAVEN_RULES[rule],
    )


def best_with_doubles(attack: int, adds: tuple[int, ...], doubles: int) -> tuple[int, str]:
    """Best total when each x2 may be inserted at any point among the additions (in draw order).

    Every later operation (adding, doubling) is monotone, so keeping the best value per
    (position, x2s used) is optimal. Returns the value and the expression, e.g. "(3+1)x2".
    """
    best: dict[int, tuple[int, str]] = {0: (attack, str(attack))}
    for amount in (*adds, None):
        # insert any number of remaining x2s at this point
        expanded: dict[int, tuple[int, str]] = {}
        for used, (value, expr) in best.items():
            for extra in range(doubles - used + 1):
                v, e = value, expr
                for _ in range(extra):
                    wrap = any(op in e for op in "+-") and not e.endswith("x2")
                    v, e = v * 2, f"({e})x2" if wrap else f"{e}x2"
                key = used + extra
                if key not in expanded or v > expanded[key][0]:
                    expanded[key] = (v, e)
        if amount is None:
            return expanded[doubles]
        best = {k: (v + amount, f"{e}{amount:+d}") for k, (v, e) in expanded.items()}
    raise AssertionError("unreachable")


def modifier_steps(req: DamageRequest) -> tuple[int, list[Step]]:
    """Apply the drawn modifiers to the attack value; the value before Shield."""
    drawn = by_game(req.game, ("fh-nl-3", "fh-it-3"), ())
    gh_note = gloomhaven_note(req.game, "modifiers")
    texts = ", ".join(m.text for m in req.modifiers)
    if not req.modifiers:
        return req.attack, [
            Step(
                msg("no attack modifier given: +0"),
                req.attack,
                (),
                msg("No modifiers in the request: counted as +0 (no draw)."),
            )
        ]
    nulls = [i for i, m in enumerate(req.modifiers) if m.kind == "null"]
    if nulls:
        return 0, [
            Step(
                msg(
                    "Null drawn ('modifiers'[%(index)s]) among %(cards)s: the damage is 0",
                    index=nulls[0],
                    cards=texts,
                ),
                0,
                by_game(req.game, ("fh-clar-15",), ("gh-example-null",)),
            )
        ]
    adds = tuple(m.amount for m in req.modifiers if m.kind == "add")
    doubles = sum(1 for m in req.modifiers if m.kind == "x2")
    value, expr = best_with_doubles(req.attack, adds, doubles)
    if doubles and adds:
        rulings = by_game(req.game, ("fh-nl-3", "fh-it-3", "fh-clar-15"), ())
        note = gloomhaven_note(req.game, "x2")
        return value, [
            Step(
                msg(
                    "apply %(cards)s; x2 placed where it helps the attacker most: "
                    "%(expression)s = %(value)s",
                    cards=texts,
                    expression=expr,
                    value=value,
                ),
                value,
                rulings,
                note,
            )
        ]
    said = msg(
        "apply %(cards)s: %(expression)s = %(value)s", cards=texts, expression=expr, value=value
    )
    return value, [Step(said, value, drawn, gh_note)]


def shield_ward_brittle(req: DamageRequest, value: int) -> tuple[int, bool, bool, list[Step]]:
    """Shield, then Ward / Brittle (Frosthaven); returns the value and which were removed."""
    steps: list[Step] = []
    if value < 0:
        value = 0
        steps.append(
            Step(
                msg("an attack cannot deal negative damage: 0"),
                0,
                (),
                msg("The archive holds no ruling on attacks modified below 0; taken as 0 damage."),
            )
        )
    if req.shield:
        after = max(0, value - req.shield)
        steps.append(
            Step(
                msg(
                    "Shield %(shield)s: %(value)s - %(shield)s (not below 0)",
                    shield=req.shield,
                    value=value,
                ),
                after,
                by_game(req.game, ("fh-nl-3", "fh-it-3", "fh-clar-10"), ()),
                gloomhaven_note(req.game, "shield"),
            )
        )
        value = after
    if not (req.ward or req.brittle):
        return value, False, False, steps
    both = req.ward and req.brittle
    names = msg("Ward and Brittle") if both else msg("Ward") if req.ward else msg("Brittle")
    if value < 1:
        said = msg("no damage remains when %(names)s is reached: %(names)s stays", names=names)
        steps.append(Step(said, value, ("fh-clar-11",)))
        return value, False, False, steps
    if both:
        steps.append(
            Step(
                msg("Ward and Brittle together: they cancel out, the damage is unchanged"),
                value,
                (),
                msg(
                    "The archive does not say how Ward and Brittle combine on "
                    "one figure; they are taken to cancel each other (halve and double) "
                    "so no order or rounding has to be chosen."
                ),
            )
        )
    elif req.ward:
        halves = msg("Ward halves the damage: %(value)s / 2", value=value)
        if value % 2:
            steps.append(Step(halves, value / 2, ("fh-clar-10",)))
            steps.append(
                Step(
                    msg("round the halved damage down"),
                    value // 2,
                    (),
                    msg("The archive does not say how Ward's halving is rounded; rounded down."),
                )
            )
        else:
            steps.append(Step(halves, value // 2, ("fh-clar-10",)))
        value //= 2
    else:
        value *= 2
        said = msg("Brittle doubles the damage: %(value)s x 2", value=value // 2)
        steps.append(Step(said, value, ("fh-clar-10",)))
    removed = (
        msg("Ward and Brittle removed: at least 1 damage remained at their step")
        if both
        else msg("%(names)s removed: at least 1 damage remained at its step", names=names)
    )
    steps.append(Step(removed, value, ("fh-clar-11",)))
    return value, req.ward, req.brittle, steps


def negation(req: DamageRequest, value: int) -> tuple[int, bool, list[Step]]:
    """Losing a card to negate the damage: after Ward / Brittle (fh-clar-12)."""
    if not req.negate:
        return value, False, []
    if value < 1:
        nothing = msg("nothing left to negate: no card needs to be lost")
        why = msg("The archive holds no ruling on negating 0 damage; no negation is counted.")
        return value, False, [Step(nothing, value, (), why)]
    fh = req.game == "frosthaven"
    note = None
    if fh and (req.ward or req.brittle):
        note = msg("Ward / Brittle were considered before the negation and are still spent.")
    if not fh:
        note = gloomhaven_note(req.game, "negate")
    said = msg("a card is lost to negate the damage")
    return 0, True, [Step(said, 0, by_game(req.game, ("fh-clar-12",), ()), note)]


def compute(req: DamageRequest) -> DamageResult:
    """The damage a figure suffers from one attack (see the module docstring for the order)."""
    steps = [
        Step(
            msg(
                "attack value %(attack)s (all attack bonuses and penalties applied)",
                attack=req.attack,
            ),
            req.attack,
            by_game(req.game, ("fh-nl-3", "fh-it-3"), ()),
            gloomhaven_note(req.game, "attack"),
        )
    ]
    value, more = modifier_steps(req)
    steps += more
    value, ward_removed, brittle_removed, more = shield_ward_brittle(req, value)
    steps += more
    value, negated, more = negation(req, value)
    steps += more
    clar13 = by_game(req.game, ("fh-clar-13",), ())
    cap_note = gloomhaven_note(req.game, "cap")
    steps.append(
        Step(
            msg("damage the figure would suffer (not capped by hit points)"),
            value,
            clar13,
            gloomhaven_note(req.game, "would_suffer"),
        )
    )
    if req.hp is None:
        damage = value
        said = msg("damage suffered (no 'hp' given: not capped)")
        steps.append(Step(said, damage, clar13, cap_note))
    else:
        damage = min(value, req.hp)
        said = msg("damage suffered, capped by the remaining %(hp)s hit point(s)", hp=req.hp)
        steps.append(Step(said, damage, clar13, cap_note))
    return DamageResult(
        req.game, damage, value, ward_removed, brittle_removed, negated, tuple(steps)
    )


def run(payload: Any) -> dict[str, Any]:
    """Validate, compute, return the JSON response."""
    return compute(parse(payload)).to_dict()


# The check's models, as the registry and the OpenAPI document read them.
Request, Response = DamageRequest, DamageResponse
REQUEST_SCHEMA: dict[str, Any] = json_schema(DamageRequest)
RESPONSE_SCHEMA: dict[str, Any] = json_schema(DamageResponse, "serialization")

EXAMPLE: dict[str, Any] = {
    "game": "frosthaven",
    "attack": 3,
    "modifiers": ["+1 rolling", "x2"],
    "shield": 2,
    "ward": True,
    "brittle": False,
    "hp": None,
    "negate": False,
}
