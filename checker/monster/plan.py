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
from checker.message import Sentence, join, msg
from checker.monster.context import Context
from checker.monster.focus import Candidate
from checker.monster.request import Enemy
from checker.monster.result import Option, hex_json
from checker.monster.targets import Attack, attacks_from, best_attacks, disadvantaged


@dataclass(frozen=True)
class Plan:
    """The options for one focus, the steps that chose them, one sentence for the reader."""

    options: list[Option]
    steps: list[Step]
    text: Sentence


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
    focus = cand.enemy
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
            msg("move toward focus"),
            detail,
            by_game(ctx.game, ("fh-edge-03",) if ctx.mover.has_negative else (), ("gh-da-4",)),
            _approach_note(ctx, len(towards)),
        )
    ]
    return Plan(options, steps, _approach_text(ctx, focus, ends, towards))


#: "A or B", said in the reader's language.
OR = msg(" or ")


def _approach_text(ctx: Context, focus: Enemy, ends: list[Hex], towards: list[_Toward]) -> Sentence:
    """The explanation when the monster cannot attack its focus this turn."""
    name = focus.name
    if ends == [ctx.req.hex]:
        return msg(
            "%(name)s is the focus; the monster cannot attack it this turn and cannot get "
            "closer, so it stays.",
            name=name,
        )
    hexes = join([str(hex_json(t.destination)) for t in towards], OR)
    if len(towards) == 1:
        values = {"name": name, "hexes": hexes, "remaining": towards[0].remaining}
        if ctx.req.attack:
            return msg(
                "%(name)s is the focus; the monster cannot attack it this turn and will move "
                "toward %(hexes)s, ending %(remaining)s movement point(s) from it.",
                **values,
            )
        return msg(
            "%(name)s is the focus; the monster cannot attack it this turn and will move "
            "toward (it has no attack) %(hexes)s, ending %(remaining)s movement point(s) from it.",
            **values,
        )
    remaining = join([str(t.remaining) for t in towards], OR)
    values = {"name": name, "hexes": hexes, "remaining": remaining}
    if ctx.req.attack:
        return msg(
            "%(name)s is the focus; the monster cannot attack it this turn and will move toward "
            "%(hexes)s (the players choose), ending %(remaining)s movement point(s) from it.",
            **values,
        )
    return msg(
        "%(name)s is the focus; the monster cannot attack it this turn and will move toward (it "
        "has no attack) %(hexes)s (the players choose), ending %(remaining)s movement point(s) "
        "from it.",
        **values,
    )


def _approach_note(ctx: Context, n_destinations: int) -> Sentence:
    heads = (
        msg("the closest hexes from which it could attack its focus (avoiding disadvantage first)")
        if ctx.fh
        else msg(
            "the hexes from which it would make its best attack (no disadvantage against its "
            "focus, most targets, least movement, best-ranked targets)"
        )
    )
    note: list[Sentence] = [
        msg(
            "Destinations the players choose among: the monster cannot attack its focus this "
            "turn without extra negative hexes, so it heads for %(heads)s, measured by the path "
            "it would take with unlimited movement and no extra negative hexes, and moves to "
            "the reachable hex leaving the fewest movement points to a destination, moving as "
            "little as possible for that.",
            heads=heads,
        )
    ]
    if n_destinations > 1:
        note.append(
            msg(
                "Several destinations are equally good: the players choose among them, and "
                "each one's best end hex is an option, even where the monster makes less "
                "progress toward it."
            )
        )
    if ctx.fh:
        note.append(msg("Published rule, not covered by a record in the archive."))
    else:
        note.append(
            msg(
                "gh-da-4 states that the monster moves toward its focus with the least "
                "movement; the rest is the published rule, not covered by a record in the archive."
            )
        )
    return join(note)


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
    text = _attack_text(ctx, focus, dests, moved, n_extra if req.attack else 0)
    if dis:
        disadvantage = msg(
            "%(count)s attack(s) have disadvantage (ranged against an adjacent enemy).", count=dis
        )
        text = join([text, disadvantage])
    return Plan(options, steps, text)


def _attack_text(
    ctx: Context, focus: Enemy, dests: list[Hex], moved: int, n_extra: int
) -> Sentence:
    """The explanation when the monster can attack its focus this turn (or, without an attack,
    reach it)."""
    values = {
        "name": focus.name,
        "extra": n_extra,
        "movement": moved,
        "hexes": join([str(hex_json(h)) for h in dests], OR),
    }
    if dests == [ctx.req.hex]:
        if not ctx.req.attack:
            return msg(
                "%(name)s is the focus; the monster stays where it is and ends adjacent to it.",
                **values,
            )
        if n_extra:
            return msg(
                "%(name)s is the focus; the monster stays where it is and attacks it and "
                "%(extra)s additional target(s).",
                **values,
            )
        return msg("%(name)s is the focus; the monster stays where it is and attacks it.", **values)
    if not ctx.req.attack:
        return msg(
            "%(name)s is the focus; the monster moves %(movement)s movement point(s) to "
            "%(hexes)s and ends adjacent to it.",
            **values,
        )
    if n_extra:
        return msg(
            "%(name)s is the focus; the monster moves %(movement)s movement point(s) to "
            "%(hexes)s and attacks it and %(extra)s additional target(s).",
            **values,
        )
    return msg(
        "%(name)s is the focus; the monster moves %(movement)s movement point(s) to %(hexes)s "
        "and attacks it.",
        **values,
    )


def _attack_steps(
    ctx: Context, dests: list[Hex], moved: int, n_extra: int, dis: int, stays: bool
) -> list[Step]:
    fh, targets, game = ctx.fh, ctx.attack.targets, ctx.game
    steps: list[Step] = []
    if targets > 1:
        steps.append(
            Step(
                msg("additional targets"),
                {"additional_targets": n_extra, "disadvantaged_attacks": dis},
                by_game(game, ("fh-edge-06",), ()),
                msg(
                    "Keeping its focus and no extra negative hexes, the monster attacks as many "
                    "additional targets as possible, then minimises disadvantage, then movement; "
                    "the players choose the destination and every secondary target; focus is not "
                    "re-run for them."
                )
                if fh
                else msg(
                    "Gloomhaven's multi-target order: the monster ranks the other enemies as it "
                    "ranks a focus (proximity, then initiative) and picks its targets by: no "
                    "disadvantage against its focus, most targets, least movement, best-ranked "
                    "targets; only then does it pick, among the hexes from which it attacks those "
                    "targets, the one with the fewest disadvantaged attacks, then the least "
                    "movement (it moves farther to avoid disadvantage against a secondary "
                    "target). Published rule, not covered by a record in the archive."
                ),
            )
        )
    if not ctx.attack.melee:
        steps.append(_disadvantage_step(ctx, dis))
    how: Sentence = (
        msg("The monster need not move: it attacks from where it stands.")
        if stays
        else msg(
            "The monster moves the least needed to best attack its focus, on a path with no "
            "extra negative hexes."
        )
    )
    if fh and targets == 1:
        minimum = msg(
            "Moving the minimum is the rulebook's rule, not covered by a record in the archive."
        )
        how = join([how, minimum])
    steps.append(
        Step(
            msg("destination"),
            {"destinations": [hex_json(h) for h in dests], "movement_used": moved},
            by_game(
                game,
                (("fh-edge-03",) if ctx.mover.has_negative else ())
                + (("fh-edge-06",) if targets > 1 else ()),
                ("gh-da-4",),
            ),
            how,
        )
    )
    return steps


def _disadvantage_step(ctx: Context, dis: int) -> Step:
    if ctx.req.muddled:
        return Step(
            msg("disadvantage"),
            {"disadvantaged_attacks": dis, "muddled": True},
            (),
            msg(
                "Muddled ranged monster: it attacks with disadvantage anyway, so it does "
                "not step away from an adjacent target to shed disadvantage (for its focus "
                "or its secondary targets). Published rule, not covered by a record in the archive."
            ),
        )
    return Step(
        msg("disadvantage"),
        {"disadvantaged_attacks": dis},
        by_game(ctx.game, ("fh-edge-01", "fh-nl-3", "fh-it-3"), ()),
        msg(
            "A ranged attack against an adjacent enemy has disadvantage; the monster moves the "
            "smallest distance to shed it if its movement allows and without entering a "
            "negative hex."
        )
        if ctx.fh
        else msg(
            "A ranged attack against an adjacent enemy has disadvantage; the monster moves "
            "away from its focus to attack without it if it can. Published rule, not covered by "
            "a record in the archive."
        ),
    )
