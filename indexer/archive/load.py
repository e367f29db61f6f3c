"""Loading and linting the archive: every problem one readable line naming file, record and field.

Records live in ``rulings/records/<id>.yaml``, one ruling each; the games in
``rulings/games.yaml``. Given a cache file (the service's loads), the records of files unchanged
since are taken from it instead (``indexer.archive.record_cache``).
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from pydantic import ValidationError

import indexer.archive.schema
import indexer.files
import indexer.text
from indexer.archive.record_cache import RecordCache, code_fingerprint, content_key
from indexer.archive.schema import LANGUAGES, Archive, AskKeyError, Game, GamesFile, Ruling
from indexer.errors import Unavailable
from indexer.files import FAST_LOADER, parse_yaml, read_bytes, read_yaml
from indexer.paths import DEFAULT_ARCHIVE

log = logging.getLogger(__name__)


class ArchiveError(Unavailable):
    """The archive cannot be loaded; `problems` holds one line per problem."""

    code = "archive_invalid"

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__(
            "; ".join(problems[:3]) + (f" (+{len(problems) - 3} more)" if len(problems) > 3 else "")
        )


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
        raise ArchiveError(
            [f"{path}: field {f}: {m}" for f, m in _pydantic_problems(exc)]
        ) from None
    return {g.id: g for g in parsed.games}, tuple(parsed.other_games)


def _record(raw: bytes, rel: str) -> tuple[Ruling | None, list[str]]:
    """One record file's bytes parsed and validated: (the record, []) or (None, its problems)."""
    data, err = parse_yaml(raw)
    if err:
        return None, [f"{rel}: {err}"]
    if not isinstance(data, dict):
        return None, [
            f"{rel}: the file must hold one record (a mapping), not {type(data).__name__}"
        ]
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
        return []  # as glob: no folder, or one that cannot be listed, holds no records


def check_archive(
    root: Path = DEFAULT_ARCHIVE, *, cache: Path | None = None
) -> tuple[Archive | None, list[str], list[str]]:
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
    files_of: dict[str, str] = {}  # record id -> its file, as lint names it
    record_dir = root / "records"
    names = _record_files(record_dir)
    if not names:
        warnings.append(f"{record_dir}: no records (*.yaml) yet")
    # A record depends on its file, the schema (its validators), this module, the reading of
    # YAML and `fold`.
    store = RecordCache(
        cache,
        code_fingerprint(
            indexer.archive.schema.__file__,
            __file__,
            indexer.files.__file__,
            indexer.text.__file__,
            extra=FAST_LOADER.__name__,
        ),
        Ruling,
    )
    rel_dir = _rel(record_dir, root)
    for name in names:
        # One folder: each file's name as `_rel` would give it, without a Path per file.
        rel = f"{rel_dir}{os.sep}{name}"
        raw, err = read_bytes(os.path.join(record_dir, name))
        if err:
            problems.append(f"{rel}: {err}")
            continue
        assert raw is not None  # read_bytes gives the bytes whenever it gives no error
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
        stem = name[:-5] if len(name) > 5 else name  # Path.stem: ".yaml" is all stem
        if stem != rec.id:
            problems.append(f"{rel}: {rec.id}: id: does not match the file name '{stem}.yaml'")
        records[rec.id] = rec
        files_of[rec.id] = rel
    store.save()
    for rid, rec in records.items():
        _cross_record_checks(files_of[rid], rec, records, games, problems, warnings)
    if problems:
        return None, problems, warnings
    return (
        Archive(root=root, records=records, games=games, other_games=other_games),
        problems,
        warnings,
    )


def _cross_record_checks(
    rel: str,
    rec: Ruling,
    records: dict[str, Ruling],
    games: dict[str, Game],
    problems: list[str],
    warnings: list[str],
) -> None:
    """What one record must agree on with the others: its game, links, amended records and
    editions (problems), and the languages it still lacks (warnings)."""
    rid = rec.id
    if rec.game not in games:
        problems.append(
            f"{rel}: {rid}: game: unknown game {rec.game!r} (known: {', '.join(games)})"
        )
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
    if not rec.curated:
        warnings.append(f"{rel}: {rid}: curated: imported, not curated yet")
    unkeyed = [lang for lang in LANGUAGES if not rec.asks.get(lang)]
    if unkeyed:
        warnings.append(f"{rel}: {rid}: asks: no search keys yet for {', '.join(unkeyed)}")


def _translation_problems(rel: str, rec: Ruling, records: dict[str, Ruling]) -> list[str]:
    """Lint lines for one record's translations: language, text, and the editions they name."""
    problems: list[str] = []
    rid = rec.id
    for lang, tr in rec.translations.items():
        if lang not in LANGUAGES:
            problems.append(
                f"{rel}: {rid}: translations.{lang}: language not in the list ({', '.join(LANGUAGES)})"
            )
        elif lang == rec.lang:
            problems.append(f"{rel}: {rid}: translations.{lang}: the original is already in {lang}")
        if not tr.text.strip():
            problems.append(f"{rel}: {rid}: translations.{lang}.text: text is empty")
        if tr.edition_of and tr.edition_of not in records:
            problems.append(
                f"{rel}: {rid}: translations.{lang}.edition_of: unknown record {tr.edition_of!r}"
            )
        elif tr.edition_of:
            # An official edition is the same rule in another record: linked, in that language.
            edition = records[tr.edition_of]
            if edition.lang != lang:
                problems.append(
                    f"{rel}: {rid}: translations.{lang}.edition_of: {tr.edition_of!r} is in {edition.lang}, not {lang}"
                )
            if tr.edition_of not in rec.related:
                problems.append(
                    f"{rel}: {rid}: translations.{lang}.edition_of: {tr.edition_of!r} is not in related"
                )
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
