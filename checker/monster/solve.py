"""The solve, in order: the rules that apply, the focus, then the plan for each focus the
players may choose."""

from __future__ import annotations

from typing import Any

from checker.base import Step, by_game
from checker.message import Sentence, join, msg
from checker.monster import explain, focus
from checker.monster.context import Context, make_context
from checker.monster.plan import plan
from checker.monster.request import MonsterRequest, parse
from checker.monster.result import MonsterResult, Option, merge_options


def _stay(ctx: Context, steps: list[Step], explanation: Sentence) -> MonsterResult:
    """No focus: the monster stays where it is."""
    return MonsterResult(ctx.game, (), (Option(ctx.req.hex, ()),), explanation, tuple(steps))


def compute(req: MonsterRequest) -> MonsterResult:
    """Where the monster moves and whom it attacks, with every option and the steps."""
    ctx = make_context(req)
    steps = explain.movement_steps(ctx) + explain.attack_rule_steps(ctx)
    if not req.enemies:
        steps.append(
            Step(
                msg("focus"),
                [],
                (),
                msg(
                    "There is no enemy on the board: no focus, the monster stays (not covered by a "
                    "record in the archive)."
                ),
            )
        )
        return _stay(
            ctx, steps, msg("No enemy is on the board, so the monster has no focus and stays.")
        )
    found, unreachable = focus.candidates(ctx)
    steps.append(focus.candidates_step(ctx, found, unreachable))
    if not found:
        steps.append(
            Step(
                msg("focus"),
                [],
                by_game(ctx.game, ("fh-edge-03",), ("gh-da-4",)),
                msg(
                    "No enemy can be attacked from any hex the monster could ever reach: no focus, "
                    "the monster stays."
                ),
            )
        )
        return _stay(
            ctx,
            steps,
            msg(
                "The monster cannot reach a hex from which to attack any enemy, so it has no focus "
                "and does not move."
            ),
        )
    tied, focus_steps = focus.choose(ctx, found)
    steps.extend(focus_steps)
    options: list[Option] = []
    explanations: list[Sentence] = []
    for cand in tied:
        p = plan(ctx, cand)
        steps.extend(p.steps)
        explanations.append(p.text)
        options.extend(p.options)
    options = merge_options(options)
    steps.extend(explain.closing_steps(ctx, len(options)))
    if len(tied) > 1:
        names = ", ".join(c.enemy.name for c in tied)
        explanations.insert(0, msg("The players choose the focus among %(names)s.", names=names))
    return MonsterResult(
        req.game, tuple(c.enemy.hex for c in tied), tuple(options), join(explanations), tuple(steps)
    )


def run(payload: Any) -> dict[str, Any]:
    """Validate, compute, return the JSON response."""
    return compute(parse(payload)).to_dict()
