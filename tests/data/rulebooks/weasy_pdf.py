"""Lay a test rulebook (tests/data/rulebooks/*.yaml) out as HTML + CSS paged media with WeasyPrint.

A fourth, independent generator beside make_pdf.py (which draws its books with reportlab),
browser_pdf.py (which prints them with Chromium) and typst_pdf.py (which sets them with Typst):
many community booklets are made with an HTML-to-PDF tool that understands CSS paged media
(running strings, page counters, margin boxes), so this one writes the book as an HTML page with a
print style sheet and has WeasyPrint (the PyPI package ``weasyprint``, which lays the text out
with Pango and hyphenates with Pyphen's dictionaries) lay it out and write the PDF. WeasyPrint does
the whole layout: line breaking, hyphenation, justification, the columns, the chapter headings
across both columns, page breaks and the page furniture. Beside the PDF it writes the same ground
truth as make_pdf.py (``<name>.truth.json``), read back from the PDF that WeasyPrint produced.

    build_weasy_pdf(book: dict, out_pdf_path) -> dict   # the truth, also written beside the PDF
    python weasy_pdf.py BOOK.yaml OUT.pdf
    python make_pdf.py BOOK.yaml OUT.pdf --style=weasy   # the same, through make_pdf.build_pdf

The layout ("weasy", used by twentythird.yaml, whose `layout_style` is "weasy") follows the habits
of a community booklet made from HTML by someone with a taste of their own: US LETTER pages (8.5 x
11 in) with equal margins (17 mm at the sides, 22 mm on top, 21 mm at the foot), not mirrored; an
UNNUMBERED COVER as the first PDF page (a deep plum panel with the book title in a large white bold
sans, a line naming the game and a line saying the booklet is not an official rules document; no
header, no footer); then the book in TWO equal columns in a 7 mm gutter with no rule (CSS
`columns: 2` on one container: the text fills the first column, then the second, then runs on to
the next page; chapters do NOT open a new page). A CHAPTER HEADING SPANS BOTH COLUMNS (CSS
`column-span: all`) wherever the chapter begins, even in the middle of a page: the text before it
is then BALANCED into two short columns above it (WeasyPrint's balancing), and the chapter goes on
in two columns under it; the heading is a large bold sans (DejaVu Sans Bold 17 pt) in plum over a
thick ochre rule as wide as the text, its number (counted from the book's `first_chapter`, default
1) in ochre before the title (a CSS counter). Section (level-2) headings are NUMBERED through CSS
counters as "chapter.section" ("7.2 Teaching Strangers Quickly") in a bold condensed sans (DejaVu
Sans Condensed Bold) in plum, the number in ochre; level-3 headings are unnumbered, in the body's
bold italic; every heading is kept with what follows (`break-after: avoid`). The body is a serif
(Liberation Serif 10 pt on 13.2 pt) JUSTIFIED and HYPHENATED by WeasyPrint itself (`hyphens:
auto` with `lang="en"`: Pyphen's English patterns, a real hyphen U+2010 printed at the line end);
paragraphs are BLOCK PARAGRAPHS, not indented, with a small gap between them; the FIRST PARAGRAPH
OF A CHAPTER is a LEDE, set larger (Liberation Serif 11.6 pt on 15.2 pt) in a dark plum ink; key
terms (written `*like this*` in the book) in the serif's bold, in plum; quotation marks and
apostrophes printed as written (straight); game icons (`{loot}`) as the same Unicode symbols
make_pdf.py uses, from DejaVu Sans. Boxes are as wide as their column on a pale blue-grey ground
under a thick OCHRE RULE ON TOP only (no side or bottom frame), kept in one piece (`break-inside:
avoid`: a box that does not fit moves whole to the next column), the title an UPPER-CASE
letter-spaced label in a small bold sans (CSS `text-transform: uppercase`: the PDF shows the title
in capitals) and the text in a smaller sans (Liberation Sans 8.8 pt), justified and hyphenated
too. The page furniture is printed by CSS @page MARGIN BOXES on every numbered page, the same on
left and right pages: at the top the book's running header in letter-spaced small upper-case grey
sans on the LEFT (`text-transform: uppercase`) and the chapter of the page in the serif's italic on
the RIGHT (CSS `string-set` on the chapter headings, `string(chapter)`: the first chapter heading
on the page, else the last one before it), both over one hairline as wide as the text; at the foot
the page number CENTRED BETWEEN EM DASHES ("— 433 —"). The printed page number is NOT the PDF page
index: the cover counts as a page but prints no number, and the page counter is moved on there
(`@page :first { counter-increment: page N }`) so that the first page after the cover prints the
book's `first_page`.

The truth is read from the PDF itself (pypdfium2): the text of every page is taken character by
character with its position and size; the header (above the text area) and the footer (under it)
are set apart and checked against what was asked for (the running header upper case on the left,
the chapter of the page on the right, the page number between dashes in the middle of the foot);
a chapter heading is told by its size (nothing else is that large) and stands across the page, and
the other body characters go into the left or the right column by their position. A page is read
in bands from the top: the columns above a chapter heading (left column, then right column), the
heading, then the columns under it, and so on; page after page. The whole body text must equal,
character for character (blanks and hyphens aside; the box titles compared in capitals), the
headings (with their printed numbers: "7", "7.1"), the boxes (title, then text) and the
paragraphs one after another. The cover must show the title and its two lines and nothing else.
Where each block's first character stands gives its printed page, PDF page and column (0 for a
chapter heading across the page), and the columns its other characters stand in give its
"continues" list and "split". A mismatch anywhere is an error: no truth is written for a PDF that
does not say what the book says.

The truth has make_pdf.py's format: for every paragraph and box its key, kind, title, section (the
heading path as a list), section_path, text as written ("plain_text": icon tokens left out,
whitespace collapsed; "text" and "plain_text" without the asterisks of key terms, which are listed
in "keywords"), the icons, the printed page, PDF page index and column where it starts, the pages
and columns it continues on and how it splits (None, "column" or "page"); a block with icons records
"printed_text" (its text as printed: key terms without asterisks, icons as their symbols, as
typst_pdf.py records it); the chapter's first paragraph adds "lede": true; a box adds "frame":
"top-rule-tint", "unsplit": true and "printed_title" (the title in capitals, as printed). For every
heading its level, text, page, PDF page index and column; a chapter heading has "column": 0,
"placement": "span", "number" and "printed_as" ("7 Running a Demo Table"); a section heading
"number" and "printed_as" ("7.1 Choosing What to Show"); a level-3 heading "bold_italic". It adds
the cover ("cover": PDF page index, no printed number, its lines, "not_a_block": true), the printed
number of every PDF page ("page_numbers", null for the cover), every numbered page's header
("page_headers": the running header as printed on the left and the chapter on the right) and footer
("page_footers": the number as printed, centred), the chapters' first pages ("chapter_openings"),
the page size, margins, column widths and gap, the fonts, the hyphenation (with the number of body
lines read back ending in WeasyPrint's hyphen, which must not be 0) and the engine (WeasyPrint's
version and the Creator and Producer the PDF names).

Needs the PyPI package weasyprint (70.0, with its Pango and Pyphen), pypdfium2, PyYAML and the
system's fonts-liberation and fonts-dejavu. No network, no web fonts (the HTML names no URL). The
PDF's creation and modification dates are fixed (HTML `dcterms` meta tags), so the same book gives
the same bytes on every run.
"""

from __future__ import annotations

import html
import re
import sys
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))  # pdf_truth.py, beside this file
from pdf_truth import (
    ICON_RE,
    ICONS,
    KEYWORD_RE,
    Char,
    band_text,
    block_row,
    lines,
    locate_stream,
    pdf_metadata,
    write_truth,
)  # noqa: E402

WEASYPRINT_VERSION = "70.0"

# ---------------------------------------------------------------- the page
MM = 72 / 25.4  # points per millimetre
PAGE = {"name": "letter", "w_mm": 215.9, "h_mm": 279.4}
MARGIN_MM = {"top": 22.0, "bottom": 21.0, "left": 17.0, "right": 17.0}
GAP_MM = 7.0
TEXT_MM = PAGE["w_mm"] - MARGIN_MM["left"] - MARGIN_MM["right"]
COLUMN_MM = (TEXT_MM - GAP_MM) / 2

BODY = {"family": "Liberation Serif", "size": 10.0, "leading": 13.2, "gap_em": 0.42}
LEDE = {"family": "Liberation Serif", "size": 11.6, "leading": 15.2}
SANS, CONDENSED, H1_FONT, ICON_FONT = (
    "Liberation Sans",
    "DejaVu Sans Condensed",
    "DejaVu Sans",
    "DejaVu Sans",
)
H1_SIZE = 17.0  # a chapter heading; the only text this large, which is how it is read back
H2_SIZE = 11.2
H3_SIZE = 10.4
BOX_SIZE, BOX_LEADING, BOX_TITLE_SIZE = 8.8, 11.8, 8.0
HEADER_SIZE, CHAPTER_SIZE, FOOTER_SIZE = 7.4, 8.6, 8.6
PLUM, OCHRE, LEDE_INK, BOX_FILL, GREY = "#4b2147", "#b5720f", "#3a2437", "#e8edf1", "#6a6a6a"
FIXED_DATE = "2024-01-01T00:00:00Z"
HYPHEN_CHAR = "\u2010"  # what WeasyPrint prints at the end of a hyphenated line

# The hyphens written in words and the one WeasyPrint prints at a line end: compared away on both
# sides (a soft hyphen too, should one ever be read back).
HYPHENS = {"-", HYPHEN_CHAR, "\u2011", "\xad", "\x02", "\ufffe"}


# ---------------------------------------------------------------- text


def printed(text: str) -> str:
    """What the PDF shows for a book text: key terms without asterisks, icons as their symbols,
    whitespace collapsed."""
    shown = ICON_RE.sub(lambda m: ICONS[m.group(1)], KEYWORD_RE.sub(r"\1", text))
    return re.sub(r"\s+", " ", shown).strip()


def squeeze(text: str) -> str:
    """Text reduced for comparison: compatibility forms (ligatures), no blanks, no hyphens."""
    text = unicodedata.normalize("NFKC", text)
    return "".join(c for c in text if not c.isspace() and c not in HYPHENS)


def inline_html(text: str) -> str:
    """A book text as HTML: key terms in <b class="term">, icons as symbols in their font."""
    out = []
    for i, piece in enumerate(KEYWORD_RE.split(re.sub(r"\s+", " ", text).strip())):
        parts = []
        for j, bit in enumerate(ICON_RE.split(piece)):
            if j % 2:
                parts.append(f'<span class="icon">{ICONS[bit]}</span>')
            else:
                parts.append(html.escape(bit, quote=False))
        out.append(f'<b class="term">{"".join(parts)}</b>' if i % 2 else "".join(parts))
    return "".join(out)


def css_string(text: str) -> str:
    """A CSS string literal (for `content:` in a margin box)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


# ---------------------------------------------------------------- the book as HTML
def cover_lines(book: dict) -> list[str]:
    """The lines of the cover under the title (not blocks of the book)."""
    game = {"frosthaven": "Frosthaven", "gloomhaven": "Gloomhaven"}.get(book["game"], book["game"])
    return [
        f"Table practice for {game} groups",
        "A community booklet, not an official rules document",
    ]


def chapter_numbers(book: dict) -> list[int]:
    first = int(book.get("first_chapter", 1))
    count = sum(1 for b in book["blocks"] if b["type"] == "heading" and int(b["level"]) == 1)
    return [first + i for i in range(count)]


def heading_numbers(book: dict) -> list[str | None]:
    """The number printed before every block that is a heading ("7", "7.2"; None for a level-3
    heading and for every other block), as the style sheet's counters print them."""
    chapter, section, out = int(book.get("first_chapter", 1)) - 1, 0, []
    for block in book["blocks"]:
        lvl = int(block["level"]) if block["type"] == "heading" else 0
        if lvl == 1:
            chapter, section = chapter + 1, 0
            out.append(str(chapter))
        elif lvl == 2:
            section += 1
            out.append(f"{chapter}.{section}")
        else:
            out.append(None)
    return out


def style_sheet(book: dict) -> str:
    """The print style sheet: pages and margin boxes, the cover, the columns and the blocks."""
    m = MARGIN_MM
    rule = f"border-bottom: 0.4pt solid {GREY};"
    head = (
        f"vertical-align: bottom; padding-bottom: 2.6pt; margin-bottom: 5.5mm; width: 50%; {rule}"
    )
    first_chapter = int(book.get("first_chapter", 1))
    return f"""
@page {{ size: {PAGE["name"]}; margin: {m["top"]}mm {m["right"]}mm {m["bottom"]}mm {m["left"]}mm;
  @top-left {{ content: {css_string(book["running_header"])}; {head} text-align: left;
    font: {HEADER_SIZE}pt '{SANS}'; color: {GREY}; text-transform: uppercase;
    letter-spacing: 0.14em; }}
  @top-right {{ content: string(chapter); {head} text-align: right;
    font: italic {CHAPTER_SIZE}pt '{BODY["family"]}'; color: #333; }}
  @bottom-center {{ content: "\\2014\\2002" counter(page) "\\2002\\2014"; vertical-align: top;
    padding-top: 6mm; font: {FOOTER_SIZE}pt '{SANS}'; color: #333; }} }}
@page :first {{ counter-increment: page {int(book["first_page"]) - 1};
  @top-left {{ content: none; }} @top-right {{ content: none; }}
  @bottom-center {{ content: none; }} }}
html {{ margin: 0; padding: 0; }}
body {{ margin: 0; font-family: '{BODY["family"]}'; font-size: {BODY["size"]}pt;
  line-height: {BODY["leading"]}pt; color: #1a1a1a; counter-reset: chapter {first_chapter - 1}; }}
.cover {{ break-after: page; margin-top: 46mm; padding: 16mm 13mm 14mm; background: {PLUM};
  color: white; border-bottom: 4pt solid {OCHRE}; }}
.cover h1 {{ font: bold 25pt/31pt '{H1_FONT}'; margin: 0 0 9mm; hyphens: manual; }}
.cover p {{ font: 12.5pt/17pt '{SANS}'; margin: 0 0 2.5mm; }}
main {{ columns: 2; column-gap: {GAP_MM}mm; orphans: 2; widows: 2; }}
main > h1 {{ column-span: all; string-set: chapter content(text); counter-increment: chapter;
  counter-reset: section; font: bold {H1_SIZE}pt/{H1_SIZE * 1.2:.1f}pt '{H1_FONT}'; color: {PLUM};
  margin: 8pt 0 10pt; padding-bottom: 4pt; border-bottom: 2.2pt solid {OCHRE};
  break-after: avoid; hyphens: manual; }}
main > h1:first-child {{ margin-top: 0; }}
main > h1::before {{ content: counter(chapter); color: {OCHRE}; margin-right: 0.45em; }}
h2 {{ counter-increment: section; font: bold {H2_SIZE}pt/{H2_SIZE * 1.25:.1f}pt '{CONDENSED}';
  color: {PLUM}; margin: 11pt 0 3.5pt; break-after: avoid; hyphens: manual; }}
h2::before {{ content: counter(chapter) "." counter(section); color: {OCHRE};
  margin-right: 0.5em; }}
h3 {{ font: bold italic {H3_SIZE}pt/{BODY["leading"]}pt '{BODY["family"]}'; color: #2a2a2a;
  margin: 8pt 0 2pt; break-after: avoid; hyphens: manual; }}
p {{ margin: 0 0 {BODY["gap_em"]}em; text-align: justify; hyphens: auto; text-indent: 0; }}
p.lede {{ font: {LEDE["size"]}pt/{LEDE["leading"]}pt '{LEDE["family"]}'; color: {LEDE_INK};
  margin-bottom: 0.5em; }}
b.term {{ font-weight: bold; color: {PLUM}; }}
.box {{ break-inside: avoid; margin: 7pt 0 9pt; padding: 5pt 8pt 7pt; background: {BOX_FILL};
  border-top: 2.6pt solid {OCHRE}; }}
.box h4 {{ font: bold {BOX_TITLE_SIZE}pt/{BOX_TITLE_SIZE + 3.5}pt '{SANS}'; color: #7a4a05;
  text-transform: uppercase; letter-spacing: 0.07em; margin: 0 0 2.5pt; break-after: avoid;
  hyphens: manual; }}
.box p {{ font: {BOX_SIZE}pt/{BOX_LEADING}pt '{SANS}'; margin: 0; color: #1d1d1d; }}
.icon {{ font-family: '{ICON_FONT}'; font-weight: normal; }}
"""


def book_html(book: dict) -> str:
    """The whole book as one HTML page: the cover, then every block in one two-column container."""
    body = ['<section class="cover">', f"<h1>{html.escape(book['title'])}</h1>"]
    body += [f"<p>{html.escape(line)}</p>" for line in cover_lines(book)] + ["</section>", "<main>"]
    after_chapter = False
    for block in book["blocks"]:
        kind = block["type"]
        if kind == "heading":
            lvl = int(block["level"])
            if lvl not in (1, 2, 3):
                raise ValueError(f"heading level {lvl} is not in this layout")
            body.append(f"<h{lvl}>{html.escape(block['text'])}</h{lvl}>")
            after_chapter = lvl == 1
            continue
        key = html.escape(block["key"])
        if kind == "paragraph":
            cls = ' class="lede"' if after_chapter else ""
            body.append(f'<p id="{key}"{cls}>{inline_html(block["text"])}</p>')
        elif kind == "box":
            body.append(f'<div class="box" id="{key}"><h4>{inline_html(block["title"])}</h4>'
                        f"<p>{inline_html(block['text'])}</p></div>")  # fmt: skip
        else:
            raise ValueError(f"unknown block type {kind!r}")
        after_chapter = False
    body.append("</main>")
    meta = "".join(
        f'<meta name="{n}" content="{FIXED_DATE}">' for n in ("dcterms.created", "dcterms.modified")
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(book['title'])}</title>{meta}"
        '<meta name="author" content="Test rulebook generator">'
        f"\n<style>\n{style_sheet(book)}</style></head>\n<body>\n"
        + "\n".join(body)
        + "\n</body></html>\n"
    )


def lede_keys(book: dict) -> set[str]:
    """The keys of the paragraphs printed as a chapter's lede (right after a chapter heading)."""
    keys, after = set(), False
    for block in book["blocks"]:
        if block["type"] == "heading":
            after = int(block["level"]) == 1
            continue
        if after and block["type"] == "paragraph":
            keys.add(block["key"])
        after = False
    return keys


# ---------------------------------------------------------------- laying out
def lay_out(page_html: str, out: Path) -> None:
    """Lay the HTML out with WeasyPrint and write the PDF to `out`."""
    import weasyprint  # imported here: only laying out needs it

    if weasyprint.__version__ != WEASYPRINT_VERSION:
        raise RuntimeError(
            f"weasyprint {WEASYPRINT_VERSION} is needed, not {weasyprint.__version__}"
        )
    weasyprint.HTML(string=page_html, base_url=str(out.parent)).write_pdf(str(out))


# ---------------------------------------------------------------- reading the PDF back


def page_chars(tp, height: float) -> list[Char]:
    """Every character WeasyPrint printed on a page, not the blanks and line ends pdfium makes up."""
    import pypdfium2.raw as pdfium_c

    chars = []
    for i in range(tp.count_chars()):
        if pdfium_c.FPDFText_IsGenerated(tp.raw, i) == 1:
            continue
        code = pdfium_c.FPDFText_GetUnicode(tp.raw, i)
        if not code or chr(code).isspace():
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
    hyphens: int  # lines of the body that end in WeasyPrint's hyphen
    top: list[Char]  # furniture above the text area
    bottom: list[Char]  # furniture under it
    head: str  # the header as pdfium reads it, whitespace collapsed
    foot: str  # the footer as pdfium reads it


def reading_order(body: dict[int, list[Char]]) -> list[tuple[Char, int]]:
    """A page's body in reading order: the chapter headings across the page (column 0) cut it into
    bands; each band is read left column, then right column, then the heading under it."""
    spans = lines(body[0])
    bands: list[list[list[Char]]] = []  # the lines of each heading (a heading may wrap)
    for line in spans:
        if bands and line[0].y - bands[-1][-1][0].y <= H1_SIZE * 1.6:
            bands[-1].append(line)
        else:
            bands.append([line])
    ends = [band[-1][0].y for band in bands]

    def band_of(c: Char) -> int:
        return sum(1 for e in ends if e < c.y)

    order: list[tuple[Char, int]] = []
    for n in range(len(bands) + 1):
        for col in (1, 2):
            for line in lines([c for c in body[col] if band_of(c) == n]):
                order += [(c, col) for c in line]
        if n < len(bands):
            order += [(c, 0) for line in bands[n] for c in line]
    return order


def read_pages(out: Path) -> list[Page]:
    """The PDF's pages: body text in reading order with the column of each character (0 for a
    chapter heading across the page), and the furniture in the margins."""
    import pypdfium2 as pdfium

    pages = []
    pdf = pdfium.PdfDocument(str(out))
    try:
        for index in range(len(pdf)):
            pg = pdf[index]
            width, height = pg.get_size()
            middle = (MARGIN_MM["left"] + TEXT_MM / 2) * MM
            top_edge = MARGIN_MM["top"] * MM
            foot_edge = height - MARGIN_MM["bottom"] * MM
            body: dict[int, list[Char]] = {0: [], 1: [], 2: []}
            top, bottom = [], []
            tp = pg.get_textpage()
            head = band_text(tp, width, height, 0, top_edge)
            foot = band_text(tp, width, height, foot_edge, height)
            for c in page_chars(tp, height):
                if c.y < top_edge:
                    top.append(c)
                elif c.y > foot_edge:
                    bottom.append(c)
                elif index == 0 or c.size >= H1_SIZE - 1:
                    body[0].append(c)  # the cover (one column), or a chapter heading
                else:
                    body[1 if (c.left + c.right) / 2 < middle else 2].append(c)
            order = reading_order(body)
            stream = [(ch, col) for c, col in order for ch in squeeze(c.text)]
            ends = [line[-1].text for col in (1, 2) for line in lines(body[col])]
            hyphens = sum(1 for e in ends if e == HYPHEN_CHAR) if index else 0
            pages.append(Page(index, width, height, stream, hyphens, top, bottom, head, foot))
    finally:
        pdf.close()
    return pages


# ---------------------------------------------------------------- truth
def expected_items(book: dict) -> list[tuple[str, dict, str]]:
    """What the body of the PDF must say, in order: (kind, block, squeezed printed text)."""
    items = []
    for block, number in zip(book["blocks"], heading_numbers(book)):
        shown = printed(block["text"])
        if number:
            shown = number + shown
        if block["type"] == "box":
            shown = printed(block["title"]).upper() + shown
        items.append((block["type"], block, squeeze(shown)))
    return items


def locate(book: dict, pages: list[Page]) -> list[list[tuple[int, int]]]:
    """For every block of the book (headings included) the (PDF page, column) places its
    characters stand in, in order, each place once. The body text of the numbered pages must be
    exactly the blocks' printed texts one after another."""
    stream = [(ch, p.index, col) for p in pages[1:] for ch, col in p.stream]
    items = [(kind, block, want, "") for kind, block, want in expected_items(book)]
    return locate_stream(items, stream, set(), set())[0]


def check_cover(book: dict, page: Page) -> None:
    """The cover shows the title and its lines and nothing else; no header, no footer."""
    if page.top or page.bottom:
        raise ValueError("the cover has a header or a footer")
    got = "".join(ch for ch, _ in page.stream)
    want = squeeze(book["title"] + "".join(cover_lines(book)))
    if got != want:
        raise ValueError(f"the cover reads {got!r},\n expected {want!r}")


def furniture(book: dict, pages: list[Page], numbers: list, chapter_of: dict) -> tuple:
    """Every numbered page's header and footer as printed, checked against what was asked for:
    the running header (upper case) in the top-left corner, the chapter of the page in the
    top-right corner, the page number between em dashes in the middle of the foot."""
    headers, footers = [], []
    for p in pages[1:]:
        num, mid = numbers[p.index], p.width / 2
        left = [c for c in p.top if c.right < mid]
        right = [c for c in p.top if c.left > mid]
        if len(left) + len(right) != len(p.top):
            raise ValueError(f"PDF page {p.index}: header text across the middle of the page")
        running, chapter = book["running_header"].upper(), chapter_of[p.index]
        if line_text(left) != squeeze(running):
            raise ValueError(f"PDF page {p.index}: header {p.head!r}, expected {running!r} left")
        if line_text(right) != squeeze(chapter):
            raise ValueError(f"PDF page {p.index}: header {p.head!r}, expected {chapter!r} right")
        shown = f"\u2014\u2002{num}\u2002\u2014"
        if line_text(p.bottom) != squeeze(shown):
            raise ValueError(f"PDF page {p.index}: footer {p.foot!r}, expected {shown!r}")
        if not all(abs((c.left + c.right) / 2 - mid) < 30 for c in p.bottom):
            raise ValueError(f"PDF page {p.index}: the page number is not centred")
        headers.append(dict(page=num, pdf_page_index=p.index, left=running, left_kind="book",
                            right=chapter, right_kind="chapter", text=book["running_header"],
                            chapter=chapter, position="top", rule_below=True,
                            same_on_both_sides=True))  # fmt: skip
        footers.append(dict(page=num, pdf_page_index=p.index, number=str(num), text=shown,
                            corner="centre", position="bottom", dashes=True))  # fmt: skip
    return headers, footers


def build_truth(book: dict, pages: list[Page]) -> dict:
    """The ground truth (make_pdf.py's format plus this layout's keys) of a laid-out book."""
    first = int(book["first_page"])
    numbers: list = [None] + [first + i - 1 for i in range(1, len(pages))]
    places = locate(book, pages)
    check_cover(book, pages[0])
    ledes = lede_keys(book)
    headings, blocks, path, openings = [], [], [], []
    for block, where, number in zip(book["blocks"], places, heading_numbers(book)):
        (index, col), rest = where[0], where[1:]
        at = {"page": numbers[index], "pdf_page_index": index, "column": col}
        if block["type"] == "heading":
            lvl = int(block["level"])
            path = path[: lvl - 1] + [block["text"]]
            entry = {"level": lvl, "text": block["text"], **at}
            if lvl == 1:
                if col != 0:
                    raise ValueError(f"chapter heading {block['text']!r} not across the page")
                entry.update(placement="span", number=number, printed_as=f"{number} {block['text']}",
                             rule_below=True, new_page=False)  # fmt: skip
                openings.append({"chapter": block["text"], "number": number,
                                 "page": numbers[index], "pdf_page_index": index})  # fmt: skip
            elif lvl == 2:
                entry.update(number=number, printed_as=f"{number} {block['text']}")
            else:
                entry["bold_italic"] = True
            if rest:
                entry["continues"] = [{"page": numbers[i], "pdf_page_index": i, "column": c}
                                      for i, c in rest]  # fmt: skip
            headings.append(entry)
            continue
        row = block_row(block, path)
        shown = printed(block["text"])
        if shown != row["plain_text"]:  # its icons, printed as their symbols
            row["printed_text"] = shown
        if block["key"] in ledes:
            row["lede"] = True
        if block["type"] == "box":
            row.update(frame="top-rule-tint", unsplit=True,
                       printed_title=printed(block["title"]).upper())  # fmt: skip
        row.update(at, continues=[{"page": numbers[i], "pdf_page_index": i, "column": c}
                                  for i, c in rest])  # fmt: skip
        row["split"] = None if not rest else "page" if rest[-1][0] != index else "column"
        if block["type"] == "box" and row["split"]:
            raise ValueError(f"box {block['key']!r} was split, which this layout never does")
        if col == 0:
            raise ValueError(f"block {block['key']!r} read as a chapter heading")
        blocks.append(row)
    # The chapter in a page's header: the first chapter heading on the page, else the last before.
    chapter_of: dict[int, str | None] = {}
    for p in range(1, len(pages)):
        on = [o for o in openings if o["pdf_page_index"] == p]
        before = [o for o in openings if o["pdf_page_index"] < p]
        chapter_of[p] = (on[0] if on else before[-1])["chapter"] if on or before else None
    headers, footers = furniture(book, pages, numbers, chapter_of)
    hyphens = sum(p.hyphens for p in pages)
    if not hyphens:
        raise ValueError("no line of the body ends in a hyphen: is WeasyPrint's hyphenation on?")
    import weasyprint

    m = MARGIN_MM
    return {
        "title": book["title"],
        "game": book["game"],
        "style": "weasy",
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
            "name": "WeasyPrint",
            "version": weasyprint.__version__,
            "via": "weasyprint.HTML(string=...).write_pdf",
            "css": [
                "multi-column (columns: 2)",
                "column-span: all (chapter headings, columns balanced above them)",
                "@page margin boxes",
                "string-set / string(chapter)",
                "counter(page) moved on at @page :first",
                "CSS counters for heading numbers",
                "hyphens: auto (Pyphen, lang en)",
                "break-inside: avoid (boxes)",
            ],
        },  # fmt: skip
        "cover": {
            "pdf_page_index": 0,
            "printed_number": None,
            "title": book["title"],
            "lines": cover_lines(book),
            "not_a_block": True,
        },  # fmt: skip
        "page_numbers": numbers,
        "page_number_offset": {
            "first_numbered_pdf_page_index": 1,
            "printed": first,
            "rule": "printed = first_page + pdf_page_index - 1; the cover "
            "(PDF page 0) prints no number",
        },  # fmt: skip
        "chapter_openings": openings,
        "chapter_new_page": False,
        "page_size": PAGE["name"],
        "page_size_mm": [PAGE["w_mm"], PAGE["h_mm"]],
        "page_size_pt": [round(pages[0].width, 2), round(pages[0].height, 2)],
        "margins_pt": {k: round(v * MM, 2) for k, v in m.items()},
        "mirrored_margins": False,
        "column_width_pt": round(COLUMN_MM * MM, 2),
        "column_gap_pt": round(GAP_MM * MM, 2),
        "column_rule": None,
        "columns": 2,
        "body_font": {"name": BODY["family"], "size": BODY["size"], "leading": BODY["leading"]},
        "lede_font": {
            "name": LEDE["family"],
            "size": LEDE["size"],
            "leading": LEDE["leading"],
            "colour": LEDE_INK,
            "where": "the first paragraph after a chapter heading",
        },
        "heading_fonts": {
            "1": {
                "name": "DejaVu Sans Bold",
                "size": H1_SIZE,
                "colour": PLUM,
                "number_colour": OCHRE,
                "rule_below": OCHRE,
                "span": True,
            },
            "2": {
                "name": "DejaVu Sans Condensed Bold",
                "size": H2_SIZE,
                "colour": PLUM,
                "number_colour": OCHRE,
                "numbered": "chapter.section",
            },
            "3": {
                "name": BODY["family"],
                "bold": True,
                "italic": True,
                "size": H3_SIZE,
                "numbered": False,
            },
        },  # fmt: skip
        "keyword_style": "bold, plum",
        "quotation_marks": "as written (straight)",
        "box": {
            "font": SANS,
            "size": BOX_SIZE,
            "title_font": "Liberation Sans Bold",
            "title_transform": "uppercase",
            "fill": BOX_FILL,
            "rule": {"side": "top", "width_pt": 2.6, "colour": OCHRE},
            "break_inside": "avoid",
        },  # fmt: skip
        "paragraph_indent": {
            "kind": "none",
            "em": 0,
            "gap_em": BODY["gap_em"],
            "block_paragraphs": True,
        },  # fmt: skip
        "hyphenation": {
            "method": "WeasyPrint hyphens: auto (Pyphen patterns, lang en)",
            "hyphen_char": f"U+{ord(HYPHEN_CHAR):04X}",
            "justified": True,
            "line_end_hyphens": hyphens,
        },  # fmt: skip
        "page_headers": headers,
        "page_footers": footers,
    }


# ---------------------------------------------------------------- public API
def build_weasy_pdf(book: dict, out_pdf_path) -> dict:
    """Lay out a book given as a dict (the parsed YAML) with WeasyPrint; returns the ground truth
    (also written beside the PDF as <stem>.truth.json)."""
    out = Path(out_pdf_path)
    out.parent.mkdir(parents=True, exist_ok=True)
    lay_out(book_html(book), out)
    truth = build_truth(book, read_pages(out))
    truth["engine"].update(pdf_metadata(out))
    return write_truth(out, truth)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__)
        return 2
    book = yaml.safe_load(Path(argv[0]).read_text())
    t = build_weasy_pdf(book, argv[1])
    splits = sorted({b["split"] for b in t["blocks"] if b["split"]})
    print(f"{argv[1]}: style {t['style']}, {t['pages']} pages (printed {t['printed_pages']}), "
          f"{len(t['blocks'])} blocks, splits: {splits}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
