"""Destination and plan: where the monster ends its move and whom it attacks, for one focus.

If an attack hex of the focus is reachable this turn without extra negative hexes, the best of
them (Frosthaven, fh-edge-06: most additional targets, then least disadvantage, then least
movement; Gloomhaven: no disadvantage against the focus, then most targets, then least
movement, secondary targets ranked by the focus rules); else the hex that leaves it closest
(fewest movement points) to an attack hex of its focus without extra negative hexes, moving as
little as possible for that.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from checker.base import Step, by_game
from checker.hexgrid import Hex
from checker.monster.context import NO_RECORD, Context
from checker.monster.focus import Candidate
from checker.monster.request import Enemy
from checker.monster.result import Option, hex_json


@dataclass(frozen=True)
class Plan:
    """The options for one focus, the steps that chose them, one sentence for the reader."""

    options: list[Option]
    steps: list[Step]
    text: str


def plan(ctx: Context, cand: Candidate) -> Plan:
    """The options of the monster that has chosen `cand` as its focus."""
    goals = ctx.attack.goal_of(cand.enemy)
    # Hexes reachable this turn: fewest negatives among paths within the movement, and the
    # least movement spent for that.
    turn: dict[Hex, tuple[int, int]] = {}
    for h in ctx.end_hexes:
        within = [(n, c) for n, c in ctx.fronts[h] if c <= ctx.req.move]
        if within:
            turn[h] = min(within)
    attack_now = sorted(h for h in turn if turn[h][0] == cand.negatives and goals(h))
    if attack_now:
        return _attack(ctx, turn, attack_now, cand.enemy)
    return _approach(ctx, turn, cand)


def _approach(ctx: Context, turn: dict[Hex, tuple[int, int]], cand: Candidate) -> Plan:
    """Out of reach: get as close as possible to an attack hex of the focus, with no extra
    negative hexes, moving as little as possible for that."""
    req, mover, focus = ctx.req, ctx.mover, cand.enemy
    goals = ctx.attack.goal_of(focus)
    scored: list[tuple[int, int, Hex]] = []
    for h, (neg, cost) in turn.items():
        rest = mover.remaining(h, goals)
        if rest is None or neg + rest[0] != cand.negatives:
            continue
        scored.append((rest[1], cost, h))
    best = min((r, c) for r, c, _ in scored)
    dests = sorted(h for r, c, h in scored if (r, c) == best)
    stays = dests == [req.hex]
    detail = {"remaining_movement": best[0], "movement_used": best[1],
              "destinations": [hex_json(h) for h in dests]}
    step = Step(
        "move toward focus", detail,
        by_game(ctx.game, ("fh-edge-03",) if mover.has_negative else (), ("gh-da-4",)),
        ("The monster cannot attack its focus this turn without extra negative hexes; it "
         "moves to the reachable hex leaving the fewest movement points to a hex from which "
         "it could attack its focus along the same safe path, moving as little as possible "
         f"for that. Getting 'as close as possible' is the rulebook's rule, {NO_RECORD}."
         if ctx.fh else
         "The monster cannot attack its focus this turn; it moves toward it, to the reachable "
         "hex leaving the fewest movement points to a hex from which it could attack it, "
         "avoiding negative hexes, moving as little as possible for that (gh-da-4 states the "
         f"minimum-movement rule; the rest is the published rule, {NO_RECORD})."))
    what = "move toward" if req.attack else "move toward (it has no attack)"
    text = (f"{focus.name} is the focus; the monster cannot attack it this turn and "
            + ("cannot get closer, so it stays." if stays else
               f"will {what} it, ending {best[0]} movement point(s) from an attack hex."))
    return Plan([Option(h, ()) for h in dests], [step], text)


def _scored_targets(ctx: Context, turn: dict[Hex, tuple[int, int]], attack_now: list[Hex],
                    focus: Enemy) -> list[tuple[tuple[int, ...], Hex, tuple[Hex, ...]]]:
    """Every (hex, additional targets) the monster may attack from, with its game's key."""
    req, attack = ctx.req, ctx.attack
    others = [e for e in req.enemies if e != focus]
    scored: list[tuple[tuple[int, ...], Hex, tuple[Hex, ...]]] = []
    for h in attack_now:
        extra = [e for e in others if attack.can_attack_from(h, e)] if req.attack else []
        k = min(attack.targets - 1, len(extra))
        if ctx.fh:
            for chosen in combinations(extra, k):
                dis = sum(attack.disadvantaged(h, e) for e in (focus, *chosen))
                scored.append(((-k, dis, turn[h][1]), h, tuple(e.hex for e in chosen)))
            continue
        # Gloomhaven: additional targets chosen by the focus rules (proximity, initiative).
        def rank(e: Enemy) -> tuple[int, int]:
            return (ctx.board.range_distances(e.hex)[h], e.initiative)
        ranked = sorted(extra, key=rank)
        if k and len(ranked) > k:
            cut = rank(ranked[k - 1])
            sure = [e for e in ranked if rank(e) < cut]
            border = [e for e in ranked if rank(e) == cut]
            sets = [tuple(sure) + c for c in combinations(border, k - len(sure))]
        else:
            sets = [tuple(ranked[:k])]
        for chosen in sets:
            scored.append(((int(attack.disadvantaged(h, focus)), -k, turn[h][1]), h,
                           tuple(e.hex for e in chosen)))
    return scored


def _attack(ctx: Context, turn: dict[Hex, tuple[int, int]], attack_now: list[Hex],
            focus: Enemy) -> Plan:
    req, fh = ctx.req, ctx.fh
    scored = _scored_targets(ctx, turn, attack_now, focus)
    best = min(s[0] for s in scored)
    chosen_opts = [(h, extra) for key, h, extra in scored if key == best]
    options = [Option(h, tuple(sorted((focus.hex, *extra))) if req.attack else ())
               for h, extra in chosen_opts]
    dests = sorted({h for h, _ in chosen_opts})
    moved = best[-1]
    n_extra = -best[0] if fh else -best[1]
    dis = best[1] if fh else best[0]
    stays = dests == [req.hex]
    steps = _attack_steps(ctx, dests, moved, n_extra, dis, stays)
    verb = "attacks" if req.attack else "ends adjacent to"
    where = "stays where it is" if stays else (
        f"moves {moved} movement point(s) to " + " or ".join(str(hex_json(h)) for h in dests))
    text = f"{focus.name} is the focus; the monster {where} and {verb} it"
    if req.attack and n_extra:
        text += f" and {n_extra} additional target(s)"
    text += "."
    if dis:
        text += f" {dis} attack(s) have disadvantage (ranged against an adjacent enemy)."
    return Plan(options, steps, text)


def _attack_steps(ctx: Context, dests: list[Hex], moved: int, n_extra: int, dis: int,
                  stays: bool) -> list[Step]:
    fh, targets, game = ctx.fh, ctx.attack.targets, ctx.game
    steps: list[Step] = []
    if targets > 1:
        steps.append(Step(
            "additional targets",
            {"additional_targets": n_extra, "disadvantaged_attacks": dis if fh else None},
            by_game(game, ("fh-edge-06",), ()),
            "Keeping its focus and no extra negative hexes, the monster attacks as many "
            "additional targets as possible, then minimises disadvantage, then movement; the "
            "players choose the destination and every secondary target; focus is not re-run "
            "for them." if fh else
            "Gloomhaven: the monster keeps its focus and avoids disadvantage against it first, "
            "then attacks as many additional targets as possible, with least movement; the "
            "additional targets are picked by the focus rules (closest by proximity, then "
            f"initiative). Published rule, {NO_RECORD}."))
    if not ctx.attack.melee:
        steps.append(Step(
            "disadvantage", {"disadvantaged_attacks": dis},
            by_game(game, ("fh-edge-01", "fh-nl-3", "fh-it-3"), ()),
            ("A ranged attack against an adjacent enemy has disadvantage; the monster moves the "
             "smallest distance to shed it if its movement allows and without entering a "
             "negative hex." if fh else
             "A ranged attack against an adjacent enemy has disadvantage; the monster moves "
             f"away from its focus to attack without it if it can. Published rule, {NO_RECORD}.")
        ))
    steps.append(Step(
        "destination", {"destinations": [hex_json(h) for h in dests], "movement_used": moved},
        by_game(game, (("fh-edge-03",) if ctx.mover.has_negative else ())
                + (("fh-edge-06",) if targets > 1 else ()), ("gh-da-4",)),
        ("The monster need not move: it attacks from where it stands." if stays else
         "The monster moves the least needed to best attack its focus, on a path with no "
         "extra negative hexes.")
        + (f" Moving the minimum is the rulebook's rule, {NO_RECORD}." if fh and targets == 1
           else "")))
    return steps
