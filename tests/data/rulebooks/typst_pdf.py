"""Lay a test rulebook (tests/data/rulebooks/*.yaml) out with the Typst typesetting engine.

A third, independent generator beside make_pdf.py (which draws its books with reportlab) and
browser_pdf.py (which prints them with Chromium): many community documents are now typeset with
Typst, so this one writes the book out as Typst markup and has the Typst engine (the PyPI package
``typst``, which carries the compiler and a few fonts inside itself) set it and write the PDF.
Typst does the whole layout: line breaking with its own hyphenation patterns, justification,
columns, page breaks, the running header and the page numbers. Beside the PDF it writes the same
ground truth as make_pdf.py (``<name>.truth.json``), read back from the PDF that Typst produced.

    build_typst_pdf(book: dict, out_pdf_path) -> dict   # the truth, also written beside the PDF
    python typst_pdf.py BOOK.yaml OUT.pdf
    python make_pdf.py BOOK.yaml OUT.pdf --style=typst   # the same, through make_pdf.build_pdf

The layout ("typst", used by twentysecond.yaml, whose `layout_style` is "typst") follows the habits
of a community rulebook set in Typst by someone with a taste of their own: pages of 185 x 260 mm
with equal side margins (17 mm); an UNNUMBERED TITLE AND CONTENTS PAGE as the first PDF page (the
book title in a large bold teal sans over a thick rule, a short line naming the game, then
"Contents": every chapter's number, its title, a dotted leader and the PRINTED page where it starts,
all computed by Typst itself); every later page in TWO equal columns in a 6 mm gutter with a
HAIRLINE COLUMN RULE down its middle, Typst filling the first column, then the second, then the next
page (chapters do not open a new page or column; a paragraph runs on across column and page breaks
under Typst's own widow and orphan control, at its default costs; a box that does not fit under the
text before it moves whole to the next column, which then ends short); a serif body in Libertinus
Serif (a font Typst embeds by default) at 10.2 pt, JUSTIFIED and HYPHENATED by Typst's own English
patterns (`set text(lang: "en", hyphenate: true)`: real hyphens at line ends), paragraphs with a 1.1
em first-line indent and no gap between them (none right after a heading or a box, Typst's default);
typographic quotation marks (the book's straight ' and " are printed as curly ones, put in by this
generator); NUMBERED CHAPTER HEADINGS as a dark teal BAND as wide as the column, the chapter's
number (counted from the book's `first_chapter`, default 1) bold in white in a lighter square at the
band's left, the title in a white bold sans (Liberation Sans) beside it, wrapped lines hanging under
the title; section (level-2) headings in letter-spaced SMALL CAPITALS of the serif in teal, under a
short thick rust-coloured rule; level-3 headings in the serif's italic in rust, a little larger than
the body; every heading is kept with the text after it (Typst's sticky blocks); KEY TERMS (written
`*like this*` in the book) in the body's ITALIC; game icons (`{loot}`) as the same Unicode symbols
make_pdf.py uses, from DejaVu Sans, in teal; boxes as wide as their column on a warm sand tint with
a thick teal BAR AT THE LEFT and rounded right corners, never split (Typst `block(breakable:
false)`), the title in a bold condensed sans (DejaVu Sans Condensed) in teal and the text in a
smaller sans (Liberation Sans 8.7 pt), justified and hyphenated too. The page furniture is Typst's
page header, over a hairline as wide as the text: on left-hand pages (an EVEN printed number) the
page number bold in the top-left (outer) corner and the book's running header after it; on
right-hand pages (an ODD printed number) the chapter of the page (the first chapter heading printed
on the page, else the last one before it) and the page number bold in the top-right (outer) corner;
a thin teal STRIP along the bottom of every numbered page, with no text. The printed page number is
NOT the PDF page index: the title page prints no number, and the header and the contents print
Typst's page counter moved on by `first_page` - 2, so the second PDF page prints the book's
`first_page`.

The truth is read from the PDF itself (pypdfium2): the text of every page is taken character by
character with its position and size; the header (above the text area) is set apart and checked
against what was asked for (the page number and its corner, the running header or the chapter);
nothing may stand under the text area; every body character goes into the left or the right column
by its position; the columns are read in order (left column, right column, page after page) and
the whole body text of the book must equal, character for character (blanks, hyphens, soft hyphens
and the curly quotation marks aside), the headings (a chapter heading with its number), the boxes
(title, then text) and the paragraphs one after another. The title page must show the title, its
line and the contents, each entry with the printed page where its chapter's heading really stands.
Where each block's first character stands gives its printed page, PDF page and column, and the
columns its other characters stand in give its "continues" list and "split". A mismatch anywhere is
an error: no truth is written for a PDF that does not say what the book says.

The truth has make_pdf.py's format: for every paragraph and box its key, kind, title, section (the
heading path as a list), section_path, text as written ("plain_text": icon tokens left out,
whitespace collapsed; "text" and "plain_text" without the asterisks of key terms, which are listed
in "keywords"), the icons, the printed page, PDF page index and column where it starts, the pages
and columns it continues on and how it splits (None, "column" or "page"); a block whose text has
quotation marks or apostrophes records "printed_text" (its text as printed: key terms without
asterisks, icons as their symbols, typographic quotation marks); a box adds
"frame": "left-bar-tint", "unsplit": true and "printed_title". For every heading its level, text,
page, PDF page index and column (1 or 2: a chapter band stands in a column); a chapter heading adds
"number", "printed_as" ("2 Playing a Character, Not a Hand of Cards") and "band": true; a section
heading "small_caps" and "letter_spaced"; a level-3 heading "italic". It adds the title page
("title_page": PDF page index, no printed number, the title, its line, "not_a_block": true), the
contents ("contents": number, chapter and printed page of every entry), the printed number of every
PDF page ("page_numbers", null for the title page), every numbered page's header ("page_headers":
page, side, kind "book" or "chapter", text, corner of the number), the (empty) footers
("page_footers": only the strip, no text), the chapters' first pages ("chapter_openings"), the page
size, margins, column widths, gutter and rule, the fonts, the hyphenation (with the number of body
lines read back ending in a hyphen, which must not be 0) and the engine (the Typst package's
version and the Creator the PDF names, Typst's own version).

Needs the PyPI package typst (0.15.2), pypdfium2, PyYAML and the system's fonts-liberation and
fonts-dejavu (Libertinus Serif comes with Typst). No network. A warning from Typst (a font family
it cannot find, above all) is an error. The PDF's creation date is fixed (`set document(date:
...)`, and the compiler's clock is given a fixed timestamp), so the same book gives the same bytes
on every run.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))  # pdf_truth.py, beside this file
from pdf_truth import (  # noqa: E402
    ICON_RE,
    ICONS,
    KEYWORD_RE,
    Char,
    block_row,
    lines,
    locate_stream,
    pdf_metadata,
    write_truth,
)

TYPST_VERSION = "0.15.2"

# ---------------------------------------------------------------- the page
MM = 72 / 25.4  # points per millimetre
PAGE = {"w_mm": 185.0, "h_mm": 260.0}
MARGIN_MM = {"top": 24.0, "bottom": 19.0, "left": 17.0, "right": 17.0}
GAP_MM = 6.0
TEXT_MM = PAGE["w_mm"] - MARGIN_MM["left"] - MARGIN_MM["right"]
COLUMN_MM = (TEXT_MM - GAP_MM) / 2
STRIP_MM = 2.2  # the coloured strip at the bottom of a numbered page

BODY = {"family": "Libertinus Serif", "size": 10.2, "leading_em": 0.58, "indent_em": 1.1}
SANS, CONDENSED, ICON_FONT = "Liberation Sans", "DejaVu Sans", "DejaVu Sans"
CONDENSED_STRETCH = "87.5%"  # DejaVu Sans Condensed: Typst picks it by its stretch
H1_SIZE, H1_NUM_SIZE, H2_SIZE = 12.6, 12.6, 10.8
BOX_SIZE, BOX_TITLE_SIZE = 8.7, 9.4
HEADER_SIZE = 8.0
TEAL, TEAL_LIGHT, RUST, SAND = "#1f5f66", "#4f9aa1", "#a4502a", "#f6efe2"
FIXED_DATE = (2024, 1, 1)

# What a line-end hyphen may be read back as (pdfium marks Typst's line-end hyphens as 0x02 or
# U+FFFE), and the hyphens written in words, which are compared away on both sides.
HYPHENS = {"-", "\u2010", "\u2011", "\xad", "\x02", "\ufffe"}
QUOTES = {"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'}


# ---------------------------------------------------------------- text


def curly(text: str) -> str:
    """Straight quotation marks turned into typographic ones, as a typesetter would print them:
    an apostrophe or a closing single quote is U+2019, an opening double quote (at the start, or
    after a blank or an opening bracket) U+201C, any other double quote U+201D."""
    out = []
    for i, c in enumerate(text):
        before = text[i - 1] if i else " "
        if c == "'":
            out.append("\u2018" if before.isspace() or before in "([" else "\u2019")
        elif c == '"':
            out.append("\u201c" if before.isspace() or before in "([" else "\u201d")
        else:
            out.append(c)
    return "".join(out)


def printed(text: str) -> str:
    """What the PDF shows for a book text: key terms without asterisks, icons as their symbols,
    whitespace collapsed, curly quotation marks."""
    shown = ICON_RE.sub(lambda m: ICONS[m.group(1)], KEYWORD_RE.sub(r"\1", text))
    return curly(re.sub(r"\s+", " ", shown).strip())


def squeeze(text: str) -> str:
    """Text reduced for comparison: compatibility forms (ligatures), straight quotation marks,
    no blanks, no hyphens."""
    text = unicodedata.normalize("NFKC", text)
    return "".join(QUOTES.get(c, c) for c in text if not c.isspace() and c not in HYPHENS)


def typ_str(text: str) -> str:
    """A Typst string literal (inserted into the document as plain text, no markup)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def typ_inline(text: str) -> str:
    """A book text as Typst code that yields content: plain runs as string literals (so no
    character is read as markup), key terms through `emph`, icons through `#icon`."""
    parts = []
    for i, piece in enumerate(KEYWORD_RE.split(re.sub(r"\s+", " ", text).strip())):
        runs = []
        for j, bit in enumerate(ICON_RE.split(piece)):
            if j % 2:
                runs.append(f"icon({typ_str(ICONS[bit])})")
            elif bit:
                runs.append(typ_str(curly(bit)))
        if not runs:
            continue
        body = " + ".join(f"[#{r}]" if r.startswith('"') else r for r in runs)
        parts.append(f"emph({body})" if i % 2 else body)
    return "{ " + " + ".join(parts) + " }" if parts else "[]"


# ---------------------------------------------------------------- the book as Typst markup
def chapter_count(book: dict) -> int:
    return sum(1 for b in book["blocks"] if b["type"] == "heading" and int(b["level"]) == 1)


def title_line(book: dict) -> str:
    """The line under the title on the title page (not a block of the book)."""
    game = {"frosthaven": "Frosthaven", "gloomhaven": "Gloomhaven"}.get(book["game"], book["game"])
    return f"Notes from the table for {game} players"


def preamble(book: dict) -> str:
    """Page, text and heading set-up, the header, the strip and the column rule."""
    m = MARGIN_MM
    first_chapter = int(book.get("first_chapter", 1))
    y, mo, d = FIXED_DATE
    return f"""
#set document(title: {typ_str(book["title"])}, author: "Test rulebook generator",
  date: datetime(year: {y}, month: {mo}, day: {d}))
#let teal = rgb("{TEAL}")
#let teal-light = rgb("{TEAL_LIGHT}")
#let rust = rgb("{RUST}")
#let sand = rgb("{SAND}")
// The printed page number: the title page (physical page 1) prints none, page 2 prints first_page.
#let printed-page(n) = n + {int(book["first_page"]) - 2}
#let icon(s) = text(font: "{ICON_FONT}", fill: teal, size: 0.92em, s)
#set text(font: "{BODY["family"]}", size: {BODY["size"]}pt, lang: "en", hyphenate: true,
  fill: rgb("#1b1b1b"))
#set par(justify: true, leading: {BODY["leading_em"]}em, spacing: {BODY["leading_em"]}em,
  first-line-indent: {BODY["indent_em"]}em)
#set columns(gutter: {GAP_MM}mm)
#set heading(numbering: "1")
#counter(heading).update({first_chapter - 1})

// The chapter of a page: the first chapter heading printed on it, else the last one before it.
#let chapter-of-page() = {{
  let pg = here().page()
  let hs = query(heading.where(level: 1))
  let on = hs.filter(h => h.location().page() == pg)
  let before = hs.filter(h => h.location().page() < pg)
  if on.len() > 0 {{ on.first().body }} else if before.len() > 0 {{
    before.last().body
  }} else {{ none }}
}}

#let page-header = context {{
  let n = printed-page(counter(page).get().first())
  set text(font: "{SANS}", size: {HEADER_SIZE}pt, fill: rgb("#4a4a4a"), hyphenate: false)
  set par(justify: false, first-line-indent: 0pt)
  let num = text(weight: "bold", fill: teal, size: {HEADER_SIZE + 1.5}pt, str(n))
  block(width: 100%, stroke: (bottom: 0.4pt + rgb("#8a8a8a")), inset: (bottom: 3pt),
    if calc.even(n) {{
      align(left, num + h(9pt) + {typ_str(book["running_header"])})
    }} else {{
      align(right, chapter-of-page() + h(9pt) + num)
    }})
}}

#let page-background = {{
  // the column rule down the middle of the gutter, and the strip along the foot of the page
  place(top + left, dx: {m["left"] + TEXT_MM / 2}mm, dy: {m["top"]}mm,
    line(angle: 90deg, length: {PAGE["h_mm"] - m["top"] - m["bottom"]}mm,
      stroke: 0.35pt + rgb("#b9b9b9")))
  place(bottom + left, dx: 0mm, dy: 0mm, rect(width: 100%, height: {STRIP_MM}mm, fill: teal,
    stroke: none))
}}

#set page(width: {PAGE["w_mm"]}mm, height: {PAGE["h_mm"]}mm,
  margin: (top: {m["top"]}mm, bottom: {m["bottom"]}mm, left: {m["left"]}mm, right: {m["right"]}mm),
  columns: 2, header: page-header, header-ascent: 35%, footer: none,
  background: page-background)

#show heading.where(level: 1): it => block(width: 100%, fill: teal, radius: 1.5pt, clip: true,
    above: 15pt, below: 10pt, breakable: false, sticky: true, {{
  set par(justify: false, first-line-indent: 0pt, leading: 0.42em)
  set text(font: "{SANS}", weight: "bold", size: {H1_SIZE}pt, fill: white, hyphenate: false)
  grid(columns: (8mm, 1fr), fill: (teal-light, none), inset: (x: 0pt, y: 6.5pt),
    align(center, text(size: {H1_NUM_SIZE}pt, counter(heading).display("1"))),
    pad(left: 2.6mm, right: 6pt, it.body))
}})

#show heading.where(level: 2): it => block(above: 13pt, below: 6.5pt, sticky: true, {{
  set par(justify: false, first-line-indent: 0pt)
  line(length: 11mm, stroke: 1.6pt + rust)
  v(-3pt)
  text(font: "{BODY["family"]}", weight: "bold", size: {H2_SIZE}pt, fill: teal, tracking: 0.07em,
    hyphenate: false, smallcaps(it.body))
}})

#show heading.where(level: 3): it => block(above: 10pt, below: 4.5pt, sticky: true, {{
  set par(justify: false, first-line-indent: 0pt)
  text(font: "{BODY["family"]}", style: "italic", weight: "regular", size: {BODY["size"] + 0.6}pt,
    fill: rust, hyphenate: false, it.body)
}})

#let rulebox(title, body) = block(width: 100%, breakable: false, fill: sand,
    stroke: (left: 3pt + teal), radius: (top-right: 4pt, bottom-right: 4pt),
    inset: (left: 8pt, right: 7pt, top: 6.5pt, bottom: 7.5pt), above: 10pt, below: 10pt, {{
  set par(first-line-indent: 0pt, justify: true, leading: 0.5em)
  block(below: 4.5pt, text(font: "{CONDENSED}", stretch: {CONDENSED_STRETCH}, weight: "bold",
    size: {BOX_TITLE_SIZE}pt,
    fill: teal, hyphenate: false, title))
  text(font: "{SANS}", size: {BOX_SIZE}pt, body)
}})
"""


def title_page(book: dict) -> str:
    """The first PDF page: title, its line and the contents, no header, no number."""
    return f"""
#page(columns: 1, header: none, background: none, {{
  set par(justify: false, first-line-indent: 0pt)
  v(38mm)
  block(width: 100%, stroke: (bottom: 2.2pt + teal), inset: (bottom: 7mm), below: 7mm,
    text(font: "{SANS}", weight: "bold", size: 25pt, fill: teal, hyphenate: false,
      {typ_str(book["title"])}))
  text(font: "{SANS}", size: 12pt, fill: rgb("#444444"), {typ_str(title_line(book))})
  v(22mm)
  text(font: "{CONDENSED}", stretch: {CONDENSED_STRETCH}, weight: "bold", size: 13pt, fill: rust,
    "Contents")
  v(4mm)
  context {{
    set text(font: "{BODY["family"]}", size: 12pt)
    for h in query(heading.where(level: 1)) {{
      let n = counter(heading).at(h.location()).first()
      let p = printed-page(counter(page).at(h.location()).first())
      block(below: 3.2mm, grid(columns: (9mm, 1fr, 12mm), column-gutter: 2mm,
        text(weight: "bold", fill: teal, str(n)),
        [#h.body #box(width: 1fr, repeat(gap: 2.5pt)[.])],
        align(right, str(p))))
    }}
  }}
}})
"""


def book_typst(book: dict) -> str:
    """The whole book as one Typst document."""
    body = [preamble(book), title_page(book)]
    for block in book["blocks"]:
        kind = block["type"]
        if kind == "heading":
            lvl = int(block["level"])
            if lvl not in (1, 2, 3):
                raise ValueError(f"heading level {lvl} is not in this layout")
            body.append(f"#heading(level: {lvl}, {typ_str(block['text'])})\n")
        elif kind == "paragraph":
            body.append(f"#{typ_inline(block['text'])}\n")
        elif kind == "box":
            body.append(f"#rulebox({typ_inline(block['title'])}, {typ_inline(block['text'])})\n")
        else:
            raise ValueError(f"unknown block type {kind!r}")
    return "\n".join(body)


# ---------------------------------------------------------------- typesetting
def typeset(source: str, out: Path) -> None:
    """Compile the Typst source to `out` (fonts: Typst's own and the system's; fixed clock)."""
    import typst  # imported here: only typesetting needs it

    if getattr(typst, "__version__", TYPST_VERSION) != TYPST_VERSION:
        raise RuntimeError(f"typst {TYPST_VERSION} is needed, not {typst.__version__}")
    src = out.with_suffix(".typ")
    src.write_text(source)
    try:
        # 1704067200: 2024-01-01T00:00:00Z. Any warning (a font family Typst cannot find, above
        # all: it would quietly fall back to another face) is an error.
        _, warnings = typst.compile_with_warnings(str(src), output=str(out), timestamp=1704067200)
        if warnings:
            raise RuntimeError("Typst warned: " + "; ".join(str(w.message) for w in warnings))
    finally:
        src.unlink()


# ---------------------------------------------------------------- reading the PDF back


def page_chars(tp, height: float) -> list[Char]:
    """Every character Typst printed on a page, not the blanks and line ends pdfium makes up."""
    import pypdfium2.raw as pdfium_c

    chars = []
    for i in range(tp.count_chars()):
        if pdfium_c.FPDFText_IsGenerated(tp.raw, i) == 1:
            continue
        code = pdfium_c.FPDFText_GetUnicode(tp.raw, i)
        if not code:
            continue
        left, _bottom, right, _top = tp.get_charbox(i)
        ox, oy = pdfium_c.c_double(), pdfium_c.c_double()
        pdfium_c.FPDFText_GetCharOrigin(tp.raw, i, ox, oy)
        size = pdfium_c.FPDFText_GetFontSize(tp.raw, i)
        chars.append(Char(chr(code), left, right, height - oy.value, round(size, 2)))
    return chars


def line_text(chars: list[Char]) -> str:
    """The squeezed text of some characters read line by line."""
    return "".join(squeeze(c.text) for line in lines(chars) for c in line)


@dataclass
class Page:
    index: int  # PDF page index
    width: float
    height: float
    stream: list[tuple[str, int]]  # body text in reading order: (squeezed character, column)
    hyphens: int  # lines of the body that end in a hyphen
    top: list[Char]  # furniture above the text area
    bottom: list[Char]  # anything under it (there should be nothing)
    head: str  # the header as pdfium reads it, whitespace collapsed


def read_pages(out: Path) -> list[Page]:
    """The PDF's pages: body text in reading order with the column of each character, and the
    furniture in the margins."""
    import pypdfium2 as pdfium

    pages = []
    pdf = pdfium.PdfDocument(str(out))
    try:
        for index in range(len(pdf)):
            pg = pdf[index]
            width, height = pg.get_size()
            middle = (MARGIN_MM["left"] + TEXT_MM / 2) * MM
            top_edge = MARGIN_MM["top"] * MM - 1
            foot_edge = height - MARGIN_MM["bottom"] * MM + 3
            body: dict[int, list[Char]] = {1: [], 2: []}
            top, bottom = [], []
            tp = pg.get_textpage()
            head = tp.get_text_bounded(0, height - top_edge, width, height)
            head = re.sub(r"\s+", " ", head).strip()
            for c in page_chars(tp, height):
                if c.y < top_edge:
                    top.append(c)
                elif c.y > foot_edge:
                    bottom.append(c)
                elif index == 0:
                    body[1].append(c)  # the title page is one column
                else:
                    body[1 if (c.left + c.right) / 2 < middle else 2].append(c)
            stream = [(ch, col) for col in (1, 2) for line in lines(body[col])
                      for c in line for ch in squeeze(c.text)]  # fmt: skip
            ends = [line[-1].text for col in (1, 2) for line in lines(body[col])]
            hyphens = sum(1 for e in ends if e in HYPHENS) if index else 0
            pages.append(Page(index, width, height, stream, hyphens, top, bottom, head))
    finally:
        pdf.close()
    return pages


# ---------------------------------------------------------------- truth
def chapter_numbers(book: dict) -> list[int]:
    first = int(book.get("first_chapter", 1))
    return [first + i for i in range(chapter_count(book))]


def expected_items(book: dict) -> list[tuple[str, dict, str]]:
    """What the body of the PDF must say, in order: (kind, block, squeezed printed text)."""
    items, numbers = [], iter(chapter_numbers(book))
    for block in book["blocks"]:
        shown = printed(block["text"])
        if block["type"] == "heading" and int(block["level"]) == 1:
            shown = f"{next(numbers)}{shown}"
        if block["type"] == "box":
            shown = printed(block["title"]) + shown
        items.append((block["type"], block, squeeze(shown)))
    return items


def locate(book: dict, pages: list[Page]) -> list[list[tuple[int, int]]]:
    """For every block of the book (headings included) the (PDF page, column) places its
    characters stand in, in order, each place once. The body text of the numbered pages must be
    exactly the blocks' printed texts one after another."""
    stream = [(ch, p.index, col) for p in pages[1:] for ch, col in p.stream]
    items = [(kind, block, want, "") for kind, block, want in expected_items(book)]
    return locate_stream(items, stream, set(), set())[0]


def check_title_page(book: dict, page: Page, contents: list[dict]) -> None:
    """The title page shows the title, its line, "Contents" and every entry (number, chapter,
    dotted leader, printed page) and nothing else; no header, nothing at the foot."""
    if page.top or page.bottom:
        raise ValueError("the title page has a header or a footer")
    got = "".join(ch for ch, _ in page.stream).replace(".", "")
    want = squeeze(printed(book["title"]) + title_line(book) + "Contents")
    want += "".join(squeeze(f"{e['number']}{e['chapter']}{e['page']}") for e in contents)
    if got != want.replace(".", ""):
        raise ValueError(f"the title page reads {got!r},\n expected {want!r}")


def furniture(book: dict, pages: list[Page], numbers: list, chapter_of: dict) -> tuple:
    """Every numbered page's header as printed (checked against what was asked for) and its
    foot (only the strip: no text may stand under the text area)."""
    headers, footers = [], []
    for p in pages[1:]:
        num = numbers[p.index]
        even = num % 2 == 0
        if even:
            text, kind, corner = book["running_header"], "book", "left"
            want = f"{num}{text}"
        else:
            text, kind, corner = chapter_of[p.index], "chapter", "right"
            want = f"{text}{num}"
        if line_text(p.top) != squeeze(want):
            raise ValueError(f"PDF page {p.index}: header {p.head!r}, expected {want!r}")
        digits = [c for c in p.top if c.text.isdigit()]
        outer = (
            all(c.left < p.width / 2 for c in digits)
            if even
            else all(c.left > p.width / 2 for c in digits)
        )
        if not digits or not outer:
            raise ValueError(f"PDF page {p.index}: the page number is not in the {corner} corner")
        if p.bottom:
            raise ValueError(f"PDF page {p.index}: text under the text area")
        headers.append(dict(page=num, pdf_page_index=p.index, side="verso" if even else "recto",
                            kind=kind, text=text, number=str(num), number_corner=corner,
                            position="top", rule_below=True))  # fmt: skip
        footers.append(dict(page=num, pdf_page_index=p.index, text=None, strip=True,
                            strip_colour=TEAL, position="bottom"))  # fmt: skip
    return headers, footers


def build_truth(book: dict, pages: list[Page]) -> dict:
    """The ground truth (make_pdf.py's format plus this layout's keys) of a typeset book."""
    first = int(book["first_page"])
    numbers: list = [None] + [first + i - 1 for i in range(1, len(pages))]
    places = locate(book, pages)
    headings, blocks, path, openings = [], [], [], []
    chapter_nums = iter(chapter_numbers(book))
    for block, where in zip(book["blocks"], places):
        (index, col), rest = where[0], where[1:]
        at = {"page": numbers[index], "pdf_page_index": index, "column": col}
        if block["type"] == "heading":
            lvl = int(block["level"])
            path = path[: lvl - 1] + [block["text"]]
            entry = {"level": lvl, "text": block["text"], **at}
            if lvl == 1:
                n = next(chapter_nums)
                entry.update(number=str(n), printed_as=f"{n} {block['text']}", band=True)
                openings.append({"chapter": block["text"], "number": str(n),
                                 "page": numbers[index], "pdf_page_index": index})  # fmt: skip
            elif lvl == 2:
                entry.update(small_caps=True, letter_spaced=True)
            else:
                entry["italic"] = True
            if rest:
                entry["continues"] = [{"page": numbers[i], "pdf_page_index": i, "column": c}
                                      for i, c in rest]  # fmt: skip
            headings.append(entry)
            continue
        row = block_row(block, path)
        text = row["text"]
        shown = printed(block["text"])
        if shown != ICON_RE.sub(lambda m: ICONS[m.group(1)], re.sub(r"\s+", " ", text).strip()):
            row["printed_text"] = shown
        if block["type"] == "box":
            row.update(frame="left-bar-tint", unsplit=True, printed_title=printed(block["title"]))
        row.update(at, continues=[{"page": numbers[i], "pdf_page_index": i, "column": c}
                                  for i, c in rest])  # fmt: skip
        row["split"] = None if not rest else "page" if rest[-1][0] != index else "column"
        if block["type"] == "box" and row["split"]:
            raise ValueError(f"box {block['key']!r} was split, which this layout never does")
        blocks.append(row)
    chapter_of: dict[int, str] = {}
    for p in range(1, len(pages)):
        on = [o for o in openings if o["pdf_page_index"] == p]
        before = [o for o in openings if o["pdf_page_index"] < p]
        chapter_of[p] = (on[0] if on else before[-1])["chapter"] if on or before else None
    contents = [{"number": o["number"], "chapter": o["chapter"], "page": o["page"]}
                for o in openings]  # fmt: skip
    check_title_page(book, pages[0], contents)
    headers, footers = furniture(book, pages, numbers, chapter_of)
    hyphens = sum(p.hyphens for p in pages)
    if not hyphens:
        raise ValueError("no line of the body ends in a hyphen: is Typst's hyphenation on?")
    import typst

    m = MARGIN_MM
    return {
        "title": book["title"],
        "game": book["game"],
        "style": "typst",
        "running_header": book["running_header"],
        "first_page": first,
        "pages": len(pages),
        "printed_pages": [numbers[1], numbers[-1]],
        "icons": {
            k: {"char": v, "codepoint": f"U+{ord(v):04X}", "font": ICON_FONT}
            for k, v in ICONS.items()
        },  # fmt: skip
        "headings": headings,
        "blocks": blocks,
        "engine": {
            "name": "Typst",
            "package_version": getattr(typst, "__version__", TYPST_VERSION),
            "via": "the typst Python package (typst.compile_with_warnings)",
            "features": [
                "page columns: 2",
                "Typst hyphenation (lang: en)",
                "sticky headings",
                "block(breakable: false) boxes",
                "context queries for header and contents",
            ],
        },  # fmt: skip
        "title_page": {
            "pdf_page_index": 0,
            "printed_number": None,
            "title": book["title"],
            "lines": [title_line(book)],
            "not_a_block": True,
        },  # fmt: skip
        "contents": contents,
        "page_numbers": numbers,
        "page_number_offset": {
            "first_numbered_pdf_page_index": 1,
            "printed": first,
            "rule": "printed = first_page + pdf_page_index - 1; the title page "
            "(PDF page 0) prints no number",
        },  # fmt: skip
        "chapter_openings": openings,
        "chapter_new_page": False,
        "page_size_mm": [PAGE["w_mm"], PAGE["h_mm"]],
        "page_size_pt": [round(pages[0].width, 2), round(pages[0].height, 2)],
        "margins_pt": {k: round(v * MM, 2) for k, v in m.items()},
        "column_width_pt": round(COLUMN_MM * MM, 2),
        "column_gap_pt": round(GAP_MM * MM, 2),
        "column_rule": {"width_pt": 0.35, "colour": "#b9b9b9"},
        "columns": 2,
        "body_font": {
            "name": BODY["family"],
            "size": BODY["size"],
            "leading_em": BODY["leading_em"],
        },  # fmt: skip
        "heading_fonts": {
            "1": {
                "name": SANS,
                "bold": True,
                "size": H1_SIZE,
                "colour": "white",
                "band": TEAL,
                "number_square": TEAL_LIGHT,
            },
            "2": {
                "name": BODY["family"],
                "bold": True,
                "small_caps": True,
                "size": H2_SIZE,
                "colour": TEAL,
                "tracking_em": 0.07,
                "rule_above": RUST,
            },
            "3": {
                "name": BODY["family"],
                "italic": True,
                "size": BODY["size"] + 0.6,
                "colour": RUST,
            },
        },  # fmt: skip
        "keyword_style": "italic",
        "quotation_marks": "curly (U+2018, U+2019, U+201C, U+201D) for the book's straight ones",
        "box": {
            "font": SANS,
            "size": BOX_SIZE,
            "title_font": "DejaVu Sans Condensed Bold",
            "fill": SAND,
            "bar": {"side": "left", "width_pt": 3, "colour": TEAL},
            "break_inside": "avoid",
        },  # fmt: skip
        "paragraph_indent": {
            "kind": "first-line",
            "em": BODY["indent_em"],
            "none_after": ["heading", "box"],
            "gap_pt": 0,
        },  # fmt: skip
        "hyphenation": {
            "method": "Typst's own patterns (lang: en)",
            "justified": True,
            "line_end_hyphens": hyphens,
        },  # fmt: skip
        "page_headers": headers,
        "page_footers": footers,
    }


# ---------------------------------------------------------------- public API
def build_typst_pdf(book: dict, out_pdf_path) -> dict:
    """Lay out a book given as a dict (the parsed YAML) with Typst; returns the ground truth
    (also written beside the PDF as <stem>.truth.json)."""
    out = Path(out_pdf_path)
    out.parent.mkdir(parents=True, exist_ok=True)
    typeset(book_typst(book), out)
    truth = build_truth(book, read_pages(out))
    truth["engine"]["pdf_creator"] = pdf_metadata(out)["pdf_creator"]
    return write_truth(out, truth)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__)
        return 2
    book = yaml.safe_load(Path(argv[0]).read_text())
    t = build_typst_pdf(book, argv[1])
    splits = sorted({b["split"] for b in t["blocks"] if b["split"]})
    print(f"{argv[1]}: style {t['style']}, {t['pages']} pages (printed {t['printed_pages']}), "
          f"{len(t['blocks'])} blocks, splits: {splits}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
