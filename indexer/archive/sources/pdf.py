"""A rulebook PDF read into blocks: reading order across columns, printed page numbers,
heading paths, boxed examples, paragraphs joined across breaks, words hyphenated at line ends
rejoined, running headers and footers left out, icon glyphs counted and reported.

PDFium (pypdfium2, Apache-2.0/BSD) gives each character's box, baseline and font; it reports
glyphs without a Unicode mapping (icon fonts) and the hyphens it saw at line ends. Chosen by
measurement against pdfminer.six, pdfplumber and pypdf (docs/decisions.md, "PDF library").

The layout is read from the page, never from the file's structure:
  * lines: characters on one baseline, split where the gap is wider than a column gutter;
  * furniture: lines at the same height with the same text (digits masked) on at least half of
    the pages are running headers and footers; a footer or header that is only a number is the
    page's printed number (pages without one follow the others' offset);
  * reading order: full-width lines, then the left column, then the right, page by page;
  * headings: sizes clearly above the body's, largest first; the largest, if only on the first
    page, is the title;
  * boxes: lines inside a filled rectangle are one record (their first bold line its title);
  * a paragraph starts after a vertical gap, an indented first line, a line that ended short of
    its column's edge, or a bold lead term ("POISON."); otherwise it runs on, across column
    and page breaks.
"""

from __future__ import annotations

import ctypes
import hashlib
import re
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from indexer.archive.sources.document import SECTION_SEPARATOR, Block, Document
from indexer.errors import InvalidRequest

ICON_FONT = re.compile(r"dingbat|symbol|icon|glyph|wingding", re.I)
OBJECT = "\ufffc"  # stands for an icon inside a line until the text is joined


class PdfError(InvalidRequest):
    """The file is no PDF this can read (damaged, encrypted, or pages out of range)."""


@dataclass
class Char:
    c: str
    x0: float
    x1: float
    top: float
    bottom: float
    font: str
    size: float
    unmapped: bool = False


@dataclass
class Line:
    chars: list[Char]
    page: int
    x0: float
    x1: float
    top: float
    bottom: float
    text: str = ""
    size: float = 0.0
    bold: bool = False
    lead_bold: bool = False
    col: int = 0  # 0 left, 1 right, -1 full width
    boxed: int = -1
    heading: bool = False
    icons: list[str] = field(default_factory=list)


@dataclass
class Page:
    width: float
    height: float
    lines: list[Line]
    rects: list[tuple[float, float, float, float]]
    number: int = 0  # in the PDF, from 0 (its lines' `page`)


def read_pdf(
    path: Path,
    *,
    pages: tuple[int, int] | None = None,
    progress: Callable[[Iterable[Any]], Iterable[Any]] | None = None,
) -> Document:
    """The blocks of a PDF; `pages`: a range of PDF pages (1-based, inclusive); `progress`
    wraps the page loop (a progress bar on long files)."""
    import pypdfium2 as pdfium

    raw_bytes = Path(path).read_bytes()
    try:
        doc = pdfium.PdfDocument(raw_bytes)
    except pdfium.PdfiumError as exc:
        raise PdfError(f"{Path(path).name}: cannot read the PDF ({exc})") from None
    first, last = pages or (1, len(doc))
    if not 1 <= first <= last <= len(doc):
        raise PdfError(f"{Path(path).name}: pages {first}-{last} are not in 1-{len(doc)}")
    numbers: Iterable[int] = range(first - 1, last)
    read = [_page(doc[i], i) for i in (progress(numbers) if progress else numbers)]
    unknown: Counter[str] = Counter(icon for page in read for ln in page.lines for icon in ln.icons)
    title, blocks = layout(read)
    return Document(
        title=title,
        blocks=blocks,
        sha256=hashlib.sha256(raw_bytes).hexdigest(),
        file_name=Path(path).name,
        pages=len(read),
        unknown_glyphs=unknown,
    )


def _page(page: Any, number: int) -> Page:
    """One page's characters (as lines) and filled rectangles."""
    import pypdfium2.raw as raw

    width, height = page.get_size()
    text_page = page.get_textpage()
    buf, flags = ctypes.create_string_buffer(128), ctypes.c_int()
    chars = []
    for i in range(text_page.count_chars()):
        if raw.FPDFText_IsGenerated(text_page.raw, i) == 1:
            continue
        code = raw.FPDFText_GetUnicode(text_page.raw, i)
        left, _, right, _ = text_page.get_charbox(i, loose=True)
        ox, oy = ctypes.c_double(), ctypes.c_double()
        raw.FPDFText_GetCharOrigin(text_page.raw, i, ctypes.byref(ox), ctypes.byref(oy))
        size = raw.FPDFText_GetFontSize(text_page.raw, i)
        if code == 2:  # PDFium's mark of a hyphen it saw at a line end
            code = ord("-")
        raw.FPDFText_GetFontInfo(text_page.raw, i, buf, 128, ctypes.byref(flags))
        top, bottom = height - (oy.value + 0.75 * size), height - (oy.value - 0.2 * size)
        unmapped = raw.FPDFText_HasUnicodeMapError(text_page.raw, i) == 1
        font = buf.value.decode("latin-1")
        chars.append(Char(chr(code), left, right, top, bottom, font, size, unmapped))
    rects = []
    for obj in page.get_objects(filter=(raw.FPDF_PAGEOBJ_PATH,)):
        left, bottom, right, top = obj.get_bounds()
        if right - left > 20 and top - bottom > 20:
            rects.append((left, height - top, right, height - bottom))
    text_page.close()
    return Page(width, height, lines_of(number, width, chars), rects, number)


def lines_of(page_no: int, width: float, chars: list[Char]) -> list[Line]:
    """Characters -> lines: one baseline, split at the page's column gutter and at any gap
    wider than a gutter."""
    rows: dict[int, list[Char]] = defaultdict(list)
    for ch in chars:
        if ch.c.strip():
            rows[round(ch.bottom / 2)].append(ch)
    gutter = column_gutter(width, list(rows.values()))
    segments: list[list[Char]] = []
    for _, row in sorted(rows.items()):
        row.sort(key=lambda c: c.x0)
        segment = [row[0]]
        for prev, ch in zip(row, row[1:]):
            gap = ch.x0 - prev.x1
            # A gap over the gutter, wider than a word space, parts the columns.
            across = (
                gutter is not None and prev.x1 <= gutter[1] and ch.x0 >= gutter[0]
                and gap >= 0.5 * (gutter[1] - gutter[0])
            )  # fmt: skip
            if across or gap > 1.5 * max(ch.size, 1):
                segments.append(segment)
                segment = []
            segment.append(ch)
        segments.append(segment)
    return [_line(page_no, width, segment) for segment in segments]


def column_gutter(width: float, rows: list[list[Char]]) -> tuple[float, float] | None:
    """The widest band of the page's middle third that (almost) no line covers: two columns'
    gutter, however narrow, which a few full-width lines (a title) may cross; None for one
    column."""
    if width <= 0 or not rows:
        return None
    covering = np.zeros(int(width) + 2, dtype=np.int64)
    for row in rows:
        covered = np.zeros_like(covering, dtype=bool)
        for ch in row:
            covered[max(int(ch.x0), 0) : int(ch.x1) + 1] = True
        covering += covered
    free = covering <= max(1, len(rows) // 20)
    lo, hi = int(width / 3), int(2 * width / 3)
    best: tuple[float, float] | None = None
    start = None
    for x in range(lo, hi + 2):
        if x <= hi and free[x]:
            start = x if start is None else start
        elif start is not None:
            if best is None or x - start > best[1] - best[0]:
                best = (float(start), float(x))
            start = None
    return best if best is not None and best[1] - best[0] >= 3 else None


def _line(page_no: int, width: float, segment: list[Char]) -> Line:
    line = Line(
        segment,
        page_no,
        min(c.x0 for c in segment),
        max(c.x1 for c in segment),
        min(c.top for c in segment),
        max(c.bottom for c in segment),
    )
    text: list[str] = []
    for before, ch in zip([None, *segment], segment):
        if before is not None and ch.x0 - before.x1 > 0.15 * ch.size and text and text[-1] != " ":
            text.append(" ")
        if ICON_FONT.search(ch.font) or ch.unmapped or 0xE000 <= ord(ch.c) <= 0xF8FF:
            line.icons.append(ch.font or "unnamed font")
            text.append(OBJECT)
            continue
        text.append(ch.c)
    line.text = "".join(text).strip()
    body = [c for c in segment if not ICON_FONT.search(c.font)] or segment
    line.size = statistics.median(c.size for c in body)
    line.bold = sum("Bold" in c.font for c in body) > len(body) / 2
    line.lead_bold = "Bold" in segment[0].font and segment[0].c.isupper() and not line.bold
    half = width / 2
    line.col = 0 if line.x1 < half + 5 else 1 if line.x0 > half - 5 else -1
    return line


def _furniture_key(line: Line) -> tuple[int, str]:
    return round(line.top / 6), re.sub(r"\d+", "#", line.text)


def _edge_lines(page: Page) -> list[Line]:
    """The lines set apart at the page's top or bottom edge: on the first or last baseline,
    with a gap to the nearest other line of more than twice the line height."""
    if len(page.lines) < 3:
        return []
    tops = sorted({round(ln.top, 1) for ln in page.lines})
    out = []
    for edge, nxt in ((tops[0], tops[1]), (tops[-1], tops[-2])):
        band = [ln for ln in page.lines if abs(ln.top - edge) < 2]
        height = max(ln.bottom - ln.top for ln in band)
        if abs(nxt - edge) > 2 * height:
            out += band
    return out


def printed_numbers(pages: list[Page]) -> tuple[list[str], set[int]]:
    """Each page's printed number, and the furniture (running headers and footers, by id):
    lines repeated at one height with the same text (digits aside) on at least half of the
    pages, and lines set apart at a page edge at a height that recurs so (a header naming
    each page's chapter changes its text, not its place)."""
    least = max(2, len(pages) / 2)
    seen = Counter(k for page in pages for k in {_furniture_key(ln) for ln in page.lines})
    same_text = {k for k, count in seen.items() if count >= least}
    edges = {id(page): _edge_lines(page) for page in pages}
    heights = Counter(h for lines in edges.values() for h in {round(ln.top / 6) for ln in lines})
    furniture = {
        id(ln)
        for page in pages
        for ln in page.lines
        if _furniture_key(ln) in same_text
        or (ln in edges[id(page)] and heights[round(ln.top / 6)] >= least)
    }
    printed: list[int | None] = []
    for page in pages:
        numbers = [int(ln.text) for ln in page.lines if id(ln) in furniture and ln.text.isdigit()]
        printed.append(numbers[0] if numbers else None)
    offsets = Counter(p - i for i, p in enumerate(printed) if p is not None)
    offset = offsets.most_common(1)[0][0] if offsets else None
    labels = [
        str(p) if p is not None else (str(i + offset) if offset is not None else "")
        for i, p in enumerate(printed)
    ]
    return labels, furniture


def layout(pages: list[Page]) -> tuple[str | None, list[Block]]:
    """The title and the blocks of the pages, in reading order."""
    labels, furniture = printed_numbers(pages)
    printed = {page.number: label for page, label in zip(pages, labels)}
    body: list[Line] = []
    for page in pages:
        keep = [ln for ln in page.lines if id(ln) not in furniture and ln.text]
        for ln in keep:
            ln.boxed = next(
                (j for j, (x0, top, x1, bottom) in enumerate(page.rects)
                 if x0 - 1 <= ln.x0 and ln.x1 <= x1 + 1 and top - 1 <= ln.top
                 and ln.bottom <= bottom + 1),
                -1,
            )  # fmt: skip
        body += sorted(keep, key=lambda ln: (ln.col, ln.top))
    if not body:
        return None, []
    first_page = body[0].page
    body_size = Counter(round(ln.size, 1) for ln in body for _ in ln.text).most_common(1)[0][0]
    for ln in body:
        ln.heading = _looks_like_a_heading(ln, body_size)
    heads = sorted({round(ln.size, 1) for ln in body if ln.heading}, reverse=True)
    title_size = None
    if heads and all(ln.page == first_page for ln in body if round(ln.size, 1) == heads[0]):
        title_size, heads = heads[0], heads[1:]
    return _blocks(body, printed, heads, title_size)


def _looks_like_a_heading(ln: Line, body_size: float) -> bool:
    """A line set apart as a heading: clearly larger than the body, or all bold at the body's
    size or more (small capitals too) and not ending like a sentence (rulebooks set section
    titles both ways); never inside a box, where a bold line is the box's title."""
    if ln.boxed >= 0:
        return False
    if ln.size > body_size * 1.12:
        return True
    # Small capitals: the line's capitals are at the body's size, the rest smaller.
    largest = max(c.size for c in ln.chars)
    return ln.bold and largest >= body_size * 0.98 and not ln.text.endswith((".", ",", ";", ":"))


def _blocks(
    body: list[Line], printed: dict[int, str], heads: list[float], title_size: float | None
) -> tuple[str | None, list[Block]]:
    edges: dict[tuple[int, int], list[float]] = {}
    for ln in body:
        edge = edges.setdefault((ln.page, ln.col), [ln.x0, ln.x1])
        edge[0], edge[1] = min(edge[0], ln.x0), max(edge[1], ln.x1)
    title: str | None = None
    path: list[str] = []
    parts: list[tuple[Block, list[str], tuple[int, int] | None]] = []
    prev: Line | None = None
    for ln in body:
        size = round(ln.size, 1)
        if size == title_size:
            title = ln.text if title is None else f"{title} {ln.text}"
            continue
        if ln.heading and size in heads:
            after_heading = bool(parts) and parts[-1][0].kind == "heading"
            wrapped = (
                after_heading and prev is not None and prev.size == ln.size
                and abs(ln.top - prev.bottom) < ln.size
            )  # fmt: skip
            if wrapped and path:
                path[-1] += " " + ln.text  # a heading wrapped onto a second line
            else:
                path = path[: heads.index(size)] + [ln.text]
            prev = ln
            parts.append((Block("heading", "", None, ""), [], None))  # ends the running block
            continue
        starts = _starts_block(ln, prev, parts, edges)
        if starts:
            box = (ln.page, ln.boxed) if ln.boxed >= 0 else None
            block = Block(
                "box" if box else "paragraph", "", printed[ln.page], SECTION_SEPARATOR.join(path)
            )
            if box and ln.bold:
                block.title = ln.text
                parts.append((block, [], box))
                prev = ln
                continue
            parts.append((block, [], box))
        parts[-1][1].append(ln.text)
        parts[-1][0].icons += len(ln.icons)
        prev = ln
    blocks = [b for b, _, _ in parts if b.kind != "heading"]
    _join_texts([(b, lines) for b, lines, _ in parts if b.kind != "heading"])
    return title, [b for b in blocks if b.text]


def _starts_block(
    ln: Line,
    prev: Line | None,
    parts: list[tuple[Block, list[str], tuple[int, int] | None]],
    edges: dict[tuple[int, int], list[float]],
) -> bool:
    """Whether `ln` starts a new block rather than continuing the one before it."""
    current = parts[-1] if parts else None
    if current is None or current[0].kind == "heading":
        return True
    if ln.boxed >= 0:
        return current[2] != (ln.page, ln.boxed)
    if current[0].kind == "box" or prev is None:
        return True
    left = edges[(ln.page, ln.col)][0]
    indent = ln.x0 - left > 0.6 * ln.size
    gap = prev.page == ln.page and prev.col == ln.col and ln.top - prev.bottom > 0.45 * ln.size
    prev_full = prev.boxed < 0 and edges[(prev.page, prev.col)][1] - prev.x1 < 1.5 * ln.size
    return indent or gap or not prev_full or ln.lead_bold


def _join_texts(parts: list[tuple[Block, list[str]]]) -> None:
    """Each block's lines joined into its text: a word hyphenated at a line end is rejoined,
    unless the book writes it with the hyphen elsewhere and never without."""
    words = Counter(
        w.lower() for _, lines in parts for t in lines for w in re.findall(r"[\w'-]+", t)
    )
    for block, lines in parts:
        text = ""
        for t in lines:
            end = re.search(r"(\w+)-$", text)
            start = re.match(r"([a-z][\w']*)", t)
            if end and start:
                joined = end.group(1) + start.group(1)
                hyphened = f"{end.group(1)}-{start.group(1)}".lower()
                keep = words[hyphened] > 0 and not words[joined.lower()]
                text = (text if keep else text[:-1]) + t
            else:
                text = f"{text} {t}".strip()
        text = re.sub(r"\s+", " ", text.replace(OBJECT, " "))
        block.text = text.replace(" .", ".").replace(" ,", ",").strip()
