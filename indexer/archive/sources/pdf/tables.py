"""A table set in a column: cells side by side, row under row, read row by row.

Without this a table's cells come out as lines of their own, each cell read as a paragraph or
as a box's title. A table is found from its cells: in one column, lines that start at the same
places row after row, three rows or more with two cells or more side by side on one baseline.
Its rows are then read as one line each (the cells in order, a wrapped cell's lines joined),
flagged so that the reader keeps a table's rows in one block (``Line.table``), and a header
row printed again over the table's continuation is left out.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable

from indexer.archive.sources.pdf.chars import Char
from indexer.archive.sources.pdf.page import Line

#: Rows with two cells or more side by side that make a table.
MIN_ROWS = 3
TABLE_HEAD, TABLE_ROW = 1, 2  # Line.table: a table's first row, and any other


def table_rows(lines: list[Line], make: Callable[[list[Char]], Line]) -> list[Line]:
    """The page's lines with each table's rows read as one line apiece (`make`: a line of
    characters, as the page makes them)."""
    out = list(lines)
    for col in sorted({ln.col for ln in lines if ln.col >= 0}):
        # A side head in its lane stands beside the text, as no table's cell.
        column = sorted((ln for ln in out if ln.col == col and not ln.lane), key=lambda ln: ln.top)
        starts = _cell_starts(column)
        if len(starts) < 2:
            continue
        split: dict[int, int] = {}  # a cell split off a line -> that line
        rows = _rows(_cells(column, starts, make, split), starts)
        if rows is None:
            continue
        table = {split.get(id(ln), id(ln)) for row in rows for cell in row for ln in cell}
        merged = [_row_line(row, n == 0) for n, row in enumerate(rows)]
        out = [ln for ln in out if id(ln) not in table] + merged
    return out


def _cell_starts(column: list[Line]) -> list[float]:
    """Where a table's cells start in this column, left to right: the places where, on
    MIN_ROWS baselines or more, text starts beside other text of its size (a line beside a
    line, or a run of words after a gap wider than a word space)."""
    rows: dict[float, list[Line]] = {}
    # A list's bullet or step number, or a footnote's mark, stands before its text: no cell.
    for ln in (ln for ln in column if not (ln.bullet or ln.numbered or ln.note)):
        near = next((b for b in rows if abs(b - ln.baseline) < 1), ln.baseline)
        rows.setdefault(near, []).append(ln)
    pairs: Counter[tuple[float, float]] = Counter()
    for row in rows.values():
        if len({round(ln.size, 1) for ln in row}) > 1:
            continue
        xs = sorted(x for ln in row for x in _run_starts(ln))
        pairs.update((round(a), round(b)) for a, b in zip(xs, xs[1:]))
    return sorted({float(x) for pair, n in pairs.items() if n >= MIN_ROWS for x in pair})


def _run_starts(ln: Line) -> list[float]:
    """Where the line's runs of words start: its start, and after any gap wider than a word
    space (two cells set close enough to read as one line)."""
    chars = ln.chars
    return [ln.x0] + [
        ch.x0 for prev, ch in zip(chars, chars[1:]) if ch.x0 - prev.x1 > 0.6 * ch.size
    ]


def _cells(column: list[Line], starts: list[float], make, split: dict[int, int]) -> list:
    """The column's lines, each with the index of the cell it starts in; a line that runs from
    one cell into the next (their gap narrow enough to read as one line) split where the next
    starts (`split`: each part's id -> the line's); None for a line that is no table's (it
    starts at no cell, or runs across where the next starts)."""
    out: list[tuple[Line, int] | None] = []
    for ln in column:
        at = next((i for i, x in enumerate(starts) if abs(ln.x0 - x) <= 1.5), None)
        if at is None:
            out.append(None)
            continue
        cuts = [0] + [
            i for i, ch in enumerate(ln.chars)
            if i and any(abs(ch.x0 - x) <= 1.5 for x in starts[at + 1 :])
            and ch.x0 - ln.chars[i - 1].x1 > 0.6 * ch.size
        ]  # fmt: skip
        pieces = [ln.chars[i:j] for i, j in zip(cuts, [*cuts[1:], len(ln.chars)])]
        parts = [ln] if len(pieces) == 1 else [_split(ln, chars, make) for chars in pieces]
        cells = [(part, _cell_of(part.x0, starts)) for part in parts]
        if any(
            cell + 1 < len(starts) and part.x1 > starts[cell + 1] for part, cell in cells
        ):  # fmt: skip
            out.append(None)  # a line of text across where the next cell starts
            continue
        split.update((id(part), id(ln)) for part in parts if part is not ln)
        out += cells
    return out


def _cell_of(x: float, starts: list[float]) -> int:
    return min(range(len(starts)), key=lambda i: abs(starts[i] - x))


def _split(ln: Line, chars: list[Char], make) -> Line:
    part = make(chars)
    part.baseline = ln.baseline
    return part


def _rows(cells: list, starts: list[float]) -> list[list[list[Line]]] | None:
    """The table's rows, each its cells' lines: from the first line that has a cell beside it
    on its baseline to the last of the run of table lines that follows; a row ends where a
    gap wider than the cells' own line spacing follows. None when fewer than MIN_ROWS rows
    have two cells or more."""
    lines = [c[0] for c in cells if c is not None]
    paired = [
        ln for ln in lines if any(o is not ln and abs(o.baseline - ln.baseline) < 1 for o in lines)
    ]
    if not paired:
        return None
    first = next(i for i, c in enumerate(cells) if c is not None and c[0] is paired[0])
    run = []
    for c in cells[first:]:
        if c is None or abs(c[0].size - paired[0].size) > 0.05 * paired[0].size:
            break  # no table's line, or one set larger or smaller (a heading after it)
        run.append(c)
    run.sort(key=lambda c: (c[0].top, c[0].x0))
    # Rows set apart by space; in a table set solid, each line of the first cell starts one.
    spaced = any(b.top - a.bottom > 0.45 * b.size for (a, _), (b, _) in zip(run, run[1:]))
    rows: list[list[list[Line]]] = []
    bottom = -1e9
    for ln, cell in run:
        if not rows or (ln.top - bottom > 0.45 * ln.size if spaced else cell == 0):
            rows.append([[] for _ in starts])
        rows[-1][cell].append(ln)
        bottom = max(bottom, ln.bottom)
    while rows and sum(map(bool, rows[-1])) < 2:
        rows.pop()  # a line after the table, set where its first cell starts
    if sum(sum(map(bool, row)) >= 2 for row in rows) < MIN_ROWS:
        return None
    return rows


def _row_line(row: list[list[Line]], head: bool) -> Line:
    """A row read as one line: its cells in order, a wrapped cell's lines joined."""
    texts: list[str] = []
    for cell in row:
        for ln in sorted(cell, key=lambda ln: ln.top):
            if texts and texts[-1].endswith("-") and ln.text[:1].islower():
                texts[-1] = texts[-1][:-1] + ln.text  # a word hyphenated in its cell
            else:
                texts.append(ln.text)
    every = [ln for cell in row for ln in cell]
    first = min(every, key=lambda ln: (ln.top, ln.x0))
    return dataclasses.replace(
        first,
        chars=[ch for ln in every for ch in ln.chars],
        text=" ".join(texts),
        x0=min(ln.x0 for ln in every),
        x1=max(ln.x1 for ln in every),
        top=min(ln.top for ln in every),
        bottom=max(ln.bottom for ln in every),
        bold=all(ln.bold for ln in every),
        lead_bold=False,
        lead="",
        table=TABLE_HEAD if head else TABLE_ROW,
    )


def without_repeated_heads(body: list[Line]) -> list[Line]:
    """The body without a table's header row printed again over its continuation (the row
    after the table's last, across a column or page break, that repeats its first)."""
    out: list[Line] = []
    head = ""
    for ln in body:
        if ln.table == TABLE_HEAD:
            if out and out[-1].table and ln.text == head:
                continue
            head = ln.text
        out.append(ln)
    return out
