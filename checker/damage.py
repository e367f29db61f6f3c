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

MAX_MODIFIERS = 30
_MODIFIER = re.compile(
    r"(?:(?P<sign>[+-])(?P<n>\d+)|(?P<x2>x2)|(?P<null>null))(?P<rolling> rolling)?", re.IGNORECASE
)
_MODIFIER_FORMAT = "must be '+N', '-N', 'x2' or 'null', optionally followed by ' rolling'"
MODIFIER_PATTERN = "^([+-][0-9]{1,2}|[xX]2|[nN][uU][lL][lL])( [rR][oO][lL][lL][iI][nN][gG])?$"
NO_GH = "The archive holds no Gloomhaven ruling for this step"
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
    fh = req.game == "frosthaven"
    drawn = by_game(req.game, ("fh-nl-3", "fh-it-3"), ())
    gh_note = None if fh else f"{NO_GH}: modifiers are applied to the attack value before Shield."
    texts = ", ".join(m.text for m in req.modifiers)
    if not req.modifiers:
        return req.attack, [
            Step(
                "no attack modifier given: +0",
                req.attack,
                (),
                "No modifiers in the request: counted as +0 (no draw).",
            )
        ]
    nulls = [i for i, m in enumerate(req.modifiers) if m.kind == "null"]
    if nulls:
        return 0, [
            Step(
                f"Null drawn ('modifiers'[{nulls[0]}]) among {texts}: the damage is 0",
                0,
                by_game(req.game, ("fh-clar-15",), ("gh-example-null",)),
            )
        ]
    adds = tuple(m.amount for m in req.modifiers if m.kind == "add")
    doubles = sum(1 for m in req.modifiers if m.kind == "x2")
    value, expr = best_with_doubles(req.attack, adds, doubles)
    if doubles and adds:
        rulings = by_game(req.game, ("fh-nl-3", "fh-it-3", "fh-clar-15"), ())
        note = (
            None
            if fh
            else (
                f"{NO_GH}: the order of x2 and other modifiers is not "
                f"recorded; x2 is placed where it helps the attacker most."
            )
        )
        return value, [
            Step(
                f"apply {texts}; x2 placed where it helps the attacker most: {expr} = {value}",
                value,
                rulings,
                note,
            )
        ]
    return value, [Step(f"apply {texts}: {expr} = {value}", value, drawn, gh_note)]


def shield_ward_brittle(req: DamageRequest, value: int) -> tuple[int, bool, bool, list[Step]]:
    """Shield, then Ward / Brittle (Frosthaven); returns the value and which were removed."""
    steps: list[Step] = []
    if value < 0:
        value = 0
        steps.append(
            Step(
                "an attack cannot deal negative damage: 0",
                0,
                (),
                "The archive holds no ruling on attacks modified below 0; taken as 0 damage.",
            )
        )
    if req.shield:
        after = max(0, value - req.shield)
        steps.append(
            Step(
                f"Shield {req.shield}: {value} - {req.shield} (not below 0)",
                after,
                by_game(req.game, ("fh-nl-3", "fh-it-3", "fh-clar-10"), ()),
                None
                if req.game == "frosthaven"
                else f"{NO_GH}: Shield is subtracted after the modifiers.",
            )
        )
        value = after
    if not (req.ward or req.brittle):
        return value, False, False, steps
    names = " and ".join(n for n, on in (("Ward", req.ward), ("Brittle", req.brittle)) if on)
    if value < 1:
        steps.append(
            Step(
                f"no damage remains when {names} is reached: {names} stays", value, ("fh-clar-11",)
            )
        )
        return value, False, False, steps
    if req.ward and req.brittle:
        steps.append(
            Step(
                "Ward and Brittle together: they cancel out, the damage is unchanged",
                value,
                (),
                "The archive does not say how Ward and Brittle combine on "
                "one figure; they are taken to cancel each other (halve and double) "
                "so no order or rounding has to be chosen.",
            )
        )
    elif req.ward:
        if value % 2:
            steps.append(Step(f"Ward halves the damage: {value} / 2", value / 2, ("fh-clar-10",)))
            steps.append(
                Step(
                    "round the halved damage down",
                    value // 2,
                    (),
                    "The archive does not say how Ward's halving is rounded; rounded down.",
                )
            )
        else:
            steps.append(Step(f"Ward halves the damage: {value} / 2", value // 2, ("fh-clar-10",)))
        value //= 2
    else:
        value *= 2
        steps.append(Step(f"Brittle doubles the damage: {value // 2} x 2", value, ("fh-clar-10",)))
    whose = "their" if req.ward and req.brittle else "its"
    steps.append(
        Step(f"{names} removed: at least 1 damage remained at {whose} step", value, ("fh-clar-11",))
    )
    return value, req.ward, req.brittle, steps


def negation(req: DamageRequest, value: int) -> tuple[int, bool, list[Step]]:
    """Losing a card to negate the damage: after Ward / Brittle (fh-clar-12)."""
    if not req.negate:
        return value, False, []
    if value < 1:
        return (
            value,
            False,
            [
                Step(
                    "nothing left to negate: no card needs to be lost",
                    value,
                    (),
                    "The archive holds no ruling on negating 0 damage; no negation is counted.",
                )
            ],
        )
    fh = req.game == "frosthaven"
    note = None
    if fh and (req.ward or req.brittle):
        note = "Ward / Brittle were considered before the negation and are still spent."
    if not fh:
        note = f"{NO_GH}: negating by losing a card is taken to prevent all the damage."
    return (
        0,
        True,
        [
            Step(
                "a card is lost to negate the damage",
                0,
                by_game(req.game, ("fh-clar-12",), ()),
                note,
            )
        ],
    )


def compute(req: DamageRequest) -> DamageResult:
    """The damage a figure suffers from one attack (see the module docstring for the order)."""
    fh = req.game == "frosthaven"
    steps = [
        Step(
            f"attack value {req.attack} (all attack bonuses and penalties applied)",
            req.attack,
            by_game(req.game, ("fh-nl-3", "fh-it-3"), ()),
            None if fh else f"{NO_GH}: the attack value is taken as given.",
        )
    ]
    value, more = modifier_steps(req)
    steps += more
    value, ward_removed, brittle_removed, more = shield_ward_brittle(req, value)
    steps += more
    value, negated, more = negation(req, value)
    steps += more
    clar13 = by_game(req.game, ("fh-clar-13",), ())
    cap_note = None if fh else f"{NO_GH}: suffered damage is taken as capped by hit points."
    steps.append(
        Step(
            "damage the figure would suffer (not capped by hit points)",
            value,
            clar13,
            None if fh else f"{NO_GH}: 'would suffer' is the damage before the hit-point cap.",
        )
    )
    if req.hp is None:
        damage = value
        steps.append(Step("damage suffered (no 'hp' given: not capped)", damage, clar13, cap_note))
    else:
        damage = min(value, req.hp)
        steps.append(
            Step(
                f"damage suffered, capped by the remaining {req.hp} hit point(s)",
                damage,
                clar13,
                cap_note,
            )
        )
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
