"""Destination and plan: where the monster ends its move and whom it attacks, for one focus.

If it can attack its focus this turn (an attack hex reachable within its movement without
extra negative hexes), it picks the best attack among those hexes (checker.monster.targets).

Otherwise it picks as destination the attack hex(es) it heads for, with unlimited movement and
no extra negative hexes: Frosthaven, the closest hexes from which it can attack its focus
(fewest disadvantaged attacks first); Gloomhaven, the hexes from which it would make its best
attack (the multi-target order of checker.monster.targets). It then moves to get as close as
it can to *a* destination (fewest movement points left to it, then the least movement): when
several destinations are equally good the players choose among them, and every such
destination's best end hex is an option, even one that makes less progress. The destination
is chosen by closeness only, never by how far the monster gets this turn.
"""

from __future__ import annotations

from dataclasses import dataclass

from checker.base import Step, by_game
from checker.hexgrid import Hex
from checker.monster.context import NO_RECORD, Context
from checker.monster.focus import Candidate
from checker.monster.request import Enemy
from checker.monster.result import Option, hex_json
from checker.monster.targets import Attack, attacks_from, best_attacks, disadvantaged


@dataclass(frozen=True)
class Plan:
    """The options for one focus, the steps that chose them, one sentence for the reader."""

    options: list[Option]
    steps: list[Step]
    text: str


def plan(ctx: Context, cand: Candidate) -> Plan:
    """The options of the monster that has chosen `cand` as its focus."""
    focus = cand.enemy
    now = sorted(
        h
        for h, (neg, _) in ctx.turn.items()
        if neg == cand.negatives and ctx.attack.can_attack_from(h, focus)
    )
    if now:
        attacks = [a for h in now for a in attacks_from(ctx, h, ctx.turn[h][1], focus)]
        return _attack_plan(ctx, best_attacks(ctx, attacks, focus), focus)
    return _approach(ctx, cand)


# --- cannot attack this turn: the destinations, then as close as it can get ---------------------


def destinations(ctx: Context, cand: Candidate) -> list[Attack]:
    """The attacks the monster heads for when it cannot attack its focus this turn."""
    focus, attack = cand.enemy, ctx.attack
    hexes = [
        h
        for h in ctx.end_hexes
        if ctx.fronts[h][-1][0] == cand.negatives and attack.in_range(h, focus)
    ]
    if ctx.fh:
        # It heads for its focus alone (other targets count once it can attack): fewest
        # disadvantaged attacks, then closest; line of sight is checked lazily, in that order.
        hexes.sort(key=lambda h: (disadvantaged(ctx, h, focus), ctx.fronts[h][-1][1], h))
        found: list[Attack] = []
        for h in hexes:
            key = (int(disadvantaged(ctx, h, focus)), ctx.fronts[h][-1][1])
            if found and key != (found[0].disadvantaged, found[0].movement):
                break
            if attack.can_attack_from(h, focus):
                found.append(Attack(h, (focus,), key[1], key[0]))
        return found
    attacks = [
        a
        for h in sorted(hexes)
        if attack.can_attack_from(h, focus)
        for a in attacks_from(ctx, h, ctx.fronts[h][-1][1], focus)
    ]
    return best_attacks(ctx, attacks, focus)


@dataclass(frozen=True)
class _Toward:
    """The best end hexes this turn toward one destination."""

    destination: Hex
    ends: tuple[Hex, ...]
    remaining: int
    movement: int


def _toward(ctx: Context, destination: Hex) -> _Toward:
    to = ctx.mover.to_target(destination, frozenset(ctx.turn))
    scored = [
        ((neg + to[h][0], to[h][1], cost), h) for h, (neg, cost) in ctx.turn.items() if h in to
    ]
    best = min(key for key, _ in scored)
    return _Toward(
        destination, tuple(sorted(h for key, h in scored if key == best)), best[1], best[2]
    )


def _approach(ctx: Context, cand: Candidate) -> Plan:
    req, focus = ctx.req, cand.enemy
    heads = destinations(ctx, cand)
    towards = [_toward(ctx, d) for d in sorted({a.hex for a in heads})]
    options = [Option(e, (), (t.destination,), (focus.hex,)) for t in towards for e in t.ends]
    ends = sorted({o.destination for o in options})
    detail = {
        "remaining_movement": min(t.remaining for t in towards),
        "movement_used": min(t.movement for t in towards),
        "destinations": [hex_json(h) for h in ends],
        "toward": [
            {
                "hex": hex_json(t.destination),
                "remaining_movement": t.remaining,
                "movement_used": t.movement,
                "ends": [hex_json(h) for h in t.ends],
            }
            for t in towards
        ],
    }
    steps = [
        Step(
            "move toward focus",
            detail,
            by_game(ctx.game, ("fh-edge-03",) if ctx.mover.has_negative else (), ("gh-da-4",)),
            _approach_note(ctx, len(towards)),
        )
    ]
    what = "move toward" if req.attack else "move toward (it has no attack)"
    if ends == [req.hex]:
        text = f"{focus.name} is the focus; the monster cannot attack it this turn and cannot get closer, so it stays."
    else:
        text = (
            f"{focus.name} is the focus; the monster cannot attack it this turn and will "
            f"{what} "
            + " or ".join(str(hex_json(t.destination)) for t in towards)
            + (
                f", ending {towards[0].remaining} movement point(s) from it."
                if len(towards) == 1
                else " (the players choose), ending "
                + " or ".join(str(t.remaining) for t in towards)
                + " movement point(s) from it."
            )
        )
    return Plan(options, steps, text)


def _approach_note(ctx: Context, n_destinations: int) -> str:
    heads = (
        "the closest hexes from which it could attack its focus (avoiding disadvantage first)"
        if ctx.fh
        else "the hexes from which it would make its best attack (no disadvantage against "
        "its focus, most targets, least movement, best-ranked targets)"
    )
    note = (
        f"Destinations the players choose among: the monster cannot attack its focus this "
        f"turn without extra negative hexes, so it heads for {heads}, measured by the path "
        "it would take with unlimited movement and no extra negative hexes, and moves to "
        "the reachable hex leaving the fewest movement points to a destination, moving as "
        "little as possible for that."
    )
    if n_destinations > 1:
        note += (
            " Several destinations are equally good: the players choose among them, and "
            "each one's best end hex is an option, even where the monster makes less "
            "progress toward it."
        )
    if ctx.fh:
        return note + f" Published rule, {NO_RECORD}."
    return note + (
        " gh-da-4 states that the monster moves toward its focus with the least "
        f"movement; the rest is the published rule, {NO_RECORD}."
    )


# --- can attack this turn ------------------------------------------------------------------------


def _attack_plan(ctx: Context, chosen: list[Attack], focus: Enemy) -> Plan:
    req = ctx.req
    options = [
        Option(a.hex, a.target_hexes if req.attack else (), (), (focus.hex,)) for a in chosen
    ]
    dests = sorted({a.hex for a in chosen})
    moved, dis = chosen[0].movement, chosen[0].disadvantaged
    n_extra = len(chosen[0].targets) - 1
    stays = dests == [req.hex]
    steps = _attack_steps(ctx, dests, moved, n_extra, dis, stays)
    verb = "attacks" if req.attack else "ends adjacent to"
    where = (
        "stays where it is"
        if stays
        else (f"moves {moved} movement point(s) to " + " or ".join(str(hex_json(h)) for h in dests))
    )
    text = f"{focus.name} is the focus; the monster {where} and {verb} it"
    if req.attack and n_extra:
        text += f" and {n_extra} additional target(s)"
    text += "."
    if dis:
        text += f" {dis} attack(s) have disadvantage (ranged against an adjacent enemy)."
    return Plan(options, steps, text)


def _attack_steps(
    ctx: Context, dests: list[Hex], moved: int, n_extra: int, dis: int, stays: bool
) -> list[Step]:
    fh, targets, game = ctx.fh, ctx.attack.targets, ctx.game
    steps: list[Step] = []
    if targets > 1:
        steps.append(
            Step(
                "additional targets",
                {"additional_targets": n_extra, "disadvantaged_attacks": dis},
                by_game(game, ("fh-edge-06",), ()),
                "Keeping its focus and no extra negative hexes, the monster attacks as many "
                "additional targets as possible, then minimises disadvantage, then movement; the "
                "players choose the destination and every secondary target; focus is not re-run "
                "for them."
                if fh
                else "Gloomhaven's multi-target order: the monster ranks the other enemies as it ranks "
                "a focus (proximity, then initiative) and picks its targets by: no disadvantage "
                "against its focus, most targets, least movement, best-ranked targets; only then "
                "does it pick, among the hexes from which it attacks those targets, the one with "
                "the fewest disadvantaged attacks, then the least movement (it moves farther to "
                f"avoid disadvantage against a secondary target). Published rule, {NO_RECORD}.",
            )
        )
    if not ctx.attack.melee:
        steps.append(_disadvantage_step(ctx, dis))
    steps.append(
        Step(
            "destination",
            {"destinations": [hex_json(h) for h in dests], "movement_used": moved},
            by_game(
                game,
                (("fh-edge-03",) if ctx.mover.has_negative else ())
                + (("fh-edge-06",) if targets > 1 else ()),
                ("gh-da-4",),
            ),
            (
                "The monster need not move: it attacks from where it stands."
                if stays
                else "The monster moves the least needed to best attack its focus, on a path with no "
                "extra negative hexes."
            )
            + (
                f" Moving the minimum is the rulebook's rule, {NO_RECORD}."
                if fh and targets == 1
                else ""
            ),
        )
    )
    return steps


def _disadvantage_step(ctx: Context, dis: int) -> Step:
    if ctx.req.muddled:
        return Step(
            "disadvantage",
            {"disadvantaged_attacks": dis, "muddled": True},
            (),
            "Muddled ranged monster: it attacks with disadvantage anyway, so it does "
            "not step away from an adjacent target to shed disadvantage (for its focus "
            f"or its secondary targets). Published rule, {NO_RECORD}.",
        )
    return Step(
        "disadvantage",
        {"disadvantaged_attacks": dis},
        by_game(ctx.game, ("fh-edge-01", "fh-nl-3", "fh-it-3"), ()),
        (
            "A ranged attack against an adjacent enemy has disadvantage; the monster moves the "
            "smallest distance to shed it if its movement allows and without entering a "
            "negative hex."
            if ctx.fh
            else "A ranged attack against an adjacent enemy has disadvantage; the monster moves "
            f"away from its focus to attack without it if it can. Published rule, {NO_RECORD}."
        ),
    )
