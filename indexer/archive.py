"""The curated archive: the record schema, loading, the games registry and lint.

Records live in ``rulings/records/<id>.yaml``, one ruling each; the games in
``rulings/games.yaml``. Loading is ``yaml.safe_load`` -> a strict pydantic model
(``extra="forbid"``), and every problem becomes one readable line naming file, record and field.
Given a cache file (the service's loads), the records of files unchanged since are taken from
it instead (``indexer.record_cache``).
"""
from __future__ import annotations

import logging
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

import indexer.files
import indexer.text
from indexer.errors import Unavailable
from indexer.files import FAST_LOADER, parse_yaml, read_bytes, read_yaml, write_atomic
from indexer.record_cache import RecordCache, code_fingerprint, content_key
from indexer.text import fold

log = logging.getLogger(__name__)

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_ARCHIVE = REPO_ROOT / "rulings"

#: The languages players ask in; every ruling has text in each (original or translation).
LANGUAGES: tuple[str, ...] = ("en", "nl", "da", "it", "de", "es", "fr")
KINDS: tuple[str, ...] = ("rulebook", "erratum", "clarification", "edge case", "example")
CARD_TYPES: tuple[str, ...] = ("card", "item", "monster", "class", "building", "scenario",
                               "perk", "deck")
ID_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)+$"

Lang = Literal["en", "nl", "da", "it", "de", "es", "fr"]
Kind = Literal["rulebook", "erratum", "clarification", "edge case", "example"]


ASK_MAX_CHARS = 200


class ArchiveError(Unavailable):
    """The archive cannot be loaded; `problems` holds one line per problem."""

    code = "archive_invalid"

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("; ".join(problems[:3]) + (f" (+{len(problems) - 3} more)" if len(problems) > 3 else ""))


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Citation(_Strict):
    """Where a ruling comes from: whichever of these the source gives, nothing invented."""

    source: str = Field(min_length=1)          # the document, e.g. "Frosthaven FAQ"
    pages: list[str] = []                      # as printed; ranges normalised to "25-27"
    page_ref: str | None = None                # the reference exactly as printed, e.g. "(p. 25–27)"
    section: str | None = None
    author: str | None = None
    site: str | None = None
    date: str | None = None
    file: str | None = None                    # the raw source under rulings/sources/
    line: int | None = Field(default=None, ge=1)


class CardRef(_Strict):
    """A card, item, monster, class, building ... that a ruling is about."""

    type: Literal["card", "item", "monster", "class", "building", "scenario", "perk", "deck"]
    name: str = Field(min_length=1)
    of: str | None = None                      # the monster / class a card belongs to

    @property
    def label(self) -> str:
        if self.type in ("item", "building", "scenario") and self.name[:1].isdigit():
            return f"{self.type.title()} {self.name}"
        return f"{self.of} \u201c{self.name}\u201d" if self.of else self.name


class Amends(_Strict):
    """The rulebook passage an erratum amends, as the source names it."""

    section: str | None = None
    pages: list[str] = []
    record: str | None = None                  # the archive record holding that passage, if any


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
                problems.append((field, f"key is {len(key)} characters long (at most {ASK_MAX_CHARS})"))
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
    related: list[str] = []                    # the same rule in other editions
    translations: dict[str, Translation] = {}
    # Our own search keys (questions this ruling answers), never shown as the ruling's text.
    asks: dict[Lang, list[str]] = {}

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

    def languages(self) -> list[str]:
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


def _pydantic_problems(exc: ValidationError) -> list[tuple[str, str]]:
    out = []
    for err in exc.errors():
        if isinstance(err.get("ctx", {}).get("error"), AskKeyError):
            out.extend(err["ctx"]["error"].problems)  # one line per bad key, not one for them all
            continue
        loc = [str(p) for p in err["loc"]]
        if loc[-1:] == ["[key]"] and err["type"] == "literal_error":  # a mapping key, e.g. asks.pt
            out.append((".".join(loc[:-1]), f"language not in the list ({', '.join(LANGUAGES)})"))
            continue
        if loc[0] == "asks" and len(loc) == 3:  # asks.en[2], as lint names a key
            loc = ["asks", f"{loc[1]}[{loc[2]}]"]
        field = ".".join(loc) or "(record)"
        msg = err["msg"]
        if err["type"] == "extra_forbidden":
            msg = "unknown field"
        elif err["type"] == "missing":
            msg = "missing"
        elif err["type"] == "literal_error":
            msg = f"must be {err['ctx']['expected']} (got {err['input']!r})"
        out.append((field, msg))
    return out


def load_games(root: Path) -> tuple[dict[str, Game], tuple[str, ...]]:
    path = root / "games.yaml"
    data, err = read_yaml(path)
    if err:
        raise ArchiveError([f"{path}: {err}"])
    try:
        parsed = GamesFile.model_validate(data)
    except ValidationError as exc:
        raise ArchiveError([f"{path}: field {f}: {m}" for f, m in _pydantic_problems(exc)]) from None
    return {g.id: g for g in parsed.games}, tuple(parsed.other_games)


def _record(raw: bytes, rel: str) -> tuple[Ruling | None, list[str]]:
    """One record file's bytes parsed and validated: (the record, []) or (None, its problems)."""
    data, err = parse_yaml(raw)
    if err:
        return None, [f"{rel}: {err}"]
    if not isinstance(data, dict):
        return None, [f"{rel}: the file must hold one record (a mapping), not {type(data).__name__}"]
    rid = str(data.get("id", "?"))
    try:
        return Ruling.model_validate(data), []
    except ValidationError as exc:
        return None, [f"{rel}: {rid}: {field}: {msg}" for field, msg in _pydantic_problems(exc)]


def _record_files(record_dir: Path) -> list[str]:
    """The names of the record files, sorted: what ``sorted(record_dir.glob("*.yaml"))`` gave
    (one folder: the same order), without a Path object per file."""
    try:
        return sorted(n for n in os.listdir(record_dir) if n.endswith(".yaml"))
    except (FileNotFoundError, NotADirectoryError, PermissionError):
        return []   # as glob: no folder, or one that cannot be listed, holds no records


def check_archive(root: Path = DEFAULT_ARCHIVE, *,
                  cache: Path | None = None) -> tuple[Archive | None, list[str], list[str]]:
    """Load and validate everything; returns (archive or None, problems, warnings).

    Each problem is one line: ``file: record id: field: what is wrong``. With `cache` (a file),
    records whose files are unchanged since a load that used it are taken from it instead of
    parsed again (``indexer.record_cache``); the result is the same.
    """
    problems: list[str] = []
    warnings: list[str] = []
    try:
        games, other_games = load_games(root)
    except ArchiveError as exc:
        return None, exc.problems, warnings
    records: dict[str, Ruling] = {}
    files_of: dict[str, str] = {}       # record id -> its file, as lint names it
    record_dir = root / "records"
    names = _record_files(record_dir)
    if not names:
        warnings.append(f"{record_dir}: no records (*.yaml) yet")
    # A record depends on its file, this module (the schema, its validators), the reading
    # of YAML and `fold`.
    store = RecordCache(cache, code_fingerprint(__file__, indexer.files.__file__, indexer.text.__file__,
                                                extra=FAST_LOADER.__name__), Ruling)
    rel_dir = _rel(record_dir, root)
    for name in names:
        # One folder: each file's name as `_rel` would give it, without a Path per file.
        rel = f"{rel_dir}{os.sep}{name}"
        raw, err = read_bytes(os.path.join(record_dir, name))
        if err:
            problems.append(f"{rel}: {err}")
            continue
        key = content_key(raw)
        rec = store.get(key)
        if rec is None:
            rec, errors = _record(raw, rel)
            if rec is None:
                problems.extend(errors)
                continue
            store.put(key, rec)
        if rec.id in records:
            problems.append(f"{rel}: {rec.id}: id: duplicate id (also in {files_of[rec.id]})")
            continue
        stem = name[:-5] if len(name) > 5 else name     # Path.stem: ".yaml" is all stem
        if stem != rec.id:
            problems.append(f"{rel}: {rec.id}: id: does not match the file name '{stem}.yaml'")
        records[rec.id] = rec
        files_of[rec.id] = rel
    store.save()
    for rid, rec in records.items():
        rel = files_of[rid]
        if rec.game not in games:
            problems.append(f"{rel}: {rid}: game: unknown game {rec.game!r} (known: {', '.join(games)})")
        for other in rec.related:
            if other == rid:
                problems.append(f"{rel}: {rid}: related: links to itself")
            elif other not in records:
                problems.append(f"{rel}: {rid}: related: unknown record {other!r}")
            elif rid not in records[other].related:
                problems.append(f"{rel}: {rid}: related: {other!r} does not link back")
        for i, amend in enumerate(rec.amends):
            if amend.record and amend.record not in records:
                problems.append(f"{rel}: {rid}: amends.{i}.record: unknown record {amend.record!r}")
        problems.extend(_translation_problems(rel, rec, records))
        missing = [lang for lang in LANGUAGES if lang != rec.lang and lang not in rec.translations]
        if missing:
            warnings.append(f"{rel}: {rid}: translations: none yet for {', '.join(missing)}")
        unkeyed = [lang for lang in LANGUAGES if not rec.asks.get(lang)]
        if unkeyed:
            warnings.append(f"{rel}: {rid}: asks: no search keys yet for {', '.join(unkeyed)}")
    if problems:
        return None, problems, warnings
    return Archive(root=root, records=records, games=games, other_games=other_games), problems, warnings


def _translation_problems(rel: str, rec: Ruling, records: dict[str, Ruling]) -> list[str]:
    """Lint lines for one record's translations: language, text, and the editions they name."""
    problems: list[str] = []
    rid = rec.id
    for lang, tr in rec.translations.items():
        if lang not in LANGUAGES:
            problems.append(f"{rel}: {rid}: translations.{lang}: language not in the list "
                            f"({', '.join(LANGUAGES)})")
        elif lang == rec.lang:
            problems.append(f"{rel}: {rid}: translations.{lang}: the original is already in {lang}")
        if not tr.text.strip():
            problems.append(f"{rel}: {rid}: translations.{lang}.text: text is empty")
        if tr.edition_of and tr.edition_of not in records:
            problems.append(f"{rel}: {rid}: translations.{lang}.edition_of: unknown record {tr.edition_of!r}")
        elif tr.edition_of:
            # An official edition is the same rule in another record: linked, in that language.
            edition = records[tr.edition_of]
            if edition.lang != lang:
                problems.append(f"{rel}: {rid}: translations.{lang}.edition_of: {tr.edition_of!r} "
                                f"is in {edition.lang}, not {lang}")
            if tr.edition_of not in rec.related:
                problems.append(f"{rel}: {rid}: translations.{lang}.edition_of: {tr.edition_of!r} "
                                f"is not in related")
    return problems


def load_archive(root: Path | str = DEFAULT_ARCHIVE, *, cache: Path | None = None) -> Archive:
    """Load the archive or raise ArchiveError listing every problem; `cache`: see check_archive."""
    archive, problems, _ = check_archive(Path(root), cache=cache)
    if archive is None:
        raise ArchiveError(problems)
    log.info("loaded %d rulings from %s", len(archive), root)
    return archive


def _rel(path: Path, root: Path) -> str:
    try:
        return str(path.relative_to(root.parent))
    except ValueError:
        return str(path)


class _Dumper(yaml.SafeDumper):
    """Readable YAML: long texts as folded blocks, keys in schema order."""


def _str_representer(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    # Folded blocks keep long rulings readable in review; plain style would re-wrap them anyway.
    if len(value) > 80 and "\n" not in value and value == value.strip() and "  " not in value:
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=">")
    return dumper.represent_scalar("tag:yaml.org,2002:str", value)


_Dumper.add_representer(str, _str_representer)


def record_to_yaml(rec: Ruling) -> str:
    data = rec.model_dump(mode="json", exclude_defaults=True)
    # Always keep the fields that say what a record is, even when empty.
    ordered = {k: data[k] for k in ("id", "game", "kind", "lang")}
    ordered.update({k: v for k, v in data.items() if k not in ordered})
    return yaml.dump(ordered, Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=96)


def write_record(rec: Ruling, root: Path = DEFAULT_ARCHIVE) -> Path:
    path = root / "records" / f"{rec.id}.yaml"
    write_atomic(path, record_to_yaml(rec))
    return path

