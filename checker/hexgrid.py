"""Flat-topped hex grid in "odd-q" offset layout, with exact line-of-sight geometry.

Hexes are addressed ``(column, row)``; odd columns sit half a hex toward higher rows, so the
neighbours of ``(c, r)`` are ``(c, r-1)``, ``(c, r+1)`` and, for even ``c``, ``(c±1, r-1)``,
``(c±1, r)``; for odd ``c``, ``(c±1, r)``, ``(c±1, r+1)``.

Geometry is exact integer (or rational) arithmetic: with hex radius 1 the centre of ``(c, r)``
is at ``(1.5 c, √3 (r + (c & 1) / 2))``; we scale x by 80 and y by 80/√3, an affine map that
keeps every incidence (crossing, touching, collinearity) unchanged, so that centre, corners
and edge midpoints all land on integers: centre ``(120 c, 80 r + 40 (c & 1))``, corners at
``(±80, 0)``, ``(±40, ±40)`` from it. No tolerance is used anywhere: a line that passes a wall
corner by a hair is clear, one that touches it is blocked.

Wall lines (what blocks line of sight) are the edges between a room hex and a wall hex, the
diagonals of every wall hex (so no line passes through one), and the thin walls; the map's
outer edge is not a wall (the board is the part of the room drawn, as in the published puzzle
boards). ``Board.sees`` has three rules (``los_points``):

- ``"strict-corners"`` (Gloomhaven, the corner-to-corner rule): a segment from a corner of one
  hex to a corner of the other touching no wall line; a corner that touches a wall line cannot
  be used, so a hex all of whose corners touch walls sees no other hex.
- ``"any"`` (Frosthaven, "any part of the hex"): some segment from a point of one hex to a
  point of the other touches no wall line, decided exactly (checker.hexsight).
- ``"corners"``: the earlier corner rule, kept for callers that use it: each corner pulled an
  infinitesimal ε toward its own hex's centre (exactly: see checker.hexsight.EPS_SCALE), so a
  line may start at a corner lying on a wall if it leaves through the room.

``Board.sight_line`` gives the clear segment itself (scaled coordinates, maybe fractions).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from checker.hexsight import (  # noqa: F401
    EPS_SCALE,
    Point,
    Segment,
    any_point_line,
    pulled,
    pulled_corners_line,
    scaled,
    segments_touch,
)

Hex = tuple[int, int]

# Directions 0..5: N, NE, SE, S, SW, NW; (dc, dr) for even and for odd columns.
_DIRS_EVEN: tuple[Hex, ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1))
_DIRS_ODD: tuple[Hex, ...] = ((0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0))
DIRECTIONS = range(6)
LOS_RULES = ("strict-corners", "any", "corners")

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


def _edge(h: Hex, d: int) -> tuple[Point, Point]:
    """The edge of h toward direction d (its two corners, sorted): corners d+4 and d+5."""
    cx, cy = centre(h)
    (ax, ay), (bx, by) = _CORNERS[(d + 4) % 6], _CORNERS[(d + 5) % 6]
    p, q = (cx + ax, cy + ay), (cx + bx, cy + by)
    return (p, q) if p <= q else (q, p)


def shared_edge(a: Hex, b: Hex) -> tuple[Point, Point]:
    """The edge between two neighbouring hexes."""
    common = sorted(set(corners(a)) & set(corners(b)))
    if len(common) != 2:
        raise ValueError(f"{a} and {b} are not neighbours")
    return common[0], common[1]


# --- the board ---------------------------------------------------------------------------------


@dataclass
class Board:
    """The map: which hexes are room hexes, where the wall lines are, ranges, line of sight."""

    width: int
    height: int
    walls: frozenset[Hex]
    thin_walls: frozenset[frozenset[Hex]]
    los_points: str = "corners"  # one of LOS_RULES (see the module docstring)
    _adj: dict[Hex, tuple[Hex, ...]] = field(default_factory=dict, repr=False)
    _steps: dict[Hex, tuple[tuple[int, Hex], ...]] = field(default_factory=dict, repr=False)
    _walls_at: dict[Hex, list[tuple[Point, Point]]] = field(default_factory=dict, repr=False)
    _wall_points: set[Point] = field(default_factory=set, repr=False)
    _los_cache: dict[tuple[Hex, Hex], Segment | None] = field(default_factory=dict, repr=False)
    _range_cache: dict[tuple[Hex, int | None], dict[Hex, int]] = field(
        default_factory=dict, repr=False
    )

    def __post_init__(self) -> None:
        if self.los_points not in LOS_RULES:
            raise ValueError(f"los_points must be one of {LOS_RULES}")
        width, height, walls, thin = self.width, self.height, self.walls, self.thin_walls
        for c in range(width):
            dirs = _DIRS_ODD if c & 1 else _DIRS_EVEN
            for r in range(height):
                h = (c, r)
                if h in walls:
                    # A wall hex blocks every line through it, also one entering from outside
                    # the map: its three diagonals are wall lines.
                    cs = corners(h)
                    for i in range(3):
                        lo, hi = sorted((cs[i], cs[i + 3]))
                        self._add_wall_line(h, (lo, hi))
                    continue
                steps = []
                for d, (dc, dr) in enumerate(dirs):
                    n = (c + dc, r + dr)
                    if not (0 <= n[0] < width and 0 <= n[1] < height):
                        continue
                    if n in walls:
                        self._add_wall_line(h, _edge(h, d))
                    elif not thin or frozenset((h, n)) not in thin:
                        steps.append((d, n))
                self._steps[h] = tuple(steps)
                self._adj[h] = tuple(n for _, n in steps)
        for pair in thin:
            a, b = sorted(pair)
            self._add_wall_line(a, shared_edge(a, b))

    def _add_wall_line(self, h: Hex, line: tuple[Point, Point]) -> None:
        """Index a wall line under a hex it borders (where sight tests look for it)."""
        lines = self._walls_at.setdefault(h, [])
        if line not in lines:
            lines.append(line)
            self._wall_points.update(line)

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

    def room_neighbours(self, h: Hex) -> tuple[Hex, ...]:
        """The neighbours of room hex h reachable without crossing a wall."""
        return self._adj.get(h, ())

    def room_steps(self, h: Hex) -> tuple[tuple[int, Hex], ...]:
        """(direction, neighbour) for each step from room hex h that crosses no wall."""
        return self._steps.get(h, ())

    def adjacent(self, a: Hex, b: Hex) -> bool:
        """Neighbours not separated by a wall line."""
        return b in self._adj.get(a, ())

    def range_distances(self, origin: Hex, limit: int | None = None) -> dict[Hex, int]:
        """Hex distance from origin counted around walls (through anything else); with
        `limit`, only the hexes within that distance."""
        key = (origin, limit)
        cached = self._range_cache.get(key)
        if cached is not None:
            return cached
        dist = {origin: 0}
        frontier = [origin]
        adj, d = self._adj, 0
        while frontier and (limit is None or d < limit):
            d += 1
            nxt = []
            for h in frontier:
                for n in adj.get(h, ()):
                    if n not in dist:
                        dist[n] = d
                        nxt.append(n)
            frontier = nxt
        self._range_cache[key] = dist
        return dist

    def range_distance(self, a: Hex, b: Hex) -> int | None:
        return self.range_distances(a).get(b)

    def sees(self, a: Hex, b: Hex) -> bool:
        """Line of sight between hexes a and b (see the module docstring)."""
        return a == b or self._line(a, b) is not None

    def sight_line(self, a: Hex, b: Hex) -> Segment | None:
        """A clear line from a point of hex a to a point of hex b (scaled coordinates,
        possibly fractions), or None without line of sight. "strict-corners": two corners;
        "corners": the two corners whose segment is clear once pulled ε inward."""
        if a == b:
            return centre(a), centre(a)
        line = self._line(a, b)
        if line is None or (a, b) == tuple(sorted((a, b))):
            return line
        return line[1], line[0]

    def _line(self, a: Hex, b: Hex) -> Segment | None:
        key = (a, b) if a <= b else (b, a)
        if key not in self._los_cache:
            self._los_cache[key] = self._compute_line(*key)
        return self._los_cache[key]

    def _near_walls(self, a: Hex, b: Hex) -> list[tuple[Point, Point]]:
        """The wall lines that may touch a segment between the two hexes."""
        ca, cb = centre(a), centre(b)
        xlo, xhi = min(ca[0], cb[0]) - 80, max(ca[0], cb[0]) + 80
        ylo, yhi = min(ca[1], cb[1]) - 40, max(ca[1], cb[1]) + 40
        out = []
        for c in range(min(a[0], b[0]) - 1, max(a[0], b[0]) + 2):
            for r in range(min(a[1], b[1]) - 2, max(a[1], b[1]) + 3):
                for u, v in self._walls_at.get((c, r), ()):
                    if (
                        max(u[0], v[0]) >= xlo
                        and min(u[0], v[0]) <= xhi
                        and max(u[1], v[1]) >= ylo
                        and min(u[1], v[1]) <= yhi
                    ):
                        out.append((u, v))
        return out

    def _compute_sees(self, a: Hex, b: Hex) -> bool:
        return self._compute_line(a, b) is not None

    def _compute_line(self, a: Hex, b: Hex) -> Segment | None:
        near = self._near_walls(a, b)
        if self.los_points == "strict-corners":
            pa = [p for p in corners(a) if p not in self._wall_points]
            pb = [q for q in corners(b) if q not in self._wall_points]
            return next(
                (
                    (p, q)
                    for p in pa
                    for q in pb
                    if not any(segments_touch(p, q, u, v) for u, v in near)
                ),
                None,
            )
        if self.los_points == "any":
            return any_point_line(centre(a), centre(b), near)
        return pulled_corners_line((centre(a), corners(a)), (centre(b), corners(b)), near)
