"""The monster rules of issue 12, each on hand-built boards (at least one per sentence).

Layout as in test_monster.py: flat-topped odd-q hexes [column, row]; odd columns sit half a hex
lower. Several boards split the room into two corridors with a row of wall hexes, so the paths
toward each side are easy to follow: on a 3-row board, row 0 and row 2 are corridors and
row 1 is wall from column 1 on; the monster stands at [0, 1], where both corridors start.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest

from checker import monster
from checker.base import CheckInputError
from checker.hexgrid import Board, corners, neighbours, segments_touch, shared_edge
from checker.monster import NO_RECORD
from tests.checker.test_monster import GAMES, cited, focus, opts, req


def enemies(*rows: tuple[list[int], int, str]) -> list[dict[str, Any]]:
    return [{"hex": h, "initiative": i, "name": n} for h, i, n in rows]


def step(result: dict[str, Any], action: str) -> dict[str, Any]:
    return next(s for s in result["steps"] if s["action"] == action)


def toward(result: dict[str, Any]) -> dict[tuple[int, int], set[tuple[int, int]]]:
    return {tuple(o["destination"]): {tuple(h) for h in o["toward"]} for o in result["options"]}


def corridors(width: int, upto: int) -> list[list[int]]:
    """Row 1 is wall from column 1 to `upto`: two corridors, rows 0 and 2."""
    return [[c, 1] for c in range(1, upto + 1)]


# --- 1. destinations the players choose among ------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_it_heads_for_the_closest_attack_hex_and_gets_as_close_as_it_can(game: str) -> None:
    # The focus at [8, 1] can be attacked from [7, 0] (7 steps along row 0) or [7, 1] (8 steps,
    # from either corridor). Allies stand on [2, 0] and [3, 0]: along row 0 the monster can
    # only end on [1, 0], 6 short of [7, 0]; along row 2 it would end 5 short of [7, 1]. It
    # heads for the closest attack hex all the same (the earlier solver went down row 2).
    r = monster.run(
        req(
            game,
            9,
            3,
            at=[0, 1],
            move=3,
            enemies=[[8, 1]],
            allies=[[2, 0], [3, 0]],
            walls=corridors(9, 6),
        )
    )
    assert opts(r) == {((1, 0), frozenset())}
    assert toward(r) == {(1, 0): {(7, 0)}}
    detail = step(r, "move toward focus")["value"]
    assert (detail["remaining_movement"], detail["movement_used"]) == (6, 1)


@pytest.mark.parametrize("game", GAMES)
def test_tied_destinations_are_all_options_even_one_it_cannot_progress_toward(game: str) -> None:
    # [7, 0] and [6, 2] are both 7 steps away (rows 0 and 2). Allies on [1, 0] and [2, 0]
    # leave no end hex closer to [7, 0] this turn: staying is that destination's best move.
    r = monster.run(
        req(
            game,
            9,
            3,
            at=[0, 1],
            move=2,
            enemies=[[7, 1]],
            allies=[[1, 0], [2, 0]],
            walls=corridors(9, 6),
        )
    )
    assert opts(r) == {((0, 1), frozenset()), ((1, 2), frozenset())}
    assert toward(r) == {(0, 1): {(7, 0)}, (1, 2): {(6, 2)}}
    assert "players choose among them" in step(r, "move toward focus")["note"]
    # Without the allies both destinations get the same progress: one option each.
    r = monster.run(req(game, 9, 3, at=[0, 1], move=2, enemies=[[7, 1]], walls=corridors(9, 6)))
    assert toward(r) == {(2, 0): {(7, 0)}, (1, 2): {(6, 2)}}


@pytest.mark.parametrize("game", GAMES)
def test_destination_chosen_by_closeness_never_by_progress_this_turn(game: str) -> None:
    # Same room as the first test with Move 3, but [7, 1] no longer reachable from row 2 (a
    # wall at [7, 2]): the closest attack hex is [7, 0] and the monster goes for it though
    # it gets only 1 hex along row 0, while row 2 would let it move its full 3.
    r = monster.run(
        req(
            game,
            9,
            3,
            at=[0, 1],
            move=3,
            enemies=[[8, 1]],
            allies=[[2, 0], [3, 0]],
            walls=corridors(9, 6) + [[7, 2]],
        )
    )
    assert toward(r) == {(1, 0): {(7, 0)}}


@pytest.mark.parametrize("game", GAMES)
def test_a_jumper_paths_around_obstacles_leaving_a_tied_destination_with_less_progress(
    game: str,
) -> None:
    # An obstacle on [2, 0]: a jumper may pass it but not end on it, so toward [7, 0] it gets
    # 1 hex ([1, 0]) and toward the tied [6, 2] 2 hexes ([1, 2]): both are options.
    kw = dict(at=[0, 1], move=2, enemies=[[7, 1]], obstacles=[[2, 0]], walls=corridors(9, 6))
    jump = monster.run(req(game, 9, 3, jump=True, **kw))
    assert toward(jump) == {(1, 0): {(7, 0)}, (1, 2): {(6, 2)}}
    # Obstacles on [1, 0] and [2, 0]: the jumper cannot progress toward [7, 0] at all and
    # stays for that destination; a walker cannot go that way at all (one destination).
    kw["obstacles"] = [[1, 0], [2, 0]]
    jump = monster.run(req(game, 9, 3, jump=True, **kw))
    assert toward(jump) == {(0, 1): {(7, 0)}, (1, 2): {(6, 2)}}
    walk = monster.run(req(game, 9, 3, **kw))
    assert toward(walk) == {(1, 2): {(6, 2)}}


@pytest.mark.parametrize("game", GAMES)
def test_a_flyer_likewise(game: str) -> None:
    kw = dict(at=[0, 1], move=2, enemies=[[7, 1]], walls=corridors(9, 6), flying=True)
    # It may end on obstacles: both destinations get full progress.
    r = monster.run(req(game, 9, 3, obstacles=[[1, 0], [2, 0]], **kw))
    assert toward(r) == {(2, 0): {(7, 0)}, (1, 2): {(6, 2)}}
    # It may not end on figures: no progress toward [7, 0], still an option.
    r = monster.run(req(game, 9, 3, allies=[[1, 0], [2, 0]], **kw))
    assert toward(r) == {(0, 1): {(7, 0)}, (1, 2): {(6, 2)}}


# --- 2. muddled ranged monsters ----------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_muddled_monster_does_not_step_away_from_an_adjacent_focus(game: str) -> None:
    kw = dict(at=[3, 3], move=2, range=3, enemies=[[3, 2]])
    assert opts(monster.run(req(game, **kw))) == {
        (h, frozenset({(3, 2)})) for h in [(2, 4), (3, 4), (4, 4)]
    }
    r = monster.run(req(game, muddled=True, **kw))
    assert opts(r) == {((3, 3), frozenset({(3, 2)}))}
    assert NO_RECORD in step(r, "disadvantage")["note"]
    assert step(r, "disadvantage")["rulings"] == []


@pytest.mark.parametrize("game", GAMES)
def test_muddled_monster_does_not_step_away_from_an_adjacent_secondary_target(game: str) -> None:
    # Focus F 3 hexes away, S adjacent: from [2, 3] (1 move) it attacks both without
    # disadvantage, so it moves there; muddled, it attacks both from where it stands.
    ens = enemies(([3, 0], 10, "F"), ([4, 3], 20, "S"))
    kw = dict(at=[3, 3], move=1, range=3, targets=2, enemies=ens)
    assert opts(monster.run(req(game, **kw))) == {((2, 3), frozenset({(3, 0), (4, 3)}))}
    assert opts(monster.run(req(game, muddled=True, **kw))) == {
        ((3, 3), frozenset({(3, 0), (4, 3)}))
    }


# --- 3. Gloomhaven's multi-target order ------------------------------------------------------


def test_gloomhaven_ranks_secondary_targets_by_proximity_frosthaven_lets_players_choose() -> None:
    # F is the focus (proximity 2, initiative 10). "close" (proximity 2) outranks "early"
    # (proximity 3) in Gloomhaven despite its later initiative; Frosthaven does not rank them.
    ens = enemies(([3, 1], 10, "F"), ([3, 5], 50, "close"), ([6, 3], 5, "early"))
    kw = dict(at=[3, 3], move=0, range=3, targets=2, enemies=ens)
    assert opts(monster.run(req("gloomhaven", **kw))) == {((3, 3), frozenset({(3, 1), (3, 5)}))}
    assert opts(monster.run(req("frosthaven", **kw))) == {
        ((3, 3), frozenset({(3, 1), (3, 5)})),
        ((3, 3), frozenset({(3, 1), (6, 3)})),
    }


def test_gloomhaven_ranks_secondary_targets_by_initiative_when_proximity_ties() -> None:
    ens = enemies(([3, 1], 10, "F"), ([3, 5], 50, "late"), ([1, 3], 40, "early"))
    kw = dict(at=[3, 3], move=0, range=3, targets=2, enemies=ens)
    assert opts(monster.run(req("gloomhaven", **kw))) == {((3, 3), frozenset({(3, 1), (1, 3)}))}
    assert len(opts(monster.run(req("frosthaven", **kw)))) == 2


def test_gloomhaven_picks_targets_by_the_movement_needed_before_their_rank() -> None:
    # F (focus) can be attacked from where the monster stands. "close" and "late" are both 3
    # away (proximity); "close" acts first, so it ranks better. But F and "late" can be
    # attacked together after 1 move ([2, 2]), F and "close" only after going round the
    # obstacles: the movement needed to attack them comes before their rank.
    ens = enemies(([3, 0], 10, "F"), ([0, 3], 50, "late"), ([6, 2], 20, "close"))
    r = monster.run(
        req(
            "gloomhaven",
            7,
            7,
            at=[3, 2],
            move=3,
            range=2,
            targets=2,
            enemies=ens,
            obstacles=[[4, 1], [4, 2], [4, 3]],
        )
    )
    assert opts(r) == {((2, 2), frozenset({(3, 0), (0, 3)}))}
    ranks = {row["name"]: row["proximity"] for row in step(r, "focus candidates")["value"]}
    assert ranks["close"] == ranks["late"] == 3


def test_gloomhaven_moves_farther_to_avoid_disadvantage_against_a_secondary_target() -> None:
    # Focus F is adjacent. With one move the monster can attack F and "near" (better rank by
    # proximity) from [6, 1], but "near" would then be adjacent (disadvantage); Gloomhaven
    # keeps the group it ranked best and moves 2 to [4, 1] to attack both without it.
    # Frosthaven counts targets, then disadvantage, then movement: F and "far" after 1 move.
    ens = enemies(([5, 2], 20, "F"), ([6, 0], 21, "near"), ([4, 0], 30, "far"))
    kw = dict(at=[6, 2], move=3, range=2, targets=2, enemies=ens)
    gh = monster.run(req("gloomhaven", 7, 6, **kw))
    assert opts(gh) == {((4, 1), frozenset({(5, 2), (6, 0)}))}
    assert step(gh, "destination")["value"]["movement_used"] == 2
    note = step(gh, "additional targets")["note"]
    assert "multi-target order" in note and NO_RECORD in note
    assert step(gh, "additional targets")["rulings"] == []
    fh = monster.run(req("frosthaven", 7, 6, **kw))
    assert opts(fh) == {((6, 1), frozenset({(5, 2), (4, 0)}))}
    assert "fh-edge-06" in cited(fh)


def test_out_of_reach_gloomhaven_heads_for_its_best_attack_frosthaven_for_the_closest_hex() -> None:
    # Focus F at [7, 1], a second enemy S at [9, 1]; two targets. Closest attack hexes of F:
    # [7, 0] and [6, 2] (7 steps); the only hex next to both F and S is [8, 1] (8 steps).
    ens = enemies(([7, 1], 10, "F"), ([9, 1], 20, "S"))
    kw = dict(at=[0, 1], move=2, targets=2, enemies=ens, walls=corridors(10, 6))
    gh = monster.run(req("gloomhaven", 10, 3, **kw))
    assert toward(gh) == {(2, 0): {(8, 1)}}
    fh = monster.run(req("frosthaven", 10, 3, **kw))
    assert toward(fh) == {(2, 0): {(7, 0)}, (1, 2): {(6, 2)}}


# --- 4. line of sight at corners -----------------------------------------------------------------


def test_a_hex_whose_corners_all_touch_walls_sees_nothing_in_gloomhaven() -> None:
    # Walls on three alternate neighbours of [3, 3] (N, SE, SW): each of its corners ends a
    # wall line. By the corner rule it sees no hex; by "any part of the hex" it sees.
    walls = frozenset({(3, 2), (4, 4), (2, 4)})
    gh = Board(7, 7, walls, frozenset(), los_points="strict-corners")
    fh = Board(7, 7, walls, frozenset(), los_points="any")
    room = [(c, r) for c in range(7) for r in range(7) if (c, r) not in walls | {(3, 3)}]
    assert not any(gh.sees((3, 3), h) for h in room)
    assert fh.sees((3, 3), (3, 4)) and fh.sees((3, 3), (3, 6))


@pytest.mark.parametrize("game", GAMES)
def test_the_monster_on_such_a_hex_must_step_out_in_gloomhaven(game: str) -> None:
    r = monster.run(
        req(game, at=[3, 3], move=2, range=4, enemies=[[3, 6]], walls=[[3, 2], [4, 4], [2, 4]])
    )
    if game == "frosthaven":
        assert opts(r) == {((3, 3), frozenset({(3, 6)}))}
    else:
        assert (3, 3) not in {d for d, _ in opts(r)}
        assert all(attacks == frozenset({(3, 6)}) for _, attacks in opts(r))
        assert "corner-to-corner rule" in step(r, "range and line of sight")["note"]


def _min_gap_squared(p: tuple[int, int], q: tuple[int, int], points: set) -> Fraction:
    """The smallest squared distance from segment p-q to any of `points`, exactly."""
    best = None
    dx, dy = q[0] - p[0], q[1] - p[1]
    for w in points:
        t = Fraction((w[0] - p[0]) * dx + (w[1] - p[1]) * dy, dx * dx + dy * dy)
        t = min(Fraction(1), max(Fraction(0), t))
        gap = (p[0] + t * dx - w[0]) ** 2 + (p[1] + t * dy - w[1]) ** 2
        best = gap if best is None or gap < best else best
    return best


def _clear_corner_lines(board: Board, a: tuple[int, int], b: tuple[int, int]) -> list:
    """Corner-to-corner lines, corners off walls, touching no wall line: computed here with
    exact parameters (Fractions), independently of the board's own test."""
    lines = [ln for ls in board._walls_at.values() for ln in ls]

    def touches(p: tuple, q: tuple, u: tuple, v: tuple) -> bool:
        if p == q:  # two neighbours' shared corner: a point (never inside a wall line)
            return p in (u, v)
        rx, ry, sx, sy = q[0] - p[0], q[1] - p[1], v[0] - u[0], v[1] - u[1]
        den = rx * sy - ry * sx
        if den == 0:  # parallel: touching only if collinear and overlapping
            if (u[0] - p[0]) * ry - (u[1] - p[1]) * rx != 0:
                return False
            proj = sorted(
                Fraction((x - p[0]) * rx + (y - p[1]) * ry, rx * rx + ry * ry) for x, y in (u, v)
            )
            return proj[0] <= 1 and proj[1] >= 0
        t = Fraction((u[0] - p[0]) * sy - (u[1] - p[1]) * sx, den)
        s = Fraction((u[0] - p[0]) * ry - (u[1] - p[1]) * rx, den)
        return 0 <= t <= 1 and 0 <= s <= 1

    return [
        (p, q)
        for p in corners(a)
        if p not in board._wall_points
        for q in corners(b)
        if q not in board._wall_points
        if not any(touches(p, q, u, v) for u, v in lines)
    ]


def test_a_line_a_hair_from_a_wall_corner_is_clear_one_touching_it_is_blocked() -> None:
    # A 50 x 50 room with three wall hexes. From [0, 13] to [37, 27] exactly one corner line
    # is clear, and it passes a wall corner at a squared distance under one (scaled) unit, a
    # hexagon being 160 wide: a tolerance of that order would have blocked it.
    walls = frozenset({(20, 20), (21, 20), (30, 25)})
    board = Board(50, 50, walls, frozenset(), los_points="strict-corners")
    clear = _clear_corner_lines(board, (0, 13), (37, 27))
    assert len(clear) == 1
    assert 0 < _min_gap_squared(*clear[0], board._wall_points) < 1
    assert board.sees((0, 13), (37, 27))
    # From [18, 21] to [36, 27] no corner line is clear; one of them crosses no wall line and
    # only touches a wall's end point: that is blocked.
    assert _clear_corner_lines(board, (18, 21), (36, 27)) == []
    assert _min_gap_squared((2120, 1720), (4280, 2200), board._wall_points) == 0
    assert not board.sees((18, 21), (36, 27))


def test_v_shaped_wall_piece_blocks_lines_through_its_tip() -> None:
    # Two thin walls meeting at the north-east corner of [4, 3]: a V. From [2, 6] to [5, 1]
    # the corner lines that cross neither arm pass exactly through the tip: blocked, and in
    # Frosthaven every other line crosses an arm.
    vee = frozenset({frozenset({(4, 3), (4, 2)}), frozenset({(4, 3), (5, 2)})})
    tip = set(shared_edge((4, 3), (4, 2))) & set(shared_edge((4, 3), (5, 2)))
    assert tip == {(520, 200)}
    p, q = (200, 520), (560, 160)  # a corner of [2, 6], a corner of [5, 1]
    assert (q[0] - p[0]) * (200 - p[1]) - (q[1] - p[1]) * (520 - p[0]) == 0  # through the tip
    for rule in ("strict-corners", "any"):
        board = Board(9, 7, frozenset(), vee, los_points=rule)
        assert not board.sees((2, 6), (5, 1))
        assert board.sees((2, 6), (6, 1))  # one hex over, the line clears the tip


def _random_rooms(seed: int, count: int = 40) -> Iterator[tuple[list, frozenset, frozenset]]:
    """(room hexes, wall hexes, thin walls) of random 8 x 7 boards."""
    rnd = random.Random(seed)
    cells = [(c, r) for c in range(8) for r in range(7)]
    for _ in range(count):
        walls = frozenset(rnd.sample(cells, rnd.randint(0, 12)))
        room = [h for h in cells if h not in walls]
        thin = set()
        for _ in range(rnd.randint(0, 5)):
            a = rnd.choice(room)
            nbs = [n for n in neighbours(a) if n in room]
            if nbs:
                thin.add(frozenset((a, rnd.choice(nbs))))
        yield room, walls, frozenset(thin)


def test_line_of_sight_agrees_with_exact_rational_geometry_on_random_boards() -> None:
    rnd = random.Random(1)
    for room, walls, thin in _random_rooms(12):
        gh = Board(8, 7, walls, thin, los_points="strict-corners")
        fh = Board(8, 7, walls, thin, los_points="any")
        for _ in range(12):
            a, b = rnd.sample(room, 2)
            # Gloomhaven: exactly the independent corner-by-corner computation.
            assert gh.sees(a, b) == bool(_clear_corner_lines(gh, a, b))
            # Frosthaven: a clear corner line is a clear line between the hexes.
            if gh.sees(a, b):
                assert fh.sees(a, b)
            assert fh.sees(a, b) == fh.sees(b, a)


def test_frosthaven_sight_line_is_a_real_clear_segment_between_the_two_hexes() -> None:
    rnd = random.Random(2)
    for room, walls, thin in _random_rooms(5):
        board = Board(8, 7, walls, thin, los_points="any")
        lines = [ln for ls in board._walls_at.values() for ln in ls]
        for _ in range(12):
            a, b = rnd.sample(room, 2)
            line = board.sight_line(a, b)
            assert (line is not None) == board.sees(a, b)
            if line is not None:
                assert not any(segments_touch(line[0], line[1], u, v) for u, v in lines)
                assert _inside(line[0], a) and _inside(line[1], b)


def _inside(p: tuple, h: tuple[int, int]) -> bool:
    """p lies in the closed hexagon h (exact)."""
    cs = corners(h)
    return all(
        (cs[(i + 1) % 6][0] - cs[i][0]) * (p[1] - cs[i][1])
        - (cs[(i + 1) % 6][1] - cs[i][1]) * (p[0] - cs[i][0])
        >= 0
        for i in range(6)
    )


# --- 5. teleport (fh-clar-04, fh-clar-05) -------------------------------------------------------

WALL_COLUMN = [[3, r] for r in range(6)]  # column 3 is wall but for its last row


@pytest.mark.parametrize("game", GAMES)
def test_teleport_ignores_walls_figures_and_terrain_on_the_way(game: str) -> None:
    kw = dict(
        at=[1, 2],
        move=3,
        enemies=[[5, 2]],
        walls=WALL_COLUMN,
        obstacles=[[2, 2]],
        allies=[[4, 2]],
        traps=[[2, 3]],
    )
    walk = monster.run(req(game, **kw))
    assert all(not attacks for _, attacks in opts(walk))  # the long way round the wall
    r = monster.run(req(game, teleport=True, **kw))
    assert opts(r) == {((4, 3), frozenset({(5, 2)}))}
    assert step(r, "movement rules")["value"]["mode"] == "teleport"
    assert ({"fh-clar-04", "fh-clar-05"} <= cited(r)) == (game == "frosthaven")
    if game == "gloomhaven":
        assert NO_RECORD in step(r, "movement rules")["note"]
        assert step(r, "movement rules")["rulings"] == []


@pytest.mark.parametrize("game", GAMES)
def test_teleport_counts_hexes_ignoring_walls(game: str) -> None:
    # [4, 3], next to the enemy, is 3 hexes away in a straight line (about 9 to walk round).
    kw = dict(at=[1, 2], enemies=[[5, 2]], walls=WALL_COLUMN, allies=[[4, 2]], teleport=True)
    table = step(monster.run(req(game, move=3, **kw)), "focus candidates")["value"]
    assert table[0]["movement"] == 3
    r = monster.run(req(game, move=2, **kw))
    assert all(not attacks for _, attacks in opts(r))


@pytest.mark.parametrize("game", GAMES)
def test_teleport_still_measures_proximity_around_walls(game: str) -> None:
    # Both enemies need a teleport of 3; "behind" (initiative 10) is 4 hexes away in a
    # straight line but 10 around the wall, "open" (initiative 50) 4 either way: proximity
    # around walls decides before initiative.
    ens = enemies(([5, 2], 10, "behind"), ([1, 6], 50, "open"))
    r = monster.run(req(game, at=[1, 2], move=3, enemies=ens, walls=WALL_COLUMN, teleport=True))
    assert focus(r) == [(1, 6)]
    rows = {row["name"]: row for row in step(r, "focus candidates")["value"]}
    assert rows["behind"]["movement"] == rows["open"]["movement"] == 3
    assert rows["behind"]["proximity"] > rows["open"]["proximity"] == 4


@pytest.mark.parametrize("game", GAMES)
def test_teleport_ends_only_where_a_figure_may_stand(game: str) -> None:
    # Around the enemy: obstacles and one trap ([4, 3]); [4, 2] and [4, 3] are 3 away.
    kw = dict(
        at=[1, 2],
        move=3,
        enemies=[[5, 2]],
        traps=[[4, 3]],
        teleport=True,
        obstacles=[[5, 1], [4, 2], [6, 2], [6, 3], [5, 3]],
    )
    r = monster.run(req(game, 8, 7, **kw))
    assert opts(r) == {((4, 3), frozenset({(5, 2)}))}  # not the obstacle; the trap it must
    assert step(r, "focus candidates")["value"][0]["negative_hexes"] == 1
    # A flying teleporter may end on the obstacle and the trap (no negative hex for it).
    r = monster.run(req(game, 8, 7, flying=True, **kw))
    assert opts(r) == {((4, 2), frozenset({(5, 2)})), ((4, 3), frozenset({(5, 2)}))}
    assert step(r, "focus candidates")["value"][0]["negative_hexes"] == 0
    # Never on a wall nor on a figure: with those on its two closest hexes it cannot attack
    # this turn and moves toward the others.
    r = monster.run(
        req(
            game,
            8,
            7,
            allies=[[4, 3]],
            walls=[[4, 2]],
            **{k: v for k, v in kw.items() if k not in ("obstacles", "traps")},
        )
    )
    assert all(not attacks and d not in {(4, 2), (4, 3)} for d, attacks in opts(r))


@pytest.mark.parametrize("game", GAMES)
def test_teleport_zero_is_legal(game: str) -> None:
    r = monster.run(req(game, at=[3, 3], move=0, enemies=[[3, 2], [0, 0]], teleport=True))
    assert opts(r) == {((3, 3), frozenset({(3, 2)}))}
    assert ("fh-clar-05" in cited(r)) == (game == "frosthaven")
    r = monster.run(req(game, at=[3, 3], move=0, enemies=[[0, 0]], teleport=True))
    assert opts(r) == {((3, 3), frozenset())}


def test_teleport_is_no_longer_refused() -> None:
    from checker import run_check

    for game in GAMES:
        r = run_check("monster", req(game, at=[3, 3], move=2, teleport=True, enemies=[[0, 0]]))
        assert r["options"]


# --- 6. monster with no attack ---------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_no_attack_focuses_and_moves_as_for_a_melee_attack(game: str) -> None:
    # Range 3 would stop it 3 hexes short; as melee it walks up to the enemy.
    r = monster.run(
        req(game, 9, 1, at=[0, 0], move=6, range=3, attack=False, targets=0, enemies=[[7, 0]])
    )
    assert opts(r) == {((6, 0), frozenset())}
    assert ("fh-edge-08" in cited(r)) == (game == "frosthaven")


@pytest.mark.parametrize("targets", [0, 1, 4, 10])
def test_no_attack_accepts_any_targets(targets: int) -> None:
    r = monster.run(
        req("frosthaven", at=[3, 3], move=2, attack=False, targets=targets, enemies=[[3, 0]])
    )
    assert opts(r) == {((3, 1), frozenset())}
    with pytest.raises(CheckInputError, match=r"targets must be at least 1 \(got 0\)"):
        monster.run(req("frosthaven", at=[3, 3], move=2, targets=0, enemies=[[3, 0]]))
