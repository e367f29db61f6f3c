"""The sentences a check says (its steps' actions and notes, the monster's explanation), in
English and in the asker's language.

A sentence is a `Msg`: a gettext msgid (the English sentence, values as ``%(name)s``) and its
values, written where the check computes it: ``msg("hit points %(hp)s: exhausted", hp=3)``.
``render(text)`` gives the English, exactly as the API has always answered; ``render(text,
translate)`` says it in another language, given the function that maps a msgid to that
language's template (the service's gettext catalogues: the checker imports none). A value that
is itself a sentence ("better" / "worse") is said in the same language; names, numbers, cards
and hexes are values and stay as they are. ``python -m service.i18n update`` extracts the
msgids (the keyword is ``msg``), so a new sentence cannot be missed by the catalogues.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeAlias

log = logging.getLogger(__name__)

#: msgid -> the template in one language (gettext's ``gettext``); the msgid itself if unknown.
Translate = Callable[[str], str]


@dataclass(frozen=True)
class Msg:
    """One sentence: its English template (the msgid) and the values it is filled with."""

    text: str
    values: tuple[tuple[str, Any], ...] = ()

    def __str__(self) -> str:
        return render(self)


@dataclass(frozen=True)
class Joined:
    """Sentences (or names) said one after another, with a separator that may be a word."""

    parts: tuple[Sentence, ...]
    separator: Sentence = " "

    def __str__(self) -> str:
        return render(self)


@dataclass(frozen=True)
class Capitalized:
    """A sentence said with a capital first letter (a list of clauses opening a note)."""

    text: Sentence

    def __str__(self) -> str:
        return render(self)


#: What a step's action or note is: plain text (said as it is), a sentence, or a sequence.
Sentence: TypeAlias = "str | Msg | Joined | Capitalized"


def msg(text: str, **values: Any) -> Msg:
    """The sentence `text` (a msgid) with its values; the marker the extractor looks for."""
    return Msg(text, tuple(values.items()))


def join(parts: list[Sentence] | tuple[Sentence, ...], separator: Sentence = " ") -> Joined:
    """`parts` said in turn, `separator` between them ("A or B": separator msg(" or "))."""
    return Joined(tuple(parts), separator)


def _fill(template: str, values: dict[str, Any]) -> str:
    return template % values if values else template


def render(text: Sentence, translate: Translate | None = None) -> str:
    """`text` in English (no `translate`), else in the language `translate` gives."""
    if isinstance(text, str):
        return text
    if isinstance(text, Joined):
        separator = render(text.separator, translate)
        return separator.join(render(part, translate) for part in text.parts)
    if isinstance(text, Capitalized):
        said = render(text.text, translate)
        # The English has always been str.capitalize()d (which also lowers "Gloomhaven" in
        # it) and stays byte for byte as it was; other languages keep their capitals (German
        # nouns).
        return said.capitalize() if translate is None else said[:1].upper() + said[1:]
    values = {
        name: render(value, translate) if isinstance(value, (Msg, Joined, Capitalized)) else value
        for name, value in text.values
    }
    if translate is None:
        return _fill(text.text, values)
    try:
        return _fill(translate(text.text), values)
    except (KeyError, ValueError, TypeError):
        # A catalogue whose placeholders do not match the msgid's (the i18n tests refuse one):
        # the English sentence rather than no answer.
        log.warning("translation of %r does not fit its values; English used", text.text)
        return _fill(text.text, values)


__all__ = ["Capitalized", "Joined", "Msg", "Sentence", "Translate", "join", "msg", "render"]
