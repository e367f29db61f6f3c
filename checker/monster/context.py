"""The one value every part of the solver reads: the request, the board, the movement and
attack rules, and where the monster can go from its hex."""

from __future__ import annotations

from dataclasses import dataclass

from checker.base import Game
from checker.hexgrid import Board, Hex
from checker.monster.attack import AttackRules
from checker.monster.movement import Mover
from checker.monster.request import MonsterRequest

NO_RECORD = "not covered by a record in the archive"


@dataclass(frozen=True)
class Context:
    """Everything fixed for one solve (the parts hold their own caches)."""

    req: MonsterRequest
    board: Board
    mover: Mover
    attack: AttackRules
    fronts: dict[Hex, list[tuple[int, int]]]
    end_hexes: tuple[Hex, ...]
    # End hexes reachable this turn: the fewest negative hexes on a path within the movement,
    # and the least movement for that.
    turn: dict[Hex, tuple[int, int]]

    @property
    def game(self) -> Game:
        return self.req.game

    @property
    def fh(self) -> bool:
        return self.req.game == "frosthaven"


def make_board(req: MonsterRequest) -> Board:
    """The board with the game's line-of-sight rule."""
    return Board(
        req.width,
        req.height,
        req.walls,
        req.thin_walls,
        los_points="any" if req.game == "frosthaven" else "strict-corners",
    )


def make_context(req: MonsterRequest) -> Context:
    """Board, movement and attack rules, and the reachable hexes, computed once."""
    board = make_board(req)
    mover = Mover(req, board)
    fronts = mover.fronts(req.hex)
    end_hexes = tuple(h for h in fronts if mover.can_end(h))
    turn: dict[Hex, tuple[int, int]] = {}
    for h in end_hexes:
        within = [(n, c) for n, c in fronts[h] if c <= req.move]
        if within:
            turn[h] = min(within)
    return Context(req, board, mover, AttackRules(req, board, mover), fronts, end_hexes, turn)
