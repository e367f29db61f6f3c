"""The monster check's request: its fields, the validated value, and the hand-written parser.

`parse()` turns the JSON request into a `MonsterRequest`, raising CheckInputError with a
precise message for anything it refuses (the messages are part of the contract: tests and
clients match them).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from checker.base import (CheckInputError, check_bool, check_int, check_list, check_object,
                          check_str, open_request, reject_unknown_fields, shown)
from checker.hexgrid import Hex, are_neighbours

FIELDS = {"game", "map", "monster", "allies", "enemies"}
MAP_FIELDS = {"width", "height", "walls", "thin_walls", "obstacles", "traps", "hazardous",
              "difficult", "icy"}
TERRAIN = ("obstacles", "traps", "hazardous", "difficult", "icy")
MONSTER_FIELDS = {"hex", "move", "range", "targets", "jump", "flying", "teleport", "muddled",
                  "attack"}
ENEMY_FIELDS = {"hex", "initiative", "name", "summoner"}
MAX_SIDE = 50


@dataclass(frozen=True)
class Enemy:
    hex: Hex
    initiative: int
    name: str
    summoner: str | None = None


@dataclass(frozen=True)
class MonsterRequest:
    game: str
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


def _hex(value: Any, label: str, width: int, height: int) -> Hex:
    if (not isinstance(value, list) or len(value) != 2
            or any(isinstance(v, bool) or not isinstance(v, int) for v in value)):
        raise CheckInputError(f"{label} must be a hex [column, row] of two integers "
                              f"(got {shown(value)})")
    c, r = value
    if not (0 <= c < width and 0 <= r < height):
        raise CheckInputError(f"{label} {shown(value)} is not on the {width} x {height} map "
                              f"(columns 0..{width - 1}, rows 0..{height - 1})")
    return (c, r)


def _hex_list(value: Any, label: str, width: int, height: int) -> list[Hex]:
    items = check_list(value, label)
    return [_hex(v, f"{label}[{i}]", width, height) for i, v in enumerate(items)]


def _require(obj: dict[str, Any], names: tuple[str, ...], where: str) -> None:
    for name in names:
        if name not in obj:
            raise CheckInputError(f"{where}{name} is required")


@dataclass(frozen=True)
class _Map:
    width: int
    height: int
    walls: frozenset[Hex]
    thin_walls: frozenset[frozenset[Hex]]
    terrain: dict[str, frozenset[Hex]]


def _parse_thin_walls(value: Any, width: int, height: int) -> frozenset[frozenset[Hex]]:
    thin: set[frozenset[Hex]] = set()
    for i, pair in enumerate(check_list(value, "'map'.thin_walls")):
        label = f"'map'.thin_walls[{i}]"
        if not isinstance(pair, list) or len(pair) != 2:
            raise CheckInputError(f"{label} must be a pair of hexes [[c, r], [c2, r2]] "
                                  f"(got {shown(pair)})")
        a = _hex(pair[0], f"{label}[0]", width, height)
        b = _hex(pair[1], f"{label}[1]", width, height)
        if not are_neighbours(a, b):
            raise CheckInputError(f"{label}: {shown(list(a))} and {shown(list(b))} are not "
                                  f"neighbours, a thin wall lies only between neighbouring hexes")
        thin.add(frozenset((a, b)))
    return frozenset(thin)


def _parse_map(value: Any, game: str) -> _Map:
    board = check_object(value, "'map'")
    reject_unknown_fields(board, MAP_FIELDS, "'map'")
    _require(board, ("width", "height"), "'map'.")
    width = check_int(board["width"], "'map'.width", minimum=1, maximum=MAX_SIDE)
    height = check_int(board["height"], "'map'.height", minimum=1, maximum=MAX_SIDE)
    walls = frozenset(_hex_list(board.get("walls", []), "'map'.walls", width, height))
    thin = _parse_thin_walls(board.get("thin_walls", []), width, height)
    terrain: dict[str, frozenset[Hex]] = {}
    for name in TERRAIN:
        hexes = _hex_list(board.get(name, []), f"'map'.{name}", width, height)
        for i, h in enumerate(hexes):
            if h in walls:
                raise CheckInputError(f"'map'.{name}[{i}] {shown(list(h))} is a wall hex")
        terrain[name] = frozenset(hexes)
    if game == "gloomhaven" and terrain["icy"]:
        raise CheckInputError("'map'.icy must be empty for gloomhaven: icy terrain is a "
                              "Frosthaven terrain")
    return _Map(width, height, walls, thin, terrain)


def _parse_monster(value: Any, board: _Map) -> dict[str, Any]:
    """The monster's fields: hex, move, range, targets and the flags."""
    monster = check_object(value, "'monster'")
    reject_unknown_fields(monster, MONSTER_FIELDS, "'monster'")
    _require(monster, ("hex", "move"), "'monster'.")
    mhex = _hex(monster["hex"], "'monster'.hex", board.width, board.height)
    # A monster without an attack has no targets to count: any number is accepted, 0 too.
    no_attack = monster.get("attack", True) is False
    fields: dict[str, Any] = {
        "hex": mhex,
        "move": check_int(monster["move"], "'monster'.move", minimum=0, maximum=20),
        "range": check_int(monster.get("range", 0), "'monster'.range", minimum=0, maximum=20),
        "targets": check_int(monster.get("targets", 1), "'monster'.targets",
                             minimum=0 if no_attack else 1, maximum=10)}
    for name, default in (("jump", False), ("flying", False), ("teleport", False),
                          ("muddled", False), ("attack", True)):
        fields[name] = check_bool(monster.get(name, default), f"'monster'.{name}")
    if mhex in board.walls:
        raise CheckInputError(f"'monster'.hex {shown(list(mhex))} is a wall hex")
    if mhex in board.terrain["obstacles"] and not fields["flying"]:
        raise CheckInputError(f"'monster'.hex {shown(list(mhex))} is an obstacle hex "
                              "(only a flying monster may stand there)")
    return fields


class _Placer:
    """Puts figures on the map: never on a wall, never two in one hex."""

    def __init__(self, walls: frozenset[Hex], monster_hex: Hex) -> None:
        self.walls = walls
        self.occupied: dict[Hex, str] = {monster_hex: "'monster'.hex"}

    def place(self, h: Hex, label: str) -> None:
        if h in self.walls:
            raise CheckInputError(f"{label} {shown(list(h))} is a wall hex")
        if h in self.occupied:
            raise CheckInputError(f"{label} {shown(list(h))} is already occupied by "
                                  f"{self.occupied[h]}: two figures cannot share a hex")
        self.occupied[h] = label


def _parse_enemy(item: Any, label: str, board: _Map, placer: _Placer,
                 names: set[str]) -> Enemy:
    item = check_object(item, label)
    reject_unknown_fields(item, ENEMY_FIELDS, label)
    _require(item, ("hex", "initiative", "name"), f"{label}.")
    h = _hex(item["hex"], f"{label}.hex", board.width, board.height)
    placer.place(h, f"{label}.hex")
    initiative = check_int(item["initiative"], f"{label}.initiative", minimum=0, maximum=99)
    name = check_str(item["name"], f"{label}.name")
    if name in names:
        raise CheckInputError(f"{label}.name {shown(name)} is used twice: enemy names must "
                              "be unique")
    names.add(name)
    summoner = item.get("summoner")
    if summoner is not None:
        summoner = check_str(summoner, f"{label}.summoner")
    return Enemy(h, initiative, name, summoner)


def _parse_enemies(value: Any, board: _Map, placer: _Placer) -> tuple[Enemy, ...]:
    names: set[str] = set()
    enemies = [_parse_enemy(item, f"'enemies'[{i}]", board, placer, names)
               for i, item in enumerate(check_list(value, "'enemies'"))]
    for i, e in enumerate(enemies):
        if e.summoner is not None and e.summoner not in names:
            raise CheckInputError(f"'enemies'[{i}].summoner {shown(e.summoner)} names no enemy")
        if e.summoner == e.name:
            raise CheckInputError(f"'enemies'[{i}].summoner: an enemy cannot summon itself")
    return tuple(enemies)


def parse(payload: Any) -> MonsterRequest:
    """Validate the JSON request (CheckInputError with a precise message)."""
    payload, game = open_request(payload, FIELDS)
    for name in ("map", "monster"):
        if name not in payload:
            raise CheckInputError(f"'{name}' is required")
    board = _parse_map(payload["map"], game)
    monster = _parse_monster(payload["monster"], board)
    placer = _Placer(board.walls, monster["hex"])
    allies = _hex_list(payload.get("allies", []), "'allies'", board.width, board.height)
    for i, h in enumerate(allies):
        placer.place(h, f"'allies'[{i}]")
    enemies = _parse_enemies(payload.get("enemies", []), board, placer)
    t = board.terrain
    return MonsterRequest(
        game=game, width=board.width, height=board.height, walls=board.walls,
        thin_walls=board.thin_walls, obstacles=t["obstacles"], traps=t["traps"],
        hazardous=t["hazardous"], difficult=t["difficult"], icy=t["icy"],
        hex=monster["hex"], move=monster["move"], range=monster["range"],
        targets=monster["targets"], jump=monster["jump"], flying=monster["flying"],
        teleport=monster["teleport"], muddled=monster["muddled"], attack=monster["attack"],
        allies=frozenset(allies), enemies=enemies)
