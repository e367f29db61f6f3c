"""Exact line-of-sight geometry for checker.hexgrid, on its scaled integer coordinates.

Hex corners are integers (centre ± (80, 0), (40, ±40)); everything here is integer or
rational arithmetic, with no tolerance: a segment touching a wall line (even at one point) is
blocked, one passing it by any margin is clear.

Frosthaven's "any part of the hex" rule is decided exactly: every clear segment between two
hexes can be slid to one between their diagonals most perpendicular to the line between them
(the hexes' cross-sections), and the segments between two parallel diagonals form a unit
square (s, t), the segment from SA(s) to SB(t). A point P lies on that segment exactly where an
affine function F_P(s, t) vanishes, so a wall segment blocks the region between two lines of
the square, F_P1 F_P2 <= 0 (P1, P2 its ends, once clipped to the strip between the diagonals).
The square is swept, in s, between every place where two of those lines cross or a line meets
an edge: in each slab the lines keep their order, so testing the midpoint of each gap between
them finds every open cell no wall covers.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import lcm

Point = tuple[int, int]
Num = int | Fraction
Segment = tuple[tuple[Num, Num], tuple[Num, Num]]

# The three diagonals of a hex (corner to opposite corner): W-E, SW-NE, NW-SE.
_DIAGONALS: tuple[Point, ...] = ((160, 0), (80, -80), (80, 80))


# --- exact segment predicates ---------------------------------------------------------------


def _side(o: tuple[Num, Num], u: tuple[Num, Num], v: tuple[Num, Num]) -> int:
    """Sign of cross(u - o, v - o): which side of line o-u the point v is on (0: on it)."""
    cross = (u[0] - o[0]) * (v[1] - o[1]) - (u[1] - o[1]) * (v[0] - o[0])
    return (cross > 0) - (cross < 0)


def _on_box(o: tuple[Num, Num], u: tuple[Num, Num], v: tuple[Num, Num]) -> bool:
    """v (collinear with o-u) lies on the closed segment o-u."""
    return min(o[0], u[0]) <= v[0] <= max(o[0], u[0]) and min(o[1], u[1]) <= v[1] <= max(o[1], u[1])


def segments_touch(
    p: tuple[Num, Num], q: tuple[Num, Num], a: tuple[Num, Num], b: tuple[Num, Num]
) -> bool:
    """Closed segments p-q and a-b share at least one point."""
    d1, d2, d3, d4 = _side(a, b, p), _side(a, b, q), _side(p, q, a), _side(p, q, b)
    if d1 * d2 < 0 and d3 * d4 < 0:
        return True
    return (
        (d1 == 0 and _on_box(a, b, p))
        or (d2 == 0 and _on_box(a, b, q))
        or (d3 == 0 and _on_box(p, q, a))
        or (d4 == 0 and _on_box(p, q, b))
    )


# --- the earlier corner rule: an infinitesimal ε, exactly --------------------------------------
# A sample point p of a hex with centre c is taken at p + ε (c - p). With every coordinate
# multiplied by K = 1 / ε this is the integer point K p + (c - p). On a board of at most
# 50 x 50 hexes every orientation (cross product) of such points is a polynomial
# a0 + a1 ε + a2 ε² with integer coefficients |a1| < 10^8, |a2| < 10^5, so with K = 10^9 its
# sign is exactly the sign of its first non-zero coefficient: the result is the one for an
# infinitesimal ε, in plain integer arithmetic.

EPS_SCALE = 10**9


def pulled(p: Point, c: Point) -> Point:
    """p moved ε toward c, in coordinates scaled by EPS_SCALE."""
    return (EPS_SCALE * p[0] + c[0] - p[0], EPS_SCALE * p[1] + c[1] - p[1])


def scaled(p: Point) -> Point:
    return (EPS_SCALE * p[0], EPS_SCALE * p[1])


def pulled_corners_line(
    a: tuple[Point, list[Point]], b: tuple[Point, list[Point]], near: list[tuple[Point, Point]]
) -> tuple[Point, Point] | None:
    """Given (centre, corners) of two hexes: the corners whose segment, each pulled ε toward
    its own centre, touches no wall line."""
    walls = [(scaled(u), scaled(v)) for u, v in near]
    for p in a[1]:
        pp = pulled(p, a[0])
        for q in b[1]:
            qq = pulled(q, b[0])
            if not any(segments_touch(pp, qq, u, v) for u, v in walls):
                return p, q
    return None


# --- "any part of the hex", exactly --------------------------------------------------------------

Line = tuple[int, int, int]  # F(s, t) = alpha s + beta t + gamma


def _diagonal_for(ca: Point, cb: Point) -> Point:
    """The diagonal most perpendicular to the line between the centres (true geometry).

    In true coordinates (x / 80, y √3 / 80) the dot products of the three diagonals with the
    centre-to-centre vector are 2 vx, vx - 3 vy and vx + 3 vy (over 80): exact integers."""
    vx, vy = cb[0] - ca[0], cb[1] - ca[1]
    scores = (abs(2 * vx), abs(vx - 3 * vy), abs(vx + 3 * vy))
    return _DIAGONALS[scores.index(min(scores))]


@dataclass(frozen=True)
class _Strip:
    """Segments from SA(s) = sa0 + s D (hex a's diagonal) to SB(t) = sb0 + t D (hex b's):
    a point P at height h(P) in [0, H] lies on the segment for (s, t) iff F_P(s, t) = 0."""

    d: Point
    sa0: Point
    sign: int
    height: int
    dd: int
    xa0: int
    xb0: int

    @classmethod
    def between(cls, ca: Point, cb: Point) -> "_Strip":
        d = _diagonal_for(ca, cb)
        sa0 = (ca[0] - d[0] // 2, ca[1] - d[1] // 2)
        sb0 = (cb[0] - d[0] // 2, cb[1] - d[1] // 2)
        cross = d[0] * (cb[1] - ca[1]) - d[1] * (cb[0] - ca[0])
        sign = 1 if cross > 0 else -1
        return cls(
            d,
            sa0,
            sign,
            abs(cross),
            d[0] * d[0] + d[1] * d[1],
            d[0] * sa0[0] + d[1] * sa0[1],
            d[0] * sb0[0] + d[1] * sb0[1],
        )

    def h(self, p: tuple[Num, Num]) -> Num:
        return self.sign * (self.d[0] * (p[1] - self.sa0[1]) - self.d[1] * (p[0] - self.sa0[0]))

    def line_through(self, p: tuple[Num, Num]) -> Line:
        """F_P with integer coefficients (scaled by a positive denominator)."""
        hp, xp, big = self.h(p), self.d[0] * p[0] + self.d[1] * p[1], self.height
        coeffs = [
            Fraction((big - hp) * self.dd),
            Fraction(hp * self.dd),
            Fraction((big - hp) * self.xa0 + hp * self.xb0 - big * xp),
        ]
        den = lcm(*(c.denominator for c in coeffs))
        a, b, g = (int(c * den) for c in coeffs)
        return a, b, g

    def wall_lines(self, u: Point, v: Point) -> tuple[Line, Line] | None:
        """The two lines bounding the (s, t) region wall u-v blocks, once clipped to the
        strip 0 <= h <= H; None if no point of the wall lies in the strip."""
        hu, hv = self.h(u), self.h(v)
        lo, hi = min(hu, hv), max(hu, hv)
        if hi < 0 or lo > self.height:
            return None
        ends: list[tuple[Num, Num]] = [u, v]
        if hu != hv:
            for i, (_, hp) in enumerate(((u, hu), (v, hv))):
                if hp < 0 or hp > self.height:
                    target = 0 if hp < 0 else self.height
                    mu = Fraction(target - hu, hv - hu)
                    ends[i] = (u[0] + mu * (v[0] - u[0]), u[1] + mu * (v[1] - u[1]))
        return self.line_through(ends[0]), self.line_through(ends[1])


def _value(line: Line, s: Num, t: Num) -> Num:
    return line[0] * s + line[1] * t + line[2]


def _sign_on_square(line: Line) -> int:
    """+1 / -1 if the line's function has that strict sign on the whole unit square, else 0."""
    vals = [_value(line, s, t) for s in (0, 1) for t in (0, 1)]
    if all(v > 0 for v in vals):
        return 1
    if all(v < 0 for v in vals):
        return -1
    return 0


def _critical_s(lines: list[Line]) -> list[Fraction]:
    """Where, in s, two lines cross or a line meets t = 0, t = 1 or stands vertical."""
    crit = {Fraction(0), Fraction(1)}
    for i, (a1, b1, g1) in enumerate(lines):
        if a1:
            crit.add(Fraction(-g1, a1))
            crit.add(Fraction(-(b1 + g1), a1))
        for a2, b2, g2 in lines[:i]:
            den = a1 * b2 - a2 * b1
            if den:
                crit.add(Fraction(g2 * b1 - g1 * b2, den))
    return sorted(x for x in crit if 0 <= x <= 1)


def _open_cell(pairs: list[tuple[Line, Line]]) -> tuple[Fraction, Fraction] | None:
    """A point (s, t) of the open unit square outside every wall's closed region F1 F2 <= 0."""
    lines = [ln for pair in pairs for ln in pair]
    crit = _critical_s(lines)
    for s0, s1 in zip(crit, crit[1:]):
        s = (s0 + s1) / 2
        roots = sorted(
            {Fraction(-(a * s + g), b) for a, b, g in lines if b} | {Fraction(0), Fraction(1)}
        )
        roots = [r for r in roots if 0 <= r <= 1]
        for t0, t1 in zip(roots, roots[1:]):
            t = (t0 + t1) / 2
            if all(_value(f1, s, t) * _value(f2, s, t) > 0 for f1, f2 in pairs):
                return s, t
    return None


def any_point_line(ca: Point, cb: Point, near: list[tuple[Point, Point]]) -> Segment | None:
    """A segment from a point of the hex centred on ca to a point of the hex centred on cb
    touching no wall line of `near`, or None (see the module docstring)."""
    if not any(segments_touch(ca, cb, u, v) for u, v in near):
        return ca, cb  # the centres see each other
    strip = _Strip.between(ca, cb)
    pairs: list[tuple[Line, Line]] = []
    for u, v in near:
        lines = strip.wall_lines(u, v)
        if lines is None:
            continue
        s1, s2 = _sign_on_square(lines[0]), _sign_on_square(lines[1])
        if s1 * s2 < 0:
            return None  # this wall alone crosses every segment between the diagonals
        if s1 * s2 > 0:
            continue  # it crosses none
        pairs.append(lines)
    cell = _open_cell(pairs) if pairs else (Fraction(1, 2), Fraction(1, 2))
    if cell is None:
        return None
    (s, t), d = cell, strip.d
    sb0 = (cb[0] - d[0] // 2, cb[1] - d[1] // 2)
    return (
        (strip.sa0[0] + s * d[0], strip.sa0[1] + s * d[1]),
        (sb0[0] + t * d[0], sb0[1] + t * d[1]),
    )
