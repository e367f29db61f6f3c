"""Focus: the enemy the monster attacks with the fewest negative hexes, then the least
movement (pretending infinite movement), then the closest by proximity (range distance), then
the earliest in initiative (summons before their summoner); ties left are the players' choice
(gh-da-4; fh-edge-01, -03, -04, -05 for Frosthaven)."""

from __future__ import annotations

from dataclasses import dataclass

from checker.base import Step, by_game
from checker.message import Sentence, join, msg
from checker.monster.context import Context
from checker.monster.request import Enemy
from checker.monster.result import hex_json


@dataclass(frozen=True)
class Candidate:
    enemy: Enemy
    negatives: int
    movement: int
    proximity: int
    order: tuple[int, int]  # (initiative, 0 for a summon acting before its summoner, else 1)

    def key(self) -> tuple[int, int, int, tuple[int, int]]:
        return (self.negatives, self.movement, self.proximity, self.order)


def initiative_order(ctx: Context, e: Enemy) -> tuple[int, int]:
    """(initiative, 0 for a summon acting before its summoner with the same initiative, else 1)."""
    by_name = {x.name: x for x in ctx.req.enemies}
    if e.summoner is not None and by_name[e.summoner].initiative == e.initiative:
        return (e.initiative, 0)  # a summon acts, and is focused, before its summoner
    return (e.initiative, 1)


def candidates(ctx: Context) -> tuple[list[Candidate], list[str]]:
    """The enemies the monster could ever attack, with their focus keys; and the others."""
    board, attack = ctx.board, ctx.attack
    found_all: list[Candidate] = []
    unreachable: list[str] = []
    for e in ctx.req.enemies:
        rd = board.range_distances(e.hex, attack.reach)
        in_range = sorted(
            (ctx.fronts[h][-1], h)
            for h in rd
            if rd[h] >= 1 and h in ctx.fronts and ctx.mover.can_end(h)
        )
        found = next((key for key, h in in_range if attack.can_attack_from(h, e)), None)
        if found is None:
            unreachable.append(e.name)
            continue
        neg, cost = found
        prox = board.range_distance(ctx.req.hex, e.hex)
        found_all.append(
            Candidate(e, neg, cost, prox if prox is not None else 10**6, initiative_order(ctx, e))
        )
    return found_all, unreachable


def candidates_step(ctx: Context, found: list[Candidate], unreachable: list[str]) -> Step:
    table = [
        {
            "name": c.enemy.name,
            "hex": hex_json(c.enemy.hex),
            "negative_hexes": c.negatives,
            "movement": c.movement,
            "proximity": c.proximity,
            "initiative": c.enemy.initiative,
        }
        for c in sorted(found, key=Candidate.key)
    ]
    note: list[Sentence] = [
        msg(
            "For each enemy, the path to a hex from which the monster could attack it, pretending "
            "infinite movement: fewest negative hexes first (counted, never weighed), then least "
            "movement."
        )
    ]
    if unreachable:
        names = ", ".join(unreachable)
        note.append(msg("Enemies it could never attack: %(names)s.", names=names))
    if not ctx.fh:
        note.append(
            msg(
                "Counting negative hexes first is the published rule, not covered by a record in "
                "the archive."
            )
        )
    return Step(
        msg("focus candidates"),
        table,
        by_game(ctx.game, ("fh-edge-03", "fh-edge-04", "fh-edge-05"), ("gh-da-4",)),
        join(note),
    )


def choose(ctx: Context, found: list[Candidate]) -> tuple[list[Candidate], list[Step]]:
    """The focus (several when the players choose) and the steps that chose it."""
    steps: list[Step] = []
    if not ctx.attack.melee and any(ctx.board.adjacent(ctx.req.hex, c.enemy.hex) for c in found):
        ignores: Sentence = msg(
            "A ranged attack against an adjacent enemy has disadvantage, but focus does not "
            "consider it."
        )
        if not ctx.fh:
            published = msg("(Published Gloomhaven rule, not covered by a record in the archive.)")
            ignores = join([ignores, published])
        steps.append(
            Step(
                msg("focus ignores disadvantage"),
                None,
                by_game(ctx.game, ("fh-edge-01",), ()),
                ignores,
            )
        )
    best = min(c.key()[:2] for c in found)
    tied = [c for c in found if c.key()[:2] == best]
    tie_note = None
    if len(tied) > 1:
        best_prox = min(c.proximity for c in tied)
        tied = [c for c in tied if c.proximity == best_prox]
        tie_note = msg("tied on movement, broken by proximity (range distance, around walls)")
        if len(tied) > 1:
            best_order = min(c.order for c in tied)
            tied = [c for c in tied if c.order == best_order]
            tie_note = msg(
                "tied on movement, broken by proximity (range distance, around walls) then "
                "initiative (a summon before its summoner)"
            )
            if len(tied) > 1:
                tie_note = msg(
                    "tied on movement, broken by proximity (range distance, around walls) then "
                    "initiative (a summon before its summoner); still tied: the players choose "
                    "the focus"
                )
    tied.sort(key=lambda c: c.enemy.hex)
    steps.append(_focus_step(ctx, tied, tie_note))
    return tied, steps


def _focus_step(ctx: Context, tied: list[Candidate], tie_note: Sentence | None) -> Step:
    note: Sentence
    if tie_note and ctx.fh:
        rulings: tuple[str, ...] = ("fh-edge-04",) if len(tied) > 1 else ()
        note = (
            msg(
                "Focus %(tie)s. The proximity and initiative tie-breaks are the Frosthaven "
                "rulebook's (as gh-da-4 for Gloomhaven), not covered by a record in the archive; "
                "fh-edge-04 leaves remaining ambiguity to the players.",
                tie=tie_note,
            )
            if len(tied) > 1
            else msg(
                "Focus %(tie)s. The proximity and initiative tie-breaks are the Frosthaven "
                "rulebook's (as gh-da-4 for Gloomhaven), not covered by a record in the archive.",
                tie=tie_note,
            )
        )
    elif tie_note:
        rulings = ("gh-da-4",)
        note = msg("Focus %(tie)s.", tie=tie_note)
        if len(tied) > 1:
            choice = msg("The players' choice is not covered by a record in the archive.")
            note = join([note, choice])
    else:
        rulings = by_game(ctx.game, ("fh-edge-03", "fh-edge-05"), ("gh-da-4",))
        note = msg("The enemy attackable with the fewest negative hexes and least movement.")
    return Step(
        msg("focus"),
        [{"name": c.enemy.name, "hex": hex_json(c.enemy.hex)} for c in tied],
        rulings,
        note,
    )
