"""A rulebook or FAQ read from a PDF or Markdown file: its blocks in reading order, each with
the printed page where it starts and the heading path it stands under.

The readers (``pdf``, ``markdown``) make a ``Document``; ``formats.parse_document`` turns it
into records; ``Document.source_text`` is what the archive keeps of the file in
``rulings/sources/`` (the extracted text, never the file itself), which each record cites by
line.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from indexer.text import fold

SECTION_SEPARATOR = " > "


@dataclass
class Block:
    """A paragraph, or a boxed example or sidebar, as the reader found it."""

    kind: str  # "paragraph" | "box"
    text: str
    page: str | None  # the printed page where it starts (None: the file prints none)
    section: str  # the heading path, "Scenario Play > Resting" ("" before any heading)
    title: str | None = None  # a box's own title
    icons: int = 0  # glyphs of icon fonts left out of the text


@dataclass
class Document:
    """What a reader made of a file."""

    title: str | None
    blocks: list[Block]
    sha256: str  # of the file's bytes
    file_name: str
    pages: int = 0
    unknown_glyphs: Counter[str] = field(default_factory=Counter)  # font -> glyphs not read

    def source_lines(self) -> tuple[str, dict[int, int]]:
        """The text the archive keeps of the file and, per block, the line its text is on."""
        out = [
            f"# {self.title or self.file_name}",
            f"# extracted from {self.file_name} (sha256 {self.sha256}); blocks in reading order,"
            " each under its [printed page] and heading path",
        ]
        where: dict[int, int] = {}
        for i, block in enumerate(self.blocks):
            out.append("")
            head = f"[p. {block.page}]" if block.page else "[no printed page]"
            label = (
                "box" + (f": {block.title}" if block.title else "") if block.kind == "box" else ""
            )
            out.append(
                " ".join(p for p in (head, block.section, f"({label})" if label else "") if p)
            )
            out.append(block.text)
            where[i] = len(out)
        return "\n".join(out) + "\n", where

    def outline(self) -> list[tuple[str, str, int]]:
        """(section, first printed page, blocks) of each section, in order: what --dry-run shows."""
        rows: list[tuple[str, str, int]] = []
        for block in self.blocks:
            if rows and rows[-1][0] == block.section:
                rows[-1] = (rows[-1][0], rows[-1][1], rows[-1][2] + 1)
            else:
                rows.append((block.section, block.page or "-", 1))
        return rows


def slug(text: str, words: int = 4) -> str:
    """A short id part from a heading: "Scenario Play > Resting" -> "resting"."""
    last = text.split(SECTION_SEPARATOR)[-1] if text else ""
    parts = re.findall(r"[a-z0-9]+", fold(last))
    return "-".join(parts[:words]) or "intro"
