"""Lay a test rulebook (tests/data/rulebooks/*.yaml) out as HTML + CSS and print it with Chromium.

A second, independent generator beside make_pdf.py (which draws its books with reportlab): a real
community's rulebook PDF is often typeset by a web browser, so this one writes the book as an HTML
page with a print style sheet and has headless Chromium (through playwright's ``page.pdf``) print
it. Chromium does the whole layout: line breaking, justification, columns, page breaks and the page
furniture. Beside the PDF it writes the same ground truth as make_pdf.py (``<name>.truth.json``),
read back from the PDF that Chromium produced.

    build_browser_pdf(book: dict, out_pdf_path) -> dict   # the truth, also written beside the PDF
    python browser_pdf.py BOOK.yaml OUT.pdf
    python make_pdf.py BOOK.yaml OUT.pdf --style=browser   # the same, through make_pdf.build_pdf

The layout ("browser", used by twentyfirst.yaml, whose `layout_style` is "browser") follows the
habits of a rulebook printed from a browser: A4 pages with MIRRORED margins (inner 19 mm, outer
14 mm; CSS right pages, the odd PDF pages counted from 1, are right-hand pages); an UNNUMBERED
COVER as the first PDF page (the book title in a large sans, the game's name and a short line
under it, no running header, no page number); every chapter then OPENS A NEW PAGE, its heading in a
large bold condensed sans over a rule SPANNING BOTH COLUMNS (CSS `column-span: all`), its text in
TWO equal columns in a 7 mm gutter (CSS multi-column with `column-fill: auto`, so the text fills
the first column, then the second, then runs on to the next page; a chapter's last page may be
short or have an empty second column); a serif body (Liberation Serif 10.6 pt on 14.2 pt)
JUSTIFIED and HYPHENATED: Chromium has no offline hyphenation dictionary, so this generator puts
soft hyphens (U+00AD) into long words itself and Chromium breaks there when it needs to and prints
a hyphen; paragraphs with a first-line indent and no gap (none right after a heading or a box),
Chromium's default of two lines at least on each side of a column or page break; section (level-2)
headings in a coloured bold condensed sans kept with what follows (`break-after: avoid`), level-3
headings in a serif bold italic; KEY TERMS (written `*like this*` in the book) in the body's bold;
boxes as wide as their column with a coloured border and a tinted ground, kept in one piece
(`break-inside: avoid`), the title in a bold sans and the text in a smaller sans, justified and
hyphenated too; game icons (`{fire}`) as symbols from DejaVu Sans. The page furniture is printed by
CSS @page MARGIN BOXES: on left-hand pages the book's running header in the top OUTER (left) corner,
on right-hand pages the chapter of the page (each chapter is a CSS named page) in the top OUTER
(right) corner, both in a small grey sans over a hairline, and the page number in the bottom OUTER
corner. The printed page number is NOT the PDF page index: the cover counts but prints no number,
and the page counter is moved on there (`@page :first { counter-increment: page N }`) so that the
first page after the cover prints the book's `first_page`.

The truth is read from the PDF itself (pypdfium2): the text of every page is taken character by
character with its position and size, the page furniture (outside the page's text area) is set
apart and checked against what was asked for, a chapter heading is told by its size, and the rest
goes into the left or the right column by its position; the columns are then read in order (the
heading across the page, the left column, the right column, page after page) and the whole body
text of the book must equal, character for character (blanks, hyphens and soft hyphens aside), the
headings, the boxes (title, then text) and the paragraphs one after another. Where each block's
first character stands gives its printed page, PDF page and column, and the columns its other
characters stand in give its "continues" list and "split". A mismatch anywhere is an error: no
truth is written for a PDF that does not say what the book says.

The truth has make_pdf.py's format: for every paragraph and box its key, kind, title, section path,
text as written ("plain_text": icon tokens left out, whitespace collapsed; "text" and "plain_text"
without the asterisks of key terms, which are listed in "keywords"), the printed page, PDF page
index and column where it starts, the pages and columns it continues on and how it splits; for
every heading its level, text, page, PDF page index and column (a chapter heading has "column": 0,
"placement": "span" and "new_page": true). It adds the cover ("cover": PDF page index, no printed
number, its lines), the printed number of every PDF page ("page_numbers", null for the cover), every
numbered page's header ("page_headers": text, kind "book" or "chapter", corner, side) and footer
("page_footers": number and corner), the chapters' first pages ("chapter_openings"), the page size,
margins, column widths and gap, the fonts, the hyphenation and the engine (Chromium's version).

Needs playwright (with Debian's /usr/bin/chromium, or the browser named by $RULEBOOK_CHROMIUM, or
playwright's own), pypdfium2, PyYAML and the system's fonts-liberation and fonts-dejavu. No network,
no web fonts. The text, the layout and the truth come out the same on every run on one machine; the
PDF's bytes differ only in the creation and modification dates Chromium writes, which this
generator sets to a fixed date (see `fix_dates`), so a run is byte-for-byte repeatable too.
"""

from __future__ import annotations

import html
import os
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
    band_text,
    lines,
    locate_stream,
    plain_text,
    write_truth,
)

# ---------------------------------------------------------------- the page
MM = 72 / 25.4  # points per millimetre
PAGE = {"name": "A4", "w_mm": 210.0, "h_mm": 297.0}
MARGIN_MM = {"top": 24.0, "bottom": 20.0, "inner": 19.0, "outer": 14.0}
GAP_MM = 7.0  # between the two columns
COLUMN_MM = (PAGE["w_mm"] - MARGIN_MM["inner"] - MARGIN_MM["outer"] - GAP_MM) / 2

BODY = {"family": "Liberation Serif", "size": 10.6, "leading": 14.2}
SANS, CONDENSED = "Liberation Sans", "DejaVu Sans Condensed"
H1_SIZE = 21.0  # a chapter heading; the only text this large, which is how the reader finds it
H2_SIZE = 11.6
BOX_SIZE = 9.0
ACCENT = "#2f5d50"  # section headings, the chapter rule, a box's border
BOX_FILL = "#eef3ee"
ICON_FONT = "DejaVu Sans"

SHY = "\xad"
HYPHENS = {"-", "\u2010", "\u2011", SHY, "\x02"}  # what a line-end hyphen may be read back as
CHROMIUM = "/usr/bin/chromium"

# ---------------------------------------------------------------- hyphenation
# Chromium hyphenates only with a dictionary it downloads, so the book's long words get soft
# hyphens here: between two consonants that stand between vowels (not inside a digraph; before
# both when they begin syllables together, as in "re-place"), and before a few common endings
# (not right after a digraph, so "some-thing" is not broken before "ing"), never leaving fewer
# than three letters on either side nor two breaks side by side.
VOWELS = set("aeiouy")
DIGRAPHS = {"ch", "ck", "gh", "ph", "qu", "sh", "th", "wh", "wr", "ng", "kn"}
ONSETS = {"bl", "cl", "fl", "gl", "pl", "br", "cr", "dr", "fr", "gr", "pr", "tr"}
ENDINGS = ("ment", "ness", "less", "able", "ible", "ing", "ful")  # after a consonant only
ENDINGS_ANY = ("tion", "sion")  # after any letter
MIN_WORD = 8


def break_points(word: str) -> list[int]:
    """Where a soft hyphen may go in `word` (letter offsets); none for short or all-capital words."""
    w = word.lower()
    n = len(w)
    if n < MIN_WORD or not w.isalpha() or word.isupper():
        return []
    points = set()
    for i in range(2, n - 1):
        pair = w[i - 1 : i + 1]
        if (w[i - 2] in VOWELS and w[i - 1] not in VOWELS and w[i] not in VOWELS
                and w[i + 1] in VOWELS and pair not in DIGRAPHS):  # fmt: skip
            points.add(i - 1 if pair in ONSETS else i)
    for end in ENDINGS:
        i = n - len(end)
        if w.endswith(end) and w[i - 1] not in VOWELS and w[i - 2 : i] not in DIGRAPHS:
            points.add(i)
    for end in ENDINGS_ANY:
        if w.endswith(end):
            points.add(n - len(end))
    kept: list[int] = []
    for p in sorted(points):
        if 3 <= p <= n - 3 and (not kept or p - kept[-1] >= 2):
            kept.append(p)
    return kept


def soft_hyphens(text: str) -> str:
    """The text with U+00AD at every break point of its long words."""

    def one(m: re.Match) -> str:
        w, out, last = m.group(0), [], 0
        for p in break_points(w):
            out.append(w[last:p])
            last = p
        return SHY.join(out + [w[last:]])

    return re.sub(r"[A-Za-z]+", one, text)


# ---------------------------------------------------------------- text


def printed(text: str) -> str:
    """What the PDF shows for a book text: key terms without asterisks, icons as their symbols."""
    return ICON_RE.sub(lambda m: ICONS[m.group(1)], KEYWORD_RE.sub(r"\1", text))


def inline_html(text: str) -> str:
    """A book text as HTML: key terms bold, icons as symbols, long words with soft hyphens."""
    out = []
    for i, piece in enumerate(KEYWORD_RE.split(text)):
        parts = []
        for j, bit in enumerate(ICON_RE.split(piece)):
            if j % 2:
                parts.append(f'<span class="icon">{ICONS[bit]}</span>')
            else:
                parts.append(html.escape(soft_hyphens(re.sub(r"\s+", " ", bit)), quote=False))
        out.append(f"<b>{''.join(parts)}</b>" if i % 2 else "".join(parts))
    return "".join(out).strip()


def css_string(text: str) -> str:
    """A CSS string literal (for `content:` in a margin box)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def squeeze(text: str) -> str:
    """Text reduced for comparison: compatibility forms (ligatures), no blanks, no hyphens."""
    text = unicodedata.normalize("NFKC", text)
    return "".join(c for c in text if not c.isspace() and c not in HYPHENS)


# ---------------------------------------------------------------- the book as HTML
def chapters_of(book: dict) -> list[list[dict]]:
    """The book's blocks cut into chapters, each starting at a level-1 heading."""
    chapters: list[list[dict]] = []
    for block in book["blocks"]:
        if block["type"] == "heading" and int(block["level"]) == 1 or not chapters:
            chapters.append([])
        chapters[-1].append(block)
    return chapters


def cover_lines(book: dict) -> list[str]:
    """The lines of the cover under the title (not blocks of the book)."""
    game = {"frosthaven": "Frosthaven", "gloomhaven": "Gloomhaven"}.get(book["game"], book["game"])
    return [f"Table notes for {game}", "Collected and typeset by the players"]


def style_sheet(book: dict, chapters: list[list[dict]]) -> str:
    """The print style sheet: pages, margin boxes (one named page per chapter), columns, blocks."""
    m, gray = MARGIN_MM, "#5a5a5a"
    furniture = f"font: 8pt '{SANS}'; color: {gray}; border-bottom: 0.4pt solid #9a9a9a;"
    rules = [
        f"""@page {{ size: {PAGE["name"]}; margin: {m["top"]}mm {m["outer"]}mm {m["bottom"]}mm
  {m["inner"]}mm; }}""",
        f"""@page :left {{ margin-left: {m["outer"]}mm; margin-right: {m["inner"]}mm;
  @top-left {{ content: {css_string(book["running_header"])}; {furniture}
    vertical-align: bottom; padding-bottom: 2.5pt; margin-bottom: 5mm; }}
  @bottom-left {{ content: counter(page); font: bold 9pt '{SANS}'; color: #222; }} }}""",
        f"""@page :right {{ margin-left: {m["inner"]}mm; margin-right: {m["outer"]}mm;
  @bottom-right {{ content: counter(page); font: bold 9pt '{SANS}'; color: #222; }} }}""",
        # The cover: no furniture; the counter moves on so that the next page prints first_page.
        f"""@page :first {{ counter-increment: page {int(book["first_page"]) - 1};
  @top-left {{ content: none; }} @top-right {{ content: none; }}
  @bottom-left {{ content: none; }} @bottom-right {{ content: none; }} }}""",
    ]
    for n, blocks in enumerate(chapters, 1):
        title = blocks[0]["text"] if blocks[0]["type"] == "heading" else book["running_header"]
        rules.append(f"""@page chapter{n}:right {{ @top-right {{ content: {css_string(title)};
  {furniture} vertical-align: bottom; padding-bottom: 2.5pt; margin-bottom: 5mm; }} }}""")
    rules.append(f"""
html {{ margin: 0; padding: 0; }}
body {{ margin: 0; font-family: '{BODY["family"]}'; font-size: {BODY["size"]}pt;
  line-height: {BODY["leading"]}pt; color: #161616; font-kerning: normal; }}
.cover {{ height: {PAGE["h_mm"] - m["top"] - m["bottom"] - 1}mm; box-sizing: border-box;
  padding-top: 62mm; font-family: '{SANS}'; }}
.cover h1 {{ font: bold 30pt/36pt '{CONDENSED}'; color: {ACCENT}; margin: 0 0 10mm;
  padding-bottom: 5mm; border-bottom: 2pt solid {ACCENT}; }}
.cover p {{ font: 13pt/18pt '{SANS}'; margin: 0 0 3mm; color: #333; text-indent: 0; }}
.chapter {{ break-before: page; columns: 2; column-gap: {GAP_MM}mm; column-fill: auto;
  orphans: 2; widows: 2; }}
.chapter > h1 {{ column-span: all; font: bold {H1_SIZE}pt/{H1_SIZE * 1.18:.2f}pt '{CONDENSED}';
  color: #1d1d1d; margin: 0 0 11pt; padding-bottom: 5pt; border-bottom: 1.2pt solid {ACCENT}; }}
h2 {{ font: bold {H2_SIZE}pt/{H2_SIZE * 1.2:.2f}pt '{CONDENSED}'; color: {ACCENT};
  margin: 10pt 0 3pt; break-after: avoid; }}
h3 {{ font: bold italic {BODY["size"]}pt/{BODY["leading"]}pt '{BODY["family"]}';
  margin: 7pt 0 1pt; break-after: avoid; }}
h2:first-child, h3:first-child {{ margin-top: 0; }}
p {{ margin: 0; text-align: justify; hyphens: manual; -webkit-hyphens: manual;
  text-indent: 1.2em; }}
h1 + p, h2 + p, h3 + p, .box + p {{ text-indent: 0; }}
.box {{ break-inside: avoid; margin: 6pt 0 8pt; padding: 5pt 7pt 6pt;
  background: {BOX_FILL}; border: 0.9pt solid {ACCENT}; border-radius: 2.5pt; }}
.box h4 {{ font: bold {BOX_SIZE + 0.8}pt/{BOX_SIZE + 3.5}pt '{SANS}'; color: {ACCENT};
  margin: 0 0 2pt; break-after: avoid; }}
.box p {{ font: {BOX_SIZE}pt/{BOX_SIZE + 3}pt '{SANS}'; text-indent: 0; }}
.icon {{ font-family: '{ICON_FONT}'; }}
""")
    return "\n".join(rules)


def book_html(book: dict) -> str:
    """The whole book as one HTML page: the cover, then one section per chapter."""
    chapters = chapters_of(book)
    body = ['<section class="cover">', f"<h1>{html.escape(book['title'])}</h1>"]
    body += [f"<p>{html.escape(line)}</p>" for line in cover_lines(book)] + ["</section>"]
    for n, blocks in enumerate(chapters, 1):
        body.append(f'<section class="chapter" style="page: chapter{n}">')
        for block in blocks:
            kind = block["type"]
            if kind == "heading":
                lvl = int(block["level"])
                body.append(f"<h{lvl}>{html.escape(block['text'])}</h{lvl}>")
            elif kind == "paragraph":
                body.append(f'<p id="{html.escape(block["key"])}">{inline_html(block["text"])}</p>')
            elif kind == "box":
                body.append(
                    f'<div class="box" id="{html.escape(block["key"])}">'
                    f"<h4>{inline_html(block['title'])}</h4><p>{inline_html(block['text'])}</p></div>"
                )
            else:
                raise ValueError(f"unknown block type {kind!r}")
        body.append("</section>")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(book['title'])}</title>\n<style>\n{style_sheet(book, chapters)}"
        "</style></head>\n<body>\n" + "\n".join(body) + "\n</body></html>\n"
    )


# ---------------------------------------------------------------- printing
def chromium_path() -> str | None:
    """The Chromium to drive: $RULEBOOK_CHROMIUM, else Debian's, else playwright's own (None)."""
    path = os.environ.get("RULEBOOK_CHROMIUM") or CHROMIUM
    return path if Path(path).exists() else None


def print_pdf(page_html: str, out: Path) -> str:
    """Print the HTML to `out` with headless Chromium; returns the browser's version."""
    from playwright.sync_api import sync_playwright  # imported here: only printing needs it

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), headless=True)
        try:
            page = browser.new_page()
            page.set_content(page_html, wait_until="load")
            page.evaluate("document.fonts.ready.then(() => true)")
            page.pdf(path=str(out), prefer_css_page_size=True, print_background=True)
            return browser.version
        finally:
            browser.close()


DATE_RE = re.compile(rb"/(CreationDate|ModDate) \(D:(\d{14})([^)]*)\)")
FIXED_DATE = b"20240101000000"  # 14 digits, as many as Chromium writes


def fix_dates(out: Path) -> None:
    """Set the creation and modification dates Chromium writes to a fixed one, byte for byte in
    place (same length, so the cross-reference offsets stay right): repeatable output."""
    raw = out.read_bytes()

    def one(m: re.Match) -> bytes:  # the time zone is kept as written
        return b"/" + m.group(1) + b" (D:" + FIXED_DATE + m.group(3) + b")"

    out.write_bytes(DATE_RE.sub(one, raw))


# ---------------------------------------------------------------- reading the PDF back


def page_chars(tp, height: float) -> list[Char]:
    """Every character Chromium printed on a page (a text page of pypdfium2), not the blanks and
    line ends pdfium makes up."""
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


@dataclass
class Page:
    index: int  # PDF page index
    width: float
    height: float
    right_hand: bool  # a CSS right page (the inner margin on its left)
    stream: list[tuple[str, int]]  # body text in reading order: (squeezed character, column)
    top: list[Char]  # furniture above the text area
    bottom: list[Char]  # furniture under it
    head: str  # the furniture above the text area as text
    foot: str  # the furniture under it


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
            right_hand = index % 2 == 0  # CSS: the first page is a right page
            left = (MARGIN_MM["inner"] if right_hand else MARGIN_MM["outer"]) * MM
            middle = left + (PAGE["w_mm"] - MARGIN_MM["inner"] - MARGIN_MM["outer"]) * MM / 2
            top_edge, foot_edge = MARGIN_MM["top"] * MM, height - MARGIN_MM["bottom"] * MM
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
                else:
                    x = (c.left + c.right) / 2
                    body[0 if c.size >= H1_SIZE - 1 else 1 if x < middle else 2].append(c)
            # The heading across the page, then the left column, then the right one, each read
            # line by line from the top.
            stream = [(ch, col) for col in (0, 1, 2) for line in lines(body[col], within=2.0)
                      for c in line for ch in squeeze(c.text)]  # fmt: skip
            pages.append(Page(index, width, height, right_hand, stream, top, bottom, head, foot))
    finally:
        pdf.close()
    return pages


# ---------------------------------------------------------------- truth
def expected_items(book: dict) -> list[tuple[str, dict, str]]:
    """What the body of the PDF must say, in order: (kind, block, squeezed printed text)."""
    items = []
    for block in book["blocks"]:
        shown = printed(block["text"])
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


def furniture(book: dict, pages: list[Page], numbers: list[int | None], chapter_of: dict[int, str]):
    """Every numbered page's header and footer as printed (checked against what was asked for),
    and the cover's lines (checked too)."""
    headers, footers = [], []
    cover = pages[0]
    cover_text = squeeze("".join(ch for ch, _ in cover.stream))
    if (
        cover.top
        or cover.bottom
        or cover_text != squeeze(book["title"] + "".join(cover_lines(book)))
    ):
        raise ValueError("the cover does not show just the title and its lines")
    for p in pages[1:]:
        num = numbers[p.index]
        side = "recto" if p.right_hand else "verso"
        corner = "right" if p.right_hand else "left"
        if p.right_hand:
            text, kind = chapter_of.get(p.index, book["running_header"]), "chapter"
        else:
            text, kind = book["running_header"], "book"
        # Compared without blanks: pdfium guesses the blanks Chromium does not print, and may put
        # one inside a kerned word ("R etirement").
        head, foot = p.head, p.foot
        if squeeze(head) != squeeze(text):
            raise ValueError(f"PDF page {p.index}: header {head!r}, expected {text!r}")
        if squeeze(foot) != str(num):
            raise ValueError(f"PDF page {p.index}: footer {foot!r}, expected page number {num}")
        mid = p.width / 2
        for chars, what in ((p.top, "header"), (p.bottom, "footer")):
            if any((c.left > mid) != p.right_hand for c in chars):
                raise ValueError(f"PDF page {p.index}: {what} not in the {corner} corner")
        headers.append(dict(page=num, pdf_page_index=p.index, side=side, kind=kind, text=text,
                            corner=corner, position="top", rule_below=True))  # fmt: skip
        footers.append(dict(page=num, pdf_page_index=p.index, number=str(num), corner=corner,
                            position="bottom"))  # fmt: skip
    return headers, footers


def build_truth(book: dict, pages: list[Page], version: str) -> dict:
    """The ground truth (make_pdf.py's format plus this layout's keys) of a printed book."""
    first = int(book["first_page"])
    numbers: list[int | None] = [None] + [first + i - 1 for i in range(1, len(pages))]
    places = locate(book, pages)
    headings, blocks, path, openings = [], [], [], []
    chapter_of: dict[int, str] = {}  # PDF page -> the chapter printed in its header
    for block, where in zip(book["blocks"], places):
        (index, col), rest = where[0], where[1:]
        at = {"page": numbers[index], "pdf_page_index": index, "column": col}
        if block["type"] == "heading":
            lvl = int(block["level"])
            path = path[: lvl - 1] + [block["text"]]
            entry = {"level": lvl, "text": block["text"], **at}
            if lvl == 1:
                entry.update(placement="span", new_page=True, rule_below=True)
                openings.append({"chapter": block["text"], "page": numbers[index],
                                 "pdf_page_index": index})  # fmt: skip
            elif lvl == 3:
                entry["bold_italic"] = True
            headings.append(entry)
            continue
        row = {
            "key": block["key"],
            "kind": block["type"],
            "title": block.get("title"),
            "section": list(path),
            "section_path": " > ".join(path),
            "text": KEYWORD_RE.sub(r"\1", block["text"]),
            "plain_text": plain_text(KEYWORD_RE.sub(r"\1", block["text"])),
            "icons": ICON_RE.findall(block["text"]),
        }
        words = KEYWORD_RE.findall(block["text"])
        if words:
            row["keywords"] = words
        if block["type"] == "box":
            row.update(frame="border-tint", printed_title=printed(block["title"]))
        row.update(at, continues=[{"page": numbers[i], "pdf_page_index": i, "column": c}
                                  for i, c in rest])  # fmt: skip
        row["split"] = None if not rest else "page" if rest[-1][0] != index else "column"
        blocks.append(row)
    # The chapter in a right-hand page's header is the chapter the page belongs to (each chapter
    # is a named page and opens a new page).
    for n, opening in enumerate(openings):
        end = openings[n + 1]["pdf_page_index"] if n + 1 < len(openings) else len(pages)
        for index in range(opening["pdf_page_index"], end):
            chapter_of[index] = opening["chapter"]
    headers, footers = furniture(book, pages, numbers, chapter_of)
    m = MARGIN_MM
    return {
        "title": book["title"],
        "game": book["game"],
        "style": "browser",
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
            "name": "Chromium",
            "version": version,
            "via": "playwright page.pdf",
            "css": [
                "multi-column (column-fill: auto)",
                "column-span: all",
                "@page margin boxes",
                "named pages",
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
        "page_size": PAGE["name"],
        "page_size_pt": [round(pages[0].width, 2), round(pages[0].height, 2)],
        "margins_pt": {k: round(v * MM, 2) for k, v in m.items()},
        "mirrored_margins": {
            "right_hand_pages": "even PDF page indices (the cover is one): inner "
            "margin on the left",
            "left_hand_pages": "odd PDF page indices: inner margin on the right",
        },
        "column_width_pt": round(COLUMN_MM * MM, 2),
        "column_gap_pt": round(GAP_MM * MM, 2),
        "columns": 2,
        "body_font": {"name": BODY["family"], "size": BODY["size"], "leading": BODY["leading"]},
        "heading_fonts": {
            "1": {"name": CONDENSED, "bold": True, "size": H1_SIZE},
            "2": {"name": CONDENSED, "bold": True, "size": H2_SIZE},
            "3": {"name": BODY["family"], "bold": True, "italic": True, "size": BODY["size"]},
        },  # fmt: skip
        "box": {
            "font": SANS,
            "size": BOX_SIZE,
            "fill": BOX_FILL,
            "border": ACCENT,
            "break_inside": "avoid",
        },  # fmt: skip
        "paragraph_indent": {
            "kind": "first-line",
            "em": 1.2,
            "none_after": ["heading", "box"],
            "gap_pt": 0,
        },  # fmt: skip
        "hyphenation": {
            "method": "soft hyphens (U+00AD) put in by the generator",
            "justified": True,
            "min_word": MIN_WORD,
        },  # fmt: skip
        "page_headers": headers,
        "page_footers": footers,
    }


# ---------------------------------------------------------------- public API
def build_browser_pdf(book: dict, out_pdf_path) -> dict:
    """Lay out a book given as a dict (the parsed YAML) with Chromium; returns the ground truth
    (also written beside the PDF as <stem>.truth.json)."""
    out = Path(out_pdf_path)
    out.parent.mkdir(parents=True, exist_ok=True)
    version = print_pdf(book_html(book), out)
    fix_dates(out)
    truth = build_truth(book, read_pages(out), version)
    return write_truth(out, truth)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__)
        return 2
    book = yaml.safe_load(Path(argv[0]).read_text())
    t = build_browser_pdf(book, argv[1])
    splits = sorted({b["split"] for b in t["blocks"] if b["split"]})
    print(f"{argv[1]}: style {t['style']}, {t['pages']} pages (printed {t['printed_pages']}), "
          f"{len(t['blocks'])} blocks, splits: {splits}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
