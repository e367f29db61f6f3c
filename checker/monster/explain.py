"""The explanation: the steps stating the rules the solve applies, with their citations.

Each step cites the records that state its rule; where no record in the archive states it,
the step cites nothing and its note says "published rule, not covered by a record in the
archive" (checker.base.Step).
"""

from __future__ import annotations

from checker.base import Step, by_game
from checker.message import Capitalized, Msg, Sentence, join, msg
from checker.monster.context import Context
from checker.monster.movement import FLYING_MAY_END_ON_OBSTACLE
from checker.monster.result import hex_json

_MODE_TEXT = {
    "walk": msg(
        "walks: it moves through allies but not through enemies or obstacles and cannot end in "
        "an occupied hex"
    ),
    "jump": msg(
        "jumps: it ignores figures and terrain until the last hex, which follows the normal rules"
    ),
    "flying": msg(
        "flies: it ignores figures and terrain for the whole move and must end in a hex without "
        "a figure"
    ),
    "teleport": msg(
        "teleports: it ignores walls, figures and terrain on the way, its movement is "
        "the number of hexes to its destination counted ignoring walls, and it must end "
        "where a figure may stand"
    ),
}


def movement_steps(ctx: Context) -> list[Step]:
    """How the monster moves: its mode, terrain costs, icy terrain."""
    req = ctx.req
    steps = [_mode_step(ctx)]
    notes = _terrain_notes(ctx)
    if notes:
        steps.append(
            Step(
                msg("terrain costs"),
                {"difficult": sorted(hex_json(h) for h in req.difficult)},
                (),
                msg(
                    "%(rules)s: the published rules, not covered by a record in the archive.",
                    rules=Capitalized(join(notes, "; ")),
                ),
            )
        )
    if req.icy:
        steps.append(_icy_step(ctx))
    return steps


def _mode_step(ctx: Context) -> Step:
    req, mode, fh = ctx.req, ctx.mover.mode, ctx.fh
    value = {"move": req.move, "mode": mode}
    if mode == "teleport":
        moves = (
            msg(
                "The monster %(moves)s (a flying teleporter may end on obstacles; traps do not "
                "count for it). Proximity is still counted around walls.",
                moves=_MODE_TEXT[mode],
            )
            if req.flying
            else msg(
                "The monster %(moves)s (the hex it ends in counts if it is a negative hex). "
                "Proximity is still counted around walls.",
                moves=_MODE_TEXT[mode],
            )
        )
        rules = (
            msg(
                "A teleport crosses walls and the distance is counted through them (fh-clar-04); "
                "the monster may end in the hex it stands in, and Teleport 0 is legal "
                "(fh-clar-05). The rest is the published teleport rule, not covered by a record "
                "in the archive."
            )
            if fh
            else msg("The published teleport rule, not covered by a record in the archive.")
        )
        return Step(
            msg("movement rules"),
            value,
            by_game(ctx.game, ("fh-clar-04", "fh-clar-05"), ()),
            join([moves, rules]),
        )
    note: Sentence = msg("The monster %(moves)s.", moves=_MODE_TEXT[mode])
    if fh:
        note = join(
            [
                note,
                msg(
                    "Frosthaven applies the same movement rules; the archive states them only in "
                    "the Gloomhaven record gh-da-3, so for Frosthaven this step is not covered by "
                    "a record in the archive."
                ),
            ]
        )
    return Step(msg("movement rules"), value, by_game(ctx.game, (), ("gh-da-3",)), note)


def _terrain_notes(ctx: Context) -> list[Sentence]:
    req, mode, fh = ctx.req, ctx.mover.mode, ctx.fh
    notes: list[Sentence] = []
    if req.difficult:
        if mode == "walk":
            notes.append(msg("difficult terrain costs 2 movement points to enter"))
        elif mode == "jump":
            notes.append(
                msg(
                    "a jump ignores difficult terrain; in Gloomhaven its last hex follows the "
                    "normal rules, so landing on difficult terrain costs 2"
                )
                if not fh
                else msg("a jump ignores difficult terrain, also on its last hex (Frosthaven)")
            )
        elif mode == "teleport":
            notes.append(msg("a teleport ignores difficult terrain"))
        else:
            notes.append(msg("flying ignores difficult terrain"))
    if req.obstacles and ctx.mover.flying:
        notes.append(
            msg("a flying monster may end on an obstacle (only a figure occupies a hex for it)")
            if FLYING_MAY_END_ON_OBSTACLE
            else msg("a flying monster may not end on an obstacle")
        )
    if req.obstacles and mode in ("jump", "teleport") and not ctx.mover.flying:
        notes.append(
            msg("a jumping monster may pass but not end on an obstacle")
            if mode == "jump"
            else msg("a teleporting monster may pass but not end on an obstacle")
        )
    return notes


_ICY_NOT_SLID = {
    "jump": msg(
        "The monster jumps: icy terrain is treated as normal terrain for it (a landing on ice is "
        "not slid; not supported yet), not covered by a record in the archive."
    ),
    "flying": msg(
        "The monster flies: icy terrain is treated as normal terrain for it (a landing on ice is "
        "not slid; not supported yet), not covered by a record in the archive."
    ),
    "teleport": msg(
        "The monster teleports: icy terrain is treated as normal terrain for it (a landing on "
        "ice is not slid; not supported yet), not covered by a record in the archive."
    ),
}


def _icy_step(ctx: Context) -> Step:
    req, mover = ctx.req, ctx.mover
    icy = sorted(hex_json(h) for h in req.icy)
    if mover.slides:
        return Step(
            msg("icy terrain"),
            icy,
            ("fh-clar-02", "fh-edge-05"),
            msg(
                "A walking monster entering an icy hex slides one more hex in the same "
                "direction, again while it lands on ice, at no movement cost, as part of its "
                "move (traps on the way count); the slide stops before a wall, an obstacle or "
                "any figure. The monster plans with the slide (fh-edge-05). Where the slide "
                "stops is the published icy-terrain rule, not covered by a record in the archive."
            ),
        )
    return Step(msg("icy terrain"), icy, (), _ICY_NOT_SLID[mover.mode])


def _negative_hexes_note(ctx: Context) -> Sentence:
    if not ctx.fh:
        return msg(
            "Traps and hazardous terrain are negative hexes unless the monster flies; difficult "
            "terrain is not. Gloomhaven negative-hex avoidance is not covered by a record in the "
            "archive; it follows the published rules, the same as Frosthaven's."
        )
    rule = msg(
        "Traps and hazardous terrain are negative hexes unless the monster flies; difficult "
        "and icy terrain are not."
    )
    if ctx.mover.mode in ("jump", "teleport"):
        return join([rule, msg("A jump or a teleport counts only the hex it ends in.")])
    return rule


def _sight_note(ctx: Context) -> Sentence:
    rule = (
        msg(
            "Range is counted around walls, through obstacles, figures and other terrain; line of "
            "sight is blocked only by walls: a clear line from any part of the attacker's hex to "
            "any part of the target's hex, decided exactly (no sampling, no tolerance). Closed "
            "doors are walls; enter them in 'walls'."
        )
        if ctx.fh
        else msg(
            "Range is counted around walls. Line of sight, the corner-to-corner rule: a line "
            "from a corner of the attacker's hex to a corner of the target's hex that touches no "
            "wall; a corner that touches a wall cannot be used, so a hex all of whose corners "
            "touch walls sees no other hex, and a line that touches a wall's end point is "
            "blocked (exact arithmetic). Published Gloomhaven rule, not covered by a record in "
            "the archive."
        )
    )
    if ctx.attack.melee:
        return join([rule, msg("A melee attack reaches adjacent hexes not separated by a wall.")])
    return rule


def attack_rule_steps(ctx: Context) -> list[Step]:
    """Negative hexes, range and line of sight, and the monster without an attack."""
    req, mover, melee = ctx.req, ctx.mover, ctx.attack.melee
    negatives = sorted(hex_json(h) for h in (req.traps | req.hazardous) if mover.negative(h))
    steps = [
        Step(
            msg("negative hexes"),
            negatives,
            by_game(ctx.game, ("fh-edge-02", "fh-edge-05"), ()),
            _negative_hexes_note(ctx),
        ),
        Step(
            msg("range and line of sight"),
            {"range": None if melee else req.range, "melee": melee},
            by_game(ctx.game, ("fh-nl-4", "fh-it-4"), ()),
            _sight_note(ctx),
        ),
    ]
    if not req.attack:
        rule: Sentence = msg(
            "A monster with movement but no attack finds focus and moves as "
            "though making a melee attack; it attacks nobody."
        )
        if not ctx.fh:
            more = msg(
                "gh-da-4 says it moves toward its focus; that it plans as for a melee attack is "
                "the published rule, not covered by a record in the archive."
            )
            rule = join([rule, more])
        steps.append(
            Step(
                msg("no attack"),
                {"moves_as": "melee"},
                by_game(ctx.game, ("fh-edge-08",), ("gh-da-4",)),
                rule,
            )
        )
    return steps


def _muddled_note(fh: bool) -> Msg:
    if fh:
        return msg(
            "Muddled gives disadvantage on every attack (published rule, not covered by a record "
            "in the archive); it is the same from every hex, so it changes neither the "
            "destination (a muddled ranged monster does not step away from an adjacent target) "
            "nor, as focus ignores disadvantage (fh-edge-01), the focus."
        )
    return msg(
        "Muddled gives disadvantage on every attack (published rule, not covered by a record in "
        "the archive); it is the same from every hex, so it changes neither the destination (a "
        "muddled ranged monster does not step away from an adjacent target) nor, as focus "
        "ignores disadvantage, the focus."
    )


def closing_steps(ctx: Context, n_options: int) -> list[Step]:
    """The players' choice among several options, and what muddled changes."""
    req, fh = ctx.req, ctx.fh
    steps = []
    if n_options > 1:
        choose: Sentence = msg(
            "These options are equally valid for the monster: the players choose."
        )
        if not fh:
            published = msg("(Published rule, not covered by a record in the archive.)")
            choose = join([choose, published])
        steps.append(
            Step(
                msg("players choose"),
                n_options,
                by_game(ctx.game, ("fh-edge-04", "fh-edge-06"), ()),
                choose,
            )
        )
    if req.muddled and req.attack:
        steps.append(
            Step(msg("muddled"), True, by_game(ctx.game, ("fh-edge-01",), ()), _muddled_note(fh))
        )
    return steps
