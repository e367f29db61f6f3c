"""Initiative check: the acting order of characters, monster groups and summons in a round.

Rulings applied:
  - characters tied on the leading card compare their second cards, then the players / group
    choose; a character tied with a monster (group) acts first: fh-nl-6 / fh-it-6 (Frosthaven),
    gh-da-2 (Gloomhaven, which also says only the leading card sets the initiative);
  - Frosthaven "other ties" (monster with monster) are decided by the group: fh-nl-6 / fh-it-6;
  - summons act immediately before their summoner and not in the round they were summoned:
    fh-nl-5 / fh-it-5, gh-da-5. Summons have no initiative of their own: theirs is ignored.

Where the archive is silent (``rulings: []`` and a note; reported in ``unresolved``, not in
``ties``, because no rule says the players choose):
  - that the lowest initiative acts first (the plain reading of the initiative track);
  - Gloomhaven monster groups tied with each other;
  - the order of several summons of the same summoner.
A character tie where a second card is missing is reported as a players' choice (the rule says
compare second cards, then the players choose; without the cards the comparison is not made).
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import groupby
from typing import Any, Literal

from checker.base import (GAME_SCHEMA, CheckInputError, Step, by_game, check_bool, check_int,
                          check_list, check_object, check_str, open_request,
                          reject_unknown_fields, response, response_schema, shown)

FigureType = Literal["character", "monster", "summon"]
TYPES: tuple[str, ...] = ("character", "monster", "summon")
MAX_FIGURES = 30
FIELDS = {"game", "figures"}
FIGURE_FIELDS = {"name", "type", "initiative", "second", "summoner", "summoned_this_round"}


@dataclass(frozen=True)
class Figure:
    name: str
    type: FigureType
    initiative: int | None = None  # None for summons (ignored if given)
    second: int | None = None  # characters only
    summoner: str | None = None  # summons only
    summoned_this_round: bool = False


@dataclass(frozen=True)
class InitiativeRequest:
    game: str
    figures: tuple[Figure, ...]


@dataclass(frozen=True)
class InitiativeResult:
    game: str
    order: tuple[str, ...]
    ties: tuple[tuple[str, ...], ...]
    unresolved: tuple[tuple[str, ...], ...]
    steps: tuple[Step, ...]

    def to_dict(self) -> dict[str, Any]:
        return response(self.game, {"order": list(self.order),
                                    "ties": [list(t) for t in self.ties],
                                    "unresolved": [list(u) for u in self.unresolved]},
                        self.steps)


# --- parsing ---------------------------------------------------------------------------------

def parse_figure(raw: Any, index: int) -> Figure:
    """One entry of 'figures' (cross-figure checks are in `parse`)."""
    label = f"'figures'[{index}]"
    fig = check_object(raw, label)
    reject_unknown_fields(fig, FIGURE_FIELDS, label)
    if "name" not in fig:
        raise CheckInputError(f"{label}.name is required")
    name = check_str(fig["name"], f"{label}.name")
    kind = fig.get("type")
    if kind not in TYPES:
        raise CheckInputError(f"{label}.type must be one of: {', '.join(TYPES)} "
                              f"(got {shown(kind)})")
    initiative = fig.get("initiative")
    if kind != "summon" and initiative is None:
        raise CheckInputError(f"{label}.initiative is required for a {kind}")
    if initiative is not None:
        initiative = check_int(initiative, f"{label}.initiative", minimum=1, maximum=99)
    second = fig.get("second")
    if second is not None:
        if kind != "character":
            raise CheckInputError(f"{label}.second is only for characters "
                                  f"(this figure is a {kind})")
        second = check_int(second, f"{label}.second", minimum=1, maximum=99)
    summoner = fig.get("summoner")
    if kind == "summon":
        if summoner is None:
            raise CheckInputError(f"{label}.summoner is required for a summon")
        summoner = check_str(summoner, f"{label}.summoner")
    elif summoner is not None:
        raise CheckInputError(f"{label}.summoner is only for summons (this figure is a {kind})")
    fresh = check_bool(fig.get("summoned_this_round", False), f"{label}.summoned_this_round")
    if fresh and kind != "summon":
        raise CheckInputError(f"{label}.summoned_this_round can only be true for a summon "
                              f"(this figure is a {kind})")
    return Figure(name, kind, None if kind == "summon" else initiative, second, summoner, fresh)


def parse(payload: Any) -> InitiativeRequest:
    """Validate the JSON request (CheckInputError with a precise message)."""
    payload, game = open_request(payload, FIELDS)
    if "figures" not in payload:
        raise CheckInputError("'figures' is required")
    raw = check_list(payload["figures"], "'figures'", min_items=1, max_items=MAX_FIGURES)
    figures = tuple(parse_figure(f, i) for i, f in enumerate(raw))
    first_index: dict[str, int] = {}
    for i, fig in enumerate(figures):
        if fig.name in first_index:
            raise CheckInputError(f"'figures'[{i}].name {shown(fig.name)} is already used by "
                                  f"'figures'[{first_index[fig.name]}]")
        first_index[fig.name] = i
    kinds = {f.name: f.type for f in figures}
    for i, fig in enumerate(figures):
        if fig.type == "summon" and kinds.get(fig.summoner) != "character":
            what = "no figure" if fig.summoner not in kinds else f"a {kinds[fig.summoner]}"
            raise CheckInputError(f"'figures'[{i}].summoner must name a character in 'figures' "
                                  f"({shown(fig.summoner)} is {what})")
    return InitiativeRequest(game, figures)


# --- computation -----------------------------------------------------------------------------

def names(figures: list[Figure] | tuple[Figure, ...]) -> str:
    return ", ".join(f.name for f in figures)


def order_characters(game: str, init: int, chars: list[Figure]
                     ) -> tuple[list[Figure], list[tuple[str, ...]], list[Step]]:
    """Characters tied on leading initiative `init`: second cards, then the players choose."""
    rule = by_game(game, ("fh-nl-6", "fh-it-6"), ("gh-da-2",))
    missing = [c for c in chars if c.second is None]
    if missing:
        return chars, [tuple(c.name for c in chars)], [Step(
            f"characters {names(chars)} tie on initiative {init}: the players choose their order",
            [c.name for c in chars], rule,
            f"No second card given for {names(missing)}, so the tie cannot be broken by second "
            f"cards; reported as the players' choice.")]
    ranked = sorted(chars, key=lambda c: c.second)
    ties = [tuple(c.name for c in grp) for _, grp in
            ((k, list(g)) for k, g in groupby(ranked, key=lambda c: c.second)) if len(grp) > 1]
    seconds = ", ".join(f"{c.name} {c.second}" for c in ranked)
    action = f"characters {names(chars)} tie on initiative {init}: second cards {seconds}"
    if ties:
        still = "; ".join(" / ".join(t) for t in ties)
        action += f"; still tied: the players choose ({still})"
    return ranked, ties, [Step(action, [c.name for c in ranked], rule)]


def order_group(game: str, init: int, group: list[Figure]
                ) -> tuple[list[Figure], list[tuple[str, ...]], list[tuple[str, ...]], list[Step]]:
    """The figures (no summons) sharing leading initiative `init`."""
    chars = [f for f in group if f.type == "character"]
    monsters = [f for f in group if f.type == "monster"]
    steps: list[Step] = []
    ties: list[tuple[str, ...]] = []
    unresolved: list[tuple[str, ...]] = []
    if len(chars) > 1:
        chars, ties, more = order_characters(game, init, chars)
        steps += more
    if len(monsters) > 1:
        tied = tuple(m.name for m in monsters)
        if game == "frosthaven":
            ties.append(tied)
            steps.append(Step(f"monsters {names(monsters)} tie on initiative {init}: the group "
                              f"decides their order", list(tied), ("fh-nl-6", "fh-it-6")))
        else:
            unresolved.append(tied)
            steps.append(Step(f"monsters {names(monsters)} tie on initiative {init}", list(tied),
                              (), "The archive holds no Gloomhaven ruling on monsters tied with "
                              "monsters (gh-da-2 covers ties between players and between a "
                              "player and a monster); listed in request order, unresolved."))
    if chars and monsters:
        steps.append(Step(f"{names(chars)} tie(s) with monster(s) {names(monsters)} on "
                          f"initiative {init}: the character acts first",
                          [f.name for f in chars + monsters],
                          by_game(game, ("fh-nl-6", "fh-it-6"), ("gh-da-2",))))
    return chars + monsters, ties, unresolved, steps


def place_summons(game: str, actors: list[Figure], summons: list[Figure],
                  ties: list[tuple[str, ...]]
                  ) -> tuple[list[str], list[tuple[str, ...]], list[Step]]:
    """Summons act immediately before their summoner; fresh ones do not act this round."""
    rule = by_game(game, ("fh-nl-5", "fh-it-5"), ("gh-da-5",))
    steps: list[Step] = []
    fresh = [s for s in summons if s.summoned_this_round]
    if fresh:
        steps.append(Step(f"{names(fresh)} summoned this round: left out of the order (a summon "
                          f"does not act in the round it is summoned)", [s.name for s in fresh],
                          rule))
    acting = [s for s in summons if not s.summoned_this_round]
    order: list[str] = []
    unresolved: list[tuple[str, ...]] = []
    tied_names = {n for t in ties for n in t}
    for actor in actors:
        own = [s for s in acting if s.summoner == actor.name]
        if own:
            note = None
            if actor.name in tied_names:
                note = (f"{actor.name} is in a tie: whichever order is chosen, {names(own)} "
                        f"stay(s) immediately before {actor.name}.")
            steps.append(Step(f"{names(own)} act(s) immediately before summoner {actor.name}",
                              [s.name for s in own] + [actor.name], rule, note))
            if len(own) > 1:
                unresolved.append(tuple(s.name for s in own))
                steps.append(Step(f"several summons of {actor.name}: {names(own)}",
                                  [s.name for s in own], (),
                                  "The archive holds no ruling on the order among several "
                                  "summons of one summoner; listed in request order, unresolved."))
        order += [s.name for s in own] + [actor.name]
    return order, unresolved, steps


def compute(req: InitiativeRequest) -> InitiativeResult:
    """The acting order, the players' choices and what the archive leaves open."""
    game = req.game
    actors = sorted((f for f in req.figures if f.type != "summon"), key=lambda f: f.initiative)
    steps: list[Step] = []
    if game == "gloomhaven" and any(f.type == "character" for f in actors):
        steps.append(Step("only the leading card sets a character's initiative",
                          {f.name: f.initiative for f in actors if f.type == "character"},
                          ("gh-da-2",)))
    steps.append(Step("figures ordered by initiative, lowest first",
                      [f"{f.name} {f.initiative}" for f in actors], (),
                      "The archive holds no ruling stating that the lowest initiative acts "
                      "first; it is the plain reading of the initiative order. 'initiative' is "
                      "the leading card's value."))
    ordered: list[Figure] = []
    ties: list[tuple[str, ...]] = []
    unresolved: list[tuple[str, ...]] = []
    for init, grp in groupby(actors, key=lambda f: f.initiative):
        group = list(grp)
        if len(group) == 1:
            ordered += group
            continue
        figs, t, u, more = order_group(game, init, group)
        ordered += figs
        ties += t
        unresolved += u
        steps += more
    summons = [f for f in req.figures if f.type == "summon"]
    order, more_unresolved, more = place_summons(game, ordered, summons, ties)
    steps += more
    return InitiativeResult(game, tuple(order), tuple(ties), tuple(unresolved + more_unresolved),
                            tuple(steps))


def run(payload: Any) -> dict[str, Any]:
    """Validate, compute, return the JSON response."""
    return compute(parse(payload)).to_dict()


_NAME_LISTS = {"type": "array", "items": {"type": "array", "items": {"type": "string"},
                                          "minItems": 2}}

REQUEST_SCHEMA: dict[str, Any] = {
    "title": "InitiativeRequest",
    "type": "object",
    "required": ["game", "figures"],
    "properties": {
        "game": GAME_SCHEMA,
        "figures": {
            "type": "array", "minItems": 1, "maxItems": MAX_FIGURES,
            "description": "Names must be unique.",
            "items": {
                "type": "object",
                "required": ["name", "type"],
                "properties": {
                    "name": {"type": "string", "minLength": 1},
                    "type": {"type": "string", "enum": list(TYPES)},
                    "initiative": {"type": ["integer", "null"], "minimum": 1, "maximum": 99,
                                   "description": "Leading card (characters) or monster "
                                                  "ability card. Required for characters and "
                                                  "monsters; ignored for summons."},
                    "second": {"type": ["integer", "null"], "minimum": 1, "maximum": 99,
                               "description": "Characters only: the second card's initiative."},
                    "summoner": {"type": "string", "minLength": 1,
                                 "description": "Summons only (required): a character's name."},
                    "summoned_this_round": {"type": "boolean", "default": False,
                                            "description": "Only a summon may have true."},
                },
                "additionalProperties": False,
            },
        },
    },
    "additionalProperties": False,
}

RESPONSE_SCHEMA: dict[str, Any] = response_schema("InitiativeResponse", {
    "order": {"type": "array", "items": {"type": "string"},
              "description": "Names in acting order; summons summoned this round are left out."},
    "ties": {**_NAME_LISTS, "description": "Names whose relative order the players choose."},
    "unresolved": {**_NAME_LISTS, "description": "Names whose relative order the archive holds "
                                                 "no ruling for (listed in request order)."},
}, ["order", "ties", "unresolved"])

EXAMPLE: dict[str, Any] = {"game": "frosthaven", "figures": [
    {"name": "Drifter", "type": "character", "initiative": 20, "second": 45},
    {"name": "Banner Spear", "type": "character", "initiative": 20, "second": 30},
    {"name": "Algox Archers", "type": "monster", "initiative": 20},
    {"name": "Banner", "type": "summon", "summoner": "Banner Spear"},
    {"name": "Hound", "type": "summon", "summoner": "Drifter", "summoned_this_round": True},
]}
