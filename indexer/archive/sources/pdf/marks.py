"""What each line of a rulebook's body is, beside its text: a heading (and at which size), a
run-in heading, a box's line (filled, or small print under a title), a footnote's line, or a
number mark beside a heading. The passes of ``reader.layout`` that mark lines, before ``reader``
makes blocks of them; each compares a line with the body text (its commonest size and
colour), never with one book's measures."""

from __future__ import annotations

import re
from collections import Counter

from indexer.archive.sources.pdf.page import Line

SENTENCE_END = (".", ",", ";", ":", "!", "?")
CLOSING = "\"'”’»)]"  # what may follow a sentence's end ("... bite.”")
# What ends a heading run into its paragraph: "Bless and Curse.", "Tip:", "The Bookkeeper —".
RUN_IN_ENDS = ".:—–"
# A decimal outline number and a bold term after it, ending as a run-in heading does.
OUTLINE = re.compile(r"\d{1,2}(?:\.\d{1,2})+\.?\s+[A-Z][^.:—–]*[.:—–]$")
UNFRAMED = 10_000  # the box numbers of boxes no fill holds, above any page's fills


def unbox_bands(body: list[Line], body_size: float) -> None:
    """A fill that holds no body text is a band behind a heading (or the book's title), not a
    box: only lines clearly larger than the body, or one line that does not end like a
    sentence, or a title under a small label. Its text is read as any other line (white on
    colour is text like any other)."""
    fills: dict[tuple[int, int], list[Line]] = {}
    for ln in body:
        if ln.boxed >= 0:
            fills.setdefault((ln.page, ln.boxed), []).append(ln)
    for lines in fills.values():
        larger = all(ln.size > body_size * 1.12 for ln in lines)
        # A chapter's band: its title set large under a small label ("CHAPTER 6"), which is
        # read as part of the title, as printed.
        label = (
            len(lines) == 2 and lines[1].size > body_size * 1.12 >= lines[0].size * 1.12
            and not any(ends_sentence(ln.text) for ln in lines)
        )  # fmt: skip
        if label:
            lines[1].text = f"{lines[0].text} {lines[1].text}"
            lines[0].text = ""
        if larger or label or (len(lines) == 1 and not lines[0].text.endswith(SENTENCE_END)):
            for ln in lines:
                ln.boxed, ln.banded = -1, True


def box_small_print(body: list[Line], body_size: float) -> None:
    """Lines set smaller than the body, under a bold title line of their own size or a little
    larger (or a bold "Tip:" leading the first line), are a box even when no fill or frame holds them (an
    example between two rules, a sidebar at the foot of the page, a note in the margin):
    each such run, in reading order, is one box."""
    run: list[Line] = []
    boxes = 0

    def close() -> None:
        nonlocal boxes
        titled = run and (run[0].bold or run[0].lead.endswith(":"))  # "Tip: ..." too
        if len(run) >= 2 and titled and not all(ln.bold for ln in run):
            boxes += 1
            for ln in run:
                ln.boxed = UNFRAMED + boxes
        run.clear()

    for ln in body:
        small = ln.boxed < 0 and ln.size < body_size * 0.92
        # Its title may be set a little larger, short of a heading at the body's size.
        between = ln.boxed < 0 and ln.bold and not small and ln.size < body_size * 0.98
        # A bold line (or a "Tip:") after the box's text is the next box's title (its own
        # may wrap).
        next_title = (ln.bold or ln.lead.endswith(":")) and any(not r.bold for r in run)
        if not (small or between) or (run and (ln.page != run[-1].page or next_title)):
            close()
        if small or (between and all(r.bold for r in run)):
            run.append(ln)
    close()


def mark_footnotes(body: list[Line], body_size: float) -> None:
    """Footnotes: small print led by a raised mark (its lines on to the column's end or the
    next note). They are read where they stand, at the foot of their column; ``reader`` gives
    each the section of the line that carries its mark and reads the text on past them."""
    note: Line | None = None
    for ln in body:
        small = ln.boxed < 0 and ln.size < body_size * 0.92
        if small and ln.note:
            note = ln
        elif not small or note is None or (ln.page, ln.col) != (note.page, note.col):
            note = None
        ln.footnote = note is not None


def mark_headings(body: list[Line], body_size: float, body_colour: int) -> None:
    """Which lines are headings. Clearly larger than the body: a heading, unless it is one of
    three or more such lines running on to a sentence's end, or of two ending in a full stop
    (an introduction set large is text; a heading is short, or a title wrapped). At about
    the body's size (small capitals too: the capitals reach it), a heading only if set off
    whole, in bold or in a colour of its own, standing apart (space above it, or first in
    its column, or under another heading) and not ending like a sentence: rulebooks set
    section titles so, and a bold sentence inside a paragraph does none of it; but three
    such lines or more set alike, line under line, are text (a quotation in italics under a
    chapter's heading). Never inside a box, where a bold line is the box's title, nor a
    glossary's term on a line of its own over its definition's hanging lines."""
    mark_glossary_terms(body)
    above: Line | None = None
    runs: list[list[Line]] = []  # runs of consecutive lines set apart (larger, bold, colour)
    for ln in body:
        if ln.boxed >= 0 or ln.table:
            above = ln
            continue
        large = ln.size > body_size * 1.12
        marked = large or ln.bold or distinct_colour(ln.colour, body_colour)
        if large:
            ln.heading = True
        else:
            apart = (
                above is None or above.page != ln.page or above.col != ln.col or above.heading
                or ln.top - above.bottom > 0.45 * ln.size or ln.lane or ln.banded
            )  # fmt: skip
            # A side head in its lane, or one on a band, may be set smaller than the text.
            ln.heading = (
                marked and apart and (ln.cap_size >= body_size * 0.98 or ln.lane or ln.banded)
                and not ends_sentence(ln.text) and not run_in_heading(ln, body_colour)
                and not ln.term
            )  # fmt: skip
        if marked and runs and _runs_on(runs[-1][-1], above, ln, large):
            runs[-1].append(ln)
        elif marked:
            runs.append([ln])
        above = ln
    # Three lines or more running on, or two ending a sentence, are text set apart (an
    # introduction set large, a quotation in italics under a chapter's heading); three set
    # large that end no sentence are a title wrapped over them.
    for run in runs:
        wrapped = run[0].size > body_size * 1.12 and not ends_sentence(run[-1].text)
        if (len(run) >= 3 and not wrapped) or (
            len(run) == 2 and ends_sentence(run[-1].text, (".",))
        ):
            for ln in run:
                ln.heading = False


def mark_glossary_terms(body: list[Line]) -> None:
    """Mark the glossary terms set in bold on a line of their own, ending no sentence, their
    definition's lines hanging under them: the next line set in from the term, going on past
    its end (no sentence ends there), and the line after it where that one starts
    (``Line.term``: no heading, and the first line of its definition's block)."""
    for ln, nxt, after in zip(body, body[1:], body[2:]):
        ln.term = (
            ln.bold and not nxt.bold and not ends_sentence(ln.text)
            and (ln.page, ln.col) == (nxt.page, nxt.col) == (after.page, after.col)
            and nxt.x0 - ln.x0 > 0.6 * ln.size and abs(after.x0 - nxt.x0) < 0.5
            and 0 <= nxt.top - ln.bottom < 0.45 * ln.size and not ends_sentence(nxt.text)
        )  # fmt: skip


def _runs_on(last: Line, above: Line | None, ln: Line, large: bool) -> bool:
    """Whether `ln` runs on from `last`, the line above it, set as it is: at the same size
    (and, at the body's size, in the same face, line under line); across a page break, in the
    same face and after no sentence's end (an introduction set large, read on overleaf)."""
    if last is not above or round(last.size, 1) != round(ln.size, 1):
        return False
    if last.page != ln.page:
        return (last.font, last.colour) == (ln.font, ln.colour) and not ends_sentence(last.text)
    return large or (
        (last.font, last.colour) == (ln.font, ln.colour) and ln.top - last.bottom <= 0.45 * ln.size
    )


def ends_sentence(text: str, ends: tuple[str, ...] = SENTENCE_END) -> bool:
    """Whether `text` ends like a sentence, a closing quotation mark or bracket aside."""
    return text.rstrip(CLOSING).endswith(ends)


def mark_short_measures(body: list[Line], edges: dict[tuple[int, int], list[float]]) -> None:
    """Lines of a justified column set to a shorter measure (beside a picture the text runs
    around): two lines or more, line under line, ending together short of the column's edge.
    Each is full, as a line reaching the edge is."""
    for above, ln in zip(body, body[1:]):
        _, right, justified = edges[(ln.page, ln.col)]
        together = (
            justified and (above.page, above.col) == (ln.page, ln.col) and above.boxed == ln.boxed
            and 0 <= ln.top - above.bottom < 0.45 * ln.size and abs(above.x1 - ln.x1) < 0.5
            and right - ln.x1 > 1.5 * ln.size and not (above.heading or ln.heading)
        )  # fmt: skip
        if together:
            above.short_measure = ln.short_measure = True


def rank_headings(body: list[Line], body_size: float, body_colour: int) -> list[float]:
    """Each heading's rank (`Line.rank`), and the ranks, highest first: levels rank by the
    largest letter (a heading in small capitals by its capitals); sizes within 2% of each
    other are one size, where a heading in a colour of its own ranks above one in the body's
    ("Table Roles" in colour at 10.5 pt over "When It Goes Wrong" in black at 10.6), a bold
    one above a light one ("Forty-Five Minutes" in bold small capitals over "Where to Stop"
    in italics, each in a colour of its own, at one size), and one in capitals stands a tenth
    above its size ("BASES AND FINISH" at 9.4 pt over "Snow on the Base" at 9.9 in bold
    italics). A side head in its lane or a heading on a band (a pill),
    whatever its size, ranks below the headings set clearly larger than the text and above
    those in the text at about its size: it parts the text they stand in."""
    size: dict[int, float] = {}
    for ln in body:
        if ln.heading:
            # On a pill or in a lane, set smaller than the headings larger than the text.
            lane = (ln.lane or ln.banded) and ln.cap_size <= body_size * 1.12
            capitals = _all_capitals(ln.text)
            size[id(ln)] = round(
                body_size * 1.12 if lane else ln.cap_size * (1.1 if capitals else 1.0), 1
            )
    group: dict[float, float] = {}
    for one in sorted(set(size.values()), reverse=True):
        group[one] = next((g for g in group.values() if one >= 0.98 * g), one)
    for ln in body:
        if ln.heading:
            coloured = distinct_colour(ln.colour, body_colour)
            # At one size a bold heading ranks above a light one (bold small capitals over
            # italics, both in colours of their own).
            ln.rank = (
                group[size[id(ln)]] + (0.01 if coloured else 0.0) + (0.005 if ln.bold else 0.0)
            )
    return sorted({ln.rank for ln in body if ln.heading}, reverse=True)


def _all_capitals(text: str) -> bool:
    """Whether a line is set in capitals only (four letters or more)."""
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 4 and all(c.isupper() for c in letters)


def number_marks(body: list[Line]) -> list[Line]:
    """The body without the headings' number marks (a chapter number in a circle beside its
    heading, set apart on the same line): each is put in front of its heading's text, as the
    book prints it ("5 Random Dungeons")."""
    marks = [ln for ln in body if ln.heading and re.fullmatch(r"\d{1,3}", ln.text)]
    dropped: set[int] = set()
    for mark in marks:
        # Before it, close by; or anywhere across the same height when the number is set
        # larger than the heading (a numeral behind a chapter's heading).
        beside = [
            ln for ln in body
            if ln.heading and ln is not mark and ln.page == mark.page
            and ((ln.x0 > mark.x1 and ln.x0 - mark.x1 < 3 * ln.size) or mark.size > 1.5 * ln.size)
            and ln.top < mark.bottom and mark.top < ln.bottom
        ]  # fmt: skip
        if beside:
            # The largest (a chapter's numeral may reach down beside a section's heading).
            heading = max(beside, key=lambda ln: (ln.size, -abs(ln.x0 - mark.x1)))
            heading.text = f"{mark.text} {heading.text}"
            dropped.add(id(mark))
    return [ln for ln in body if id(ln) not in dropped]


def distinct_colour(colour: int, body: int) -> bool:
    """Whether a line's single colour stands out from the body's: a channel apart by more
    than a quarter of its range (a rich black beside a plain one does not)."""
    if colour < 0 or body < 0:
        return False
    return any(abs((colour >> s & 255) - (body >> s & 255)) > 64 for s in (0, 8, 16))


def run_in_heading(ln: Line, body_colour: int, within: tuple[str, ...] = ()) -> str | None:
    """A heading run into its paragraph's first line ("Bless and Curse. A bless card..."):
    a bold lead term in a colour of its own, ending in a full stop or colon. Its text stays
    in the paragraph as printed; a lead term in the body's colour ("POISON.") is no heading,
    nor is a single letter (the "Q:" and "A:" of a question and its answer). A bold lead led
    by a decimal outline number that goes on the number of a heading in effect (`within`:
    "4.2.1 The Rules Reader —" under "4.2 Sharing the Work") is a heading in any colour; a
    rule's number under unnumbered headings is none."""
    outline = OUTLINE.match(ln.bold_run) and any(ln.bold_run.startswith(f"{n}.") for n in within)
    if ln.boxed < 0 and outline and ln.text[len(ln.bold_run) :].strip():
        return ln.bold_run.rstrip(RUN_IN_ENDS + " ").strip()
    after = ln.text[len(ln.lead) :].strip()  # the paragraph's start (bold itself, maybe)
    if (
        ln.boxed >= 0
        or not after
        or not ln.lead[:1].isupper()
        or not ln.lead.endswith(tuple(RUN_IN_ENDS))
    ):
        return None
    if not distinct_colour(ln.lead_colour, body_colour):
        return None
    term = ln.lead.rstrip(RUN_IN_ENDS).strip()
    return term if sum(c.isalpha() for c in term) >= 2 else None


def reversed_pages(body: list[Line], body_size: float, body_colour: int) -> None:
    """A page printed reversed (its text light on a dark ground) is read as the others: the
    colour of most of its text at the body's size is the body's colour there."""
    pages: dict[int, Counter[int]] = {}
    for ln in body:
        if round(ln.size, 1) == body_size and ln.colour >= 0:
            pages.setdefault(ln.page, Counter())[ln.colour] += len(ln.text)
    text_colour = {page: colours.most_common(1)[0][0] for page, colours in pages.items()}
    reversed_colour = {p: c for p, c in text_colour.items() if distinct_colour(c, body_colour)}
    for ln in body:
        colour = reversed_colour.get(ln.page)
        if colour is not None and ln.colour == colour:
            ln.colour = body_colour
        if colour is not None and ln.lead_colour == colour:
            ln.lead_colour = body_colour


def lane_titles(lines: list[Line]) -> list[Line]:
    """A line in the lane left of a column's text, read right before a box's first line
    beside it, is that box's title (in a lane, a heading would stand beside text)."""
    for ln, after in zip(lines, lines[1:]):
        if (
            ln.lane and ln.boxed < 0 <= after.boxed and (after.page, after.col) == (ln.page, ln.col)
            and after.top < ln.bottom
        ):  # fmt: skip
            ln.boxed = after.boxed
    return lines


def kicker(ln: Line, title: Line) -> bool:
    """Whether `ln` is a label in small capitals right above the book's title ("TABLE
    PRACTICE · WORKSHOP NOTES"): a series' or a section's name, neither text nor the title."""
    return (
        ln.page == title.page and not ln.heading and ln.size < 0.6 * title.size
        and 0 <= title.top - ln.bottom < title.size and ln.x0 < title.x1 and title.x0 < ln.x1
        and ln.text.upper() == ln.text and len(ln.text) < 60
    )  # fmt: skip


def title_page_lines(body: list[Line], title: Line) -> set[int]:
    """The lines of a title page besides the title (a subtitle, a line naming the game, a
    credit), by id: none unless the title's page holds only a few lines, every one centred on
    the title's axis (a page of text starting under the title has a paragraph's left-aligned
    last line at least). They are neither text nor the title: a record made of them would cite
    a page that prints no number."""
    axis = (title.x0 + title.x1) / 2
    page = [ln for ln in body if ln.page == title.page and ln.rank != title.rank]
    centred = all(abs((ln.x0 + ln.x1) / 2 - axis) < 0.5 * title.size for ln in page)
    return {id(ln) for ln in page} if page and len(page) <= 4 and centred else set()
