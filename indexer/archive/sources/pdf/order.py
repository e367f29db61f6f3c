"""A page's lines in reading order: bands of the page read top to bottom, the columns of each
band from left to right, a slim column of small print (margin notes) and a pull quote between
the columns after them; a side head in a lane at a column's left before the text beside it.
``reader`` reads blocks from the lines in this order."""

from __future__ import annotations

import statistics
from bisect import bisect_right

from indexer.archive.sources.pdf.page import Line


def reading_order(lines: list[Line]) -> list[Line]:
    """A page's lines in reading order: each full-width line closes a band of the page, and
    within a band the columns are read from left to right. A short line set right above a
    full-width one, from the same left edge (a sidebar's title), opens its band. Lines side by
    side on one baseline in a column read from the left: a side head (its lines one line) before
    the text's line beside its first."""
    repeated = _pull_quotes(lines)
    lines = [ln for ln in lines if id(ln) not in repeated]
    _spanning_headings(lines)
    wide = [ln for ln in lines if ln.col < 0]
    for ln in lines:
        if ln.col >= 0 and any(
            abs(w.x0 - ln.x0) < 2 and 0 <= w.top - ln.bottom < 0.6 * ln.size for w in wide
        ):
            ln.col = -1
    full = sorted(ln.top for ln in lines if ln.col < 0)
    # A slim column of small print beside the text (margin notes) is read after the text's
    # columns (a text column that holds a box of small print is as wide as the others).
    sizes = [ln.size for ln in lines]
    columns: dict[int, list[Line]] = {}
    for ln in lines:
        if ln.col >= 0:
            columns.setdefault(ln.col, []).append(ln)
    widths = {
        col: max(ln.x1 for ln in mine) - min(ln.x0 for ln in mine) for col, mine in columns.items()
    }
    if sizes:
        page_size = statistics.median(sizes)
        for col, mine in columns.items():
            slim = widths[col] < 0.6 * max(widths.values())
            if slim and statistics.median(ln.size for ln in mine) < 0.92 * page_size:
                for ln in mine:
                    ln.margin = True
    return sorted(
        lines, key=lambda ln: (bisect_right(full, ln.top), ln.margin, ln.col, ln.baseline, ln.x0)
    )


def _spanning_headings(lines: list[Line]) -> None:
    """A heading set clearly larger than the text that no line of another column stands beside,
    where every other column has text above it and all go on level below it (`_level_below`), is
    set across the columns: it closes a band of the page as a full-width line does. A number set
    large behind it (a chapter's numeral) is no text. Such a heading starts in the first column:
    one in a later column is that column's own, however level the columns go on under it (TeX
    sets the lines of both columns on one grid of baselines)."""
    if not lines:
        return
    size = statistics.median(ln.size for ln in lines)
    for ln in lines:
        if ln.col != 0 or ln.size <= 1.12 * size:
            continue
        text = [o for o in lines if o.col >= 0 and not o.text.isdigit()]
        firsts = {}  # each column's first line below the heading
        for col in {o.col for o in text}:
            mine = [o for o in text if o.col == col and o is not ln]
            above = [o.bottom for o in mine if o.bottom <= ln.top + 2]
            below = [o for o in mine if o.top >= ln.bottom - 2]
            if not (above or col == ln.col) or not below or len(above) + len(below) < len(mine):
                break  # another column without text above it, none below it, or a line beside
            if col == ln.col and above and ln.top - max(above) < 0.45 * ln.size:
                break  # no space above it: a line of a passage set large, no heading
            firsts[col] = min(below, key=lambda o: o.top)
        else:
            if len(firsts) >= 2 and all(
                _level_below(first, firsts[ln.col], ln, size) for first in firsts.values()
            ):
                ln.col = -1


def _level_below(first: Line, reference: Line, heading: Line, size: float) -> bool:
    """Whether a column's text under a `heading` set across the columns starts level with the
    heading's own column (`reference`, its first line below the heading): at its height, or
    lower by the space a heading of the column's own keeps above itself when the column goes
    on with one of a lower rank, set smaller (a browser keeps a heading's top margin at a
    column's top under a heading that spans the columns); a larger one below would outrank
    the heading. Only under text: a heading's own next line (a heading wrapped in its column)
    measures nothing."""
    drop = first.top - reference.top
    subheading = 1.05 * size < first.size < heading.size and reference.size < 0.9 * heading.size
    return abs(drop) < 0.3 * size or (subheading and 0 < drop < 1.5 * first.size)


def _pull_quotes(lines: list[Line]) -> set[int]:
    """Lines across the gutter that stop well inside both columns (a pull quote set between
    them) are read after the columns, as margin notes are, and close no band of the page;
    around them, the space they leave is no paragraph's gap, and the lines of the right
    column that start beside them are not indented. Returns the quotes' lines (by id) when
    they repeat the page's text, as a pull quote does: no words of their own."""
    cols = [ln for ln in lines if ln.col >= 0]
    if not cols:
        return set()
    lo, hi = min(ln.x0 for ln in cols), max(ln.x1 for ln in cols)
    inset = 0.15 * (hi - lo)
    quotes = [ln for ln in lines if ln.col < 0 and ln.x0 > lo + inset and ln.x1 < hi - inset]
    for q in quotes:
        q.col, q.margin = max(ln.col for ln in cols) + 1, True  # a column of its own
        for ln in cols:
            if q.top - 2 * ln.size < ln.top < q.bottom + 2 * ln.size:
                # A column the quote reaches into starts its lines after it.
                left = min(other.x0 for other in cols if other.col == ln.col)
                ln.around = True
                ln.beside_cap = ln.beside_cap or left < q.x1 <= ln.x0 + 1
    said = _letters(" ".join(q.text for q in quotes))
    text = " ".join(ln.text for ln in sorted(cols, key=lambda ln: (ln.col, ln.top)))
    repeats = said and said in _letters(text)
    return {id(q) for q in quotes} if repeats else set()


def _letters(text: str) -> str:
    """A text's letters and digits only, lower case (a quote compared with the text it
    repeats, whatever its line breaks and hyphens)."""
    return "".join(c for c in text.lower() if c.isalnum())
