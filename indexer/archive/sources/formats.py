"""The source formats: a rulebook-excerpt file and a FAQ page, parsed into records.

* A rulebook-excerpt file: the game's name on the first line, then one paragraph per ruling
  carrying page references in the edition's own style ("(p. 38)", "(pagg. 21, 13–14)",
  "(side 29–30)", "(S. 12)", "(págs. 5, 7)" ...).
* A FAQ page: sections ERRATA / DESIGNER CLARIFICATIONS / EDGE CASES with entries of title,
  optional CONTEXT or SITUATION, RULING and an AUTHOR / SOURCE / DATE line; page chrome is
  ignored; "◆ Game — Section, p. N" example answers at its foot become records of those games.

Parsing is separate from writing: ``parse_file`` returns records plus what it skipped and why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from indexer.archive.schema import Archive, Citation, Ruling
from indexer.errors import InvalidRequest
from indexer.language import ENGLISH_NAMES, LANGUAGES, detect_language
from indexer.text import fold

if TYPE_CHECKING:
    from indexer.archive.schema import Kind
from indexer.archive.sources.pages import page_refs

FAQ_SECTIONS: dict[str, Kind] = {
    "ERRATA": "erratum",
    "DESIGNER CLARIFICATIONS": "clarification",
    "EDGE CASES": "edge case",
}
KIND_ID = {"erratum": "errata", "clarification": "clar", "edge case": "edge"}
# Badges the FAQ page glues to the end of a title line.
TITLE_BADGES = re.compile(
    r"(?:\s*(?:publisher|community|linked official source|official source))+$"
)
META_LINE = re.compile(
    r"^AUTHOR:\s*(?P<author>.*?)\s*SOURCE:\s*(?P<site>.*?)\s*DATE:\s*(?P<date>\d{4}-\d{2}-\d{2})\s*$"
)
EXAMPLE_LABEL = re.compile(
    r"^◆\s*(?P<game>.+?)\s+[—–-]\s+(?P<section>.+?),\s*(?P<ref>(?:pp?|pag|p[áa]g|side|S)\.?\s*\d[\d\s,–-]*)$"
)


class SourceImportError(InvalidRequest):
    """A file cannot be imported at all (unreadable, unknown format)."""


@dataclass
class ParseResult:
    records: list[Ruling] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


def _game_for(name: str, archive: Archive) -> str | None:
    return archive.game_names().get(fold(name.strip()))


def _paragraphs(lines: list[str]) -> list[tuple[int, str]]:
    """(1-based line number, text) of each non-empty line; paragraphs are single lines here."""
    return [(i + 1, line.strip()) for i, line in enumerate(lines) if line.strip()]


def sniff_format(text: str) -> str:
    """'faq' or 'rulebook'."""
    if re.search(r"^RULING\s*$", text, re.MULTILINE) and re.search(r"^AUTHOR:", text, re.MULTILINE):
        return "faq"
    return "rulebook"


def parse_rulebook(
    text: str, source_name: str, archive: Archive, lang: str | None = None
) -> ParseResult:
    """Parse a rulebook-excerpt file: game name, then one ruling per paragraph."""
    result = ParseResult()
    lines = text.splitlines()
    paras = _paragraphs(lines)
    if not paras:
        raise SourceImportError(f"{source_name}: the file is empty")
    _, game_name = paras[0]
    game = _game_for(game_name, archive)
    if game is None:
        raise SourceImportError(
            f"{source_name}: first line {game_name!r} is not a known game "
            f"(known: {', '.join(archive.games)}; add it to rulings/games.yaml)"
        )
    prefix = archive.games[game].prefix
    body = paras[1:]
    file_lang = lang or (
        detect_language(" ".join(p for _, p in body), default=None) if body else None
    )
    if file_lang not in LANGUAGES:
        raise SourceImportError(
            f"{source_name}: cannot tell the language (give --lang, one of {', '.join(LANGUAGES)})"
        )
    source = f"{archive.games[game].name} rulebook excerpt ({ENGLISH_NAMES[file_lang]})"
    for n, (line_no, para) in enumerate(body, start=1):
        pages, printed = page_refs(para)
        if not pages:
            result.skipped.append(
                f"{source_name}:{line_no}: no page reference found, paragraph skipped"
            )
            continue
        result.records.append(
            Ruling(
                id=f"{prefix}-{file_lang}-{n}",
                game=game,
                kind="rulebook",
                lang=file_lang,
                text=para,
                citation=Citation(
                    source=source,
                    pages=pages,
                    page_ref="; ".join(printed),
                    file=source_name,
                    line=line_no,
                ),
            )
        )
    return result


def parse_faq(text: str, source_name: str, archive: Archive) -> ParseResult:
    """Parse a FAQ page: its three sections of entries and the example answers at its foot."""
    result = ParseResult()
    lines = [line.rstrip() for line in text.splitlines()]
    paras = _paragraphs(lines)
    if not paras:
        raise SourceImportError(f"{source_name}: the file is empty")
    game = _game_for(paras[0][1], archive)
    if game is None:
        raise SourceImportError(f"{source_name}: first line {paras[0][1]!r} is not a known game")
    prefix = archive.games[game].prefix
    name = archive.games[game].name
    section_re = re.compile(r"^(?P<name>" + "|".join(FAQ_SECTIONS) + r")\s*(?P<count>\d+)?$")
    kind: Kind | None = None
    counters: dict[str, int] = {}
    expected: dict[str, int] = {}
    examples: dict[str, int] = {}
    i = 0
    while i < len(paras):
        line_no, line = paras[i]
        sec = section_re.match(line)
        if sec:
            kind = FAQ_SECTIONS[sec.group("name")]
            if sec.group("count"):
                expected[kind] = int(sec.group("count"))
            i += 1
            continue
        nxt = paras[i + 1][1] if i + 1 < len(paras) else ""
        if kind and nxt in ("RULING", "CONTEXT", "SITUATION"):
            entry, i = _faq_entry(paras, i, kind, source_name, result)
            if entry:
                counters[kind] = counters.get(kind, 0) + 1
                title, ctx_label, ctx, ruling, meta, entry_line = entry
                rid = f"{prefix}-{KIND_ID[kind]}-{counters[kind]:02d}"
                result.records.append(
                    Ruling(
                        id=rid,
                        game=game,
                        kind=kind,
                        lang="en",
                        title=title,
                        context_label=ctx_label,
                        context=ctx,
                        text=ruling,
                        citation=Citation(
                            source=f"{name} FAQ",
                            author=meta["author"],
                            site=meta["site"],
                            date=meta["date"],
                            file=source_name,
                            line=entry_line,
                        ),
                    )
                )
            continue
        label = EXAMPLE_LABEL.match(nxt)
        if label and not line.startswith("◆"):
            rec = _example(line, line_no, label, source_name, archive, result)
            if rec:
                examples[rec.game] = examples.get(rec.game, 0) + 1
                rec = rec.model_copy(
                    update={"id": f"{archive.games[rec.game].prefix}-example-{examples[rec.game]}"}
                )
                result.records.append(rec)
            i += 2
            continue
        i += 1
    for k, count in expected.items():
        if counters.get(k, 0) != count:
            result.skipped.append(
                f"{source_name}: section {k!r} announces {count} entries, {counters.get(k, 0)} parsed"
            )
    return result


def _faq_entry(paras, i, kind, source_name, result):
    """One FAQ entry starting at paras[i]; returns (entry or None, next index)."""
    title_line_no, raw_title = paras[i]
    title = TITLE_BADGES.sub("", raw_title).strip()
    i += 1
    ctx_label = ctx = None
    if paras[i][1] in ("CONTEXT", "SITUATION"):
        ctx_label = paras[i][1]
        ctx = paras[i + 1][1] if i + 1 < len(paras) else ""
        i += 2
    if i >= len(paras) or paras[i][1] != "RULING":
        result.skipped.append(
            f"{source_name}:{title_line_no}: entry {title!r} has no RULING, skipped"
        )
        return None, i
    ruling_line_no, ruling = paras[i + 1] if i + 1 < len(paras) else (0, "")
    i += 2
    meta_m = META_LINE.match(paras[i][1]) if i < len(paras) else None
    if not meta_m:
        result.skipped.append(
            f"{source_name}:{ruling_line_no}: entry {title!r} has no AUTHOR/SOURCE/DATE line, skipped"
        )
        return None, i
    return (title, ctx_label, ctx, ruling, meta_m.groupdict(), title_line_no), i + 1


def _example(text, line_no, label, source_name, archive, result) -> Ruling | None:
    game = _game_for(label.group("game"), archive)
    if game is None:
        result.skipped.append(
            f"{source_name}:{line_no}: example for unknown game "
            f"{label.group('game')!r} skipped (add it to rulings/games.yaml)"
        )
        return None
    pages, _ = page_refs(f"({label.group('ref')})")
    label_text = label.string.lstrip("◆ ").strip()
    lang = detect_language(text)
    return Ruling(
        id=f"{archive.games[game].prefix}-example",
        game=game,
        kind="example",
        lang=lang,
        title=label.group("section"),
        text=text,
        citation=Citation(
            source=label_text,
            section=label.group("section"),
            pages=pages,
            page_ref=label.group("ref"),
            file=source_name,
            line=line_no,
        ),
    )


def parse_file(
    path: Path, archive: Archive, lang: str | None = None, source_name: str | None = None
) -> ParseResult:
    """Parse one source file of either format; citations name it `source_name` (default: its name)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SourceImportError(f"{path}: cannot read: {exc}") from None
    name = source_name or path.name
    if sniff_format(text) == "faq":
        return parse_faq(text, name, archive)
    return parse_rulebook(text, name, archive, lang=lang)
