"""The explanation: the steps stating the rules the solve applies, with their citations.

Each step cites the records that state its rule; where no record in the archive states it,
the step cites nothing and its note says "published rule, not covered by a record in the
archive" (checker.base.Step).
"""

from __future__ import annotations

from checker.base import Step, by_game
from checker.monster.context import NO_RECORD, Context
from checker.monster.movement import FLYING_MAY_END_ON_OBSTACLE
from checker.monster.result import hex_json

_MODE_TEXT = {
    "walk": "walks: it moves through allies but not through enemies or obstacles and cannot end in an occupied hex",
    "jump": "jumps: it ignores figures and terrain until the last hex, which follows the normal rules",
    "flying": "flies: it ignores figures and terrain for the whole move and must end in a hex without a figure",
    "teleport": "teleports: it ignores walls, figures and terrain on the way, its movement is "
    "the number of hexes to its destination counted ignoring walls, and it must end "
    "where a figure may stand",
}


def movement_steps(ctx: Context) -> list[Step]:
    """How the monster moves: its mode, terrain costs, icy terrain."""
    req = ctx.req
    steps = [_mode_step(ctx)]
    notes = _terrain_notes(ctx)
    if notes:
        steps.append(
            Step(
                "terrain costs",
                {"difficult": sorted(hex_json(h) for h in req.difficult)},
                (),
                "; ".join(notes).capitalize() + f": the published rules, {NO_RECORD}.",
            )
        )
    if req.icy:
        steps.append(_icy_step(ctx))
    return steps


def _mode_step(ctx: Context) -> Step:
    req, mode, fh = ctx.req, ctx.mover.mode, ctx.fh
    value = {"move": req.move, "mode": mode}
    if mode == "teleport":
        return Step(
            "movement rules",
            value,
            by_game(ctx.game, ("fh-clar-04", "fh-clar-05"), ()),
            f"The monster {_MODE_TEXT[mode]}"
            + (
                " (a flying teleporter may end on obstacles; traps do not count for it)"
                if req.flying
                else " (the hex it ends in counts if it is a negative hex)"
            )
            + ". Proximity is still counted around walls. "
            + (
                "A teleport crosses walls and the distance is counted through them (fh-clar-04);"
                " the monster may end in the hex it stands in, and Teleport 0 is legal "
                f"(fh-clar-05). The rest is the published teleport rule, {NO_RECORD}."
                if fh
                else f"The published teleport rule, {NO_RECORD}."
            ),
        )
    return Step(
        "movement rules",
        value,
        by_game(ctx.game, (), ("gh-da-3",)),
        f"The monster {_MODE_TEXT[mode]}."
        + (
            f" Frosthaven applies the same movement rules; the archive states them "
            f"only in the Gloomhaven record gh-da-3, so for Frosthaven this step "
            f"is {NO_RECORD}."
            if fh
            else ""
        ),
    )


def _terrain_notes(ctx: Context) -> list[str]:
    req, mode, fh = ctx.req, ctx.mover.mode, ctx.fh
    notes = []
    if req.difficult:
        if mode == "walk":
            notes.append("difficult terrain costs 2 movement points to enter")
        elif mode == "jump":
            notes.append(
                "a jump ignores difficult terrain; in Gloomhaven its last hex follows the normal "
                "rules, so landing on difficult terrain costs 2"
                if not fh
                else "a jump ignores difficult terrain, also on its last hex (Frosthaven)"
            )
        elif mode == "teleport":
            notes.append("a teleport ignores difficult terrain")
        else:
            notes.append("flying ignores difficult terrain")
    if req.obstacles and ctx.mover.flying:
        notes.append(
            "a flying monster may end on an obstacle (only a figure occupies a hex for it)"
            if FLYING_MAY_END_ON_OBSTACLE
            else "a flying monster may not end on an obstacle"
        )
    if req.obstacles and mode in ("jump", "teleport") and not ctx.mover.flying:
        notes.append(
            f"a {'jumping' if mode == 'jump' else 'teleporting'} monster may pass but not end on an obstacle"
        )
    return notes


def _icy_step(ctx: Context) -> Step:
    req, mover = ctx.req, ctx.mover
    icy = sorted(hex_json(h) for h in req.icy)
    if mover.slides:
        return Step(
            "icy terrain",
            icy,
            ("fh-clar-02", "fh-edge-05"),
            "A walking monster entering an icy hex slides one more hex in the same "
            "direction, again while it lands on ice, at no movement cost, as part of its "
            "move (traps on the way count); the slide stops before a wall, an obstacle or "
            "any figure. The monster plans with the slide (fh-edge-05). Where the slide "
            f"stops is the published icy-terrain rule, {NO_RECORD}.",
        )
    verb = {"jump": "jumps", "flying": "flies", "teleport": "teleports"}[mover.mode]
    return Step(
        "icy terrain",
        icy,
        (),
        f"The monster {verb}: icy terrain is treated as normal terrain for it (a landing on "
        f"ice is not slid; not supported yet), {NO_RECORD}.",
    )


def attack_rule_steps(ctx: Context) -> list[Step]:
    """Negative hexes, range and line of sight, and the monster without an attack."""
    req, mover, fh, melee = ctx.req, ctx.mover, ctx.fh, ctx.attack.melee
    negatives = sorted(hex_json(h) for h in (req.traps | req.hazardous) if mover.negative(h))
    steps = [
        Step(
            "negative hexes",
            negatives,
            by_game(ctx.game, ("fh-edge-02", "fh-edge-05"), ()),
            (
                "Traps and hazardous terrain are negative hexes unless the monster flies; difficult "
                "and icy terrain are not."
                + (
                    " A jump or a teleport counts only the hex it ends in."
                    if mover.mode in ("jump", "teleport")
                    else ""
                )
                if fh
                else "Traps and hazardous terrain are negative hexes unless the monster flies; difficult "
                f"terrain is not. Gloomhaven negative-hex avoidance is {NO_RECORD}; it follows the "
                "published rules, the same as Frosthaven's."
            ),
        )
    ]
    steps.append(
        Step(
            "range and line of sight",
            {"range": None if melee else req.range, "melee": melee},
            by_game(ctx.game, ("fh-nl-4", "fh-it-4"), ()),
            (
                "Range is counted around walls, through obstacles, figures and other terrain; line of "
                "sight is blocked only by walls: a clear line from any part of the attacker's hex to "
                "any part of the target's hex, decided exactly (no sampling, no tolerance). Closed "
                "doors are walls; enter them in 'walls'."
                if fh
                else "Range is counted around walls. Line of sight, the corner-to-corner rule: a line "
                "from a corner of the attacker's hex to a corner of the target's hex that touches no "
                "wall; a corner that touches a wall cannot be used, so a hex all of whose corners "
                "touch walls sees no other hex, and a line that touches a wall's end point is "
                f"blocked (exact arithmetic). Published Gloomhaven rule, {NO_RECORD}."
            )
            + (" A melee attack reaches adjacent hexes not separated by a wall." if melee else ""),
        )
    )
    if not req.attack:
        steps.append(
            Step(
                "no attack",
                {"moves_as": "melee"},
                by_game(ctx.game, ("fh-edge-08",), ("gh-da-4",)),
                "A monster with movement but no attack finds focus and moves as "
                "though making a melee attack; it attacks nobody."
                + (
                    ""
                    if fh
                    else " gh-da-4 says it moves toward its focus; that it "
                    f"plans as for a melee attack is the published rule, {NO_RECORD}."
                ),
            )
        )
    return steps


def closing_steps(ctx: Context, n_options: int) -> list[Step]:
    """The players' choice among several options, and what muddled changes."""
    req, fh = ctx.req, ctx.fh
    steps = []
    if n_options > 1:
        steps.append(
            Step(
                "players choose",
                n_options,
                by_game(ctx.game, ("fh-edge-04", "fh-edge-06"), ()),
                "These options are equally valid for the monster: the players choose."
                + ("" if fh else f" (Published rule, {NO_RECORD}.)"),
            )
        )
    if req.muddled and req.attack:
        steps.append(
            Step(
                "muddled",
                True,
                by_game(ctx.game, ("fh-edge-01",), ()),
                "Muddled gives disadvantage on every attack (published rule, "
                f"{NO_RECORD}); it is the same from every hex, so it changes neither "
                "the destination (a muddled ranged monster does not step away from "
                "an adjacent target) nor, as focus ignores disadvantage"
                + (" (fh-edge-01)" if fh else "")
                + ", the focus.",
            )
        )
    return steps
