"""A whole rulebook (PDF) or a community's FAQ page (Markdown) imported as records, one per
paragraph or boxed example, each cited to its printed page and section.

The file itself is not copied into the archive (rulebooks are tens of MB and not ours to
publish): ``rulings/sources/<name>.txt`` keeps the text extracted from it, with the file's
SHA-256, and every record cites its line there. Importing the same file again changes
nothing; a new printing of it (another file under the same name) replaces that text and
updates the records that changed, adds the new ones and removes those it no longer holds.
Imported records are labelled uncurated (``curated: false``; ``rulings lint --strict`` lists
them) until someone adds our translations and search keys.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from indexer.archive.schema import Archive, Citation, Ruling
from indexer.archive.sources.document import Document, slug
from indexer.archive.sources.formats import SourceImportError
from indexer.archive.sources.markdown import read_markdown
from indexer.archive.sources.pdf import read_pdf
from indexer.archive.write import record_path, write_record
from indexer.files import write_atomic
from indexer.language import LANGUAGES, Lang, detect_language
from indexer.text import fold

log = logging.getLogger(__name__)

#: What a document file is read with, by its suffix.
DOCUMENT_SUFFIXES = (".pdf", ".md", ".markdown")
#: A PDF whose blocks are mostly shorter than this (in words) was read line by line, not in
#: paragraphs: its layout was not understood. On the sixteen test books read right, at most 3%
#: of blocks are; read wrong, 95% (docs/decisions.md, "A layout read wrong").
FRAGMENT_WORDS = 12
FRAGMENT_SHARE = 0.6
EXTRACTED_MARK = "# extracted from "


@dataclass
class DocumentImport:
    """What importing a document did (or, with dry_run, would do)."""

    source: str  # the extracted text's name under rulings/sources/
    document: Document
    lang: str
    written: list[str] = field(default_factory=list)  # new records
    updated: list[str] = field(default_factory=list)  # records of an earlier printing, changed
    unchanged: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)  # no longer in this printing
    kept: list[str] = field(default_factory=list)  # no longer in it, but linked: kept
    records: list[Ruling] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def unknown_glyphs(self) -> Counter[str]:
        return self.document.unknown_glyphs


def is_document(path: Path) -> bool:
    return Path(path).suffix.lower() in DOCUMENT_SUFFIXES


def read_document(
    path: Path,
    *,
    pages: tuple[int, int] | None = None,
    progress: Callable[[Iterable[Any]], Iterable[Any]] | None = None,
) -> Document:
    """The blocks of a PDF or Markdown file (`pages`: a PDF's page range, 1-based)."""
    path = Path(path)
    try:
        if path.suffix.lower() == ".pdf":
            return read_pdf(path, pages=pages, progress=progress)
        if pages is not None:
            raise SourceImportError(f"{path.name}: --pages is for PDF files")
        return read_markdown(path)
    except (OSError, UnicodeDecodeError) as exc:
        raise SourceImportError(f"{path}: cannot read: {exc}") from None


def document_records(
    doc: Document, archive: Archive, *, game: str, lang: Lang, title: str | None, source: str
) -> list[Ruling]:
    """One record per block, ids from the section ("fh-en-resting-2"), cited to `source`."""
    prefix = archive.games[game].prefix
    _, lines = doc.source_lines()
    name = title or doc.title or Path(doc.file_name).stem
    per_section: Counter[str] = Counter()
    records = []
    for i, block in enumerate(doc.blocks):
        part = slug(block.section)
        per_section[part] += 1
        records.append(
            Ruling(
                id=f"{prefix}-{lang}-{part}-{per_section[part]}",
                game=game,
                kind="rulebook",
                lang=lang,
                title=block.title,
                text=block.text,
                citation=Citation(
                    source=name,
                    pages=[block.page] if block.page else [],
                    page_ref=f"p. {block.page}" if block.page else None,
                    section=block.section or None,
                    file=source,
                    line=lines[i],
                ),
                curated=False,
            )
        )
    return records


def import_document(
    path: Path,
    archive: Archive,
    *,
    game: str,
    lang: str | None = None,
    title: str | None = None,
    pages: tuple[int, int] | None = None,
    dry_run: bool = False,
    force: bool = False,
    progress: Callable[[Iterable[Any]], Iterable[Any]] | None = None,
) -> DocumentImport:
    """Read a document and write its records and extracted text (nothing with `dry_run`). A
    PDF read into fragments is refused (`force`: written all the same); with `dry_run` it is
    a warning of the result."""
    path = Path(path)
    if game not in archive.games:
        raise SourceImportError(
            f"unknown game {game!r} (known: {', '.join(archive.games)}; add it to rulings/games.yaml)"
        )
    doc = read_document(path, pages=pages, progress=progress)
    if not doc.blocks:
        raise SourceImportError(f"{path.name}: no text found (a scanned PDF needs OCR first)")
    lang = lang or detect_language(" ".join(b.text for b in doc.blocks[:40]), default=None)
    if lang not in LANGUAGES:
        raise SourceImportError(
            f"{path.name}: cannot tell the language (give --lang, one of {', '.join(LANGUAGES)})"
        )
    source = f"{path.stem}.txt"
    text, _ = doc.source_lines()
    _check_source_name(archive.root / "sources" / source, text)
    result = DocumentImport(source, doc, lang)
    fragmented = _fragmented(doc)
    if fragmented and not (dry_run or force):
        raise SourceImportError(f"{fragmented}; nothing written (--force writes it all the same)")
    result.warnings += [fragmented] if fragmented else []
    other_game = _title_names_another_game(title or doc.title, archive, game)
    result.warnings += [other_game] if other_game else []
    result.records = document_records(
        doc, archive, game=game, lang=cast(Lang, lang), title=title, source=source
    )
    _plan(result, archive)
    if not dry_run:
        write_atomic(archive.root / "sources" / source, text, mode=0o644)
        for rec in result.records:
            if rec.id in result.written or rec.id in result.updated:
                write_record(rec, archive.root)
        for rid in result.removed:
            record_path(rid, archive.root).unlink(missing_ok=True)
    return result


def _title_names_another_game(title: str | None, archive: Archive, game: str) -> str | None:
    """A warning when the title names another game of the archive and not `game` (a slip of
    `--game` files every record under the wrong game, where its questions never look)."""
    folded = fold(title or "")
    named = {
        gid
        for name, gid in archive.game_names().items()
        if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", folded)
    }
    if not named or game in named:
        return None
    names = ", ".join(sorted(archive.games[g].name for g in named))
    return f"the title {title!r} names {names}, not {archive.games[game].name}: is --game right?"


def _fragmented(doc: Document) -> str | None:
    """Why a PDF looks read line by line rather than in paragraphs, or None: most of its blocks
    (of 20 or more) are shorter than a line of text. Such fragments would be shown as answers
    and crowd out the curated rulings."""
    if not doc.file_name.lower().endswith(".pdf") or len(doc.blocks) < 20:
        return None
    short = sum(len(b.text.split()) < FRAGMENT_WORDS for b in doc.blocks)
    if short <= FRAGMENT_SHARE * len(doc.blocks):
        return None
    return (
        f"{doc.file_name}: {short} of its {len(doc.blocks)} blocks are under {FRAGMENT_WORDS} "
        "words: its page layout was probably not read right (check the outline with --dry-run, "
        "or import fewer --pages)"
    )


def _check_source_name(target: Path, text: str) -> None:
    """A file of that name in sources/ must be an earlier extraction (a printing to replace)."""
    if not target.exists():
        return
    head = target.read_text(encoding="utf-8", errors="replace").splitlines()[1:2]
    if not head or not head[0].startswith(EXTRACTED_MARK):
        raise SourceImportError(
            f"{target.name}: rulings/sources/ already holds a different file of that name; "
            f"rename yours and import again"
        )


def _plan(result: DocumentImport, archive: Archive) -> None:
    """Which records are new, updated, unchanged or gone, against the archive."""
    ours = {rid for rid, rec in archive.records.items() if rec.citation.file == result.source}
    new_ids = set()
    for i, rec in enumerate(result.records):
        existing = archive.records.get(rec.id)
        if existing is not None and rec.id not in ours:
            raise SourceImportError(
                f"{rec.id}: the id is taken by a record of another source "
                f"({existing.citation.file or existing.citation.source})"
            )
        new_ids.add(rec.id)
        if existing is None:
            result.written.append(rec.id)
        elif _same(existing, rec):
            result.unchanged.append(rec.id)
            result.records[i] = existing
        else:
            # A new printing: the text, page or section changed; what curators added stays.
            result.records[i] = existing.model_copy(
                update={"text": rec.text, "title": rec.title, "citation": rec.citation}
            )
            result.updated.append(rec.id)
    linked = {other for rec in archive.records.values() for other in rec.related}
    for rid in sorted(ours - new_ids):
        (result.kept if rid in linked else result.removed).append(rid)


def _same(existing: Ruling, new: Ruling) -> bool:
    return (existing.text, existing.title, existing.citation) == (new.text, new.title, new.citation)
