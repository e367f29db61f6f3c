"""What a rulebook prints on every page around its text: running headers and footers, corner
marks, and the printed page number, found by comparing the pages with one another.

  * furniture: a line repeated at one height with the same text (digits aside) on at least
    half of the pages (at a page's edge, on two), or a line set apart at a page edge at a
    height that recurs so (a header naming each page's chapter changes its text, not its
    place), or a mark of a few letters beside the columns (a thumb tab), or text set at an
    angle (a page number and header turned along the page's edge);
  * the printed number: of the number-like tokens a page prints in its furniture or at its
    edges (else on a line of its own), the one whose value minus the page's place in the PDF
    is the same on most pages
    (the numbers that count up one a page), wherever and however each page sets it
    ("57", "— 57 —", "p. 57", "57 | Chapter"); pages without one follow the others' count;
    the PDF's own page labels only when no page prints a number;
  * a table of contents: its entries (a title, dot leaders, a page number), and the short
    label right above them ("Contents"), are no text.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from dataclasses import dataclass

from indexer.archive.sources.pdf.page import CONTENTS_ENTRY, Line, Page

# A number standing as a word: not part of "x57", "57th" or a decimal "3.5".
NUMBER = re.compile(r"(?<!\w)(?<!\d[.,])\d{1,4}(?!\w|[.,]\d)")
# What may stand around a page number on a line of its own: dashes, bars, dots, brackets and
# the word "page" in the rulebook languages (p., pg., pag., pág., S., side, Seite).
DECORATION = re.compile(r"^[\W_]*(?:p|pp|pg|pag|pág|page|pagina|página|s|side|seite)?[\W_]*$", re.I)


@dataclass
class _Token:
    page: int  # place in the PDF
    value: int
    line: Line
    alone: bool  # the line is only the number and its decoration


def _furniture_key(line: Line) -> tuple[int, str]:
    return round(line.top / 6), re.sub(r"\d+", "#", line.text)


def _edge_lines(page: Page) -> list[list[Line]]:
    """The lines set apart at the page's top or bottom edge: on the first or last baseline,
    with a gap to the nearest other line of more than twice the line height; or on the two
    outermost baselines, set apart so together and no larger than the page's text (a note
    such as "continued overleaf" over a footer, a footer of two lines beside a page number
    set large). One list of lines a band."""
    if len(page.lines) < 3:
        return []
    tops = sorted({round(ln.top, 1) for ln in page.lines})
    body = statistics.median(ln.size for ln in page.lines)
    out = []
    for edge in (tops[0], tops[-1]):
        for depth in (1, 2):
            outer = _outermost(tops, edge, depth)
            band = [ln for ln in page.lines if any(abs(ln.top - b) < 2 for b in outer)]
            # The lines beyond the band (lines of one baseline may start a point apart).
            rest = [t for t in tops if all(abs(t - b) >= 2 for b in outer)]
            if not rest or not band:
                break
            # A page number set large beside a footer's lines is no title, nor its height.
            words = [ln for ln in band if not _number_alone(ln.text)] or band
            height = max(ln.bottom - ln.top for ln in words)
            if depth == 2 and any(ln.size > body for ln in words):
                break  # two lines set large at the top: a title, not furniture
            if min(abs(t - ln.top) for t in rest for ln in band) > 2 * height:
                out.append(band)
                break
    return out


def contents(page: Page) -> set[int]:
    """A page's table of contents (by line id): its entries, and a label of a few words right
    above the first of them."""
    entries = [ln for ln in page.lines if CONTENTS_ENTRY.fullmatch(ln.text)]
    if not entries:
        return set()
    first = min(entries, key=lambda ln: ln.top)
    label = [
        ln for ln in page.lines
        if 0 <= first.top - ln.bottom < 2 * first.size and len(ln.text.split()) <= 3
        and abs(ln.x0 - first.x0) < 2 * first.size and not ln.text.endswith(".")
    ]  # fmt: skip
    return {id(ln) for ln in entries + label}


def _number_alone(text: str) -> bool:
    """Whether a line is a number and its decoration only ("57", "— 57 —", "p. 57")."""
    return len(NUMBER.findall(text)) == 1 and bool(DECORATION.match(NUMBER.sub("", text)))


def _titles(pages: list[Page]) -> tuple[set[str], float]:
    """The texts set large (the book's title and headings), each also up to a colon
    ("Gloomhaven Stamina Manual: Resting, ..."), as a running header set small repeats them;
    and the size above which a line is large."""
    sizes = [ln.size for page in pages for ln in page.lines]
    if not sizes:
        return set(), 0.0
    large = 1.12 * statistics.median(sizes)
    texts = {" ".join(ln.text.lower().split()) for p in pages for ln in p.lines if ln.size > large}
    return texts | {t.split(":")[0] for t in texts if ":" in t}, large


def _beside_the_text(page: Page) -> list[Line]:
    """A mark of a few letters or digits wholly outside the page's text, beside its columns
    (a thumb tab's chapter number at the outer edge): no word of the text."""
    text = [ln for ln in page.lines if len(ln.text) >= 10]
    if not text:
        return []
    lo, hi = min(ln.x0 for ln in text), max(ln.x1 for ln in text)
    return [
        ln for ln in page.lines
        if len(ln.text.replace(" ", "")) <= 4 and (ln.x1 < lo or ln.x0 > hi)
    ]  # fmt: skip


def _outermost(tops: list[float], edge: float, depth: int) -> list[float]:
    """The `depth` baselines nearest the page's `edge` (tops within 2 pt are one baseline)."""
    baselines: list[float] = []
    for t in sorted(tops, key=lambda t: abs(t - edge)):
        if all(abs(t - b) >= 2 for b in baselines):
            if len(baselines) == depth:
                break
            baselines.append(t)
    return baselines


def furniture(pages: list[Page], edges: list[list[list[Line]]]) -> set[int]:
    """The running headers, footers and corner marks of the pages (by line id); `edges`:
    each page's `_edge_lines`. A short line set apart with a footer at a recurring height
    ("continued overleaf") goes with it, wherever else it stands."""
    least = max(2, len(pages) / 2)
    seen = Counter(k for page in pages for k in {_furniture_key(ln) for ln in page.lines})
    same_text = {k for k, count in seen.items() if count >= least}
    heights = Counter(
        h for bands in edges for h in {round(ln.top / 6) for band in bands for ln in band}
    )
    found = {id(ln) for page in pages for ln in page.lines if _furniture_key(ln) in same_text}
    # At a page's edge, the same text at the same height twice is enough (a header the pages
    # that open chapters leave out).
    at_edges = Counter(
        k for bands in edges for k in {_furniture_key(ln) for band in bands for ln in band}
    )
    found |= {
        id(ln) for bands in edges for band in bands for ln in band
        if at_edges[_furniture_key(ln)] >= 2
    }  # fmt: skip
    # A header naming the book or the chapter, where too few pages print one to compare.
    titles, large = _titles(pages)
    found |= {
        id(ln) for bands in edges for band in bands for ln in band
        if ln.size <= large and " ".join(ln.text.lower().split()) in titles
    }  # fmt: skip
    for page, bands in zip(pages, edges):
        for band in bands:
            recurs = [heights[round(ln.top / 6)] >= least for ln in band]
            found |= {
                id(ln) for ln, r in zip(band, recurs)
                if r or (any(recurs) and ln.x1 - ln.x0 < 0.4 * page.width)
            }  # fmt: skip
    return found


def _tokens(
    page: Page, furnished: set[int], edges: set[int], anywhere: bool = False
) -> list[_Token]:
    """The numbers a page may print as its number: every number on its furniture (a number
    in the outer margin at one height is furniture too: digits aside, its text repeats) and
    on the lines set apart at its top and bottom edges (`edges`, by line id); with `anywhere`,
    also a line that is only a number, wherever it stands (what a single page, with nothing to
    compare, has)."""
    out = []
    for ln in page.lines + page.turned:
        numbers = NUMBER.findall(ln.text)
        alone = _number_alone(ln.text)
        if id(ln) in furnished or id(ln) in edges or (anywhere and alone):
            out += [_Token(page.number, int(n), ln, alone) for n in numbers]
    return out


def _count(tokens: list[_Token], pages: int) -> int | None:
    """The count a page number keeps: value minus place in the PDF, the same from page to
    page. Counted once a page, and two pages must agree (a lone "Chapter 3" counts nothing);
    a tie (a single page) goes to a number standing alone on its line."""
    support = Counter(offset for offset, _ in {(t.value - t.page, t.page) for t in tokens})
    alone = Counter(t.value - t.page for t in tokens if t.alone)
    if not support or max(support.values()) < min(2, pages):
        return None
    return max(support, key=lambda o: (support[o], alone[o]))


def printed_numbers(
    pages: list[Page], labels: list[str] | None = None
) -> tuple[dict[int, str], set[int]]:
    """Each page's printed number (by its place in the PDF) and the furniture (by line id),
    the lines that print the numbers among it. `labels`: the PDF's own page labels, used only
    when no page prints a number."""
    edges = [_edge_lines(page) for page in pages]
    # Text set at an angle is never the body's: furniture, whose numbers may count.
    furnished = furniture(pages, edges) | {id(ln) for page in pages for ln in page.turned}
    # Marks beside the text are furniture too, but no page's number (a tab's chapter number
    # counts up as well).
    beside = {id(ln) for page in pages for ln in _beside_the_text(page)}
    edge_ids = {id(ln) for bands in edges for band in bands for ln in band}
    # The body's numbers only when the furniture has none that count: a table of numbers in
    # the body may count up from page to page as well.
    for anywhere in (False, True):
        tokens = [t for page in pages for t in _tokens(page, furnished, edge_ids, anywhere)]
        offset = _count(tokens, len(pages))
        if offset is not None:
            break
    else:
        fallback = labels or [""] * len(pages)
        return {p.number: label for p, label in zip(pages, fallback)}, furnished | beside
    for t in tokens:
        if t.value - t.page == offset:
            furnished.add(id(t.line))
    # A page before the first numbered one (a cover) prints none: no number below 1.
    numbers = {p.number: p.number + offset for p in pages}
    return {i: str(n) if n >= 1 else "" for i, n in numbers.items()}, furnished | beside
