"""Board and movement: where the acting monster can go, at what cost, through which hexes.

Walking: allies passable, enemies and obstacles not, difficult terrain costs 2, traps and
hazardous terrain are negative hexes (each one entered counts once); Jump ignores figures and
terrain until the last hex, which follows the normal rules; Flying ignores figures and terrain
for the whole move and must end in a hex without a figure; Teleport ignores walls, figures and
terrain, its movement is the number of hexes ignoring walls, and it ends where a figure may
stand (fh-clar-04, fh-clar-05). Frosthaven icy terrain slides the walker on. A Dijkstra over
(hex, negative-hex count) states gives, for every hex, the Pareto front of (negative hexes,
movement points); a search on the reversed moves gives, for one target hex, the best
(negative hexes, movement points) from every hex to it.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Iterator

from checker.hexgrid import Board, Hex, step, straight_distance
from checker.monster.request import MonsterRequest

# Published rule, not in the archive: a flying figure may end its move on an obstacle (only a
# figure makes a hex occupied for it). Set to False to forbid ending on obstacles.
FLYING_MAY_END_ON_OBSTACLE = True

Cost = tuple[int, int]  # (negative hexes, movement points), compared in that order


class Mover:
    """How the acting monster may move on this board."""

    def __init__(self, req: MonsterRequest, board: Board) -> None:
        self.req = req
        self.board = board
        self.flying = req.flying
        self.mode = (
            "teleport"
            if req.teleport
            else "flying"
            if req.flying
            else "jump"
            if req.jump
            else "walk"
        )
        self.enemy_hexes = frozenset(e.hex for e in req.enemies)
        self.figures = self.enemy_hexes | req.allies  # the monster's own hex is vacated
        self.slides = req.game == "frosthaven" and self.mode == "walk" and bool(req.icy)
        self._negatives = frozenset(h for h in req.traps | req.hazardous if self.negative(h))
        self.has_negative = bool(self._negatives)
        self._blocked = req.obstacles | self.enemy_hexes  # a walker cannot enter these
        self._steps: dict[Hex, list[tuple[Hex, int, int]]] = {}
        self._reverse: dict[Hex, list[tuple[Hex, int, int]]] | None = None
        self._to_target: dict[tuple[Hex, frozenset[Hex]], dict[Hex, Cost]] = {}

    def negative(self, h: Hex) -> bool:
        """Trap or hazardous terrain, unless the monster ignores it (flying)."""
        return not self.flying and (h in self.req.traps or h in self.req.hazardous)

    def can_end(self, h: Hex) -> bool:
        """Whether the monster may end its move in h (its own hex always)."""
        if h == self.req.hex:
            return True
        if not self.board.is_room(h) or h in self.figures:
            return False
        if h in self.req.obstacles:
            return self.flying and FLYING_MAY_END_ON_OBSTACLE
        return True

    def _walk_steps(self, h: Hex) -> list[tuple[Hex, int, int]]:
        """(landing hex, movement points, negative hexes entered) for each walking step."""
        cached = self._steps.get(h)
        if cached is None:
            cached = self._steps[h] = list(self._new_walk_steps(h))
        return cached

    def _new_walk_steps(self, h: Hex) -> Iterator[tuple[Hex, int, int]]:
        req, board, blocked = self.req, self.board, self._blocked
        for d, n in board.room_steps(h):
            if n in blocked:
                continue
            cost = 2 if n in req.difficult else 1
            neg = 1 if n in self._negatives else 0
            if self.slides:
                p = n
                while p in req.icy:
                    nxt = step(p, d)
                    if (
                        not board.passable_step(p, nxt)
                        or nxt in req.obstacles
                        or nxt in self.figures
                    ):
                        break
                    p = nxt
                    neg += 1 if p in self._negatives else 0
                n = p
            yield n, cost, neg

    def _last_hex(self, origin: Hex, h: Hex) -> Cost:
        """(negative hexes, extra movement points) of the last hex of a jump, flight or
        teleport: a jump's and a teleport's landing hex counts if negative; a Gloomhaven jump
        landing on difficult terrain costs one more (gh-da-3: the last hex follows the normal
        rules); flying ignores both."""
        if h == origin or self.mode == "flying":
            return 0, 0
        extra = (
            1
            if (self.mode == "jump" and self.req.game == "gloomhaven" and h in self.req.difficult)
            else 0
        )
        return (1 if self.negative(h) else 0), extra

    def _free_distances(self, origin: Hex) -> dict[Hex, int]:
        """Hexes from origin ignoring figures and terrain (walls still block; teleport: none)."""
        if self.mode == "teleport":
            return {h: straight_distance(origin, h) for h in self.board.room_hexes()}
        dist = {origin: 0}
        queue = deque([origin])
        while queue:
            h = queue.popleft()
            for n in self.board.room_neighbours(h):
                if n not in dist:
                    dist[n] = dist[h] + 1
                    queue.append(n)
        return dist

    def fronts(self, origin: Hex) -> dict[Hex, list[Cost]]:
        """For every hex the monster can stand in after moving from origin: the Pareto front
        of (negative hexes entered, movement points), fewest negatives last."""
        if self.mode != "walk":
            out: dict[Hex, list[Cost]] = {}
            for h, d in self._free_distances(origin).items():
                neg, extra = self._last_hex(origin, h)
                out[h] = [(neg, d + extra)]
            return out
        out = {}
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

    def to_target(self, target: Hex, needed: frozenset[Hex] = frozenset()) -> dict[Hex, Cost]:
        """The fewest negative hexes, then movement points, to reach `target` with unlimited
        movement (`target` itself: (0, 0)), from every hex, or at least from `needed`."""
        key = (target, needed)
        cached = self._to_target.get(key)
        if cached is not None:
            return cached
        if self.mode != "walk":
            out = {}
            for h, d in self._free_distances(target).items():
                neg, extra = self._last_hex(h, target)
                out[h] = (neg, d + extra)
        else:
            out = self._walk_to(target, needed)
        self._to_target[key] = out
        return out

    def _walk_to(self, target: Hex, needed: frozenset[Hex]) -> dict[Hex, Cost]:
        """Dijkstra on the reversed walking steps; stops once every needed hex is settled."""
        best: dict[Hex, Cost] = {target: (0, 0)}
        heap = [(0, 0, target)]
        waiting = set(needed)
        while heap:
            neg, cost, h = heapq.heappop(heap)
            if (neg, cost) != best[h]:
                continue
            if waiting:
                waiting.discard(h)
                if not waiting:
                    break
            for prev, dc, dn in self._steps_into(h):
                cand = (neg + dn, cost + dc)
                if cand < best.get(prev, (1 << 30, 0)):
                    best[prev] = cand
                    heapq.heappush(heap, (cand[0], cand[1], prev))
        return best

    def _steps_into(self, h: Hex) -> list[tuple[Hex, int, int]] | tuple[tuple[Hex, int, int], ...]:
        """(hex stepped from, movement points, negative hexes) of each walking step landing
        in h. Without ice a step is one hex, so these are h's neighbours a walker may stand
        in; with ice a step may slide, so the reversed steps are built once."""
        if self.slides:
            return self._reverse_steps().get(h, ())
        if h in self._blocked:
            return ()
        cost = 2 if h in self.req.difficult else 1
        neg = 1 if h in self._negatives else 0
        start, blocked = self.req.hex, self._blocked
        return tuple(
            (p, cost, neg) for p in self.board.room_neighbours(h) if p == start or p not in blocked
        )

    def _reverse_steps(self) -> dict[Hex, list[tuple[Hex, int, int]]]:
        """For each landing hex, the walking steps that land there (built once)."""
        if self._reverse is None:
            reverse: dict[Hex, list[tuple[Hex, int, int]]] = {}
            for h in self.board.room_hexes():
                if h != self.req.hex and h in self._blocked:
                    continue
                for n, dc, dn in self._walk_steps(h):
                    reverse.setdefault(n, []).append((h, dc, dn))
            self._reverse = reverse
        return self._reverse
