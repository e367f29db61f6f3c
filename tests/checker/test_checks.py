"""Tests of the rules checker: the rulings' own examples, boundaries, exact error messages,
cited ids, schemas, and hypothesis properties."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checker import CHECKS, UnknownCheck, advantage, damage, exhaustion, initiative, run_check
from checker.base import CheckInputError
from tests.conftest import IDS_FILE

MODULES = {
    "damage": damage,
    "initiative": initiative,
    "advantage": advantage,
    "exhaustion": exhaustion,
}


def dmg(**kw: Any) -> dict[str, Any]:
    return damage.run({"game": "frosthaven", **kw})


def cited(result: dict[str, Any]) -> list[str]:
    return [r for s in result["steps"] for r in s["rulings"]]


# --- damage: the rulings' examples and boundaries ----------------------------------------------


@pytest.mark.parametrize(
    "request_, expected",
    [
        # fh-clar-10: Shield 2 and Ward against 6 -> 4 -> 2
        ({"attack": 6, "shield": 2, "ward": True}, 2),
        # fh-clar-15: Attack 3 with a rolling +1 and a x2 -> (3+1)x2 = 8 at the attacker's choice
        ({"attack": 3, "modifiers": ["+1 rolling", "x2"]}, 8),
        ({"attack": 3, "modifiers": ["X2", "+1"]}, 8),
        # fh-clar-15: a Null anywhere makes the damage 0
        ({"attack": 5, "modifiers": ["+2 rolling", "null"]}, 0),
        ({"attack": 5, "modifiers": ["NULL rolling", "+2"]}, 0),
        ({"attack": 3, "modifiers": []}, 3),
        ({"attack": 3, "modifiers": ["-1"]}, 2),
        ({"attack": 1, "modifiers": ["-2"]}, 0),  # never negative
        ({"attack": 3, "shield": 5}, 0),
        ({"attack": 3, "brittle": True}, 6),
        ({"attack": 5, "ward": True}, 2),  # odd halving rounded down (noted, no ruling)
        ({"attack": 1, "ward": True}, 0),
        ({"attack": 5, "ward": True, "brittle": True}, 5),  # cancel out (noted, no ruling)
        ({"attack": 9, "hp": 4}, 4),
        ({"attack": 4, "hp": 4}, 4),  # hp exactly reached
        ({"attack": 4, "negate": True}, 0),
    ],
)
def test_damage_values(request_: dict[str, Any], expected: int) -> None:
    assert dmg(**request_)["damage"] == expected


def test_fh_clar_15_cites_the_x2_ruling() -> None:
    result = dmg(attack=3, modifiers=["+1 rolling", "x2"])
    assert "fh-clar-15" in result["rulings"]
    assert "(3+1)x2 = 8" in result["steps"][1]["action"]


def test_x2_goes_where_it_helps_even_with_a_negative_card() -> None:
    # x2 may be inserted at any point: (2+2)x2-1 = 7 beats (2+2-1)x2 = 6
    assert dmg(attack=2, modifiers=["+2 rolling", "-1", "x2"])["damage"] == 7


def test_shield_2_ward_6_example() -> None:
    result = dmg(attack=6, shield=2, ward=True)
    values = [s["value"] for s in result["steps"]]
    assert 4 in values and result["damage"] == 2 and result["ward_removed"] is True
    assert result["rulings"][:3] == ["fh-nl-3", "fh-it-3", "fh-clar-10"]


@pytest.mark.parametrize("cond", ["ward", "brittle"])
def test_no_damage_left_keeps_ward_and_brittle(cond: str) -> None:
    # fh-clar-11: Shield brings the damage to 0 before their step: they stay
    result = dmg(attack=2, shield=2, **{cond: True})
    assert result["damage"] == 0
    assert result[f"{cond}_removed"] is False
    assert "fh-clar-11" in result["rulings"]


def test_ward_removed_even_when_halving_leaves_0() -> None:
    result = dmg(attack=1, ward=True)
    assert result["damage"] == 0 and result["ward_removed"] is True


def test_null_keeps_ward() -> None:
    result = dmg(attack=5, modifiers=["null"], ward=True)
    assert result["ward_removed"] is False and result["damage"] == 0


def test_negation_still_spends_ward_and_brittle() -> None:
    # fh-clar-12
    result = dmg(attack=6, ward=True, negate=True)
    assert result == {
        **result,
        "damage": 0,
        "would_suffer": 0,
        "ward_removed": True,
        "negated": True,
    }
    assert result["rulings"].index("fh-clar-11") < result["rulings"].index("fh-clar-12")
    result = dmg(attack=3, brittle=True, negate=True)
    assert result["brittle_removed"] is True and result["negated"] is True


def test_negating_nothing_loses_no_card() -> None:
    result = dmg(attack=2, shield=3, negate=True)
    assert result["negated"] is False and result["damage"] == 0


def test_suffered_versus_would_suffer() -> None:
    # fh-clar-13: suffered is capped by hit points, would suffer is not
    result = dmg(attack=3, modifiers=["+1 rolling", "x2"], hp=2)
    assert (result["damage"], result["would_suffer"]) == (2, 8)
    assert "fh-clar-13" in result["rulings"]


def test_odd_ward_halving_is_a_noted_step_without_ruling() -> None:
    steps = dmg(attack=5, ward=True)["steps"]
    rounding = [s for s in steps if "round" in s["action"]]
    assert len(rounding) == 1 and rounding[0]["rulings"] == [] and rounding[0]["note"]


def test_gloomhaven_null_cites_gloomhaven_only() -> None:
    result = damage.run(
        {"game": "gloomhaven", "attack": 4, "modifiers": ["+1 rolling", "null"], "shield": 1}
    )
    assert result["damage"] == 0
    assert result["rulings"] == ["gh-example-null"]


def test_gloomhaven_shield_has_no_ruling() -> None:
    result = damage.run({"game": "gloomhaven", "attack": 4, "shield": 1})
    assert result["damage"] == 3
    shield = [s for s in result["steps"] if s["action"].startswith("Shield")][0]
    assert shield["rulings"] == [] and "no Gloomhaven ruling" in shield["note"]


def test_damage_response_fields() -> None:
    result = damage.run(damage.EXAMPLE)
    assert list(result) == [
        "game",
        "damage",
        "would_suffer",
        "ward_removed",
        "brittle_removed",
        "negated",
        "steps",
        "rulings",
    ]


BAD_MOD = "must be '+N', '-N', 'x2' or 'null', optionally followed by ' rolling'"


@pytest.mark.parametrize(
    "payload, message",
    [
        (
            {"game": "frosthaven", "attack": 3, "modifiers": ["+1", "x3"]},
            f"'modifiers'[1] {BAD_MOD} (got 'x3')",
        ),
        (
            {"game": "frosthaven", "attack": 3, "modifiers": ["+1  rolling"]},
            f"'modifiers'[0] {BAD_MOD} (got '+1  rolling')",
        ),
        (
            {"game": "frosthaven", "attack": 3, "modifiers": ["1"]},
            f"'modifiers'[0] {BAD_MOD} (got '1')",
        ),
        (
            {"game": "frosthaven", "attack": 3, "modifiers": [" +1"]},
            f"'modifiers'[0] {BAD_MOD} (got ' +1')",
        ),
        (
            {"game": "frosthaven", "attack": 3, "modifiers": ["+100"]},
            "'modifiers'[0]: N in '+N' / '-N' must be from 0 to 99 (got '+100')",
        ),
        (
            {"game": "frosthaven", "attack": 3, "modifiers": [2]},
            "'modifiers'[0] must be a string (got 2)",
        ),
        (
            {"game": "frosthaven", "attack": 3, "modifiers": "+1"},
            "'modifiers' must be a list (got '+1')",
        ),
        (
            {"game": "frosthaven", "attack": 3, "modifiers": ["+0"] * 31},
            "'modifiers' must hold at most 30 item(s) (got 31)",
        ),
        (
            {"game": "gloomhaven", "attack": 3, "ward": True},
            "'ward' does not exist in Gloomhaven (it is a Frosthaven condition): send false or leave it out",
        ),
        (
            {"game": "gloomhaven", "attack": 3, "brittle": True},
            "'brittle' does not exist in Gloomhaven (it is a Frosthaven condition): send false or leave it out",
        ),
        ({"game": "frosthaven"}, "'attack' is required"),
        ({"game": "frosthaven", "attack": -1}, "'attack' must be at least 0 (got -1)"),
        ({"game": "frosthaven", "attack": True}, "'attack' must be an integer (got true)"),
        ({"game": "frosthaven", "attack": "3"}, "'attack' must be an integer (got '3')"),
        ({"game": "frosthaven", "attack": 3, "shield": -2}, "'shield' must be at least 0 (got -2)"),
        ({"game": "frosthaven", "attack": 3, "hp": 0}, "'hp' must be at least 1 (got 0)"),
        ({"game": "frosthaven", "attack": 3, "ward": 1}, "'ward' must be true or false (got 1)"),
        (
            {"game": "frosthaven", "attack": 3, "negate": "yes"},
            "'negate' must be true or false (got 'yes')",
        ),
        ({"game": "frosthaven", "attack": 3, "pierce": 1}, "unknown field(s) in request: pierce"),
        ({"game": "catan", "attack": 3}, "'game' must be one of: frosthaven, gloomhaven"),
        ([], "the request body must be a JSON object"),
    ],
)
def test_damage_errors(payload: Any, message: str) -> None:
    with pytest.raises(CheckInputError) as err:
        damage.run(payload)
    assert str(err.value) == message


# --- initiative --------------------------------------------------------------------------------


def ini(figures: list[dict[str, Any]], game: str = "frosthaven") -> dict[str, Any]:
    return initiative.run({"game": game, "figures": figures})


def char(name: str, init: int, second: int | None = None) -> dict[str, Any]:
    fig: dict[str, Any] = {"name": name, "type": "character", "initiative": init}
    if second is not None:
        fig["second"] = second
    return fig


def mon(name: str, init: int) -> dict[str, Any]:
    return {"name": name, "type": "monster", "initiative": init}


def summon(name: str, summoner: str, fresh: bool = False) -> dict[str, Any]:
    return {"name": name, "type": "summon", "summoner": summoner, "summoned_this_round": fresh}


def test_lowest_initiative_first() -> None:
    result = ini([mon("M", 50), char("A", 10), char("B", 70)])
    assert result["order"] == ["A", "M", "B"] and result["ties"] == []


@pytest.mark.parametrize(
    "game, rulings", [("frosthaven", ["fh-nl-6", "fh-it-6"]), ("gloomhaven", ["gh-da-2"])]
)
def test_character_tied_with_monster_acts_first(game: str, rulings: list[str]) -> None:
    result = ini([mon("M", 20), char("A", 20)], game)
    assert result["order"] == ["A", "M"] and result["ties"] == []
    assert set(rulings) <= set(result["rulings"])


@pytest.mark.parametrize("game", ["frosthaven", "gloomhaven"])
def test_characters_tied_compare_second_cards(game: str) -> None:
    result = ini([char("A", 20, 60), char("B", 20, 30), char("C", 20, 45)], game)
    assert result["order"] == ["B", "C", "A"] and result["ties"] == []


@pytest.mark.parametrize("game", ["frosthaven", "gloomhaven"])
def test_three_characters_still_tied_players_choose(game: str) -> None:
    result = ini([char("A", 20, 40), char("B", 20, 40), char("C", 20, 40), mon("M", 20)], game)
    assert result["order"] == ["A", "B", "C", "M"]
    assert result["ties"] == [["A", "B", "C"]]


def test_partial_second_card_tie() -> None:
    result = ini([char("A", 20, 50), char("B", 20, 40), char("C", 20, 50)])
    assert result["order"] == ["B", "A", "C"] and result["ties"] == [["A", "C"]]


def test_missing_second_card_is_players_choice() -> None:
    result = ini([char("A", 20, 50), char("B", 20)])
    assert result["ties"] == [["A", "B"]]
    step = [s for s in result["steps"] if "players choose" in s["action"]][0]
    assert "No second card given for B" in step["note"]


def test_frosthaven_monsters_tied_group_decides() -> None:
    result = ini([mon("M1", 30), mon("M2", 30)])
    assert result["ties"] == [["M1", "M2"]] and result["unresolved"] == []
    assert result["rulings"] == ["fh-nl-6", "fh-it-6"]


def test_gloomhaven_monsters_tied_no_ruling() -> None:
    result = ini([mon("M1", 30), mon("M2", 30)], "gloomhaven")
    assert result["ties"] == [] and result["unresolved"] == [["M1", "M2"]]
    assert result["rulings"] == []
    assert all(s["note"] for s in result["steps"])


@pytest.mark.parametrize(
    "game, rulings", [("frosthaven", ["fh-nl-5", "fh-it-5"]), ("gloomhaven", ["gh-da-5"])]
)
def test_summons_before_summoner_and_fresh_ones_left_out(game: str, rulings: list[str]) -> None:
    result = ini(
        [char("A", 10), char("B", 50), summon("S", "B"), summon("T", "A", fresh=True)], game
    )
    assert result["order"] == ["A", "S", "B"]
    fresh = [s for s in result["steps"] if "summoned this round" in s["action"]]
    assert fresh and fresh[0]["value"] == ["T"] and fresh[0]["rulings"] == rulings


def test_summon_initiative_is_ignored() -> None:
    result = ini([char("A", 60), mon("M", 30), {**summon("S", "A"), "initiative": 5}])
    assert result["order"] == ["M", "S", "A"]


def test_summon_follows_its_summoner_in_a_tie() -> None:
    result = ini([char("A", 20, 40), char("B", 20, 40), summon("S", "B")])
    assert result["order"] == ["A", "S", "B"] and result["ties"] == [["A", "B"]]


def test_several_summons_of_one_summoner_unresolved() -> None:
    result = ini([char("A", 20), summon("S1", "A"), summon("S2", "A")])
    assert result["order"] == ["S1", "S2", "A"] and result["unresolved"] == [["S1", "S2"]]


@pytest.mark.parametrize(
    "figures, message",
    [
        ([], "'figures' must hold at least 1 item(s) (got 0)"),
        ([char(f"C{i}", 10) for i in range(31)], "'figures' must hold at most 30 item(s) (got 31)"),
        ([char("A", 10), char("A", 20)], "'figures'[1].name 'A' is already used by 'figures'[0]"),
        ([char("", 10)], "'figures'[0].name must not be empty"),
        ([{"type": "character", "initiative": 5}], "'figures'[0].name is required"),
        (
            [{"name": "A", "type": "boss", "initiative": 5}],
            "'figures'[0].type must be one of: character, monster, summon (got 'boss')",
        ),
        ([char("A", 0)], "'figures'[0].initiative must be at least 1 (got 0)"),
        ([char("A", 100)], "'figures'[0].initiative must be at most 99 (got 100)"),
        ([{"name": "M", "type": "monster"}], "'figures'[0].initiative is required for a monster"),
        ([char("A", 5, 0)], "'figures'[0].second must be at least 1 (got 0)"),
        (
            [{**mon("M", 5), "second": 7}],
            "'figures'[0].second is only for characters (this figure is a monster)",
        ),
        (
            [char("A", 5), {"name": "S", "type": "summon"}],
            "'figures'[1].summoner is required for a summon",
        ),
        (
            [mon("M", 5), summon("S", "M")],
            "'figures'[1].summoner must name a character in 'figures' ('M' is a monster)",
        ),
        (
            [char("A", 5), summon("S", "Z")],
            "'figures'[1].summoner must name a character in 'figures' ('Z' is no figure)",
        ),
        (
            [{**char("A", 5), "summoner": "B"}],
            "'figures'[0].summoner is only for summons (this figure is a character)",
        ),
        (
            [{**char("A", 5), "summoned_this_round": True}],
            "'figures'[0].summoned_this_round can only be true for a summon (this figure is a character)",
        ),
        ([{**char("A", 5), "hp": 3}], "unknown field(s) in 'figures'[0]: hp"),
        (["A"], "'figures'[0] must be an object (got 'A')"),
    ],
)
def test_initiative_errors(figures: list[Any], message: str) -> None:
    with pytest.raises(CheckInputError) as err:
        initiative.run({"game": "frosthaven", "figures": figures})
    assert str(err.value) == message


# --- advantage -----------------------------------------------------------------------------


def adv(
    mode: str, a: dict[str, Any], b: dict[str, Any], game: str = "frosthaven", **kw: Any
) -> dict[str, Any]:
    return advantage.run({"game": game, "mode": mode, "cards": [a, b], **kw})


@pytest.mark.parametrize(
    "mode, a, b, chosen, ruling",
    [
        # fh-clar-20: +1 Stun beats +0 Stun
        (
            "advantage",
            {"value": "+0", "effects": ["Stun"]},
            {"value": "+1", "effects": ["stun"]},
            1,
            "fh-clar-20",
        ),
        (
            "disadvantage",
            {"value": "+0", "effects": ["Stun"]},
            {"value": "+1", "effects": ["stun"]},
            0,
            "fh-clar-20",
        ),
        # fh-clar-19: an effect beats the same card without it
        ("advantage", {"value": "+1", "effects": ["Stun"]}, {"value": "+1"}, 0, "fh-clar-19"),
        ("disadvantage", {"value": "+1", "effects": ["Stun"]}, {"value": "+1"}, 1, "fh-clar-19"),
        # fh-clar-19: different effects cannot be compared, numbers irrelevant
        (
            "advantage",
            {"value": "+2", "effects": ["Stun"]},
            {"value": "+0", "effects": ["Wound"]},
            "ambiguous",
            "fh-clar-19",
        ),
        (
            "disadvantage",
            {"value": "+2", "effects": ["Stun"]},
            {"value": "+0", "effects": ["Wound"]},
            "ambiguous",
            "fh-clar-19",
        ),
        # extra effect but lower number: unknown positive value -> ambiguous
        (
            "advantage",
            {"value": "+0", "effects": ["Stun"]},
            {"value": "+1"},
            "ambiguous",
            "fh-clar-19",
        ),
        # plain numbers, null worst (fh-clar-15: null makes the damage 0)
        ("advantage", {"value": "-1"}, {"value": "+1"}, 1, "fh-nl-3"),
        ("disadvantage", {"value": "null"}, {"value": "-2"}, 0, "fh-clar-15"),
        ("advantage", {"value": "x2"}, {"value": "+2"}, 0, "fh-nl-3"),
    ],
)
def test_advantage_frosthaven(
    mode: str, a: dict[str, Any], b: dict[str, Any], chosen: Any, ruling: str
) -> None:
    result = adv(mode, a, b)
    assert result["chosen"] == chosen
    assert ruling in result["rulings"]
    assert all(r.startswith("fh-") for r in result["rulings"])


@pytest.mark.parametrize("attack, chosen", [(1, 1), (2, 0), (3, 0)])
def test_x2_compared_with_attack(attack: int, chosen: int) -> None:
    # attack 1: x2 -> 2 < 1+2; attack 2: equal, card 0 reported; attack 3: 6 > 5
    assert adv("advantage", {"value": "x2"}, {"value": "+2"}, attack=attack)["chosen"] == chosen


def test_gloomhaven_advantage_numeric_without_rulings() -> None:
    result = adv("advantage", {"value": "+1"}, {"value": "+2"}, game="gloomhaven")
    assert result["chosen"] == 1 and result["rulings"] == []
    assert all(s["note"] for s in result["steps"])
    result = adv("disadvantage", {"value": "null"}, {"value": "+0"}, game="gloomhaven")
    assert result["chosen"] == 0 and result["rulings"] == ["gh-example-null"]
    result = adv(
        "advantage", {"value": "+1", "effects": ["stun"]}, {"value": "+1"}, game="gloomhaven"
    )
    assert result["chosen"] == "ambiguous" and result["rulings"] == []


@pytest.mark.parametrize(
    "payload, message",
    [
        (
            {"mode": "advantage", "cards": [{"value": "+1 rolling"}, {"value": "+0"}]},
            "'cards'[0].value: rolling modifiers are out of scope for this check (got '+1 rolling')",
        ),
        (
            {"mode": "advantage", "cards": [{"value": "+0"}, {"value": "x3"}]},
            "'cards'[1].value must be '+N' or '-N' (N from 0 to 99), 'x2' or 'null' (got 'x3')",
        ),
        (
            {"mode": "advantage", "cards": [{"value": "+0"}]},
            "'cards' must hold exactly 2 cards (got 1)",
        ),
        (
            {"mode": "advantage", "cards": [{"value": "+0"}] * 3},
            "'cards' must hold exactly 2 cards (got 3)",
        ),
        ({"mode": "advantage"}, "'cards' is required"),
        (
            {"mode": "best", "cards": []},
            "'mode' must be one of: advantage, disadvantage (got 'best')",
        ),
        (
            {
                "mode": "advantage",
                "cards": [{"value": "+0", "effects": ["Stun", " stun"]}, {"value": "+0"}],
            },
            "'cards'[0].effects[1] repeats the effect ' stun'",
        ),
        (
            {"mode": "advantage", "cards": [{"value": "+0", "effects": [""]}, {"value": "+0"}]},
            "'cards'[0].effects[0] must not be empty",
        ),
        (
            {"mode": "advantage", "cards": [{"effects": []}, {"value": "+0"}]},
            "'cards'[0].value is required",
        ),
        (
            {"mode": "advantage", "cards": [{"value": "+0", "rolling": True}, {"value": "+0"}]},
            "unknown field(s) in 'cards'[0]: rolling",
        ),
        (
            {"mode": "advantage", "cards": [{"value": "+0"}, {"value": "+0"}], "attack": -1},
            "'attack' must be at least 0 (got -1)",
        ),
    ],
)
def test_advantage_errors(payload: dict[str, Any], message: str) -> None:
    with pytest.raises(CheckInputError) as err:
        advantage.run({"game": "frosthaven", **payload})
    assert str(err.value) == message


# --- exhaustion ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "game, hp, hand, discard, active, expected",
    [
        # (exhausted, can_play, can_rest, can_long_rest)
        ("gloomhaven", 0, 5, 5, 0, (True, False, False, False)),
        ("gloomhaven", 1, 1, 1, 0, (True, False, False, False)),
        ("gloomhaven", 1, 2, 0, 0, (False, True, False, False)),
        ("gloomhaven", 1, 0, 2, 0, (False, False, True, True)),
        ("gloomhaven", 1, 1, 1, 3, (True, False, False, False)),  # no GH ruling counts them
        ("frosthaven", 0, 5, 5, 0, (True, False, False, False)),
        ("frosthaven", 3, 1, 1, 0, (True, False, False, False)),
        # fh-errata-01: an active bonus card counts as discarded for the long rest
        ("frosthaven", 3, 1, 1, 1, (False, False, True, True)),
        ("frosthaven", 3, 0, 0, 2, (False, False, True, True)),
        ("frosthaven", 3, 2, 0, 0, (False, True, False, False)),
    ],
)
def test_exhaustion(
    game: str,
    hp: int,
    hand: int,
    discard: int,
    active: int,
    expected: tuple[bool, bool, bool, bool],
) -> None:
    result = exhaustion.run(
        {"game": game, "hp": hp, "hand": hand, "discard": discard, "active_bonuses": active}
    )
    got = (result["exhausted"], result["can_play"], result["can_rest"], result["can_long_rest"])
    assert got == expected
    prefix = "fh-" if game == "frosthaven" else "gh-"
    assert all(r.startswith(prefix) for r in result["rulings"])


def test_frosthaven_short_rest_does_not_count_active_bonuses() -> None:
    result = exhaustion.run(
        {"game": "frosthaven", "hp": 3, "hand": 0, "discard": 1, "active_bonuses": 1}
    )
    assert result["can_short_rest"] is False and result["can_long_rest"] is True
    assert "fh-errata-01" in result["rulings"]
    short = [s for s in result["steps"] if "short rest" in s["action"]][0]
    assert "not stated" in short["note"]


@pytest.mark.parametrize(
    "game, hand, discard, exhausted",
    [
        ("frosthaven", 1, 1, True),
        ("frosthaven", 2, 0, False),
        ("gloomhaven", 0, 1, True),
        ("gloomhaven", 0, 2, False),
    ],
)
def test_exhaustion_without_hp_checks_the_cards_alone(
    game: str, hand: int, discard: int, exhausted: bool
) -> None:
    """What the answer does not depend on is not asked for: no hp, the figure is standing."""
    result = exhaustion.run({"game": game, "hand": hand, "discard": discard})
    assert result["exhausted"] is exhausted
    assert result["steps"][0]["action"].startswith("hit points not given")
    assert result["steps"][0]["value"] is False


@pytest.mark.parametrize(
    "payload, message",
    [
        ({"hp": "x", "hand": 1, "discard": 1}, "'hp' must be an integer (got 'x')"),
        ({"hp": 1, "discard": 1}, "'hand' is required"),
        ({"hp": 1, "hand": 1}, "'discard' is required"),
        ({"hp": -1, "hand": 1, "discard": 1}, "'hp' must be at least 0 (got -1)"),
        (
            {"hp": 1, "hand": 1, "discard": 1, "active_bonuses": 1.5},
            "'active_bonuses' must be an integer (got 1.5)",
        ),
        ({"hp": 1, "hand": 100, "discard": 1}, "'hand' must be at most 99 (got 100)"),
        ({"hp": 1, "hand": 1, "discard": 1, "lost": 2}, "unknown field(s) in request: lost"),
    ],
)
def test_exhaustion_errors(payload: dict[str, Any], message: str) -> None:
    with pytest.raises(CheckInputError) as err:
        exhaustion.run({"game": "gloomhaven", **payload})
    assert str(err.value) == message


# --- all checks: interface, examples, cited ids ------------------------------------------------


@pytest.mark.parametrize("name", list(MODULES))
def test_module_interface_and_example(name: str) -> None:
    module = MODULES[name]
    assert CHECKS[name] == module.__name__
    result = run_check(name, module.EXAMPLE)
    assert result["game"] == module.EXAMPLE["game"]
    for step in result["steps"]:
        assert set(step) == {"action", "value", "rulings", "note"}
        if not step["rulings"]:
            assert step["note"], step  # every uncited step says why
    ids = [r for s in result["steps"] for r in s["rulings"]]
    assert result["rulings"] == list(dict.fromkeys(ids))


def test_unknown_check() -> None:
    with pytest.raises(UnknownCheck):
        run_check("nope", {})


@pytest.mark.parametrize("name", list(MODULES))
def test_schemas_are_valid_and_match_the_example(name: str) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    module = MODULES[name]
    jsonschema.Draft202012Validator.check_schema(module.REQUEST_SCHEMA)
    jsonschema.Draft202012Validator.check_schema(module.RESPONSE_SCHEMA)
    jsonschema.validate(module.EXAMPLE, module.REQUEST_SCHEMA)
    jsonschema.validate(module.run(module.EXAMPLE), module.RESPONSE_SCHEMA)


def known_ids() -> set[str]:
    if not IDS_FILE.exists():
        pytest.skip(f"{IDS_FILE} not present")
    text = IDS_FILE.read_text(encoding="utf-8")
    return set(re.findall(r"^([a-z][\w-]*):\s*$", text, flags=re.MULTILINE))


def all_cited_ids() -> set[str]:
    """Every ruling id any module can cite (string literals that look like ids)."""
    found: set[str] = set()
    for module in MODULES.values():
        source = Path(module.__file__).read_text(encoding="utf-8")
        found |= set(re.findall(r"\"((?:fh|gh)-[a-z]+-[\w]+)\"", source))
    return found


def test_every_cited_id_exists() -> None:
    ids = known_ids()
    assert "fh-clar-15" in ids and "gh-example-null" in ids  # the file was parsed
    cited_ids = all_cited_ids()
    assert len(cited_ids) >= 15
    assert cited_ids <= ids, cited_ids - ids


# --- properties --------------------------------------------------------------------------------

modifier_text = st.one_of(
    st.integers(-99, 99).map(lambda n: f"{n:+d}"), st.just("x2"), st.just("null")
).flatmap(lambda t: st.sampled_from([t, t + " rolling"]))


@st.composite
def damage_requests(draw: st.DrawFn) -> dict[str, Any]:
    game = draw(st.sampled_from(["frosthaven", "gloomhaven"]))
    fh = game == "frosthaven"
    return {
        "game": game,
        "attack": draw(st.integers(0, 40)),
        "modifiers": draw(st.lists(modifier_text, max_size=5)),
        "shield": draw(st.integers(0, 10)),
        "ward": draw(st.booleans()) if fh else False,
        "brittle": draw(st.booleans()) if fh else False,
        "hp": draw(st.one_of(st.none(), st.integers(1, 30))),
        "negate": draw(st.booleans()),
    }


@settings(max_examples=300, deadline=None)
@given(damage_requests())
def test_damage_properties(payload: dict[str, Any]) -> None:
    result = damage.run(payload)
    assert 0 <= result["damage"] <= result["would_suffer"]
    if payload["hp"] is not None:
        assert result["damage"] <= payload["hp"]
    if any(m.startswith("null") for m in payload["modifiers"]) or payload["negate"]:
        assert result["damage"] == 0
    if result["ward_removed"] or result["brittle_removed"]:
        assert payload["ward"] or payload["brittle"]
    prefix = "fh-" if payload["game"] == "frosthaven" else "gh-"
    assert all(r.startswith(prefix) for r in result["rulings"])


@st.composite
def figure_lists(draw: st.DrawFn) -> list[dict[str, Any]]:
    n_chars = draw(st.integers(1, 6))
    figures: list[dict[str, Any]] = []
    for i in range(n_chars):
        second = draw(st.one_of(st.none(), st.integers(1, 99)))
        figures.append(char(f"C{i}", draw(st.integers(1, 5)), second))
    for i in range(draw(st.integers(0, 6))):
        figures.append(mon(f"M{i}", draw(st.integers(1, 5))))
    for i in range(draw(st.integers(0, 6))):
        owner = draw(st.integers(0, n_chars - 1))
        figures.append(summon(f"S{i}", f"C{owner}", draw(st.booleans())))
    return draw(st.permutations(figures))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["frosthaven", "gloomhaven"]), figure_lists())
def test_initiative_properties(game: str, figures: list[dict[str, Any]]) -> None:
    result = initiative.run({"game": game, "figures": figures})
    acting = [f["name"] for f in figures if not f.get("summoned_this_round")]
    assert sorted(result["order"]) == sorted(acting)
    position = {name: i for i, name in enumerate(result["order"])}
    kinds = {f["name"]: f for f in figures}
    for f in figures:
        if f["type"] == "summon" and f["name"] in position:
            assert position[f["name"]] < position[f["summoner"]]
    # no monster acts before a character with the same or a higher initiative
    for a in result["order"]:
        for b in result["order"]:
            fa, fb = kinds[a], kinds[b]
            if (
                fa["type"] == "character"
                and fb["type"] == "monster"
                and fa["initiative"] <= fb["initiative"]
            ):
                assert position[a] < position[b]
    for group in result["ties"] + result["unresolved"]:
        assert len(group) >= 2 and set(group) <= set(result["order"])


card = st.fixed_dictionaries(
    {
        "value": st.one_of(
            st.integers(-9, 9).map(lambda n: f"{n:+d}"), st.just("x2"), st.just("null")
        ),
        "effects": st.lists(
            st.sampled_from(["stun", "wound", "fire", "heal 1"]), unique=True, max_size=2
        ),
    }
)


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(["frosthaven", "gloomhaven"]),
    card,
    card,
    st.one_of(st.none(), st.integers(0, 10)),
)
def test_advantage_properties(
    game: str, a: dict[str, Any], b: dict[str, Any], attack: int | None
) -> None:
    best = adv("advantage", a, b, game=game, attack=attack)["chosen"]
    worst = adv("disadvantage", a, b, game=game, attack=attack)["chosen"]
    swapped = adv("advantage", b, a, game=game, attack=attack)["chosen"]
    assert (best == "ambiguous") == (worst == "ambiguous") == (swapped == "ambiguous")
    if best != "ambiguous" and best != worst:
        assert swapped == 1 - best
    if a == b:
        assert best == worst == 0


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["frosthaven", "gloomhaven"]),
    st.integers(0, 5),
    st.integers(0, 5),
    st.integers(0, 5),
    st.integers(0, 5),
)
def test_exhaustion_properties(game: str, hp: int, hand: int, discard: int, active: int) -> None:
    result = exhaustion.run(
        {"game": game, "hp": hp, "hand": hand, "discard": discard, "active_bonuses": active}
    )
    pile = discard + (active if game == "frosthaven" else 0)  # fh-errata-01: long rest only
    assert result["exhausted"] == (hp < 1 or (hand < 2 and pile < 2))
    if result["exhausted"]:
        assert not (result["can_play"] or result["can_rest"] or result["can_long_rest"])
    if hp >= 1 and hand >= 2:
        assert not result["exhausted"]
