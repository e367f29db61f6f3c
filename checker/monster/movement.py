"""Board and movement: where the acting monster can go, at what cost, through which hexes.

Walking: allies passable, enemies and obstacles not, difficult terrain costs 2, traps and
hazardous terrain are negative hexes (each one entered counts once); Jump ignores figures and
terrain until the last hex, which follows the normal rules; Flying ignores figures and terrain
for the whole move and must end in a hex without a figure. Frosthaven icy terrain slides the
walker on. A Dijkstra over (hex, negative-hex count) states gives, for every hex, the Pareto
front of (negative hexes, movement points).
"""
from __future__ import annotations

import heapq
from typing import Callable, Iterator

from checker.hexgrid import DIRECTIONS, Board, Hex, step
from checker.monster.request import MonsterRequest

# Published rule, not in the archive: a flying figure may end its move on an obstacle (only a
# figure makes a hex occupied for it). Set to False to forbid ending on obstacles.
FLYING_MAY_END_ON_OBSTACLE = True


class Mover:
    """How the acting monster may move on this board."""

    def __init__(self, req: MonsterRequest, board: Board) -> None:
        self.req = req
        self.board = board
        self.mode = "flying" if req.flying else "jump" if req.jump else "walk"
        self.enemy_hexes = frozenset(e.hex for e in req.enemies)
        self.figures = self.enemy_hexes | req.allies  # the monster's own hex is vacated
        self.slides = req.game == "frosthaven" and self.mode == "walk" and bool(req.icy)
        self.has_negative = any(self.negative(h) for h in req.traps | req.hazardous)

    def negative(self, h: Hex) -> bool:
        """Trap or hazardous terrain, unless the monster ignores it (flying)."""
        return self.mode != "flying" and (h in self.req.traps or h in self.req.hazardous)

    def can_end(self, h: Hex) -> bool:
        if h == self.req.hex:
            return True
        if not self.board.is_room(h) or h in self.figures:
            return False
        if h in self.req.obstacles:
            return self.mode == "flying" and FLYING_MAY_END_ON_OBSTACLE
        return True

    def _walk_steps(self, h: Hex) -> Iterator[tuple[Hex, int, int]]:
        """(landing hex, movement points, negative hexes entered) for each walking step."""
        req, board = self.req, self.board
        for d in DIRECTIONS:
            n = step(h, d)
            if not board.passable_step(h, n) or n in req.obstacles or n in self.enemy_hexes:
                continue
            cost = 2 if n in req.difficult else 1
            neg = 1 if self.negative(n) else 0
            if self.slides:
                p = n
                while p in req.icy:
                    nxt = step(p, d)
                    if (not board.passable_step(p, nxt) or nxt in req.obstacles
                            or nxt in self.figures):
                        break
                    p = nxt
                    neg += 1 if self.negative(p) else 0
                n = p
            yield n, cost, neg

    def _free_steps(self, h: Hex) -> Iterator[Hex]:
        for d in DIRECTIONS:
            n = step(h, d)
            if self.board.passable_step(h, n):
                yield n

    def _last_hex(self, origin: Hex, h: Hex) -> tuple[int, int]:
        """(extra movement points, negative hexes) of the last hex of a jump or flight."""
        if h == origin or self.mode == "flying":
            return 0, 0
        extra = 1 if (self.req.game == "gloomhaven" and h in self.req.difficult) else 0
        return extra, (1 if self.negative(h) else 0)

    def fronts(self, origin: Hex) -> dict[Hex, list[tuple[int, int]]]:
        """For every hex the monster can stand in after moving from origin: the Pareto front
        of (negative hexes entered, movement points), fewest negatives last."""
        if self.mode == "walk":
            out: dict[Hex, list[tuple[int, int]]] = {}
            min_neg: dict[Hex, int] = {}
            heap = [(0, 0, origin)]
            while heap:
                cost, neg, h = heapq.heappop(heap)
                if neg >= min_neg.get(h, 1 << 30):
                    continue
                min_neg[h] = neg
                out.setdefault(h, []).append((neg, cost))
                for n, dc, dn in self._walk_steps(h):
                    if neg + dn < min_neg.get(n, 1 << 30):
                        heapq.heappush(heap, (cost + dc, neg + dn, n))
            return out
        dist = {origin: 0}
        queue = [origin]
        for h in queue:
            for n in self._free_steps(h):
                if n not in dist:
                    dist[n] = dist[h] + 1
                    queue.append(n)
        out = {}
        for h, d in dist.items():
            extra, neg = self._last_hex(origin, h)
            out[h] = [(neg, d + extra)]
        return out

    def remaining(self, origin: Hex, is_goal: Callable[[Hex], bool]) -> tuple[int, int] | None:
        """Fewest (negative hexes, then movement points) from origin to any goal hex."""
        if is_goal(origin):
            return (0, 0)
        if self.mode != "walk":
            fr = self.fronts(origin)
            for key, h in sorted((v[0], h) for h, v in fr.items()):
                if is_goal(h):
                    return key
            return None
        seen: set[Hex] = set()
        heap = [(0, 0, origin)]
        while heap:
            neg, cost, h = heapq.heappop(heap)
            if h in seen:
                continue
            seen.add(h)
            if is_goal(h):
                return (neg, cost)
            for n, dc, dn in self._walk_steps(h):
                if n not in seen:
                    heapq.heappush(heap, (neg + dn, cost + dc, n))
        return None
