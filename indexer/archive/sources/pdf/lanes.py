"""Lanes: a narrow strip at a column's left, beside its text, that holds side heads (a
section's heading set flush right in it, its first line on the baseline of the paragraph's
first line beside it) and boxes' titles. ``page`` parts such a heading from the text's line it
shares a baseline with (``page`` then joins its lines, wrapped in the narrow lane, into one
line).

A column's text edge is where its plain lines start; what stands wholly left of it, set no
larger than the text, is in its lane (``Line.lane``)."""

from __future__ import annotations

from collections import Counter

from indexer.archive.sources.pdf.chars import Char

Gutter = tuple[float, float]  # x0, x1 of the band between two columns


def column_of(x: float, gutters: list[Gutter]) -> int:
    """The column a line starting at `x` stands in, from 0 at the left."""
    return sum(1 for g0, _ in gutters if x >= g0)


def text_edges(segments: list[list[Char]], gutters: list[Gutter]) -> dict[int, float]:
    """Each column's text edge: the leftmost edge that three lines or more start at (within a
    point), of the lines set plain (not all bold, in the page's commonest colour), which a
    box's text set in from it does not move, nor side heads set flush left in a lane."""
    colours = Counter(ch.colour for seg in segments for ch in seg)
    common = colours.most_common(1)[0][0] if colours else 0
    starts: Counter[tuple[int, int]] = Counter(
        (column_of(seg[0].x0, gutters), round(seg[0].x0))
        for seg in segments
        if seg[0].colour == common and not all(ch.bold for ch in seg)
    )
    edges: dict[int, float] = {}
    for col, x in sorted(starts):
        near = starts[(col, x)] + starts[(col, x - 1)] + starts[(col, x + 1)]
        if col not in edges and near >= 3:
            edges[col] = x - 0.5
    return edges


def worded(segment: list[Char]) -> bool:
    """Whether the characters hold a word (two letters or more), not a mark or a number."""
    return sum(ch.c.isalpha() for ch in segment) >= 2


def side_heads(
    segments: list[list[Char]], bases: list[float], gutters: list[Gutter], edges: dict[int, float]
) -> tuple[list[list[Char]], list[float]]:
    """A side head (a heading set in a lane at its column's left, its first line on the
    baseline of the text's line beside it) is a line of its own: a line starting left of its
    column's text edge, where a gap wider than a word space with a change of face falls on
    that edge, is parted there (a rule's number hanging in such a lane stays on its line)."""
    out: list[list[Char]] = []
    out_bases: list[float] = []
    for seg, base in zip(segments, bases):
        edge = edges.get(column_of(seg[0].x0, gutters))
        # The first letter at the edge or past it (a box's text is set in from it).
        cut = next((i for i, ch in enumerate(seg) if ch.x0 >= edge - 1.5), 0) if edge else 0
        parted = (
            cut > 0
            and seg[cut].x0 - seg[cut - 1].x1 > 0.4 * seg[cut].size
            and ((seg[cut].font, seg[cut].colour) != (seg[cut - 1].font, seg[cut - 1].colour))
        )
        if parted and worded(seg[:cut]):
            out += [seg[:cut], seg[cut:]]
            out_bases += [base, base]
        else:
            out.append(seg)
            out_bases.append(base)
    return out, out_bases
