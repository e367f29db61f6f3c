"""Characters of a PDF page, and those that stand apart from their line's baseline: a drop
capital set over several lines (moved into its first line) and a raised footnote mark (moved
onto the line of the word it stands by, and kept out of its words); a row of characters split
where lines stand side by side. ``page`` sets the characters into lines."""

from __future__ import annotations

import bisect
import re
import statistics
from dataclasses import dataclass

ICON_FONT = re.compile(r"dingbat|symbol|icon|glyph|wingding", re.I)
NOTE_MARK = re.compile(r"[\d*†‡§]{1,3}")  # a footnote's mark, set raised ("go.¹", "¹ A ...")


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
    # The PDF sets a space before it: a word space however narrow the gap (an italic letter's
    # box may reach into the space after it).
    space_before: bool = False
    raised: bool = False  # set small above the baseline of the line it was read on
    # Set at an angle (radians, clockwise from the page's x axis; 0 for a line across the
    # page): `baseline` is then its offset across its own direction and `along` its place
    # along it.
    angle: float = 0.0
    along: float = 0.0

    @property
    def icon(self) -> bool:
        return bool(ICON_FONT.search(self.font)) or self.unmapped or 0xE000 <= ord(self.c) <= 0xF8FF


def raised_marks(rows: list[list[Char]]) -> list[list[Char]]:
    """A mark set small and raised beside a word (a footnote's "¹") has a baseline of its own:
    it is moved onto the row of the word it stands by (the first or last of a line)."""
    sizes = [ch.size for row in rows for ch in row]
    if not sizes:
        return rows
    small = 0.85 * statistics.median(sizes)
    bases = [row[0].baseline for row in rows]
    for i, row in enumerate(rows):
        if min(ch.size for ch in row) >= small:
            continue
        row.sort(key=lambda c: c.x0)
        for run in _runs(row):
            if len(run) > 3 or max(ch.size for ch in run) >= small:
                continue
            base = run[0].baseline
            near = range(i + 1, bisect.bisect_right(bases, base + 1.3 * run[0].size))
            by = next((j for j in near if _stands_by(run, rows[j])), None)
            if by is not None:
                for ch in run:
                    row.remove(ch)
                    ch.raised, ch.baseline = True, rows[by][0].baseline
                    rows[by].append(ch)
    return [row for row in rows if row]


def _runs(row: list[Char]) -> list[list[Char]]:
    """A row's characters (sorted by x) in runs set close together, as a word's letters are."""
    runs = [[row[0]]]
    for prev, ch in zip(row, row[1:]):
        if ch.x0 - prev.x1 > 0.3 * ch.size:
            runs.append([])
        runs[-1].append(ch)
    return runs


def _stands_by(run: list[Char], row: list[Char]) -> bool:
    """Whether a small run is raised beside a larger letter of `row`, touching it."""
    size = max(ch.size for ch in run)
    for ch in row:
        rise = ch.baseline - run[0].baseline
        if ch.size * 0.85 < size or not 0.2 * ch.size <= rise <= 0.65 * ch.size:
            continue
        if (
            -0.5 <= run[0].x0 - ch.x1 <= 0.5 * ch.size
            or -0.5 <= ch.x0 - run[-1].x1 <= 0.5 * ch.size
        ):
            return True
    return False


def drop_caps(chars: list[Char]) -> list[tuple[float, float, float]]:
    """Drop capitals (a paragraph's first letter set over several lines) moved into the first
    line beside them, as that line's first letter; returned as (right edge, top, bottom) of
    the space each took, whose lines start beside it rather than indented."""
    if not chars:
        return []
    body = statistics.median(ch.size for ch in chars)
    found = []
    for cap in [ch for ch in chars if ch.size >= 2.2 * body and ch.c.isalpha()]:
        alone = not any(
            other is not cap and other.size > 1.5 * body and abs(other.baseline - cap.baseline) < 2
            for other in chars
        )
        beside = [
            ch for ch in chars
            if ch is not cap and 0 <= ch.x0 - cap.x1 < 2 * body and abs(ch.top - cap.top) < body
        ]  # fmt: skip
        if not alone or not beside:
            continue
        first = min(beside, key=lambda ch: ch.x0)
        found.append((cap.x1, cap.top, cap.bottom))
        cap.x1, cap.top, cap.bottom = first.x0, first.top, first.bottom
        cap.size, cap.baseline = first.size, first.baseline
    return found


def without_marks(segment: list[Char]) -> tuple[list[Char], str, list[str]]:
    """The line's letters without its raised footnote marks; the mark leading the line (a
    footnote's own) and the others (a raised "nd" by a "2" is a word's part and stays)."""
    kept: list[Char] = []
    note, marks = "", []
    i = 0
    while i < len(segment):
        j = i
        while j < len(segment) and segment[j].raised:
            j += 1
        mark = "".join(ch.c for ch in segment[i:j])
        if j > i and NOTE_MARK.fullmatch(mark) and not (kept and kept[-1].c.isdigit()):
            if not kept:
                note = mark
            else:
                marks.append(mark)
            i = j
            continue
        kept += segment[i : max(j, i + 1)]
        i = max(j, i + 1)
    return (kept, note, marks) if kept else (segment, "", [])


def split_wide(chars: list[Char]) -> list[list[Char]]:
    """Characters of one column's row split at gaps wider than any word space (2.5 letters):
    lines side by side. A justified line of few words spreads them with equal gaps however
    wide: those are word spaces."""
    gaps = [b.x0 - a.x1 for a, b in zip(chars, chars[1:])]
    wide = [i for i, (g, ch) in enumerate(zip(gaps, chars[1:])) if g > 2.5 * max(ch.size, 1)]
    if len(wide) >= 2 and max(gaps[i] for i in wide) - min(gaps[i] for i in wide) < 0.5:
        return [chars]
    cuts = [0, *(i + 1 for i in wide), len(chars)]
    return [chars[a:b] for a, b in zip(cuts, cuts[1:])]
