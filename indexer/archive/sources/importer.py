"""Importing source files into the archive: new records only, each source file kept in
``rulings/sources/`` (the archive holds what its citations point to); nothing existing is
overwritten silently.
"""

from __future__ import annotations

import hashlib
import logging
import re
from dataclasses import dataclass, field
from pathlib import Path

from indexer.archive.schema import Archive, Ruling
from indexer.archive.sources.formats import ParseResult, SourceImportError, parse_file
from indexer.archive.sources.linking import LinkReport, link_records
from indexer.archive.write import write_record
from indexer.files import write_atomic

log = logging.getLogger(__name__)


@dataclass
class ImportReport:
    written: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    # Each source file -> the name it is kept under in rulings/sources/, and whether it was
    # copied there now (False: that very file was already there).
    sources: dict[str, str] = field(default_factory=dict)
    copied: list[str] = field(default_factory=list)
    linking: "LinkReport | None" = None  # with --link: links, possible links, notes
    updated: list[str] = field(default_factory=list)  # records given back-links / editions


def _same_source(a: Ruling, b: Ruling) -> bool:
    return a.text == b.text and a.game == b.game


def _next_free_id(rid: str, taken: set[str]) -> str:
    """fh-nl-1 taken -> the next free number of that series (fh-nl-7 ...)."""
    m = re.match(r"^(.*-)(\d+)$", rid)
    base, n = (m.group(1), int(m.group(2))) if m else (f"{rid}-", 1)
    while f"{base}{n}" in taken:
        n += 1
    return f"{base}{n}"


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def plan_sources(paths: list[Path], sources_dir: Path) -> dict[Path, tuple[str, bool]]:
    """Where each source file is kept: path -> (its name under `sources_dir`, whether to copy it).

    The same file again (same bytes) is fine, under its own name or any other name already
    there; a different file under a name already taken is refused, before anything is written.
    """
    kept: dict[str, str] = {}  # name under sources/ -> digest, including this run's files
    if sources_dir.is_dir():
        kept = {
            f.name: _digest(f.read_bytes())
            for f in sorted(sources_dir.iterdir())
            if f.is_file() and not f.name.startswith(".")
        }
    by_digest = {digest: name for name, digest in kept.items()}
    plan: dict[Path, tuple[str, bool]] = {}
    for path in paths:
        try:
            digest = _digest(path.read_bytes())
        except OSError as exc:
            raise SourceImportError(f"{path}: cannot read: {exc}") from None
        if digest in by_digest:
            plan[path] = (by_digest[digest], False)
            continue
        if path.name in kept:
            raise SourceImportError(
                f"{path.name}: rulings/sources/ already holds a different file of "
                f"that name; rename yours (e.g. {path.stem}-2{path.suffix}) and import again"
            )
        kept[path.name] = digest
        by_digest[digest] = path.name
        plan[path] = (path.name, True)
    return plan


def import_files(
    paths: list[Path],
    archive: Archive,
    *,
    lang: str | None = None,
    dry_run: bool = False,
    link: bool = False,
    embedder=None,
) -> ImportReport:
    """Import source files into the archive, keeping each file in rulings/sources/.

    A parsed record whose text already stands in the archive keeps that record (reported as
    unchanged); one whose id is taken by a different record gets the next free id. Nothing
    existing is ever overwritten, except, with `link`, the links and editions that linking adds
    to the records stating the same rules (``indexer.linking``; `embedder` is the model). Every
    file is read, checked and linked before anything is written.
    """
    report = ImportReport()
    plan = plan_sources(paths, archive.root / "sources")
    parsed_files = [
        (path, parse_file(path, archive, lang=lang, source_name=plan[path][0])) for path in paths
    ]
    batches = _new_records(parsed_files, archive, report)
    to_write = {rec.id: rec for batch in batches for rec in batch}
    if link and to_write:
        changed, report.linking = link_records(batches, archive.records, embedder)
        report.updated = sorted(rid for rid in changed if rid not in to_write)
        to_write.update(changed)
    report.sources = {str(path): name for path, (name, _) in plan.items()}
    report.copied = [name for name, copy in plan.values() if copy]
    if dry_run:
        return report
    for path, (name, copy) in plan.items():
        if copy:
            write_atomic(archive.root / "sources" / name, path.read_bytes(), mode=0o644)
    for rec in to_write.values():
        write_record(rec, archive.root)
    return report


def _new_records(
    parsed_files: list[tuple[Path, ParseResult]], archive: Archive, report: ImportReport
) -> list[list[Ruling]]:
    """The records to add, one list per file, with free ids; the rest reported."""
    by_text = {rec.text: rec for rec in archive.records.values()}
    taken = set(archive.records)
    batches: list[list[Ruling]] = []
    for path, parsed in parsed_files:
        report.skipped.extend(parsed.skipped)
        batch: list[Ruling] = []
        for rec in parsed.records:
            existing = by_text.get(rec.text)
            if existing is not None and _same_source(existing, rec):
                report.unchanged.append(existing.id)
                continue
            rid = rec.id
            if rid in taken:
                rid = _next_free_id(rid, taken)
                report.skipped.append(
                    f"{path.name}: id {rec.id} is taken by a different record; imported as {rid}"
                )
                rec = rec.model_copy(update={"id": rid})
            taken.add(rid)
            batch.append(rec)
            report.written.append(rid)
        batches.append(batch)
    return batches
