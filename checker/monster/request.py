"""The monster check's request: the pydantic model that validates it, and the solver's value.

`parse()` validates the JSON request with `MonsterRequestModel` (the same model gives the
OpenAPI schema) and returns the `MonsterRequest` the solver reads, raising CheckInputError
with a precise message for anything it refuses (the messages are part of the contract: tests
and clients match them). Checks that need the board's size or several figures at once (a hex
on the map, a figure on a wall, two figures in one hex) run after the fields are valid.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import ConfigDict, Field, PlainValidator, WithJsonSchema, model_validator

from checker.base import (
    Bool,
    CheckModel,
    CheckRequest,
    FieldProblem,
    Game,
    Int,
    Text,
    label,
    parse_request,
    shown,
)
from checker.hexgrid import Hex, are_neighbours

if TYPE_CHECKING:
    from pydantic.config import JsonDict

TERRAIN = ("obstacles", "traps", "hazardous", "difficult", "icy")
MAX_SIDE = 50


@dataclass(frozen=True)
class Enemy:
    hex: Hex
    initiative: int
    name: str
    summoner: str | None = None


@dataclass(frozen=True)
class MonsterRequest:
    game: Game
    width: int
    height: int
    walls: frozenset[Hex]
    thin_walls: frozenset[frozenset[Hex]]
    obstacles: frozenset[Hex]
    traps: frozenset[Hex]
    hazardous: frozenset[Hex]
    difficult: frozenset[Hex]
    icy: frozenset[Hex]
    hex: Hex
    move: int
    range: int
    targets: int
    jump: bool
    flying: bool
    teleport: bool
    muddled: bool
    attack: bool
    allies: frozenset[Hex]
    enemies: tuple[Enemy, ...]


def _hex(value: Any) -> Hex:
    """[column, row]: two integers (JSON's 3.0 counts as 3)."""
    if (
        isinstance(value, list)
        and len(value) == 2
        and all(
            not isinstance(v, bool)
            and (isinstance(v, int) or (isinstance(v, float) and v.is_integer()))
            for v in value
        )
    ):
        return (int(value[0]), int(value[1]))
    raise ValueError(f"must be a hex [column, row] of two integers (got {shown(value)})")


HexIn = Annotated[
    Hex,
    PlainValidator(_hex),
    WithJsonSchema(
        {
            "type": "array",
            "items": {"type": "integer", "minimum": 0},
            "minItems": 2,
            "maxItems": 2,
            "description": "[column, row], odd-q offset layout, flat-topped hexes.",
        }
    ),
]
Hexes = tuple[HexIn, ...]


def _thin_wall(value: Any) -> tuple[Hex, Hex]:
    if not isinstance(value, list) or len(value) != 2:
        raise ValueError(f"must be a pair of hexes [[c, r], [c2, r2]] (got {shown(value)})")
    try:
        return _hex(value[0]), _hex(value[1])
    except ValueError:
        raise ValueError(
            f"must be a pair of hexes [[c, r], [c2, r2]] (got {shown(value)})"
        ) from None


ThinWallIn = Annotated[
    tuple[Hex, Hex],
    PlainValidator(_thin_wall),
    WithJsonSchema(
        {
            "type": "array",
            "minItems": 2,
            "maxItems": 2,
            "items": {
                "type": "array",
                "items": {"type": "integer", "minimum": 0},
                "minItems": 2,
                "maxItems": 2,
            },
        }
    ),
]


class MapIn(CheckModel):
    """The room: its size, walls and terrain."""

    width: Int = Field(ge=1, le=MAX_SIDE)
    height: Int = Field(ge=1, le=MAX_SIDE)
    walls: Hexes = Field(
        default=(),
        description="Hexes that are not part of the room (closed "
        "doors too). The map's own edge is not a wall "
        "for line of sight.",
    )
    thin_walls: tuple[ThinWallIn, ...] = Field(
        default=(), description="Wall lines along the edge between two neighbouring hexes."
    )
    obstacles: Hexes = ()
    traps: Hexes = ()
    hazardous: Hexes = ()
    difficult: Hexes = ()
    icy: Hexes = Field(default=(), description="Frosthaven only.")

    def on_map(self, h: Hex, path: tuple[str | int, ...]) -> None:
        """FieldProblem at `path` unless `h` lies on this map."""
        if not (0 <= h[0] < self.width and 0 <= h[1] < self.height):
            raise FieldProblem(
                path,
                f"{shown(list(h))} is not on the {self.width} x "
                f"{self.height} map (columns 0..{self.width - 1}, rows "
                f"0..{self.height - 1})",
            )

    @model_validator(mode="after")
    def _hexes_on_the_map(self) -> "MapIn":
        for i, h in enumerate(self.walls):
            self.on_map(h, ("walls", i))
        for i, (a, b) in enumerate(self.thin_walls):
            self.on_map(a, ("thin_walls", i, 0))
            self.on_map(b, ("thin_walls", i, 1))
            if not are_neighbours(a, b):
                raise FieldProblem(
                    ("thin_walls", i),
                    f": {shown(list(a))} and {shown(list(b))} "
                    "are not neighbours, a thin wall lies only between "
                    "neighbouring hexes",
                )
        for name in TERRAIN:
            for i, h in enumerate(getattr(self, name)):
                self.on_map(h, (name, i))
                if h in self.walls:
                    raise FieldProblem((name, i), f"{shown(list(h))} is a wall hex")
        return self


# A monster without an attack has no targets to count: any number is accepted, 0 too.
_TARGETS_RULE: JsonDict
_TARGETS_RULE = {
    "if": {"properties": {"attack": {"const": False}}, "required": ["attack"]},
    "else": {"properties": {"targets": {"minimum": 1}}},
}


class MonsterIn(CheckModel):
    """The acting monster and its ability card."""

    model_config = ConfigDict(extra="forbid", frozen=True, json_schema_extra=_TARGETS_RULE)
    hex: HexIn
    move: Int = Field(ge=0, le=20)
    range: Int = Field(default=0, ge=0, le=20, description="0 = melee.")
    targets: Int = Field(
        default=1,
        ge=0,
        le=10,
        description=(
            "At least 1 for a monster that attacks; any number (0 too) when 'attack' is false."
        ),
    )
    attack: Bool = Field(
        default=True,
        description="false: the ability card has movement but no attack; the monster moves as for a melee attack.",
    )
    jump: Bool = False
    flying: Bool = False
    teleport: Bool = Field(
        default=False,
        description=(
            "The move is a teleport: it ignores walls, figures and terrain, counts hexes ignoring "
            "walls, ends where a figure may stand (with 'flying', on obstacles too); 'move' 0 is "
            "Teleport 0."
        ),
    )
    muddled: Bool = False

    @model_validator(mode="after")
    def _targets_of_an_attack(self) -> "MonsterIn":
        if self.attack and self.targets < 1:
            raise FieldProblem(("targets",), f"must be at least 1 (got {self.targets})")
        return self


class EnemyIn(CheckModel):
    hex: HexIn
    initiative: Int = Field(ge=0, le=99)
    name: Text
    summoner: Text | None = Field(
        default=None,
        description=(
            "For a summon: the name of the enemy who summoned it (it is focused before them)."
        ),
    )


class MonsterRequestModel(CheckRequest):
    """One monster's turn on a board (figures must be on the map, not on walls, one per hex;
    enemy names unique; a summoner names another enemy)."""

    map: MapIn
    monster: MonsterIn
    allies: Hexes = Field(default=(), description="The acting monster's allies.")
    enemies: tuple[EnemyIn, ...] = ()

    @model_validator(mode="after")
    def _figures_on_the_board(self) -> "MonsterRequestModel":
        board = self.map
        if self.game == "gloomhaven" and board.icy:
            raise FieldProblem(
                ("map", "icy"), "must be empty for gloomhaven: icy terrain is a Frosthaven terrain"
            )
        mhex = self.monster.hex
        board.on_map(mhex, ("monster", "hex"))
        if mhex in board.walls:
            raise FieldProblem(("monster", "hex"), f"{shown(list(mhex))} is a wall hex")
        if mhex in board.obstacles and not self.monster.flying:
            raise FieldProblem(
                ("monster", "hex"),
                f"{shown(list(mhex))} is an obstacle hex (only a flying monster may stand there)",
            )
        occupied: dict[Hex, str] = {mhex: "'monster'.hex"}
        places: list[tuple[Hex, tuple[str | int, ...]]] = [
            (h, ("allies", i)) for i, h in enumerate(self.allies)
        ]
        places += [(e.hex, ("enemies", i, "hex")) for i, e in enumerate(self.enemies)]
        for h, path in places:
            board.on_map(h, path)
            if h in board.walls:
                raise FieldProblem(path, f"{shown(list(h))} is a wall hex")
            if h in occupied:
                raise FieldProblem(
                    path,
                    f"{shown(list(h))} is already occupied by {occupied[h]}: two figures cannot share a hex",
                )
            occupied[h] = label(path)
        self._enemy_names()
        return self

    def _enemy_names(self) -> None:
        names: set[str] = set()
        for i, e in enumerate(self.enemies):
            if e.name in names:
                raise FieldProblem(
                    ("enemies", i, "name"),
                    f"{shown(e.name)} is used twice: enemy names must be unique",
                )
            names.add(e.name)
        for i, e in enumerate(self.enemies):
            if e.summoner is not None and e.summoner not in names:
                raise FieldProblem(
                    ("enemies", i, "summoner"), f"{shown(e.summoner)} names no enemy"
                )
            if e.summoner == e.name:
                raise FieldProblem(("enemies", i, "summoner"), ": an enemy cannot summon itself")

    def solver_request(self) -> "MonsterRequest":
        """The value the solver reads."""
        board, m = self.map, self.monster
        return MonsterRequest(
            game=self.game,
            width=board.width,
            height=board.height,
            walls=frozenset(board.walls),
            thin_walls=frozenset(frozenset(p) for p in board.thin_walls),
            obstacles=frozenset(board.obstacles),
            traps=frozenset(board.traps),
            hazardous=frozenset(board.hazardous),
            difficult=frozenset(board.difficult),
            icy=frozenset(board.icy),
            hex=m.hex,
            move=m.move,
            range=m.range,
            targets=m.targets,
            jump=m.jump,
            flying=m.flying,
            teleport=m.teleport,
            muddled=m.muddled,
            attack=m.attack,
            allies=frozenset(self.allies),
            enemies=tuple(Enemy(e.hex, e.initiative, e.name, e.summoner) for e in self.enemies),
        )


def parse(payload: Any) -> MonsterRequest:
    """Validate the JSON request (CheckInputError with a precise message)."""
    return parse_request(MonsterRequestModel, payload).solver_request()
