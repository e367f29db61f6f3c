"""What the monster check answers: the options the players choose among, and the result."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from checker.base import CheckResponse, Game, Step, respond
from checker.hexgrid import Hex
from checker.message import Sentence, render

HexOut = list[int]


class OptionOut(BaseModel):
    model_config = ConfigDict(extra="forbid")
    destination: HexOut = Field(description="[column, row] where the monster ends its move.")
    attacks: list[HexOut] = Field(description="The hexes of the figures it attacks.")
    toward: list[HexOut] = Field(
        default=[],
        description="When it cannot attack this turn: the attack hex(es) it moves toward.",
    )
    focus: list[HexOut] = Field(default=[], description="The focus this option serves.")


class MonsterResponse(CheckResponse):
    focus: list[HexOut] = Field(
        description="The focus; more than one hex only when the players choose the focus."
    )
    options: list[OptionOut] = Field(
        description="Every equally valid choice; the players choose among them."
    )
    explanation: str
    explanation_local: str | None = Field(
        default=None,
        description="`explanation` in the language asked for (`lang`); present only when one is.",
    )


def hex_json(h: Hex) -> list[int]:
    """A hex as it appears in the response: [column, row]."""
    return [h[0], h[1]]


@dataclass(frozen=True)
class Option:
    """One equally valid choice: where the monster ends its move and whom it attacks.

    `toward`: when it cannot attack this turn, the attack hex(es) it moves toward; `focus`:
    the focus the option serves (more than one only if two focuses lead to the same move)."""

    destination: Hex
    attacks: tuple[Hex, ...]
    toward: tuple[Hex, ...] = ()
    focus: tuple[Hex, ...] = ()

    @property
    def key(self) -> tuple[Hex, tuple[Hex, ...]]:
        """What makes two options the same choice for the players."""
        return (self.destination, self.attacks)

    def merged(self, other: "Option") -> "Option":
        """This option and `other` (the same move) as one, with both reasons."""
        return Option(
            self.destination,
            self.attacks,
            tuple(sorted(set(self.toward) | set(other.toward))),
            tuple(sorted(set(self.focus) | set(other.focus))),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "destination": hex_json(self.destination),
            "attacks": [hex_json(h) for h in self.attacks],
            "toward": [hex_json(h) for h in self.toward],
            "focus": [hex_json(h) for h in self.focus],
        }


def merge_options(options: list[Option]) -> list[Option]:
    """One option per distinct move, sorted (destination, then attacks)."""
    by_key: dict[tuple[Hex, tuple[Hex, ...]], Option] = {}
    for o in options:
        by_key[o.key] = by_key[o.key].merged(o) if o.key in by_key else o
    return [by_key[k] for k in sorted(by_key)]


@dataclass(frozen=True)
class MonsterResult:
    game: Game
    focus: tuple[Hex, ...]
    options: tuple[Option, ...]
    explanation: Sentence
    steps: tuple[Step, ...]

    def to_dict(self) -> dict[str, Any]:
        return respond(
            MonsterResponse,
            self.game,
            {
                "focus": [hex_json(h) for h in self.focus],
                "options": [o.to_dict() for o in self.options],
                "explanation": render(self.explanation),
            },
            self.steps,
        )
