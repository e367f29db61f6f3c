"""`rulings import FILE.pdf|FILE.md --game GAME`: a rulebook or FAQ document into records (the
document half of `rulings import`; excerpt and FAQ text files go through the importer)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import click

from indexer.archive.load import load_archive
from indexer.archive.sources.documents import DocumentImport, import_document
from indexer.errors import InvalidRequest
from indexer.text import fold
from service.cli.common import emit


def page_range(text: str | None) -> tuple[int, int] | None:
    """'3-40' -> (3, 40); '7' -> (7, 7); None -> None; anything else: InvalidRequest."""
    if text is None:
        return None
    m = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", text)
    if not m or int(m.group(1)) < 1 or int(m.group(2) or m.group(1)) < int(m.group(1)):
        raise InvalidRequest(f"--pages {text!r} is not a page range such as 3-40")
    return int(m.group(1)), int(m.group(2) or m.group(1))


def import_documents(
    ctx: click.Context,
    files: list[Path],
    *,
    game: str | None,
    lang: str | None,
    title: str | None,
    pages: str | None,
    dry_run: bool,
    as_json: bool,
    force: bool = False,
) -> None:
    """Import each document; print what was (or would be) done."""
    archive = load_archive(ctx.obj["archive"])
    if not game:
        raise InvalidRequest(f"give the game of the document: --game ({', '.join(archive.games)})")
    # The archive's own names and aliases, folded as every lookup of them is ("Catán", "fh").
    game_id = archive.game_names().get(fold(game.strip())) or game
    wanted = page_range(pages)
    results = []
    for path in files:
        results.append(
            import_document(
                path,
                archive,
                game=game_id,
                lang=lang,
                title=title,
                pages=wanted,
                dry_run=dry_run,
                force=force,
                progress=_progress(path, as_json),
            )
        )
        archive = load_archive(ctx.obj["archive"]) if not dry_run else archive
    data = {"documents": [_as_dict(r, dry_run) for r in results], "dry_run": dry_run}
    emit(data, as_json, lambda d: "\n\n".join(_text(r, dry_run) for r in results))


def _progress(path: Path, quiet: bool):
    """A page progress bar on stderr for a PDF (none for --json or when stderr is no terminal)."""
    if quiet or path.suffix.lower() != ".pdf":
        return None
    from tqdm.auto import tqdm

    return lambda pages: tqdm(pages, desc=path.name, unit="page", leave=False, disable=None)


def _as_dict(r: DocumentImport, dry_run: bool) -> dict[str, Any]:
    doc = r.document
    return {
        "file": doc.file_name,
        "sha256": doc.sha256,
        "title": doc.title,
        "lang": r.lang,
        "pages": doc.pages,
        "source": f"rulings/sources/{r.source}",
        "outline": [{"section": s, "page": p, "blocks": n} for s, p, n in doc.outline()],
        "written": r.written,
        "updated": r.updated,
        "unchanged": r.unchanged,
        "removed": r.removed,
        "kept": r.kept,
        "unknown_glyphs": dict(r.unknown_glyphs),
        "warnings": r.warnings,
    }


def _text(r: DocumentImport, dry_run: bool) -> str:
    doc = r.document
    would = "would " if dry_run else ""
    out = [
        f"{doc.file_name}: {doc.title or '(no title)'}, {r.lang}, {doc.pages or '-'} page(s), "
        f"{len(doc.blocks)} block(s)",
        "outline (section, first printed page, blocks):",
    ]
    out += [
        f"  {section or '(before the first heading)'}  p. {page}  {n}"
        for section, page, n in doc.outline()
    ]
    out.append(
        f"{would}write {len(r.written)} new, update {len(r.updated)}, keep {len(r.unchanged)} "
        f"unchanged, remove {len(r.removed)}; the text in rulings/sources/{r.source}"
    )
    out += [f"  + {rid}" for rid in r.written] + [f"  ~ {rid}" for rid in r.updated]
    out += [f"  - {rid}" for rid in r.removed]
    out += [f"  ! {rid}: not in this printing, kept (other records link to it)" for rid in r.kept]
    for font, count in r.unknown_glyphs.most_common():
        out.append(f"  ! {count} glyph(s) of the icon font {font} left out of the text")
    out += [f"  ! {warning}" for warning in r.warnings]
    if r.written or r.updated:
        out.append("imported records are uncurated: `rulings lint --strict` lists them")
    return "\n".join(out)
