"""Whom the monster attacks, from which hex: its focus and, with more targets, the others.

Frosthaven (fh-edge-06): keeping its focus, the monster attacks as many targets as possible,
then has as few disadvantaged attacks as possible, then moves as little as possible; every
choice still tied is the players'. The focus process is not re-run for the other targets.

Gloomhaven (published rule, not covered by a record in the archive): the monster ranks the
other enemies as it ranks a focus (proximity, then initiative) and picks its target group by:
no disadvantage against the focus, most targets, least movement to attack them, then the
best-ranked targets; only then does it choose, among the hexes from which it attacks that
group, the one with the fewest disadvantaged attacks, then the least movement (so it will
move farther to avoid disadvantage against a secondary target).

A ranged attack against an adjacent enemy has disadvantage, unless the monster is muddled: a
muddled monster attacks with disadvantage anyway, so it never moves to shed it.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from checker.hexgrid import Hex
from checker.monster.context import Context
from checker.monster.focus import initiative_order
from checker.monster.request import Enemy


@dataclass(frozen=True)
class Attack:
    """One way to attack: from `hex` (reached with `movement` points), these targets."""

    hex: Hex
    targets: tuple[Enemy, ...]  # the focus first
    movement: int
    disadvantaged: int  # how many of the attacks have disadvantage

    @property
    def target_hexes(self) -> tuple[Hex, ...]:
        return tuple(sorted(e.hex for e in self.targets))


def disadvantaged(ctx: Context, h: Hex, enemy: Enemy) -> bool:
    """Whether an attack from h on enemy has disadvantage the monster could shed by moving:
    a ranged attack on an adjacent enemy, unless it is muddled (it has disadvantage anyway)."""
    return ctx.attack.sheds_disadvantage and ctx.board.adjacent(h, enemy.hex)


def attacks_from(
    ctx: Context, h: Hex, movement: int, focus: Enemy, heed_others: bool = True
) -> list[Attack]:
    """Every largest target group (the focus and as many others as its targets allow) that
    the monster can attack from h."""
    others = [
        e
        for e in ctx.req.enemies
        if heed_others and e != focus and ctx.attack.can_attack_from(h, e)
    ]
    k = min(ctx.attack.targets - 1, len(others))
    out = []
    for chosen in combinations(others, k):
        group = (focus, *chosen)
        out.append(Attack(h, group, movement, sum(disadvantaged(ctx, h, e) for e in group)))
    return out


def focus_ranks(ctx: Context) -> dict[str, int]:
    """Gloomhaven: each enemy's rank as a focus by proximity, then initiative (0 is best)."""
    keys = {}
    for e in ctx.req.enemies:
        prox = ctx.board.range_distance(ctx.req.hex, e.hex)
        keys[e.name] = (prox if prox is not None else 10**6, initiative_order(ctx, e))
    ordered = sorted(set(keys.values()))
    return {name: ordered.index(key) for name, key in keys.items()}


def best_attacks(ctx: Context, attacks: list[Attack], focus: Enemy) -> list[Attack]:
    """The attacks the monster chooses among (the players choose among those returned)."""
    if not attacks:
        return []
    if ctx.fh:
        best: tuple[int, ...] = min((-len(a.targets), a.disadvantaged, a.movement) for a in attacks)
        return [a for a in attacks if (-len(a.targets), a.disadvantaged, a.movement) == best]
    ranks = focus_ranks(ctx)
    n_ranks = max(ranks.values()) + 1

    def rank_counts(a: Attack) -> tuple[int, ...]:
        counts = [0] * n_ranks
        for e in a.targets[1:]:
            counts[ranks[e.name]] += 1
        return tuple(-c for c in counts)

    def group_key(a: Attack) -> tuple:
        return (int(disadvantaged(ctx, a.hex, focus)), -len(a.targets), a.movement, rank_counts(a))

    best_group = min(group_key(a) for a in attacks)
    groups = {frozenset(e.name for e in a.targets) for a in attacks if group_key(a) == best_group}
    eligible = [
        a
        for a in attacks
        if group_key(a)[:2] == best_group[:2] and frozenset(e.name for e in a.targets) in groups
    ]
    best = min((a.disadvantaged, a.movement) for a in eligible)
    return [a for a in eligible if (a.disadvantaged, a.movement) == best]
