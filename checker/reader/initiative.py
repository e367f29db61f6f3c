"""Reading an initiative question: who holds which initiative, second cards, summons.

"Spellweaver initiative 10, Cragheart 45, the Vermling Scouts 30. Order?" -> three figures.
A figure is a class name (character), a monster group name (or a capitalised name with a
monster word in it: "Algox-Bogenschützen"), or any other capitalised name followed by a
number (read as a character, with a note). The numbers after a figure, up to the next one,
are its initiative and, for a character, its second card. A summon is "X's Y", "X's summon",
"the summon of X" (or, with one character only, "my summon"); "this round" marks it new.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from checker.message import Sentence, msg
from checker.reader.reading import Reading
from checker.reader.scan import Scan, Term

CLASSES = ("class.frosthaven", "class.gloomhaven")
NAME_PARTS = (None, "monster_kind")  # concepts a capitalised unknown name may contain
APOSTROPHES = frozenset("'\u2019")


@dataclass
class NamedFigure:
    """One figure named in the question."""

    name: str
    kind: str  # "character" | "monster" | "summon"
    start: int
    end: int
    known: bool = True
    summoner: str | None = None
    fresh: bool = False
    numbers: list[int] = field(default_factory=list)  # token indices, in order
    seconds: set[int] = field(default_factory=set)  # those said to be the second card


def _name(scan: Scan, start: int, end: int) -> str:
    """The name as typed, without a leading article ("the Vermling Scouts")."""
    while start < end - 1 and scan.concept(start) == "article":
        start += 1
    return scan.text_between(start, end)


def known_figures(scan: Scan) -> list[NamedFigure]:
    """Class names, monster group names, and "the monsters 30"."""
    figures = [
        NamedFigure(_name(scan, t.start, t.end), "character", t.start, t.end)
        for t in scan.find(*CLASSES)
    ]
    figures += [
        NamedFigure(_name(scan, t.start, t.end), "monster", t.start, t.end)
        for t in scan.find("monster_name")
    ]
    for term in scan.find("monster"):  # "the monsters 30": only with a number
        if scan.reach(term, 1, 2):
            figures.append(
                NamedFigure(_name(scan, term.start, term.end), "monster", term.start, term.end)
            )
    return figures


def capitalised_names(scan: Scan, taken: set[int]) -> list[tuple[int, int, bool]]:
    """Runs of capitalised words that are no vocabulary term: (start, end, has monster word)."""
    runs: list[tuple[int, int, bool]] = []
    i, n = 0, len(scan.tokens)
    while i < n:
        if not _name_word(scan, i, taken):
            i += 1
            continue
        j = i + 1
        while j < n:
            if _name_word(scan, j, taken):
                j += 1
            elif scan.tokens[j].text == "-" and j + 1 < n and _name_word(scan, j + 1, taken):
                j += 2
            else:
                break
        monsterish = any(scan.concept(k) == "monster_kind" for k in range(i, j))
        runs.append((i, j, monsterish))
        i = j
    return runs


def _name_word(scan: Scan, i: int, taken: set[int]) -> bool:
    tok = scan.tokens[i]
    return (
        tok.capitalised
        and len(tok.text) > 1
        and i not in taken
        and tok.number is None
        and scan.concept(i) in NAME_PARTS
    )


def _possessor(scan: Scan, figures: list[NamedFigure], at: int) -> NamedFigure | None:
    """The character whose "'s" ends just before token `at` ("Banner Spear's ...")."""
    if at < 2 or scan.tokens[at - 1].folded != "s" or scan.tokens[at - 2].text not in APOSTROPHES:
        return None
    return next((f for f in figures if f.end == at - 2 and f.kind == "character"), None)


def _summoner_after(scan: Scan, figures: list[NamedFigure], term: Term) -> NamedFigure | None:
    """ "summon of the Drifter", "evocazione del Boneshaper": the character just after."""
    i = term.end
    while i < len(scan.tokens) and scan.concept(i) in ("of", "article") and i < term.end + 3:
        i += 1
    if i == term.end:
        return None
    return next((f for f in figures if f.kind == "character" and f.start == i), None)


def summons(scan: Scan, figures: list[NamedFigure], runs: list[tuple[int, int, bool]]) -> None:
    """Add the summons: "X's Y", "X's summon", "summon of X", "my summon"."""
    chars = [f for f in figures if f.kind == "character"]
    for start, end, _ in runs:
        owner = _possessor(scan, figures, start)
        if owner is not None:
            figures.append(
                NamedFigure(_name(scan, start, end), "summon", start, end, False, owner.name)
            )
    for term in scan.find("summon"):
        near = [f for f in figures if f.kind == "summon" and abs(f.start - term.start) <= 4]
        if near:
            continue  # "Drifter's Hound, summoned this round": the same summon
        owner = (
            _possessor(scan, figures, term.start)
            or _summoner_after(scan, figures, term)
            or next((f for f in chars if f.end == term.start), None)
        )
        if owner is None and len(chars) == 1:
            owner = chars[0]  # "I'm the Drifter at 20: when does my summon act?"
        named = next(((s, e) for s, e, _ in runs if e == term.start or s == term.end), None)
        name = (
            _name(scan, *named)
            if named
            else f"{term.surface} ({owner.name})"
            if owner
            else term.surface
        )
        start, end = named if named else (term.start, term.end)
        figures.append(
            NamedFigure(name, "summon", start, end, False, owner.name if owner else None)
        )
    for term in scan.find("this_round"):
        fresh = [f for f in figures if f.kind == "summon"]
        if fresh:
            min(fresh, key=lambda f: abs(f.start - term.start)).fresh = True


def assign_numbers(scan: Scan, figures: list[NamedFigure]) -> None:
    """Each figure takes the free numbers between it and the next figure."""
    ordered = sorted(figures, key=lambda f: f.start)
    free = set(scan.numbers())
    for k, fig in enumerate(ordered):
        stop = ordered[k + 1].start if k + 1 < len(ordered) else len(scan.tokens)
        second = False
        for i in range(fig.end, stop):
            second = second or scan.concept(i) == "second"
            if i in free:
                fig.numbers.append(i)
                if second:
                    fig.seconds.add(i)
    for k, fig in enumerate(ordered[:-1]):  # "Drifter and Banner Spear 20": shared
        nxt = ordered[k + 1]
        between = {scan.concept(i) for i in range(fig.end, nxt.start)}
        if not fig.numbers and between <= {"sep", "article"} and len(nxt.numbers) == 1:
            fig.numbers = list(nxt.numbers)


def collect(scan: Scan) -> list[NamedFigure]:
    """Every figure of the question, merged by name, in the order named."""
    figures = known_figures(scan)
    taken = {i for f in figures for i in range(f.start, f.end)}
    runs = capitalised_names(scan, taken)
    for start, end, monsterish in runs:
        if (
            scan.reach(Term("name", start, end, ""), 1, 2)
            and _possessor(scan, figures, start) is None
        ):
            figures.append(
                NamedFigure(
                    _name(scan, start, end),
                    "monster" if monsterish else "character",
                    start,
                    end,
                    known=monsterish,
                )
            )
    summons(scan, figures, runs)
    assign_numbers(scan, figures)
    merged: dict[str, NamedFigure] = {}
    for fig in sorted(figures, key=lambda f: f.start):
        key = fig.name.casefold()
        if key not in merged:
            merged[key] = fig
            continue
        # "Blinkblade 12 ... Blinkblade second card 30", "... and Scoundrel's 40": a number
        # said again of the same figure is kept (too many of them make its field missing)
        first = merged[key]
        first.numbers += [i for i in fig.numbers if i not in first.numbers]
        first.seconds |= fig.seconds
    return list(merged.values())


def request_figures(
    scan: Scan, figures: list[NamedFigure]
) -> tuple[list[dict[str, Any]], list[str], list[Sentence]]:
    """The check's 'figures' with what is missing and the notes."""
    out: list[dict[str, Any]] = []
    missing: list[str] = []
    notes: list[Sentence] = []
    for k, fig in enumerate(figures):
        entry: dict[str, Any] = {"name": fig.name, "type": fig.kind}
        if fig.kind == "summon":
            if fig.summoner is None:
                missing.append(f"figures[{k}].summoner")
            else:
                entry["summoner"] = fig.summoner
            if fig.fresh:
                entry["summoned_this_round"] = True
        else:
            entry.update(_initiatives(scan, fig, k, missing, notes))
        if not fig.known and fig.kind == "character":
            notes.append(msg("%(name)s is not a known class: read as a character", name=fig.name))
        out.append(entry)
    return out, missing, notes


def _initiatives(
    scan: Scan, fig: NamedFigure, k: int, missing: list[str], notes: list[Sentence]
) -> dict[str, int]:
    """'initiative' and 'second' of a character or monster; more numbers than it can hold
    ("12 e 12, seconda carta 40 e 30") are not guessed at: its fields are missing."""
    leading = [i for i in fig.numbers if i not in fig.seconds]
    seconds = [i for i in fig.numbers if i in fig.seconds]
    if not leading:
        missing.append(f"figures[{k}].initiative")
        return {}
    out = {"initiative": scan.value(leading[0])}
    rest = seconds + leading[1:]
    if fig.kind == "character" and rest:
        out["second"] = scan.value(rest[0])
        rest = rest[1:]
    if rest:
        numbers = ", ".join(str(scan.value(i)) for i in fig.numbers)
        notes.append(
            msg(
                "%(name)s: more numbers than an initiative and a second card (%(numbers)s)",
                name=fig.name,
                numbers=numbers,
            )
            if fig.kind == "character"
            else msg(
                "%(name)s: more numbers than an initiative (%(numbers)s)",
                name=fig.name,
                numbers=numbers,
            )
        )
        missing.append(f"figures[{k}].{'second' if fig.kind == 'character' else 'initiative'}")
    return out


def read(scan: Scan, lang: str) -> Reading | None:
    """The initiative reading, or None when the question asks for no acting order."""
    if not scan.has("initiative", "order"):
        return None
    scan.block()
    figures = collect(scan)
    numbered = [f for f in figures if f.numbers and f.kind != "summon"]
    if not numbered or len(figures) < 2:
        return None
    entries, missing, notes = request_figures(scan, figures)
    return Reading("initiative", {"figures": entries}, missing, notes, lang, {})


__all__ = ["read"]
