"""Reading a damage question: attack value, modifiers drawn, Shield, Ward, Brittle, hit points.

"Shield 1 and Ward, a monster attacks me for 7" -> attack 7, shield 1, ward. A question is
read as a damage computation only when it gives numbers for it (an attack value, a Shield
value or modifier cards) and, without an attack value, asks for damage ("how much do I
take?"): "is Shield 1 applied before Ward?" asks for a rule, not a number.
"""

from __future__ import annotations

from typing import Any

from checker.message import Sentence, msg
from checker.reader.reading import Reading, out_of_range
from checker.reader.scan import BARRIERS, Scan, Term

# Effects that change the attack value, the Shield or the cards drawn: the question must
# give the figure with them applied; the reader does not apply rules.
CHANGES_VALUES = {
    "effect.poison": (
        "attack",
        msg("Poison changes the attack value: give it with Poison applied"),
    ),
    "effect.pierce": (
        "shield",
        msg("Pierce changes the Shield: give the Shield left after Pierce"),
    ),
    "effect.curse": ("modifiers", msg("a Curse card: give the modifier it shows (null)")),
    "effect.bless": ("modifiers", msg("a Bless card: give the modifier it shows (x2)")),
}
ADJACENT = 2  # a "rolling" word belongs to a card at most this many tokens away
# "an attack with 3 targets", "attack 2 monsters": the number counts these, not the attack.
COUNTED = frozenset({"target", "card", "monster", "monster_name", "summon", "blocker"})


def modifier_cards(scan: Scan) -> list[tuple[int, int, str]]:
    """The cards drawn, in order: (start, end, "+1" / "-1" / "x2" / "null")."""
    cards = [(i, i + 1, scan.tokens[i].modifier or "") for i in scan.modifiers()]
    cards += [(t.start, t.end, "x2") for t in scan.find("double")]
    cards += [
        (t.start, t.end, "null")
        for t in scan.find("null_card")
        if not scan.is_number(t.start, frozenset({"damage", "hand", "discard"}))
    ]
    return sorted(cards)


def _gap_is_plain(scan: Scan, start: int, end: int) -> bool:
    """Nothing but filler words between two positions (no barrier, no other term)."""
    for i in range(start, end):
        tok = scan.tokens[i]
        if tok.text in BARRIERS or tok.kind in ("mod", "num"):
            return False
        if scan.concept(i) not in (None, "article", "card"):
            return False
    return end - start <= ADJACENT


def with_rolling(scan: Scan, cards: list[tuple[int, int, str]]) -> list[str]:
    """The card texts, "rolling" added where a rolling word stands next to a card."""
    rolling = [False] * len(cards)
    for term in scan.find("rolling"):
        before = [
            k
            for k, c in enumerate(cards)
            if c[1] <= term.start and _gap_is_plain(scan, c[1], term.start)
        ]
        after = [
            k
            for k, c in enumerate(cards)
            if c[0] >= term.end and _gap_is_plain(scan, term.end, c[0])
        ]
        if before:  # "+1 rolling", "+1 con lancio": the card just before
            rolling[before[-1]] = True
        elif after:  # "a rolling +1", "eine rollende +1"
            rolling[after[0]] = True
    return [text + (" rolling" if roll else "") for (_, _, text), roll in zip(cards, rolling)]


def _shield_from_signed(scan: Scan, term: Term) -> int | None:
    """ "Shield +1": a plus sign right after Shield is its value, not a card drawn."""
    i = term.end
    if i < len(scan.tokens) and scan.tokens[i].kind == "mod" and i not in scan.claimed:
        text = scan.tokens[i].modifier or ""
        if text.startswith("+") and text != "x2":
            scan.claimed.add(i)
            return int(text[1:])
    return None


def bound_values(scan: Scan) -> dict[str, int | None]:
    """Attack, Shield and hit points, each the number nearest its word."""
    wanted: list[tuple[Term, tuple[tuple[int, int], ...]]] = []
    wanted += [(t, ((1, 2), (-1, 0))) for t in scan.find("shield")]
    wanted += [(t, ((-1, 1), (1, 1))) for t in scan.find("hp")]
    # no number before "attack": "you draw one attack modifier card" counts draws
    wanted += [(t, ((1, 3),)) for t in scan.find("attack")]
    # a participle closing the clause has its number before it: "werde mit 5 angegriffen"
    wanted += [(t, ((-1, 2), (1, 3))) for t in scan.find("attacked")]
    bound = scan.bind(wanted, frozenset({"hp"}), COUNTED)
    values: dict[str, int | None] = {"attack": None, "shield": None, "hp": None}
    for term, index in sorted(bound.items(), key=lambda kv: kv[0].start):
        name = "attack" if term.concept == "attacked" else term.concept
        if values[name] is None:
            values[name] = scan.value(index)
    if values["shield"] is None:
        for term in scan.find("shield"):
            values["shield"] = _shield_from_signed(scan, term)
            if values["shield"] is not None:
                break
    defended = scan.has("shield", "ward", "brittle", "negate") and scan.has("take", "how_much")
    # the hit points cap the damage only when the question asks how much: "does a wound deal
    # 1 damage when I have 2 hp?" asks a rule
    capped = values["hp"] is not None and scan.has("how_much")
    if values["attack"] is None and (defended or capped):
        # "Shield 2 and Ward against 6 damage, how much do I take?", "3 hp left and I take
        # 7 damage, how much counts?": the damage coming in is the attack value (without the
        # question, "Ward at 0 damage?" asks for a rule)
        more = scan.bind([(t, ((-1, 1),)) for t in scan.find("damage")])
        if more:
            values["attack"] = scan.value(min(more.values()))
    return values


def flag(scan: Scan, concept: str) -> bool:
    """A condition named and not denied ("Ward", but not "without Ward")."""
    return any(not scan.negated(t) for t in scan.find(concept))


def negates(scan: Scan) -> bool:
    """Losing a card to negate the damage: "negate", or "lose" followed by a card."""
    if any(not scan.negated(t) for t in scan.find("negate")):
        return True
    for term in scan.find("lose"):
        if any(c.start - term.end <= 3 and c.start >= term.end for c in scan.find("card")):
            return True
    return False


def asks_damage(scan: Scan, values: dict[str, int | None], cards: list[str]) -> bool:
    """Whether the question asks for a damage number at all (see the module docstring)."""
    given = values["attack"] is not None or values["shield"] is not None or cards
    if not given:
        return False
    if values["attack"] is None:  # "Shield 2 against an attack, how much do I take?"
        # a Shield value or a card drawn with its number: "Null cards deal 0 damage" is a rule
        numbered = values["shield"] is not None or scan.modifiers()
        return bool(numbered) and (
            scan.has("take") or (scan.has("how_much") and scan.has("damage"))
        )
    defended = values["shield"] is not None or scan.has("ward", "brittle")
    return bool(cards) or defended or scan.has("damage", "take", "how_much", "negate", "lose")


def read(scan: Scan, lang: str) -> Reading | None:
    """The damage reading of the question, or None when it asks for no damage number."""
    scan.block("blocker", "target")
    values = bound_values(scan)
    cards = with_rolling(scan, modifier_cards(scan))
    if not asks_damage(scan, values, cards):
        return None
    request: dict[str, Any] = {
        "modifiers": cards,
        "shield": values["shield"] or 0,
        "ward": flag(scan, "ward"),
        "brittle": flag(scan, "brittle"),
        "negate": negates(scan),
    }
    missing: list[str] = []
    notes: list[Sentence] = []
    wording: dict[str, Any] = {
        "perspective": "target" if scan.has("target") or scan.says(scan.lex.attacker) else "you"
    }
    if values["attack"] is not None:
        request = {"attack": values["attack"], **request}
    if values["hp"] is not None:
        request["hp"] = values["hp"]
    for name, label in (
        ("attack", msg("Attack")),
        ("shield", msg("Shield")),
        ("hp", msg("Hit points")),
    ):
        value = values[name]
        if value is not None:
            out_of_range(label, value, name, missing, notes, wording)
        elif name == "attack" or scan.has(name):  # named without its number
            missing.append(name)
    for concept, (name, note) in CHANGES_VALUES.items():
        if scan.has(concept):
            notes.append(note)
            if name not in missing:
                missing.append(name)
    return Reading("damage", request, missing, notes, lang, wording)


__all__ = ["read", "modifier_cards", "with_rolling"]
