"""The one-sentence summary of a computed answer, in the asker's language.

The sentences are data (``summary`` and ``fields`` in ``vocab/<lang>.yaml``); this module
only chooses one and fills it in.
"""

from __future__ import annotations

import re
from typing import Any

from checker.reader.lexicon import lexicon
from checker.reader.reading import Reading

_FIGURE_FIELD = re.compile(r"figures\[(\d+)\]\.(\w+)")


def join(items: list[str], lang: str) -> str:
    """ "A, B and C" in the asker's language."""
    word = lexicon(lang).summary.get("and", "and")
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {word} {items[-1]}"


def field_label(name: str, reading: Reading) -> str:
    """How a missing field is said: "the attack value", "the initiative of Brute"."""
    fields = lexicon(reading.lang).fields
    match = _FIGURE_FIELD.fullmatch(name)
    if match:
        figures = reading.input.get("figures") or []
        index = int(match[1])
        who = figures[index]["name"] if index < len(figures) else name
        return fields.get(match[2], match[2]).format(name=who)
    return fields.get(name, name)


def say(key: str, lang: str, count: int | None = None, **values: Any) -> str:
    """Sentence `key` filled in; its singular form ("_one") when `count` is said so."""
    lex = lexicon(lang)
    if count is not None and count in lex.singular and f"{key}_one" in lex.summary:
        key = f"{key}_one"
    return lex.summary[key].format(**values)


def damage(reading: Reading, result: dict[str, Any]) -> str:
    """Suffered damage; the hit-point cap or the negation when they applied."""
    lang = reading.lang
    target = reading.wording.get("perspective") == "target"
    if result["negated"]:
        return say("damage_negated", lang)
    hp = reading.input.get("hp")
    if hp is not None and result["would_suffer"] > result["damage"]:
        return say(
            "damage_capped_target" if target else "damage_capped",
            lang,
            would=result["would_suffer"],
            hp=hp,
            damage=result["damage"],
        )
    return say(
        "damage_target" if target else "damage", lang, result["damage"], damage=result["damage"]
    )


def advantage(reading: Reading, result: dict[str, Any]) -> str:
    """The card used, as the asker wrote it, or the ambiguity."""
    if result["chosen"] == "ambiguous":
        return say("advantage_ambiguous", reading.lang)
    return say("advantage", reading.lang, card=reading.wording["cards"][result["chosen"]])


def initiative(reading: Reading, result: dict[str, Any]) -> str:
    """The acting order, with the players' choices or what the archive leaves open."""
    lang = reading.lang
    order = ", ".join(result["order"])
    if result["ties"]:
        ties = "; ".join(say("tied", lang, names=join(t, lang)) for t in result["ties"])
        return say("initiative_ties", lang, order=order, ties=ties)
    if result["unresolved"]:
        unresolved = "; ".join(join(u, lang) for u in result["unresolved"])
        return say("initiative_unresolved", lang, order=order, unresolved=unresolved)
    return say("initiative", lang, order=order)


def exhaustion(reading: Reading, result: dict[str, Any]) -> str:
    """Exhausted or not; whether a (long) rest is possible when that was asked."""
    lang = reading.lang
    if result["exhausted"]:
        return say("exhausted", lang)
    asks = reading.wording.get("asks")
    if asks == "long_rest":
        return say("can_long_rest" if result["can_long_rest"] else "cannot_long_rest", lang)
    if asks == "rest":
        return say("can_rest" if result["can_rest"] else "cannot_rest", lang)
    return say("not_exhausted", lang)


RESULT_SENTENCES = {
    "damage": damage,
    "advantage": advantage,
    "initiative": initiative,
    "exhaustion": exhaustion,
}


def summary(reading: Reading, result: dict[str, Any] | None) -> str:
    """The sentence for a reading and its check result (None: not computed)."""
    lang = reading.lang
    if reading.missing:
        over = reading.wording.get("out_of_range") or []
        absent = [m for m in reading.missing if m not in over]
        key = "missing" if absent else "out_of_range"
        return say(
            key, lang, fields=join([field_label(m, reading) for m in (absent or over)], lang)
        )
    if reading.input.get("game") is None:
        return say("no_game", lang)
    if result is None:
        return say("refused", lang)
    return RESULT_SENTENCES[reading.check](reading, result)


__all__ = ["summary", "join"]
