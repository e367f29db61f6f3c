"""What the reader measures over the whole book before it reads blocks: each column's edges
and whether it is set justified or ragged, whether the book parts its paragraphs with space
(then a short line with none under it is a line break inside one: a callout set on a line of
its own), and whether it hangs its paragraphs' first lines out to the column's edge (then a
line set in from the edge goes on a paragraph, and one at the edge starts one)."""

from __future__ import annotations

from collections import Counter
from itertools import groupby
from typing import NamedTuple

from indexer.archive.sources.pdf.marks import ends_sentence
from indexer.archive.sources.pdf.page import Line

Edges = dict[tuple[int, int], list[float]]  # (page, column): left, right, justified (1.0)


class Habits(NamedTuple):
    """How the book marks its paragraphs, measured over it before its blocks are read."""

    spaced: bool = False  # it parts them with space (parted_by_space)
    hanging: dict[tuple[int, int], float] | None = None  # it hangs their first lines (hung_lines)
    apart: dict[int, float] = {}  # a passage's right edge, by its lines' ids (apart_edges)


def column_edges(body: list[Line]) -> Edges:
    """Each column's left and right edges, from its text lines (a heading may stand out into
    the gutter), and whether it is set justified (1.0): most of its lines reach its edge, a
    paragraph's last line ends short of it; otherwise ragged right, where a line ends wherever
    the next word did not fit."""
    edges: Edges = {}
    # From the text's own lines where the column has any (a box may be set in from them).
    kinds = [
        [ln for ln in body if not ln.heading and not ln.lane and ln.boxed < 0],
        [ln for ln in body if not ln.heading and not ln.lane and ln.boxed >= 0],
        [ln for ln in body if ln.heading or ln.lane],
    ]
    source: dict[tuple[int, int], int] = {}
    for kind, lines in enumerate(kinds):
        for ln in lines:
            key = (ln.page, ln.col)
            edge = edges.setdefault(key, [ln.x0, ln.x1, 0.0])
            if source.setdefault(key, kind) == kind and kind < 2:
                edge[0], edge[1] = min(edge[0], ln.x0), max(edge[1], ln.x1)
    # A line reaching further into the gutter than any other by more than a letter (a label
    # set over the columns) sets no edge: the next longest does.
    ends: dict[tuple[int, int], list[float]] = {}
    for ln in kinds[0]:
        ends.setdefault((ln.page, ln.col), []).append(ln.x1)
    for key, xs in ends.items():
        xs.sort(reverse=True)
        if len(xs) >= 4 and xs[0] - xs[1] > 5 and source.get(key) == 0:
            edges[key][1] = xs[1]
    reach: Counter[tuple[int, int]] = Counter()
    count: Counter[tuple[int, int]] = Counter()
    for ln in body:
        if not ln.heading and ln.boxed < 0:
            count[(ln.page, ln.col)] += 1
            reach[(ln.page, ln.col)] += edges[(ln.page, ln.col)][1] - ln.x1 < 1.0
    for key, edge in edges.items():
        edge[2] = float(count[key] >= 4 and reach[key] >= count[key] / 2)
    return edges


def parted_by_space(body: list[Line], edges: Edges) -> bool:
    """Whether the book parts its paragraphs with space: of the text's lines that end a
    sentence well short of their column's edge with another line of the text under them, at
    least five, and three in four, have space under them."""
    spaced = tight = 0
    for above, ln in zip(body, body[1:]):
        plain = all(_of_the_text(x) and not x.around for x in (above, ln))
        if not plain or (above.page, above.col) != (ln.page, ln.col):
            continue
        left, right, _ = edges[(ln.page, ln.col)]
        if ends_sentence(above.text) and right - above.x1 > 0.25 * (right - left):
            if ln.top - above.bottom > 0.45 * ln.size:
                spaced += 1
            else:
                tight += 1
    return spaced >= 5 and tight <= spaced / 3


def hung_lines(body: list[Line], edges: Edges) -> dict[tuple[int, int], float] | None:
    """Where the lines of the text stand in each column, when the book hangs its paragraphs'
    first lines (of the text's lines, half again as many are set in from their column's edge,
    by one to three letters, as start at it): the commonest start of each column's lines (a
    column holding only a paragraph's last lines has no first line at its edge). None
    otherwise."""
    inside = at_edge = 0
    for ln in body:
        if not _of_the_text(ln) or ln.bullet:
            continue
        offset = ln.x0 - edges[(ln.page, ln.col)][0]
        if offset < 0.3 * ln.size:
            at_edge += 1
        elif 0.6 * ln.size < offset < 3 * ln.size:
            inside += 1
    if inside < 10 or inside <= 1.5 * at_edge:
        return None
    starts: dict[tuple[int, int], Counter[int]] = {}
    for ln in body:
        if _of_the_text(ln):
            starts.setdefault((ln.page, ln.col), Counter())[round(ln.x0)] += 1
    return {key: float(c.most_common(1)[0][0]) for key, c in starts.items()}


def _of_the_text(ln: Line) -> bool:
    """Whether a line is one of the text's own: no heading, side head, margin note, footnote
    or box line."""
    return not (ln.heading or ln.lane or ln.margin or ln.footnote) and ln.boxed < 0


def apart_edges(body: list[Line]) -> dict[int, float]:
    """A passage set in a face of its own, ragged right (a chapter's introduction in colour):
    the right edge of its measure as its lines show it, the furthest any of them reaches in
    its column, by its lines' ids. Its lines end where the next word would not fit within
    that measure, which may be narrower than the column's."""

    def passage(ln: Line) -> tuple | int:
        if ln.face_apart and not ln.heading:
            return (ln.page, ln.col, ln.font, round(ln.size, 1), ln.colour)
        return id(ln)  # a line of no passage: a run of its own

    edges: dict[int, float] = {}
    for _, run in groupby(body, key=passage):
        lines = list(run)
        edges.update((id(ln), max(x.x1 for x in lines)) for ln in lines)
    return edges
