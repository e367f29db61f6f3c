"""Monster check: where one monster moves and whom it attacks, with every option the players
may choose among, its focus, and the rulings applied.

Board: flat-topped hexes ``[column, row]`` in "odd-q" layout (see checker.hexgrid).

What is computed, in order:
  1. Movement. Walking: allies passable, enemies and obstacles not, difficult terrain costs 2,
     traps and hazardous terrain are negative hexes (each one entered counts once); Jump
     ignores figures and terrain until the last hex, which follows the normal rules; Flying
     ignores figures and terrain for the whole move and must end in a hex without a figure
     (gh-da-3 for Gloomhaven). Frosthaven icy terrain slides the walker on (fh-clar-02).
     A Dijkstra over (hex, negative-hex count) states gives, for every hex, the Pareto front of
     (negative hexes, movement points).
  2. Attack hexes: hexes the monster may end in from which an enemy is within range (counted
     around walls, never through them) and in line of sight (fh-nl-4 / fh-it-4).
  3. Focus: the enemy attackable with the fewest negative hexes, then the least movement
     (pretending infinite movement), then the closest by proximity (range distance), then the
     earliest in initiative (summons before their summoner); ties left are the players'
     choice (gh-da-4; fh-edge-01, -03, -04, -05 for Frosthaven).
  4. Destination: if an attack hex of the focus is reachable this turn without extra negative
     hexes, the best of them (Frosthaven, fh-edge-06: most additional targets, then least
     disadvantage, then least movement; Gloomhaven: no disadvantage against the focus, then
     most targets, then least movement, secondary targets ranked by the focus rules); else the
     hex that leaves it closest (fewest movement points) to an attack hex of its focus without
     extra negative hexes, moving as little as possible for that.
A monster with no attack (``"attack": false``) finds focus and moves as for a melee attack and
attacks nobody (fh-edge-08). Teleport is refused (not supported yet).
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Callable, Iterator

from checker.base import (GAME_SCHEMA, CheckInputError, Step, by_game, check_bool, check_int,
                          check_list, check_object, check_str, open_request,
                          reject_unknown_fields, response, response_schema, shown)
from checker.hexgrid import DIRECTIONS, Board, Hex, are_neighbours, step

FIELDS = {"game", "map", "monster", "allies", "enemies"}
MAP_FIELDS = {"width", "height", "walls", "thin_walls", "obstacles", "traps", "hazardous",
              "difficult", "icy"}
TERRAIN = ("obstacles", "traps", "hazardous", "difficult", "icy")
MONSTER_FIELDS = {"hex", "move", "range", "targets", "jump", "flying", "teleport", "muddled",
                  "attack"}
ENEMY_FIELDS = {"hex", "initiative", "name", "summoner"}
MAX_SIDE = 50
INF = float("inf")

# Published rule, not in the archive: a flying figure may end its move on an obstacle (only a
# figure makes a hex occupied for it). Set to False to forbid ending on obstacles.
FLYING_MAY_END_ON_OBSTACLE = True

NO_RECORD = "not covered by a record in the archive"


@dataclass(frozen=True)
class Enemy:
    hex: Hex
    initiative: int
    name: str
    summoner: str | None = None


@dataclass(frozen=True)
class MonsterRequest:
    game: str
    width: int
    height: int
    walls: frozenset[Hex]
    thin_walls: frozenset[frozenset[Hex]]
    obstacles: frozenset[Hex]
    traps: frozenset[Hex]
    hazardous: frozenset[Hex]
    difficult: frozenset[Hex]
    icy: frozenset[Hex]
    hex: Hex
    move: int
    range: int
    targets: int
    jump: bool
    flying: bool
    muddled: bool
    attack: bool
    allies: frozenset[Hex]
    enemies: tuple[Enemy, ...]


@dataclass(frozen=True)
class Option:
    destination: Hex
    attacks: tuple[Hex, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"destination": list(self.destination), "attacks": [list(h) for h in self.attacks]}


@dataclass(frozen=True)
class MonsterResult:
    game: str
    focus: tuple[Hex, ...]
    options: tuple[Option, ...]
    explanation: str
    steps: tuple[Step, ...]

    def to_dict(self) -> dict[str, Any]:
        return response(self.game, {
            "focus": [list(h) for h in self.focus],
            "options": [o.to_dict() for o in self.options],
            "explanation": self.explanation}, self.steps)


# --- parsing -------------------------------------------------------------------------------

def _hex(value: Any, label: str, width: int, height: int) -> Hex:
    if (not isinstance(value, list) or len(value) != 2
            or any(isinstance(v, bool) or not isinstance(v, int) for v in value)):
        raise CheckInputError(f"{label} must be a hex [column, row] of two integers "
                              f"(got {shown(value)})")
    c, r = value
    if not (0 <= c < width and 0 <= r < height):
        raise CheckInputError(f"{label} {shown(value)} is not on the {width} x {height} map "
                              f"(columns 0..{width - 1}, rows 0..{height - 1})")
    return (c, r)


def _hex_list(value: Any, label: str, width: int, height: int) -> list[Hex]:
    items = check_list(value, label)
    return [_hex(v, f"{label}[{i}]", width, height) for i, v in enumerate(items)]


def parse(payload: Any) -> MonsterRequest:
    """Validate the JSON request (CheckInputError with a precise message)."""
    payload, game = open_request(payload, FIELDS)
    for name in ("map", "monster"):
        if name not in payload:
            raise CheckInputError(f"'{name}' is required")

    board = check_object(payload["map"], "'map'")
    reject_unknown_fields(board, MAP_FIELDS, "'map'")
    for name in ("width", "height"):
        if name not in board:
            raise CheckInputError(f"'map'.{name} is required")
    width = check_int(board["width"], "'map'.width", minimum=1, maximum=MAX_SIDE)
    height = check_int(board["height"], "'map'.height", minimum=1, maximum=MAX_SIDE)
    walls = frozenset(_hex_list(board.get("walls", []), "'map'.walls", width, height))

    thin: set[frozenset[Hex]] = set()
    for i, pair in enumerate(check_list(board.get("thin_walls", []), "'map'.thin_walls")):
        label = f"'map'.thin_walls[{i}]"
        if not isinstance(pair, list) or len(pair) != 2:
            raise CheckInputError(f"{label} must be a pair of hexes [[c, r], [c2, r2]] "
                                  f"(got {shown(pair)})")
        a = _hex(pair[0], f"{label}[0]", width, height)
        b = _hex(pair[1], f"{label}[1]", width, height)
        if not are_neighbours(a, b):
            raise CheckInputError(f"{label}: {shown(list(a))} and {shown(list(b))} are not "
                                  f"neighbours, a thin wall lies only between neighbouring hexes")
        thin.add(frozenset((a, b)))

    terrain: dict[str, frozenset[Hex]] = {}
    for name in TERRAIN:
        hexes = _hex_list(board.get(name, []), f"'map'.{name}", width, height)
        for i, h in enumerate(hexes):
            if h in walls:
                raise CheckInputError(f"'map'.{name}[{i}] {shown(list(h))} is a wall hex")
        terrain[name] = frozenset(hexes)
    if game == "gloomhaven" and terrain["icy"]:
        raise CheckInputError("'map'.icy must be empty for gloomhaven: icy terrain is a "
                              "Frosthaven terrain")

    monster = check_object(payload["monster"], "'monster'")
    reject_unknown_fields(monster, MONSTER_FIELDS, "'monster'")
    for name in ("hex", "move"):
        if name not in monster:
            raise CheckInputError(f"'monster'.{name} is required")
    mhex = _hex(monster["hex"], "'monster'.hex", width, height)
    move = check_int(monster["move"], "'monster'.move", minimum=0, maximum=20)
    rng = check_int(monster.get("range", 0), "'monster'.range", minimum=0, maximum=20)
    targets = check_int(monster.get("targets", 1), "'monster'.targets", minimum=1, maximum=10)
    flags = {name: check_bool(monster.get(name, default), f"'monster'.{name}")
             for name, default in (("jump", False), ("flying", False), ("teleport", False),
                                   ("muddled", False), ("attack", True))}
    if flags["teleport"]:
        raise CheckInputError("'monster'.teleport: teleport is not supported yet")
    if mhex in walls:
        raise CheckInputError(f"'monster'.hex {shown(list(mhex))} is a wall hex")
    if mhex in terrain["obstacles"] and not flags["flying"]:
        raise CheckInputError(f"'monster'.hex {shown(list(mhex))} is an obstacle hex "
                              "(only a flying monster may stand there)")

    occupied: dict[Hex, str] = {mhex: "'monster'.hex"}

    def place(h: Hex, label: str) -> None:
        if h in walls:
            raise CheckInputError(f"{label} {shown(list(h))} is a wall hex")
        if h in occupied:
            raise CheckInputError(f"{label} {shown(list(h))} is already occupied by "
                                  f"{occupied[h]}: two figures cannot share a hex")
        occupied[h] = label

    allies = _hex_list(payload.get("allies", []), "'allies'", width, height)
    for i, h in enumerate(allies):
        place(h, f"'allies'[{i}]")

    enemies: list[Enemy] = []
    names: set[str] = set()
    for i, item in enumerate(check_list(payload.get("enemies", []), "'enemies'")):
        label = f"'enemies'[{i}]"
        item = check_object(item, label)
        reject_unknown_fields(item, ENEMY_FIELDS, label)
        for name in ("hex", "initiative", "name"):
            if name not in item:
                raise CheckInputError(f"{label}.{name} is required")
        h = _hex(item["hex"], f"{label}.hex", width, height)
        place(h, f"{label}.hex")
        initiative = check_int(item["initiative"], f"{label}.initiative", minimum=0, maximum=99)
        name = check_str(item["name"], f"{label}.name")
        if name in names:
            raise CheckInputError(f"{label}.name {shown(name)} is used twice: enemy names must "
                                  "be unique")
        names.add(name)
        summoner = item.get("summoner")
        if summoner is not None:
            summoner = check_str(summoner, f"{label}.summoner")
        enemies.append(Enemy(h, initiative, name, summoner))
    for i, e in enumerate(enemies):
        if e.summoner is not None and e.summoner not in names:
            raise CheckInputError(f"'enemies'[{i}].summoner {shown(e.summoner)} names no enemy")
        if e.summoner == e.name:
            raise CheckInputError(f"'enemies'[{i}].summoner: an enemy cannot summon itself")

    return MonsterRequest(
        game=game, width=width, height=height, walls=walls, thin_walls=frozenset(thin),
        obstacles=terrain["obstacles"], traps=terrain["traps"], hazardous=terrain["hazardous"],
        difficult=terrain["difficult"], icy=terrain["icy"], hex=mhex, move=move, range=rng,
        targets=targets, jump=flags["jump"], flying=flags["flying"], muddled=flags["muddled"],
        attack=flags["attack"], allies=frozenset(allies), enemies=tuple(enemies))


# --- movement --------------------------------------------------------------------------------

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


# --- the computation ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Candidate:
    enemy: Enemy
    negatives: int
    movement: int
    proximity: int
    order: tuple[int, int]  # (initiative, 0 for a summon acting before its summoner, else 1)

    def key(self) -> tuple[int, int, int, tuple[int, int]]:
        return (self.negatives, self.movement, self.proximity, self.order)


def _h(h: Hex) -> list[int]:
    return [h[0], h[1]]


def compute(req: MonsterRequest) -> MonsterResult:
    game = req.game
    fh = game == "frosthaven"
    board = Board(req.width, req.height, req.walls, req.thin_walls,
                  los_points="any" if fh else "corners")
    mover = Mover(req, board)
    steps: list[Step] = []

    melee = (not req.attack) or req.range == 0
    reach = 1 if melee else req.range
    targets = req.targets if req.attack else 1

    # 1. movement rules -------------------------------------------------------------------
    mode_text = {"walk": "walks: it moves through allies but not through enemies or obstacles "
                         "and cannot end in an occupied hex",
                 "jump": "jumps: it ignores figures and terrain until the last hex, which "
                         "follows the normal rules",
                 "flying": "flies: it ignores figures and terrain for the whole move and must "
                           "end in a hex without a figure"}[mover.mode]
    steps.append(Step("movement rules", {"move": req.move, "mode": mover.mode},
                      by_game(game, (), ("gh-da-3",)),
                      f"The monster {mode_text}." + (
                          f" Frosthaven applies the same movement rules; the archive states them "
                          f"only in the Gloomhaven record gh-da-3, so for Frosthaven this step "
                          f"is {NO_RECORD}." if fh else "")))
    terrain_note = []
    if req.difficult:
        if mover.mode == "walk":
            terrain_note.append("difficult terrain costs 2 movement points to enter")
        elif mover.mode == "jump":
            terrain_note.append(
                "a jump ignores difficult terrain; in Gloomhaven its last hex follows the normal "
                "rules, so landing on difficult terrain costs 2" if not fh else
                "a jump ignores difficult terrain, also on its last hex (Frosthaven)")
        else:
            terrain_note.append("flying ignores difficult terrain")
    if req.obstacles and mover.mode == "flying":
        terrain_note.append("a flying monster may end on an obstacle (only a figure occupies a "
                            "hex for it)" if FLYING_MAY_END_ON_OBSTACLE else
                            "a flying monster may not end on an obstacle")
    if req.obstacles and mover.mode == "jump":
        terrain_note.append("a jumping monster may pass but not end on an obstacle")
    if terrain_note:
        steps.append(Step("terrain costs", {"difficult": sorted(_h(h) for h in req.difficult)},
                          (), "; ".join(terrain_note).capitalize()
                          + f": the published rules, {NO_RECORD}."))
    if req.icy:
        if mover.slides:
            steps.append(Step(
                "icy terrain", sorted(_h(h) for h in req.icy), ("fh-clar-02", "fh-edge-05"),
                "A walking monster entering an icy hex slides one more hex in the same "
                "direction, again while it lands on ice, at no movement cost, as part of its "
                "move (traps on the way count); the slide stops before a wall, an obstacle or "
                "any figure. The monster plans with the slide (fh-edge-05). Where the slide "
                f"stops is the published icy-terrain rule, {NO_RECORD}."))
        else:
            steps.append(Step(
                "icy terrain", sorted(_h(h) for h in req.icy), (),
                f"The monster {mover.mode.replace('jump', 'jumps').replace('flying', 'flies')}:"
                f" icy terrain is treated as normal terrain for it (a jump's landing on ice "
                f"is not slid; not supported yet), {NO_RECORD}."))

    negatives = sorted(_h(h) for h in (req.traps | req.hazardous) if mover.negative(h))
    steps.append(Step(
        "negative hexes", negatives, by_game(game, ("fh-edge-02", "fh-edge-05"), ()),
        ("Traps and hazardous terrain are negative hexes unless the monster flies; difficult "
         "and icy terrain are not." if fh else
         "Traps and hazardous terrain are negative hexes unless the monster flies; difficult "
         f"terrain is not. Gloomhaven negative-hex avoidance is {NO_RECORD}; it follows the "
         "published rules, the same as Frosthaven's.")))

    steps.append(Step(
        "range and line of sight",
        {"range": None if melee else req.range, "melee": melee},
        by_game(game, ("fh-nl-4", "fh-it-4"), ()),
        ("Range is counted around walls, through obstacles, figures and other terrain; line of "
         "sight is blocked only by walls: a clear line from any part of the attacker's hex to "
         "any part of the target's hex (sampled: centre, corners and edge midpoints). Closed "
         "doors are walls; enter them in 'walls'." if fh else
         "Range is counted around walls; line of sight: a line from any corner of the "
         "attacker's hex to any corner of the target's hex touching no wall (published "
         f"Gloomhaven rule, {NO_RECORD}).")
        + (" A melee attack reaches adjacent hexes not separated by a wall." if melee else "")))
    if not req.attack:
        steps.append(Step("no attack", {"moves_as": "melee"},
                          by_game(game, ("fh-edge-08",), ("gh-da-4",)),
                          "A monster with movement but no attack finds focus and moves as "
                          "though making a melee attack; it attacks nobody."
                          + ("" if fh else " gh-da-4 says it moves toward its focus; that it "
                             f"plans as for a melee attack is the published rule, {NO_RECORD}.")))

    if not req.enemies:
        steps.append(Step("focus", [], (),
                          f"There is no enemy on the board: no focus, the monster stays "
                          f"({NO_RECORD})."))
        return _result(req, (), (Option(req.hex, ()),), steps,
                       "No enemy is on the board, so the monster has no focus and stays.")

    fronts = mover.fronts(req.hex)
    end_hexes = [h for h in fronts if mover.can_end(h)]

    attack_memo: dict[tuple[Hex, Hex], bool] = {}

    def can_attack_from(h: Hex, enemy: Enemy) -> bool:
        """In range (counted around walls) and in line of sight of enemy from h."""
        key = (h, enemy.hex)
        if key not in attack_memo:
            d = board.range_distances(enemy.hex).get(h)
            attack_memo[key] = d is not None and 1 <= d <= reach and board.sees(h, enemy.hex)
        return attack_memo[key]

    def goal_of(enemy: Enemy) -> Callable[[Hex], bool]:
        """Whether the monster may end in a hex and attack `enemy` from it."""
        return lambda h: mover.can_end(h) and can_attack_from(h, enemy)

    # 2. focus ---------------------------------------------------------------------------
    by_name = {e.name: e for e in req.enemies}
    candidates: list[Candidate] = []
    goal_sets: dict[str, Callable[[Hex], bool]] = {}
    unreachable: list[str] = []
    for e in req.enemies:
        rd = board.range_distances(e.hex)
        in_range = sorted((fronts[h][-1], h) for h in end_hexes
                          if h in rd and 1 <= rd[h] <= reach)
        goal_sets[e.name] = goal_of(e)
        found = next((key for key, h in in_range if can_attack_from(h, e)), None)
        if found is None:
            unreachable.append(e.name)
            continue
        neg, cost = found
        prox = board.range_distance(req.hex, e.hex)
        summon = 1
        if e.summoner is not None and by_name[e.summoner].initiative == e.initiative:
            summon = 0  # a summon acts, and is focused, before its summoner
        candidates.append(Candidate(e, neg, cost, prox if prox is not None else 10 ** 6,
                                    (e.initiative, summon)))
    table = [{"name": c.enemy.name, "hex": _h(c.enemy.hex), "negative_hexes": c.negatives,
              "movement": c.movement, "proximity": c.proximity, "initiative": c.enemy.initiative}
             for c in sorted(candidates, key=Candidate.key)]
    steps.append(Step(
        "focus candidates", table,
        by_game(game, ("fh-edge-03", "fh-edge-04", "fh-edge-05"), ("gh-da-4",)),
        "For each enemy, the path to a hex from which the monster could attack it, pretending "
        "infinite movement: fewest negative hexes first (counted, never weighed), then least "
        "movement." + (f" Enemies it could never attack: {', '.join(unreachable)}."
                       if unreachable else "")
        + ("" if fh else f" Counting negative hexes first is the published rule, {NO_RECORD}.")))
    if not candidates:
        steps.append(Step("focus", [], by_game(game, ("fh-edge-03",), ("gh-da-4",)),
                          "No enemy can be attacked from any hex the monster could ever reach: "
                          "no focus, the monster stays."))
        return _result(req, (), (Option(req.hex, ()),), steps,
                       "The monster cannot reach a hex from which to attack any enemy, so it "
                       "has no focus and does not move.")

    if not melee and any(board.adjacent(req.hex, c.enemy.hex) for c in candidates):
        steps.append(Step("focus ignores disadvantage", None,
                          by_game(game, ("fh-edge-01",), ()),
                          "A ranged attack against an adjacent enemy has disadvantage, but "
                          "focus does not consider it." + (
                              "" if fh else f" (Published Gloomhaven rule, {NO_RECORD}.)")))

    best = min(c.key()[:2] for c in candidates)
    tied = [c for c in candidates if c.key()[:2] == best]
    tie_note = None
    if len(tied) > 1:
        best_prox = min(c.proximity for c in tied)
        tied = [c for c in tied if c.proximity == best_prox]
        tie_note = "tied on movement, broken by proximity (range distance, around walls)"
        if len(tied) > 1:
            best_order = min(c.order for c in tied)
            tied = [c for c in tied if c.order == best_order]
            tie_note += " then initiative (a summon before its summoner)"
            if len(tied) > 1:
                tie_note += "; still tied: the players choose the focus"
    focus = tuple(sorted(c.enemy.hex for c in tied))
    focus_names = [c.enemy.name for c in sorted(tied, key=lambda c: c.enemy.hex)]
    if tie_note and fh:
        focus_rulings: tuple[str, ...] = ("fh-edge-04",) if len(tied) > 1 else ()
        note = (f"Focus {tie_note}. The proximity and initiative tie-breaks are the Frosthaven "
                f"rulebook's (as gh-da-4 for Gloomhaven), {NO_RECORD}"
                + ("; fh-edge-04 leaves remaining ambiguity to the players." if len(tied) > 1
                   else "."))
    elif tie_note:
        focus_rulings = ("gh-da-4",)
        note = f"Focus {tie_note}." + (f" The players' choice is {NO_RECORD}."
                                       if len(tied) > 1 else "")
    else:
        focus_rulings = by_game(game, ("fh-edge-03", "fh-edge-05"), ("gh-da-4",))
        note = "The enemy attackable with the fewest negative hexes and least movement."
    steps.append(Step("focus", [{"name": n, "hex": _h(h)} for n, h in zip(focus_names, focus)],
                      focus_rulings, note))

    # 3. destination and targets, for each focus the players may choose ------------------
    options: list[Option] = []
    explanations: list[str] = []
    for cand in sorted(tied, key=lambda c: c.enemy.hex):
        opts, dest_steps, text = _plan(req, board, mover, fronts, end_hexes, cand,
                                       goal_sets[cand.enemy.name], reach, targets, melee,
                                       can_attack_from)
        steps.extend(dest_steps)
        explanations.append(text)
        for o in opts:
            if o not in options:
                options.append(o)
    options.sort(key=lambda o: (o.destination, o.attacks))
    if len(options) > 1:
        steps.append(Step("players choose", len(options),
                          by_game(game, ("fh-edge-04", "fh-edge-06"), ()),
                          "These options are equally valid for the monster: the players choose."
                          + ("" if fh else f" (Published rule, {NO_RECORD}.)")))
    if req.muddled and req.attack:
        steps.append(Step("muddled", True, by_game(game, ("fh-edge-01",), ()),
                          "Muddled gives disadvantage on every attack (published rule, "
                          f"{NO_RECORD}); it is the same from every hex, so it changes neither "
                          "the destination nor, as focus ignores disadvantage"
                          + (" (fh-edge-01)" if fh else "") + ", the focus."))
    explanation = " ".join(explanations)
    if len(tied) > 1:
        explanation = (f"The players choose the focus among {', '.join(focus_names)}. "
                       + explanation)
    return _result(req, focus, tuple(options), steps, explanation)


def _plan(req: MonsterRequest, board: Board, mover: Mover,
          fronts: dict[Hex, list[tuple[int, int]]], end_hexes: list[Hex], cand: Candidate,
          goals: Callable[[Hex], bool], reach: int, targets: int, melee: bool,
          can_attack_from: Callable[[Hex, Enemy], bool]
          ) -> tuple[list[Option], list[Step], str]:
    game = req.game
    fh = game == "frosthaven"
    focus = cand.enemy
    n_star = cand.negatives
    steps: list[Step] = []

    # Hexes reachable this turn: fewest negatives among paths within the movement, and the
    # least movement spent for that.
    turn: dict[Hex, tuple[int, int]] = {}
    for h in end_hexes:
        within = [(n, c) for n, c in fronts[h] if c <= req.move]
        if within:
            turn[h] = min(within)

    attack_now = sorted(h for h in turn if turn[h][0] == n_star and goals(h))
    if attack_now:
        return _attack(req, board, turn, attack_now, focus, targets, melee, can_attack_from,
                       mover.has_negative)

    # Out of reach: get as close as possible to an attack hex of the focus, with no extra
    # negative hexes, moving as little as possible for that.
    scored: list[tuple[int, int, Hex]] = []
    for h, (neg, cost) in turn.items():
        rest = mover.remaining(h, goals)
        if rest is None or neg + rest[0] != n_star:
            continue
        scored.append((rest[1], cost, h))
    best = min((r, c) for r, c, _ in scored)
    dests = sorted(h for r, c, h in scored if (r, c) == best)
    stays = dests == [req.hex]
    detail = {"remaining_movement": best[0], "movement_used": best[1],
              "destinations": [_h(h) for h in dests]}
    steps.append(Step(
        "move toward focus", detail,
        by_game(game, ("fh-edge-03",) if mover.has_negative else (), ("gh-da-4",)),
        ("The monster cannot attack its focus this turn without extra negative hexes; it "
         "moves to the reachable hex leaving the fewest movement points to a hex from which "
         "it could attack its focus along the same safe path, moving as little as possible "
         f"for that. Getting 'as close as possible' is the rulebook's rule, {NO_RECORD}."
         if fh else
         "The monster cannot attack its focus this turn; it moves toward it, to the reachable "
         "hex leaving the fewest movement points to a hex from which it could attack it, "
         "avoiding negative hexes, moving as little as possible for that (gh-da-4 states the "
         f"minimum-movement rule; the rest is the published rule, {NO_RECORD}).")))
    what = "move toward" if req.attack else "move toward (it has no attack)"
    text = (f"{focus.name} is the focus; the monster cannot attack it this turn and "
            + ("cannot get closer, so it stays." if stays else
               f"will {what} it, ending {best[0]} movement point(s) from an attack hex."))
    return [Option(h, ()) for h in dests], steps, text


def _attack(req: MonsterRequest, board: Board, turn: dict[Hex, tuple[int, int]],
            attack_now: list[Hex], focus: Enemy, targets: int, melee: bool,
            can_attack_from: Callable[[Hex, Enemy], bool], has_negative: bool
            ) -> tuple[list[Option], list[Step], str]:
    fh = req.game == "frosthaven"
    steps: list[Step] = []
    others = [e for e in req.enemies if e != focus]

    def disadvantaged(h: Hex, e: Enemy) -> bool:
        return (not melee) and board.adjacent(h, e.hex)

    scored: list[tuple[tuple[int, ...], Hex, tuple[Hex, ...]]] = []
    for h in attack_now:
        extra = [e for e in others if can_attack_from(h, e)] if req.attack else []
        k = min(targets - 1, len(extra))
        if fh:
            for chosen in combinations(extra, k):
                dis = sum(disadvantaged(h, e) for e in (focus, *chosen))
                scored.append(((-k, dis, turn[h][1]), h, tuple(e.hex for e in chosen)))
        else:
            # Gloomhaven: additional targets chosen by the focus rules (proximity, initiative).
            def rank(e: Enemy) -> tuple[int, int]:
                return (board.range_distances(e.hex)[h], e.initiative)
            ranked = sorted(extra, key=rank)
            if k and len(ranked) > k:
                cut = rank(ranked[k - 1])
                sure = [e for e in ranked if rank(e) < cut]
                border = [e for e in ranked if rank(e) == cut]
                sets = [tuple(sure) + c for c in combinations(border, k - len(sure))]
            else:
                sets = [tuple(ranked[:k])]
            for chosen in sets:
                scored.append(((int(disadvantaged(h, focus)), -k, turn[h][1]), h,
                               tuple(e.hex for e in chosen)))
    best = min(s[0] for s in scored)
    chosen_opts = [(h, extra) for key, h, extra in scored if key == best]
    options = [Option(h, tuple(sorted((focus.hex, *extra))) if req.attack else ())
               for h, extra in chosen_opts]
    dests = sorted({h for h, _ in chosen_opts})
    moved = best[-1]
    n_extra = -best[0] if fh else -best[1]
    dis = best[1] if fh else best[0]
    stays = dests == [req.hex]

    if targets > 1:
        steps.append(Step(
            "additional targets",
            {"additional_targets": n_extra, "disadvantaged_attacks": dis if fh else None},
            by_game(req.game, ("fh-edge-06",), ()),
            "Keeping its focus and no extra negative hexes, the monster attacks as many "
            "additional targets as possible, then minimises disadvantage, then movement; the "
            "players choose the destination and every secondary target; focus is not re-run "
            "for them." if fh else
            "Gloomhaven: the monster keeps its focus and avoids disadvantage against it first, "
            "then attacks as many additional targets as possible, with least movement; the "
            "additional targets are picked by the focus rules (closest by proximity, then "
            f"initiative). Published rule, {NO_RECORD}."))
    if not melee:
        steps.append(Step(
            "disadvantage", {"disadvantaged_attacks": dis},
            by_game(req.game, ("fh-edge-01", "fh-nl-3", "fh-it-3"), ()),
            ("A ranged attack against an adjacent enemy has disadvantage; the monster moves the "
             "smallest distance to shed it if its movement allows and without entering a "
             "negative hex." if fh else
             "A ranged attack against an adjacent enemy has disadvantage; the monster moves "
             f"away from its focus to attack without it if it can. Published rule, {NO_RECORD}.")
        ))
    steps.append(Step(
        "destination", {"destinations": [_h(h) for h in dests], "movement_used": moved},
        by_game(req.game, (("fh-edge-03",) if has_negative else ())
                + (("fh-edge-06",) if targets > 1 else ()), ("gh-da-4",)),
        ("The monster need not move: it attacks from where it stands." if stays else
         "The monster moves the least needed to best attack its focus, on a path with no "
         "extra negative hexes.")
        + (f" Moving the minimum is the rulebook's rule, {NO_RECORD}." if fh and targets == 1
           else "")))
    verb = "attacks" if req.attack else "ends adjacent to"
    where = "stays where it is" if stays else (
        f"moves {moved} movement point(s) to " + " or ".join(str(_h(h)) for h in dests))
    text = f"{focus.name} is the focus; the monster {where} and {verb} it"
    if req.attack and n_extra:
        text += f" and {n_extra} additional target(s)"
    text += "."
    if dis:
        text += f" {dis} attack(s) have disadvantage (ranged against an adjacent enemy)."
    return options, steps, text


def _result(req: MonsterRequest, focus: tuple[Hex, ...], options: tuple[Option, ...],
            steps: list[Step], explanation: str) -> MonsterResult:
    return MonsterResult(req.game, focus, options, explanation, tuple(steps))


def run(payload: Any) -> dict[str, Any]:
    """Validate, compute, return the JSON response."""
    return compute(parse(payload)).to_dict()


# --- schemas ----------------------------------------------------------------------------------

_HEX = {"type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": 2,
        "maxItems": 2, "description": "[column, row], odd-q offset layout, flat-topped hexes."}
_HEXES = {"type": "array", "items": _HEX}

REQUEST_SCHEMA: dict[str, Any] = {
    "title": "MonsterRequest",
    "type": "object",
    "required": ["game", "map", "monster"],
    "properties": {
        "game": GAME_SCHEMA,
        "map": {
            "type": "object",
            "required": ["width", "height"],
            "properties": {
                "width": {"type": "integer", "minimum": 1, "maximum": MAX_SIDE},
                "height": {"type": "integer", "minimum": 1, "maximum": MAX_SIDE},
                "walls": {**_HEXES, "description": "Hexes that are not part of the room "
                                                   "(closed doors too)."},
                "thin_walls": {"type": "array", "items": {"type": "array", "items": _HEX,
                                                          "minItems": 2, "maxItems": 2},
                               "description": "Wall lines along the edge between two "
                                              "neighbouring hexes."},
                "obstacles": _HEXES, "traps": _HEXES, "hazardous": _HEXES,
                "difficult": _HEXES,
                "icy": {**_HEXES, "description": "Frosthaven only."},
            },
            "additionalProperties": False,
        },
        "monster": {
            "type": "object",
            "required": ["hex", "move"],
            "properties": {
                "hex": _HEX,
                "move": {"type": "integer", "minimum": 0, "maximum": 20},
                "range": {"type": "integer", "minimum": 0, "maximum": 20, "default": 0,
                          "description": "0 = melee."},
                "targets": {"type": "integer", "minimum": 1, "maximum": 10, "default": 1},
                "attack": {"type": "boolean", "default": True,
                           "description": "false: the ability card has movement but no "
                                          "attack; the monster moves as for a melee attack."},
                "jump": {"type": "boolean", "default": False},
                "flying": {"type": "boolean", "default": False},
                "teleport": {"type": "boolean", "default": False,
                             "description": "Not supported yet: true is refused."},
                "muddled": {"type": "boolean", "default": False},
            },
            "additionalProperties": False,
        },
        "allies": {**_HEXES, "description": "The acting monster's allies."},
        "enemies": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["hex", "initiative", "name"],
                "properties": {
                    "hex": _HEX,
                    "initiative": {"type": "integer", "minimum": 0, "maximum": 99},
                    "name": {"type": "string", "minLength": 1},
                    "summoner": {"type": "string", "description": "For a summon: the name of "
                                 "the enemy who summoned it (it is focused before them)."},
                },
                "additionalProperties": False,
            },
        },
    },
    "additionalProperties": False,
}

RESPONSE_SCHEMA: dict[str, Any] = response_schema("MonsterResponse", {
    "focus": {**_HEXES, "description": "The focus; more than one hex only when the players "
                                       "choose the focus."},
    "options": {"type": "array", "items": {
        "type": "object", "required": ["destination", "attacks"],
        "properties": {"destination": _HEX, "attacks": _HEXES},
        "additionalProperties": False},
        "description": "Every equally valid choice; the players choose among them."},
    "explanation": {"type": "string"},
}, ["focus", "options", "explanation"])

EXAMPLE: dict[str, Any] = {
    "game": "frosthaven",
    "map": {"width": 7, "height": 5, "walls": [[3, 0], [3, 1], [3, 2]],
            "thin_walls": [], "obstacles": [[1, 3]], "traps": [[2, 2]],
            "hazardous": [], "difficult": [[4, 3]], "icy": []},
    "monster": {"hex": [1, 1], "move": 2, "range": 0, "targets": 1},
    "allies": [[0, 2]],
    "enemies": [{"hex": [5, 1], "initiative": 30, "name": "Drifter"},
                {"hex": [0, 4], "initiative": 12, "name": "Blinkblade"}],
}
