"""Flat-topped hex grid in "odd-q" offset layout, with exact line-of-sight geometry.

Hexes are addressed ``(column, row)``; odd columns sit half a hex toward higher rows, so the
neighbours of ``(c, r)`` are ``(c, r-1)``, ``(c, r+1)`` and, for even ``c``, ``(c±1, r-1)``,
``(c±1, r)``; for odd ``c``, ``(c±1, r)``, ``(c±1, r+1)``.

Geometry is exact integer arithmetic: with hex radius 1 the centre of ``(c, r)`` is at
``(1.5 c, √3 (r + (c & 1) / 2))``; we scale x by 80 and y by 80/√3, an affine map that keeps
every incidence (crossing, touching, collinearity) unchanged, so that centre, corners and
edge midpoints all land on integers: centre ``(120 c, 80 r + 40 (c & 1))``, corners at
``(±80, 0)``, ``(±40, ±40)`` from it.

Line of sight (``Board.sees``) is a segment from a sample point of one hex to a sample point of
the other that touches no wall line. Wall lines are the edges between a room hex and a wall or
off-map hex, and the thin walls. Sample points are pulled an infinitesimal ε toward their own
hex's centre (computed symbolically: polynomials in ε compared by their first non-zero
coefficient), so a line may start at a corner lying on a wall but must leave through the room:
a line from a corner of a hex along a corridor wall sees down the corridor, while two hexes
meeting only at a wall junction, or separated by a thin wall, do not see each other.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Iterable, Iterator

Hex = tuple[int, int]
Point = tuple[int, int]

# Directions 0..5: N, NE, SE, S, SW, NW; (dc, dr) for even and for odd columns.
_DIRS_EVEN: tuple[Hex, ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1))
_DIRS_ODD: tuple[Hex, ...] = ((0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0))
DIRECTIONS = range(6)

# Corner offsets (scaled), clockwise on screen (y grows downward) from the east corner.
_CORNERS: tuple[Point, ...] = ((80, 0), (40, 40), (-40, 40), (-80, 0), (-40, -40), (40, -40))


def step(h: Hex, d: int) -> Hex:
    """The neighbour of `h` in direction `d` (0 = N, 1 = NE, 2 = SE, 3 = S, 4 = SW, 5 = NW)."""
    dc, dr = (_DIRS_ODD if h[0] & 1 else _DIRS_EVEN)[d]
    return (h[0] + dc, h[1] + dr)


def neighbours(h: Hex) -> list[Hex]:
    return [step(h, d) for d in DIRECTIONS]


def are_neighbours(a: Hex, b: Hex) -> bool:
    return b in neighbours(a)


def to_cube(h: Hex) -> tuple[int, int, int]:
    c, r = h
    x = c
    z = r - (c - (c & 1)) // 2
    return x, -x - z, z


def straight_distance(a: Hex, b: Hex) -> int:
    """Hex distance ignoring walls."""
    ax, ay, az = to_cube(a)
    bx, by, bz = to_cube(b)
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


def centre(h: Hex) -> Point:
    c, r = h
    return (120 * c, 80 * r + 40 * (c & 1))


def corners(h: Hex) -> list[Point]:
    cx, cy = centre(h)
    return [(cx + dx, cy + dy) for dx, dy in _CORNERS]


def edge_midpoints(h: Hex) -> list[Point]:
    cs = corners(h)
    return [((cs[i][0] + cs[(i + 1) % 6][0]) // 2, (cs[i][1] + cs[(i + 1) % 6][1]) // 2)
            for i in range(6)]


def shared_edge(a: Hex, b: Hex) -> tuple[Point, Point]:
    """The edge between two neighbouring hexes."""
    common = sorted(set(corners(a)) & set(corners(b)))
    if len(common) != 2:
        raise ValueError(f"{a} and {b} are not neighbours")
    return common[0], common[1]


# --- exact geometry with an infinitesimal ε -----------------------------------------------
# A perturbed point is ((x0, x1), (y0, y1)) meaning (x0 + x1 ε, y0 + y1 ε). Products are
# polynomials of degree ≤ 2 held as tuples of coefficients; their sign is that of the first
# non-zero coefficient (ε > 0 arbitrarily small).

def _sign(poly: tuple[int, ...]) -> int:
    for coef in poly:
        if coef:
            return 1 if coef > 0 else -1
    return 0


def _sub(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    return (a[0] - b[0], a[1] - b[1])


def _mul(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int, int]:
    return (a[0] * b[0], a[0] * b[1] + a[1] * b[0], a[1] * b[1])


def _orient(p, q, s) -> int:
    """Sign of cross(q - p, s - p) for perturbed points."""
    ux, uy = _sub(q[0], p[0]), _sub(q[1], p[1])
    vx, vy = _sub(s[0], p[0]), _sub(s[1], p[1])
    a, b = _mul(ux, vy), _mul(uy, vx)
    return _sign((a[0] - b[0], a[1] - b[1], a[2] - b[2]))


def _between(a, b, x) -> bool:
    """Whether coordinate x lies in [min(a, b), max(a, b)] (perturbed scalars)."""
    lo, hi = (a, b) if _sign(_sub(b, a)) >= 0 else (b, a)
    return _sign(_sub(x, lo)) >= 0 and _sign(_sub(hi, x)) >= 0


def _on_segment(p, q, s) -> bool:
    """s, known collinear with p-q, lies on the closed segment p-q."""
    return _between(p[0], q[0], s[0]) and _between(p[1], q[1], s[1])


def _touches(p, q, a, b) -> bool:
    """Closed segments p-q (perturbed) and a-b (exact, lifted) share a point."""
    d1, d2 = _orient(a, b, p), _orient(a, b, q)
    d3, d4 = _orient(p, q, a), _orient(p, q, b)
    if d1 * d2 < 0 and d3 * d4 < 0:
        return True
    return ((d1 == 0 and _on_segment(a, b, p)) or (d2 == 0 and _on_segment(a, b, q))
            or (d3 == 0 and _on_segment(p, q, a)) or (d4 == 0 and _on_segment(p, q, b)))


def _lift(p: Point) -> tuple[tuple[int, int], tuple[int, int]]:
    return ((p[0], 0), (p[1], 0))


def _inset(p: Point, c: Point) -> tuple[tuple[int, int], tuple[int, int]]:
    """p moved ε toward c."""
    return ((p[0], c[0] - p[0]), (p[1], c[1] - p[1]))


def _exact_touch(p: Point, q: Point, a: Point, b: Point) -> bool:
    """Closed-segment touching test in plain integers (fast path)."""
    def orient(o, u, v):
        cross = (u[0] - o[0]) * (v[1] - o[1]) - (u[1] - o[1]) * (v[0] - o[0])
        return (cross > 0) - (cross < 0)

    def on(o, u, v):
        return (min(o[0], u[0]) <= v[0] <= max(o[0], u[0])
                and min(o[1], u[1]) <= v[1] <= max(o[1], u[1]))

    d1, d2, d3, d4 = orient(a, b, p), orient(a, b, q), orient(p, q, a), orient(p, q, b)
    if d1 * d2 < 0 and d3 * d4 < 0:
        return True
    return ((d1 == 0 and on(a, b, p)) or (d2 == 0 and on(a, b, q))
            or (d3 == 0 and on(p, q, a)) or (d4 == 0 and on(p, q, b)))


def _proper_cross(p: Point, q: Point, a: Point, b: Point) -> bool:
    def orient(o, u, v):
        cross = (u[0] - o[0]) * (v[1] - o[1]) - (u[1] - o[1]) * (v[0] - o[0])
        return (cross > 0) - (cross < 0)
    return orient(a, b, p) * orient(a, b, q) < 0 and orient(p, q, a) * orient(p, q, b) < 0


def segment_blocked(p: Point, cp: Point, q: Point, cq: Point,
                    walls: Iterable[tuple[Point, Point]]) -> bool:
    """Whether the segment from p (pulled ε toward cp) to q (pulled ε toward cq) touches a wall."""
    pp, qq = None, None
    for a, b in walls:
        if not _exact_touch(p, q, a, b):
            continue  # closed sets apart: an ε-perturbation keeps them apart
        if _proper_cross(p, q, a, b):
            return True  # a strict crossing survives an ε-perturbation
        if pp is None:
            pp, qq = _inset(p, cp), _inset(q, cq)
        if _touches(pp, qq, _lift(a), _lift(b)):
            return True
    return False


# --- the board -----------------------------------------------------------------------------

@dataclass
class Board:
    """The map: which hexes are room hexes, where the wall lines are, ranges, line of sight."""

    width: int
    height: int
    walls: frozenset[Hex]
    thin_walls: frozenset[frozenset[Hex]]
    los_points: str = "corners"  # "corners" (Gloomhaven) or "any" (Frosthaven sampling)
    _wall_lines: list[tuple[Point, Point]] = field(default_factory=list, repr=False)
    _los_cache: dict[tuple[Hex, Hex], bool] = field(default_factory=dict, repr=False)
    _range_cache: dict[Hex, dict[Hex, int]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        lines: set[tuple[Point, Point]] = set()
        for h in self.room_hexes():
            for n in neighbours(h):
                if not self.is_room(n):
                    lines.add(shared_edge(h, n))
        for pair in self.thin_walls:
            a, b = tuple(pair)
            lines.add(shared_edge(a, b))
        self._wall_lines = sorted(lines)

    def on_map(self, h: Hex) -> bool:
        return 0 <= h[0] < self.width and 0 <= h[1] < self.height

    def is_room(self, h: Hex) -> bool:
        return self.on_map(h) and h not in self.walls

    def room_hexes(self) -> Iterator[Hex]:
        for c in range(self.width):
            for r in range(self.height):
                if (c, r) not in self.walls:
                    yield (c, r)

    def crosses_thin_wall(self, a: Hex, b: Hex) -> bool:
        return frozenset((a, b)) in self.thin_walls

    def passable_step(self, a: Hex, b: Hex) -> bool:
        """Moving from room hex a to its neighbour b crosses no wall."""
        return self.is_room(b) and not self.crosses_thin_wall(a, b)

    def adjacent(self, a: Hex, b: Hex) -> bool:
        """Neighbours not separated by a wall line."""
        return are_neighbours(a, b) and self.passable_step(a, b)

    def range_distances(self, origin: Hex) -> dict[Hex, int]:
        """Hex distance from origin counted around walls (through anything else)."""
        cached = self._range_cache.get(origin)
        if cached is not None:
            return cached
        dist = {origin: 0}
        queue = deque([origin])
        while queue:
            h = queue.popleft()
            for n in neighbours(h):
                if n not in dist and self.passable_step(h, n):
                    dist[n] = dist[h] + 1
                    queue.append(n)
        self._range_cache[origin] = dist
        return dist

    def range_distance(self, a: Hex, b: Hex) -> int | None:
        return self.range_distances(a).get(b)

    def _samples(self, h: Hex) -> list[Point]:
        pts = [centre(h)] + corners(h)
        if self.los_points == "any":
            pts += edge_midpoints(h)
        return pts

    def sees(self, a: Hex, b: Hex) -> bool:
        """Line of sight between hexes a and b (see the module docstring)."""
        if a == b:
            return True
        key = (a, b) if a <= b else (b, a)
        cached = self._los_cache.get(key)
        if cached is None:
            cached = self._compute_sees(*key)
            self._los_cache[key] = cached
        return cached

    def _compute_sees(self, a: Hex, b: Hex) -> bool:
        ca, cb = centre(a), centre(b)
        xlo, xhi = min(ca[0], cb[0]) - 80, max(ca[0], cb[0]) + 80
        ylo, yhi = min(ca[1], cb[1]) - 40, max(ca[1], cb[1]) + 40
        near = [(p, q) for p, q in self._wall_lines
                if max(p[0], q[0]) >= xlo and min(p[0], q[0]) <= xhi
                and max(p[1], q[1]) >= ylo and min(p[1], q[1]) <= yhi]
        if not near:
            return True
        pa, pb = self._samples(a), self._samples(b)
        for p in pa:
            for q in pb:
                sx0, sx1 = (p[0], q[0]) if p[0] <= q[0] else (q[0], p[0])
                sy0, sy1 = (p[1], q[1]) if p[1] <= q[1] else (q[1], p[1])
                walls = [(u, v) for u, v in near
                         if max(u[0], v[0]) >= sx0 and min(u[0], v[0]) <= sx1
                         and max(u[1], v[1]) >= sy0 and min(u[1], v[1]) <= sy1]
                if not segment_blocked(p, ca, q, cb, walls):
                    return True
        return False
