"""One PDF page as the reader sees it: its characters set into lines, its column frame and its
filled areas. Nothing here knows about other pages (that is ``pdffurniture``) or about blocks
(``pdf``).

  * lines: characters on one baseline, split at the column gutter and at any gap wider than a
    gutter could be;
  * the column frame: the band of the page that (almost) no line covers is the gutter, found
    from where the lines start and end, so unequal columns and narrow gutters part the same
    way; lines wholly on one side of it are that column's, lines across it are full width;
  * fills: filled or framed rectangles, a box's title strip and its body (two fills, one on
    the other) merged into one area.
"""

from __future__ import annotations

import ctypes
import re
import statistics
from dataclasses import dataclass, field
from typing import Any

import numpy as np

ICON_FONT = re.compile(r"dingbat|symbol|icon|glyph|wingding", re.I)
# Font names say the weight when the font file does not (the standard 14 fonts report none).
BOLD_FONT = re.compile(r"bold|black|heavy|semibold|demi", re.I)
OBJECT = "\ufffc"  # stands for an icon inside a line until the text is joined

Rect = tuple[float, float, float, float]  # x0, top, x1, bottom (top-down, like the lines)


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
    bold: bool = False
    colour: int = 0  # fill colour as 0xRRGGBB
    baseline: float = 0.0

    @property
    def icon(self) -> bool:
        return bool(ICON_FONT.search(self.font)) or self.unmapped or 0xE000 <= ord(self.c) <= 0xF8FF


@dataclass
class Line:
    chars: list[Char]
    page: int
    x0: float
    x1: float
    top: float
    bottom: float
    text: str = ""
    size: float = 0.0  # the median letter's
    cap_size: float = 0.0  # the largest letter's: a heading in small capitals ranks by it
    bold: bool = False  # every letter bold
    lead_bold: bool = False  # a bold lead term ("POISON.") with body text after it
    colour: int = -1  # the colour of all its letters, -1 when mixed
    col: int = 0  # 0 left, 1 right, -1 full width (across the gutter)
    boxed: int = -1
    heading: bool = False
    icons: list[str] = field(default_factory=list)


@dataclass
class Page:
    width: float
    height: float
    lines: list[Line]
    rects: list[Rect]
    number: int = 0  # in the PDF, from 0 (its lines' `page`)
    gutter: tuple[float, float] | None = None


def read_page(page: Any, number: int) -> Page:
    """One page's characters (as lines) and filled areas."""
    import pypdfium2.raw as raw

    width, height = page.get_size()
    text_page = page.get_textpage()
    tp = text_page.raw
    buf, flags = ctypes.create_string_buffer(128), ctypes.c_int()
    rgba = [ctypes.c_uint() for _ in range(4)]
    chars = []
    for i in range(text_page.count_chars()):
        if raw.FPDFText_IsGenerated(tp, i) == 1:
            continue
        code = raw.FPDFText_GetUnicode(tp, i)
        if not chr(code).strip():
            continue
        left, _, right, _ = text_page.get_charbox(i, loose=True)
        ox, oy = ctypes.c_double(), ctypes.c_double()
        raw.FPDFText_GetCharOrigin(tp, i, ctypes.byref(ox), ctypes.byref(oy))
        size = raw.FPDFText_GetFontSize(tp, i)
        if code == 2:  # PDFium's mark of a hyphen it saw at a line end
            code = ord("-")
        raw.FPDFText_GetFontInfo(tp, i, buf, 128, ctypes.byref(flags))
        font = buf.value.decode("latin-1")
        raw.FPDFText_GetFillColor(tp, i, *(ctypes.byref(v) for v in rgba))
        r, g, b, _ = (v.value for v in rgba)
        top, bottom = height - (oy.value + 0.75 * size), height - (oy.value - 0.2 * size)
        chars.append(Char(
            chr(code), left, right, top, bottom, font, size,
            unmapped=raw.FPDFText_HasUnicodeMapError(tp, i) == 1,
            bold=raw.FPDFText_GetFontWeight(tp, i) >= 600 or bool(BOLD_FONT.search(font)),
            colour=(r << 16) | (g << 8) | b, baseline=height - oy.value,
        ))  # fmt: skip
    fills = []
    for obj in page.get_objects(filter=(raw.FPDF_PAGEOBJ_PATH,)):
        left, bottom, right, top = obj.get_bounds()
        fills.append((left, height - top, right, height - bottom))
    text_page.close()
    lines, gutter = lines_of(number, width, chars)
    return Page(width, height, lines, merge_fills(fills, width * height), number, gutter)


def merge_fills(fills: list[Rect], page_area: float) -> list[Rect]:
    """The page's boxes: rectangles at least 20 pt each way, where a strip stacked on another
    fill of the same width (a box's title bar on its body) counts as part of it. Thinner
    shapes are rules and marks (a gutter line, a square by a header), never boxes; a fill
    over half the page or more is its background (tinted paper), never a box either."""
    shapes = sorted(
        (f for f in fills
         if f[2] - f[0] > 20 and f[3] - f[1] > 4 and (f[2] - f[0]) * (f[3] - f[1]) < page_area / 2),
        key=lambda f: f[1],
    )  # fmt: skip
    merged: list[Rect] = []
    for x0, top, x1, bottom in shapes:
        for i, (m0, mtop, m1, mbottom) in enumerate(merged):
            same_width = abs(m0 - x0) < 2 and abs(m1 - x1) < 2
            if same_width and top <= mbottom + 1.5 and bottom >= mtop - 1.5:
                merged[i] = (min(m0, x0), min(mtop, top), max(m1, x1), max(mbottom, bottom))
                break
        else:
            merged.append((x0, top, x1, bottom))
    return [m for m in merged if m[3] - m[1] > 20]


def lines_of(
    page_no: int, width: float, chars: list[Char]
) -> tuple[list[Line], tuple[float, float] | None]:
    """Characters -> lines (one baseline, split at the page's column gutter and at any gap
    wider than a gutter), and the gutter."""
    # One row per baseline, within 2 pt: small capitals and a bold lead term sit on the body's
    # baseline though their boxes end higher or lower.
    rows: list[list[Char]] = []
    start = -1e9
    for ch in sorted(chars, key=lambda c: c.baseline):
        if ch.baseline - start > 2:
            rows.append([])
            start = ch.baseline
        rows[-1].append(ch)
    gutter = column_gutter(width, rows)
    segments: list[list[Char]] = []
    for row in rows:
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
    return [_line(page_no, gutter, segment) for segment in segments], gutter


def column_gutter(width: float, rows: list[list[Char]]) -> tuple[float, float] | None:
    """The widest band of the page's middle half that (almost) no line covers: two columns'
    gutter, however narrow and wherever the columns' widths put it, which a few full-width
    lines (a title) may cross; None for one column."""
    if width <= 0 or not rows:
        return None
    covering = np.zeros(int(width) + 2, dtype=np.int64)
    for row in rows:
        covered = np.zeros_like(covering, dtype=bool)
        for ch in row:
            covered[max(int(ch.x0), 0) : int(ch.x1) + 1] = True
        covering += covered
    free = covering <= max(1, len(rows) // 20)
    # Columns of unequal width (a third beside two thirds) still put the gutter in the middle
    # half; beyond it a free band is a margin beside a short column, not a gutter.
    lo, hi = int(width / 4), int(3 * width / 4)
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


def _line(page_no: int, gutter: tuple[float, float] | None, segment: list[Char]) -> Line:
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
        if ch.icon:
            line.icons.append(ch.font or "unnamed font")
            text.append(OBJECT)
            continue
        text.append(ch.c)
    line.text = "".join(text).strip()
    letters = [c for c in segment if not c.icon] or segment
    line.size = statistics.median(c.size for c in letters)
    line.cap_size = max(c.size for c in letters)
    # Bold only when every letter is: a bold lead term and the body text after it on one line
    # is a paragraph's start, however long the term, never a heading.
    line.bold = all(c.bold for c in letters)
    line.lead_bold = letters[0].bold and letters[0].c.isupper() and not line.bold
    colours = {c.colour for c in letters}
    line.colour = colours.pop() if len(colours) == 1 else -1
    if gutter is None:
        line.col = 0  # one column: a short last line is no column of its own
    else:
        line.col = 0 if line.x1 <= gutter[1] else 1 if line.x0 >= gutter[0] else -1
    return line
