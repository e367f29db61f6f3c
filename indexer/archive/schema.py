"""The record schema: a ruling, its citation, cards and translations; the games registry.

Loading is ``yaml.safe_load`` -> these strict pydantic models (``extra="forbid"``): unknown fields
are refused and every problem names its field (``indexer.archive.load``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator

from indexer.language import LANGUAGES, Lang
from indexer.text import fold

#: What a ruling is: a rulebook passage, or an official FAQ's erratum, clarification or edge
#: case, or an example answer.
Kind = Literal["rulebook", "erratum", "clarification", "edge case", "example"]
KINDS: tuple[Kind, ...] = get_args(Kind)
CARD_TYPES: tuple[str, ...] = (
    "card",
    "item",
    "monster",
    "class",
    "building",
    "scenario",
    "perk",
    "deck",
)
ID_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)+$"


ASK_MAX_CHARS = 200


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Citation(_Strict):
    """Where a ruling comes from: whichever of these the source gives, nothing invented."""

    source: str = Field(min_length=1)  # the document, e.g. "Frosthaven FAQ"
    pages: list[str] = []  # as printed; ranges normalised to "25-27"
    page_ref: str | None = None  # the reference exactly as printed, e.g. "(p. 25–27)"
    section: str | None = None
    author: str | None = None
    site: str | None = None
    date: str | None = None
    file: str | None = None  # the raw source under rulings/sources/
    line: int | None = Field(default=None, ge=1)


class CardRef(_Strict):
    """A card, item, monster, class, building ... that a ruling is about."""

    type: Literal["card", "item", "monster", "class", "building", "scenario", "perk", "deck"]
    name: str = Field(min_length=1)
    of: str | None = None  # the monster / class a card belongs to

    @property
    def label(self) -> str:
        if self.type in ("item", "building", "scenario") and self.name[:1].isdigit():
            return f"{self.type.title()} {self.name}"
        return f"{self.of} \u201c{self.name}\u201d" if self.of else self.name


class Amends(_Strict):
    """The rulebook passage an erratum amends, as the source names it."""

    section: str | None = None
    pages: list[str] = []
    record: str | None = None  # the archive record holding that passage, if any


class Translation(_Strict):
    """A translation of a ruling. The original stays the authority and is shown beside it."""

    title: str | None = None
    context: str | None = None
    text: str
    # Set when the text is another official edition's wording of the same rule (e.g. the Italian
    # rulebook for a Dutch paragraph) rather than our own translation.
    edition_of: str | None = None


class AskKeyError(ValueError):
    """Bad `asks` keys; `problems` holds one (field, message) per key so lint can name each."""

    def __init__(self, problems: list[tuple[str, str]]):
        self.problems = problems
        super().__init__("; ".join(f"{field}: {msg}" for field, msg in problems))


def ask_problems(asks: dict[str, list[str]]) -> list[tuple[str, str]]:
    """(field, message) for every bad search key: empty, too long, or a folded duplicate."""
    problems: list[tuple[str, str]] = []
    for lang, keys in asks.items():
        first_of: dict[str, int] = {}
        for i, key in enumerate(keys):
            field = f"asks.{lang}[{i}]"
            folded = " ".join(fold(key).split())
            if not folded:
                problems.append((field, "key is empty"))
            elif len(key) > ASK_MAX_CHARS:
                problems.append(
                    (field, f"key is {len(key)} characters long (at most {ASK_MAX_CHARS})")
                )
            elif folded in first_of:
                problems.append((field, f"duplicate of asks.{lang}[{first_of[folded]}]"))
            else:
                first_of[folded] = i
    return problems


class Ruling(_Strict):
    """One curated ruling: the original text verbatim, with its citation."""

    id: str = Field(pattern=ID_PATTERN)
    game: str
    kind: Kind
    lang: Lang
    title: str | None = None
    context_label: Literal["CONTEXT", "SITUATION"] | None = None
    context: str | None = None
    text: str
    citation: Citation
    cards: list[CardRef] = []
    amends: list[Amends] = []
    related: list[str] = []  # the same rule in other editions
    translations: dict[str, Translation] = {}
    # Our own search keys (questions this ruling answers), never shown as the ruling's text.
    asks: dict[Lang, list[str]] = {}
    # False for a record imported from a document and not curated yet (no translations or
    # search keys of ours): lint --strict lists it until someone curates it.
    curated: bool = True

    @field_validator("text")
    @classmethod
    def _text_not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("text is empty")
        return value

    @field_validator("asks")
    @classmethod
    def _asks_are_usable_keys(cls, value: dict[str, list[str]]) -> dict[str, list[str]]:
        problems = ask_problems(value)
        if problems:
            raise AskKeyError(problems)
        return value

    def version(self, lang: str) -> tuple[str, str | None, str | None]:
        """(text, title, context) in `lang`: the original, or the translation into it."""
        if lang == self.lang:
            return self.text, self.title, self.context
        tr = self.translations.get(lang)
        if tr is None:
            return self.text, self.title, self.context
        return tr.text, tr.title or self.title, tr.context

    def languages(self) -> list[Lang]:
        return [self.lang] + [lang for lang in LANGUAGES if lang in self.translations]


class Game(_Strict):
    id: str = Field(pattern=r"^[a-z0-9-]+$")
    name: str
    prefix: str = Field(pattern=r"^[a-z0-9]+$")
    aliases: list[str] = []
    # A question that names no game is about one of these (the service's own games); the
    # rulings of the others (the FAQ page's examples) answer only questions that name them.
    implied: bool = False


class GamesFile(_Strict):
    games: list[Game]
    other_games: list[str] = []


@dataclass(frozen=True)
class Archive:
    """The loaded archive: records by id (in id order within file order) and the games."""

    root: Path
    records: dict[str, Ruling]
    games: dict[str, Game]
    other_games: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.records)

    def get(self, record_id: str) -> Ruling | None:
        return self.records.get(record_id)

    def edition_group(self, record_id: str) -> tuple[str, ...]:
        """The record and every record linked to it as the same rule, sorted."""
        rec = self.records[record_id]
        return tuple(sorted({record_id, *rec.related}))

    def game_names(self) -> dict[str, str]:
        """Folded name or alias -> game id."""
        names: dict[str, str] = {}
        for game in self.games.values():
            for name in (game.id, game.name, *game.aliases):
                names[fold(name)] = game.id
        return names
