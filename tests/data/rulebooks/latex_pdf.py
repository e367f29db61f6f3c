"""Lay a test rulebook (tests/data/rulebooks/*.yaml) out as a LaTeX booklet set by pdflatex.

A sixth, independent generator beside make_pdf.py (which draws its books with reportlab),
browser_pdf.py (Chromium), typst_pdf.py (Typst), weasy_pdf.py (WeasyPrint) and office_pdf.py
(LibreOffice Writer): a good many fan-made rules digests and FAQ booklets are written by a
volunteer in LaTeX and typeset with pdflatex, so this one writes the book as a LaTeX source file
(the standard ``article`` class with a handful of common packages) and has pdflatex (TeX Live,
a system program, not a Python package) typeset it. TeX does the whole layout: Knuth-Plass line
breaking, hyphenation with TeX's English patterns, justification, the two columns, page and
column breaks, widow and club penalties, the headings' numbers and the running heads through
TeX's marks. Beside the PDF it writes the same ground truth as make_pdf.py (``<name>.truth.json``),
read back from the PDF that pdflatex produced.

    build_latex_pdf(book: dict, out_pdf_path) -> dict   # the truth, also written beside the PDF
    python latex_pdf.py BOOK.yaml OUT.pdf
    python make_pdf.py BOOK.yaml OUT.pdf --style=latex   # the same, through make_pdf.build_pdf

The layout ("latex"; no book names it as its `layout_style`, any book can be laid out in it) follows
the habits of a volunteer's LaTeX booklet, which looks like what LaTeX does by default: A4 pages set
TWO-SIDED (``\\documentclass[10pt,a4paper,twocolumn,twoside]{article}`` with ``geometry``) with
MIRRORED margins: the inner margin (20 mm) wider than the outer one (16 mm), so the columns stand
4 mm further right on odd (right-hand) printed pages than on even (left-hand) ones; 24 mm above the
text, 26 mm under it. The first PDF page is an UNNUMBERED TITLE PAGE (LaTeX's ``titlepage``
environment, one column, no header, no footer): the book title in bold \\LARGE, a line naming the
game and a line saying the booklet is not an official rules document in italics. Then the whole book
in TWO COLUMNS (the class's ``twocolumn`` option: TeX fills the left column, then the right one,
then the next page; the columns of the last page are NOT balanced; chapters do not open a new page
or column), a 6 mm gap between them and no rule. The fonts are LATIN MODERN (``lmodern``) in the T1
encoding, so TeX's f-LIGATURES (ff, fi, fl, ffi, ffl) are printed as single glyphs; pdfium reads each
back as its separate letters, all sharing the one glyph's box. The body is 10 pt on 12 pt, JUSTIFIED
and HYPHENATED by TeX itself (``babel`` with ``english``: TeX's US English patterns, at least 2
letters left and 3 carried over; the hyphen at a line end is the font's hyphen, which pdfium
returns as U+0002); paragraphs are INDENTED by TeX's \\parindent (1 em) with no gap between them,
and the first paragraph after any heading is NOT indented (LaTeX's own rule; a paragraph after a
box is). Headings are LaTeX's sectioning commands, NUMBERED: a chapter (level 1) is a ``\\section``
in bold \\Large, numbered from the book's `first_chapter` (default 1): "7 Running a Demo Table"; a
section (level 2) a ``\\subsection`` in bold \\large, numbered "7.2 Choosing What to Show"; a
level-3 heading an UNNUMBERED ``\\subsubsection*`` set as a bold italic line at the body's size,
standing alone above its paragraph (not run in). KEY TERMS (written `*like this*` in the book) in
bold (``\\textbf``). QUOTATION MARKS are TeX's: a straight double quote written in the book is
printed as an opening or closing curly quote (opening at the start of the text or after a blank or
an opening bracket, closing elsewhere), a straight single quote as a curly one the same way (so an
apostrophe is printed as U+2019); the truth's "printed_text" says what was printed. Boxes are a
FRAMED BOX as wide as the column (``\\fcolorbox`` in dark grey on a very light grey around a
``\\parbox``): the title in bold, then the text in \\small (9 pt), justified and hyphenated too; a
box is one unbreakable TeX box, so it is NEVER SPLIT: a box that does not fit moves whole to the
next column (the column it leaves is stretched to the full height, LaTeX's \\flushbottom).

GAME ICONS (`{loot}`): pdflatex has no ZapfDingbats here (``pifont`` is installed but the Type 1
font it needs, from texlive-fonts-recommended, is not), so each icon is a SYMBOL from the math fonts
that ship with texlive-latex-base (the AMS symbols ``msam``/``msbm`` and Computer Modern's ``cmsy``/
``cmmi``), chosen to look like the dingbat (a filled star for xp, a black lozenge for shield, a filled
triangle for earth, a bullet for dark, ...), and pdfTeX is told with ``\\pdfglyphtounicode`` (for
those fonts only, by their TFM names) to give each of those glyphs the SAME UNICODE SYMBOL that
pdf_truth.ICONS names, so pdfium reads back exactly the symbols the other generators print (the
truth records, per icon, the font, the glyph and the symbol read back).

The page furniture is ``fancyhdr``'s, mirrored as LaTeX's twoside does: the header over a 0.4 pt
rule, the book's running header in slanted type (\\slshape) in the OUTER corner (left on even,
left-hand pages, right on odd, right-hand pages) and the CHAPTER in the INNER corner, also slanted;
at the foot the page number CENTRED, a bare number, as LaTeX prints it. The chapter in the header
is TeX's \\rightmark: the chapter whose heading is the FIRST on the page (TeX's \\firstmark, taken
from the left column first), or, on a page where no chapter begins, the chapter in force at the
top of the page; pages before the first chapter show none. The printed page number is NOT the PDF
page index: the title page is PDF page 0 and prints no number, and the page counter is set after it
(``\\setcounter{page}{first_page}``), so the second PDF page prints the book's `first_page`; whether
a page is a left- or right-hand page follows its printed number (odd: right-hand).

The truth is read from the PDF itself (pypdfium2): the text of every page is taken character by
character with its position and size (the blanks pdfium makes up left out); the header (above the
text area) and the footer (under it) are set apart and checked against what was asked for (the
running header in the outer corner, the chapter of the page in the inner one, the page number
centred); every body character goes into the left or the right column by its position (the columns
of a left-hand page stand further left); the columns are read in order (left column, right column,
page after page) and the whole body text must equal, character for character (blanks and hyphens
aside, ligatures unfolded), the headings (with their printed numbers), the boxes (title, then text)
and the paragraphs one after another. The title page must show the title and its two lines and
nothing else. Where each block's first character stands gives its printed page, PDF page and
column, and the columns its other characters stand in give its "continues" list and "split". A
mismatch anywhere is an error: no truth is written for a PDF that does not say what the book says.

The truth has make_pdf.py's format: for every paragraph and box its key, kind, title, section (the
heading path as a list), section_path, text as written ("plain_text": icon tokens left out,
whitespace collapsed; "text" and "plain_text" without the asterisks of key terms, which are listed
in "keywords"), the icons, the printed page, PDF page index and column where it starts, the pages
and columns it continues on and how it splits (None, "column" or "page"); a block whose printed text
differs from its plain text records "printed_text" (key terms without asterisks, icons as their
symbols, TeX's curly quotes); a paragraph set without TeX's indent records "indent": false; a box
adds "frame": "fcolorbox", "unsplit": true and "printed_title". A block written with fields this
layout does not set (a list mark, a table, a placement of another layout) is laid out as its text
(and title) alone and lists those fields in "fields_not_set". For every heading its level, text,
page, PDF page index and column; a chapter or section heading "number" and "printed_as" ("7.2
Choosing What to Show"); a level-3 heading "numbered": false and "bold_italic": true. It adds the
title page ("title_page": PDF page index, no printed number, the title, its lines, "not_a_block":
true), the printed number of every PDF page ("page_numbers", null for the title page), every
numbered page's header ("page_headers": the running header and its corner, the chapter and its
corner, which hand the page is) and footer ("page_footers": the number, centred), the chapters'
first pages ("chapter_openings"), the page size, margins (per hand), column widths and gap, the
fonts, the hyphenation (with the number of body lines read back ending in TeX's hyphen where the
book writes none, which must not be 0), the ligatures read back (how many, which, and how pdfium
returned them), the icons' glyphs and the engine (pdfTeX's version and the Creator and Producer the
PDF names).

Needs pdflatex (TeX Live 2022: Debian's texlive-latex-base and texlive-latex-recommended, for
fancyhdr, geometry, xcolor, lmodern, babel-english, amsfonts), pypdfium2 and PyYAML. No network.
The same book gives the same bytes on every run: pdflatex runs with SOURCE_DATE_EPOCH=0 and
FORCE_SOURCE_DATE=1 (fixed dates), ``\\pdftrailerid{}`` (no random file ID) and
``\\pdfsuppressptexinfo=-1`` (no file names of the temporary directory in the PDF).
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

PDFLATEX_TIMEOUT_S = 180
JOB = "book"  # the .tex file's name in the temporary directory (it never shows in the PDF)

# ---------------------------------------------------------------- the page
MM = 72 / 25.4  # points per millimetre
PT = 72 / 72.27  # PDF points per TeX point
PAGE = {"name": "A4", "w_mm": 210.0, "h_mm": 297.0}
MARGIN_MM = {"top": 24.0, "bottom": 26.0, "inner": 20.0, "outer": 16.0}
HEAD = {"headheight_pt": 14.0, "headsep_mm": 6.0, "footskip_mm": 12.0}
GAP_MM = 6.0
TEXT_MM = PAGE["w_mm"] - MARGIN_MM["inner"] - MARGIN_MM["outer"]
COLUMN_MM = (TEXT_MM - GAP_MM) / 2
TEXT_H_MM = PAGE["h_mm"] - MARGIN_MM["top"] - MARGIN_MM["bottom"]

BODY = {"family": "Latin Modern Roman", "size": 10.0, "leading": 12.0, "parindent_em": 1.0}
BOX_SIZE, BOX_LEADING = 9.0, 11.0
H1_SIZE, H2_SIZE = 14.4, 12.0  # \Large and \large in a 10 pt article
BOX_FRAME, BOX_FILL = "black!75", "black!4"
HYPHEN_CHAR = "\x02"  # what pdfium returns for the hyphen TeX puts at a line end
# The hyphens written in words and the one TeX prints at a line end: compared away on both sides.
HYPHENS = {"-", HYPHEN_CHAR, "\u2010", "\u2011", "\xad", "\ufffe"}
LINE_END_HYPHENS = {"-", HYPHEN_CHAR, "\u2010", "\xad"}

# The icons: (NFSS encoding, family, slot, the glyph's name in the Type 1 font, what it looks like).
# pdfTeX maps each glyph (only in these fonts, by TFM name) to the icon's symbol in pdf_truth.ICONS.
ICON_GLYPHS = {
    "fire": ("OMS", "cmsy", 3, "asteriskmath", "asterisk operator"),
    "ice": ("U", "msb", 62, "dividemultiply", "division times"),
    "air": ("U", "msa", 32, "squiggleright", "rightwards squiggle arrow"),
    "earth": ("U", "msa", 78, "trianglesolid", "black up-pointing triangle"),
    "light": ("OML", "cmm", 63, "star", "star operator"),
    "dark": ("OMS", "cmsy", 15, "bullet", "bullet"),
    "wild": ("U", "msa", 126, "circleasterisk", "circled asterisk"),
    "move": ("OMS", "cmsy", 33, "arrowright", "rightwards arrow"),
    "attack": ("OMS", "cmsy", 2, "multiply", "multiplication sign"),
    "range": ("OMS", "cmsy", 37, "arrownortheast", "north east arrow"),
    "heal": ("U", "msa", 1, "squareplus", "squared plus"),
    "shield": ("U", "msa", 7, "diamondsolid", "black lozenge"),
    "xp": ("U", "msa", 70, "star", "black star"),
    "spent": ("U", "msa", 8, "clockwise", "clockwise open circle arrow"),
    "lost": ("OMS", "cmsy", 2, "multiply", "multiplication sign"),
    "loot": ("U", "msa", 125, "circlering", "circled ring"),
}  # fmt: skip
ICON_TFM = {"cmsy": "cmsy", "cmm": "cmmi", "msa": "msam", "msb": "msbm"}
ICON_SIZES = (5, 6, 7, 8, 9, 10)  # the TFM design sizes the fonts' .fd files pick from

# The fields of a block this layout sets; any other is listed in the block's "fields_not_set".
SET_FIELDS = {"type", "key", "text", "title", "level"}


# ---------------------------------------------------------------- text
def tex_quotes(text: str) -> str:
    """Straight quotes as TeX prints them from ``...'' and `...': curly, opening at the start or
    after a blank or an opening bracket (a key term's asterisk or an icon's brace is looked
    through), closing elsewhere."""
    out = []
    for i, c in enumerate(text):
        if c in "\"'":
            j = i - 1
            while j >= 0 and text[j] in "*{":
                j -= 1
            opening = j < 0 or text[j].isspace() or text[j] in "([\u201c\u2018"
            if c == '"':
                c = "\u201c" if opening else "\u201d"
            else:
                c = "\u2018" if opening else "\u2019"
        out.append(c)
    return "".join(out)


def printed(text: str) -> str:
    """What the PDF shows for a book text: key terms without asterisks, icons as their symbols,
    TeX's curly quotes, whitespace collapsed."""
    shown = ICON_RE.sub(lambda m: ICONS[m.group(1)], KEYWORD_RE.sub(r"\1", tex_quotes(text)))
    return re.sub(r"\s+", " ", shown).strip()


def squeeze(text: str) -> str:
    """Text reduced for comparison: compatibility forms (ligatures), no blanks, no hyphens."""
    text = unicodedata.normalize("NFKC", text)
    return "".join(c for c in text if not c.isspace() and c not in HYPHENS)


TEX_CHARS = {
    "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "%": r"\%",
    "#": r"\#", "_": r"\_", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}",
    "\u201c": r"\textquotedblleft{}", "\u201d": r"\textquotedblright{}",
    "\u2018": r"\textquoteleft{}", "\u2019": r"\textquoteright{}",
    "\u2014": r"\textemdash{}", "\u2013": r"\textendash{}", "\xa0": "~",
}  # fmt: skip


def tex_escape(text: str) -> str:
    """Plain text as LaTeX input: the special characters escaped, and no accidental ligature of
    T1's (-- and ---, ,, << >> !` ?`) formed from characters written side by side."""
    out = []
    for i, c in enumerate(text):
        out.append(TEX_CHARS.get(c, c))
        nxt = text[i + 1] if i + 1 < len(text) else ""
        if c in "-," and nxt == c or c in "!?" and nxt == "`":
            out.append("{}")
    return "".join(out)


def inline_tex(text: str) -> str:
    """A book text as LaTeX: key terms in \\textbf, icons as \\gameicon{name}, quotes curly."""
    out = []
    words = re.sub(r"\s+", " ", tex_quotes(text)).strip()
    for i, piece in enumerate(KEYWORD_RE.split(words)):
        parts = []
        for j, bit in enumerate(ICON_RE.split(piece)):
            parts.append(f"\\gameicon{{{bit}}}" if j % 2 else tex_escape(bit))
        out.append(f"\\textbf{{{''.join(parts)}}}" if i % 2 else "".join(parts))
    return "".join(out)


# ---------------------------------------------------------------- the book as LaTeX
def title_lines(book: dict) -> list[str]:
    """The lines of the title page under the title (not blocks of the book), as written."""
    game = {"frosthaven": "Frosthaven", "gloomhaven": "Gloomhaven"}.get(book["game"], book["game"])
    return [
        f"A players' booklet for {game}",
        "Typeset by a volunteer: not an official rules document",
    ]


def heading_numbers(book: dict) -> list[str | None]:
    """The number LaTeX prints before every block (None for all but chapters and sections):
    chapters counted from `first_chapter`, sections "chapter.section"."""
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


def unindented_keys(book: dict) -> set[str]:
    """The paragraphs LaTeX sets without \\parindent: those right after a heading."""
    keys, prev = set(), None
    for block in book["blocks"]:
        if block["type"] == "paragraph" and prev == "heading":
            keys.add(block["key"])
        prev = block["type"]
    return keys


def icon_preamble() -> str:
    """\\gameicon{name}, and the Unicode symbol pdfTeX gives each icon glyph (in its own fonts)."""
    maps, seen = [], set()
    for name, (_enc, fam, _slot, glyph, _) in ICON_GLYPHS.items():
        for size in ICON_SIZES:
            entry = (f"{ICON_TFM[fam]}{size}", glyph)
            if entry not in seen:
                seen.add(entry)
                maps.append(
                    f"\\pdfglyphtounicode{{tfm:{entry[0]}/{glyph}}}{{{ord(ICONS[name]):04X}}}"
                )
    defs = [
        f"\\expandafter\\def\\csname gameicon@{name}\\endcsname{{{{\\usefont{{{enc}}}{{{fam}}}"
        f"{{m}}{{n}}\\char{slot}\\relax}}}}"
        for name, (enc, fam, slot, _g, _) in ICON_GLYPHS.items()
    ]
    return "\n".join(maps) + "\n" + "\n".join(defs) + "\n"


def preamble(book: dict) -> str:
    """The document class, the packages and the page furniture."""
    m, h = MARGIN_MM, HEAD
    return rf"""\pdfgentounicode=1
\input glyphtounicode
{icon_preamble()}\documentclass[10pt,a4paper,twocolumn,twoside]{{article}}
\usepackage[T1]{{fontenc}}
\usepackage{{lmodern}}
\usepackage[english]{{babel}}
\usepackage{{xcolor}}
\usepackage[a4paper,twoside,inner={m["inner"]}mm,outer={m["outer"]}mm,top={m["top"]}mm,
  bottom={m["bottom"]}mm,headheight={h["headheight_pt"]}pt,headsep={h["headsep_mm"]}mm,
  footskip={h["footskip_mm"]}mm,columnsep={GAP_MM}mm]{{geometry}}
\usepackage{{fancyhdr}}
\pdftrailerid{{}}
\pdfsuppressptexinfo=-1
\pdfinfo{{/Title ({pdf_string(book["title"])}) /Author (Test rulebook generator)}}
\setlength{{\columnseprule}}{{0pt}}
\makeatletter
\DeclareRobustCommand\gameicon[1]{{\@nameuse{{gameicon@#1}}}}
\renewcommand\subsubsection{{\@startsection{{subsubsection}}{{3}}{{\z@}}%
  {{-2.6ex\@plus -1ex \@minus -.2ex}}{{0.8ex \@plus .2ex}}{{\normalfont\normalsize\bfseries\itshape}}}}
\makeatother
\newcommand\bookbox[2]{{\par\medskip\noindent
  \fcolorbox{{{BOX_FRAME}}}{{{BOX_FILL}}}{{\parbox{{\dimexpr\columnwidth-2\fboxsep-2\fboxrule\relax}}{{%
  \small\setlength{{\parindent}}{{0pt}}{{\bfseries\raggedright #1\par}}\smallskip #2\par}}}}\par\medskip}}
\pagestyle{{fancy}}
\fancyhf{{}}
\fancyhead[LE,RO]{{\slshape {inline_tex(book["running_header"])}}}
\fancyhead[RE,LO]{{\slshape \rightmark}}
\fancyfoot[C]{{\thepage}}
\renewcommand{{\headrulewidth}}{{0.4pt}}
\renewcommand{{\sectionmark}}[1]{{\markboth{{#1}}{{#1}}}}
\renewcommand{{\subsectionmark}}[1]{{}}
"""


def pdf_string(text: str) -> str:
    """A string for \\pdfinfo (ASCII; the title's accents and specials left out)."""
    ascii_only = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[\\(){}%#$&_^~]", "", ascii_only)


def body_tex(book: dict) -> str:
    """The title page, then every block of the book in the two columns."""
    lines_ = title_lines(book)
    out = [
        r"\begin{titlepage}",
        r"\centering\vspace*{55mm}",
        rf"{{\LARGE\bfseries {inline_tex(book['title'])}\par}}",
        r"\vspace{12mm}",
        rf"{{\large {inline_tex(lines_[0])}\par}}",
        r"\vspace{4mm}",
        rf"{{\itshape {inline_tex(lines_[1])}\par}}",
        r"\end{titlepage}",
        rf"\setcounter{{page}}{{{int(book['first_page'])}}}",
        rf"\setcounter{{section}}{{{int(book.get('first_chapter', 1)) - 1}}}",
        "",
    ]
    for block in book["blocks"]:
        kind = block["type"]
        if kind == "heading":
            lvl = int(block["level"])
            if lvl not in (1, 2, 3):
                raise ValueError(f"heading level {lvl} is not in this layout")
            cmd = {1: r"\section", 2: r"\subsection", 3: r"\subsubsection*"}[lvl]
            out.append(f"{cmd}{{{inline_tex(block['text'])}}}")
        elif kind == "paragraph":
            out.append(inline_tex(block["text"]) + "\n")
        elif kind == "box":
            out.append(
                f"\\bookbox{{{inline_tex(block['title'])}}}{{{inline_tex(block['text'])}}}\n"
            )
        else:
            raise ValueError(f"unknown block type {kind!r}")
    return "\n".join(out)


def book_tex(book: dict) -> str:
    """The whole book as one LaTeX source file."""
    return (
        "% Written by latex_pdf.py (test data): a rulebook laid out as a LaTeX booklet.\n"
        + preamble(book)
        + "\\begin{document}\n"
        + body_tex(book)
        + "\n\\end{document}\n"
    )


# ---------------------------------------------------------------- laying out
def pdflatex() -> str:
    exe = shutil.which("pdflatex")
    if not exe:
        raise RuntimeError("pdflatex (TeX Live) is needed for the latex layout")
    return exe


def pdflatex_version() -> str:
    run = subprocess.run([pdflatex(), "--version"], capture_output=True, text=True, timeout=60)
    return run.stdout.splitlines()[0].strip() if run.stdout else ""


def lay_out(tex: str, out: Path) -> int:
    """Typeset the source with pdflatex in a temporary directory (run again while the log asks for
    it, at most three runs) and copy the PDF to `out`. Returns the number of runs."""
    with tempfile.TemporaryDirectory(prefix="latex_pdf_") as tmp:
        work = Path(tmp)
        (work / f"{JOB}.tex").write_text(tex, encoding="utf-8")
        env = dict(os.environ, SOURCE_DATE_EPOCH="0", FORCE_SOURCE_DATE="1")
        cmd = [pdflatex(), "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape",
               f"{JOB}.tex"]  # fmt: skip
        runs, rerun = 0, True
        while rerun and runs < 3:
            runs += 1
            run = subprocess.run(cmd, cwd=work, capture_output=True, text=True, env=env,
                                 timeout=PDFLATEX_TIMEOUT_S, errors="replace")  # fmt: skip
            log_path = work / f"{JOB}.log"
            log = log_path.read_text(errors="replace") if log_path.exists() else run.stdout
            made = work / f"{JOB}.pdf"
            if run.returncode != 0 or not made.exists():
                tail = "\n".join(log.splitlines()[-40:])
                raise RuntimeError(f"pdflatex failed (exit {run.returncode}); log tail:\n{tail}")
            rerun = "Rerun to get" in log or "Label(s) may have changed" in log
        shutil.copyfile(made, out)
    return runs


# ---------------------------------------------------------------- reading the PDF back
def page_chars(tp, height: float) -> tuple[list[Char], list[tuple[int, str]]]:
    """Every character pdfTeX printed on a page, not the blanks and line ends pdfium makes up;
    and the ligatures among them: runs of characters read back with one glyph box (pdfium gives a
    ligature glyph's letters one by one, each with the whole glyph's box), as (index of the first
    of them, the letters)."""
    import pypdfium2.raw as pdfium_c

    chars: list[Char] = []
    boxes: list[tuple] = []
    for i in range(tp.count_chars()):
        if pdfium_c.FPDFText_IsGenerated(tp.raw, i) == 1:
            continue
        code = pdfium_c.FPDFText_GetUnicode(tp.raw, i)
        if not code or chr(code).isspace():
            continue
        left, bottom, right, top = tp.get_charbox(i)
        ox, oy = pdfium_c.c_double(), pdfium_c.c_double()
        pdfium_c.FPDFText_GetCharOrigin(tp.raw, i, ox, oy)
        size = pdfium_c.FPDFText_GetFontSize(tp.raw, i)
        chars.append(Char(chr(code), left, right, height - oy.value, round(size, 2)))
        boxes.append((round(left, 3), round(bottom, 3), round(right, 3), round(top, 3)))
    ligatures: list[tuple[int, str]] = []
    i = 0
    while i < len(chars):
        j = i + 1
        while j < len(chars) and boxes[j] == boxes[i] and chars[j].text.isalpha():
            j += 1
        if j - i > 1 and chars[i].text.isalpha():
            ligatures.append((i, "".join(c.text for c in chars[i:j])))
        i = j
    return chars, ligatures


def line_text(chars: list[Char]) -> str:
    """The squeezed text of some characters read line by line."""
    return "".join(squeeze(c.text) for line in lines(chars) for c in line)


def text_left_mm(printed_number: int | None) -> float:
    """The left edge of the text area: the inner margin on odd (right-hand) pages, the outer one
    on even (left-hand) pages; the title page (counted as page 1 by LaTeX) is a right-hand page."""
    odd = printed_number is None or printed_number % 2 == 1
    return MARGIN_MM["inner"] if odd else MARGIN_MM["outer"]


@dataclass
class Page:
    index: int  # PDF page index
    width: float
    height: float
    stream: list[tuple[str, int]]  # body text in reading order: (squeezed character, column)
    line_ends: list[tuple[int, str]]  # body lines ending in a hyphen: (stream position, char)
    firsts: dict[int, float]  # stream position of each body line's first character -> its left
    ligatures: list[str]  # the ligatures read back from the body (their letters)
    top: list[Char]  # furniture above the text area
    bottom: list[Char]  # furniture under it
    head: str  # the header as pdfium reads it, whitespace collapsed
    foot: str  # the footer as pdfium reads it


def read_pages(out: Path, first_page: int) -> list[Page]:
    """The PDF's pages: body text in reading order (left column, right column) with the column of
    each character, and the furniture in the margins."""
    import pypdfium2 as pdfium

    pages = []
    pdf = pdfium.PdfDocument(str(out))
    try:
        for index in range(len(pdf)):
            pg = pdf[index]
            width, height = pg.get_size()
            number = first_page + index - 1 if index else None
            middle = (text_left_mm(number) + TEXT_MM / 2) * MM
            top_edge = MARGIN_MM["top"] * MM - 1  # the header's baseline is above the text area
            foot_edge = (PAGE["h_mm"] - MARGIN_MM["bottom"]) * MM + 3  # the last baseline
            body: dict[int, list[Char]] = {1: [], 2: []}
            top, bottom = [], []
            tp = pg.get_textpage()
            head = band_text(tp, width, height, 0, top_edge)
            foot = band_text(tp, width, height, foot_edge, height)
            chars, ligs = page_chars(tp, height)
            for c in chars:
                if index and c.y < top_edge:
                    top.append(c)
                elif index and c.y > foot_edge:
                    bottom.append(c)
                elif index == 0:
                    body[1].append(c)  # the title page (one column)
                else:
                    body[1 if (c.left + c.right) / 2 < middle else 2].append(c)
            in_body = {id(c) for col in body.values() for c in col}
            stream: list[tuple[str, int]] = []
            ends: list[tuple[int, str]] = []
            firsts: dict[int, float] = {}
            for col in (1, 2):
                for line in lines(body[col]):
                    firsts[len(stream)] = line[0].left
                    for c in line:
                        stream += [(ch, col) for ch in squeeze(c.text)]
                    if index and line[-1].text in LINE_END_HYPHENS:
                        ends.append((len(stream), line[-1].text))
            body_ligs = [t for at, t in ligs if id(chars[at]) in in_body] if index else []
            pages.append(
                Page(index, width, height, stream, ends, firsts, body_ligs, top, bottom, head, foot)
            )
    finally:
        pdf.close()
    return pages


# ---------------------------------------------------------------- truth
def expected_items(book: dict) -> list[tuple[str, dict, str, str]]:
    """What the body of the PDF must say, in order: (kind, block, squeezed printed text, the
    printed text with its written hyphens, blanks removed)."""
    items = []
    for block, number in zip(book["blocks"], heading_numbers(book)):
        shown = printed(block["text"])
        if number:
            shown = f"{number} {shown}"
        if block["type"] == "box":
            shown = printed(block["title"]) + " " + shown
        kept = "".join(c for c in unicodedata.normalize("NFKC", shown) if not c.isspace())
        items.append((block["type"], block, squeeze(shown), kept))
    return items


def locate(book: dict, pages: list[Page]) -> tuple[list[list[tuple[int, int]]], int, list[int]]:
    """For every block of the book (headings included) the (PDF page, column) places its
    characters stand in, in order, each place once. The body text of the numbered pages must be
    exactly the blocks' printed texts one after another. Also counts the body lines that end in a
    hyphen TeX put in (not a hyphen the book writes there), and gives where each block starts in
    the whole body stream."""
    stream = [(ch, p.index, col) for p in pages[1:] for ch, col in p.stream]
    offsets, n = {}, 0
    for p in pages[1:]:
        offsets[p.index] = n
        n += len(p.stream)
    breaks = {offsets[p.index] + at for p in pages[1:] for at, _ in p.line_ends}
    return locate_stream(expected_items(book), stream, breaks, HYPHENS)


def check_title_page(book: dict, page: Page) -> None:
    """The title page shows the title and its lines and nothing else; no header, no footer."""
    got = "".join(ch for ch, _ in page.stream)
    want = squeeze(printed(book["title"]) + "".join(printed(x) for x in title_lines(book)))
    if got != want:
        raise ValueError(f"the title page reads {got!r},\n expected {want!r}")


def check_indents(book: dict, pages: list[Page], places: list, starts: list[int]) -> None:
    """Every paragraph's first line starts at the column's left edge (no indent: right after a
    heading) or one \\parindent (1 em, 10 pt) in from it."""
    flat = unindented_keys(book)
    offsets, n = {}, 0
    for p in pages[1:]:
        offsets[p.index] = n
        n += len(p.stream)
    for block, where, at in zip(book["blocks"], places, starts):
        if block["type"] != "paragraph":
            continue
        index, col = where[0]
        page = pages[index]
        left = page.firsts.get(at - offsets[index])
        if left is None:
            raise ValueError(f"paragraph {block['key']!r} does not start a line")
        number = int(book["first_page"]) + index - 1
        edge = (text_left_mm(number) + (col - 1) * (COLUMN_MM + GAP_MM)) * MM
        want = 0.0 if block["key"] in flat else BODY["size"] * BODY["parindent_em"] * PT
        if abs(left - edge - want) > 2.5:
            raise ValueError(
                f"paragraph {block['key']!r} starts {left - edge:.1f} pt into its column, "
                f"expected {want:.1f}"
            )


def split_header(chars: list[Char]) -> list[list[Char]]:
    """A header line's characters in its groups (the widest gap splits the two corners)."""
    if not chars:
        return []
    row = sorted(chars, key=lambda c: c.left)
    gaps = [(row[i + 1].left - row[i].right, i) for i in range(len(row) - 1)]
    widest = max(gaps, default=(0, 0))
    if widest[0] < 30:
        return [row]
    return [row[: widest[1] + 1], row[widest[1] + 1 :]]


def furniture(book: dict, pages: list[Page], numbers: list, chapter_of: dict) -> tuple:
    """Every numbered page's header and footer as printed, checked against what was asked for:
    the running header in the outer corner and the chapter in the inner one, over a rule; the
    page number centred at the foot."""
    headers, footers = [], []
    running = printed(book["running_header"])
    for p in pages[1:]:
        num = numbers[p.index]
        odd = num % 2 == 1
        left = text_left_mm(num) * MM
        right = left + TEXT_MM * MM
        chapter = chapter_of[p.index]
        groups = split_header(p.top)
        want = {"outer": running, "inner": printed(chapter) if chapter else None}
        got: dict[str, str] = {}
        for g in groups:
            at_left = abs(g[0].left - left) < 3
            at_right = abs(g[-1].right - right) < 3
            if not (at_left or at_right):
                raise ValueError(f"PDF page {p.index}: header group {p.head!r} not in a corner")
            corner = "outer" if at_right == odd else "inner"
            got[corner] = line_text(g)
        for corner, text in want.items():
            if (text and got.get(corner) != squeeze(text)) or (not text and corner in got):
                raise ValueError(
                    f"PDF page {p.index}: header {p.head!r}, expected {text!r} in the {corner} "
                    f"corner of a {'right' if odd else 'left'}-hand page"
                )
        shown = str(num)
        if line_text(p.bottom) != squeeze(shown):
            raise ValueError(f"PDF page {p.index}: footer {p.foot!r}, expected {shown!r}")
        mid = (left + right) / 2
        if not all(abs((c.left + c.right) / 2 - mid) < 12 for c in p.bottom):
            raise ValueError(f"PDF page {p.index}: the page number is not centred")
        outer, inner = ("right", "left") if odd else ("left", "right")
        headers.append(dict(page=num, pdf_page_index=p.index, hand="right" if odd else "left",
                            text=book["running_header"], running_header_printed=running,
                            running_header_side=outer, chapter=chapter, chapter_side=inner,
                            left=running if outer == "left" else chapter,
                            right=running if outer == "right" else chapter,
                            position="top", slanted=True, rule_below=True,
                            chapter_rule="the first chapter heading on the page, else the "
                                         "chapter in force at its top"))  # fmt: skip
        footers.append(dict(page=num, pdf_page_index=p.index, number=shown, text=shown,
                            corner="centre", position="bottom"))  # fmt: skip
    return headers, footers


def build_truth(book: dict, pages: list[Page], runs: int) -> dict:
    """The ground truth (make_pdf.py's format plus this layout's keys) of a laid-out book."""
    if len(pages) < 2:
        raise ValueError("the PDF has no numbered page")
    first = int(book["first_page"])
    numbers: list = [None] + [first + i - 1 for i in range(1, len(pages))]
    places, made_hyphens, starts = locate(book, pages)
    check_title_page(book, pages[0])
    check_indents(book, pages, places, starts)
    flat = unindented_keys(book)
    headings, blocks, path, openings = [], [], [], []
    for block, where, number in zip(book["blocks"], places, heading_numbers(book)):
        (index, col), rest = where[0], where[1:]
        at = {"page": numbers[index], "pdf_page_index": index, "column": col}
        if block["type"] == "heading":
            lvl = int(block["level"])
            path = path[: lvl - 1] + [block["text"]]
            entry = {"level": lvl, "text": block["text"], **at}
            if number:
                entry.update(number=number, printed_as=f"{number} {printed(block['text'])}")
            else:
                entry.update(numbered=False, bold_italic=True)
            if lvl == 1:
                entry["new_page"] = False
                openings.append({"chapter": block["text"], "number": number,
                                 "page": numbers[index], "pdf_page_index": index,
                                 "column": col})  # fmt: skip
            if rest:
                entry["continues"] = [{"page": numbers[i], "pdf_page_index": i, "column": c}
                                      for i, c in rest]  # fmt: skip
            headings.append(entry)
            continue
        row = block_row(block, path)
        shown = printed(block["text"])
        if shown != row["plain_text"]:  # icons as symbols, TeX's curly quotes
            row["printed_text"] = shown
        if block["type"] == "paragraph" and block["key"] in flat:
            row["indent"] = False
        if block["type"] == "box":
            row.update(frame="fcolorbox", unsplit=True, printed_title=printed(block["title"]))
        extra = sorted(set(block) - SET_FIELDS)
        if extra:
            row["fields_not_set"] = extra
        row.update(at, continues=[{"page": numbers[i], "pdf_page_index": i, "column": c}
                                  for i, c in rest])  # fmt: skip
        row["split"] = None if not rest else "page" if rest[-1][0] != index else "column"
        if block["type"] == "box" and row["split"]:
            raise ValueError(f"box {block['key']!r} was split, which this layout never does")
        blocks.append(row)
    # TeX's \rightmark: the first chapter heading on the page, else the chapter in force.
    chapter_of: dict[int, str | None] = {}
    for p in range(1, len(pages)):
        on = [o for o in openings if o["pdf_page_index"] == p]
        before = [o for o in openings if o["pdf_page_index"] < p]
        chapter_of[p] = (on[0] if on else before[-1])["chapter"] if on or before else None
    headers, footers = furniture(book, pages, numbers, chapter_of)
    if not made_hyphens:
        raise ValueError("no line of the body ends in TeX's hyphen: is hyphenation on?")
    ligs = [t for p in pages for t in p.ligatures]
    kinds = {t: ligs.count(t) for t in sorted(set(ligs))}
    m = MARGIN_MM
    return {
        "title": book["title"],
        "game": book["game"],
        "style": "latex",
        "running_header": book["running_header"],
        "first_page": first,
        "first_chapter": int(book.get("first_chapter", 1)),
        "pages": len(pages),
        "printed_pages": [numbers[1], numbers[-1]],
        "icons": {
            k: {
                "char": v,
                "codepoint": f"U+{ord(v):04X}",
                "font": f"{ICON_TFM[ICON_GLYPHS[k][1]]} (TeX Live amsfonts Type 1)",
                "glyph": ICON_GLYPHS[k][3],
                "looks_like": ICON_GLYPHS[k][4],
                "read_back": v,
                "mapping": "\\pdfglyphtounicode (tfm:font/glyph)",
            }
            for k, v in ICONS.items()
        },  # fmt: skip
        "icon_note": "no ZapfDingbats for pdflatex here: each icon is a math-font symbol that looks "
        "like the dingbat, given the icon's Unicode symbol in the PDF's ToUnicode map",
        "headings": headings,
        "blocks": blocks,
        "engine": {
            "name": "pdfTeX (LaTeX)",
            "version": pdflatex_version(),
            "via": "pdflatex -interaction=nonstopmode -halt-on-error (article class)",
            "runs": runs,
            "packages": [
                "fontenc (T1)",
                "lmodern",
                "babel (english)",
                "xcolor",
                "geometry",
                "fancyhdr",
            ],
            "features": [
                "twocolumn class option (columns not balanced on the last page)",
                "titlepage environment, then \\setcounter{page}{first_page}",
                "\\section / \\subsection numbered from first_chapter, \\subsubsection* bold italic",
                "fancyhdr header with \\rightmark (chapter) and a centred \\thepage footer",
                "TeX hyphenation (US English patterns) and justification",
                "\\fcolorbox around a \\parbox for boxes (unbreakable)",
                "\\pdfglyphtounicode for the icon glyphs",
            ],
        },  # fmt: skip
        "title_page": {
            "pdf_page_index": 0,
            "printed_number": None,
            "title": book["title"],
            "lines": title_lines(book),
            "printed_lines": [printed(x) for x in title_lines(book)],
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
        "mirrored_margins": True,
        "text_left_pt": {
            "right_hand_pages (odd)": round(m["inner"] * MM, 2),
            "left_hand_pages (even)": round(m["outer"] * MM, 2),
        },
        "text_area_pt": {
            "top": round(m["top"] * MM, 2),
            "bottom": round((PAGE["h_mm"] - m["bottom"]) * MM, 2),
        },
        "column_width_pt": round(COLUMN_MM * MM, 2),
        "column_gap_pt": round(GAP_MM * MM, 2),
        "column_rule": None,
        "columns": 2,
        "columns_balanced_on_last_page": False,
        "body_font": {
            "name": BODY["family"],
            "size": BODY["size"],
            "leading": BODY["leading"],
            "encoding": "T1",
        },  # fmt: skip
        "heading_fonts": {
            "1": {
                "name": "Latin Modern Roman Bold",
                "size": H1_SIZE,
                "numbered": True,
                "command": "\\section",
            },
            "2": {
                "name": "Latin Modern Roman Bold",
                "size": H2_SIZE,
                "numbered": "chapter.section",
                "command": "\\subsection",
            },
            "3": {
                "name": "Latin Modern Roman Bold Italic",
                "size": BODY["size"],
                "numbered": False,
                "run_in": False,
                "command": "\\subsubsection*",
            },
        },  # fmt: skip
        "keyword_style": "bold",
        "quotation_marks": "TeX's curly quotes (straight quotes written in the book are printed "
        "as opening/closing curly quotes; see printed_text)",
        "ligatures_read_back": {
            "count": len(ligs),
            "kinds": kinds,
            "returned_as": "separate letters sharing the ligature glyph's box (no U+FB00..FB04)",
        },
        "box": {
            "kind": "\\fcolorbox around a \\parbox as wide as the column",
            "font": BODY["family"],
            "size": BOX_SIZE,
            "leading": BOX_LEADING,
            "title_font": "Latin Modern Roman Bold (ragged right)",
            "frame": BOX_FRAME,
            "fill": BOX_FILL,
            "may_split": False,
        },  # fmt: skip
        "paragraph_indent": {
            "kind": "first-line",
            "em": BODY["parindent_em"],
            "none_after": ["heading"],
            "block_paragraphs": False,
        },  # fmt: skip
        "hyphenation": {
            "method": "TeX hyphenation (babel english: US English patterns)",
            "hyphen_char": "the font's hyphen; pdfium returns it as U+0002 at a line end",
            "justified": True,
            "line_end_hyphens": made_hyphens,
        },  # fmt: skip
        "page_headers": headers,
        "page_footers": footers,
    }


# ---------------------------------------------------------------- public API
def build_latex_pdf(book: dict, out_pdf_path) -> dict:
    """Lay out a book given as a dict (the parsed YAML) with pdflatex; returns the ground truth
    (also written beside the PDF as <stem>.truth.json)."""
    out = Path(out_pdf_path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".truth.json").unlink(missing_ok=True)
    runs = lay_out(book_tex(book), out)
    truth = build_truth(book, read_pages(out, int(book["first_page"])), runs)
    truth["engine"].update(pdf_metadata(out))
    return write_truth(out, truth)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__)
        return 2
    book = yaml.safe_load(Path(argv[0]).read_text())
    t = build_latex_pdf(book, argv[1])
    splits = sorted({b["split"] for b in t["blocks"] if b["split"]})
    print(f"{argv[1]}: style {t['style']}, {t['pages']} pages (printed {t['printed_pages']}), "
          f"{len(t['blocks'])} blocks, splits: {splits}, "
          f"hyphens: {t['hyphenation']['line_end_hyphens']}, "
          f"ligatures: {t['ligatures_read_back']['count']}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
