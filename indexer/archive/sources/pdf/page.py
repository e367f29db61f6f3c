"""One PDF page as the reader sees it: its characters set into lines, its column frame and its
filled areas. Nothing here knows about other pages (that is ``furniture``) or about blocks
(``reader``).

  * lines: characters on one baseline, split at the column gutter and at any gap wider than a
    gutter could be;
  * the column frame: the bands of the page that (almost) no line covers are the gutters,
    found from where the lines start and end, so two or three columns, unequal columns and
    narrow gutters part the same way; a line between two gutters is that column's, a line
    across one is full width;
  * raised marks: a footnote's mark set small above a line's baseline is read on that line
    (and kept apart from its words);
  * fills (``fills``): filled or framed rectangles merged into boxes;
  * turned text: characters set at an angle (a page number and running header along the
    page's outer edge) are lines of their own, read along their direction, and never body
    text: ``furniture`` reads page numbers from them.
"""

from __future__ import annotations

import ctypes
import dataclasses
import math
import re
import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from indexer.archive.sources.pdf.chars import (
    Char,
    drop_caps,
    raised_marks,
    split_wide,
    without_marks,
)
from indexer.archive.sources.pdf.fills import Rect, merge_fills, on_strips, outside_wide_boxes
from indexer.archive.sources.pdf.lanes import Gutter, column_of, side_heads, text_edges

# Font names say the weight when the font file does not (the standard 14 fonts report none).
BOLD_FONT = re.compile(r"bold|black|heavy|semibold|demi", re.I)
OBJECT = "\ufffc"  # stands for an icon inside a line until the text is joined
# PDFium's mark of a hyphen it saw at a line end (2); the hyphen and a soft hyphen printed at
# one (a browser prints a soft hyphen's break as U+2010): read as "-" (rejoined if a break).
HYPHENS = (2, 0x2010, 0x00AD)
# A list item's mark (in a text font: in an icon font it is an icon), or a note's ("* ...").
BULLETS = "•◦▪▫‣⁃●■*"
# A contents entry: its title, leader dots (spaced or not) and the page it starts on.
CONTENTS_ENTRY = re.compile(r".*\w.*?(?:\.\s*){4,}\d{1,4}")
# A step's or a rule's mark: "2. ", "2) ", "b) " or "6.10 ".
NUMBERED = re.compile(r"(\d{1,2}[.)]|\d{1,2}(?:\.\d{1,3})+|[a-z]\)) ")


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
    lead: str = ""  # that term's text
    bold_run: str = ""  # the text of its first letters in bold, whatever their colours
    lead_colour: int = 0  # its first letter's colour: a run-in heading may be set in its own
    tail_bold: bool = False  # its last letter bold (a lead term may run on to the next line)
    colour: int = -1  # the colour of all its letters, -1 when mixed
    font: str = ""  # the font of most of its letters
    face_apart: bool = False  # its font, colour or size is not the body text's (layout)
    col: int = 0  # its column, from 0 at the left; -1 full width (across a gutter)
    boxed: int = -1
    heading: bool = False
    icons: list[str] = field(default_factory=list)
    first_word: float = 0.0  # the width of its first word: would it have fit on the line above?
    beside_cap: bool = False  # set beside a drop capital: not indented, whatever its x0
    margin: bool = False  # in a narrow column of small print beside the text (margin notes)
    bullet: bool = False  # it starts with a list bullet ("• ...")
    numbered: bool = False  # it starts with a step's number ("2. ...")
    hang: float = 0.0  # with either: where its text starts (a list item's lines align there)
    note: str = ""  # the raised mark it starts with: a footnote's first line ("¹ A released ...")
    marks: list[str] = field(default_factory=list)  # raised footnote marks inside it
    footnote: bool = False  # a line of a footnote (set by marks)
    short_measure: bool = False  # justified short of its column's edge (beside a picture)
    around: bool = False  # set around a pull quote: the space it leaves is no paragraph's gap
    rank: float = 0.0  # a heading's: its level's size (set by marks.rank_headings)
    baseline: float = 0.0  # its row's (lines side by side on one row share it)
    lane: bool = False  # wholly left of its column's text edge (a side head, a box's title)
    banded: bool = False  # alone on a fill (a heading on a band or a pill; fills, marks)
    table: int = 0  # a table's row read as one line: 1 its first row, 2 any other (tables)
    term: bool = False  # a glossary's term on a line of its own over its definition (marks)


@dataclass
class Page:
    width: float
    height: float
    lines: list[Line]
    rects: list[Rect]
    number: int = 0  # in the PDF, from 0 (its lines' `page`)
    gutters: list[Gutter] = field(default_factory=list)
    turned: list[Line] = field(default_factory=list)  # text set at an angle (see turned_lines)


def read_page(page: Any, number: int) -> Page:
    """One page's characters (as lines) and filled areas."""
    import pypdfium2.raw as raw

    width, height = page.get_size()
    text_page = page.get_textpage()
    tp = text_page.raw
    buf, flags = ctypes.create_string_buffer(128), ctypes.c_int()
    rgba = [ctypes.c_uint() for _ in range(4)]
    matrix = raw.FS_MATRIX()
    chars, turned = [], []
    spaced = False  # a space the PDF itself sets before the next character
    for i in range(text_page.count_chars()):
        if raw.FPDFText_IsGenerated(tp, i) == 1:
            continue
        code = raw.FPDFText_GetUnicode(tp, i)
        if not chr(code).strip():
            spaced = True
            continue
        left, low, right, high = text_page.get_charbox(i, loose=True)
        ox, oy = ctypes.c_double(), ctypes.c_double()
        raw.FPDFText_GetCharOrigin(tp, i, ctypes.byref(ox), ctypes.byref(oy))
        # PDFium's size leaves out a scale the page sets on the text (a browser sets its text
        # in CSS pixels, scaled by 0.75 into points): the size as printed is its height.
        raw.FPDFText_GetMatrix(tp, i, ctypes.byref(matrix))
        size = raw.FPDFText_GetFontSize(tp, i) * (math.hypot(matrix.c, matrix.d) or 1.0)
        if code in HYPHENS:  # PDFium's mark of a hyphen it saw at a line end, or a hyphen
            code = ord("-")
        raw.FPDFText_GetFontInfo(tp, i, buf, 128, ctypes.byref(flags))
        font = buf.value.decode("latin-1")
        raw.FPDFText_GetFillColor(tp, i, *(ctypes.byref(v) for v in rgba))
        r, g, b, _ = (v.value for v in rgba)
        top, bottom = height - (oy.value + 0.75 * size), height - (oy.value - 0.2 * size)
        angle = raw.FPDFText_GetCharAngle(tp, i)  # radians; -1 when PDFium cannot tell
        if angle >= 0 and 0.05 < angle % (2 * math.pi) < 2 * math.pi - 0.05:
            # Along its own direction (top-down coordinates), and across it as its baseline.
            cos, sin, y = math.cos(angle), math.sin(angle), height - oy.value
            turned.append(Char(
                chr(code), left, right, height - high, height - low, "", size,
                baseline=y * cos - ox.value * sin, angle=angle, along=ox.value * cos + y * sin,
                space_before=spaced,
            ))  # fmt: skip
            spaced = False
            continue
        chars.append(Char(
            chr(code), left, right, top, bottom, font, size,
            unmapped=raw.FPDFText_HasUnicodeMapError(tp, i) == 1,
            bold=raw.FPDFText_GetFontWeight(tp, i) >= 600 or bool(BOLD_FONT.search(font)),
            colour=(r << 16) | (g << 8) | b, baseline=height - oy.value, space_before=spaced,
        ))  # fmt: skip
        spaced = False
    fills = []
    for obj in page.get_objects(filter=(raw.FPDF_PAGEOBJ_PATH,)):
        left, bottom, right, top = obj.get_bounds()
        fills.append((left, height - top, right, height - bottom))
    text_page.close()
    rects = merge_fills(fills, width * height)
    lines, gutters = lines_of(number, width, chars, rects)
    on_strips(lines, fills)
    return Page(width, height, lines, rects, number, gutters, turned_lines(number, turned))


def turned_lines(page_no: int, chars: list[Char]) -> list[Line]:
    """Characters set at an angle as lines: those of one angle on one baseline, in the order
    they read along it, split where a gap wider than a few letters parts them (a page number,
    a rule, then a running header along the page's edge)."""
    rows: dict[tuple[float, float], list[Char]] = {}
    for ch in sorted(chars, key=lambda c: (round(c.angle, 1), c.baseline)):
        near = next(
            (k for k in rows if k[0] == round(ch.angle, 1) and abs(k[1] - ch.baseline) < 2), None
        )
        rows.setdefault(near or (round(ch.angle, 1), ch.baseline), []).append(ch)
    lines = []
    for row in rows.values():
        row.sort(key=lambda c: c.along)
        segment = [row[0]]
        for prev, ch in zip(row, row[1:]):
            extent = abs(prev.x1 - prev.x0) * abs(math.cos(prev.angle)) + abs(
                prev.bottom - prev.top
            ) * abs(math.sin(prev.angle))
            gap = ch.along - (prev.along + extent)
            if gap > 2.5 * max(ch.size, 1):
                lines.append(_turned_line(page_no, segment))
                segment = []
            elif segment and (ch.space_before or gap > 0.15 * ch.size):
                ch.space_before = True
            segment.append(ch)
        lines.append(_turned_line(page_no, segment))
    return lines


def _turned_line(page_no: int, segment: list[Char]) -> Line:
    text = "".join((" " if ch.space_before and i else "") + ch.c for i, ch in enumerate(segment))
    return Line(
        segment, page_no,
        min(c.x0 for c in segment), max(c.x1 for c in segment),
        min(c.top for c in segment), max(c.bottom for c in segment),
        text=text.strip(), size=statistics.median(c.size for c in segment),
    )  # fmt: skip


def lines_of(
    page_no: int, width: float, chars: list[Char], boxes: list[Rect] | None = None
) -> tuple[list[Line], list[Gutter]]:
    """Characters -> lines (one baseline, split at the page's column gutters and at any gap
    wider than a gutter), and the gutters, left to right (`boxes`: the page's fills)."""
    caps = drop_caps(chars)
    # One row per baseline, within 2 pt: small capitals and a bold lead term sit on the body's
    # baseline though their boxes end higher or lower.
    rows: list[list[Char]] = []
    start = -1e9
    for ch in sorted(chars, key=lambda c: c.baseline):
        if ch.baseline - start > 2:
            rows.append([])
            start = ch.baseline
        rows[-1].append(ch)
    rows = raised_marks(rows)
    # A table of contents, or a box set across the columns, stands over their gutter.
    texts = ["".join(c.c for c in sorted(row, key=lambda c: c.x0)) for row in rows]
    plain = [row for row, text in zip(rows, texts) if not CONTENTS_ENTRY.fullmatch(text)]
    gutters = column_gutters(width, outside_wide_boxes(plain, boxes or [], width))
    body = statistics.median(ch.size for row in rows for ch in row) if rows else 0.0
    segments: list[list[Char]] = []
    bases: list[float] = []
    for row in rows:
        bases.append(min(ch.baseline for ch in row))
        row.sort(key=lambda c: c.x0)
        parts = [[row[0]]]  # the row split at the gutters, then at gaps wider than a word space
        for prev, ch in zip(row, row[1:]):
            gap = ch.x0 - prev.x1
            # A gap over a gutter parts the columns; so does one wider than any word space
            # from the left column's end (a side head in the lane at the right column's left;
            # a rule's number hanging in the gutter stays with its text).
            across = any(
                prev.x1 <= g1 and ch.x0 >= g0
                and (gap >= 0.5 * (g1 - g0) or (gap > 1.2 * ch.size and prev.x1 <= g0 + 1))
                for g0, g1 in gutters
            )  # fmt: skip
            # Text set much larger beside text of the body's size (a pull quote between the
            # columns) is a line of its own.
            small, big = sorted((prev.size, ch.size))
            apart = big >= 1.3 * small and 0.9 * body <= small <= 1.12 * body and gap > 0.3 * small
            if across or apart:
                parts.append([])
            parts[-1].append(ch)
        for part in parts:
            segments += split_wide(part)
            bases += [bases[-1]] * (len(segments) - len(bases))
    lines = []
    edges = text_edges(segments, gutters)
    for segment, base in zip(*side_heads(segments, bases, gutters, edges)):
        line = _line(page_no, gutters, segment)
        line.baseline = base
        edge = edges.get(line.col)
        # A heading set large at the column's left edge stands over the text, not in a lane.
        line.lane = (
            edge is not None and line.x1 < edge - 0.3 * line.size and line.size <= 1.12 * body
        )  # fmt: skip
        lines.append(line)
    lines = _lane_runs(lines)
    for x1, top, bottom in caps:
        for line in lines:
            if top - 1 <= line.top and line.bottom <= bottom + 2 and 0 <= line.x0 - x1 < 12:
                line.beside_cap = True
    return lines, gutters


def _lane_runs(lines: list[Line]) -> list[Line]:
    """The lines set in a lane left of a column's text (``Line.lane``), each run of them set
    alike line under line joined into one line, where its first stood: a side head, or a box's
    title, wrapped in the narrow lane."""
    runs: dict[int, Line] = {}  # by the id of a run's first line: the run as one line
    gone: set[int] = set()  # the ids of the lines joined into a run above them
    first: Line | None = None  # the first line of the run being read, and its last
    last: Line | None = None
    for ln in sorted((ln for ln in lines if ln.lane), key=lambda ln: (ln.col, ln.baseline)):
        if (
            first is not None and last is not None and last.col == ln.col
            and (last.font, last.colour) == (ln.font, ln.colour)
            and ln.top - last.bottom < 0.6 * ln.size
        ):  # fmt: skip
            run = runs[id(first)]
            text = run.text[:-1] if run.text.endswith("-") else f"{run.text} "
            runs[id(first)] = dataclasses.replace(
                run, chars=run.chars + ln.chars, text=text + ln.text, x0=min(run.x0, ln.x0),
                x1=max(run.x1, ln.x1), bottom=ln.bottom, tail_bold=ln.tail_bold,
            )  # fmt: skip
            gone.add(id(ln))
        else:
            first = runs[id(ln)] = ln
        last = ln
    return [runs.get(id(ln), ln) for ln in lines if id(ln) not in gone]


def column_gutters(width: float, rows: list[list[Char]]) -> list[Gutter]:
    """The bands between the page's text edges that (almost) no line covers, left to right:
    the gutters of two, three or more columns, however narrow and wherever unequal widths put
    them, which a few full-width lines (a title) may cross; none for one column. A band
    beside the text (a margin by a short column) is none, nor one that would leave a column
    narrower than an eighth of the text (a gap inside a table), nor one right of a lane of
    lines all in bold (side heads beside a single column of text)."""
    if width <= 0 or not rows:
        return []
    covering = np.zeros(int(width) + 2, dtype=np.int64)
    for row in rows:
        covered = np.zeros_like(covering, dtype=bool)
        for ch in row:
            covered[max(int(ch.x0), 0) : int(ch.x1) + 1] = True
        covering += covered
    text = np.flatnonzero(covering)
    if not len(text):
        return []
    lo, hi = int(text[0]), int(text[-1])
    # Full-width lines (a title, an introduction over the columns, a sidebar across the foot)
    # cross a gutter, but far fewer of them than the lines of a column cover its width.
    typical = float(np.median(covering[lo : hi + 1]))
    if typical < 2:
        return []  # a line or two: no columns to tell apart
    free = covering <= max(1.0, 0.25 * typical)
    # Wider than a word space (spaces lined up on a few rows are no gutter).
    narrowest = max(3.0, 0.8 * statistics.median(ch.size for row in rows for ch in row))
    least = (hi - lo) / 8
    bands: list[Gutter] = []
    start = None
    for x in range(lo, hi + 1):
        if free[x]:
            start = x if start is None else start
        elif start is not None:
            if x - start >= narrowest:
                bands.append((float(start), float(x)))
            start = None
    gutters: list[Gutter] = []
    left = float(lo)
    for g0, g1 in bands:
        # What stands left of the band all in bold is a lane of side heads, no column.
        lane = all(ch.bold for row in rows for ch in row if left <= ch.x0 and ch.x1 <= g0)
        if g0 - left >= least and hi - g1 >= least and not lane:
            gutters.append((g0, g1))
            left = g1
    return gutters or _beside_short_column(width, free, narrowest)


def _beside_short_column(width: float, free: np.ndarray, narrowest: float) -> list[Gutter]:
    """Two columns, one of them too short to count (a page's last few lines): the widest free
    band of the page's middle half, which unequal columns still put the gutter in; beyond it
    a free band is a margin, not a gutter."""
    lo, hi = int(width / 4), int(3 * width / 4)
    best: Gutter | None = None
    start = None
    for x in range(lo, hi + 2):
        if x <= hi and free[x]:
            start = x if start is None else start
        elif start is not None:
            if best is None or x - start > best[1] - best[0]:
                best = (float(start), float(x))
            start = None
    return [best] if best is not None and best[1] - best[0] >= narrowest else []


def line_of(page: Page, chars: list[Char]) -> Line:
    """A line of the page made of these characters (set on one baseline)."""
    return _line(page.number, page.gutters, chars)


def _line(page_no: int, gutters: list[Gutter], segment: list[Char]) -> Line:
    segment, note, marks = without_marks(segment)
    line = Line(
        segment,
        page_no,
        min(c.x0 for c in segment),
        max(c.x1 for c in segment),
        min(c.top for c in segment),
        max(c.bottom for c in segment),
    )
    # A word space is a gap clearly wider than the letters' own: in letter-spaced text
    # ("G L O S S A R Y", a number set apart in a badge) every letter stands apart.
    gaps = [b.x0 - a.x1 for a, b in zip(segment, segment[1:])]
    tracking = max(statistics.median(gaps), 0.0) if gaps else 0.0
    line.note, line.marks = note, marks
    text: list[str] = []
    lead_end = None  # where the text of a bold lead term ends
    bold_end = None  # where its first letters in bold end
    for before, ch in zip([None, *segment], segment):
        if before is not None and _word_space(before, ch, tracking) and text and text[-1] != " ":
            text.append(" ")
        # The lead term: the first letters in bold, in the first one's colour (a run-in
        # heading in colour may stand before a bold term in the body's colour).
        if lead_end is None and (not ch.bold or ch.colour != segment[0].colour):
            lead_end = len(text)
        if bold_end is None and not ch.bold:
            bold_end = len(text)
        if ch.icon:
            line.icons.append(ch.font or "unnamed font")
            text.append(OBJECT)
            continue
        text.append(ch.c)
    line.text = "".join(text).strip()
    line.lead = "".join(text[:lead_end]).strip() if lead_end else ""
    line.bold_run = "".join(text[:bold_end]).strip() if bold_end else ""
    line.lead_colour = segment[0].colour
    line.first_word = _first_word_width(segment, tracking)
    if line.text[:1] in BULLETS and line.text[1:2] == " " and len(segment) > 1:
        line.bullet, line.hang = True, segment[1].x0
    elif (mark := NUMBERED.match(line.text)) and len(segment) > len(mark.group(1)):
        line.numbered, line.hang = True, segment[len(mark.group(1))].x0
    letters = [c for c in segment if not c.icon] or segment
    line.size = statistics.median(c.size for c in letters)
    line.cap_size = max(c.size for c in letters)
    # Bold only when every letter is: a bold lead term and the body text after it on one line
    # is a paragraph's start, however long the term, never a heading.
    line.bold = all(c.bold for c in letters)
    line.lead_bold = letters[0].bold and letters[0].c.isupper() and not line.bold
    line.tail_bold = letters[-1].bold
    colours = {c.colour for c in letters}
    line.colour = colours.pop() if len(colours) == 1 else -1
    line.font = Counter(c.font for c in letters).most_common(1)[0][0]
    # The column it stands in (0 for one column: a short last line is no column of its own);
    # across a gutter, full width.
    line.col = column_of(line.x0, gutters)
    if any(line.x0 < g0 and line.x1 > g1 for g0, g1 in gutters):
        line.col = -1
    return line


def _first_word_width(segment: list[Char], tracking: float) -> float:
    """The width of a line's first word (to its first word space)."""
    end = segment[0]
    for before, ch in zip(segment, segment[1:]):
        if _word_space(before, ch, tracking):
            break
        end = ch
    return end.x1 - segment[0].x0


def _word_space(before: Char, ch: Char, tracking: float) -> bool:
    """Whether a word space parts two letters of a line: a gap clearly wider than the letters'
    own (`tracking`), or a space the PDF sets between them (however narrow the gap)."""
    return ch.x0 - before.x1 > tracking + 0.15 * ch.size or (ch.space_before and ch.x0 > before.x0)
