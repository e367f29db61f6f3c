"""The reader's vocabulary: per-language word tables loaded from ``vocab/<lang>.yaml``.

Words are compared folded (case- and accent-insensitive). An entry ending in ``*`` matches
any word it starts; an entry with spaces is a phrase. A language's table is merged over the
English one, because players mix English game terms into every language ("Shield 1",
"attack 5"); where both define the same key, the asker's language wins.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import yaml

from checker.base import GAMES
from indexer.archive.load import ArchiveError, load_games
from indexer.language import LANGUAGES
from indexer.paths import DEFAULT_ARCHIVE
from indexer.text import fold

logger = logging.getLogger(__name__)

VOCAB_DIR = Path(__file__).parent / "vocab"
LANGS = LANGUAGES
# Typos are forgiven (one edit or swap) only on words this long, and only towards the terms
# players misspell that no common word is one edit away from (common words were misread before
# this list: docs/decisions.md).
FUZZY_MIN = 6
FUZZY_CONCEPTS = frozenset(
    {
        "attack",
        "damage",
        "shield",
        "initiative",
        "exhausted",
        "advantage",
        "disadvantage",
        "discard",
        "brittle",
        "rolling",
    }
)
_WORD = re.compile(r"[^\W\d_]+")


def phrase_words(text: str) -> tuple[str, ...]:
    """The folded words of a vocabulary entry, as the tokenizer splits a question."""
    return tuple(_WORD.findall(fold(text)))


def edit_distance_at_most_one(a: str, b: str) -> bool:
    """True when `a` becomes `b` by at most one insertion, deletion, substitution or swap."""
    if a == b:
        return True
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
        if len(diff) == 1:
            return True
        return (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and a[diff[0]] == b[diff[1]]
            and a[diff[1]] == b[diff[0]]
        )
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    i = 0
    while i < len(short) and short[i] == long_[i]:
        i += 1
    return short[i:] == long_[i + 1 :]


@dataclass(frozen=True)
class Entry:
    """One vocabulary entry: the words of the phrase, and whether the last is a prefix."""

    words: tuple[str, ...]
    prefix: bool
    concept: str
    native: bool = True  # from the asker's own language (False: from the English table)


def _rank(entry: Entry) -> tuple[int, bool, bool, int]:
    """Longest phrase first; then the asker's own word; a whole word over a prefix; the
    longer prefix ("angriffsmodifikator*" over "angriff*")."""
    return len(entry.words), entry.native, not entry.prefix, len(entry.words[-1])


@dataclass
class Lexicon:
    """The merged tables of one language, ready for matching."""

    lang: str
    numbers: dict[str, int]
    weak_numbers: dict[str, int]
    zero_words: frozenset[str]
    entries: dict[str, list[Entry]]  # first word (or prefix stem) -> entries
    prefixes: list[Entry]
    summary: dict[str, str]
    fields: dict[str, str]
    attacker: tuple[tuple[str, ...], ...]  # phrases saying the asker attacks
    singular: frozenset[int]  # counts said with a singular noun ("1 danno")
    not_typos: frozenset[str]  # real words one edit from a term ("aantal", not "aanval")
    typo_targets: list[Entry] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        every = [e for group in self.entries.values() for e in group] + self.prefixes
        self.typo_targets = [
            e
            for e in every
            if len(e.words) == 1 and e.concept in FUZZY_CONCEPTS and len(e.words[0]) >= FUZZY_MIN
        ]

    def match_at(self, words: list[str], i: int) -> Entry | None:
        """The longest entry matching the folded words from position `i`."""
        best: Entry | None = None
        candidates = list(self.entries.get(words[i], ()))
        candidates += [e for e in self.prefixes if words[i].startswith(e.words[0])]
        for entry in candidates:
            n = len(entry.words)
            if i + n > len(words) or not self._fits(entry, words[i : i + n]):
                continue
            if best is None or _rank(entry) > _rank(best):
                best = entry
        return best

    @staticmethod
    def _fits(entry: Entry, words: list[str]) -> bool:
        *head, last = entry.words
        if list(head) != words[:-1]:
            return False
        return words[-1].startswith(last) if entry.prefix else words[-1] == last

    def fuzzy(self, word: str) -> Entry | None:
        """A one-word entry the (misspelt) word is one edit away from, if exactly one concept."""
        if len(word) < FUZZY_MIN or word in self.not_typos:
            return None
        found: dict[str, Entry] = {}
        for entry in self.typo_targets:
            stem = entry.words[0]
            pieces = (
                [word[:k] for k in (len(stem) - 1, len(stem), len(stem) + 1)]
                if entry.prefix
                else [word]
            )
            if any(edit_distance_at_most_one(p, stem) for p in pieces):
                found.setdefault(entry.concept, entry)
        return next(iter(found.values())) if len(found) == 1 else None


def _load_yaml(name: str) -> dict[str, Any]:
    path = VOCAB_DIR / f"{name}.yaml"
    with path.open(encoding="utf-8") as handle:
        data = yaml.safe_load(handle) or {}
    if not isinstance(data, dict):
        raise ValueError(f"{path.name}: the vocabulary must be a mapping")
    _check_words(data, path.name)
    return data


def _check_words(data: Any, where: str) -> None:
    """Every word and key a string: YAML reads a bare no / null / on as a boolean or None."""
    if isinstance(data, dict):
        for key, value in data.items():
            if not isinstance(key, str):
                raise ValueError(f"{where}: key {key!r} is not a string (quote it)")
            _check_words(value, f"{where}: {key}")
    elif isinstance(data, list):
        for item in data:
            if not isinstance(item, str):
                raise ValueError(f"{where}: entry {item!r} is not a string (quote it)")


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """The asker's table `over` on top of the English `base` (terms are kept apart).

    Number words and summary sentences: the asker's language over English (English "one"
    stays understood). Weak numbers and zero words are the asker's only: English "a" is a
    preposition in Spanish and Italian.
    """
    merged = dict(base)
    for key, value in over.items():
        if key in ("summary", "fields", "numbers") and isinstance(value, dict):
            merged[key] = {**(base.get(key) or {}), **value}
        elif key != "terms":
            merged[key] = value
    for key in ("weak_numbers", "zero_words"):
        merged[key] = over.get(key) or ({} if key == "weak_numbers" else [])
    return merged


def _entries(
    terms: dict[str, list[str]], native: bool
) -> tuple[dict[str, list[Entry]], list[Entry]]:
    exact: dict[str, list[Entry]] = {}
    prefixes: list[Entry] = []
    for concept, words in terms.items():
        for text in words or ():
            prefix = str(text).endswith("*")
            parts = phrase_words(str(text).rstrip("*"))
            if not parts:
                continue
            entry = Entry(parts, prefix, concept, native)
            if prefix and len(parts) == 1:
                prefixes.append(entry)
            else:
                exact.setdefault(parts[0], []).append(entry)
    return exact, prefixes


@lru_cache(maxsize=1)
def game_names() -> dict[str, list[str]]:
    """The checker games' names as the archive's games registry lists them (``game.<id>`` ->
    id, name and aliases): the one vocabulary of game names, shared with the question
    analysis of search (``rulings/games.yaml``)."""
    try:
        games, _ = load_games(DEFAULT_ARCHIVE)
    except ArchiveError as exc:  # an install without the archive beside the code
        logger.warning("game names not read (%s): the reader knows the games by id", exc.message)
        return {f"game.{gid}": [gid] for gid in GAMES}
    return {
        f"game.{gid}": [games[gid].id, games[gid].name, *games[gid].aliases]
        for gid in GAMES
        if gid in games
    }


@cache
def lexicon(lang: str) -> Lexicon:
    """The merged vocabulary of `lang` (English alone for an unknown language)."""
    if lang not in LANGS:
        logger.info("no reader vocabulary for language %r: English is used", lang)
        lang = "en"
    english = _load_yaml("en")
    own = _load_yaml(lang) if lang != "en" else english
    data = _merge(english, own) if lang != "en" else english
    names = {**(_load_yaml("names").get("terms") or {}), **game_names()}
    exact, prefixes = _entries({**(own.get("terms") or {})}, native=True)
    for table, native in (
        (names, True),
        (english.get("terms") or {} if lang != "en" else {}, False),
    ):
        more_exact, more_prefixes = _entries(table, native)
        for word, group in more_exact.items():
            exact.setdefault(word, []).extend(group)
        prefixes += more_prefixes
    return Lexicon(
        lang=lang,
        numbers={fold(k): int(v) for k, v in (data.get("numbers") or {}).items()},
        weak_numbers={fold(k): int(v) for k, v in (data.get("weak_numbers") or {}).items()},
        zero_words=frozenset(fold(w) for w in data.get("zero_words") or ()),
        entries=exact,
        prefixes=prefixes,
        summary=dict(data.get("summary") or {}),
        fields=dict(data.get("fields") or {}),
        singular=frozenset(int(n) for n in own.get("singular") or ()),
        not_typos=frozenset(fold(w) for w in own.get("not_typos") or ()),
        attacker=tuple(
            phrase_words(p)
            for p in [*(english.get("attacker") or ()), *(own.get("attacker") or ())]
            if phrase_words(p)
        ),
    )


__all__ = [
    "LANGS",
    "Entry",
    "Lexicon",
    "fold",
    "lexicon",
    "phrase_words",
    "edit_distance_at_most_one",
]
