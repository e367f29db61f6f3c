"""Question analysis, done once per question: what search, decline and the engine all read.

A ``Question`` holds the folded text, the language, the games it names (by name, alias, or a
class or monster only one game has), a leading "Frosthaven:" label (dropped before matching:
the game is a filter, not text to match), a game the archive holds nothing for, and the cards
it names. The ``QuestionAnalyser`` finds all names in one pass of one compiled pattern.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from indexer.archive.cards import CardLookup
from indexer.archive.schema import Archive
from indexer.language import LANGUAGES, detect_language
from indexer.text import fold, tokens_of_folded

# A leading game label: "Frosthaven: ...", "FH - ...", "Gloomhaven, ...".
_LABEL_SEPARATOR = re.compile(r"\s*[:;,.\-\u2013\u2014]+\s*")
# Words that make a one-word game name ("Root", "Azul", "Clank") a game beside them: "in Root",
# "Root rules", "jeu Azul". Without one (or a capital mid-sentence, or a "Root:" label) the word
# is taken as a word: "can I root a monster?" is not about the game Root.
# ("i", "a" and "de" are left out: the English pronoun and the articles would match anything.)
_GAME_CONTEXT = frozenset(
    """in im en dans nel nella bij au al del di van von of for fur
    pour per para play playing plays spiel spielen jeu jouer juego jugar gioco giocare spil
    spille spel spelen game games rules regeln regles reglas regole regels regler""".split()
)


@dataclass(frozen=True)
class Mention:
    """A name found in the question: where, and which game it names (None: another game)."""

    start: int
    end: int
    game: str | None
    name: str


@dataclass(frozen=True)
class Question:
    """One analysed question."""

    text: str  # as asked (stripped)
    lang: str  # given, or detected (English when unsure)
    game: str | None  # given, else the one game it names; None when none or several
    given_game: bool  # the caller chose the game (a filter, not a guess)
    mentions: tuple[Mention, ...]  # every game name, alias or class / monster hint, in order
    body: str  # the question without a leading game label: what is matched
    folded_body: str
    cards: dict[str, float]  # record id -> score of the cards the body names

    @cached_property
    def tokens(self) -> list[str]:
        """BM25 tokens of the body in the question's language."""
        return tokens_of_folded(self.folded_body, self.lang)

    @property
    def games_named(self) -> frozenset[str]:
        """The archive's games the question names."""
        return frozenset(m.game for m in self.mentions if m.game)

    @property
    def other_game(self) -> str | None:
        """The name of a game the archive holds nothing for, if the question is about one."""
        return next((m.name for m in self.mentions if m.game is None), None)


class QuestionAnalyser:
    """Analyses questions against one archive's names (games, aliases, hints, other games)."""

    def __init__(self, archive: Archive, cards: CardLookup | None = None):
        self.cards = cards or CardLookup(archive)
        names: dict[str, str | None] = {}
        names.update(self._unique_card_games(archive))
        names.update(archive.game_names())
        self._label_names = frozenset(archive.game_names())
        for other in archive.other_games:
            names.setdefault(fold(other), None)
        self._names = names
        # One alternation, longest names first so "gloomhaven 1e" wins over "gloomhaven".
        alternation = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
        self._pattern = re.compile(rf"(?<!\w)(?:{alternation})(?!\w)") if names else None

    @staticmethod
    def _unique_card_games(archive: Archive) -> dict[str, str]:
        """Folded class / monster names that exist in only one game -> that game."""
        owners: dict[str, set[str]] = {}
        for rec in archive.records.values():
            for card in rec.cards:
                if card.type in ("class", "monster"):
                    owners.setdefault(fold(card.name), set()).add(rec.game)
        return {name: games.pop() for name, games in owners.items() if len(games) == 1}

    def mentions(self, folded: str) -> tuple[Mention, ...]:
        """Every name in a folded text, in order of appearance."""
        if self._pattern is None:
            return ()
        return tuple(
            Mention(m.start(), m.end(), self._names[m.group()], m.group())
            for m in self._pattern.finditer(folded)
        )

    def _names_a_game(self, text: str, folded: str, m: Mention) -> bool:
        """Whether a one-word name of another game is used as the game's name here."""
        if " " in m.name or not m.name.isalpha():
            return True  # "Spirit Island", "Ticket to Ride": a game whatever the context
        before = folded[: m.start].split()
        after = folded[m.end :].split()
        if (before and before[-1] in _GAME_CONTEXT) or (
            after and after[0].strip(".,:;!?") in _GAME_CONTEXT
        ):
            return True
        if not folded[: m.start].strip() and _LABEL_SEPARATOR.match(folded, m.end):
            return True  # "Root: ..."
        if len(folded) != len(text):
            return False
        # A capital letter mid-sentence is a name: "does the Cat in Root move?"
        head = text[: m.start].rstrip()
        return text[m.start].isupper() and bool(head) and head[-1] not in ".!?:;"

    def _label_end(self, text: str, folded: str, mentions: tuple[Mention, ...]) -> int:
        first = mentions[0] if mentions else None
        if first is None or first.name not in self._label_names or folded[: first.start].strip():
            return 0
        sep = _LABEL_SEPARATOR.match(folded, first.end)
        if sep is None or sep.end() >= len(folded):
            return 0
        # Folding keeps the length of these texts' characters, so the offset carries over.
        return sep.end() if len(folded) == len(text) else 0

    def analyse(
        self,
        text: str,
        *,
        game: str | None = None,
        lang: str | None = None,
        hint: str | None = None,
    ) -> Question:
        """Analyse `text`; `game` and `lang` are the caller's choices (validated ids) or None,
        `hint` the reader's language, a prior for detecting the question's."""
        text = text.strip()
        folded = fold(text)
        mentions = tuple(
            m
            for m in self.mentions(folded)
            if m.game is not None or self._names_a_game(text, folded, m)
        )
        label_end = self._label_end(text, folded, mentions)
        named = {m.game for m in mentions if m.game}
        resolved = game if game is not None else (named.pop() if len(named) == 1 else None)
        body = text[label_end:]
        folded_body = folded[label_end:] if label_end else folded
        return Question(
            text=text,
            lang=lang if lang in LANGUAGES else detect_language(text, hint=hint),
            game=resolved,
            given_game=game is not None,
            mentions=mentions,
            body=body,
            folded_body=folded_body,
            cards=self.cards.match_folded(folded_body),
        )
