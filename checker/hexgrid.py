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
off-map hex, and the thin walls. Sample points: Gloomhaven, the 6 corners (corner to corner);
Frosthaven ("any point of the hex"), the centre, the corners and the edge midpoints. Each is
pulled an infinitesimal ε toward its own hex's centre (exactly: see EPS_SCALE), so a line may
start at a corner lying on a wall but must leave through the room: a line from a corner of a
hex along a corridor wall sees down the corridor, while two hexes meeting only at a wall
junction, or separated by a thin wall, do not see each other.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Iterator

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
# A sample point p of a hex with centre c is taken at p + ε (c - p). With every coordinate
# multiplied by K = 1 / ε this is the integer point K p + (c - p). On a board of at most
# 50 x 50 hexes every orientation (cross product) of such points is a polynomial
# a0 + a1 ε + a2 ε² with integer coefficients |a1| < 10^8, |a2| < 10^5, so with K = 10^9 its
# sign is exactly the sign of its first non-zero coefficient: the result is the one for an
# infinitesimal ε, in plain integer arithmetic.

EPS_SCALE = 10 ** 9


def _side(o: Point, u: Point, v: Point) -> int:
    """Sign of cross(u - o, v - o): which side of line o-u the point v is on (0: on it)."""
    cross = (u[0] - o[0]) * (v[1] - o[1]) - (u[1] - o[1]) * (v[0] - o[0])
    return (cross > 0) - (cross < 0)


def _on_box(o: Point, u: Point, v: Point) -> bool:
    """v (collinear with o-u) lies on the closed segment o-u."""
    return (min(o[0], u[0]) <= v[0] <= max(o[0], u[0])
            and min(o[1], u[1]) <= v[1] <= max(o[1], u[1]))


def segments_touch(p: Point, q: Point, a: Point, b: Point) -> bool:
    """Closed segments p-q and a-b share at least one point."""
    d1, d2, d3, d4 = _side(a, b, p), _side(a, b, q), _side(p, q, a), _side(p, q, b)
    if d1 * d2 < 0 and d3 * d4 < 0:
        return True
    return ((d1 == 0 and _on_box(a, b, p)) or (d2 == 0 and _on_box(a, b, q))
            or (d3 == 0 and _on_box(p, q, a)) or (d4 == 0 and _on_box(p, q, b)))


def pulled(p: Point, c: Point) -> Point:
    """p moved ε toward c, in coordinates scaled by EPS_SCALE."""
    return (EPS_SCALE * p[0] + c[0] - p[0], EPS_SCALE * p[1] + c[1] - p[1])


def scaled(p: Point) -> Point:
    return (EPS_SCALE * p[0], EPS_SCALE * p[1])


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
    _wall_boxes: list[tuple[Point, Point, int, int, int, int]] = field(default_factory=list,
                                                                      repr=False)
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
        self._wall_boxes = [(u, v, min(u[0], v[0]), max(u[0], v[0]), min(u[1], v[1]),
                             max(u[1], v[1])) for u, v in self._wall_lines]

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
        """Sample points of h, pulled ε toward its centre (scaled coordinates)."""
        c = centre(h)
        pts = corners(h)
        if self.los_points == "any":
            pts = [c] + pts + edge_midpoints(h)
        return [pulled(p, c) for p in pts]

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
        near = [(scaled(u), scaled(v)) for u, v, x0, x1, y0, y1 in self._wall_boxes
                if x1 >= xlo and x0 <= xhi and y1 >= ylo and y0 <= yhi]
        if not near:
            return True
        pa, pb = self._samples(a), self._samples(b)
        # Side of each wall line's supporting line for every sample point, computed once.
        side_a = [[_side(u, v, p) for u, v in near] for p in pa]
        side_b = [[_side(u, v, q) for u, v in near] for q in pb]
        for p, sp in zip(pa, side_a):
            for q, sq in zip(pb, side_b):
                if not self._blocked(p, sp, q, sq, near):
                    return True
        return False

    @staticmethod
    def _blocked(p: Point, sp: list[int], q: Point, sq: list[int],
                 near: list[tuple[Point, Point]]) -> bool:
        """Whether segment p-q touches one of the wall lines `near`."""
        for i, (u, v) in enumerate(near):
            s1, s2 = sp[i], sq[i]
            if s1 * s2 > 0:
                continue  # both ends strictly on one side of the wall line
            d3, d4 = _side(p, q, u), _side(p, q, v)
            if d3 * d4 > 0:
                continue
            if s1 and s2 and d3 and d4:
                return True  # a strict crossing
            if segments_touch(p, q, u, v):
                return True
        return False
