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
from typing import TYPE_CHECKING, Annotated, Any, Literal, cast

from pydantic import ConfigDict, Field, model_validator

from checker.base import (
    Bool,
    CheckModel,
    CheckRequest,
    CheckResponse,
    FieldProblem,
    Game,
    Int,
    Step,
    Text,
    by_game,
    json_schema,
    parse_request,
    respond,
    shown,
)
from checker.message import msg

if TYPE_CHECKING:
    from pydantic.config import JsonDict

FigureType = Literal["character", "monster", "summon"]
MAX_FIGURES = 30
#: Every ruling this check may cite.
RULINGS = frozenset({"fh-nl-5", "fh-it-5", "fh-nl-6", "fh-it-6", "gh-da-2", "gh-da-5"})


# What each type of figure needs, in JSON Schema's own words (the validator below says it in
# messages): the document tells a client what the check accepts.
_RULES_BY_TYPE: JsonDict = {
    "allOf": [
        {
            "if": {"properties": {"type": {"const": "summon"}}, "required": ["type"]},
            "then": {
                "required": ["summoner"],
                "properties": {"summoner": {"type": "string"}, "second": {"type": "null"}},
            },
            "else": {
                "required": ["initiative"],
                "properties": {
                    "initiative": {"type": "integer"},
                    "summoner": {"type": "null"},
                    "summoned_this_round": {"const": False},
                },
            },
        },
        {
            "if": {"properties": {"type": {"const": "monster"}}, "required": ["type"]},
            "then": {"properties": {"second": {"type": "null"}}},
        },
    ]
}


class Figure(CheckModel):
    """A character, a monster group or a summon, with the initiative it acts on."""

    model_config = ConfigDict(extra="forbid", frozen=True, json_schema_extra=_RULES_BY_TYPE)
    name: Text
    type: FigureType
    initiative: Int | None = Field(
        default=None,
        ge=1,
        le=99,
        description=(
            "Leading card (characters) or monster ability card. Required for characters and "
            "monsters; ignored for summons."
        ),
    )
    second: Int | None = Field(
        default=None, ge=1, le=99, description="Characters only: the second card's initiative."
    )
    summoner: Text | None = Field(
        default=None, description="Summons only (required): a character's name."
    )
    summoned_this_round: Bool = Field(default=False, description="Only a summon may have true.")

    @model_validator(mode="after")
    def _fields_of_its_type(self) -> "Figure":
        kind = self.type
        if kind != "summon" and self.initiative is None:
            raise FieldProblem(("initiative",), f"is required for a {kind}")
        if self.second is not None and kind != "character":
            raise FieldProblem(("second",), f"is only for characters (this figure is a {kind})")
        if kind == "summon" and self.summoner is None:
            raise FieldProblem(("summoner",), "is required for a summon")
        if kind != "summon" and self.summoner is not None:
            raise FieldProblem(("summoner",), f"is only for summons (this figure is a {kind})")
        if self.summoned_this_round and kind != "summon":
            raise FieldProblem(
                ("summoned_this_round",), f"can only be true for a summon (this figure is a {kind})"
            )
        if kind == "summon" and self.initiative is not None:
            return self.model_copy(update={"initiative": None})  # a summon's own is ignored
        return self


class InitiativeRequest(CheckRequest):
    """The figures of one round."""

    figures: tuple[Figure, ...] = Field(
        min_length=1,
        max_length=MAX_FIGURES,
        description="Names must be unique; a summon's summoner must name a character here.",
    )

    @model_validator(mode="after")
    def _names_and_summoners(self) -> "InitiativeRequest":
        first_index: dict[str, int] = {}
        for i, fig in enumerate(self.figures):
            if fig.name in first_index:
                raise FieldProblem(
                    ("figures", i, "name"),
                    f"{shown(fig.name)} is already used by 'figures'[{first_index[fig.name]}]",
                )
            first_index[fig.name] = i
        # Looked up by a summoner, which may be None (then no figure has that name).
        kinds: dict[str | None, FigureType] = {f.name: f.type for f in self.figures}
        for i, fig in enumerate(self.figures):
            if fig.type == "summon" and kinds.get(fig.summoner) != "character":
                what = "no figure" if fig.summoner not in kinds else f"a {kinds[fig.summoner]}"
                raise FieldProblem(
                    ("figures", i, "summoner"),
                    f"must name a character in 'figures' ({shown(fig.summoner)} is {what})",
                )
        return self


NameGroups = list[Annotated[list[str], Field(min_length=2)]]


class InitiativeResponse(CheckResponse):
    order: list[str] = Field(
        description="Names in acting order; summons summoned this round are left out."
    )
    ties: NameGroups = Field(description="Names whose relative order the players choose.")
    unresolved: NameGroups = Field(
        description="Names whose relative order the archive holds no ruling for (listed in request order)."
    )


@dataclass(frozen=True)
class InitiativeResult:
    game: Game
    order: tuple[str, ...]
    ties: tuple[tuple[str, ...], ...]
    unresolved: tuple[tuple[str, ...], ...]
    steps: tuple[Step, ...]

    def to_dict(self) -> dict[str, Any]:
        return respond(
            InitiativeResponse,
            self.game,
            {
                "order": list(self.order),
                "ties": [list(t) for t in self.ties],
                "unresolved": [list(u) for u in self.unresolved],
            },
            self.steps,
        )


def parse(payload: Any) -> InitiativeRequest:
    """Validate the JSON request (CheckInputError with a precise message)."""
    return parse_request(InitiativeRequest, payload)


# --- computation -----------------------------------------------------------------------------


def names(figures: list[Figure] | tuple[Figure, ...]) -> str:
    return ", ".join(f.name for f in figures)


def order_characters(
    game: str, init: int, chars: list[Figure]
) -> tuple[list[Figure], list[tuple[str, ...]], list[Step]]:
    """Characters tied on leading initiative `init`: second cards, then the players choose."""
    rule = by_game(game, ("fh-nl-6", "fh-it-6"), ("gh-da-2",))
    missing = [c for c in chars if c.second is None]
    if missing:
        action = msg(
            "characters %(names)s tie on initiative %(initiative)s: the players choose their order",
            names=names(chars),
            initiative=init,
        )
        why = msg(
            "No second card given for %(names)s, so the tie cannot be broken by second cards; "
            "reported as the players' choice.",
            names=names(missing),
        )
        tied = [c.name for c in chars]
        return chars, [tuple(tied)], [Step(action, tied, rule, why)]
    # Every second card is given here (the characters missing one returned above).
    ranked = sorted(chars, key=lambda c: cast(int, c.second))
    ties = [
        tuple(c.name for c in grp)
        for _, grp in ((k, list(g)) for k, g in groupby(ranked, key=lambda c: c.second))
        if len(grp) > 1
    ]
    seconds = ", ".join(f"{c.name} {c.second}" for c in ranked)
    values = {"names": names(chars), "initiative": init, "seconds": seconds}
    action = msg(
        "characters %(names)s tie on initiative %(initiative)s: second cards %(seconds)s", **values
    )
    if ties:
        action = msg(
            "characters %(names)s tie on initiative %(initiative)s: second cards %(seconds)s; "
            "still tied: the players choose (%(still)s)",
            still="; ".join(" / ".join(t) for t in ties),
            **values,
        )
    return ranked, ties, [Step(action, [c.name for c in ranked], rule)]


def order_group(
    game: str, init: int, group: list[Figure]
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
            steps.append(
                Step(
                    msg(
                        "monsters %(names)s tie on initiative %(initiative)s: the group decides "
                        "their order",
                        names=names(monsters),
                        initiative=init,
                    ),
                    list(tied),
                    ("fh-nl-6", "fh-it-6"),
                )
            )
        else:
            unresolved.append(tied)
            steps.append(
                Step(
                    msg(
                        "monsters %(names)s tie on initiative %(initiative)s",
                        names=names(monsters),
                        initiative=init,
                    ),
                    list(tied),
                    (),
                    msg(
                        "The archive holds no Gloomhaven ruling on monsters tied with "
                        "monsters (gh-da-2 covers ties between players and between a "
                        "player and a monster); listed in request order, unresolved."
                    ),
                )
            )
    if chars and monsters:
        steps.append(
            Step(
                msg(
                    "%(characters)s tie(s) with monster(s) %(monsters)s on initiative "
                    "%(initiative)s: the character acts first",
                    characters=names(chars),
                    monsters=names(monsters),
                    initiative=init,
                ),
                [f.name for f in chars + monsters],
                by_game(game, ("fh-nl-6", "fh-it-6"), ("gh-da-2",)),
            )
        )
    return chars + monsters, ties, unresolved, steps


def place_summons(
    game: str, actors: list[Figure], summons: list[Figure], ties: list[tuple[str, ...]]
) -> tuple[list[str], list[tuple[str, ...]], list[Step]]:
    """Summons act immediately before their summoner; fresh ones do not act this round."""
    rule = by_game(game, ("fh-nl-5", "fh-it-5"), ("gh-da-5",))
    steps: list[Step] = []
    fresh = [s for s in summons if s.summoned_this_round]
    if fresh:
        steps.append(
            Step(
                msg(
                    "%(names)s summoned this round: left out of the order (a summon does not act "
                    "in the round it is summoned)",
                    names=names(fresh),
                ),
                [s.name for s in fresh],
                rule,
            )
        )
    acting = [s for s in summons if not s.summoned_this_round]
    order: list[str] = []
    unresolved: list[tuple[str, ...]] = []
    tied_names = {n for t in ties for n in t}
    for actor in actors:
        own = [s for s in acting if s.summoner == actor.name]
        if own:
            note = None
            if actor.name in tied_names:
                note = msg(
                    "%(summoner)s is in a tie: whichever order is chosen, %(summons)s stay(s) "
                    "immediately before %(summoner)s.",
                    summoner=actor.name,
                    summons=names(own),
                )
            steps.append(
                Step(
                    msg(
                        "%(summons)s act(s) immediately before summoner %(summoner)s",
                        summons=names(own),
                        summoner=actor.name,
                    ),
                    [s.name for s in own] + [actor.name],
                    rule,
                    note,
                )
            )
            if len(own) > 1:
                unresolved.append(tuple(s.name for s in own))
                steps.append(
                    Step(
                        msg(
                            "several summons of %(summoner)s: %(summons)s",
                            summoner=actor.name,
                            summons=names(own),
                        ),
                        [s.name for s in own],
                        (),
                        msg(
                            "The archive holds no ruling on the order among several "
                            "summons of one summoner; listed in request order, unresolved."
                        ),
                    )
                )
        order += [s.name for s in own] + [actor.name]
    return order, unresolved, steps


def compute(req: InitiativeRequest) -> InitiativeResult:
    """The acting order, the players' choices and what the archive leaves open."""
    game = req.game
    # A character or monster always has an initiative (the Figure validator requires it).
    actors = sorted(
        (f for f in req.figures if f.type != "summon"), key=lambda f: cast(int, f.initiative)
    )
    steps: list[Step] = []
    if game == "gloomhaven" and any(f.type == "character" for f in actors):
        steps.append(
            Step(
                msg("only the leading card sets a character's initiative"),
                {f.name: f.initiative for f in actors if f.type == "character"},
                ("gh-da-2",),
            )
        )
    steps.append(
        Step(
            msg("figures ordered by initiative, lowest first"),
            [f"{f.name} {f.initiative}" for f in actors],
            (),
            msg(
                "The archive holds no ruling stating that the lowest initiative acts "
                "first; it is the plain reading of the initiative order. 'initiative' is "
                "the leading card's value."
            ),
        )
    )
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
    return InitiativeResult(
        game, tuple(order), tuple(ties), tuple(unresolved + more_unresolved), tuple(steps)
    )


def run(payload: Any) -> dict[str, Any]:
    """Validate, compute, return the JSON response."""
    return compute(parse(payload)).to_dict()


# The check's models, as the registry and the OpenAPI document read them.
Request, Response = InitiativeRequest, InitiativeResponse
REQUEST_SCHEMA: dict[str, Any] = json_schema(InitiativeRequest)
RESPONSE_SCHEMA: dict[str, Any] = json_schema(InitiativeResponse, "serialization")

EXAMPLE: dict[str, Any] = {
    "game": "frosthaven",
    "figures": [
        {"name": "Drifter", "type": "character", "initiative": 20, "second": 45},
        {"name": "Banner Spear", "type": "character", "initiative": 20, "second": 30},
        {"name": "Algox Archers", "type": "monster", "initiative": 20},
        {"name": "Banner", "type": "summon", "summoner": "Banner Spear"},
        {"name": "Hound", "type": "summon", "summoner": "Drifter", "summoned_this_round": True},
    ],
}
