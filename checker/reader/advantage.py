"""Reading an advantage / disadvantage question: the two cards drawn and their effects.

"Advantage: +1 and +0 Stun" -> mode advantage, cards [+1], [+0 stun]. The question is split
into pieces at commas and at "and" / "vs" words; an effect belongs to the card in its piece
(after "and" with no card of its own, "+1 Stun and Muddle", to the card before).
"""

from __future__ import annotations

from typing import Any

from checker.message import Sentence, msg
from checker.reader.damage import COUNTED, modifier_cards, with_rolling
from checker.reader.reading import Reading
from checker.reader.scan import BARRIERS, Scan, Term

# Concepts that are effects on a modifier card here (Shield 1 on a card is not the target's).
EFFECT_CONCEPTS = ("effect.", "shield", "ward", "brittle")
NUMBERED = frozenset(
    {"effect.pierce", "effect.push", "effect.pull", "effect.heal", "shield", "effect.target"}
)


def quoted(scan: Scan) -> list[tuple[int, int]]:
    """Token spans between an opening and the next closing quotation mark: '+2, Heal 1 self'."""
    spans: list[tuple[int, int]] = []
    opened: int | None = None
    for tok in scan.tokens:
        if tok.quote == "open" and opened is None:
            opened = tok.index + 1
        elif tok.quote == "close" and opened is not None:
            spans.append((opened, tok.index))
            opened = None
    return spans


def _inside(i: int, spans: list[tuple[int, int]]) -> bool:
    return any(start <= i < end for start, end in spans)


def pieces(scan: Scan) -> list[tuple[int, int, str]]:
    """Spans of the question between separators: (start, end, the separator before). A
    separator inside a quoted card ('+2, Heal 1 self') does not split it."""
    out: list[tuple[int, int, str]] = []
    start, before = 0, ""
    quotes = quoted(scan)
    i = 0
    while i < len(scan.tokens):
        term = scan.term_of.get(i)
        if _inside(i, quotes):
            i += 1
            continue
        if scan.tokens[i].text in BARRIERS or (term and term.concept in ("sep", "versus")):
            out.append((start, i, before))
            before = (
                "sep"
                if scan.tokens[i].text == "," or (term and term.concept == "sep")
                else "versus"
            )
            i = term.end if term else i + 1
            start = i
            continue
        i += 1
    out.append((start, len(scan.tokens), before))
    return [p for p in out if p[1] > p[0]]


def effect_name(scan: Scan, term: Term) -> tuple[str, str]:
    """The effect as the check compares it ("pierce 2") and as the asker wrote it."""
    name = term.concept.removeprefix("effect.")
    if term.concept in NUMBERED:
        hit = scan.bind([(term, ((1, 0),))])
        if hit:
            number = scan.value(hit[term])
            return f"{name} {number}", f"{term.surface} {number}"
    return name, term.surface


def attach_effects(scan: Scan, cards: list[tuple[int, int, str]]) -> list[list[tuple[str, str]]]:
    """The effects of each card: [(compared name, written name), ...] per card."""
    effects: list[list[tuple[str, str]]] = [[] for _ in cards]
    spans = pieces(scan)
    for term in scan.find(*EFFECT_CONCEPTS):
        span = next((p for p in spans if p[0] <= term.start < p[1]), None)
        if span is None:
            continue
        inside = [k for k, c in enumerate(cards) if span[0] <= c[0] < span[1]]
        if inside:
            before = [k for k in inside if cards[k][0] < term.start]
            owner = before[-1] if before else inside[0]
        else:
            earlier = [k for k, c in enumerate(cards) if c[0] < span[0]]
            if span[2] != "sep" or not earlier or not _only_effects(scan, span):
                continue
            owner = earlier[-1]
        named = effect_name(scan, term)
        if named not in effects[owner]:
            effects[owner].append(named)
    return effects


def _only_effects(scan: Scan, span: tuple[int, int, str]) -> bool:
    """A piece holding nothing but effects (and their numbers): "... and Muddle"."""
    for i in range(span[0], span[1]):
        if scan.tokens[i].kind != "word":
            continue
        concept = scan.concept(i) or ""
        if concept != "article" and not concept.startswith(EFFECT_CONCEPTS):
            return False
    return True


def read(scan: Scan, lang: str) -> Reading | None:
    """The advantage reading, or None when the question names neither advantage nor cards."""
    advantage, disadvantage = scan.has("advantage"), scan.has("disadvantage")
    if advantage == disadvantage:  # neither, or both ("advantage and disadvantage cancel")
        return None
    scan.block("blocker", "target")
    attack = scan.bind([(t, ((1, 3),)) for t in scan.find("attack")], counted=COUNTED)
    found = modifier_cards(scan)
    if not found:
        return None
    quotes = quoted(scan)
    in_quotes = [c for c in found if _inside(c[0], quotes)]
    if len(found) != 2 and len(in_quotes) == 2:
        # The two cards are quoted; a bare value elsewhere refers back to one ("take the +1").
        found = in_quotes
    texts = with_rolling(scan, found)
    effects = attach_effects(scan, found)
    cards = [{"value": text, "effects": [e[0] for e in eff]} for text, eff in zip(texts, effects)]
    shown = [" ".join([text, *(e[1] for e in eff)]) for text, eff in zip(texts, effects)]
    request: dict[str, Any] = {
        "mode": "disadvantage" if disadvantage else "advantage",
        "cards": cards,
    }
    if attack:
        request["attack"] = scan.value(min(attack.values()))
    missing: list[str] = []
    notes: list[Sentence] = []
    if len(cards) != 2:
        missing.append("cards")
        notes.append(msg("%(count)s card(s) read where two are drawn", count=len(cards)))
    return Reading("advantage", request, missing, notes, lang, {"cards": shown})


__all__ = ["read"]
