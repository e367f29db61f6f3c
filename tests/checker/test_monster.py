"""Monster focus / movement / targets: hand-built boards written from the rulings themselves.

Hex layout: flat-topped, odd-q ([column, row]; odd columns sit half a hex lower). A board of
height 1 is a straight corridor: (0,0)-(1,0)-(2,0)-... are consecutive neighbours.
"""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
import yaml

from checker import monster
from checker.base import CheckInputError
from checker.hexgrid import Board, neighbours, straight_distance
from checker.monster import Mover, parse
from tests.conftest import IDS_FILE, REPO

GAMES = ("frosthaven", "gloomhaven")


def req(
    game: str = "frosthaven",
    width: int = 7,
    height: int = 7,
    *,
    at: list[int],
    move: int = 2,
    enemies: list[Any] = (),
    allies: list[Any] = (),
    **kw: Any,
) -> dict[str, Any]:
    """A request. Map terrain and monster fields go in kw."""
    mkeys = {"range", "targets", "jump", "flying", "teleport", "muddled", "attack"}
    mon = {"hex": at, "move": move, **{k: v for k, v in kw.items() if k in mkeys}}
    board = {"width": width, "height": height, **{k: v for k, v in kw.items() if k not in mkeys}}
    ens = []
    for i, e in enumerate(enemies):
        if isinstance(e, dict):
            ens.append(e)
        else:
            ens.append({"hex": e, "initiative": 10 + i, "name": f"E{i}"})
    return {"game": game, "map": board, "monster": mon, "allies": list(allies), "enemies": ens}


def dests(result: dict[str, Any]) -> set[tuple[int, int]]:
    return {tuple(o["destination"]) for o in result["options"]}


def opts(result: dict[str, Any]) -> set[tuple[tuple[int, int], frozenset]]:
    return {
        (tuple(o["destination"]), frozenset(tuple(a) for a in o["attacks"]))
        for o in result["options"]
    }


def focus(result: dict[str, Any]) -> list[tuple[int, int]]:
    return [tuple(h) for h in result["focus"]]


def cited(result: dict[str, Any]) -> set[str]:
    return set(result["rulings"])


# --- the grid itself -------------------------------------------------------------------------


def test_neighbours_odd_q() -> None:
    assert set(neighbours((2, 2))) == {(2, 1), (2, 3), (1, 1), (1, 2), (3, 1), (3, 2)}
    assert set(neighbours((3, 2))) == {(3, 1), (3, 3), (2, 2), (2, 3), (4, 2), (4, 3)}
    for h in [(0, 0), (3, 4), (6, 1)]:
        for n in neighbours(h):
            assert h in neighbours(n)
            assert straight_distance(h, n) == 1


def test_corridor_line_of_sight_and_wall_in_between() -> None:
    walls = frozenset([(1, r) for r in range(7)] + [(3, r) for r in range(7)])
    for pts in ("corners", "any"):
        b = Board(5, 7, walls, frozenset(), los_points=pts)
        assert all(b.sees((2, 0), (2, r)) for r in range(7))
        b = Board(5, 7, walls | {(2, 3)}, frozenset(), los_points=pts)
        assert [b.sees((2, 0), (2, r)) for r in range(7)] == [True] * 3 + [False] * 4


def _thin_line(width: int, upto_column: int) -> list[list[list[int]]]:
    """Thin walls between rows <= 1 and rows >= 2, in columns 0..upto_column."""
    pairs = []
    for c in range(width):
        for r in range(2):
            for n in neighbours((c, r)):
                if n[1] >= 2 and c <= upto_column and n[0] <= upto_column and n[0] >= 0:
                    pairs.append([[c, r], list(n)])
    return pairs


def test_thin_wall_blocks_line_of_sight_and_adjacency() -> None:
    thin = frozenset(frozenset((tuple(a), tuple(b))) for a, b in _thin_line(7, 5))
    for pts in ("corners", "any"):
        b = Board(7, 5, frozenset(), thin, los_points=pts)
        assert not b.sees((2, 1), (2, 2))
        assert not b.adjacent((2, 1), (2, 2))
        assert not b.sees((1, 0), (1, 3))
        assert b.range_distance((2, 1), (2, 2)) > 1  # counted around the wall line
        assert b.sees((1, 0), (3, 1))


# --- focus -------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_focus_by_movement_not_straight_distance_around_a_wall(game: str) -> None:
    # A wall column 2 (rows 0..5) separates the monster from E0, two hexes away in a straight
    # line but a long walk round; E1 is further in a straight line but 4 moves away.
    walls = [[2, r] for r in range(6)]
    r = monster.run(
        req(
            game,
            5,
            7,
            at=[1, 0],
            move=2,
            walls=walls,
            enemies=[
                {"hex": [3, 0], "initiative": 5, "name": "near"},
                {"hex": [1, 5], "initiative": 60, "name": "far"},
            ],
        )
    )
    assert focus(r) == [(1, 5)]
    # It cannot attack this turn: it moves 2 along the path toward [1, 4].
    assert opts(r) == {((1, 2), frozenset())}
    table = next(s for s in r["steps"] if s["action"] == "focus candidates")["value"]
    assert [(row["name"], row["movement"]) for row in table] == [("far", 4), ("near", 13)]
    assert ("gh-da-4" in cited(r)) == (game == "gloomhaven")


@pytest.mark.parametrize("game", GAMES)
def test_tie_on_movement_broken_by_proximity(game: str) -> None:
    r = monster.run(
        req(
            game,
            at=[3, 3],
            move=2,
            range=3,
            enemies=[
                {"hex": [3, 1], "initiative": 50, "name": "close"},
                {"hex": [3, 6], "initiative": 10, "name": "early"},
            ],
        )
    )
    assert focus(r) == [(3, 1)]
    assert opts(r) == {((3, 3), frozenset({(3, 1)}))}


@pytest.mark.parametrize("game", GAMES)
def test_tie_on_proximity_broken_by_initiative(game: str) -> None:
    r = monster.run(
        req(
            game,
            at=[3, 3],
            move=2,
            range=3,
            enemies=[
                {"hex": [3, 1], "initiative": 50, "name": "late"},
                {"hex": [3, 5], "initiative": 10, "name": "early"},
            ],
        )
    )
    assert focus(r) == [(3, 5)]
    assert opts(r) == {((3, 3), frozenset({(3, 5)}))}


@pytest.mark.parametrize("game", GAMES)
def test_full_tie_players_choose_focus_and_summon_goes_first(game: str) -> None:
    ens = [
        {"hex": [3, 1], "initiative": 30, "name": "Summoner"},
        {"hex": [3, 5], "initiative": 30, "name": "Other"},
    ]
    r = monster.run(req(game, at=[3, 3], move=2, range=3, enemies=ens))
    assert focus(r) == [(3, 1), (3, 5)]
    assert opts(r) == {((3, 3), frozenset({(3, 1)})), ((3, 3), frozenset({(3, 5)}))}
    assert any(s["action"] == "players choose" for s in r["steps"])
    ens[1]["summoner"] = "Summoner"
    r = monster.run(req(game, at=[3, 3], move=2, range=3, enemies=ens))
    assert focus(r) == [(3, 5)]


# --- negative hexes ------------------------------------------------------------------------
# A 5 x 5 board: row 0 runs straight from the monster at [0, 0] to the enemy at [4, 0], through
# [2, 0]; column 2 is wall below it except [2, 4], so the detour is long (9 moves).

U_WALLS = [[2, 1], [2, 2], [2, 3]]


@pytest.mark.parametrize("game", GAMES)
def test_safe_path_of_any_length_beats_a_trap_even_without_attacking(game: str) -> None:
    r = monster.run(
        req(game, 5, 5, at=[0, 0], move=3, walls=U_WALLS, traps=[[2, 0]], enemies=[[4, 0]])
    )
    assert focus(r) == [(4, 0)]
    # Walking through the trap it would attack from [3, 0] this turn; it takes the long
    # safe way instead, 6 movement points short, and the players choose between two hexes.
    assert opts(r) == {((0, 3), frozenset()), ((1, 2), frozenset())}
    move_step = next(s for s in r["steps"] if s["action"] == "move toward focus")
    assert move_step["value"]["remaining_movement"] == 6
    if game == "frosthaven":
        assert {"fh-edge-02", "fh-edge-03", "fh-edge-04"} <= cited(r)
    else:
        assert not any(rid.startswith("fh-") for rid in cited(r))


@pytest.mark.parametrize("game", GAMES)
def test_trap_accepted_when_it_is_the_sole_way(game: str) -> None:
    r = monster.run(
        req(
            game,
            5,
            5,
            at=[0, 0],
            move=3,
            walls=U_WALLS + [[2, 4]],
            traps=[[2, 0]],
            enemies=[[4, 0]],
        )
    )
    assert opts(r) == {((3, 0), frozenset({(4, 0)}))}
    table = next(s for s in r["steps"] if s["action"] == "focus candidates")["value"]
    assert table[0]["negative_hexes"] == 1


@pytest.mark.parametrize("game", GAMES)
def test_one_trap_beats_two_traps_whatever_the_length(game: str) -> None:
    # Straight on: two traps ([1, 0] and [2, 0]); the detour: one trap at [2, 4].
    r = monster.run(
        req(
            game,
            5,
            5,
            at=[0, 0],
            move=9,
            walls=U_WALLS,
            traps=[[1, 0], [2, 0]],
            hazardous=[[2, 4]],
            enemies=[[4, 0]],
        )
    )
    assert opts(r) == {((3, 0), frozenset({(4, 0)})), ((4, 1), frozenset({(4, 0)}))}
    table = next(s for s in r["steps"] if s["action"] == "focus candidates")["value"]
    assert (table[0]["negative_hexes"], table[0]["movement"]) == (1, 9)


def test_negative_hex_makes_a_farther_enemy_the_focus() -> None:
    # fh-edge-03: it focuses an apparently more distant enemy to stay on safe paths.
    r = monster.run(
        req(
            "frosthaven",
            7,
            1,
            at=[3, 0],
            move=1,
            traps=[[2, 0]],
            enemies=[
                {"hex": [1, 0], "initiative": 1, "name": "n"},
                {"hex": [6, 0], "initiative": 99, "name": "f"},
            ],
        )
    )
    assert focus(r) == [(6, 0)]
    assert opts(r) == {((4, 0), frozenset())}


@pytest.mark.parametrize("game", GAMES)
def test_difficult_terrain_costs_two_and_is_not_negative(game: str) -> None:
    r = monster.run(req(game, 5, 1, at=[0, 0], move=2, difficult=[[1, 0]], enemies=[[3, 0]]))
    assert opts(r) == {((1, 0), frozenset())}  # 2 points spent, 1 short of [2, 0]
    neg = next(s for s in r["steps"] if s["action"] == "negative hexes")
    assert neg["value"] == []
    r = monster.run(req(game, 5, 1, at=[0, 0], move=3, difficult=[[1, 0]], enemies=[[3, 0]]))
    assert opts(r) == {((2, 0), frozenset({(3, 0)}))}


def test_difficult_terrain_detour_chosen_when_cheaper() -> None:
    # Row 0 through difficult [1, 0] and [2, 0] costs 5 to reach [3, 0]; round by row 1, 4.
    kw = dict(at=[0, 0], move=4, enemies=[[4, 0]])
    r = monster.run(req("frosthaven", 5, 2, difficult=[[1, 0], [2, 0]], **kw))
    assert opts(r) == {((3, 0), frozenset({(4, 0)}))}
    assert (
        next(s for s in r["steps"] if s["action"] == "destination")["value"]["movement_used"] == 4
    )
    r = monster.run(req("frosthaven", 5, 2, **kw))
    assert (
        next(s for s in r["steps"] if s["action"] == "destination")["value"]["movement_used"] == 3
    )


# --- disadvantage (fh-edge-01) ----------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_ranged_monster_focuses_adjacent_enemy_then_sheds_disadvantage(game: str) -> None:
    ens = [
        {"hex": [3, 2], "initiative": 90, "name": "adjacent"},
        {"hex": [3, 6], "initiative": 5, "name": "clear shot"},
    ]
    r = monster.run(req(game, at=[3, 3], move=2, range=3, enemies=ens))
    assert focus(r) == [(3, 2)]
    assert opts(r) == {((h), frozenset({(3, 2)})) for h in [(2, 4), (3, 4), (4, 4)]}
    if game == "frosthaven":
        assert "fh-edge-01" in cited(r)
    else:
        assert "fh-edge-01" not in cited(r)


@pytest.mark.parametrize("game", GAMES)
def test_disadvantage_kept_when_shedding_needs_a_negative_hex_or_more_movement(game: str) -> None:
    ens = [{"hex": [3, 2], "initiative": 90, "name": "adjacent"}]
    r = monster.run(
        req(game, at=[3, 3], move=1, range=3, traps=[[2, 4], [3, 4], [4, 4]], enemies=ens)
    )
    assert opts(r) == {((3, 3), frozenset({(3, 2)}))}
    r = monster.run(req(game, at=[3, 3], move=0, range=3, enemies=ens))
    assert opts(r) == {((3, 3), frozenset({(3, 2)}))}


def test_melee_monster_adjacent_stays() -> None:
    for game in GAMES:
        r = monster.run(req(game, at=[3, 3], move=3, enemies=[[3, 2], [0, 0]]))
        assert opts(r) == {((3, 3), frozenset({(3, 2)}))}
        assert "stays" in r["explanation"]


# --- multiple targets (fh-edge-06) -------------------------------------------------------------


def test_frosthaven_moves_further_for_an_additional_target() -> None:
    # Focus A at [3, 2] (attackable from [3, 1] after 1 move); [4, 3] (3 moves) is adjacent to
    # both A and B.
    ens = [
        {"hex": [3, 2], "initiative": 10, "name": "A"},
        {"hex": [5, 3], "initiative": 20, "name": "B"},
    ]
    r = monster.run(req("frosthaven", at=[3, 0], move=3, targets=2, enemies=ens))
    assert focus(r) == [(3, 2)]
    assert opts(r) == {((4, 3), frozenset({(3, 2), (5, 3)}))}
    assert "fh-edge-06" in cited(r)
    # With one move less it cannot: it attacks the focus alone, moving the least.
    r = monster.run(req("frosthaven", at=[3, 0], move=2, targets=2, enemies=ens))
    assert opts(r) == {((3, 1), frozenset({(3, 2)}))}


def test_frosthaven_players_choose_secondary_targets() -> None:
    ens = [
        {"hex": [3, 2], "initiative": 10, "name": "A"},
        {"hex": [2, 3], "initiative": 20, "name": "B"},
        {"hex": [4, 3], "initiative": 30, "name": "C"},
        {"hex": [3, 4], "initiative": 40, "name": "D"},
    ]
    r = monster.run(req("frosthaven", at=[3, 3], move=0, targets=2, enemies=ens))
    assert focus(r) == [(3, 2)]
    assert opts(r) == {((3, 3), frozenset({(3, 2), x})) for x in [(2, 3), (4, 3), (3, 4)]}


def test_gloomhaven_secondary_targets_by_focus_rules() -> None:
    ens = [
        {"hex": [3, 2], "initiative": 10, "name": "A"},
        {"hex": [2, 3], "initiative": 40, "name": "B"},
        {"hex": [4, 3], "initiative": 20, "name": "C"},
        {"hex": [3, 4], "initiative": 30, "name": "D"},
    ]
    r = monster.run(req("gloomhaven", at=[3, 3], move=0, targets=2, enemies=ens))
    assert opts(r) == {((3, 3), frozenset({(3, 2), (4, 3)}))}  # C: earliest initiative


def test_games_differ_on_targets_versus_disadvantage() -> None:
    # Ranged 2 targets; focus A adjacent. Staying: A (disadvantage) + B. Stepping away to
    # [3, 4] sheds disadvantage but loses B (out of range 2).
    ens = [
        {"hex": [3, 2], "initiative": 10, "name": "A"},
        {"hex": [3, 1], "initiative": 20, "name": "B"},
    ]
    base = dict(at=[3, 3], move=1, range=2, targets=2, enemies=ens)
    fh = monster.run(req("frosthaven", 7, 7, **base))
    gh = monster.run(req("gloomhaven", 7, 7, **base))
    # Frosthaven: most targets first, so one that keeps B in range.
    assert opts(fh) == {((3, 3), frozenset({(3, 1), (3, 2)}))}
    # Gloomhaven: no disadvantage against the focus first.
    assert opts(gh) == {(h, frozenset({(3, 2)})) for h in [(2, 4), (3, 4), (4, 4)]}


# --- line of sight, allies, jump, flying ---------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_thin_wall_blocks_a_ranged_attack(game: str) -> None:
    kw = dict(at=[1, 0], move=1, range=10, enemies=[[1, 3]])
    open_board = monster.run(req(game, 7, 5, **kw))
    assert opts(open_board) == {((1, 0), frozenset({(1, 3)}))}
    walled = monster.run(req(game, 7, 5, thin_walls=_thin_line(7, 5), **kw))
    assert (1, 0) not in dests(walled)
    assert all(o["attacks"] == [] for o in walled["options"])


@pytest.mark.parametrize("game", GAMES)
def test_allies_passable_enemies_not(game: str) -> None:
    r = monster.run(req(game, 5, 1, at=[0, 0], move=2, allies=[[1, 0]], enemies=[[3, 0]]))
    assert opts(r) == {((2, 0), frozenset({(3, 0)}))}
    p = parse(req(game, 5, 1, at=[0, 0], move=4, enemies=[[1, 0]]))
    mover = Mover(p, Board(5, 1, frozenset(), frozenset()))
    assert set(mover.fronts((0, 0))) == {(0, 0)}
    p = parse(req(game, 5, 1, at=[0, 0], move=4, allies=[[1, 0]]))
    mover = Mover(p, Board(5, 1, frozenset(), frozenset()))
    assert set(mover.fronts((0, 0))) == {(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)}
    assert not mover.can_end((1, 0))


@pytest.mark.parametrize("game", GAMES)
def test_jump_over_obstacles(game: str) -> None:
    kw = dict(at=[0, 0], move=3, obstacles=[[1, 0], [2, 0]], enemies=[[4, 0]])
    walk = monster.run(req(game, 5, 1, **kw))
    assert focus(walk) == [] and opts(walk) == {((0, 0), frozenset())}
    jump = monster.run(req(game, 5, 1, jump=True, **kw))
    assert opts(jump) == {((3, 0), frozenset({(4, 0)}))}
    # Landing may not be on an obstacle.
    jump = monster.run(
        req(game, 5, 1, at=[0, 0], move=2, jump=True, obstacles=[[1, 0], [2, 0]], enemies=[[4, 0]])
    )
    assert opts(jump) == {((0, 0), frozenset())}


def test_jump_landing_on_difficult_terrain_differs_between_games() -> None:
    kw = dict(at=[0, 0], move=2, jump=True, difficult=[[2, 0]], enemies=[[3, 0]])
    assert opts(monster.run(req("frosthaven", 5, 1, **kw))) == {((2, 0), frozenset({(3, 0)}))}
    assert opts(monster.run(req("gloomhaven", 5, 1, **kw))) == {((1, 0), frozenset())}


@pytest.mark.parametrize("game", GAMES)
def test_flying_ignores_traps_and_obstacles(game: str) -> None:
    r = monster.run(
        req(
            game,
            5,
            5,
            at=[0, 0],
            move=3,
            walls=U_WALLS,
            traps=[[2, 0]],
            flying=True,
            enemies=[[4, 0]],
        )
    )
    assert opts(r) == {((3, 0), frozenset({(4, 0)}))}
    neg = next(s for s in r["steps"] if s["action"] == "negative hexes")
    assert neg["value"] == []
    r = monster.run(
        req(
            game,
            5,
            1,
            at=[0, 0],
            move=3,
            obstacles=[[1, 0], [2, 0], [3, 0]],
            flying=True,
            enemies=[[4, 0]],
        )
    )
    assert opts(r) == {((3, 0), frozenset({(4, 0)}))}  # ends on an obstacle


# --- moving toward, staying, players' choice ------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_no_enemy_reachable_this_turn_moves_toward_focus(game: str) -> None:
    r = monster.run(req(game, 9, 1, at=[0, 0], move=3, enemies=[[8, 0]]))
    assert opts(r) == {((3, 0), frozenset())}
    assert focus(r) == [(8, 0)]


@pytest.mark.parametrize("game", GAMES)
def test_equal_destinations_all_listed(game: str) -> None:
    r = monster.run(req(game, at=[0, 2], move=1, enemies=[[2, 2]]))
    assert opts(r) == {((1, 1), frozenset({(2, 2)})), ((1, 2), frozenset({(2, 2)}))}


@pytest.mark.parametrize("game", GAMES)
def test_no_enemies_stays_without_focus(game: str) -> None:
    r = monster.run(req(game, at=[3, 3], move=3))
    assert r["focus"] == [] and opts(r) == {((3, 3), frozenset())}
    assert "No enemy" in r["explanation"]


@pytest.mark.parametrize("game", GAMES)
def test_no_attack_moves_as_melee(game: str) -> None:
    r = monster.run(req(game, 9, 1, at=[0, 0], move=5, range=4, attack=False, enemies=[[6, 0]]))
    assert opts(r) == {((5, 0), frozenset())}  # adjacent, though range 4 would stop at [2, 0]
    assert ("fh-edge-08" in cited(r)) == (game == "frosthaven")


def test_icy_terrain_slides_the_monster_further() -> None:
    # Column 0 is a straight line (direction S). Entering icy [0, 1] slides the monster on to
    # [0, 2] for free, so [0, 3], adjacent to the enemy, is reached with 2 points.
    r = monster.run(req("frosthaven", 1, 6, at=[0, 0], move=2, icy=[[0, 1]], enemies=[[0, 4]]))
    assert opts(r) == {((0, 3), frozenset({(0, 4)}))}
    assert {"fh-clar-02", "fh-edge-05"} <= cited(r)
    r = monster.run(req("frosthaven", 1, 6, at=[0, 0], move=2, enemies=[[0, 4]]))
    assert opts(r) == {((0, 2), frozenset())}


def test_icy_slide_into_a_trap_is_avoided() -> None:
    # Through the ice it would slide into the trap at [0, 2] and attack this turn; the safe
    # way round by column 1 is longer (fh-edge-05: it cannot be tricked into the trap).
    r = monster.run(
        req("frosthaven", 2, 6, at=[0, 0], move=4, icy=[[0, 1]], traps=[[0, 2]], enemies=[[0, 5]])
    )
    assert opts(r) == {((0, 3), frozenset()), ((1, 3), frozenset())}
    table = next(s for s in r["steps"] if s["action"] == "focus candidates")["value"]
    assert (table[0]["negative_hexes"], table[0]["movement"]) == (0, 5)


# --- response shape, citations, performance ------------------------------------------------------


def _ids() -> set[str]:
    """The archive's record ids (and the shared id list's, beside the repository, where present)."""
    ids = {path.stem for path in (REPO / "rulings" / "records").glob("*.yaml")}
    if IDS_FILE.exists():
        ids &= set(yaml.safe_load(IDS_FILE.read_text(encoding="utf-8")))
    return ids


def _sample_requests() -> list[dict[str, Any]]:
    out = [monster.EXAMPLE]
    for game in GAMES:
        out += [
            req(game, 5, 5, at=[0, 0], move=3, walls=U_WALLS, traps=[[2, 0]], enemies=[[4, 0]]),
            req(
                game,
                at=[3, 3],
                move=2,
                range=3,
                targets=2,
                muddled=True,
                enemies=[[3, 2], [3, 6], {"hex": [0, 0], "initiative": 11, "name": "x"}],
            ),
            req(
                game,
                5,
                1,
                at=[0, 0],
                move=3,
                jump=True,
                difficult=[[2, 0]],
                obstacles=[[1, 0]],
                enemies=[[4, 0]],
            ),
            req(game, 5, 1, at=[0, 0], move=3, attack=False, flying=True, enemies=[[4, 0]]),
            req(game, at=[3, 3], move=3),
        ]
    return out


@pytest.mark.parametrize("payload", _sample_requests())
def test_response_schema_and_cited_ids_exist(payload: dict[str, Any]) -> None:
    jsonschema.validate(payload, monster.REQUEST_SCHEMA)
    r = monster.run(payload)
    jsonschema.validate(r, monster.RESPONSE_SCHEMA)
    ids = _ids()
    assert set(r["rulings"]) <= ids
    for s in r["steps"]:
        assert set(s["rulings"]) <= ids
        if not s["rulings"]:
            assert s["note"]
    if payload["game"] == "gloomhaven":
        assert not any(rid.startswith("fh-") for rid in r["rulings"])
    else:
        assert not any(rid.startswith("gh-") for rid in r["rulings"])


def test_sixteen_by_seven_board_with_six_figures() -> None:
    payload = req(
        "frosthaven",
        16,
        7,
        at=[0, 3],
        move=4,
        range=4,
        targets=2,
        walls=[[5, 0], [5, 1], [5, 2], [5, 3], [9, 4], [9, 5], [9, 6], [12, 2]],
        thin_walls=[[[7, 3], [7, 4]], [[7, 3], [8, 3]]],
        obstacles=[[3, 3], [11, 1]],
        traps=[[4, 4], [10, 3]],
        hazardous=[[6, 5]],
        difficult=[[2, 2], [13, 5]],
        icy=[[8, 1], [8, 2]],
        allies=[[1, 3]],
        enemies=[[15, 0], [14, 6], [10, 1], [7, 6]],
    )
    for game in GAMES:
        payload["game"] = game
        if game == "gloomhaven":
            payload["map"]["icy"] = []
        r = monster.run(payload)
        assert r["focus"] and r["options"]


# --- validation ----------------------------------------------------------------------------------


def _ok() -> dict[str, Any]:
    return req("frosthaven", at=[3, 3], move=2, enemies=[[0, 0]])


def _with(path: str, value: Any) -> dict[str, Any]:
    p = _ok()
    target = p
    keys = path.split(".")
    for k in keys[:-1]:
        target = target[k] if not k.isdigit() else target[int(k)]
    target[keys[-1]] = value
    return p


@pytest.mark.parametrize(
    "payload, message",
    [
        ([], "the request body must be a JSON object"),
        ({**_ok(), "board": {}}, "unknown field(s) in request: board"),
        (_with("map.width", 51), "'map'.width must be at most 50 (got 51)"),
        (_with("map.height", 0), "'map'.height must be at least 1 (got 0)"),
        (_with("map.doors", []), "unknown field(s) in 'map': doors"),
        (
            _with("map.walls", [[7, 0]]),
            "'map'.walls[0] [7, 0] is not on the 7 x 7 map (columns 0..6, rows 0..6)",
        ),
        (
            _with("map.traps", [[1, 2, 3]]),
            "'map'.traps[0] must be a hex [column, row] of two integers (got [1, 2, 3])",
        ),
        (
            _with("map.thin_walls", [[[0, 0], [2, 0]]]),
            "'map'.thin_walls[0]: [0, 0] and [2, 0] are not neighbours, a thin wall lies only "
            "between neighbouring hexes",
        ),
        (_with("map.walls", [[3, 3]]), "'monster'.hex [3, 3] is a wall hex"),
        (
            _with("map.obstacles", [[3, 3]]),
            "'monster'.hex [3, 3] is an obstacle hex (only a flying monster may stand there)",
        ),
        (_with("monster.move", 21), "'monster'.move must be at most 20 (got 21)"),
        (_with("monster.range", -1), "'monster'.range must be at least 0 (got -1)"),
        (_with("monster.targets", 0), "'monster'.targets must be at least 1 (got 0)"),
        (_with("monster.jump", "yes"), "'monster'.jump must be true or false (got 'yes')"),
        (_with("monster.teleport", "yes"), "'monster'.teleport must be true or false (got 'yes')"),
        (_with("monster.push", 1), "unknown field(s) in 'monster': push"),
        (
            _with("allies", [[3, 3]]),
            "'allies'[0] [3, 3] is already occupied by 'monster'.hex: two figures cannot share a hex",
        ),
        (
            _with(
                "enemies",
                [
                    {"hex": [0, 0], "initiative": 1, "name": "a"},
                    {"hex": [0, 0], "initiative": 2, "name": "b"},
                ],
            ),
            "'enemies'[1].hex [0, 0] is already occupied by 'enemies'[0].hex: two figures cannot share a hex",
        ),
        (_with("enemies", [{"hex": [0, 0], "name": "a"}]), "'enemies'[0].initiative is required"),
        (
            _with("enemies", [{"hex": [0, 0], "initiative": 1, "name": "a", "hp": 3}]),
            "unknown field(s) in 'enemies'[0]: hp",
        ),
        (_with("game", "catan"), "'game' must be one of: frosthaven, gloomhaven"),
        (
            {**_with("map.icy", [[1, 1]]), "game": "gloomhaven"},
            "'map'.icy must be empty for gloomhaven: icy terrain is a Frosthaven terrain",
        ),
        ({k: v for k, v in _ok().items() if k != "monster"}, "'monster' is required"),
    ],
)
def test_validation_messages(payload: Any, message: str) -> None:
    with pytest.raises(CheckInputError) as err:
        monster.run(payload)
    assert str(err.value) == message


def test_figure_on_a_wall_rejected() -> None:
    p = _with("map.walls", [[0, 0]])
    with pytest.raises(CheckInputError, match=r"^'enemies'\[0\]\.hex \[0, 0\] is a wall hex$"):
        monster.run(p)


# --- properties on random boards ---------------------------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@st.composite
def boards(draw: Any) -> dict[str, Any]:
    game = draw(st.sampled_from(GAMES))
    w, h = draw(st.integers(1, 7)), draw(st.integers(1, 6))
    cells = [[c, r] for c in range(w) for r in range(h)]
    picked = draw(st.permutations(cells))
    n_fig = draw(st.integers(1, min(5, len(cells))))
    figures, rest = picked[:n_fig], picked[n_fig:]
    walls = [x for x in rest if draw(st.integers(0, 5)) == 0]
    free = [x for x in rest if x not in walls]

    def some() -> list[list[int]]:
        return [x for x in free if draw(st.integers(0, 7)) == 0]

    terrain = {
        "obstacles": some(),
        "traps": some(),
        "hazardous": some(),
        "difficult": some(),
        "icy": some() if game == "frosthaven" else [],
    }
    n_allies = draw(st.integers(0, n_fig - 1))
    enemies = [
        {"hex": x, "initiative": draw(st.integers(0, 99)), "name": f"e{i}"}
        for i, x in enumerate(figures[1 + n_allies :])
    ]
    return {
        "game": game,
        "map": {"width": w, "height": h, "walls": walls, **terrain},
        "monster": {
            "hex": figures[0],
            "move": draw(st.integers(0, 5)),
            "range": draw(st.integers(0, 4)),
            "targets": draw(st.integers(1, 3)),
            "jump": draw(st.booleans()),
            "flying": draw(st.booleans()),
            "attack": draw(st.booleans()),
        },
        "allies": figures[1 : 1 + n_allies],
        "enemies": enemies,
    }


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
def test_random_boards_give_legal_options(payload: dict[str, Any]) -> None:
    p = parse(payload)
    r = monster.run(payload)
    jsonschema.validate(r, monster.RESPONSE_SCHEMA)
    assert r["options"]
    board = Board(
        p.width,
        p.height,
        p.walls,
        p.thin_walls,
        los_points="any" if p.game == "frosthaven" else "corners",
    )
    mover = Mover(p, board)
    reach = mover.fronts(p.hex)
    enemy_hexes = {e.hex for e in p.enemies}
    focus_hexes = {tuple(h) for h in r["focus"]}
    assert focus_hexes <= enemy_hexes
    rng = 1 if (p.range == 0 or not p.attack) else p.range
    for o in r["options"]:
        d = tuple(o["destination"])
        assert mover.can_end(d)
        assert d in reach and min(c for _, c in reach[d]) <= p.move
        attacks = {tuple(a) for a in o["attacks"]}
        if attacks:
            assert p.attack and attacks & focus_hexes and len(attacks) <= p.targets
            for a in attacks:
                assert a in enemy_hexes
                assert 1 <= board.range_distance(d, a) <= rng and board.sees(d, a)
    if not p.enemies:
        assert r["focus"] == []
    # A melee single-target monster already able to attack its only possible focus stays.
    if (
        len(focus_hexes) == 1
        and (p.range == 0 or not p.attack)
        and p.targets == 1
        and any(board.adjacent(p.hex, f) for f in focus_hexes)
    ):
        assert dests(r) == {p.hex}


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**6))
def test_line_of_sight_symmetric_and_corners_never_see_more(seed: int) -> None:
    import random

    rnd = random.Random(seed)
    cells = [(c, r) for c in range(6) for r in range(6)]
    walls = frozenset(rnd.sample(cells, rnd.randint(0, 8)))
    room = [x for x in cells if x not in walls]
    if len(room) < 2:
        return
    a, b = rnd.sample(room, 2)
    gh = Board(6, 6, walls, frozenset(), los_points="corners")
    fh = Board(6, 6, walls, frozenset(), los_points="any")
    for board in (gh, fh):
        assert board._compute_sees(a, b) == board._compute_sees(b, a)
    if gh.sees(a, b):
        assert fh.sees(a, b)
    if not walls:
        assert gh.sees(a, b)
