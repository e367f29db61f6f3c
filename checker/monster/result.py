"""What the monster check answers: the options the players choose among, and the result."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from checker.base import CheckResponse, Step, respond
from checker.hexgrid import Hex

HexOut = list[int]


class OptionOut(BaseModel):
    model_config = ConfigDict(extra="forbid")
    destination: HexOut = Field(description="[column, row] where the monster ends its move.")
    attacks: list[HexOut] = Field(description="The hexes of the figures it attacks.")


class MonsterResponse(CheckResponse):
    focus: list[HexOut] = Field(description="The focus; more than one hex only when the players "
                                            "choose the focus.")
    options: list[OptionOut] = Field(description="Every equally valid choice; the players "
                                                 "choose among them.")
    explanation: str


@dataclass(frozen=True)
class Option:
    """One equally valid choice: where the monster ends its move and whom it attacks."""

    destination: Hex
    attacks: tuple[Hex, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"destination": list(self.destination), "attacks": [list(h) for h in self.attacks]}


@dataclass(frozen=True)
class MonsterResult:
    game: str
    focus: tuple[Hex, ...]
    options: tuple[Option, ...]
    explanation: str
    steps: tuple[Step, ...]

    def to_dict(self) -> dict[str, Any]:
        return respond(MonsterResponse, self.game, {
            "focus": [list(h) for h in self.focus],
            "options": [o.to_dict() for o in self.options],
            "explanation": self.explanation}, self.steps)


def hex_json(h: Hex) -> list[int]:
    """A hex as it appears in the response: [column, row]."""
    return [h[0], h[1]]
