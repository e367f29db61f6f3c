"""A rulebook PDF read into blocks: reading order across columns, printed page numbers,
heading paths, boxed examples, paragraphs joined across breaks, words hyphenated at line ends
rejoined, running headers and footers and a table of contents left out, icon glyphs counted
and reported.

PDFium (pypdfium2, Apache-2.0/BSD) gives each character's box, baseline, font, weight and
colour; it reports glyphs without a Unicode mapping (icon fonts) and the hyphens it saw at line
ends. Chosen by measurement against pdfminer.six, pdfplumber and pypdf (docs/decisions.md,
"PDF library").

The layout is read from the page, never from the file's structure, by rules that compare a
line with the rest of the book rather than with one book's measures:
  * lines, the column frame and fills: ``page``; running headers, footers and printed page
    numbers: ``furniture``; what each line is (heading, run-in heading, box): ``marks``;
  * reading order: a full-width line (a title, a band across the columns) parts the page into
    bands read top to bottom; in each, the columns from left to right, a column of small print
    (margin notes) last, each note of the section of the text beside it, the text it
    interrupts read on after it;
  * boxes: lines inside a fill are one record (its first bold line its title), unless the fill
    holds no body text (a band behind a heading or the book's title: its text is the heading);
    so is a run of lines set smaller than the body under a bold title, framed or not; a box
    titled "... (continued)" goes on the box of that title before it;
  * footnotes: small print at a column's foot led by a raised mark is a record of the section
    of the line that carries the mark (the marks are no words of either), and the text it
    interrupts reads on past it;
  * headings: against the body text (the commonest size and colour): clearly larger, or, at
    about its size, a line set off whole in bold or colour that stands apart (space above, or
    first in its column) and does not end like a sentence; sizes rank the levels (within 2%,
    one in colour above one in the body's colour), the largest, if only on the first page, is
    the title; a bold lead term (a word, not the "Q:" of a question) in a colour of its own is
    a heading run into its paragraph, a level below; a number set apart beside a heading (a
    chapter number in a circle) is part of it;
  * a paragraph starts after a vertical gap, an indented first line (a drop capital's lines
    are not), a line that ended short of its column's edge (in a ragged-right column: short
    enough for the next line's first word to have fit), or a bold lead term ("POISON.");
    otherwise it runs on, across column and page breaks, and so do the lines of a passage set
    in from the edge in a face of its own (a quotation in italics) and lines justified short
    of the edge together (beside a picture); a list item ("• ...", or a numbered step, "2."
    or "b)", after a sentence's end) is a block of its own, without its bullet, its lines set
    where its text starts; so are a definition's lines under its bold term;
  * tables (``tables``): cells side by side in a column, row under row, are read row by row
    into the block they stand in (a box, the paragraph that introduces them), a header row
    printed again over the table's continuation left out;
  * a block's lines are joined into its text by ``joins``.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import Any

from indexer.archive.sources.document import SECTION_SEPARATOR, Block, Document
from indexer.archive.sources.pdf.columns import (
    Edges,
    Habits,
    apart_edges,
    column_edges,
    hung_lines,
    parted_by_space,
)
from indexer.archive.sources.pdf.furniture import contents, printed_numbers
from indexer.archive.sources.pdf.joins import join_texts, join_title, join_wrapped
from indexer.archive.sources.pdf.marks import (
    SENTENCE_END,
    box_small_print,
    distinct_colour,
    kicker,
    lane_titles,
    mark_footnotes,
    mark_headings,
    mark_short_measures,
    number_marks,
    rank_headings,
    reversed_pages,
    run_in_heading,
    title_page_lines,
    unbox_bands,
)
from indexer.archive.sources.pdf.order import reading_order
from indexer.archive.sources.pdf.page import OBJECT, Line, Page, line_of, read_page
from indexer.archive.sources.pdf.tables import table_rows, without_repeated_heads
from indexer.errors import InvalidRequest

# A heading's outline number ("4.2 Sharing the Work").
OUTLINE_NUMBER = re.compile(r"(\d+(?:\.\d+)*)\.?\s")
# A cross reference on a line of its own under its paragraph ("See also 6.7 (p. 247).").
CROSS_REF = re.compile(r"(?:see|see also|siehe|voir|vedi|ver|zie|se)\b.*\d.*", re.I)
# A box's title repeated over its rest on the next column or page.
CONTINUED = re.compile(
    r"(.+?)\s*[(\[]?(?:continued|cont(?:'?d)?\.?|fortsetzung|forts\.|suite|continua|"
    r"continuación|vervolg|fortsat)[)\]]?",
    re.I,
)
Part = tuple[Block, list[str], tuple[int, int] | None]  # a block, its lines, its box


class PdfError(InvalidRequest):
    """The file is no PDF this can read (damaged, encrypted, or pages out of range)."""


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
    read = [read_page(doc[i], i) for i in (progress(numbers) if progress else numbers)]
    unknown: Counter[str] = Counter(icon for page in read for ln in page.lines for icon in ln.icons)
    title, blocks = layout(read, [_label(doc, page.number) for page in read])
    return Document(
        title=title,
        blocks=blocks,
        sha256=hashlib.sha256(raw_bytes).hexdigest(),
        file_name=Path(path).name,
        pages=len(read),
        unknown_glyphs=unknown,
    )


def _label(doc: Any, index: int) -> str:
    """The PDF's own label of a page ("" when it sets none)."""
    import ctypes

    import pypdfium2.raw as raw

    size = raw.FPDF_GetPageLabel(doc.raw, index, None, 0)
    if size <= 2:
        return ""
    buf = ctypes.create_string_buffer(size)
    raw.FPDF_GetPageLabel(doc.raw, index, buf, size)
    return buf.raw[: size - 2].decode("utf-16-le", errors="replace")


def layout(pages: list[Page], labels: list[str] | None = None) -> tuple[str | None, list[Block]]:
    """The title and the blocks of the pages, in reading order (`labels`: the PDF's own page
    labels, used when the pages print no numbers)."""
    printed, furniture = printed_numbers(pages, labels)
    body: list[Line] = []
    for page in pages:
        left_out = furniture | contents(page)
        keep = [ln for ln in page.lines if id(ln) not in left_out and ln.text]
        keep = table_rows(keep, partial(line_of, page))
        for ln in keep:
            # In a fill or frame; a title set on the frame's top edge is half in it.
            ln.boxed = next(
                (j for j, (x0, top, x1, bottom) in enumerate(page.rects)
                 if x0 - 1 <= ln.x0 and ln.x1 <= x1 + 1 and top - 1 <= (ln.top + ln.bottom) / 2
                 and ln.bottom <= bottom + 1),
                -1,
            )  # fmt: skip
        body += lane_titles(reading_order(keep))
    body = without_repeated_heads(body)
    if not body:
        return None, []
    first_page = body[0].page
    sizes = Counter(round(ln.size, 1) for ln in body for _ in ln.text)
    body_size = sizes.most_common(1)[0][0]
    colours = Counter(
        ln.colour for ln in body if round(ln.size, 1) == body_size and ln.colour >= 0
        for _ in ln.text
    )  # fmt: skip
    body_colour = colours.most_common(1)[0][0] if colours else -1
    reversed_pages(body, body_size, body_colour)
    fonts = Counter(ln.font for ln in body if round(ln.size, 1) == body_size for _ in ln.text)
    body_font = fonts.most_common(1)[0][0] if fonts else ""
    for ln in body:
        ln.face_apart = (
            ln.font != body_font or distinct_colour(ln.colour, body_colour)
            or abs(ln.size - body_size) > 0.08 * body_size
        )  # fmt: skip
    unbox_bands(body, body_size)
    body = [ln for ln in body if ln.text]  # a band's label read into its title
    box_small_print(body, body_size)
    mark_footnotes(body, body_size)
    mark_headings(body, body_size, body_colour)
    # An icon set beside a heading (a badge) is no text, and parts none of its lines.
    body = [ln for ln, up in zip(body, [None, *body]) if not (up and up.heading and _icons(ln))]
    body = number_marks(body)
    heads = rank_headings(body, body_size, body_colour)
    title_size = None
    top = [ln for ln in body if ln.heading and ln.rank == (heads or [0])[0]]
    if heads and all(ln.page == first_page for ln in top):
        title_size, heads = heads[0], heads[1:]
        front = title_page_lines(body, top[0])
        body = [ln for ln in body if not kicker(ln, top[0]) and id(ln) not in front]
    return _blocks(body, printed, heads, title_size, body_colour)


def _blocks(
    body: list[Line],
    printed: dict[int, str],
    heads: list[float],
    title_size: float | None,
    body_colour: int,
) -> tuple[str | None, list[Block]]:
    edges = column_edges(body)
    habits = Habits(parted_by_space(body, edges), hung_lines(body, edges), apart_edges(body))
    mark_short_measures(body, edges)
    title: str | None = None
    # The heading path, each heading with its level: a heading keeps those of higher levels
    # above it (a level the book skips leaves no sibling behind in the path).
    path: list[tuple[int, str]] = []
    parts: list[Part] = []
    prev: Line | None = None
    hang: float | None = None  # where the text of the list item being read starts, in its column
    beside: list[tuple[int, int, float, str]] = []  # the text's lines: page, column, top, section
    main: tuple[Part, Line] | None = None  # the text's last block, read on past notes, boxes
    anchors: dict[tuple[int, str], str] = {}  # a footnote mark on a page: its line's section
    for ln in body:
        size = ln.rank
        if size == title_size and ln.heading:
            title = join_title(title, ln.text)
            continue
        if ln.heading and size in heads:
            path = _heading_path(ln, prev, parts, path, heads.index(size))
            prev, main = ln, None
            parts.append((Block("heading", "", None, ""), [], None))  # ends the running block
            continue
        numbers = tuple(m.group(1) for _, t in path if (m := OUTLINE_NUMBER.match(t)))
        run_in = run_in_heading(ln, body_colour, numbers)
        if run_in:  # a level below every heading set on its own line
            path = [(lv, t) for lv, t in path if lv < len(heads)] + [(len(heads), run_in)]
        section = _section_of(ln, SECTION_SEPARATOR.join(t for _, t in path), beside, anchors)
        aside = ln.margin or ln.footnote or ln.boxed >= 0 or ln.table  # a table's row too
        if (
            main is not None
            and not aside
            and prev is not None
            and (prev.margin or prev.footnote or prev.boxed >= 0)
        ):
            # Past margin notes, footnotes and a box, the text's last block may go on (across
            # a page break).
            if not _starts_block(ln, main[1], [main[0]], edges, hang, False, habits):
                parts.remove(main[0])
                parts.append(main[0])  # read on after the notes or the box
                main[0][1].append(ln.text)
                prev, main = ln, (main[0], ln)
                continue
        # A list item: after a bullet, or a numbered step after a sentence's end or a heading
        # (not "... for\n2. gold"); a definition's lines may hang under its bold term.
        item = ln.bullet or (
            ln.numbered and not run_in
            and (prev is None or prev.heading or prev.text.endswith(SENTENCE_END))
        )  # fmt: skip
        # A definition's lines hang under its term (on the line before, or leading it).
        if term := (_hangs_under_term(ln, prev, parts) and hang is None):
            hang = ln.x0 - edges[(ln.page, ln.col)][0]
        opens = (run_in and ln.boxed < 0) or (ln.footnote and bool(ln.note))
        if not term and (_starts_block(ln, prev, parts, edges, hang, item, habits) or opens):
            hang = ln.hang - edges[(ln.page, ln.col)][0] if item else None
            if _open_block(ln, parts, printed.get(ln.page) or None, section):
                prev = ln
                continue
        elif parts[-1][2] is not None and parts[-1][0].title and not parts[-1][1] and ln.bold:
            parts[-1][0].title += " " + ln.text  # a box's title wrapped onto a second line
            prev = ln
            continue
        elif hang is not None and prev is not None and (prev.page, prev.col) != (ln.page, ln.col):
            hang = ln.x0 - edges[(ln.page, ln.col)][0]  # the item's lines in this column
        # A bullet is no word of the text; a step's number stays ("2. Read the ...").
        parts[-1][1].append(ln.text[2:] if ln.bullet else ln.text)
        parts[-1][0].icons += len(ln.icons)
        prev = ln
        if parts[-1][2] is None and not ln.footnote:
            main = (parts[-1], ln)
    blocks = [b for b, _, _ in parts if b.kind != "heading"]
    join_texts([(b, lines) for b, lines, _ in parts if b.kind != "heading"])
    return title, [b for b in blocks if b.text]


def _icons(ln: Line) -> bool:
    """Whether the line holds icons and nothing else."""
    return bool(ln.icons) and not ln.text.replace(OBJECT, "").strip()


def _heading_path(
    ln: Line, prev: Line | None, parts: list[Part], path: list[tuple[int, str]], level: int
) -> list[tuple[int, str]]:
    """The heading path once `ln`, a heading of `level`, is read: it keeps the headings of
    higher levels above it, or goes on the heading before it, wrapped onto a second line."""
    wrapped = (
        bool(parts) and parts[-1][0].kind == "heading" and prev is not None
        and prev.cap_size == ln.cap_size and abs(ln.top - prev.bottom) < ln.size
    )  # fmt: skip
    text = " ".join(ln.text.replace(OBJECT, " ").split())  # an ornament is no word
    if wrapped and path:
        return [*path[:-1], (path[-1][0], join_wrapped(path[-1][1], text))]
    return [(lv, t) for lv, t in path if lv < level] + [(level, text)]


def _section_of(
    ln: Line,
    section: str,
    beside: list[tuple[int, int, float, str]],
    anchors: dict[tuple[int, str], str],
) -> str:
    """The section of a line (`section`: the heading path in effect): a margin note's is the
    text's beside it, a footnote's that of the line carrying its mark (a footnote's later
    lines: its first line's). A line of the text is noted in `beside` and its marks in
    `anchors`."""
    if ln.margin:
        near = [b for b in beside if b[0] == ln.page and b[2] <= ln.top + ln.size]
        return min(near, key=lambda b: (b[1], -b[2]))[3] if near else section
    if ln.footnote:
        anchors.setdefault((ln.page, ""), section)
        if ln.note:
            anchors[(ln.page, "")] = anchors.get((ln.page, ln.note), section)
        return anchors[(ln.page, "")]
    beside.append((ln.page, ln.col, ln.top, section))
    anchors.update(((ln.page, mark), section) for mark in ln.marks)
    return section


def _open_block(ln: Line, parts: list[Part], page: str | None, section: str) -> bool:
    """A new block from `ln` onto `parts`; True when `ln` was its title (a box's bold title
    line, or a title leading its first line, "Tip: ..."), its text then taken already."""
    box = (ln.page, ln.boxed) if ln.boxed >= 0 else None
    if box and ln.bold and (go_on := _continued_box(ln.text, parts)) is not None:
        parts.remove(go_on)  # "Example (continued)": the box read on
        parts.append((go_on[0], go_on[1], box))
        return True
    block = Block("box" if box else "paragraph", "", page, section)
    parts.append((block, [], box))
    if box and ln.bold:
        block.title = ln.text
        return True
    if box and ln.lead.endswith(":"):
        block.title = ln.lead
        parts[-1][1].append(ln.text[len(ln.lead) :].strip())
        return True
    return False


def _continued_box(title: str, parts: list[Part]) -> Part | None:
    """The box that a box titled "... (continued)" goes on (the last one of that title)."""
    said = CONTINUED.fullmatch(title)
    if said is None:
        return None
    earlier = [p for p in parts if p[2] is not None and p[0].title == said.group(1)]
    return earlier[-1] if earlier else None


def _hangs_under_term(ln: Line, prev: Line | None, parts: list[Part]) -> bool:
    """Whether `ln` is the second line of a definition set with a hanging indent: its block's
    first line led by a bold term at the column's edge (or a glossary's term alone on it:
    ``Line.term``), this one indented under it."""
    return (
        prev is not None and bool(parts) and parts[-1][2] is None and len(parts[-1][1]) == 1
        and (prev.lead_bold or prev.term) and prev.page == ln.page and prev.col == ln.col
        and ln.x0 - prev.x0 > 0.6 * ln.size and 0 <= ln.top - prev.bottom < 0.45 * ln.size
        and not ln.beside_cap
    )  # fmt: skip


def _starts_block(
    ln: Line,
    prev: Line | None,
    parts: list[Part],
    edges: Edges,
    hang: float | None = None,
    item: bool = False,
    habits: Habits | None = None,
) -> bool:
    """Whether `ln` starts a new block rather than continuing the one before it. Across a
    column or page break (no gap to measure) a paragraph runs on unless the next line is
    indented or starts with a lead term, or the last one stopped short of its column's edge;
    in a book that parts its paragraphs with space (`habits.spaced`), a short line with none
    under it breaks a line, not the paragraph; in one that hangs its first lines
    (`habits.hanging`: where each column's lines stand), a line out to the left of them starts
    a paragraph; a passage in a face of its own ends a line where the next word would not fit
    in its own measure (`habits.apart`).
    A list item (`item`: this line starts one) is a block; one being read (`hang`: where its
    text starts, from its column's edge) runs on in the lines set there."""
    current = parts[-1] if parts else None
    if current is None or current[0].kind == "heading":
        return True
    if ln.table:
        return False  # a table's rows go on the block it stands in (a box, its introduction)
    if ln.boxed >= 0:
        return current[2] != (ln.page, ln.boxed) or item
    if current[0].kind == "box" or prev is None or item:
        return True
    if CROSS_REF.fullmatch(ln.text) and prev.page == ln.page and len(ln.text) < 60:
        return False  # part of the paragraph it refers from
    spaced, hanging, apart = habits or Habits()
    left = edges[(ln.page, ln.col)][0]
    indent = ln.x0 - left > 0.6 * ln.size and not ln.beside_cap
    if hanging is not None:
        indent = ln.x0 < hanging.get((ln.page, ln.col), left) - 0.6 * ln.size
    if hang is not None and not ln.beside_cap:
        # Across a column or page break too, the item's lines start where its text does (or
        # at the edge of a column that holds only them).
        broke = (prev.page, prev.col) != (ln.page, ln.col)
        indent = abs(ln.x0 - left - hang) > 0.5 * ln.size and not (broke and not indent)
    same = prev.page == ln.page and prev.col == ln.col
    gap = same and ln.top - prev.bottom > 0.45 * ln.size and not ln.around
    if _inset(ln, prev, left):
        return gap
    # The line before ran to its column's edge: in a justified column, up to it; in a ragged
    # one, so near that this line's first word would not have fit after it; or it ended in a
    # hyphen.
    _, right, justified = edges[(prev.page, prev.col)]
    room = right - prev.x1
    # A passage in a face of its own may be set ragged in a justified column (a chapter's
    # summary in italics): would the next word have fit?
    alike = ln.face_apart and (ln.font, round(ln.size, 1)) == (prev.font, round(prev.size, 1))
    if alike:  # within the passage's own measure
        room = min(right, apart.get(id(prev), right)) - prev.x1
    fits = 1.5 * ln.size if justified and not alike else ln.first_word + 0.3 * ln.size
    prev_full = prev.boxed < 0 and (room < fits or prev.text.endswith("-") or prev.short_measure)
    # A bold lead term starts a paragraph, unless it is the rest of one the line before
    # began ("BASE" / "COST. Every kind ...").
    lead = ln.lead_bold and not (prev.tail_bold and not prev.text.endswith(SENTENCE_END))
    ended = not prev_full and not (spaced and same and not ln.around)
    return indent or gap or ended or lead


def _inset(ln: Line, prev: Line, left: float) -> bool:
    """Whether `ln` goes on a passage set in from the column's edge in a face of its own (a
    quotation in italics): it starts where the line before did, set alike."""
    return (
        prev.page == ln.page and prev.col == ln.col and abs(ln.x0 - prev.x0) < 0.5
        and prev.x0 - left > 0.6 * ln.size and ln.face_apart
        and (ln.font, ln.colour, round(ln.size, 1)) == (prev.font, prev.colour, round(prev.size, 1))
    )  # fmt: skip
