"""Lay a test rulebook (tests/data/rulebooks/*.yaml) out as a LibreOffice Writer document.

A fifth, independent generator beside make_pdf.py (which draws its books with reportlab),
browser_pdf.py (Chromium), typst_pdf.py (Typst) and weasy_pdf.py (WeasyPrint): a great many
community FAQs and house-rules booklets are written in an office suite and exported to PDF, so
this one writes the book as a Flat OpenDocument text file (``.fodt``: the XML of a Writer document
in one file, with its styles, page styles, sections and fields) and has LibreOffice Writer
(``soffice --headless --convert-to pdf``, a system program, not a Python package) lay it out and
export the PDF. Writer does the whole layout: line breaking, hyphenation (the hyphenation patterns
of the system, Debian's hyphen-en-us), justification, the two-column section, page breaks, widow
and orphan control, the header with its chapter field and the footer with its page-number field.
Beside the PDF it writes the same ground truth as make_pdf.py (``<name>.truth.json``), read back
from the PDF that LibreOffice produced.

    build_office_pdf(book: dict, out_pdf_path) -> dict   # the truth, also written beside the PDF
    python office_pdf.py BOOK.yaml OUT.pdf
    python make_pdf.py BOOK.yaml OUT.pdf --style=office   # the same, through make_pdf.build_pdf

The layout ("office", used by twentyfourth.yaml, whose `layout_style` is "office") follows the
habits of a careful volunteer's Writer document: A4 PORTRAIT pages with unmirrored margins (20 mm at
the sides, 14 mm above the header, 13 mm under the footer); an UNNUMBERED TITLE PAGE as the first
PDF page, on a page style of its own with no header and no footer (the book title centred in a
large bold dark-blue sans a third of the way down, a line naming the game and a line saying the
booklet is not an official rules document, in the serif's italic); then the whole book in ONE
TWO-COLUMN SECTION (two equal columns, an 8 mm gap, no separator line): Writer fills the first
column, then the second, then runs on to the next page, and balances the two columns of the last
page (the section's default); chapters do not open a new page. The body paragraph style is Liberation
Serif 10.5 pt at 112 % line height, JUSTIFIED and HYPHENATED AUTOMATICALLY by Writer (the style's
`fo:hyphenate="true"` with the language en-US: at least 3 letters left on the line and 3 carried
over, at most 2 hyphenated lines in a row; a plain hyphen-minus is printed at the line end) with a
4.5 mm FIRST-LINE INDENT and only a hairline of space between paragraphs, as Writer's "First Line
Indent" style has it; the paragraph right after a heading or a box has NO INDENT (a second
paragraph style, applied by the author). Widows and orphans: 2 lines. Headings are UNNUMBERED
(Writer's outline levels 1 to 3 without numbering, which is what the chapter field reads):
a chapter (level 1) in Liberation Sans Bold 15 pt in dark blue over a 1.1 pt blue rule as wide as
the column; a section (level 2) in Liberation Sans Bold 11.5 pt in a lighter blue; a level-3 heading
in Liberation Sans Narrow Bold Italic 10.5 pt in dark grey; every heading is kept with the next
paragraph. KEY TERMS (written `*like this*` in the book) in the serif's BOLD; quotation marks and
apostrophes printed as written (straight: Writer's autocorrect does not touch a converted file);
game icons (`{loot}`) as the same Unicode symbols make_pdf.py uses, from DejaVu Sans. Boxes are
ONE-CELL TABLES as wide as their column, on a pale yellow ground inside a thin dark-gold frame on
all four sides, the row not allowed to break across pages or columns (a box that does not fit moves
whole to the next column), the title in Liberation Sans Bold 9.5 pt and the text in Liberation
Sans 9 pt, justified and hyphenated too. The page furniture is Writer's header and footer of the
body page style, the same on every page: the header is one line over a grey hairline, the book's
running header in the sans's italic on the LEFT and, after a right-aligned tab, a CHAPTER FIELD
(`text:chapter`, the name of the level-1 heading) on the RIGHT; the footer is one line under a grey
hairline with "Page 214" on the RIGHT. The printed page number is NOT the PDF page index: the
title page is on a page style without a footer, and the first heading of the section starts the
body page style with its page number set to the book's `first_page` (`style:page-number` on that
paragraph's automatic style), so the second PDF page prints `first_page`.

Writer's chapter field in a header shows the chapter heading that is in force at the TOP of the
page (the last level-1 heading before the page's first line of text), not a chapter that opens
further down the page; the truth records what the header really says, and the check requires
exactly that.

The truth is read from the PDF itself (pypdfium2): the text of every page is taken character by
character with its position; the header (above the body area) and the footer (under it) are set
apart and checked against what was asked for; every body character goes into the left or the right
column by its position; the columns are read in order (left column, right column, page after
page) and the whole body text must equal, character for character (blanks and hyphens aside,
ligatures unfolded), the headings, the boxes (title, then text) and the paragraphs one after
another. The title page must show the title and its two lines and nothing else. Where each block's
first character stands gives its printed page, PDF page and column, and the columns its other
characters stand in give its "continues" list and "split". A mismatch anywhere is an error: no
truth is written for a PDF that does not say what the book says.

The truth has make_pdf.py's format: for every paragraph and box its key, kind, title, section (the
heading path as a list), section_path, text as written ("plain_text": icon tokens left out,
whitespace collapsed; "text" and "plain_text" without the asterisks of key terms, which are listed
in "keywords"), the icons, the printed page, PDF page index and column where it starts, the pages
and columns it continues on and how it splits (None, "column" or "page"); a block with icons records
"printed_text" (its text as printed: key terms without asterisks, icons as their symbols); a
paragraph set without a first-line indent records "indent": false; a box adds "frame":
"table-cell-border-tint", "unsplit": true and "printed_title" (the title as printed, which is the
title as written). For every heading its level, text, page, PDF page index and column, "numbered":
false, and a level-1 heading "rule_below": true. It adds the title page ("title_page": PDF page
index, no printed number, the title, its lines, "not_a_block": true), the printed number of every
PDF page ("page_numbers", null for the title page), every numbered page's header ("page_headers":
the running header on the left, the chapter field's text on the right) and footer ("page_footers":
"Page N" on the right), the chapters' first pages ("chapter_openings"), the page size, margins,
column widths and gap, the fonts, the hyphenation (with the number of body lines read back ending
in a hyphen that the book does not write there, which must not be 0), the ligatures read back, and
the engine (LibreOffice's version and the Creator and Producer the PDF names).

Needs LibreOffice Writer 7.4 (`soffice` on the PATH; Debian's libreoffice-writer-nogui with
hyphen-en-us), pypdfium2, PyYAML and the system's fonts-liberation and fonts-dejavu. Each run
converts with a private, throw-away LibreOffice profile (`-env:UserInstallation`), so runs in
parallel do not clash, under a time limit.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

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

SOFFICE_TIMEOUT_S = 240

# ---------------------------------------------------------------- the page
MM = 72 / 25.4  # points per millimetre
PAGE = {"name": "A4", "w_mm": 210.0, "h_mm": 297.0}
MARGIN_MM = {"top": 14.0, "bottom": 13.0, "left": 20.0, "right": 20.0}
HEADER_MM = {"height": 6.0, "spacing": 5.0}  # the header's height, then the gap under it
FOOTER_MM = {"height": 6.0, "spacing": 5.0}  # the gap above the footer, then its height
GAP_MM = 8.0
TEXT_MM = PAGE["w_mm"] - MARGIN_MM["left"] - MARGIN_MM["right"]
COLUMN_MM = (TEXT_MM - GAP_MM) / 2
BODY_TOP_MM = MARGIN_MM["top"] + HEADER_MM["height"] + HEADER_MM["spacing"]
BODY_BOTTOM_MM = PAGE["h_mm"] - MARGIN_MM["bottom"] - FOOTER_MM["height"] - FOOTER_MM["spacing"]

SERIF, SANS, NARROW, ICON_FONT = (
    "Liberation Serif",
    "Liberation Sans",
    "Liberation Sans Narrow",
    "DejaVu Sans",
)
BODY = {"family": SERIF, "size": 10.5, "line_height_pct": 112, "indent_mm": 4.5}
H1_SIZE, H2_SIZE, H3_SIZE = 15.0, 11.5, 10.5
BOX_SIZE, BOX_TITLE_SIZE = 9.0, 9.5
HEADER_SIZE, FOOTER_SIZE = 8.5, 8.5
DARK_BLUE, BLUE, GREY, DARK_GREY = "#1f3864", "#2e74b5", "#808080", "#404040"
BOX_FILL, BOX_BORDER = "#fdf5dc", "#b08a1e"
HYPHEN = {"remain": 3, "push": 3, "ladder": 2}

# The hyphens written in words and the one Writer prints at a line end (pdfium may report a
# line-end hyphen as U+0002): compared away on both sides.
HYPHENS = {"-", "\u2010", "\u2011", "\xad", "\x02", "\ufffe"}
LINE_END_HYPHENS = {"-", "\u2010", "\xad", "\x02"}


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


def inline_xml(text: str) -> str:
    """A book text as ODF paragraph content: key terms in the "Term" span (bold), icons as
    symbols in the "Icon" span (DejaVu Sans)."""
    out = []
    for i, piece in enumerate(KEYWORD_RE.split(re.sub(r"\s+", " ", text).strip())):
        parts = []
        for j, bit in enumerate(ICON_RE.split(piece)):
            if j % 2:
                parts.append(f'<text:span text:style-name="Icon">{ICONS[bit]}</text:span>')
            else:
                parts.append(escape(bit))
        joined = "".join(parts)
        out.append(f'<text:span text:style-name="Term">{joined}</text:span>' if i % 2 else joined)
    # Writer collapses runs of blanks in ODF unless written as <text:s/>; a single blank is safe.
    return "".join(out)


def attr(text: str) -> str:
    return escape(text, {'"': "&quot;"})


# ---------------------------------------------------------------- the book as a Writer document
def title_lines(book: dict) -> list[str]:
    """The lines of the title page under the title (not blocks of the book)."""
    game = {"frosthaven": "Frosthaven", "gloomhaven": "Gloomhaven"}.get(book["game"], book["game"])
    return [f"House notes for {game} groups", "A community booklet, not an official rules document"]


def unindented_keys(book: dict) -> set[str]:
    """The keys of the paragraphs set without a first-line indent: right after a heading or a box
    (and the book's first paragraph)."""
    keys, after = set(), True
    for block in book["blocks"]:
        if block["type"] == "paragraph":
            if after:
                keys.add(block["key"])
            after = False
        else:
            after = True
    return keys


FONT_FACES = {SERIF: "roman", SANS: "swiss", NARROW: "swiss", ICON_FONT: "swiss"}


def styles_xml(book: dict) -> str:
    """The document's fonts, common styles (paragraph, text, outline), automatic styles (page
    layouts, the section, the box table, the first heading that starts the numbered pages) and
    master pages (the title page; the body pages with their header and footer)."""
    lang = 'fo:language="en" fo:country="US"'
    hyph = (
        f'fo:hyphenate="true" fo:hyphenation-remain-char-count="{HYPHEN["remain"]}" '
        f'fo:hyphenation-push-char-count="{HYPHEN["push"]}" '
        f'fo:hyphenation-ladder-count="{HYPHEN["ladder"]}"'
    )
    nohyph = 'fo:hyphenate="false"'
    faces = "".join(
        f'<style:font-face style:name="{f}" svg:font-family="&apos;{f}&apos;" '
        f'style:font-family-generic="{g}" style:font-pitch="variable"/>'
        for f, g in FONT_FACES.items()
    )
    m, b = MARGIN_MM, BODY
    page = f'fo:page-width="{PAGE["w_mm"]}mm" fo:page-height="{PAGE["h_mm"]}mm"'
    margins = (
        f'fo:margin-top="{m["top"]}mm" fo:margin-bottom="{m["bottom"]}mm" '
        f'fo:margin-left="{m["left"]}mm" fo:margin-right="{m["right"]}mm"'
    )
    half = GAP_MM / 2
    first_page = int(book["first_page"])
    outline = "".join(
        f'<text:outline-level-style text:level="{n}" style:num-format=""/>' for n in range(1, 11)
    )
    return f"""<office:font-face-decls>{faces}</office:font-face-decls>
<office:styles>
<style:default-style style:family="paragraph">
 <style:paragraph-properties fo:orphans="2" fo:widows="2" style:writing-mode="lr-tb"/>
 <style:text-properties style:font-name="{SERIF}" fo:font-size="{b["size"]}pt" {lang} {nohyph}/>
</style:default-style>
<style:default-style style:family="table"><style:table-properties table:border-model="collapsing"/>
</style:default-style>
<style:style style:name="Standard" style:family="paragraph" style:class="text"/>
<style:style style:name="Text_20_body" style:display-name="Text body" style:family="paragraph"
 style:parent-style-name="Standard" style:class="text">
 <style:paragraph-properties fo:text-align="justify" style:justify-single-word="false"
  fo:text-indent="0mm" fo:margin-top="0mm" fo:margin-bottom="0.35mm"
  fo:line-height="{b["line_height_pct"]}%" fo:orphans="2" fo:widows="2"/>
 <style:text-properties style:font-name="{SERIF}" fo:font-size="{b["size"]}pt" {lang} {hyph}/>
</style:style>
<style:style style:name="First_20_line_20_indent" style:display-name="First line indent"
 style:family="paragraph" style:parent-style-name="Text_20_body" style:class="text">
 <style:paragraph-properties fo:text-indent="{b["indent_mm"]}mm"/>
</style:style>
<style:style style:name="Heading" style:family="paragraph" style:parent-style-name="Standard"
 style:class="text">
 <style:paragraph-properties fo:keep-with-next="always" fo:text-align="start"/>
 <style:text-properties style:font-name="{SANS}" fo:font-weight="bold" {lang} {nohyph}/>
</style:style>
<style:style style:name="Heading_20_1" style:display-name="Heading 1" style:family="paragraph"
 style:parent-style-name="Heading" style:default-outline-level="1" style:class="text">
 <style:paragraph-properties fo:margin-top="5mm" fo:margin-bottom="2.6mm"
  fo:padding-bottom="1mm" fo:border-bottom="1.1pt solid {BLUE}" fo:border-top="none"
  fo:border-left="none" fo:border-right="none"/>
 <style:text-properties fo:font-size="{H1_SIZE}pt" fo:color="{DARK_BLUE}"/>
</style:style>
<style:style style:name="Heading_20_2" style:display-name="Heading 2" style:family="paragraph"
 style:parent-style-name="Heading" style:default-outline-level="2" style:class="text">
 <style:paragraph-properties fo:margin-top="3.6mm" fo:margin-bottom="1.3mm"/>
 <style:text-properties fo:font-size="{H2_SIZE}pt" fo:color="{BLUE}"/>
</style:style>
<style:style style:name="Heading_20_3" style:display-name="Heading 3" style:family="paragraph"
 style:parent-style-name="Heading" style:default-outline-level="3" style:class="text">
 <style:paragraph-properties fo:margin-top="2.6mm" fo:margin-bottom="0.8mm"/>
 <style:text-properties style:font-name="{NARROW}" fo:font-size="{H3_SIZE}pt"
  fo:font-style="italic" fo:color="{DARK_GREY}"/>
</style:style>
<style:style style:name="Title" style:family="paragraph" style:parent-style-name="Standard"
 style:class="chapter">
 <style:paragraph-properties fo:text-align="center" fo:margin-top="78mm" fo:margin-bottom="9mm"
  fo:margin-left="12mm" fo:margin-right="12mm" fo:line-height="118%"/>
 <style:text-properties style:font-name="{SANS}" fo:font-size="26pt" fo:font-weight="bold"
  fo:color="{DARK_BLUE}" {nohyph}/>
</style:style>
<style:style style:name="Subtitle" style:family="paragraph" style:parent-style-name="Standard"
 style:class="chapter">
 <style:paragraph-properties fo:text-align="center" fo:margin-bottom="3mm"/>
 <style:text-properties style:font-name="{SERIF}" fo:font-size="13pt" fo:font-style="italic"
  fo:color="{DARK_GREY}" {nohyph}/>
</style:style>
<style:style style:name="Box_20_Title" style:display-name="Box Title" style:family="paragraph"
 style:parent-style-name="Standard" style:class="extra">
 <style:paragraph-properties fo:keep-with-next="always" fo:margin-bottom="1mm"
  fo:text-align="start"/>
 <style:text-properties style:font-name="{SANS}" fo:font-size="{BOX_TITLE_SIZE}pt"
  fo:font-weight="bold" fo:color="#5a4308" {nohyph}/>
</style:style>
<style:style style:name="Box_20_Text" style:display-name="Box Text" style:family="paragraph"
 style:parent-style-name="Standard" style:class="extra">
 <style:paragraph-properties fo:text-align="justify" fo:line-height="110%"/>
 <style:text-properties style:font-name="{SANS}" fo:font-size="{BOX_SIZE}pt" {lang} {hyph}/>
</style:style>
<style:style style:name="Header" style:family="paragraph" style:parent-style-name="Standard"
 style:class="extra">
 <style:paragraph-properties>
  <style:tab-stops><style:tab-stop style:position="{TEXT_MM}mm" style:type="right"/>
  </style:tab-stops>
 </style:paragraph-properties>
 <style:text-properties style:font-name="{SANS}" fo:font-size="{HEADER_SIZE}pt"
  fo:color="{DARK_GREY}" {nohyph}/>
</style:style>
<style:style style:name="Footer" style:family="paragraph" style:parent-style-name="Standard"
 style:class="extra">
 <style:paragraph-properties fo:text-align="end"/>
 <style:text-properties style:font-name="{SANS}" fo:font-size="{FOOTER_SIZE}pt"
  fo:color="{DARK_GREY}" {nohyph}/>
</style:style>
<style:style style:name="Term" style:family="text">
 <style:text-properties fo:font-weight="bold"/>
</style:style>
<style:style style:name="Running" style:family="text">
 <style:text-properties fo:font-style="italic"/>
</style:style>
<style:style style:name="Icon" style:family="text">
 <style:text-properties style:font-name="{ICON_FONT}" fo:font-weight="normal"/>
</style:style>
<text:outline-style style:name="Outline">{outline}</text:outline-style>
</office:styles>
<office:automatic-styles>
<style:page-layout style:name="pmTitle">
 <style:page-layout-properties {page} style:print-orientation="portrait" {margins}/>
</style:page-layout>
<style:page-layout style:name="pmBody">
 <style:page-layout-properties {page} style:print-orientation="portrait" {margins}/>
 <style:header-style><style:header-footer-properties fo:min-height="{HEADER_MM["height"]}mm"
  fo:margin-bottom="{HEADER_MM["spacing"]}mm" fo:border-bottom="0.5pt solid {GREY}"
  fo:padding-bottom="0.6mm" style:dynamic-spacing="false"/></style:header-style>
 <style:footer-style><style:header-footer-properties fo:min-height="{FOOTER_MM["height"]}mm"
  fo:margin-top="{FOOTER_MM["spacing"]}mm" fo:border-top="0.5pt solid {GREY}"
  fo:padding-top="0.6mm" style:dynamic-spacing="false"/></style:footer-style>
</style:page-layout>
<style:style style:name="Columns" style:family="section">
 <style:section-properties text:dont-balance-text-columns="false" style:editable="false">
  <style:columns fo:column-count="2" fo:column-gap="{GAP_MM}mm">
   <style:column style:rel-width="1*" fo:start-indent="0mm" fo:end-indent="{half}mm"/>
   <style:column style:rel-width="1*" fo:start-indent="{half}mm" fo:end-indent="0mm"/>
  </style:columns>
 </style:section-properties>
</style:style>
<style:style style:name="TitleFirst" style:family="paragraph" style:parent-style-name="Title"
 style:master-page-name="TitlePage"/>
<style:style style:name="BodyStart" style:family="paragraph"
 style:parent-style-name="Heading_20_1" style:master-page-name="Body">
 <style:paragraph-properties style:page-number="{first_page}" fo:margin-top="0mm"/>
</style:style>
<style:style style:name="Box" style:family="table">
 <style:table-properties style:width="{COLUMN_MM}mm" table:align="margins"
  fo:margin-top="2mm" fo:margin-bottom="3mm" style:may-break-between-rows="false"/>
</style:style>
<style:style style:name="Box.A" style:family="table-column">
 <style:table-column-properties style:column-width="{COLUMN_MM}mm"/>
</style:style>
<style:style style:name="Box.1" style:family="table-row">
 <style:table-row-properties fo:keep-together="always"/>
</style:style>
<style:style style:name="Box.A1" style:family="table-cell">
 <style:table-cell-properties fo:background-color="{BOX_FILL}" fo:padding="1.8mm"
  fo:border="0.75pt solid {BOX_BORDER}"/>
</style:style>
</office:automatic-styles>
<office:master-styles>
<style:master-page style:name="TitlePage" style:page-layout-name="pmTitle"
 style:next-style-name="Body"/>
<style:master-page style:name="Body" style:page-layout-name="pmBody">
 <style:header><text:p text:style-name="Header"><text:span text:style-name="Running">{
        escape(book["running_header"])
    }</text:span><text:tab/><text:chapter text:display="name" text:outline-level="1"/></text:p>
 </style:header>
 <style:footer><text:p text:style-name="Footer">Page <text:page-number
  text:select-page="current">{first_page}</text:page-number></text:p></style:footer>
</style:master-page>
</office:master-styles>
"""


def body_xml(book: dict) -> str:
    """The title page, then every block of the book in the one two-column section."""
    out = [f'<text:p text:style-name="TitleFirst">{escape(book["title"])}</text:p>']
    out += [
        f'<text:p text:style-name="Subtitle">{escape(line)}</text:p>' for line in title_lines(book)
    ]
    out.append('<text:section text:style-name="Columns" text:name="Book">')
    flat = unindented_keys(book)
    first, boxes = True, 0
    for block in book["blocks"]:
        kind = block["type"]
        if first and not (kind == "heading" and int(block["level"]) == 1):
            raise ValueError("this layout starts the numbered pages at a chapter heading")
        if kind == "heading":
            lvl = int(block["level"])
            if lvl not in (1, 2, 3):
                raise ValueError(f"heading level {lvl} is not in this layout")
            style = "BodyStart" if first else f"Heading_20_{lvl}"
            out.append(
                f'<text:h text:style-name="{style}" text:outline-level="{lvl}">'
                f"{escape(block['text'])}</text:h>"
            )
        elif kind == "paragraph":
            style = "Text_20_body" if block["key"] in flat else "First_20_line_20_indent"
            out.append(f'<text:p text:style-name="{style}">{inline_xml(block["text"])}</text:p>')
        elif kind == "box":
            boxes += 1
            out.append(
                f'<table:table table:name="Box{boxes}" table:style-name="Box">'
                '<table:table-column table:style-name="Box.A"/>'
                '<table:table-row table:style-name="Box.1">'
                '<table:table-cell table:style-name="Box.A1" office:value-type="string">'
                f'<text:p text:style-name="Box_20_Title">{inline_xml(block["title"])}</text:p>'
                f'<text:p text:style-name="Box_20_Text">{inline_xml(block["text"])}</text:p>'
                "</table:table-cell></table:table-row></table:table>"
            )
        else:
            raise ValueError(f"unknown block type {kind!r}")
        first = False
    out.append("</text:section>")
    return "\n".join(out)


NAMESPACES = {
    "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
    "style": "urn:oasis:names:tc:opendocument:xmlns:style:1.0",
    "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0",
    "table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
    "fo": "urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0",
    "svg": "urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0",
    "dc": "http://purl.org/dc/elements/1.1/",
    "meta": "urn:oasis:names:tc:opendocument:xmlns:meta:1.0",
}


def book_fodt(book: dict) -> str:
    """The whole book as a Flat ODT document (one XML file)."""
    ns = " ".join(f'xmlns:{k}="{v}"' for k, v in NAMESPACES.items())
    meta = (
        f"<office:meta><dc:title>{escape(book['title'])}</dc:title>"
        "<meta:initial-creator>Test rulebook generator</meta:initial-creator>"
        "<meta:creation-date>2024-01-01T00:00:00</meta:creation-date>"
        "<dc:date>2024-01-01T00:00:00</dc:date><dc:language>en-US</dc:language></office:meta>"
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<office:document {ns} office:version="1.3" '
        'office:mimetype="application/vnd.oasis.opendocument.text">\n'
        f"{meta}\n{styles_xml(book)}\n<office:body><office:text>\n{body_xml(book)}\n"
        "</office:text></office:body></office:document>\n"
    )


# ---------------------------------------------------------------- laying out
def soffice() -> str:
    exe = shutil.which("soffice") or shutil.which("libreoffice")
    if not exe:
        raise RuntimeError("LibreOffice (soffice) is needed for the office layout")
    return exe


def soffice_version() -> str:
    run = subprocess.run([soffice(), "--version"], capture_output=True, text=True, timeout=60)
    return run.stdout.strip()


def lay_out(fodt: str, out: Path) -> None:
    """Convert the document to PDF with LibreOffice (a private profile, a time limit) and write
    the PDF to `out`."""
    with tempfile.TemporaryDirectory(prefix="office_pdf_") as tmp:
        work = Path(tmp)
        src = work / f"{out.stem}.fodt"
        src.write_text(fodt, encoding="utf-8")
        profile = (work / "profile").as_uri()
        cmd = [soffice(), f"-env:UserInstallation={profile}", "--headless", "--norestore",
               "--convert-to", "pdf:writer_pdf_Export", "--outdir", str(work / "pdf"), str(src)]  # fmt: skip
        env = dict(os.environ, SAL_USE_VCLPLUGIN="svp")
        run = subprocess.run(
            cmd, capture_output=True, text=True, timeout=SOFFICE_TIMEOUT_S, env=env
        )
        made = work / "pdf" / f"{out.stem}.pdf"
        if run.returncode != 0 or not made.exists():
            raise RuntimeError(f"soffice failed ({run.returncode}): {run.stdout}{run.stderr}")
        shutil.copyfile(made, out)


# ---------------------------------------------------------------- reading the PDF back


def page_chars(tp, height: float) -> list[Char]:
    """Every character LibreOffice printed on a page, not the blanks and line ends pdfium makes
    up."""
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
    line_ends: list[tuple[int, str]]  # body lines ending in a hyphen: (stream position, char)
    ligatures: int  # ligature characters read back from the body
    top: list[Char]  # furniture above the body area
    bottom: list[Char]  # furniture under it
    head: str  # the header as pdfium reads it, whitespace collapsed
    foot: str  # the footer as pdfium reads it


def read_pages(out: Path) -> list[Page]:
    """The PDF's pages: body text in reading order (left column, right column) with the column of
    each character, and the furniture in the margins."""
    import pypdfium2 as pdfium

    pages = []
    pdf = pdfium.PdfDocument(str(out))
    try:
        for index in range(len(pdf)):
            pg = pdf[index]
            width, height = pg.get_size()
            middle = (MARGIN_MM["left"] + TEXT_MM / 2) * MM
            top_edge = BODY_TOP_MM * MM - 2  # a body line's baseline is below the body's top
            foot_edge = BODY_BOTTOM_MM * MM + 2
            body: dict[int, list[Char]] = {1: [], 2: []}
            top, bottom = [], []
            tp = pg.get_textpage()
            head = band_text(tp, width, height, 0, top_edge)
            foot = band_text(tp, width, height, foot_edge, height)
            for c in page_chars(tp, height):
                if index and c.y < top_edge:
                    top.append(c)
                elif index and c.y > foot_edge:
                    bottom.append(c)
                elif index == 0:
                    body[1].append(c)  # the title page (one column)
                else:
                    body[1 if (c.left + c.right) / 2 < middle else 2].append(c)
            stream: list[tuple[str, int]] = []
            ends: list[tuple[int, str]] = []
            ligatures = 0
            for col in (1, 2):
                for line in lines(body[col]):
                    for c in line:
                        if (
                            unicodedata.normalize("NFKC", c.text) != c.text
                            and len(unicodedata.normalize("NFKC", c.text)) > 1
                        ):
                            ligatures += 1
                        stream += [(ch, col) for ch in squeeze(c.text)]
                    if index and line[-1].text in LINE_END_HYPHENS:
                        ends.append((len(stream), line[-1].text))
            pages.append(
                Page(index, width, height, stream, ends, ligatures, top, bottom, head, foot)
            )
    finally:
        pdf.close()
    return pages


# ---------------------------------------------------------------- truth
def expected_items(book: dict) -> list[tuple[str, dict, str, str]]:
    """What the body of the PDF must say, in order: (kind, block, squeezed printed text, the
    printed text with its written hyphens, blanks removed)."""
    items = []
    for block in book["blocks"]:
        shown = printed(block["text"])
        if block["type"] == "box":
            shown = printed(block["title"]) + shown
        kept = "".join(
            c for c in unicodedata.normalize("NFKC", shown) if not c.isspace() and c != "\xad"
        )
        items.append((block["type"], block, squeeze(shown), kept))
    return items


def locate(book: dict, pages: list[Page]) -> tuple[list[list[tuple[int, int]]], int]:
    """For every block of the book (headings included) the (PDF page, column) places its
    characters stand in, in order, each place once. The body text of the numbered pages must be
    exactly the blocks' printed texts one after another. Also counts the body lines that end in a
    hyphen Writer put in (not a hyphen the book writes there)."""
    stream = [(ch, p.index, col) for p in pages[1:] for ch, col in p.stream]
    # Where each page's stream starts in the whole stream, to place its line-end hyphens.
    offsets, n = {}, 0
    for p in pages[1:]:
        offsets[p.index] = n
        n += len(p.stream)
    breaks = {offsets[p.index] + at for p in pages[1:] for at, _ in p.line_ends}
    found, made, _ = locate_stream(expected_items(book), stream, breaks, HYPHENS)
    return found, made


def check_title_page(book: dict, page: Page) -> None:
    """The title page shows the title and its lines and nothing else; no header, no footer."""
    got = "".join(ch for ch, _ in page.stream)
    want = squeeze(book["title"] + "".join(title_lines(book)))
    if got != want:
        raise ValueError(f"the title page reads {got!r},\n expected {want!r}")


def furniture(book: dict, pages: list[Page], numbers: list, chapter_of: dict) -> tuple:
    """Every numbered page's header and footer as printed, checked against what was asked for:
    the running header on the left and the chapter field's text on the right of the header,
    "Page N" on the right of the footer."""
    headers, footers = [], []
    for p in pages[1:]:
        num, mid = numbers[p.index], p.width / 2
        left = [c for c in p.top if c.right < mid]
        right = [c for c in p.top if c.left > mid]
        if len(left) + len(right) != len(p.top):
            raise ValueError(f"PDF page {p.index}: header text across the middle of the page")
        running, chapter = book["running_header"], chapter_of[p.index]
        if line_text(left) != squeeze(running):
            raise ValueError(f"PDF page {p.index}: header {p.head!r}, expected {running!r} left")
        if line_text(right) != squeeze(chapter):
            raise ValueError(f"PDF page {p.index}: header {p.head!r}, expected {chapter!r} right")
        right_edge = (PAGE["w_mm"] - MARGIN_MM["right"]) * MM
        if abs(max(c.right for c in right) - right_edge) > 3:
            raise ValueError(f"PDF page {p.index}: the chapter is not at the right margin")
        shown = f"Page {num}"
        if line_text(p.bottom) != squeeze(shown):
            raise ValueError(f"PDF page {p.index}: footer {p.foot!r}, expected {shown!r}")
        if not p.bottom or abs(max(c.right for c in p.bottom) - right_edge) > 3:
            raise ValueError(f"PDF page {p.index}: the page number is not at the right margin")
        headers.append(dict(page=num, pdf_page_index=p.index, left=running, left_kind="book",
                            right=chapter, right_kind="chapter", text=running, chapter=chapter,
                            position="top", rule_below=True, same_on_both_sides=True,
                            chapter_rule="the chapter in force at the top of the page"))  # fmt: skip
        footers.append(dict(page=num, pdf_page_index=p.index, number=str(num), text=shown,
                            corner="right", position="bottom", rule_above=True))  # fmt: skip
    return headers, footers


def first_lines(pages: list[Page]) -> dict[int, int]:
    """The stream position (in the whole body stream) of the first character of every numbered
    page."""
    out, n = {}, 0
    for p in pages[1:]:
        out[p.index] = n
        n += len(p.stream)
    return out


def build_truth(book: dict, pages: list[Page]) -> dict:
    """The ground truth (make_pdf.py's format plus this layout's keys) of a laid-out book."""
    if len(pages) < 2:
        raise ValueError("the PDF has no numbered page")
    first = int(book["first_page"])
    numbers: list = [None] + [first + i - 1 for i in range(1, len(pages))]
    places, made_hyphens = locate(book, pages)
    check_title_page(book, pages[0])
    flat = unindented_keys(book)
    headings, blocks, path, openings = [], [], [], []
    for block, where in zip(book["blocks"], places):
        (index, col), rest = where[0], where[1:]
        at = {"page": numbers[index], "pdf_page_index": index, "column": col}
        if block["type"] == "heading":
            lvl = int(block["level"])
            path = path[: lvl - 1] + [block["text"]]
            entry = {"level": lvl, "text": block["text"], **at, "numbered": False}
            if lvl == 1:
                entry.update(rule_below=True, new_page=False)
                openings.append({"chapter": block["text"], "page": numbers[index],
                                 "pdf_page_index": index, "column": col})  # fmt: skip
            elif lvl == 3:
                entry["italic"] = True
            if rest:
                entry["continues"] = [{"page": numbers[i], "pdf_page_index": i, "column": c}
                                      for i, c in rest]  # fmt: skip
            headings.append(entry)
            continue
        row = block_row(block, path)
        shown = printed(block["text"])
        if shown != row["plain_text"]:  # its icons, printed as their symbols
            row["printed_text"] = shown
        if block["type"] == "paragraph" and block["key"] in flat:
            row["indent"] = False
        if block["type"] == "box":
            row.update(frame="table-cell-border-tint", unsplit=True,
                       printed_title=printed(block["title"]))  # fmt: skip
        row.update(at, continues=[{"page": numbers[i], "pdf_page_index": i, "column": c}
                                  for i, c in rest])  # fmt: skip
        row["split"] = None if not rest else "page" if rest[-1][0] != index else "column"
        if block["type"] == "box" and row["split"]:
            raise ValueError(f"box {block['key']!r} was split, which this layout never does")
        blocks.append(row)
    # Writer's chapter field: the chapter in force at the top of the page, i.e. the last chapter
    # heading that starts before the page's first body character (or at it).
    starts = first_lines(pages)
    heading_at, pos = [], 0
    for (kind, block, want, _), _where in zip(expected_items(book), places):
        if kind == "heading" and int(block["level"]) == 1:
            heading_at.append((pos, block["text"]))
        pos += len(want)
    chapter_of: dict[int, str | None] = {}
    for p in range(1, len(pages)):
        before = [t for at, t in heading_at if at <= starts[p]]
        chapter_of[p] = before[-1] if before else None
    headers, footers = furniture(book, pages, numbers, chapter_of)
    if not made_hyphens:
        raise ValueError("no line of the body ends in Writer's hyphen: is hyphenation on?")
    ligatures = sum(p.ligatures for p in pages)
    m = MARGIN_MM
    return {
        "title": book["title"],
        "game": book["game"],
        "style": "office",
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
            "name": "LibreOffice Writer",
            "version": soffice_version(),
            "via": "soffice --headless --convert-to pdf:writer_pdf_Export (a Flat ODT document)",
            "features": [
                "one two-column section (balanced on the last page)",
                "page styles: an unnumbered title page, then the body pages",
                "page number set on the first heading's paragraph (style:page-number)",
                "header with a chapter field (text:chapter, level 1)",
                "footer with a page-number field",
                "automatic hyphenation (fo:hyphenate, en-US patterns)",
                "one-cell tables for boxes (row kept together)",
            ],
        },  # fmt: skip
        "title_page": {
            "pdf_page_index": 0,
            "printed_number": None,
            "title": book["title"],
            "lines": title_lines(book),
            "not_a_block": True,
        },  # fmt: skip
        "page_numbers": numbers,
        "page_number_offset": {
            "first_numbered_pdf_page_index": 1,
            "printed": first,
            "rule": "printed = first_page + pdf_page_index - 1; the title page "
            "(PDF page 0) prints no number",
        },  # fmt: skip
        "chapter_openings": openings,
        "chapter_new_page": False,
        "page_size": PAGE["name"],
        "page_size_mm": [PAGE["w_mm"], PAGE["h_mm"]],
        "page_size_pt": [round(pages[0].width, 2), round(pages[0].height, 2)],
        "margins_pt": {k: round(v * MM, 2) for k, v in m.items()},
        "body_area_pt": {
            "top": round(BODY_TOP_MM * MM, 2),
            "bottom": round(BODY_BOTTOM_MM * MM, 2),
        },
        "mirrored_margins": False,
        "column_width_pt": round(COLUMN_MM * MM, 2),
        "column_gap_pt": round(GAP_MM * MM, 2),
        "column_rule": None,
        "columns": 2,
        "columns_balanced_on_last_page": True,
        "body_font": {
            "name": BODY["family"],
            "size": BODY["size"],
            "line_height": f"{BODY['line_height_pct']}%",
        },
        "heading_fonts": {
            "1": {
                "name": "Liberation Sans Bold",
                "size": H1_SIZE,
                "colour": DARK_BLUE,
                "rule_below": BLUE,
                "numbered": False,
            },
            "2": {
                "name": "Liberation Sans Bold",
                "size": H2_SIZE,
                "colour": BLUE,
                "numbered": False,
            },
            "3": {
                "name": "Liberation Sans Narrow Bold Italic",
                "size": H3_SIZE,
                "colour": DARK_GREY,
                "numbered": False,
            },
        },  # fmt: skip
        "keyword_style": "bold",
        "quotation_marks": "as written (straight)",
        "ligatures_read_back": ligatures,
        "box": {
            "kind": "one-cell table",
            "font": SANS,
            "size": BOX_SIZE,
            "title_font": "Liberation Sans Bold",
            "title_size": BOX_TITLE_SIZE,
            "fill": BOX_FILL,
            "border": {"sides": "all", "width_pt": 0.75, "colour": BOX_BORDER},
            "row_may_split": False,
        },  # fmt: skip
        "paragraph_indent": {
            "kind": "first-line",
            "mm": BODY["indent_mm"],
            "none_after": ["heading", "box"],
            "block_paragraphs": False,
        },  # fmt: skip
        "hyphenation": {
            "method": "LibreOffice automatic hyphenation (hyphen-en-us patterns, en-US)",
            "min_left": HYPHEN["remain"],
            "min_right": HYPHEN["push"],
            "max_consecutive": HYPHEN["ladder"],
            "hyphen_char": "U+002D",
            "justified": True,
            "line_end_hyphens": made_hyphens,
        },  # fmt: skip
        "page_headers": headers,
        "page_footers": footers,
    }


# ---------------------------------------------------------------- public API
def build_office_pdf(book: dict, out_pdf_path) -> dict:
    """Lay out a book given as a dict (the parsed YAML) with LibreOffice Writer; returns the
    ground truth (also written beside the PDF as <stem>.truth.json)."""
    out = Path(out_pdf_path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".truth.json").unlink(missing_ok=True)
    lay_out(book_fodt(book), out)
    truth = build_truth(book, read_pages(out))
    truth["engine"].update(pdf_metadata(out))
    return write_truth(out, truth)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__)
        return 2
    book = yaml.safe_load(Path(argv[0]).read_text())
    t = build_office_pdf(book, argv[1])
    splits = sorted({b["split"] for b in t["blocks"] if b["split"]})
    print(f"{argv[1]}: style {t['style']}, {t['pages']} pages (printed {t['printed_pages']}), "
          f"{len(t['blocks'])} blocks, splits: {splits}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
