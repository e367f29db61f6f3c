"""A page's filled and framed rectangles as the reader sees them: boxes (a title strip or a
tab on a box's body merged into it), and the rows of text a box set across the columns holds,
which stand over the columns' gutter as a title does."""

from __future__ import annotations

from indexer.archive.sources.pdf.chars import Char

Rect = tuple[float, float, float, float]  # x0, top, x1, bottom (top-down, like the lines)


def merge_fills(fills: list[Rect], page_area: float) -> list[Rect]:
    """The page's boxes: rectangles at least 20 pt each way, where a strip stacked on another
    fill of the same width (a box's title bar on its body), or a short one within its width (a
    title on a folder tab), counts as part of it. Thinner shapes are rules and marks (a gutter
    line, a square by a header), never boxes; a fill over half the page or more is its
    background (tinted paper), never a box either."""
    shapes = sorted(
        (f for f in fills
         if f[2] - f[0] > 20 and f[3] - f[1] > 4 and (f[2] - f[0]) * (f[3] - f[1]) < page_area / 2),
        key=lambda f: f[1],
    )  # fmt: skip
    merged: list[Rect] = []
    for x0, top, x1, bottom in shapes:
        for i, (m0, mtop, m1, mbottom) in enumerate(merged):
            same_width = abs(m0 - x0) < 2 and abs(m1 - x1) < 2
            # A short strip within the width of the fill it stands on: a title on a tab.
            tab = (m0 - 2 <= x0 and x1 <= m1 + 2 and bottom - top <= 30) or (
                x0 - 2 <= m0 and m1 <= x1 + 2 and mbottom - mtop <= 30
            )
            if (same_width or tab) and top <= mbottom + 1.5 and bottom >= mtop - 1.5:
                merged[i] = (min(m0, x0), min(mtop, top), max(m1, x1), max(mbottom, bottom))
                break
        else:
            merged.append((x0, top, x1, bottom))
    return [m for m in merged if m[3] - m[1] > 20]


def on_strips(lines: list, fills: list[Rect]) -> None:
    """Mark each line set alone on a strip too low to be a box (a heading on a pill or a
    band of one line's height): ``Line.banded``."""
    strips = [f for f in fills if f[2] - f[0] > 20 and 4 < f[3] - f[1] <= 20]
    for ln in lines:
        ln.banded = ln.banded or any(
            x0 - 1 <= ln.x0 and ln.x1 <= x1 + 1 and top - 2 <= ln.top and ln.bottom <= bottom + 2
            for x0, top, x1, bottom in strips
        )


def outside_wide_boxes(rows: list[list[Char]], boxes: list[Rect], width: float) -> list[list[Char]]:
    """The rows of characters not held by a box wider than half the page (an example set
    across both columns): such a box's lines cross the gutter, and are no column's."""
    wide = [b for b in boxes if b[2] - b[0] > width / 2]
    return [
        row for row in rows
        if not any(x0 <= min(c.x0 for c in row) and max(c.x1 for c in row) <= x1
                   and top <= row[0].top and row[0].bottom <= bottom
                   for x0, top, x1, bottom in wide)
    ]  # fmt: skip
