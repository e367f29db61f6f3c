"""Attack hexes and line of sight: from which hexes the monster may attack which enemy.

An enemy is attackable from a hex when it is within range, counted around walls (never
through them), and in line of sight (checker.hexgrid.Board.sees). A monster with no attack
moves as for a melee attack (fh-edge-08).
"""

from __future__ import annotations

from collections.abc import Callable

from checker.hexgrid import Board, Hex
from checker.monster.movement import Mover
from checker.monster.request import Enemy, MonsterRequest


class AttackRules:
    """The monster's attack as far as movement cares: reach, targets, attack hexes."""

    def __init__(self, req: MonsterRequest, board: Board, mover: Mover) -> None:
        self.board = board
        self.mover = mover
        self.melee = (not req.attack) or req.range == 0
        self.reach = 1 if self.melee else req.range
        self.targets = req.targets if req.attack else 1
        # A muddled monster attacks with disadvantage anyway: moving cannot shed it.
        self.sheds_disadvantage = req.attack and not self.melee and not req.muddled
        self._memo: dict[tuple[Hex, Hex], bool] = {}

    def can_attack_from(self, h: Hex, enemy: Enemy) -> bool:
        """In range (counted around walls) and in line of sight of enemy from h."""
        key = (h, enemy.hex)
        if key not in self._memo:
            self._memo[key] = self.in_range(h, enemy) and self.board.sees(h, enemy.hex)
        return self._memo[key]

    def in_range(self, h: Hex, enemy: Enemy) -> bool:
        """Within range of enemy from h, counted around walls (line of sight not checked)."""
        d = self.board.range_distances(enemy.hex, self.reach).get(h)
        return d is not None and d >= 1

    def goal_of(self, enemy: Enemy) -> Callable[[Hex], bool]:
        """Whether the monster may end in a hex and attack `enemy` from it."""
        return lambda h: self.mover.can_end(h) and self.can_attack_from(h, enemy)
