"""What the layout generators beside make_pdf.py that read their truth back from the PDF
(browser_pdf, typst_pdf, weasy_pdf, office_pdf) share: the game icons' symbols, a book text's
markup and its text as an extractor should return it, a character read back from a page, the
grouping of a column's characters into lines, the text of a band across a page, the PDF's
Creator and Producer, a block's row of the truth, the matching of a PDF's body text against the
book's blocks, and the truth file. Each engine's layout and its reading of its own PDF
stay in its own module: they were written apart, as held-out layouts.

Each generator imports this module from beside itself (`sys.path`), however it is loaded: run as
a script, or by make_pdf.py from its path.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

# Game icons -> the same Unicode symbols make_pdf.py draws from ZapfDingbats.
ICONS = {
    "fire": "\u273a", "ice": "\u2744", "air": "\u2708", "earth": "\u25b2", "light": "\u2737",
    "dark": "\u25cf", "wild": "\u2739", "move": "\u2794", "attack": "\u2716", "range": "\u27b6",
    "heal": "\u271a", "shield": "\u25c6", "xp": "\u2605", "spent": "\u27b2", "lost": "\u2716",
    "loot": "\u272a",
}  # fmt: skip
ICON_RE = re.compile(r"\{([a-z]+)\}")
KEYWORD_RE = re.compile(r"\*([^*]+)\*")  # a *key term* in a book's text


def plain_text(text: str) -> str:
    """The text without icon tokens, whitespace collapsed (as make_pdf.plain_text)."""
    return re.sub(r"\s+", " ", ICON_RE.sub("", text)).replace(" .", ".").replace(" ,", ",").strip()


@dataclass
class Char:
    text: str  # the character as read (a line-end hyphen included)
    left: float  # its box's left and right edges, points from the page's left edge
    right: float
    y: float  # its baseline, points from the page's top edge
    size: float  # font size in points


def lines(chars: list[Char], within: float = 3.0) -> list[list[Char]]:
    """Characters of one column in reading order: grouped into lines by their baselines (a new
    line where the baseline drops by more than `within` points), each line from left to right."""
    out: list[list[Char]] = []
    for c in sorted(chars, key=lambda c: c.y):
        if out and c.y - out[-1][0].y <= within:
            out[-1].append(c)
        else:
            out.append([c])
    return [sorted(line, key=lambda c: c.left) for line in out]


def band_text(tp, width: float, height: float, top: float, bottom: float) -> str:
    """The text pdfium reads in a band across the page (`top` and `bottom` in points from the
    page's top edge), whitespace collapsed (where an engine prints no blanks, pdfium puts them
    in)."""
    return re.sub(r"\s+", " ", tp.get_text_bounded(0, height - bottom, width, height - top)).strip()


def block_row(block: dict, path: list[str]) -> dict:
    """A paragraph's or box's row of the truth as every generator here starts it: its key,
    kind, title, section path, text as written (key terms without their asterisks, listed in
    "keywords"), plain text and icons. Each generator adds what its layout prints."""
    text = KEYWORD_RE.sub(r"\1", block["text"])
    row = {
        "key": block["key"],
        "kind": block["type"],
        "title": block.get("title"),
        "section": list(path),
        "section_path": " > ".join(path),
        "text": text,
        "plain_text": plain_text(text),
        "icons": ICON_RE.findall(block["text"]),
    }
    words = KEYWORD_RE.findall(block["text"])
    if words:
        row["keywords"] = words
    return row


def locate_stream(
    items: list[tuple[str, dict, str, str]],
    stream: list[tuple[str, int, int]],
    breaks: set[int],
    hyphens: set[str],
) -> tuple[list[list[tuple[int, int]]], int, list[int]]:
    """The book's items (kind, block, its text as read back, its text as written) matched, one
    after another, against the body's characters read back (character, PDF page, column): for
    each item the (PDF page, column) places its characters stand in, in order, each place once;
    the number of line ends (`breaks`, positions in the stream) at a hyphen the engine put in,
    not one the book writes there; and where each item starts in the stream. Any difference, or
    text left over, is a ValueError: no truth for a PDF that does not say what the book says."""
    found, starts, at, written = [], [], 0, ""
    for kind, block, want, kept in items:
        got = "".join(ch for ch, _, _ in stream[at : at + len(want)])
        if got != want:
            where = stream[at][1:] if at < len(stream) else "the end"
            k = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), len(got))
            raise ValueError(
                f"PDF text does not match block {block.get('key', block['text'])!r} ({kind}) at "
                f"PDF page/column {where}, character {k}:\n"
                f" want {want[max(0, k - 30) : k + 60]!r}\n got  {got[max(0, k - 30) : k + 60]!r}"
            )
        places: list[tuple[int, int]] = []
        for _, index, col in stream[at : at + len(want)]:
            if not places or places[-1] != (index, col):
                places.append((index, col))
        found.append(places)
        starts.append(at)
        at += len(want)
        written += kept
    if at != len(stream):
        extra = "".join(ch for ch, _, _ in stream[at : at + 80])
        raise ValueError(f"PDF body text left over after the last block: {extra!r}")
    # Map every squeezed position to the written text (hyphens kept) and look at the character
    # before it: a line-end hyphen is the engine's own unless the book writes one right there.
    hyphen_after, pos = set(), 0
    for c in written:
        if c in hyphens:
            hyphen_after.add(pos)
        else:
            pos += 1
    made = sum(1 for b in breaks if b not in hyphen_after)
    return found, made, starts


def pdf_metadata(out: Path) -> dict:
    """The Creator and Producer the PDF names."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(out))
    try:
        meta = pdf.get_metadata_dict()
        return {"pdf_creator": meta.get("Creator", ""), "pdf_producer": meta.get("Producer", "")}
    finally:
        pdf.close()


def write_truth(out: Path, truth: dict) -> dict:
    """The truth written beside the PDF as <stem>.truth.json; returned."""
    out.with_suffix(".truth.json").write_text(
        json.dumps(truth, indent=1, ensure_ascii=False) + "\n"
    )
    return truth
