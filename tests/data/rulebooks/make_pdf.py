"""Lay a test rulebook (tests/data/rulebooks/*.yaml) out as a realistic PDF.

Test-data generator for the future ``rulings import FILE.pdf`` feature. The
PDF looks like a printed rulebook: A4, two justified columns, words
hyphenated at line ends, a running header line, a printed page number that
starts at the book's ``first_page`` (so printed page != PDF page index),
larger bold headings, shaded/bordered boxes for examples and sidebars,
paragraphs that run across column and page breaks, and game icons drawn
inline from a symbol font (ZapfDingbats).

Styles "a" to "g" were made for books of two heading levels; a book with level-3 headings
(the later books) sets them there in the oblique of the style's section-heading font, at the
body's size or the section heading's where that is smaller (so that every book can be laid
out in every style: the bench's pairs of a book and a style, most of them never read before).

Beside the PDF it writes the ground truth, ``<name>.truth.json``: for every
paragraph and box its key, the printed page (and PDF page index, column) where
it starts, the pages/columns it continues on, its section heading path and its
text as written, so a test can score an extractor.

    make_pdf(book_yaml_path, out_pdf_path, style=None)   # None: book's layout_style or "a"
    python make_pdf.py BOOK.yaml OUT.pdf [--style=a|b|...|r|s|browser|typst|weasy|office|latex]
    python make_pdf.py --all OUTDIR                      # the twenty books, each in its own style

Style "browser" (used only by twentyfirst.yaml) is not drawn here: build_pdf hands such a book to
browser_pdf.py beside this file, a second, independent generator that sets the book as HTML + CSS
and prints it with headless Chromium (through playwright), then writes the same truth format read
back from the PDF. It is not in STYLES and not in BOOKS, so code that loops over those never starts
a browser; this module imports browser_pdf only when that style is asked for.

Style "typst" (used only by twentysecond.yaml) is not drawn here either: build_pdf hands such a book
to typst_pdf.py beside this file, a third, independent generator that writes the book as Typst markup
and typesets it with the Typst engine (the PyPI package typst), then writes the same truth format
read back from the PDF. Like "browser" it is not in STYLES and not in BOOKS; this module imports
typst_pdf only when that style is asked for.

Style "weasy" (used only by twentythird.yaml) is not drawn here either: build_pdf hands such a book
to weasy_pdf.py beside this file, a fourth, independent generator that writes the book as HTML with
a CSS paged-media style sheet and lays it out with WeasyPrint (the PyPI package weasyprint), then
writes the same truth format read back from the PDF. Like "browser" and "typst" it is not in STYLES
and not in BOOKS; this module imports weasy_pdf only when that style is asked for.

Style "office" (used only by twentyfourth.yaml) is not drawn here either: build_pdf hands such a
book to office_pdf.py beside this file, a fifth, independent generator that writes the book as a
Flat ODT document (LibreOffice Writer's XML) and has LibreOffice Writer lay it out and export the
PDF (`soffice --headless --convert-to pdf`, a system program), then writes the same truth format
read back from the PDF. Like "browser", "typst" and "weasy" it is not in STYLES and not in BOOKS;
this module imports office_pdf only when that style is asked for.

Style "latex" (used by no book's `layout_style`: any book can be laid out in it with
--style=latex) is not drawn here either: build_pdf hands such a book to latex_pdf.py beside this
file, a sixth, independent generator that writes the book as a LaTeX source file (the article class
in two columns) and has pdflatex (TeX Live, a system program) typeset it, then writes the same truth
format read back from the PDF. Like "browser", "typst", "weasy" and "office" it is not in STYLES and
not in BOOKS; this module imports latex_pdf only when that style is asked for.

Style "c" (used only by untuned.yaml, laid out after the extractor was tuned on
"a" and "b") follows other printed-book habits: mirrored margins (wider inner
margin, so column positions differ between left and right pages), a narrow
gutter with a thin column rule, a top running header with the book's short
title on the left and the current chapter on the right, the page number in a
filled tab at the bottom outer corner, spaced paragraphs without indent and
boxes with a coloured border, light fill and bold title. Its truth JSON also
lists the running header text of every page ("page_headers").

Style "d" (used only by fresh.yaml, made after the extractor was tuned on "a", "b" and
"c", and apart from it) follows yet other habits of printed rulebooks: a serif body
(Times 10 pt) whose section headings are bold small capitals at the body's own size,
set off only by extra space above, while chapter headings are larger; no header at
all but a running footer line with the book title on the left and the page number on
the right of every page; narrow outer margins and a wide gutter without a rule;
paragraphs with a first-line indent and no space between them (the first paragraph
after a heading is not indented); boxes with a thick bar on the left only and a light
fill, no frame. Its truth JSON lists every page's footer ("page_footers") and marks
small-capital headings ("small_caps").

Style "e" (used only by unseen.yaml, made by someone who never read the extractor's code,
for a score measured once) follows yet other habits: US Letter instead of A4; a body in
an embedded TrueType sans (Bitstream Vera, which ships inside reportlab, so no system font
is needed) at 8.8 pt, justified and hyphenated; two UNEQUAL columns (the left one 44% of
the text width) with a thin rule in the middle of a wide gutter; chapter headings in white
on a full-column coloured band, section headings in a rust-coloured bold; paragraphs with
a first-line indent and a little space, no indent after a heading; boxes with a tinted
body and a darker title strip in white, no frame, as wide as the column they land in;
no header line but the current chapter in the top outer corner (drawn after the page's
text) and, at the foot, the running header beside the page number printed as "— 57 —",
both in the outer corner (right on odd pages, left on even ones; drawn before the text).
Its truth JSON lists every page's corner chapter ("page_headers") and foot
("page_footers").

Style "f" (used only by novel.yaml, written by someone who read neither the reader's code nor
its tests' expectations, for a score measured once) follows yet other habits: pages of
210 x 270 mm; a first page with the title across the top and THREE columns under it, later
pages in two equal columns, all with a narrow gutter (4.2 mm) and no rule; a serif body
(Times 9.7 pt) set ragged right, still hyphenated at line ends, paragraphs without indent set
apart by a gap; chapter headings in a large serif italic over a thin rule; section (level-2)
headings RUN IN: a bold sans head ending in a full stop at the start of the first line of its
paragraph, the paragraph going on after it on the same line (a level-2 heading not followed by
a paragraph stands alone). In the truth the run-in heading is still a heading and a section:
it is listed in "headings" (with "run_in": true, "printed_as": the head with its full stop, and
the page and column where its paragraph starts); the paragraph's "plain_text" is its text
WITHOUT the head (the block records the head as "run_in_heading") and its "section_path" ends
with the heading's text (no full stop). Boxes have no fill, a thick rule above and a thin one
below, their text in a small sans. No footer: the running header is centred on top in
letter-spaced small capitals, the page number white in a filled circle in the top outer corner
(both drawn before the text). A box marked `place: page-foot` is not in the columns but set in
small type across the foot of the page where the block before it ends (drawn after the text,
under a short rule; the columns of that page are shortened): its truth block has "column": 0 and
"placement": "page-foot". The truth JSON lists every page's header ("page_headers"), the
columns per page and their widths.

Style "g" (used only by blind.yaml, written by someone who read neither the reader's code nor its
tests, for a score measured once) follows yet other habits: A4 with mirrored margins (inner 21 mm,
outer 14 mm; odd printed pages are right-hand pages); a first page opened by a full-bleed coloured
band with the book title in white sans, then ONE full-width introduction in a larger serif italic
(the book's first block when it is marked `place: intro`; a thin rule under it), then two equal
columns in a 7 mm unruled gutter, as on every later page; a serif body (Times 10.5 pt) justified
and hyphenated, paragraphs with a first-line indent and no space between them (no indent right
after a heading); NUMBERED sans headings in teal, chapters ("9 Shields", larger, under a short
thick gold bar) counted from the book's `first_chapter` (default 1) and sections ("9.1 Adding
Shields Together"); the first paragraph right after a chapter heading opens with its first four
words in small capitals (so they are printed in capitals); boxes as wide as their column in a thin
rounded frame on a pale fill, their title in sans CAPITALS and their text in a small sans; no
header on the first page, on later pages the running header in the top INNER corner (left on odd
pages, right on even ones) over a hairline; at the foot, centred on every page, the chapter in
effect at the top of the page beside the page number printed as "Page 141" ("Shields | Page 142");
header and foot are drawn after the page's text. In the truth a heading keeps its text as written
and adds "number" and "printed_as" (number and text); the introduction has "column": 0 and
"placement": "full-width" and an empty section; a paragraph opening in small capitals records
"small_caps_lead" (the words as written) and "printed_lead" (as printed); a box records
"printed_title". "plain_text" stays the text as written (case included). The truth JSON lists every
page's header ("page_headers", text null on the first page) and foot ("page_footers").

Style "h" (used only by sealed.yaml, written by someone who read neither the reader's code nor its
tests, for a score measured once) follows yet other habits: SQUARE pages of 230 x 230 mm; the book
title in a large crimson serif over a double rule across the first page, then two equal columns in
a 9 mm unruled gutter on every page; a sans body (the embedded Vera at 9.3 pt) set ragged right and
hyphenated at line ends, paragraphs without indent set apart by a gap; chapter headings in a
crimson serif led by their NUMBER WHITE IN A FILLED CIRCLE, counted from the book's `first_chapter`
(default 1); section headings in a crimson serif italic after a "§" mark, over a thin rule as wide
as the column; a paragraph marked `bullet: true` is one item of a bulleted list, set with a crimson
bullet and a hanging indent (each item is its own block); boxes as wide as their column with the
title in white serif on a crimson header strip and the text in a smaller sans inside a DASHED
border; no header at all, but at the foot of every page, under a crimson rule, the running header
in the INNER corner (left on odd, right-hand pages) and the page number in the OUTER corner (drawn
after the page's text). In the truth a chapter heading adds "number" and "printed_as" ("5 Random
Dungeons"), a section heading "printed_as" ("§ Room Cards"); a bulleted item is a "paragraph"
block with "list_item": true and "bullet" (the printed mark, not part of "plain_text"). The truth
JSON lists every page's foot ("page_footers": running header and its corner, number and its corner).

Style "i" (used only by tenth.yaml, written by someone who read neither the reader's code nor its
tests, for a score measured once) follows yet other habits: small A5 pages (148 x 210 mm); the book
title in a large sans over a thick coloured rule on the first page, then two equal columns in a 5 mm
unruled gutter on every page; a sans body (Helvetica 8.5 pt) justified and hyphenated, paragraphs
without indent set apart by a small gap; chapter headings in bold CAPITALS, LETTER-SPACED, beside a
coloured tab on the column's left edge and over a thin rule, the chapter's first paragraph (when
it opens with a word of two or more letters and no bold lead term) opened by a DROP CAP three lines
high in a coloured serif, the text of those lines set beside it; section headings in a coloured bold
sans, UNDERLINED, after a small ornament glyph (ZapfDingbats); a paragraph marked `step: true` is
one NUMBERED STEP ("1.", "2.", ... counted afresh after any heading or block that is not a step),
set with a hanging indent, each step its own block; boxes as wide as their column on a pale fill
in a thin frame under a thick coloured top rule, the title in a serif bold italic and the text in
a small serif; the box marked `place: span` is set ACROSS BOTH COLUMNS in the middle of the page
where the block before it ends, the two columns above it balanced (they are read first), the
columns going on under it; no footer, but a running header on top of every page (drawn after the
page's text) over a hairline: the chapter in effect at the top of the page on the left, the book's
running header on the right, and the page number printed as "p. 24" in the OUTER corner (before the
chapter on even, left-hand pages, after the book's name on odd ones). In the truth a chapter
heading adds "printed_as" (its text in capitals) and "letter_spaced"; a section heading adds
"underlined" and "marker" (the ornament glyph, not part of its text); a chapter's first paragraph
with a drop cap records "drop_cap" (the big letter; "plain_text" still starts with it); a step is a
"paragraph" block with "list_item": true and "number" ("2.", not part of "plain_text"); the spanning
box has "column": 0 and "placement": "span", and a block (or a "continues" entry) that starts in
the columns under it keeps its column (1 or 2) and adds "below_span": true. The truth JSON lists
every page's header ("page_headers": chapter, book, number and its corner) and the spanning box
("span_box": its key, its page and the height of the balanced columns above it).

Style "j" (used only by eleventh.yaml, written by someone who read neither the reader's code nor
its tests, for a score measured once) follows yet other habits: B5 pages (176 x 250 mm) with
mirrored margins (inner 17 mm, outer 13 mm; odd printed pages are right-hand pages); the book title
in a large coloured sans across the first page, then two equal unruled columns in a 6 mm gutter;
a sans body (the embedded Vera at 9.5 pt on 13 pt leading) justified and hyphenated, paragraphs with
a first-line indent and a small gap (no indent right after a heading); chapter and section headings
in a coloured sans under a thin rule drawn ABOVE them (thicker for chapters) as wide as the column,
LEVEL-3 headings in bold italic at the body's size; a heading is never left at a column's foot
without two or three lines of its text, but the text may run on into the next column; a paragraph
marked `step: true` is one LETTERED step ("a)", "b)", ... counted afresh after any heading or block
that is not a step) with a hanging indent; a paragraph with a `term` is one GLOSSARY item printed
"Term — definition" (the term bold in the style's colour) with a hanging indent, each item its own
block; boxes as wide as their column on a light fill over a coloured rule at their foot, the title
in coloured SMALL CAPITALS and the text smaller; a box marked `place: margin` is a TIP: not in the
columns but set in small italics, led by its title and a colon in bold ("Tip: ..."), in a slim
THIRD column at the page's outer edge beside a hairline (drawn after the text), on the page where
the block before it ends; the two text columns of such a page are narrower (the book is laid out
again until every tip sits on the page of the block before it); no header line, but the chapter
in effect at the top of the page in bold capitals in the top OUTER corner (drawn after the text),
and at the foot, in the bottom INNER corner over a short rule, the page number beside the running
header (drawn before the text). In the truth a chapter or section heading adds "rule_above" and a
level-3 heading "bold_italic"; a step is a "paragraph" block with "list_item": true and "number"
("b)", not part of "plain_text"); a glossary item is a "paragraph" block with "definition": true,
"term" and "printed_lead" ("Window —"), "plain_text" being the definition WITHOUT the term; a box
records "printed_title" (its title in capitals, as the small capitals print it) and
"small_caps_title"; a tip is a "box" block with "column": 0, "placement": "margin" and
"printed_title" ("Tip:"). The truth JSON lists every page's corner chapter ("page_headers", text
and corner) and foot ("page_footers": number, running header and their corner), the column widths
with and without the tip column and the pages that carry tips ("tip_column").

Style "k" (used only by twelfth.yaml, written by someone who read neither the reader's code nor
its tests, for a score measured once) follows yet other habits: LANDSCAPE pages of 250 x 176 mm;
the book title (one or two lines) in a large coloured sans over a thick rule across the first page,
then two wide equal unruled columns in a 9 mm gutter; a serif body (Times 10.4 pt) justified and
hyphenated, paragraphs with a first-line indent and no gap (no indent right after a heading);
KEYWORDS inside sentences (written `*like this*` in the book) printed bold in the style's colour;
chapter headings in a large coloured sans, section headings in a smaller one, level-3 headings in a
serif bold italic; a paragraph marked `flavour: true` (a chapter's opening) is printed as FLAVOUR
TEXT: in grey italics, indented on both sides and inside curly quotation marks; boxes as wide as
their column on a pale fill under a thick coloured rule, the title in a coloured sans and the text in
a smaller sans, and a box that does not fit SPLITS across columns and pages, the rest going on at
the top of the next column under its title followed by "(continued)"; a paragraph marked `place:
footnote` is the FOOTNOTE of the paragraph before it, which ends in a superscript marker ("1", "2",
... counted through the book): the footnote is set in small type, led by its marker, under a short
rule at the foot of the column where that paragraph ends, the column being shortened (the book is
laid out again until every footnote sits under the column where its paragraph ends; a column foot
once kept free for a footnote stays free, so a column may end a little short); on top of every
page, drawn before the text over a thin rule across the page, the page number in the top INNER
corner (left on odd, right-hand pages) and the running header in the outer one (no running header on
the first page); at the foot, drawn after the text, the chapter in effect at the top of the page
centred in italics and, under the second column of a page whose last block runs on to the next
page, the note "continued overleaf". In the truth a keyword-bearing block lists its "keywords" (as
written; "text" and "plain_text" are without the asterisks); a flavour paragraph has "flavour":
true and "printed_as" (its text inside the quotation marks); a paragraph with a footnote records
its "footnote_marker" (not part of "plain_text"); a footnote is a "paragraph" block with "column":
0, "placement": "footnote", "marker", "anchor" (the key of its paragraph) and "foot_of_column" (1
or 2); a box that split adds "printed_continued_title". The truth JSON lists every page's header
("page_headers": number and its corner, running header and its corner), every page's foot
("page_footers": the chapter, its position and the "continued_note" or null), the footnotes
("footnotes": key, marker, anchor, page and column), the page size and orientation and the column
width.

Style "l" (used only by thirteenth.yaml, written by someone who read neither the reader's code nor
its tests, for a score measured once) follows yet other habits: pages of 8 x 10 INCHES printed on
TINTED paper (a pale cream over the whole page, drawn before the text); the book title in a large
coloured serif over a rule across the first page, then two equal unruled columns in a 7 mm gutter;
a serif body (Times 10.2 pt on 13.2 pt) justified and hyphenated, paragraphs with a first-line
indent and no gap (no indent right after a heading); chapter headings in a large coloured sans over
a thin rule as wide as the column, section headings in a smaller coloured sans, level-3 headings in
a serif bold italic; THUMB TABS: at the outer edge of every page (right on odd, right-hand pages),
bleeding off it, a coloured tab with the NUMBER of the chapter in effect at the top of the page in
white, lower on the page for every later chapter (chapters counted from the book's `first_chapter`,
default 1; the number is printed only on the tab, never in the heading); a paragraph marked `faq: q`
or `faq: a` is one half of a QUESTION-AND-ANSWER pair, printed after a hanging coloured bold "Q:" or
"A:" (the question in italics), each half its own block; boxes are WHITE PANELS on the tinted page in
a thin coloured frame, as wide as their column, the title in a coloured sans and the text in a
smaller sans, and a box with `header` and `rows` holds a TWO-COLUMN TABLE OF VALUES under its text
(a coloured bold header row, thin rules between the rows); a box marked `place: inset` is a sidebar
set in a NARROWER MEASURE, standing in from both sides of its column, on no fill beside a thick
coloured bar, its text in a small sans italic; a paragraph marked `figure: true` is WRAPPED AROUND A
PICTURE: a drawn panel without text (a hex tile with a figure) at the right of its first lines,
which are shortened to run beside it; on top of every page but the first, drawn after the text over
a hairline, the running header centred in italics; at the foot, over a hairline, the page number in
the OUTER corner and the chapter in effect at the top of the page in italics in the INNER one. In
the truth a chapter heading adds "tab_number"; a question or an answer is a "paragraph" block with
"faq" ("question" or "answer") and "printed_lead" ("Q:" or "A:", not part of "plain_text"); a box
with a table adds "table" ("header" and "rows" as written) and its "plain_text" is its text followed
by the table's cells row by row (header first), separated by spaces; an inset sidebar is a "box"
block that keeps its column and adds "placement": "inset" and "indent_pt" (on each side); a
paragraph beside a picture adds "wraps_figure" (side and size). The truth JSON lists every page's
header ("page_headers": text, null on the first page, and position), foot ("page_footers": number
and its corner, chapter and its corner) and thumb tab ("page_tabs": number, chapter, edge and the
tab's top in points from the page's top), the pictures ("figures": key, page, column, side and
size), the page size, the paper tint and the column width.

Style "m" (used only by fourteenth.yaml, written by someone who read neither the reader's code nor
its tests, for a score measured once) follows yet other habits: pages of 200 x 265 mm; the book
title in a large dark serif across the top of the first page, then two equal unruled columns in a
7 mm gutter; a serif body in an embedded TrueType face from the system's fonts-dejavu (DejaVu Serif
Condensed 9.6 pt on 13.4 pt) justified and hyphenated, paragraphs without indent set apart by a
small gap; NUMBERED RULE PARAGRAPHS: every paragraph carries a rule number ("6.3": the chapter's
number, counted from the book's `first_chapter` (default 1), then the paragraph's place in its
chapter; boxes are not numbered) in a small coloured bold sans hanging in a lane at the column's
left, the text set beside it; every chapter OPENS A NEW PAGE (the columns of the page before may end
short) under a dark BAND ACROSS THE WHOLE PAGE, bleeding off both edges, with "CHAPTER 6"
letter-spaced in a light colour over the chapter's title REVERSED OUT in white; section headings in
a serif bold italic CENTRED over the column between two thin rules; level-3 headings in a coloured
bold sans over the text beside the lane; boxes as wide as their column on a pale fill in a thin frame
with CUT CORNERS, their title set INTO the frame's top edge (the line broken behind it) and their
text in a small sans; a paragraph with `see` (keys of other paragraphs) ENDS WITH A
CROSS-REFERENCE line in coloured italics, "See also 6.7 (p. 247).", naming each one's rule number
and the printed page where it starts (the book is laid out again until those pages settle); one
PULL QUOTE: the sentence given as `pull_quote` of a block (it must occur in the block's text) is
repeated in large italics between two thick rules in a box STRADDLING THE GUTTER half-way down a
page where that block is printed (the first such page that does not open a chapter), the two
columns narrowed on the gutter's side beside it so that their lines run around it (the text goes on
from above the quote to beside it to under it within each column; drawn after the text); on top,
drawn after the text over a hairline, the running header in italics in the OUTER corner and the
chapter in effect at the top of the page in the INNER one, but nothing on a page that opens a
chapter; at the foot of every page the page number white in a dark HEXAGON centred between two
coloured rules. In the truth a chapter heading has "column": 0, "placement": "band", "number" (as
printed in the label), "band_label" ("CHAPTER 6") and "reversed": true; a section heading adds
"centred" and "rules_beside"; a paragraph records its "rule_number" ("6.3", not part of
"plain_text") and, when it has a cross-reference line, "see_also" ("printed": the line as printed,
not part of "plain_text"; "targets": key, rule number and page of each); a box adds
"title_on_frame"; a block with lines beside the pull quote adds "beside_pull_quote", and lines above,
beside and under the quote in one column of one page count as one place (no "continues" entry). The
pull quote is NOT a block: it is listed only in "pull_quotes" (its text, "repeats": the key of the
block whose text holds it, "not_a_block": true, page, PDF page index, "straddles": "gutter", font,
size and "bbox_pt": left, top, right and bottom in points from the page's top-left corner); a reader
should keep it out of the blocks. The truth JSON also lists every page's header ("page_headers":
text and corner, chapter and corner, all null on a chapter's opening page), foot ("page_footers":
number, position and shape), the chapter openings ("chapter_openings": chapter, number, page), the
body font, the page size, the column width and the width of the rule-number lane.

Style "n" (used only by fifteenth.yaml, written by someone who read neither the reader's code nor
its tests, for a score measured once) follows yet other habits: pages of 225 x 290 mm with mirrored
margins (outer 25 mm, inner 15 mm; odd printed pages are right-hand pages); the book title in a
large coloured sans over a thick rule across the first page, then two equal unruled columns in a
7 mm gutter, each with a SIDE-HEAD LANE (22 mm) at its left that holds no body text; a serif body
(Times 10.2 pt on 13.4 pt) justified and hyphenated in the measure beside the lane, paragraphs
without indent; between two paragraphs of the same section (nothing else between them) a small
centred ORNAMENT glyph (ZapfDingbats) in the measure instead of space, left out for a plain 4 pt
gap when the column has too little room for it and two lines; chapter headings in a large coloured
sans over a thin rule across the whole column (lane included); section (level-2) headings as SIDE
HEADS: a small coloured bold sans, several lines, flush right in the lane, their first baseline
level with the first line of the paragraph beside them (they take no height in the column; a side
head moves on to the next column when fewer than three lines are left); level-3 headings in a serif
bold italic over the measure; boxes in the measure on a pale fill beside a thick HALF-TONE bar (the
style's colour screened to 45 %), their text in a small sans, their TITLE NOT IN THE BOX but in the
lane beside it, flush right in a coloured sans bold oblique; a paragraph marked `callout: true`
holds a sentence beginning "Important:" that is printed from there to the paragraph's end on a line
of its own in BOLD RED sans (still inside the paragraph, no gap before it); no header or footer
line, but along the OUTER edge of every page (left on even, right on odd printed pages), ROTATED 90
degrees to read from bottom to top and drawn after the text, the page number in bold near the foot,
a short rule, the running header in italics and, ending at the top margin, the chapter in effect at
the top of the page. In the truth a chapter heading adds "rule_below"; a section heading adds
"placement": "side-head" and "align": "right" (its page and column are those of the paragraph
beside it); a level-3 heading adds "bold_italic"; a box adds "title_placement": "lane" and "bar":
"half-tone"; a paragraph with a callout adds "callout" ("printed_as": the callout as printed,
"lead": "Important:", "own_line", font and colour; "plain_text" keeps the whole text as written).
The ornaments are NOT blocks: the truth lists them in "ornaments" (the keys of the two paragraphs
"between" which each stands, "printed" (false when left out), page, PDF page index and column)
and the glyph in "ornament". The truth JSON also lists every page's rotated edge header
("page_headers": edge, rotation, reading direction, number, running header and chapter;
"page_footers" is empty), the page size, the margins, the column width, the lane's width and the
measure.

Style "o" (used only by sixteenth.yaml, written by someone who read neither the reader's code nor
its tests, for a score measured once) follows yet other habits: pages of 190 x 260 mm with mirrored
margins (inner 19 mm, outer 13 mm; odd printed pages are right-hand pages); the book title in a
large coloured sans across the first page over a CONTENTS PANEL (a pale fill beside a coloured bar,
each chapter's number, title, a dotted leader and the printed page where it begins); two UNEQUAL
unruled columns in a 6 mm gutter, the narrow one (40 % of the two) on the INSIDE of the spread, so
that it is the left column on odd, right-hand pages and the right column on even ones (the left
column is read first on every page); a sans body (Helvetica 10 pt on 13.9 pt) justified and
hyphenated, paragraphs with a first-line indent and no gap (no indent after a heading or a box), KEY
TERMS inside sentences (written `*like this*` in the book) in the body's bold; a paragraph starts at
a column's foot only when three of its lines fit there, but its last line may stand alone at the top
of the next column; chapter headings, numbered from the book's `first_chapter` (default 1), are set
ACROSS BOTH COLUMNS wherever a chapter begins, in a large coloured sans over a rule as wide as the
text, a very large PALE NUMERAL of the chapter drawn behind the heading's right end (the number is
printed nowhere else but in the contents); when the chapter before ends on the same page its columns
above the heading are BALANCED (and so are the columns of the book's last page), but a chapter whose
heading and five lines do not fit under the text before it begins at the top of the next page;
section headings in a dark bold sans after a small coloured SQUARE, a hairline LEADER running from
the end of the heading to the column's edge; they are NOT kept with their text, so a section heading
may stand alone at the foot of a column, its paragraph starting at the top of the next column or
page; level-3 headings in a coloured sans bold oblique; boxes as wide as their column on a pale fill
in a thin coloured frame, their title in white on a FOLDER TAB standing on the frame's top edge at
the left, a round coloured BADGE with a white ZapfDingbats glyph (a pencil for an example, an
exclamation mark for any other box) in a lane at the box's left, their text in a smaller sans beside
the lane; no header text (a coloured rule along the top of every page), but at the foot, in the
OUTER corner, drawn after the page's text, the page number large and bold in the style's colour, a
short vertical rule and, towards the inside, a TWO-LINE running footer: the book's running header in
bold over the chapter in effect at the top of the page in italics. In the truth a chapter heading
has "column": 0, "placement": "span", "number" and "rule_below"; a section heading adds "marker" (a
square and its colour), "leader_rule" and "stranded" (true when the block after it starts in another
column or page, which "text_starts" then gives); a level-3 heading adds "bold_oblique"; a
keyword-bearing block lists its "keywords" (as written; "text" and "plain_text" are without the
asterisks); a box adds "tab_title", "printed_title" and "badge" (its glyph, not part of
"plain_text", and its meaning); a block (or a "continues" entry) that starts in the columns under a
chapter heading on the same page adds "below_span": true. The contents panel and the pale numerals
are NOT blocks: the truth lists them in "contents" (its entries and where it stands) and
"ghost_numbers" (chapter, number, page, font, size and colour). The truth JSON also lists the
chapter headings across the page ("chapter_spans": page, top and the height of the balanced columns
above, 0 when the chapter opens a page), the section headings left alone at a column's foot
("stranded_headings"), every page's regions in reading order ("page_regions": title, contents,
chapter heading, columns with their widths), every page's foot ("page_footers": corner, number and
the two lines; "page_headers" is empty), the page size, the margins and the column widths of odd and
even pages.

Style "p" (used only by seventeenth.yaml, written by someone who read neither the reader's code nor
its tests, for a score measured once) follows yet other habits: pages of 165 x 235 mm; on the first
page a small letter-spaced KICKER line in capitals over the book title in a large bold condensed
sans and a rule across the page, then two equal unruled columns in a 6.5 mm gutter, as on every
page; a CONDENSED sans body in an embedded TrueType face from the system's fonts-dejavu (DejaVu Sans
Condensed 9.3 pt on 12.5 pt) justified and hyphenated, paragraphs with a first-line indent and no
gap (no indent after a heading, a deck, a box or an asterisk note), KEY TERMS inside sentences
(written `*like this*` in the book) in the body's BOLD ITALIC; chapter headings in a bold condensed
sans led by a large OUTLINED two-digit numeral (stroked, not filled: the chapter's number counted
from the book's `first_chapter`, default 1, printed nowhere else), then the chapter's DECK (a
paragraph marked `deck: true` right after the heading: a one-sentence summary in a larger serif
italic, muted, over a short thick rule) before the text; section headings in letter-spaced CAPITALS
of the bold condensed sans in the accent colour under a short thick bar, level-3 headings in a bold
condensed oblique; a heading (with its deck) is never left at a column's foot without three lines of
text under it, but the text may run on; example boxes as wide as their column on a pale fill framed
only by CORNER MARKS (an L at each corner), the title in bold condensed capitals; a box with `note:
designer` is a DESIGNER'S NOTE in a serif italic inside a double frame, its title in a serif bold
italic and, flush right under its text, its `signature` led by an em dash; a box with `header` and
`rows` is a free-standing TABLE of terms and definitions (caption in capitals and a line of italic
text over a dark header row, the rows on alternate tints), which may run on into the next column or
page, where its HEADER ROW is printed again; a paragraph marked `note_for: KEY` is the ASTERISK NOTE
of paragraph KEY, which ends in a coloured "*": set in small oblique type directly under it, led by
a hanging "*"; the chapter whose heading has `reversed: true` is set on REVERSED pages (a dark ground
over the whole page, drawn before the text, light text, amber accents): it starts on a new page and
the chapter after it starts on a new light page again (the columns before may end short); on top of
every page, drawn after the text over a hairline across the page, the page number large in the
accent colour in the OUTER corner (right on odd pages) and beside it, after a short vertical rule,
the SECTION in effect at the top of the page (the last section heading, else the chapter; a heading
that opens the page names itself; none on the first page) in small letter-spaced capitals; at the
foot the running header centred in letter-spaced capitals between two short rules. In the truth a
chapter heading adds "number" ("08") and "numeral" (outlined, font, size) and "deck" (the key of its
deck); a section heading adds "printed_as" (capitals), "letter_spaced" and "bar_above"; a level-3
heading "bold_oblique"; a heading or block on a reversed page adds "reversed": true; a
keyword-bearing block lists its "keywords" (as written; "text" and "plain_text" are without the
asterisks); a deck is a "paragraph" block with "deck": true, "deck_of" (its chapter), font and size;
a paragraph with a note records "note_marker" ("*", not part of "plain_text"); an asterisk note is a
"paragraph" block with "placement": "asterisk-note", "marker" ("*", not part of "plain_text") and
"anchor" (the key of its paragraph), keeping its page and column; an example box adds "frame":
"corner-marks" and "printed_title"; the designer's note adds "designer_note", "frame": "double",
"signature" (as written) and "printed_signature" (with the dash), its "plain_text" being its text
followed by the signature; the table is a "box" block with "placement": "table", "printed_title",
"table" ("header" and "rows" as written) and "repeated_header" (page and column of every part after
the first, where the header row is printed again), its "plain_text" being its text followed by the
cells row by row (header once). The kicker is NOT a block ("title_kicker"). The truth JSON also lists
the reversed pages ("reversed_pages": page and ground colour), the asterisk notes ("asterisk_notes":
key, anchor, marker, page and column), every page's header ("page_headers": number and its corner,
section as written and as printed and its corner, reversed) and foot ("page_footers": running header
as written and as printed, position, reversed), the body font, the page size and the column width.

Style "q" (used only by eighteenth.yaml, written by someone who read neither the reader's code nor
its tests, for a score measured once) follows yet other habits: pages of 180 x 240 mm; the book title
in a large sans across the first page over a short thick coloured bar and a hairline, then two equal
columns in an 8 mm gutter with a thin grey RULE down its middle on every page; a serif body (Times
10.4 pt on 13.8 pt) JUSTIFIED BY LETTER-SPACING and NEVER HYPHENATED: lines break at spaces only and
every line but a paragraph's last is filled out first by character spacing (the PDF's Tc, at most
0.45 pt after every glyph) and only then by word spacing (Tw), so the letters of a loose line stand
visibly apart; paragraphs with a first-line indent and no gap (none after a heading or a box); a
paragraph runs on into the next column or page with two lines at least on each side; headings
NUMBERED IN A DECIMAL OUTLINE counted from the book's `first_chapter` (default 1): chapters ("5.",
a large sans over a thin coloured rule as wide as the column) and sections ("5.2", a bold sans) with
their number in the accent colour HANGING in a 9 mm lane at the column's left edge, the heading's
text and its turn-over lines set beside it; LEVEL-3 headings RUN IN: their number, their text and an
em dash ("5.2.1 One Line per Scenario —") in a bold sans at the start of the first line of their
paragraph, which goes on after them on the same line (and is letter-spaced with it); a chapter or
section heading is not left at a column's foot without three lines of text under it; one
sentence of a paragraph given as its `highlight` is printed on a marker-yellow GROUND behind its
words (on every line it covers, the spaces between them included); example boxes as wide as their
column in a thin dark frame over a grey DROP SHADOW standing off to the lower right, their title
led by the example's NUMBER in the accent colour ("Example 5.1: A Season in Figures": the chapter's
number, then the example's place in its chapter; the number is printed, not written), their text in
a small sans set ragged right and never hyphenated; a box with a `checklist` is a CHECKLIST on a
pale yellow ground with its top right corner turned down (a DOG-EAR), its title in a coloured bold
sans, a line of text, then each item behind an empty CHECK BOX (a ZapfDingbats glyph) with a hanging
indent; a box marked `place: top` is a TOP FLOAT: not in the columns but drawn (before the text)
across both columns at the top of the page AFTER the one where the block before it in the book ends
(a later float moves one more page on when that page already carries one; the book is laid out again
until every float settles), the two columns of that page shortened under it and the column rule
starting under it; no footer, but after the text, over a hairline across the page, RUNNING HEADS
THAT DIFFER on left and right pages: on even (left-hand) pages the page number bold in the accent
colour in the top LEFT corner and beside it the book's running header in italics, on odd
(right-hand) pages the chapter in effect at the top of the page with its number ("5. Keeping the
Numbers") and the page number in the top RIGHT corner; the first page has no running head but a DROP
FOLIO, the page number centred at its foot. In the truth a chapter or section heading adds "number"
("5." or "5.2", not part of its text), "printed_as" (number and text) and "hanging_number", a
chapter heading also "rule_below"; a level-3 heading adds "number", "run_in": true and "printed_as"
(the head as printed, dash included) and has the page and column where its paragraph starts, whose
"plain_text" is its text WITHOUT the head (the block records the head as "run_in_heading") and
whose "section_path" ends with the heading's text; a paragraph with a highlight adds "highlight"
(its "text" as written and its "ground" colour; "plain_text" keeps the whole text); an example box
adds "example_number", "printed_title" and "frame": "drop-shadow"; a checklist adds "checklist" (the
items as written), "checkbox" (the glyph, not part of "plain_text"), "printed_title" and "frame":
"dog-ear", its "plain_text" being its text followed by its items; a top float has "column": 0,
"placement": "top-float", "full_width": true and "anchor" (the key of the block before it). The
truth JSON also lists the floats ("top_floats": key, anchor, page, PDF page index, the printed page
where the anchor ends, height and "bbox_pt": left, top, right and bottom in points from the page's
top-left corner), the highlights ("highlights": key, text, ground and the printed pages where it is
drawn), the column rules ("column_rules": page, x, top and bottom in points from the page's top,
"below_float"), every page's running head ("page_headers": number and its corner, side ("verso" or
"recto"), "kind" ("book" or "chapter"), text as written and as printed and its position; none for
the first page) and the drop folio ("page_footers": page, number, position, "drop_folio"), the
outline scheme ("heading_numbers"), the justification ("justification": method, "hyphenation":
false, the most letter-spacing, then word spacing), the body font, the page size and the column
width.

Style "r" (used only by nineteenth.yaml, written by someone who read neither the reader's code nor
its tests, for a score measured once) follows yet other habits: pages of 200 x 250 mm; the book
title in a large coloured serif across the first page, then two equal unruled columns in a 7 mm
gutter between WIDE SIDE MARGINS (19 mm); a serif body (Times 10.3 pt on 14 pt) justified and
hyphenated and printed in FRENCH-STYLE TYPOGRAPHY: every pair of the book's straight double
quotation marks is printed as « guillemets » with a no-break space (U+00A0) inside each, and a
no-break space stands before every ":", ";", "?" and "!" (in headings, titles and the strip too);
paragraphs with a HANGING FIRST LINE (the first line starts at the column's edge, the others stand
in 11 pt) and no gap, also after a heading or a box; GAME TERMS inside sentences (written `*like
this*` in the book) in SMALL CAPITALS (lower case as smaller capitals, so they are printed in
capitals); chapter headings in a large coloured sans over a DOTTED rule as wide as the column;
section headings REVERSED OUT in white bold sans on a rounded coloured PILL as wide as their text;
level-3 headings in a coloured serif bold italic; a heading is not left at a column's foot without
three lines of text under it; a paragraph with an `icon` (tip, note, warning, talk) has a MARGIN
PICTOGRAM: a coloured disc with a white ZapfDingbats glyph in the page margin beside its first line
(the left margin for the left column, the right margin for the right column; drawn just before the
paragraph's text); boxes as wide as their column and of three kinds: an EXAMPLE box on a pale
rounded ground, the label "EXAMPLE" white on a small pill over its title, its text in a small sans;
a COMMON MISTAKES box (a box with `mistakes`) in a red rounded frame on a pale pink ground, its
title in red, a line of text, then every item behind a red cross (a ZapfDingbats glyph, hanging);
a SPEECH BUBBLE (`bubble: true`) on a pale ground in a thin rounded frame with a TAIL at its lower
left, its title (the speaker) in a bold sans over its text in a serif italic; before the text a
coloured STRIP across the top of every page, bleeding off the top and both sides, with the book's
running header (bold, on the inside: left on odd pages, right on even ones) and the chapter in
effect at the top of the page (oblique, on the outside) reversed out in white (the book is laid
out twice so that the strip knows its chapter); after the text the page number in white on a PILL
in the bottom OUTER corner (right on odd pages). In the truth a block's "text" and "plain_text" are
as written (straight quotes, no added spaces) without the asterisks, a block with game terms lists
its "keywords" (as written), and a block whose printed form differs records "printed_text" (the
guillemets, the no-break spaces and the terms in capitals, icon tokens left out; a mistakes box's
items follow its text); a heading whose printed form differs adds "printed_as"; a chapter heading
adds "rule_below": "dotted", a section heading "pill" (fill and text colour) and "reversed": true, a
level-3 heading "bold_italic"; a paragraph with a pictogram adds "margin_icon" (name, glyph, font,
disc colour; not part of "plain_text"); a box adds "box_kind" ("example", "mistakes" or
"speech-bubble") and "printed_title"; an example adds "label" ("EXAMPLE", not part of its title or
"plain_text") and "frame": "rounded"; a mistakes box adds "mistakes" (the items as written), "mark"
(the cross: glyph, font, colour; not part of "plain_text") and "frame": "red-rounded", its
"plain_text" being its text followed by its items; a speech bubble adds "speaker" (its title),
"frame": "speech-bubble" and "tail". The pictograms are NOT blocks: the truth lists them in
"margin_icons" (key, name, page, PDF page index, column, margin, glyph, font, disc colour and
"bbox_pt": left, top, right and bottom in points from the page's top-left corner). The truth JSON
also lists every page's strip ("page_headers": running header and its side, chapter as written and
as printed and its side, "strip" and "reversed") and folio ("page_footers": number, corner, shape
"pill"), the printed title ("title_printed_as"), the typography ("typography"), the paragraph
indent ("paragraph_indent"), the small capitals ("small_caps_terms"), the body font, the page
size, the side margins and the column width.

Style "s" (used only by twentieth.yaml, written by someone who read neither the reader's code nor its
tests, for a score measured once) follows yet other habits: pages of 200 x 260 mm; the book title in
a large coloured serif bold across the first page over a thick and a thin rule, then THREE equal
unruled columns in 4.5 mm gutters on every page; a serif body in an embedded TrueType face from the
system's fonts-dejavu (DejaVu Serif 8.7 pt on 12 pt) justified and hyphenated, paragraphs with a
first-line indent and no gap, the indent only after another body paragraph (none after a heading, a
lede, a box or a glossary entry); the first paragraph right after a chapter heading is a LEDE: set
larger (9.9 pt on 13.6 pt) in a dark accent colour and RAGGED RIGHT (still hyphenated); chapter
headings in a large coloured serif bold led by a HEXAGONAL BADGE (points up, the accent colour) with
a white ZapfDingbats glyph (the heading's `icon`: star, hand, scissors, heart or pencil), the text
turning over beside the badge, a hairline under both as wide as the column; section headings in a
coloured bold sans (DejaVu Sans); a heading is not left at a column's foot without three lines of
text under it; boxes as wide as their column with a LABEL STRIP down their left edge holding a
letter-spaced label ROTATED 90 degrees to read from bottom to top (drawn before the box's text), the
title in a coloured bold sans and the text in a small sans set ragged right: an EXAMPLE box on a pale
ground with "EXAMPLE" white on the accent colour, a HOUSE-RULE box (`house_rule: true`) REVERSED OUT,
white text and an amber title on a dark ground, "HOUSE RULE" dark on an amber strip; a paragraph with
a `term` is one entry of a GLOSSARY set as a STACKED DEFINITION LIST: the term in a coloured bold sans
on a line of its own at the column's edge, the definition under it standing in 11 pt (one paragraph,
which may run on into the next column or page); on top of every page, drawn before the text, only
the page number at the TOP CENTRE in a coloured bold sans inside a BROKEN RULE (a rule from each
margin that stops short of the number), no header text; at the foot, drawn after the text over a
hairline across the page, a RUNNING FOOTER with the book's running header in italics on the INSIDE
(left on odd, right-hand pages) and the SECTION in effect at the top of the page in a coloured bold
sans on the OUTSIDE (the last section heading, else the chapter; a heading that opens the page names
itself). In the truth a chapter heading adds "badge" (shape, points, icon, glyph, font, fill and
glyph colour; the glyph is not part of its text) and "rule_below"; a lede is a "paragraph" block with
"lede": true and "font"; a glossary entry is a "paragraph" block with "definition": true, "term",
"printed_lead" (the term as printed on its own line), "term_on_own_line" and "definition_indent_pt",
its "plain_text" being the definition WITHOUT the term; a box adds "box_kind" ("example" or
"house-rule"), "label" ("EXAMPLE" or "HOUSE RULE", not part of its title or "plain_text"),
"label_rotation", "label_reads", "reversed" and "printed_title". The truth JSON also lists every
page's folio ("page_headers": number, position "top-centre", text null) and foot ("page_footers":
running header and its side, section and its side), the labels ("box_labels"), the paragraph indent,
the body and lede fonts, the page size, the number of columns, the column width and the gutter.

Only reportlab (BSD) and PyYAML are needed (styles "m", "p" and "s" also the system's DejaVu fonts).
The output is deterministic
(reportlab's invariant mode: no dates or random document ids).
"""

from __future__ import annotations

import copy
import io
import json
import re
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from xml.sax.saxutils import escape

import yaml
from reportlab import rl_config
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY, TA_LEFT, TA_RIGHT
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    FrameBreak,
    ImageAndFlowables,
    NextFrameFlowable,
    NextPageTemplate,
    PageBreak,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

rl_config.invariant = 1

HERE = Path(__file__).resolve().parent
BOOKS = (
    "frosthaven-extra.yaml",
    "gloomhaven-extra.yaml",
    "heldout.yaml",
    "untuned.yaml",
    "fresh.yaml",
    "unseen.yaml",
    "novel.yaml",
    "blind.yaml",
    "sealed.yaml",
    "tenth.yaml",
    "eleventh.yaml",
    "twelfth.yaml",
    "thirteenth.yaml",
    "fourteenth.yaml",
    "fifteenth.yaml",
    "sixteenth.yaml",
    "seventeenth.yaml",
    "eighteenth.yaml",
    "nineteenth.yaml",
    "twentieth.yaml",
)

# Game icons -> a glyph of the ZapfDingbats font (Unicode Dingbats block, which
# reportlab encodes into the font's own built-in encoding).
ICONS = {
    "fire": "\u273a",
    "ice": "\u2744",
    "air": "\u2708",
    "earth": "\u25b2",
    "light": "\u2737",
    "dark": "\u25cf",
    "wild": "\u2739",
    "move": "\u2794",
    "attack": "\u2716",
    "range": "\u27b6",
    "heal": "\u271a",
    "shield": "\u25c6",
    "xp": "\u2605",
    "spent": "\u27b2",
    "lost": "\u2716",
    "loot": "\u272a",
}
ICON_RE = re.compile(r"\{([a-z]+)\}")
LEAD_RE = re.compile(r"^([A-Z][A-Z' ]*[A-Z](?: X)?[.:])(?=\s)")


@dataclass(frozen=True)
class Style:
    name: str
    left: float
    right: float
    top: float
    bottom: float
    gutter: float
    body_font: str
    bold_font: str
    head_font: str
    size: float
    leading: float
    h1: float
    h2: float
    para_space: float  # space after a paragraph
    first_indent: float  # first-line indent of a paragraph
    header_at: str  # "top" or "bottom": where the running header line is
    number_at: str  # "outer", "left", "right" or "center": footer page number
    box_fill: object
    box_border: object
    title_size: float
    # Optional features (the defaults keep styles "a" and "b" exactly as they were).
    inner: float = 0  # > 0: mirrored margins, `left` is then the outer and this the inner margin
    h2_font: str | None = None  # level-2 heading font (default head_font)
    h2_color: object = None
    box_title_font: str | None = None  # default head_font
    box_title_color: object = None  # default black
    box_border_width: float = 1.2
    header_layout: str = "single"  # "single": running_header only; "title-chapter": + chapter right
    page_tab: bool = False  # page number in a filled tab at the bottom outer corner
    column_rule: bool = False  # thin vertical line in the middle of the gutter
    # Style "d" features (the defaults keep styles "a", "b" and "c" exactly as they were).
    h1_space_before: float = 10
    h2_space_before: float = 6
    h2_small_caps: bool = (
        False  # level-2 headings in small capitals (lower case as smaller capitals)
    )
    indent_after_heading: bool = True  # False: no first-line indent right after a heading
    box_frame: str = "box"  # "box": full frame; "left-bar": a thick bar on the left side only
    box_title_size: float | None = None  # default size + 0.5
    box_padding: tuple = (7, 7, 6, 7)  # left, right, top, bottom
    # Style "e" features (the defaults keep styles "a" to "d" exactly as they were).
    page_size: tuple = A4
    first_col_share: float = 0.5  # share of the two columns' width taken by the left column
    # Style "f" features (the defaults keep styles "a" to "e" exactly as they were).
    ragged: bool = False  # True: ragged-right (left-aligned) text instead of justified
    run_in_h2: bool = False  # True: level-2 headings run into the first line of their paragraph
    first_page_columns: int = 2  # columns on the first page (later pages have two)


# Positional fields: name, margins (left, right, top, bottom), gutter, fonts (body, bold, heading),
# size, leading, h1, h2, para_space, first_indent, header_at, number_at, box_fill, box_border,
# title_size; then the optional features by name. With `inner` (mirrored margins) `left` and
# `right` are the outer margin.
# fmt: off
STYLES = {
    # Serif body, sans headings, header on top, page number in the outer corner.
    "a": Style("a", 18 * mm, 18 * mm, 24 * mm, 20 * mm, 8 * mm, "Times-Roman", "Times-Bold",
               "Helvetica-Bold", 10, 12.2, 15, 12, 5, 0, "top", "outer",
               colors.Color(0.91, 0.89, 0.84), colors.Color(0.45, 0.35, 0.2), 22),
    # Sans body, serif headings, indented paragraphs without gaps, running header
    # at the bottom with the page number centred, wider margins.
    "b": Style("b", 24 * mm, 20 * mm, 20 * mm, 26 * mm, 10 * mm, "Helvetica", "Helvetica-Bold",
               "Times-Bold", 9, 11.4, 16, 12.5, 0, 11, "bottom", "center",
               colors.Color(0.86, 0.91, 0.95), colors.Color(0.15, 0.3, 0.5), 20),
    # Sans body (9.5 pt) with serif bold-italic chapter headings and small sans section
    # headings, mirrored margins, narrow ruled gutter, spaced paragraphs, header on top
    # (book title left, chapter right), page number in a tab at the bottom outer corner.
    "c": Style("c", 14 * mm, 14 * mm, 21 * mm, 23 * mm, 5.5 * mm, "Helvetica", "Helvetica-Bold",
               "Times-BoldItalic", 9.5, 12.4, 19, 10.5, 6.5, 0, "top", "outer",
               colors.Color(0.93, 0.96, 0.92), colors.Color(0.16, 0.42, 0.34), 24,
               inner=22 * mm, h2_font="Helvetica-Bold", h2_color=colors.Color(0.55, 0.2, 0.12),
               box_title_font="Helvetica-Bold", box_title_color=colors.Color(0.16, 0.42, 0.34),
               box_border_width=1.6, header_layout="title-chapter", page_tab=True,
               column_rule=True),
    # Serif body (10 pt) with bold small-capital section headings at body size and extra
    # space above, larger chapter headings, no header but a running footer (book title
    # left, page number right), narrow outer margins, a wide unruled gutter, indented
    # paragraphs without gaps, boxes with a thick left bar and a light fill.
    "d": Style("d", 12.5 * mm, 12.5 * mm, 15 * mm, 21 * mm, 11 * mm, "Times-Roman", "Times-Bold",
               "Times-Bold", 10, 12, 16, 10, 0, 12, "bottom", "right",
               colors.Color(0.95, 0.93, 0.89), colors.Color(0.5, 0.13, 0.1), 22,
               h1_space_before=16, h2_space_before=13, h2_small_caps=True,
               indent_after_heading=False, box_title_font="Times-BoldItalic", box_border_width=3.5,
               header_layout="footer-title-number", box_frame="left-bar", box_title_size=10,
               box_padding=(10, 7, 6, 7)),
    # US Letter, body in an embedded TrueType sans (Bitstream Vera, shipped with reportlab),
    # unequal columns (the left one narrower) with a rule in a wide gutter, chapter headings
    # in white on a coloured band, section headings in a rust colour, indented and slightly
    # spaced paragraphs (no indent after a heading), boxes with a tinted body and a darker
    # title strip, the current chapter in the top outer corner (drawn after the page's text),
    # the running header at the foot beside a decorated page number "— 57 —" in the outer
    # corner (drawn before the page's text).
    "e": Style("e", 16 * mm, 15 * mm, 22 * mm, 24 * mm, 11 * mm, "Vera", "VeraBd", "VeraBd", 8.8,
               12.2, 12, 10, 2.5, 9, "bottom", "outer", colors.Color(0.9, 0.94, 0.95),
               colors.Color(0.07, 0.33, 0.4), 19,
               h2_font="VeraBd", h2_color=colors.Color(0.62, 0.27, 0.1), box_title_font="VeraBd",
               box_title_color=colors.white, header_layout="corner-chapter-foot-number",
               column_rule=True, h1_space_before=13, h2_space_before=8, indent_after_heading=False,
               box_title_size=9, box_padding=(7, 7, 0, 6), page_size=(612.0, 792.0),
               first_col_share=0.44),
    # 210 x 270 mm pages; a three-column first page, then two equal columns in a narrow unruled
    # gutter; a serif body set ragged right (hyphenated at line ends), paragraphs spaced without
    # indent; chapter headings in a large serif italic over a thin rule, section headings run in
    # (bold sans, ending in a full stop, on the first line of their paragraph); boxes without fill
    # between a thick rule above and a thin one below, their text in a small sans; the running
    # header centred on top in letter-spaced small capitals, the page number white in a filled
    # circle in the top outer corner (both drawn before the text), no footer; a sidebar marked
    # `place: page-foot` set in small type across the foot of a page (drawn after the text).
    "f": Style("f", 15 * mm, 15 * mm, 23 * mm, 15 * mm, 4.2 * mm, "Times-Roman", "Times-Bold",
               "Times-Italic", 9.7, 12.4, 19, 9.2, 6, 0, "top", "outer", None,
               colors.Color(0.42, 0.16, 0.36), 25,
               h2_font="Helvetica-Bold", h2_color=colors.Color(0.42, 0.16, 0.36),
               box_title_font="Helvetica-Bold", box_title_color=colors.Color(0.42, 0.16, 0.36),
               box_border_width=2.4, header_layout="centre-caps-top-circle", h1_space_before=14,
               h2_space_before=5, indent_after_heading=False, box_frame="rules",
               box_title_size=8.4, box_padding=(0, 0, 5, 6), page_size=(210 * mm, 270 * mm),
               ragged=True, run_in_h2=True, first_page_columns=3),
    # A4 with mirrored margins (wider inner margin); a first page opened by a full-bleed coloured
    # band with the title in white, then ONE full-width introductory paragraph in a larger italic,
    # then two columns; a serif body (Times 10.5 pt) justified and hyphenated, paragraphs with a
    # first-line indent and no gap (none after a heading), the first paragraph after a chapter
    # heading opening with its first words in small capitals; NUMBERED sans headings in teal
    # ("9 Shields" under a short thick bar, "9.1 How Shield Works"); boxes framed by a thin
    # rounded rectangle on a pale fill, their title in sans capitals, their text in a small sans;
    # the running header in the top INNER corner (none on the first page), and at the foot,
    # centred, the current chapter beside the page number printed as "Page 141" (drawn after the
    # page's text).
    "g": Style("g", 14 * mm, 14 * mm, 22 * mm, 22 * mm, 7 * mm, "Times-Roman", "Times-Bold",
               "Helvetica-Bold", 10.5, 12.9, 15, 10.5, 0, 11, "top", "center",
               colors.Color(0.96, 0.97, 0.95), colors.Color(0.11, 0.37, 0.43), 23,
               inner=21 * mm, h2_font="Helvetica-Bold", h2_color=colors.Color(0.11, 0.37, 0.43),
               box_title_font="Helvetica-Bold", box_title_color=colors.Color(0.11, 0.37, 0.43),
               box_border_width=0.9, header_layout="inner-head-centre-foot", h1_space_before=16,
               h2_space_before=9, indent_after_heading=False, box_title_size=8.4,
               box_padding=(8, 8, 7, 8)),
    # Square 230 x 230 mm pages; the title in a large coloured serif over a double rule, then two
    # equal unruled columns; a sans body (Vera 9.3 pt) set ragged right and hyphenated, paragraphs
    # without indent set apart by a gap; chapter headings in a coloured serif led by their number
    # in a filled circle, section headings in a coloured serif italic after a "§" mark over a thin
    # rule; bulleted paragraphs with a hanging indent; boxes with the title in white on a coloured
    # header strip and the text inside a dashed border; no header, at the foot the running header
    # in the INNER corner and the page number in the OUTER corner under a coloured rule.
    "h": Style("h", 17 * mm, 17 * mm, 19 * mm, 25 * mm, 9 * mm, "Vera", "VeraBd", "Times-Bold",
               9.3, 12.7, 19, 12.6, 5.5, 0, "bottom", "outer", None, colors.Color(0.6, 0.1, 0.3),
               25, h2_font="Times-BoldItalic", h2_color=colors.Color(0.6, 0.1, 0.3),
               header_layout="foot-inner-outer", h1_space_before=15, h2_space_before=9,
               box_border_width=0.8, box_title_size=10.5, box_padding=(7, 7, 6, 7),
               page_size=(230 * mm, 230 * mm), ragged=True),
    # A5 pages; the title over a thick coloured rule, then two equal unruled columns; a
    # sans body (Helvetica 8.5 pt) justified and hyphenated, paragraphs spaced without indent;
    # chapter headings in letter-spaced capitals beside a coloured tab, a drop cap opening the
    # chapter; section headings underlined after an ornament glyph; numbered steps with a hanging
    # indent; boxes on a pale fill under a thick top rule, serif italic title, serif text; one box
    # across both columns mid-page; on top the chapter left, the book right, "p. N" outer.
    "i": Style("i", 12 * mm, 12 * mm, 19 * mm, 13 * mm, 5 * mm, "Helvetica", "Helvetica-Bold",
               "Helvetica-Bold", 8.5, 10.6, 10.5, 9.4, 3.5, 0, "top", "outer",
               colors.Color(0.97, 0.95, 0.89), colors.Color(0.13, 0.29, 0.42), 17,
               h2_font="Helvetica-Bold", h2_color=colors.Color(0.13, 0.29, 0.42),
               box_title_font="Times-BoldItalic", box_title_color=colors.Color(0.13, 0.29, 0.42),
               box_border_width=0.5, header_layout="top-chapter-book-page", h1_space_before=13,
               h2_space_before=8, box_title_size=10, box_padding=(7, 7, 6, 7),
               page_size=(148 * mm, 210 * mm)),
    # B5 pages with mirrored margins; the title in a coloured sans, then two equal unruled columns
    # (narrower on pages that carry "Tip:" notes in a slim third column at the outer edge); a sans
    # body (Vera 9.5 pt on 13 pt) justified and hyphenated, paragraphs indented with a small gap
    # (no indent after a heading); chapter and section headings in a coloured sans under a thin rule
    # ABOVE them, level-3 headings in bold italic at body size; lettered steps "a)" and "Term —"
    # definitions with a hanging indent; boxes on a light fill over a coloured foot rule, their title
    # in coloured small capitals; the chapter in the top outer corner, the page number and the
    # running header together in the bottom INNER corner.
    "j": Style("j", 13 * mm, 13 * mm, 21 * mm, 21 * mm, 6 * mm, "Vera", "VeraBd", "Helvetica-Bold",
               9.5, 13, 15, 10.5, 2, 10, "bottom", "inner", colors.Color(0.92, 0.95, 0.93),
               colors.Color(0.05, 0.4, 0.34), 21,
               inner=17 * mm, h2_font="Helvetica-Bold", h2_color=colors.Color(0.05, 0.4, 0.34),
               box_title_font="Helvetica-Bold", box_title_color=colors.Color(0.05, 0.4, 0.34),
               box_border_width=1.2, header_layout="outer-chapter-inner-foot", h1_space_before=16,
               h2_space_before=11, indent_after_heading=False, box_title_size=9.2,
               box_padding=(8, 8, 6, 7), page_size=(176 * mm, 250 * mm)),
    # LANDSCAPE pages of 250 x 176 mm, two wide equal columns in a 9 mm unruled gutter; a serif body
    # (Times 10.4 pt) justified and hyphenated, paragraphs indented without a gap (none after a
    # heading), KEYWORDS inside sentences in the style's colour and bold; chapters opened by a
    # quoted italic flavour text; boxes on a pale fill under a thick top rule that SPLIT across
    # columns and pages (the rest under the title "... (continued)"); FOOTNOTES with a superscript
    # marker set at the foot of the column where their paragraph ends; on top over a thin rule the
    # page number in the INNER corner and the running header in the outer one, at the foot the
    # chapter centred and "continued overleaf" under the second column of a page whose last block
    # runs on.
    "k": Style("k", 15 * mm, 15 * mm, 20 * mm, 17 * mm, 9 * mm, "Times-Roman", "Times-Bold",
               "Helvetica-Bold", 10.4, 13.4, 16, 11.5, 0, 11, "top", "inner",
               colors.Color(0.95, 0.94, 0.9), colors.Color(0.48, 0.22, 0.08), 21,
               h2_font="Helvetica-Bold", h2_color=colors.Color(0.48, 0.22, 0.08),
               box_title_font="Helvetica-Bold", box_title_color=colors.Color(0.48, 0.22, 0.08),
               box_border_width=2.2, header_layout="top-inner-number-landscape", h1_space_before=14,
               h2_space_before=9, indent_after_heading=False, box_title_size=9,
               box_padding=(8, 8, 6, 7), page_size=(250 * mm, 176 * mm)),
    # 8 x 10 INCH pages on TINTED paper, two equal unruled columns; a serif body (Times 10.2 pt)
    # justified and hyphenated, paragraphs indented without a gap (none after a heading); chapter
    # headings in a coloured sans over a thin rule, THUMB TABS with the chapter's number at the
    # outer edge; "Q:" / "A:" pairs with a hanging lead; white boxes in a thin frame, some holding a
    # TABLE of values; INSET sidebars in a narrower measure beside a thick bar; a paragraph WRAPPED
    # around a drawn picture; the running header centred on top, at the foot the page number outer
    # and the chapter inner.
    "l": Style("l", 16 * mm, 16 * mm, 20 * mm, 19 * mm, 7 * mm, "Times-Roman", "Times-Bold",
               "Helvetica-Bold", 10.2, 13.2, 16, 10.5, 0, 10, "top", "outer", colors.white,
               colors.Color(0.25, 0.2, 0.47), 22,
               h2_font="Helvetica-Bold", h2_color=colors.Color(0.25, 0.2, 0.47),
               box_title_font="Helvetica-Bold", box_title_color=colors.Color(0.25, 0.2, 0.47),
               box_border_width=0.7, header_layout="paper-tabs-8x10", h1_space_before=14,
               h2_space_before=9, indent_after_heading=False, box_title_size=9.4,
               box_padding=(8, 8, 6, 7), page_size=(8 * 72.0, 10 * 72.0)),
    # 200 x 265 mm pages, two equal unruled columns; a serif body in an embedded TrueType (DejaVu
    # Serif Condensed 9.6 pt on 13.4 pt) justified and hyphenated, every paragraph a NUMBERED RULE
    # ("6.3") with its number hanging in a lane at the column's left; every chapter opens a NEW
    # PAGE under a dark band across the page, its title reversed out in white under "CHAPTER 6";
    # section headings CENTRED between two thin rules; boxes with CUT CORNERS, the title set into
    # the frame's top edge; "See also 6.5 (p. 247)." cross-references ending some paragraphs; a
    # PULL QUOTE in large italics straddling the gutter, the columns narrowed beside it; on top the
    # running header outer and the chapter inner (none on a chapter's opening page), at the foot
    # the page number white in a dark hexagon, centred between two rules.
    "m": Style("m", 15 * mm, 15 * mm, 20 * mm, 22 * mm, 7 * mm, "DejaVuSerifCond",
               "DejaVuSerifCond-Bold", "Helvetica-Bold", 9.6, 13.4, 19, 10.6, 4, 0, "top", "center",
               colors.Color(0.97, 0.955, 0.93), colors.Color(0.64, 0.31, 0.1), 23,
               h2_font="Times-BoldItalic", h2_color=colors.Color(0.1, 0.18, 0.21),
               box_title_font="Helvetica-Bold", box_title_color=colors.Color(0.64, 0.31, 0.1),
               box_border_width=0.9, header_layout="bands-hexagon-200x265", h1_space_before=0,
               h2_space_before=9, indent_after_heading=False, box_title_size=9,
               box_padding=(8, 8, 9, 7), page_size=(200 * mm, 265 * mm)),
    # 225 x 290 mm pages with mirrored margins (a wide outer one), two equal unruled columns, each
    # with a SIDE-HEAD LANE at its left; a serif body (Times 10.2 pt) justified and hyphenated in the
    # measure beside the lane, paragraphs of a section parted by a small centred ORNAMENT; chapter
    # headings in a coloured sans over a rule across the column, section headings as SIDE HEADS in
    # the lane, level-3 headings in bold italics; boxes on a pale fill beside a HALF-TONE bar with
    # their title in the lane; "Important:" CALLOUT lines in bold red inside paragraphs; no header
    # line, but the page number, the running header and the chapter ROTATED along the outer edge.
    "n": Style("n", 25 * mm, 25 * mm, 23 * mm, 22 * mm, 7 * mm, "Times-Roman", "Times-Bold",
               "Helvetica-Bold", 10.2, 13.4, 15.5, 8.6, 2, 0, "top", "outer",
               colors.Color(0.95, 0.955, 0.92), colors.Color(0.27, 0.36, 0.1), 23,
               inner=15 * mm, h2_font="Helvetica-Bold", h2_color=colors.Color(0.27, 0.36, 0.1),
               box_title_font="Helvetica-BoldOblique",
               box_title_color=colors.Color(0.27, 0.36, 0.1), header_layout="edge-sideheads-225x290",
               h1_space_before=14, h2_space_before=9, indent_after_heading=False,
               box_title_size=8.2, box_padding=(9, 8, 6, 7), page_size=(225 * mm, 290 * mm)),
    # 190 x 260 mm pages with mirrored margins, two UNEQUAL unruled columns with the narrow one on
    # the INSIDE (left on right-hand pages, right on left-hand ones); a sans body (Helvetica 10 pt)
    # justified and hyphenated, paragraphs indented without a gap (none after a heading or box),
    # key terms bold; a CONTENTS panel on the first page; chapter headings ACROSS BOTH COLUMNS
    # wherever a chapter begins, the columns above balanced, a large pale numeral behind each;
    # section headings after a coloured square with a hairline leader, not kept with their text;
    # boxes with a FOLDER-TAB title and a round icon badge; no header text, at the foot in the
    # outer corner a large page number, a vertical rule and a two-line running footer.
    "o": Style("o", 13 * mm, 13 * mm, 20 * mm, 26 * mm, 6 * mm, "Helvetica", "Helvetica-Bold",
               "Helvetica-Bold", 10, 13.9, 18, 10.8, 0, 11, "bottom", "outer",
               colors.Color(0.94, 0.96, 0.985), colors.Color(0.09, 0.33, 0.64), 21,
               inner=19 * mm, h2_font="Helvetica-Bold", h2_color=colors.Color(0.11, 0.13, 0.2),
               box_title_font="Helvetica-Bold", box_title_color=colors.white,
               box_border_width=0.8, header_layout="inside-narrow-190x260", h1_space_before=0,
               h2_space_before=9, indent_after_heading=False, box_title_size=8.2,
               box_padding=(3, 8, 7, 7), page_size=(190 * mm, 260 * mm), first_col_share=0.4),
    # 165 x 235 mm pages, two equal unruled columns; a CONDENSED sans body (DejaVu Sans Condensed
    # 9.3 pt) justified and hyphenated, paragraphs indented without a gap (none after a heading, a
    # deck, a box or a note), key terms in BOLD ITALIC; chapter headings led by a large OUTLINED
    # numeral and followed by a DECK in a serif italic; section headings in letter-spaced capitals
    # under a short bar; example boxes framed by CORNER MARKS; a DESIGNER'S NOTE in serif italics
    # in a double frame, closed by a signature line; a TABLE of terms whose header row is printed
    # again in the next column; ASTERISK NOTES under their paragraph; one chapter on REVERSED (dark)
    # pages; on top the page number large in the outer corner beside the SECTION in effect, at the
    # foot the running header centred in letter-spaced capitals.
    "p": Style("p", 14 * mm, 14 * mm, 22 * mm, 19 * mm, 6.5 * mm, "DejaVuSansCond",
               "DejaVuSansCond-Bold", "DejaVuSansCond-Bold", 9.3, 12.5, 16.5, 9.4, 0, 10, "top",
               "outer", colors.Color(0.96, 0.945, 0.925), colors.Color(0.72, 0.27, 0.09), 21,
               h2_font="DejaVuSansCond-Bold", h2_color=colors.Color(0.72, 0.27, 0.09),
               box_title_font="DejaVuSansCond-Bold", box_title_color=colors.Color(0.72, 0.27, 0.09),
               box_border_width=1.1, header_layout="reversed-decks-165x235", h1_space_before=13,
               h2_space_before=10, indent_after_heading=False, box_title_size=8.8,
               box_padding=(9, 9, 8, 8), page_size=(165 * mm, 235 * mm)),
    # 180 x 240 mm pages, two equal columns with a thin RULE in the gutter (starting under a top
    # float); a serif body (Times 10.4 pt) JUSTIFIED BY LETTER-SPACING, never hyphenated, paragraphs
    # indented without a gap (none after a heading or a box); headings NUMBERED IN A DECIMAL OUTLINE
    # with the number HANGING at the column's edge ("5." chapters over a rule, "5.2" sections), the
    # level-3 ones RUN IN at the start of their paragraph ("5.2.1 One Line per Scenario —"); a key
    # sentence on a marker-yellow HIGHLIGHT; example boxes numbered by chapter with a DROP SHADOW;
    # CHECKLIST boxes with empty check boxes on a dog-eared yellow note; an example box moved to the
    # TOP OF THE NEXT PAGE across both columns; running heads that differ on LEFT and RIGHT pages
    # (book title on even, numbered chapter on odd pages, page number outer), a DROP FOLIO on the
    # first page.
    "q": Style("q", 16 * mm, 16 * mm, 24 * mm, 21 * mm, 8 * mm, "Times-Roman", "Times-Bold",
               "Helvetica-Bold", 10.4, 13.8, 15, 10.6, 0, 12, "top", "outer", colors.white,
               colors.Color(0.17, 0.27, 0.52), 21,
               h2_font="Helvetica-Bold", h2_color=colors.Color(0.11, 0.12, 0.16),
               header_layout="outline-floats-180x240", column_rule=True, h1_space_before=14,
               h2_space_before=9, indent_after_heading=False, page_size=(180 * mm, 240 * mm)),
    # 200 x 250 mm pages, two equal unruled columns between WIDE SIDE MARGINS that hold MARGIN
    # PICTOGRAMS (a coloured disc with a white glyph beside a paragraph's first line); a serif body
    # (Times 10 pt) justified and hyphenated in FRENCH-STYLE TYPOGRAPHY (« guillemets », a no-break
    # space before ":", ";", "?", "!"), paragraphs with a HANGING FIRST LINE and no gap, game terms in
    # SMALL CAPITALS; chapter headings over a DOTTED rule, section headings reversed out on a rounded
    # PILL, level-3 headings in bold italics; EXAMPLE boxes with a pill label, a COMMON MISTAKES box
    # with red crosses, SPEECH-BUBBLE sidebars; a coloured STRIP bleeding off the top of every page
    # with the running header (inside) and the chapter (outside) in white; the page number on a pill
    # in the bottom outer corner.
    "r": Style("r", 19 * mm, 19 * mm, 24 * mm, 22 * mm, 7 * mm, "Times-Roman", "Times-Bold",
               "Helvetica-Bold", 10.3, 14, 17, 9.6, 0, 0, "top", "outer", colors.white,
               colors.Color(0.12, 0.33, 0.47), 22,
               h2_font="Helvetica-Bold", h2_color=colors.white,
               header_layout="pills-icons-200x250", h1_space_before=14, h2_space_before=9,
               indent_after_heading=False, page_size=(200 * mm, 250 * mm)),
    # 200 x 260 mm pages, THREE equal unruled columns on every page; a serif body in an embedded
    # TrueType (DejaVu Serif 8.5 pt) justified and hyphenated, paragraphs indented without a gap
    # (none after a heading, a lede, a box or a glossary entry), a chapter's first paragraph a LEDE
    # set larger in the accent colour; chapter headings led by a HEXAGONAL BADGE with a white
    # glyph, section headings in a coloured bold sans; boxes with a LABEL STRIP down their left edge,
    # the label ROTATED to read upwards, HOUSE-RULE boxes REVERSED OUT on a dark ground; a GLOSSARY
    # as a stacked definition list (the term on its own line over its indented definition); the
    # page number at the TOP CENTRE in a broken rule, no header text; a running FOOTER with the
    # running header inside and the SECTION in effect outside.
    "s": Style("s", 13 * mm, 13 * mm, 22 * mm, 21 * mm, 4.5 * mm, "DejaVuSerif", "DejaVuSerif-Bold",
               "DejaVuSerif-Bold", 8.7, 12, 14.5, 9.2, 0, 9, "bottom", "center",
               colors.Color(0.955, 0.935, 0.9), colors.Color(0.47, 0.2, 0.13), 15,
               h2_font="DejaVuSans-Bold", h2_color=colors.Color(0.47, 0.2, 0.13),
               box_title_font="DejaVuSans-Bold", box_title_color=colors.Color(0.47, 0.2, 0.13),
               header_layout="three-columns-folio-200x260", h1_space_before=12, h2_space_before=8,
               indent_after_heading=False, page_size=(200 * mm, 260 * mm)),
}
# fmt: on

# ---------------------------------------------------------------- hyphenation
_VOWELS = set("aeiouy")
_KEEP = {"th", "ch", "sh", "ph", "wh", "ck", "gh", "qu", "ng", "wr", "kn"}
_SUFFIXES = ("tion", "sion", "ment", "ness", "able", "ible", "ing")
SHY = "\xad"


def hyphen_points(word: str) -> list[int]:
    """Indices where `word` may be broken (simple VC|CV syllable rule plus a few suffixes)."""
    w = word.lower()
    n = len(w)
    if n < 8 or not w.isalpha() or word.isupper():
        return []
    pts = set()
    for i in range(3, n - 2):
        a, b = w[i - 1], w[i]
        if (
            a not in _VOWELS
            and b not in _VOWELS
            and w[i - 2] in _VOWELS
            and w[i + 1] in _VOWELS
            and a + b not in _KEEP
        ):
            pts.add(i)
    for suf in _SUFFIXES:
        i = n - len(suf)
        if w.endswith(suf) and i >= 3 and w[i - 1] not in _VOWELS:
            pts.add(i)
    return sorted(p for p in pts if 3 <= p <= n - 3)


def hyphenate(text: str) -> str:
    def one(m: re.Match) -> str:
        w = m.group(0)
        pts = hyphen_points(w)
        out, last = [], 0
        for p in pts:
            out.append(w[last:p])
            last = p
        out.append(w[last:])
        return SHY.join(out)

    return re.sub(r"[A-Za-z]+", one, text)


# ---------------------------------------------------------------- text helpers
def plain_text(text: str) -> str:
    """The text without icon tokens, whitespace collapsed: what an extractor should return."""
    return re.sub(r"\s+", " ", ICON_RE.sub("", text)).replace(" .", ".").replace(" ,", ",").strip()


def small_caps(text: str, size: float, ratio: float = 0.78) -> str:
    """Heading markup in small capitals: capitals at full size, lower case as smaller capitals."""
    small = round(size * ratio, 2)
    out = []
    for run in re.findall(r"[a-z]+|[^a-z]+", text):
        if run.islower():
            out.append(f'<font size="{small}">{escape(run.upper())}</font>')
        else:
            out.append(escape(run))
    return "".join(out)


def markup(text: str, st: Style, bold_lead: bool = True) -> str:
    """YAML text -> reportlab paragraph markup (lead term bold, icons in ZapfDingbats, soft hyphens)."""
    lead = ""
    m = LEAD_RE.match(text) if bold_lead else None
    if m:
        lead = f'<font name="{st.bold_font}">{escape(m.group(1))}</font>'
        text = text[m.end() :]
    parts = []
    for i, piece in enumerate(ICON_RE.split(text)):
        if i % 2:
            parts.append(f'<font name="ZapfDingbats">{ICONS[piece]}</font>')
        else:
            parts.append(escape(hyphenate(piece)))
    return lead + "".join(parts)


# ---------------------------------------------------------------- flowables
class KeyedParagraph(Paragraph):
    """A Paragraph that remembers which ground-truth block it is, across splits."""

    gt_key: str | None = None
    gt_part: int = 0
    gt_level: int = 0  # headings: 1 or 2
    gt_text: str = ""  # headings: the heading text

    def split(self, availWidth, availHeight):
        parts = super().split(availWidth, availHeight)
        for i, p in enumerate(parts):
            p.gt_key, p.gt_part = self.gt_key, self.gt_part + i
        return parts


def col_width(st: Style) -> float:
    return (A4[0] - st.left - (st.inner or st.right) - st.gutter) / 2


PAD0 = dict(leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)


def column_frames(x0: float, y0: float, widths, gutter: float, height: float) -> list[Frame]:
    """Unpadded column frames "col1", "col2", ... side by side from x0, `gutter` apart."""
    out, x = [], x0
    for i, w in enumerate(widths):
        out.append(Frame(x, y0, w, height, id=f"col{i + 1}", **PAD0))
        x += w + gutter
    return out


def title_frame(x: float, y: float, width: float, height: float) -> Frame:
    """The unpadded frame of the book title across the top of the first page."""
    return Frame(x, y, width, height, id="title", **PAD0)


class RulebookDoc(BaseDocTemplate):
    TITLE_H = 24 * mm

    def __init__(self, filename, book, st: Style, **kw):
        self._setup(filename, book, st, **kw)
        if st.inner:  # mirrored margins: "first", then "later"/"later-alt" alternating
            hook = {"onPageEnd": self.decorate_title_chapter}
            self.add_mirrored_templates(self._frames(1), self._frames, **hook)
            return
        # Style "a" draws header/footer before the page's text, style "b" after it, so
        # content-stream order differs from reading order in one of them.
        hook = {"onPage": self.decorate} if st.header_at == "top" else {"onPageEnd": self.decorate}
        if st.header_layout == "footer-title-number":
            hook = {"onPageEnd": self.decorate_footer}
        self.addPageTemplates(
            [
                PageTemplate("first", self._frames(1), **hook),
                PageTemplate("later", self._frames(2), **hook),
            ]
        )

    def _frames(self, page: int) -> list[Frame]:
        """A title frame across the top of the first page, then two equal columns."""
        colw = col_width(self.st)
        return self.page_frames(page, self.TITLE_H if page == 1 else 0, (colw, colw))

    def add_mirrored_templates(self, first: list[Frame], frames, **hooks) -> None:
        """Page templates "first", then "later" and "later-alt" taking turns (left and right hand
        pages); `frames(page)` gives the frames of PDF page 2 or 3."""
        self.addPageTemplates(
            [
                PageTemplate("first", first, **hooks),
                PageTemplate("later", frames(2), autoNextPageTemplate="later-alt", **hooks),
                PageTemplate("later-alt", frames(3), autoNextPageTemplate="later", **hooks),
            ]
        )

    def page_frames(self, page: int, title_h: float, widths, lift: float = 0) -> list[Frame]:
        """The frames of a PDF page (1-based): a title frame `title_h` high across the top (none
        when 0), then columns of the given widths under it, their foot raised by `lift`."""
        st, (W, H) = self.st, self.st.page_size
        fh = H - st.top - st.bottom
        lm, rm = self.margins(page)
        title = [title_frame(lm, st.bottom + fh - title_h, W - lm - rm, title_h)] if title_h else []
        cols = column_frames(lm, st.bottom + lift, widths, st.gutter, fh - title_h - lift)
        return title + cols

    def _setup(self, filename, book, st: Style, **kw) -> None:
        """The document itself (page size and margins of the style, metadata, invariant ids) and
        the records the build fills in."""
        BaseDocTemplate.__init__(
            self,
            filename,
            pagesize=st.page_size,
            leftMargin=st.left,
            rightMargin=st.right,
            topMargin=st.top,
            bottomMargin=st.bottom,
            title=book["title"],
            author="rulings test data",
            subject=book["game"],
            creator="make_pdf.py",
            invariant=1,
            **kw,
        )
        self.book, self.st = book, st
        self.placed: list[tuple[str, int, int, str]] = []  # key, part, pdf page (1-based), frame id
        self.chapters: list[tuple[int, str]] = []  # pdf page, text of every level-1 heading
        self.top_chapter: dict[int, str | None] = {}  # pdf page -> chapter in effect at its top
        self.page_headers: list[dict] = []  # what each page's header shows (some styles)
        self.page_footers: list[dict] = []  # what each page's footer shows (some styles)

    def chapter_at(self, page: int) -> str:
        """The chapter in effect at the top of a PDF page (1-based), else the first one on it."""
        return self.top_chapter.get(page) or next((t for p, t in self.chapters if p == page), "")

    def printed(self, page: int) -> int:
        return self.book["first_page"] + page - 1

    def margins(self, page: int) -> tuple[float, float]:
        """Left and right margin of a PDF page (1-based): mirrored when the style has `inner`."""
        st = self.st
        if not st.inner:
            return st.left, st.right
        # Odd printed pages are right-hand (recto) pages: inner margin on their left.
        return (st.inner, st.left) if self.printed(page) % 2 else (st.left, st.inner)

    def decorate_title_chapter(self, canv, doc):
        """Header on top (book title left, chapter right), page number in a tab at the outer foot."""
        st, (W, H) = self.st, A4
        page = doc.page
        num = self.printed(page)
        lm, rm = self.margins(page)
        chapter = self.chapter_at(page)
        self.page_headers.append(
            {
                "page": num,
                "pdf_page_index": page - 1,
                "left": self.book["running_header"],
                "right": chapter,
            }
        )
        canv.saveState()
        y = H - st.top + 8 * mm
        canv.setFillColor(colors.Color(0.3, 0.3, 0.3))
        canv.setFont("Helvetica", 7.5)
        canv.drawString(lm, y, self.book["running_header"])
        canv.setFillColor(st.box_border)
        canv.setFont("Helvetica-Bold", 7.5)
        canv.drawRightString(W - rm, y, chapter)
        canv.setStrokeColor(st.box_border)
        canv.setLineWidth(0.6)
        canv.line(lm, y - 3.5, W - rm, y - 3.5)
        if st.column_rule:
            x = lm + col_width(st) + st.gutter / 2
            top = H - st.top - (24 * mm if page == 1 else 0)
            canv.setStrokeColor(colors.Color(0.7, 0.7, 0.7))
            canv.setLineWidth(0.4)
            canv.line(x, st.bottom, x, top)
        if st.page_tab:
            tab_w, tab_h = 12 * mm, 6.5 * mm
            x0 = W - rm - tab_w if num % 2 else lm
            y0 = st.bottom - 14 * mm
            canv.setFillColor(st.box_border)
            canv.roundRect(x0, y0, tab_w, tab_h, 1.5 * mm, stroke=0, fill=1)
            canv.setFillColor(colors.white)
            canv.setFont("Helvetica-Bold", 9)
            canv.drawCentredString(x0 + tab_w / 2, y0 + 2.2 * mm, str(num))
        canv.restoreState()

    def decorate_footer(self, canv, doc):
        """No header; a footer line with the book title on the left and the page number right."""
        st, W = self.st, A4[0]
        num = str(self.printed(doc.page))
        self.page_footers.append(
            {
                "page": int(num),
                "pdf_page_index": doc.page - 1,
                "left": self.book["running_header"],
                "right": num,
            }
        )
        y = st.bottom - 11 * mm
        canv.saveState()
        canv.setFillColor(colors.Color(0.25, 0.25, 0.25))
        canv.setFont("Times-Italic", 8.5)
        canv.drawString(st.left, y, self.book["running_header"])
        canv.setFillColor(colors.black)
        canv.setFont("Times-Roman", 9.5)
        canv.drawRightString(W - st.right, y, num)
        canv.restoreState()

    def decorate(self, canv, doc):
        st, W, H = self.st, *A4
        num = str(self.printed(doc.page))
        canv.saveState()
        canv.setStrokeColor(colors.Color(0.4, 0.4, 0.4))
        canv.setLineWidth(0.5)
        foot_y = st.bottom - 12 * mm
        if st.header_at == "top":
            y = H - st.top + 9 * mm
            canv.setFont("Helvetica", 7.5)
            canv.drawString(st.left, y, self.book["running_header"])
            canv.line(st.left, y - 2.5, W - st.right, y - 2.5)
        else:
            canv.setFillColor(st.box_border)
            canv.rect(0, H - 8 * mm, W, 3 * mm, stroke=0, fill=1)  # decorative band, no text
            canv.setFillColor(colors.black)
            canv.line(st.left, foot_y + 9, W - st.right, foot_y + 9)
            canv.setFont("Helvetica-Oblique", 7.5)
            canv.drawString(st.left, foot_y, self.book["running_header"])
        canv.setFont(st.head_font, 9)
        where = st.number_at
        if where == "outer":
            where = "right" if int(num) % 2 else "left"
        if where == "right":
            canv.drawRightString(W - st.right, foot_y, num)
        elif where == "left":
            canv.drawString(st.left, foot_y, num)
        else:
            canv.drawCentredString(W / 2, foot_y, num)
        canv.restoreState()

    def afterFlowable(self, flowable):
        key = getattr(flowable, "gt_key", None)
        if key:
            self.placed.append((key, getattr(flowable, "gt_part", 0), self.page, self.frame.id))
        h1 = flowable.gt_text if getattr(flowable, "gt_level", 0) == 1 else None
        if self.page not in self.top_chapter:  # first flowable of this page
            self.top_chapter[self.page] = h1 or (self.chapters[-1][1] if self.chapters else None)
        if h1:
            self.chapters.append((self.page, h1))


def h1_style(name: str, st: Style, line: float = 1.2, after: float = 6, color=None):
    """A chapter heading: the style's heading font at its h1 size, kept with what follows."""
    return ParagraphStyle(
        name,
        fontName=st.head_font,
        fontSize=st.h1,
        leading=st.h1 * line,
        spaceBefore=st.h1_space_before,
        spaceAfter=after,
        keepWithNext=1,
        textColor=st.box_border if color is None else color,
    )


def title_style(name: str, font: str, st: Style, line: float = 1.2, **kw) -> ParagraphStyle:
    """The book title on the first page."""
    return ParagraphStyle(
        name,
        fontName=font,
        fontSize=st.title_size,
        leading=st.title_size * line,
        alignment=TA_LEFT,
        **kw,
    )


def box_text_style(name: str, parent, size: float, leading: float, **kw) -> ParagraphStyle:
    """The text of a box: smaller than the body, no indent, no space after."""
    return ParagraphStyle(
        name, parent=parent, fontSize=size, leading=leading, spaceAfter=0, firstLineIndent=0, **kw
    )


#: The oblique of each section-heading font styles a-g use: their level-3 headings' font (the
#: later styles, which build on `_styles`, set their own).
H3_FONTS = {
    "Helvetica-Bold": "Helvetica-BoldOblique",
    "Times-Bold": "Times-BoldItalic",
    "VeraBd": "VeraBI",
}


def _styles(st: Style) -> dict[str, ParagraphStyle]:
    body = ParagraphStyle(
        "body",
        fontName=st.body_font,
        fontSize=st.size,
        leading=st.leading,
        alignment=TA_JUSTIFY,
        spaceAfter=st.para_space,
        firstLineIndent=st.first_indent,
        embeddedHyphenation=1,
        uriWasteReduce=0,
        allowWidows=1,
        allowOrphans=1,
    )
    return {
        "body": body,
        "body_first": ParagraphStyle("body_first", parent=body, firstLineIndent=0),
        "box": box_text_style("box", body, st.size - 0.5, st.leading - 0.8),
        "boxtitle": ParagraphStyle(
            "boxtitle",
            fontName=st.box_title_font or st.head_font,
            **({"textColor": st.box_title_color} if st.box_title_color is not None else {}),
            fontSize=st.box_title_size or st.size + 0.5,
            leading=st.box_title_size + 2 if st.box_title_size else st.leading + 1,
            spaceAfter=3,
            alignment=TA_LEFT,
        ),
        "h1": h1_style("h1", st),
        "h2": ParagraphStyle(
            "h2",
            fontName=st.h2_font or st.head_font,
            **({"textColor": st.h2_color} if st.h2_color is not None else {}),
            fontSize=st.h2,
            leading=st.h2 * 1.2,
            spaceBefore=st.h2_space_before,
            spaceAfter=4,
            keepWithNext=1,
        ),
        # A level-3 heading: the section heading's font made oblique, never larger than the
        # section heading nor the body (style f sets its section headings under the body size).
        "h3": ParagraphStyle(
            "h3",
            fontName=H3_FONTS.get(st.h2_font or st.head_font, st.h2_font or st.head_font),
            **({"textColor": st.h2_color} if st.h2_color is not None else {}),
            fontSize=min(st.size, st.h2),
            leading=st.leading,
            spaceBefore=st.h2_space_before / 2,
            spaceAfter=2,
            keepWithNext=1,
        ),
        "title": title_style("title", st.head_font, st),
    }


def box_table(
    block, st: Style, sty, width, commands=(), title: str | None = None, extra=()
) -> Table:
    """A one-cell table holding a box's title and text (then the flowables `extra`), padded as the
    style says; `commands` are table-style commands (fill, frame, rules) put before the padding."""
    cell = [
        Paragraph(escape(block["title"] if title is None else title), sty["boxtitle"]),
        Paragraph(markup(block["text"], st), sty["box"]),
        *extra,
    ]
    t = Table([[cell]], colWidths=[width])
    lp, rp, tp, bp = st.box_padding
    every = ((0, 0), (-1, -1))
    pads = [("LEFTPADDING", lp), ("RIGHTPADDING", rp), ("TOPPADDING", tp), ("BOTTOMPADDING", bp)]
    t.setStyle(TableStyle(list(commands) + [(name, *every, v) for name, v in pads]))
    return t


def _box(block, st: Style, sty, width) -> Table:
    frame = "LINEBEFORE" if st.box_frame == "left-bar" else "BOX"
    t = box_table(
        block,
        st,
        sty,
        width,
        [
            ("BACKGROUND", (0, 0), (-1, -1), st.box_fill),
            (frame, (0, 0), (-1, -1), st.box_border_width, st.box_border),
        ],
    )
    t.gt_key, t.gt_part = block["key"], 0
    return t


# ---------------------------------------------------------------- truth
def truth_row(block: dict, path: list[str]) -> dict:
    """A paragraph's or box's truth entry before it is placed (page, column, continuation)."""
    return {
        "key": block["key"],
        "kind": block["type"],
        "title": block.get("title"),
        "section": list(path),
        "section_path": " > ".join(path),
        "text": block["text"],
        "plain_text": plain_text(block["text"]),
        "icons": ICON_RE.findall(block["text"]),
    }


def new_heading(block: dict, path: list[str], headings: list[dict]) -> tuple[int, list[str], dict]:
    """A heading block: its level, the section path it opens and its truth entry (keyed "id"
    "#headingN"), which is added to `headings`."""
    lvl = int(block["level"])
    entry = {"id": f"#heading{len(headings)}", "level": lvl, "text": block["text"]}
    headings.append(entry)
    return lvl, path[: lvl - 1] + [block["text"]], entry


def frame_column(frame: str) -> int:
    """The column number of a frame id ("col2" -> 2)."""
    return int(frame[-1])


def place_truth(doc, headings: list[dict], blocks: list[dict], column=frame_column) -> None:
    """Add to headings and blocks the printed page, PDF page and column where they start and, for
    blocks, where they go on ("continues") and how ("split": None, "column" or "page"). A run-in
    heading shares its paragraph's key (its "id"); blocks that already have a page are left."""
    where: dict[str, list[tuple[int, int, str]]] = {}
    for key, part, page, frame in doc.placed:
        where.setdefault(key, []).append((part, page, frame))
    for h in headings:
        hid = h.pop("id")
        if h.get("run_in"):
            _, page, frame = sorted(where[hid])[0]
        else:
            ((_, page, frame),) = where.pop(hid)
        h.update(page=doc.printed(page), pdf_page_index=page - 1, column=column(frame))
    for b in blocks:
        if "page" in b:
            continue
        parts = sorted(where[b["key"]])
        _, page, frame = parts[0]
        b.update(
            page=doc.printed(page),
            pdf_page_index=page - 1,
            column=column(frame),
            continues=[
                {"page": doc.printed(p), "pdf_page_index": p - 1, "column": column(f)}
                for _, p, f in parts[1:]
            ],
        )
        b["split"] = None if not parts[1:] else "page" if parts[-1][1] != page else "column"


def truth_head(book: dict, style: str, doc, headings: list[dict], blocks: list[dict]) -> dict:
    """The truth JSON's common part; the styles add their own keys after it."""
    return {
        "title": book["title"],
        "game": book["game"],
        "style": style,
        "running_header": book["running_header"],
        "first_page": book["first_page"],
        "pages": doc.page,
        "printed_pages": [doc.printed(1), doc.printed(doc.page)],
        "icons": {
            k: {"char": v, "codepoint": f"U+{ord(v):04X}", "font": "ZapfDingbats"}
            for k, v in ICONS.items()
        },
        "headings": headings,
        "blocks": blocks,
    }


def write_truth(out: Path, truth: dict) -> dict:
    out.with_suffix(".truth.json").write_text(
        json.dumps(truth, indent=1, ensure_ascii=False) + "\n"
    )
    return truth


# ---------------------------------------------------------------- style "e"
def _register_vera() -> None:
    """Bitstream Vera (shipped in reportlab's own fonts folder), embedded as TrueType subsets."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    have = set(pdfmetrics.getRegisteredFontNames())
    fonts = (("Vera", "Vera.ttf"), ("VeraBd", "VeraBd.ttf"), ("VeraIt", "VeraIt.ttf"),
             ("VeraBI", "VeraBI.ttf"))  # fmt: skip
    for name, file in fonts:
        if name not in have:
            pdfmetrics.registerFont(TTFont(name, file))


def col_widths_e(st: Style) -> tuple[float, float]:
    """Widths of the (unequal) left and right columns of style "e"."""
    both = st.page_size[0] - st.left - st.right - st.gutter
    first = round(both * st.first_col_share, 2)
    return first, both - first


class CornerFootDoc(RulebookDoc):
    """Style "e": Letter pages, unequal ruled columns, chapter in the top outer corner, running
    header and "— N —" page number together in the bottom outer corner."""

    def __init__(self, filename, book, st: Style, **kw):
        self._setup(filename, book, st, **kw)
        self.title_h = 27 * mm
        first = self.page_frames(1, self.title_h, col_widths_e(st))
        later = self.page_frames(2, 0, col_widths_e(st))
        hooks = {"onPage": self.draw_foot, "onPageEnd": self.draw_corner}
        self.addPageTemplates(
            [PageTemplate("first", first, **hooks), PageTemplate("later", later, **hooks)]
        )

    def draw_foot(self, canv, doc):
        """Before the page's text: gutter rule, and at the foot the running header beside the
        page number "— N —", both in the outer corner (right on odd pages, left on even)."""
        st = self.st
        W, H = st.page_size
        num = self.printed(doc.page)
        mark = f"\u2014 {num} \u2014"
        odd = num % 2 == 1
        self.page_footers.append(
            {
                "page": num,
                "pdf_page_index": doc.page - 1,
                "corner": "right" if odd else "left",
                "text": self.book["running_header"],
                "number": mark,
            }
        )
        canv.saveState()
        w1, _ = col_widths_e(st)
        x = st.left + w1 + st.gutter / 2
        top = H - st.top - (self.title_h if doc.page == 1 else 0)
        canv.setStrokeColor(colors.Color(0.62, 0.72, 0.75))
        canv.setLineWidth(0.5)
        canv.line(x, st.bottom, x, top - 2)
        y = st.bottom - 13 * mm
        head_w = pdfmetrics.stringWidth(self.book["running_header"], "VeraIt", 7.5)
        mark_w = pdfmetrics.stringWidth(mark, "VeraBd", 9)
        gap = 3 * mm
        if odd:
            x_mark = W - st.right - mark_w
            x_head = x_mark - gap - head_w
        else:
            x_mark = st.left
            x_head = st.left + mark_w + gap
        canv.setStrokeColor(st.box_border)
        canv.setLineWidth(0.8)
        x0 = min(x_mark, x_head)
        canv.line(x0, y + 10.5, x0 + head_w + gap + mark_w, y + 10.5)
        canv.setFillColor(colors.Color(0.35, 0.35, 0.35))
        canv.setFont("VeraIt", 7.5)
        canv.drawString(x_head, y + 0.5, self.book["running_header"])
        canv.setFillColor(st.box_border)
        canv.setFont("VeraBd", 9)
        canv.drawString(x_mark, y, mark)
        canv.restoreState()

    def draw_corner(self, canv, doc):
        """After the page's text: the chapter in effect at the page's top, in the top outer
        corner beside a small filled square."""
        st = self.st
        W, H = st.page_size
        page = doc.page
        num = self.printed(page)
        chapter = self.chapter_at(page)
        odd = num % 2 == 1
        self.page_headers.append(
            {
                "page": num,
                "pdf_page_index": page - 1,
                "corner": "right" if odd else "left",
                "text": chapter,
            }
        )
        if not chapter:
            return
        canv.saveState()
        y = H - st.top + 10 * mm
        sq = 2.6 * mm
        canv.setFillColor(st.box_border)
        canv.setFont("VeraBd", 7.5)
        if odd:
            canv.rect(W - st.right - sq, y - 0.6, sq, sq, stroke=0, fill=1)
            canv.drawRightString(W - st.right - sq - 2 * mm, y, chapter)
        else:
            canv.rect(st.left, y - 0.6, sq, sq, stroke=0, fill=1)
            canv.drawString(st.left + sq + 2 * mm, y, chapter)
        canv.restoreState()


def _styles_e(st: Style) -> dict[str, ParagraphStyle]:
    sty = _styles(st)

    def band(name: str, parent, padding, indent: float, **kw) -> ParagraphStyle:
        """White text on a band of the style's colour."""
        return ParagraphStyle(name, parent=parent, textColor=colors.white, backColor=st.box_border,
                              borderPadding=padding, leftIndent=indent, **kw)  # fmt: skip

    sty["h1"] = band("h1e", sty["h1"], (3.5, 4, 3, 4), 4, spaceBefore=st.h1_space_before,
                     spaceAfter=9)  # fmt: skip
    sty["title"] = band("titlee", sty["title"], (7, 8, 6, 8), 8, rightIndent=8)
    sty["boxtitle"] = ParagraphStyle(
        "boxtitlee",
        parent=sty["boxtitle"],
        backColor=colors.Color(0.33, 0.55, 0.6),
        borderPadding=(3, st.box_padding[0], 2.5, st.box_padding[0]),
        spaceBefore=3,
        spaceAfter=6,
    )
    return sty


class ColumnBox(Flowable):
    """A boxed example/sidebar as wide as whichever column it lands in (the columns differ)."""

    def __init__(self, block, st: Style, sty):
        super().__init__()
        self.block, self.st, self.sty = block, st, sty
        self.gt_key, self.gt_part = block["key"], 0
        self._table = None

    def _make(self, width: float) -> Table:
        fill = [("BACKGROUND", (0, 0), (-1, -1), self.st.box_fill)]
        return box_table(self.block, self.st, self.sty, width, fill)

    def wrap(self, availWidth, availHeight):
        self._table = self._make(availWidth)
        self.width, self.height = self._table.wrap(availWidth, availHeight)
        return self.width, self.height

    def split(self, availWidth, availHeight):
        return []  # a box is never split: it moves on to the next column whole

    def draw(self):
        self._table.drawOn(self.canv, 0, 0)


# ---------------------------------------------------------------- style "f"
def col_widths_f(st: Style) -> tuple[float, float]:
    """Column widths of style "f": (on the first page, with its three columns; on later pages)."""
    text_w = st.page_size[0] - st.left - st.right
    first = (text_w - (st.first_page_columns - 1) * st.gutter) / st.first_page_columns
    return first, (text_w - st.gutter) / 2


def _hex(c) -> str:
    return "#" + c.hexval()[2:]


def small_caps_runs(text: str, size: float, ratio: float = 0.8) -> list[tuple[str, float]]:
    """(text, font size) runs of `text` in small capitals: lower case as smaller capitals."""
    return [
        (run.upper(), round(size * ratio, 2) if run.islower() else size)
        for run in re.findall(r"[a-z]+|[^a-z]+", text)
    ]


class RuledHeading(KeyedParagraph):
    """A chapter heading with a thin rule under it, as wide as its column."""

    rule_gap = 4.0
    rule_color = None

    def wrap(self, availWidth, availHeight):
        w, h = super().wrap(availWidth, availHeight)
        self._rule_w = availWidth
        self.height = h + self.rule_gap
        return w, self.height

    def draw(self):
        super().draw()
        canv = self.canv
        canv.saveState()
        canv.setStrokeColor(self.rule_color)
        canv.setLineWidth(0.6)
        canv.line(0, 0.8, self._rule_w, 0.8)
        canv.restoreState()


class RuleBox(ColumnBox):
    """Style "f": a box as wide as its column, no fill, a thick rule above and a thin one below."""

    def _make(self, width: float) -> Table:
        st = self.st
        rules = [
            ("LINEABOVE", (0, 0), (-1, 0), st.box_border_width, st.box_border),
            ("LINEBELOW", (0, -1), (-1, -1), 0.6, st.box_border),
        ]
        return box_table(self.block, st, self.sty, width, rules)


def _styles_f(st: Style) -> dict[str, ParagraphStyle]:
    sty = _styles(st)
    body = ParagraphStyle("body_f", parent=sty["body"], alignment=TA_LEFT)
    ink = colors.Color(0.13, 0.12, 0.12)
    sty.update(
        body=body,
        body_first=ParagraphStyle("body_first_f", parent=body, firstLineIndent=0),
        body_run_in=ParagraphStyle(
            "body_run_in_f", parent=body, firstLineIndent=0, spaceBefore=st.h2_space_before
        ),
        box=box_text_style("box_f", body, 8.4, 10.9, fontName="Helvetica"),
        h1=h1_style("h1_f", st, 1.15, 7, ink),
        title=title_style("title_f", st.head_font, st, 1.15, textColor=st.box_border),
        foot_title=ParagraphStyle(
            "foot_title_f",
            fontName="Helvetica-Bold",
            fontSize=7.4,
            leading=9,
            textColor=st.box_border,
            spaceAfter=1.5,
        ),
        foot=box_text_style("foot_f", body, 7.6, 9.3),
    )
    return sty


class MagazineDoc(RulebookDoc):
    """Style "f": 210 x 270 mm pages, three columns on the first page and two later, the running
    header centred on top in spaced small capitals, the page number in a filled circle in the top
    outer corner, and (on one page) a sidebar in small type across the foot of the page."""

    def __init__(self, filename, book, st: Style, foot_page=None, foot_block=None, sty=None, **kw):
        self._setup(filename, book, st, **kw)
        self.foot_page, self.foot_block, self.sty = foot_page, foot_block, sty
        self.foot_drawn: int | None = None
        w1, w2 = col_widths_f(st)
        self.title_h = 30 * mm
        first = self.page_frames(1, self.title_h, (w1,) * st.first_page_columns)

        def two(lift: float) -> list[Frame]:
            return self.page_frames(2, 0, (w2, w2), lift)

        self.foot_h = self._foot_height() if foot_block else 0
        templates = [
            PageTemplate("first", first, onPage=self.decorate_f),
            PageTemplate("later", two(0), onPage=self.decorate_f),
        ]
        if foot_block:
            templates.append(
                PageTemplate(
                    "foot",
                    two(self.foot_h + 7 * mm),
                    onPage=self.decorate_f,
                    onPageEnd=self.draw_foot_sidebar,
                )
            )
        self.addPageTemplates(templates)

    def _foot_parts(self) -> list[Paragraph]:
        b = self.foot_block
        return [
            Paragraph(escape(b["title"]), self.sty["foot_title"]),
            Paragraph(markup(b["text"], self.st), self.sty["foot"]),
        ]

    def _foot_height(self) -> float:
        width = self.st.page_size[0] - self.st.left - self.st.right
        return sum(p.wrap(width, 1000)[1] for p in self._foot_parts()) + 1.5

    def decorate_f(self, canv, doc):
        """Before the page's text: the running header centred on top in letter-spaced small
        capitals, and the page number in a filled circle in the top outer corner."""
        st = self.st
        W, H = st.page_size
        num = self.printed(doc.page)
        odd = num % 2 == 1
        head = self.book["running_header"]
        self.page_headers.append(
            {
                "page": num,
                "pdf_page_index": doc.page - 1,
                "text": head,
                "printed_as": head.upper(),  # small capitals, letter-spaced
                "number": str(num),
                "number_corner": "right" if odd else "left",
            }
        )
        y = H - st.top + 10 * mm
        runs = small_caps_runs(head, 8.2)
        space = 1.6
        width = sum(pdfmetrics.stringWidth(t, "Helvetica", s) + space * len(t) for t, s in runs)
        width -= space
        canv.saveState()
        t = canv.beginText((W - width) / 2, y)
        t.setCharSpace(space)
        t.setFillColor(colors.Color(0.35, 0.3, 0.34))
        for text, size in runs:
            t.setFont("Helvetica", size)
            t.textOut(text)
        canv.drawText(t)
        r = 4.3 * mm
        cx = W - st.right - r if odd else st.left + r
        cy = y + 2.6
        canv.setFillColor(st.box_border)
        canv.circle(cx, cy, r, stroke=0, fill=1)
        canv.setFillColor(colors.white)
        canv.setFont("Helvetica-Bold", 9.5)
        canv.drawCentredString(cx, cy - 3.3, str(num))
        canv.restoreState()

    def draw_foot_sidebar(self, canv, doc):
        """After the page's text: the page-foot sidebar in small type across both columns, under
        a short rule."""
        st = self.st
        W = st.page_size[0]
        width = W - st.left - st.right
        y = st.bottom + self.foot_h
        canv.saveState()
        canv.setStrokeColor(st.box_border)
        canv.setLineWidth(0.5)
        canv.line(st.left, y + 3 * mm, st.left + 40 * mm, y + 3 * mm)
        canv.restoreState()
        for p in self._foot_parts():
            _, h = p.wrap(width, 1000)
            y -= h
            p.drawOn(canv, st.left, y)
        self.foot_drawn = doc.page


def _story_f(book: dict, st: Style, sty) -> tuple[list, list, list, dict | None]:
    """The flowables of a style "f" book: (story, truth blocks, headings, page-foot block)."""
    story: list = []
    path: list[str] = []
    truth_blocks: list[dict] = []
    headings: list[dict] = []
    foot = None
    after_heading = False
    run_in = None  # a level-2 heading waiting for the paragraph it runs into
    blocks = book["blocks"]
    for n, block in enumerate(blocks):
        kind = block["type"]
        if kind == "heading":
            lvl, path, entry = new_heading(block, path, headings)
            nxt = blocks[n + 1] if n + 1 < len(blocks) else {}
            if lvl == 2 and st.run_in_h2 and nxt.get("type") == "paragraph":
                run_in = entry  # placed with its paragraph
                stop = "" if block["text"][-1:] in ".?!:" else "."
                entry.update(run_in=True, printed_as=block["text"] + stop)
                entry["id"] = None
                continue
            h = (RuledHeading if lvl == 1 else KeyedParagraph)(
                escape(block["text"]), sty[f"h{lvl}"]
            )
            if lvl == 1:
                h.rule_color = st.box_border
            h.gt_key = entry["id"]
            h.gt_level, h.gt_text = lvl, block["text"]
            story.append(h)
            after_heading = True
            continue
        row = truth_row(block, path)
        if kind == "paragraph" and run_in:
            head = (
                f'<font name="{st.h2_font}" size="{st.h2}" color="{_hex(st.h2_color)}">'
                f"{escape(run_in['printed_as'])}</font> "
            )
            p = KeyedParagraph(head + markup(block["text"], st), sty["body_run_in"])
            run_in["id"] = block["key"]  # the heading sits where its paragraph starts
            row["run_in_heading"] = run_in["printed_as"]
            run_in = None
        elif kind == "paragraph":
            p = KeyedParagraph(
                markup(block["text"], st), sty["body_first" if after_heading else "body"]
            )
        elif kind == "box" and block.get("place") == "page-foot":
            if foot is not None:
                raise ValueError("style f: one page-foot sidebar per book")
            foot = dict(block, anchor=truth_blocks[-1]["key"] if truth_blocks else None)
            row["placement"] = "page-foot"
            truth_blocks.append(row)
            continue
        elif kind == "box":
            p = None
            story += [Spacer(1, 3), RuleBox(block, st, sty), Spacer(1, 8)]
        else:
            raise ValueError(f"unknown block type {kind!r}")
        if p is not None:
            p.gt_key = block["key"]
            story.append(p)
        after_heading = False
        truth_blocks.append(row)
    return story, truth_blocks, headings, foot


def _layout_f(book: dict, st: Style, sty, out, foot_page: int | None, foot: dict | None):
    """One layout of a style "f" book into `out` (a file name or a binary file)."""
    story, truth_blocks, headings, _ = _story_f(book, st, sty)
    doc = MagazineDoc(out, book, st, foot_page=foot_page, foot_block=foot if foot_page else None,
                      sty=sty)  # fmt: skip
    cycle: str | list[str] = "later"
    if foot_page:
        if foot_page < 2:
            raise ValueError("style f: the page-foot sidebar cannot go on the first page")
        cycle = ["later"] * (foot_page - 2) + ["foot", "*", "later"]
    doc.build(
        [Paragraph(escape(book["title"]), sty["title"]), NextPageTemplate(cycle), FrameBreak()]
        + story
    )
    return doc, truth_blocks, headings


def build_pdf_f(book: dict, out_pdf_path, style: str = "f") -> dict:
    """Style "f" (see STYLES): laid out once to find the page of the page-foot sidebar (the page
    where the block before it in the book ends), then again with the sidebar at that page's foot."""
    st = STYLES[style]
    sty = _styles_f(st)
    out = Path(out_pdf_path)
    _, _, _, foot = _story_f(book, st, sty)
    anchor = foot["anchor"] if foot else None

    def last_page(doc) -> int:  # the PDF page where the block before the sidebar ends
        return max((pg for key, _, pg, _ in doc.placed if key == anchor), default=2)

    foot_page = 0  # none
    if foot:
        doc, _, _ = _layout_f(book, st, sty, io.BytesIO(), None, None)
        foot_page = max(2, last_page(doc))
        for _ in range(3):  # the shortened columns may push the block on: follow it
            doc, _, _ = _layout_f(book, st, sty, io.BytesIO(), foot_page, foot)
            if last_page(doc) <= foot_page:
                break
            foot_page = last_page(doc)
    doc, truth_blocks, headings = _layout_f(book, st, sty, str(out), foot_page or None, foot)
    if foot and doc.foot_drawn != foot_page:
        raise RuntimeError("style f: the page-foot sidebar was not drawn")

    for b in truth_blocks:
        if b.get("placement") == "page-foot":
            b.update(page=doc.printed(foot_page), pdf_page_index=foot_page - 1, column=0,
                     continues=[], split=None)  # fmt: skip
    place_truth(doc, headings, truth_blocks)
    w1, w2 = col_widths_f(st)
    truth = truth_head(book, style, doc, headings, truth_blocks)
    truth.update(
        page_size="210x270mm",
        columns={"first_page": st.first_page_columns, "later_pages": 2},
        column_widths_pt={"first_page": round(w1, 2), "later_pages": round(w2, 2)},
        page_headers=doc.page_headers,
    )
    return write_truth(out, truth)


# ---------------------------------------------------------------- style "g"
def col_width_g(st: Style) -> float:
    """Width of each of the two equal columns of style "g" (mirrored margins)."""
    return (st.page_size[0] - st.left - st.inner - st.gutter) / 2


def lead_in_g(text: str, size: float, words: int = 4) -> tuple[str, str, str] | None:
    """Style "g": the first `words` words of a chapter's first paragraph in small capitals.
    Returns (lead as written, its markup, the rest of the text) or None when the text opens
    with a bold lead term or an icon."""
    if LEAD_RE.match(text):
        return None
    m = re.match(r"(?:[A-Za-z][A-Za-z'’-]*[,;]? +){" + str(words) + "}", text)
    if not m:
        return None
    lead = m.group(0).rstrip(" ")
    return lead.rstrip(",;"), small_caps(lead, size, 0.8), text[len(lead) :]


class BarHeading(KeyedParagraph):
    """Style "g": a chapter heading with a short thick bar drawn just above it."""

    bar_color = None

    def draw(self):
        canv = self.canv
        canv.saveState()
        canv.setStrokeColor(self.bar_color)
        canv.setLineWidth(2.4)
        canv.line(0, self.height + 4.5, 24 * mm, self.height + 4.5)
        canv.restoreState()
        super().draw()


class RoundBox(ColumnBox):
    """Style "g": a box as wide as its column in a thin rounded frame on a pale fill, its title in
    sans capitals."""

    def _make(self, width: float) -> Table:
        return box_table(self.block, self.st, self.sty, width, title=self.block["title"].upper())

    def draw(self):
        canv, st = self.canv, self.st
        canv.saveState()
        canv.setFillColor(st.box_fill)
        canv.setStrokeColor(st.box_border)
        canv.setLineWidth(st.box_border_width)
        canv.roundRect(0, 0, self.width, self.height, 3.2 * mm, stroke=1, fill=1)
        canv.restoreState()
        self._table.drawOn(canv, 0, 0)


def _styles_g(st: Style) -> dict[str, ParagraphStyle]:
    sty = _styles(st)
    sty.update(
        h1=h1_style("h1_g", st, after=7),
        box=box_text_style("box_g", sty["body"], 8.7, 11.3, fontName="Helvetica"),
        boxtitle=ParagraphStyle(
            "boxtitle_g",
            fontName=st.box_title_font,
            fontSize=st.box_title_size,
            leading=st.box_title_size + 3,
            textColor=st.box_title_color,
            spaceAfter=3,
            alignment=TA_LEFT,
        ),
        title=title_style("title_g", "Helvetica-Bold", st, 1.15, textColor=colors.white),
        intro=ParagraphStyle(
            "intro_g",
            fontName="Times-Italic",
            fontSize=12.2,
            leading=15.6,
            alignment=TA_JUSTIFY,
            embeddedHyphenation=1,
            uriWasteReduce=0,
            textColor=colors.Color(0.18, 0.18, 0.2),
        ),
    )
    return sty


class GuideDoc(RulebookDoc):
    """Style "g": mirrored A4 pages, a coloured title band and a full-width introduction on the
    first page then two columns, the running header in the top inner corner, the chapter and the
    page number "Page N" centred at the foot."""

    BAND_H = 42 * mm

    def __init__(self, filename, book, st: Style, intro_h: float = 0, **kw):
        self._setup(filename, book, st, **kw)
        W, H = st.page_size
        colw = col_width_g(st)
        self.intro_h = intro_h
        self.intro_gap = 9 * mm if intro_h else 0

        def cols(page: int, top: float) -> list[Frame]:
            lm, _ = self.margins(page)
            return column_frames(lm, st.bottom, (colw, colw), st.gutter, top - st.bottom)

        lm, rm = self.margins(1)
        intro_top = H - self.BAND_H - 9 * mm
        col_top = intro_top - intro_h - self.intro_gap
        self.col_top_first = col_top
        first = [
            title_frame(lm, H - self.BAND_H + 7 * mm, W - lm - rm, self.BAND_H - 15 * mm),
            Frame(lm, intro_top - intro_h, W - lm - rm, intro_h, id="intro", **PAD0),
        ] + cols(1, col_top)  # fmt: skip
        if not intro_h:
            first.pop(1)
        self.add_mirrored_templates(
            first,
            lambda page: cols(page, H - st.top),
            onPage=self.draw_band,
            onPageEnd=self.draw_head_foot,
        )

    def afterFlowable(self, flowable):
        """As RulebookDoc's, but a page's top chapter is judged by its first printed block or
        heading (spacers and the title are passed over)."""
        if getattr(flowable, "gt_key", None):
            super().afterFlowable(flowable)

    def draw_band(self, canv, doc):
        """Before the page's text, first page only: the full-bleed title band, and a thin rule
        under the introduction."""
        if doc.page != 1:
            return
        st = self.st
        W, H = st.page_size
        lm, rm = self.margins(1)
        canv.saveState()
        canv.setFillColor(st.box_border)
        canv.rect(0, H - self.BAND_H, W, self.BAND_H, stroke=0, fill=1)
        canv.setFillColor(colors.Color(0.85, 0.62, 0.2))
        canv.rect(0, H - self.BAND_H - 1.6 * mm, W, 1.6 * mm, stroke=0, fill=1)
        if self.intro_h:
            y = self.col_top_first + self.intro_gap / 2
            canv.setStrokeColor(st.box_border)
            canv.setLineWidth(0.6)
            canv.line(lm, y, W - rm, y)
        canv.restoreState()

    def draw_head_foot(self, canv, doc):
        """After the page's text: the running header in the top inner corner (not on the first
        page) over a hairline, and at the foot, centred, "Chapter | Page N"."""
        st = self.st
        W, H = st.page_size
        page = doc.page
        num = self.printed(page)
        lm, rm = self.margins(page)
        odd = num % 2 == 1  # recto: the inner side is on the left
        chapter = self.chapter_at(page)
        head = self.book["running_header"] if page > 1 else None
        self.page_headers.append(
            {
                "page": num,
                "pdf_page_index": page - 1,
                "text": head,
                "corner": ("left" if odd else "right") if head else None,
            }
        )
        mark = f"Page {num}"
        self.page_footers.append(
            {
                "page": num,
                "pdf_page_index": page - 1,
                "chapter": chapter,
                "number": mark,
                "printed_as": f"{chapter} | {mark}" if chapter else mark,
            }
        )
        canv.saveState()
        if head:
            y = H - st.top + 9 * mm
            canv.setFillColor(colors.Color(0.38, 0.38, 0.4))
            canv.setFont("Helvetica-Oblique", 7.6)
            if odd:
                canv.drawString(lm, y, head)
            else:
                canv.drawRightString(W - rm, y, head)
            canv.setStrokeColor(colors.Color(0.6, 0.66, 0.68))
            canv.setLineWidth(0.4)
            canv.line(lm, y - 3, W - rm, y - 3)
        y = st.bottom - 12 * mm
        bar = "  |  "
        w_ch = pdfmetrics.stringWidth(chapter, "Helvetica", 7.6) if chapter else 0
        w_bar = pdfmetrics.stringWidth(bar, "Helvetica", 7.6) if chapter else 0
        w_num = pdfmetrics.stringWidth(mark, "Helvetica-Bold", 8.6)
        x = (W - w_ch - w_bar - w_num) / 2
        if chapter:
            canv.setFillColor(colors.Color(0.38, 0.38, 0.4))
            canv.setFont("Helvetica", 7.6)
            canv.drawString(x, y, chapter + bar)
        canv.setFillColor(st.box_border)
        canv.setFont("Helvetica-Bold", 8.6)
        canv.drawString(x + w_ch + w_bar, y, mark)
        canv.restoreState()


def build_pdf_g(book: dict, out_pdf_path, style: str = "g") -> dict:
    """Style "g" (see STYLES): the first block may be an introduction (`place: intro`) set across
    the page under the title band; the rest flows in two columns with numbered headings."""
    st = STYLES[style]
    sty = _styles_g(st)
    out = Path(out_pdf_path)
    W = st.page_size[0]
    blocks = list(book["blocks"])
    chapter_no = int(book.get("first_chapter", 1)) - 1
    section_no = 0
    story: list = []
    path: list[str] = []
    truth_blocks: list[dict] = []
    headings: list[dict] = []
    intro = None
    if blocks and blocks[0].get("place") == "intro":
        intro = blocks.pop(0)
        if intro["type"] != "paragraph":
            raise ValueError("style g: the introduction must be a paragraph")
    after = 0  # 1: right after a chapter heading, 2: right after a section heading
    for block in blocks:
        kind = block["type"]
        if block.get("place") == "intro":
            raise ValueError("style g: only the first block may be the introduction")
        # any other `place` (style f's page-foot sidebar) is set in the columns like other boxes
        if kind == "heading":
            lvl = int(block["level"])
            path = path[: lvl - 1] + [block["text"]]
            if lvl == 1:
                chapter_no, section_no = chapter_no + 1, 0
                number = str(chapter_no)
            else:
                section_no += 1
                number = f"{chapter_no}.{section_no}"
            text = f'<font color="{_hex(st.box_border)}">{number}</font> {escape(block["text"])}'
            h = (BarHeading if lvl == 1 else KeyedParagraph)(text, sty[f"h{lvl}"])
            if lvl == 1:
                h.bar_color = colors.Color(0.85, 0.62, 0.2)
            h.gt_key = f"#heading{len(headings)}"
            h.gt_level, h.gt_text = lvl, block["text"]
            story.append(h)
            headings.append(
                {
                    "id": h.gt_key,
                    "level": lvl,
                    "text": block["text"],
                    "number": number,
                    "printed_as": f"{number} {block['text']}",
                }
            )
            after = lvl
            continue
        row = truth_row(block, path)
        if kind == "paragraph":
            lead = lead_in_g(block["text"], st.size) if after == 1 else None
            if lead:
                written, caps, rest = lead
                row["small_caps_lead"] = written
                row["printed_lead"] = written.upper()
                text = caps + markup(rest, st, bold_lead=False)
            else:
                text = markup(block["text"], st)
            p = KeyedParagraph(text, sty["body_first" if after else "body"])
            p.gt_key = block["key"]
            story.append(p)
        elif kind == "box":
            row["printed_title"] = block["title"].upper()
            story += [Spacer(1, 4), RoundBox(block, st, sty), Spacer(1, 8)]
        else:
            raise ValueError(f"unknown block type {kind!r}")
        after = 0
        truth_blocks.append(row)

    head: list = [Paragraph(escape(book["title"]), sty["title"]), NextPageTemplate("later"),
                  FrameBreak()]  # fmt: skip
    intro_h = 0.0
    if intro:
        ip = KeyedParagraph(markup(intro["text"], st), sty["intro"])
        ip.gt_key = intro["key"]
        intro_h = ip.wrap(W - st.left - st.inner, 1000)[1] + 2
        head += [ip, FrameBreak()]
        truth_blocks.insert(0, dict(truth_row(intro, []), placement="full-width"))
    doc = GuideDoc(str(out), book, st, intro_h=intro_h)
    doc.build(head + story)

    def column(frame: str) -> int:
        return 0 if frame == "intro" else int(frame[-1])

    place_truth(doc, headings, truth_blocks, column)
    truth = truth_head(book, style, doc, headings, truth_blocks)
    truth.update(
        page_size="A4",
        mirrored=True,
        column_width_pt=round(col_width_g(st), 2),
        page_headers=doc.page_headers,
        page_footers=doc.page_footers,
    )
    return write_truth(out, truth)


# ---------------------------------------------------------------- style "h"
def col_width_h(st: Style) -> float:
    """Width of each of the two equal columns of style "h"."""
    return (st.page_size[0] - st.left - st.right - st.gutter) / 2


class CircledHeading(KeyedParagraph):
    """Style "h": a chapter heading led by its number, white in a filled circle of the style's
    colour; the heading text is indented past the circle."""

    number = ""
    color = None
    radius = 0.0

    def draw(self):
        canv, r = self.canv, self.radius
        cy = self.height - self.style.leading / 2 - 1
        canv.saveState()
        canv.setFillColor(self.color)
        canv.circle(r, cy, r, stroke=0, fill=1)
        canv.setFillColor(colors.white)
        canv.setFont("Times-Bold", r * 1.25)
        canv.drawCentredString(r, cy - r * 0.42, self.number)
        canv.restoreState()
        super().draw()


class StripBox(ColumnBox):
    """Style "h": a box as wide as its column, its title in white on a coloured header strip, its
    text on white inside a dashed border."""

    def _make(self, width: float) -> Table:
        st, sty = self.st, self.sty
        rows = [
            [Paragraph(escape(self.block["title"]), sty["boxtitle"])],
            [Paragraph(markup(self.block["text"], st), sty["box"])],
        ]
        t = Table(rows, colWidths=[width])
        lp, rp, tp, bp = st.box_padding
        t.setStyle(
            TableStyle(
                [("BACKGROUND", (0, 0), (-1, 0), st.box_border)]
                + [
                    (op, (0, 0), (-1, -1), v)
                    for op, v in (("LEFTPADDING", lp), ("RIGHTPADDING", rp))
                ]
                + [("TOPPADDING", (0, 0), (-1, 0), 3.2), ("BOTTOMPADDING", (0, 0), (-1, 0), 3.4)]
                + [("TOPPADDING", (0, 1), (-1, 1), tp), ("BOTTOMPADDING", (0, 1), (-1, 1), bp)]
            )
        )
        return t

    def draw(self):
        canv, st = self.canv, self.st
        self._table.drawOn(canv, 0, 0)
        canv.saveState()
        canv.setStrokeColor(st.box_border)
        canv.setLineWidth(st.box_border_width)
        canv.setDash(3, 2)
        canv.rect(0, 0, self.width, self.height, stroke=1, fill=0)
        canv.restoreState()


def _styles_h(st: Style) -> dict[str, ParagraphStyle]:
    sty = _styles(st)
    body = ParagraphStyle("body_h", parent=sty["body"], alignment=TA_LEFT)
    ink = st.box_border
    sty.update(
        body=body,
        body_first=ParagraphStyle("body_first_h", parent=body),
        bullet=ParagraphStyle(
            "bullet_h", parent=body, leftIndent=11, bulletIndent=1.5, spaceAfter=2.6,
            bulletFontName="VeraBd", bulletFontSize=st.size, bulletColor=ink,
        ),
        box=box_text_style("box_h", body, 8.6, 11.4, fontName="Vera"),
        boxtitle=ParagraphStyle(
            "boxtitle_h", fontName="Times-Bold", fontSize=st.box_title_size,
            leading=st.box_title_size + 2, textColor=colors.white, alignment=TA_LEFT,
        ),
        h1=h1_style("h1_h", st, 1.1, 9, ink),
        title=title_style("title_h", "Times-Bold", st, 1.1, textColor=ink),
    )  # fmt: skip
    sty["h1"].leftIndent = 2 * st.h1 * 0.62 + 7
    return sty


class SquareDoc(RulebookDoc):
    """Style "h": square pages, a title under a double rule on the first page, then two columns;
    at the foot the running header in the INNER corner and the page number in the OUTER corner
    over a coloured rule."""

    def __init__(self, filename, book, st: Style, **kw):
        self._setup(filename, book, st, **kw)
        colw = col_width_h(st)
        self.title_h = 26 * mm
        hooks = {"onPage": self.draw_title_rules, "onPageEnd": self.draw_foot_h}
        self.addPageTemplates(
            [
                PageTemplate("first", self.page_frames(1, self.title_h, (colw, colw)), **hooks),
                PageTemplate("later", self.page_frames(2, 0, (colw, colw)), **hooks),
            ]
        )

    def draw_title_rules(self, canv, doc):
        """Before the page's text, first page only: a double rule under the book title."""
        if doc.page != 1:
            return
        st = self.st
        W, H = st.page_size
        y = H - st.top - self.title_h + 3 * mm
        canv.saveState()
        canv.setStrokeColor(st.box_border)
        canv.setLineWidth(1.6)
        canv.line(st.left, y + 2.2, W - st.right, y + 2.2)
        canv.setLineWidth(0.5)
        canv.line(st.left, y, W - st.right, y)
        canv.restoreState()

    def draw_foot_h(self, canv, doc):
        """After the page's text: a coloured rule across the foot, the running header under it in
        the inner corner (left on odd, right-hand pages) and the page number in the outer one."""
        st = self.st
        W = st.page_size[0]
        num = self.printed(doc.page)
        odd = num % 2 == 1
        head = self.book["running_header"]
        inner, outer = ("left", "right") if odd else ("right", "left")
        foot = dict(text=head, text_corner=inner, number=str(num), number_corner=outer)
        self.page_footers.append({"page": num, "pdf_page_index": doc.page - 1, **foot})
        y = st.bottom - 13 * mm
        canv.saveState()
        canv.setStrokeColor(st.box_border)
        canv.setLineWidth(0.7)
        canv.line(st.left, y + 11, W - st.right, y + 11)
        canv.setFillColor(colors.Color(0.32, 0.3, 0.3))
        canv.setFont("VeraIt", 7.6)
        (canv.drawString if odd else canv.drawRightString)(
            st.left if odd else W - st.right, y, head
        )
        canv.setFillColor(st.box_border)
        canv.setFont("Times-Bold", 11)
        (canv.drawRightString if odd else canv.drawString)(
            W - st.right if odd else st.left, y, str(num)
        )
        canv.restoreState()


def build_pdf_h(book: dict, out_pdf_path, style: str = "h") -> dict:
    """Style "h" (see STYLES): numbered chapters in a circle, "§" section heads over a rule,
    bulleted paragraphs (`bullet: true`) with a hanging indent, boxes with a header strip."""
    _register_vera()
    st = STYLES[style]
    sty = _styles_h(st)
    out = Path(out_pdf_path)
    chapter_no = int(book.get("first_chapter", 1)) - 1
    story: list = [Paragraph(escape(book["title"]), sty["title"]), NextPageTemplate("later"),
                   FrameBreak()]  # fmt: skip
    path: list[str] = []
    truth_blocks: list[dict] = []
    headings: list[dict] = []
    for block in book["blocks"]:
        kind = block["type"]
        if kind == "heading":
            lvl, path, entry = new_heading(block, path, headings)
            if lvl == 1:
                chapter_no += 1
                h = CircledHeading(escape(block["text"]), sty["h1"])
                h.number, h.color, h.radius = str(chapter_no), st.box_border, st.h1 * 0.62
                entry.update(number=str(chapter_no), printed_as=f"{chapter_no} {block['text']}")
            else:
                h = RuledHeading(f"\u00a7\u2002{escape(block['text'])}", sty["h2"])
                h.rule_color = st.box_border
                entry.update(printed_as=f"\u00a7 {block['text']}")
            h.gt_key, h.gt_level, h.gt_text = entry["id"], lvl, block["text"]
            story.append(h)
            continue
        row = truth_row(block, path)
        truth_blocks.append(row)
        if kind == "box":
            story += [Spacer(1, 3), StripBox(block, st, sty), Spacer(1, 9)]
            continue
        if kind != "paragraph":
            raise ValueError(f"unknown block type {kind!r}")
        mark = "\u2022" if block.get("bullet") else None  # a list item: its own block
        p = KeyedParagraph(markup(block["text"], st), sty["bullet" if mark else "body"], mark)
        if mark:
            row.update(list_item=True, bullet=mark)
        p.gt_key = block["key"]
        story.append(p)
    doc = SquareDoc(str(out), book, st)
    doc.build(story)
    place_truth(doc, headings, truth_blocks)
    truth = truth_head(book, style, doc, headings, truth_blocks)
    truth.update(
        page_size="230x230mm",
        column_width_pt=round(col_width_h(st), 2),
        page_footers=doc.page_footers,
    )
    return write_truth(out, truth)


# ---------------------------------------------------------------- style "i"
ORNAMENT = "\u2756"  # ZapfDingbats: the small glyph before a style "i" section heading


def col_width_i(st: Style) -> float:
    """Width of each of the two equal columns of style "i"."""
    return (st.page_size[0] - st.left - st.right - st.gutter) / 2


class TabHeading(Flowable):
    """Style "i": a chapter heading in letter-spaced capitals beside a coloured tab on the column's
    left edge, over a thin rule as wide as the column."""

    TAB_W, SPACING = 2.2 * mm, 1.3

    def __init__(self, text: str, key: str, st: Style):
        super().__init__()
        self.text, self.st = text, st
        self.gt_key, self.gt_part, self.gt_level, self.gt_text = key, 0, 1, text
        self.keepWithNext = 1
        self.spaceBefore, self.spaceAfter = st.h1_space_before, 7

    def wrap(self, availWidth, availHeight):
        caps = self.text.upper()
        need = self.TAB_W + 2.4 * mm + pdfmetrics.stringWidth(caps, self.st.head_font, self.st.h1)
        if need + self.SPACING * len(caps) > availWidth:
            raise ValueError(f"style i: chapter heading too long for a column: {self.text!r}")
        self.width, self.height = availWidth, self.st.h1 * 1.25 + 5
        return self.width, self.height

    def split(self, availWidth, availHeight):
        return []

    def draw(self):
        canv, st = self.canv, self.st
        canv.saveState()
        canv.setFillColor(st.box_border)
        canv.rect(0, 3, self.TAB_W, self.height - 3, stroke=0, fill=1)
        t = canv.beginText(self.TAB_W + 2.4 * mm, 3 + st.h1 * 0.3)
        t.setFont(st.head_font, st.h1)
        t.setCharSpace(self.SPACING)
        t.textOut(self.text.upper())
        canv.drawText(t)
        canv.setStrokeColor(st.box_border)
        canv.setLineWidth(0.5)
        canv.line(0, 0.8, self.width, 0.8)
        canv.restoreState()


class DropCap(Flowable):
    """Style "i": the big initial of a chapter's first paragraph, `lines` body lines high (its
    top on the cap height of the first line, its foot on the baseline of the last)."""

    def __init__(self, letter: str, st: Style, lines: int = 3):
        super().__init__()
        self.letter, self.font = letter, "Times-Bold"
        cap = 0.718 * st.size + (lines - 1) * st.leading  # Helvetica's cap height, then lines
        self.size = cap / 0.662  # Times-Bold's cap height
        self.color = st.box_border
        self.width = pdfmetrics.stringWidth(letter, self.font, self.size)
        self.height = lines * st.leading - 1  # with the 1 pt under it: exactly `lines` lines
        self.base = self.height - (lines - 1) * st.leading - st.size * 0.94

    def wrap(self, availWidth, availHeight):
        return self.width, self.height

    def _restrictSize(self, availWidth, availHeight):  # as ImageAndFlowables asks of an image
        return self.width, self.height

    def _unRestrictSize(self):
        pass

    def draw(self):
        self.canv.saveState()
        self.canv.setFillColor(self.color)
        self.canv.setFont(self.font, self.size)
        self.canv.drawString(0, self.base, self.letter)
        self.canv.restoreState()


class DropCapParagraph(ImageAndFlowables):
    """Style "i": a paragraph whose first lines are set beside its drop cap; keeps its key when it
    is split across columns (the rest of the paragraph goes on as keyed parts)."""

    def __init__(self, letter: str, para: KeyedParagraph, st: Style):
        super().__init__(DropCap(letter, st), [para], imageRightPadding=2.2, imageBottomPadding=1,
                         imageSide="left")  # fmt: skip
        self.gt_key, self.gt_part = para.gt_key, 0

    def split(self, availWidth, availHeight):
        parts = super().split(availWidth, availHeight)
        if parts:
            parts[0].gt_key, parts[0].gt_part = self.gt_key, 0
        return parts


class SlateBox(ColumnBox):
    """Style "i": a box on a pale fill in a thin frame under a thick coloured top rule. With
    `full` (the width across both columns) it takes no place in a narrower frame, so that it moves
    on to the frame across the page."""

    full: float | None = None

    def _make(self, width: float) -> Table:
        st = self.st
        return box_table(self.block, st, self.sty, width, [
            ("BACKGROUND", (0, 0), (-1, -1), st.box_fill),
            ("BOX", (0, 0), (-1, -1), st.box_border_width, st.box_border),
            ("LINEABOVE", (0, 0), (-1, 0), 2.6, st.box_border),
        ])  # fmt: skip

    def wrap(self, availWidth, availHeight):
        w, h = super().wrap(availWidth, availHeight)
        if self.full and availWidth < self.full - 1:
            return w, availHeight + 1  # does not fit: on to the next frame
        return w, h


def _styles_i(st: Style) -> dict[str, ParagraphStyle]:
    sty = _styles(st)
    sty.update(
        step=ParagraphStyle(
            "step_i", parent=sty["body"], leftIndent=12, bulletIndent=1, spaceAfter=2.5,
            bulletFontName=st.bold_font, bulletFontSize=st.size, bulletColor=st.box_border,
        ),
        box=box_text_style("box_i", sty["body"], 8.8, 10.8, fontName="Times-Roman"),
        title=title_style("title_i", st.head_font, st, 1.12, textColor=st.box_border),
    )  # fmt: skip
    return sty


def drop_cap_of(text: str) -> str | None:
    """The drop cap of a chapter's first paragraph: its first letter when it opens a word of two
    or more letters and the text has no bold lead term."""
    return text[0] if re.match(r"[A-Za-z][a-z]", text) and not LEAD_RE.match(text) else None


def _story_i(book: dict, st: Style, sty, with_span: bool):
    """The flowables of a style "i" book (without the spanning box unless `with_span`): (story,
    truth blocks, headings, spanning box block or None, key of the block before it)."""
    story: list = []
    path: list[str] = []
    truth_blocks: list[dict] = []
    headings: list[dict] = []
    span = anchor = None
    step = 0  # number of the last numbered step, 0 after anything else
    chapter_start = False
    for block in book["blocks"]:
        kind = block["type"]
        if kind == "heading":
            lvl, path, entry = new_heading(block, path, headings)
            if lvl == 1:
                h = TabHeading(block["text"], entry["id"], st)
                entry.update(printed_as=block["text"].upper(), letter_spaced=True)
            else:
                mark = f'<font name="ZapfDingbats" size="{st.h2 - 1.5}">{ORNAMENT}</font>'
                h = KeyedParagraph(f"{mark}\u2002<u>{escape(block['text'])}</u>", sty["h2"])
                h.gt_key, h.gt_level, h.gt_text = entry["id"], lvl, block["text"]
                entry.update(underlined=True, marker={"char": ORNAMENT, "font": "ZapfDingbats"})
            story.append(h)
            step, chapter_start = 0, lvl == 1
            continue
        row = truth_row(block, path)
        if kind == "box" and block.get("place") == "span":
            if span is not None or not truth_blocks:
                raise ValueError("style i: one spanning box per book, after some other block")
            span, anchor = block, truth_blocks[-1]["key"]
            row["placement"] = "span"
            if with_span:  # the frame across the page comes next, even from the first column
                box = SlateBox(block, st, sty)
                box.full = st.page_size[0] - st.left - st.right
                story += [NextFrameFlowable("span"), box]
        elif kind == "box":
            story += [Spacer(1, 3), SlateBox(block, st, sty), Spacer(1, 8)]
        elif kind != "paragraph":
            raise ValueError(f"unknown block type {kind!r}")
        elif block.get("step"):
            step += 1
            row.update(list_item=True, number=f"{step}.")
            p = KeyedParagraph(markup(block["text"], st), sty["step"], f"{step}.")
            p.gt_key = block["key"]
            story.append(p)
        else:
            letter = drop_cap_of(block["text"]) if chapter_start else None
            p = KeyedParagraph(markup(block["text"][1:] if letter else block["text"], st),
                               sty["body"])  # fmt: skip
            p.gt_key = block["key"]
            if letter:
                row["drop_cap"] = letter
                p = DropCapParagraph(letter, p, st)
            story.append(p)
        if not block.get("step"):
            step = 0
        chapter_start = False
        truth_blocks.append(row)
    return story, truth_blocks, headings, span, anchor


class TabDoc(RulebookDoc):
    """Style "i": A5 pages, the title on the first page, two columns, on one page a box
    across both columns in the middle (the columns above it balanced, the columns going on under
    it), and on top of every page the chapter, the book's name and "p. N" in the outer corner."""

    SPAN_GAP = 4 * mm

    def __init__(self, filename, book, st: Style, span=None, **kw):
        """`span`: (upper column height, box height) of the page with the spanning box, or None."""
        self._setup(filename, book, st, **kw)
        self.colw = colw = col_width_i(st)
        self.title_h = 22 * mm
        hooks = {"onPage": self.draw_title_rule, "onPageEnd": self.draw_head_i}
        templates = [
            PageTemplate("first", self.page_frames(1, self.title_h, (colw, colw)), **hooks),
            PageTemplate("later", self.page_frames(2, 0, (colw, colw)), **hooks),
        ]
        if span:
            templates.append(PageTemplate("span", self.span_frames(*span), **hooks))
        self.addPageTemplates(templates)

    def span_frames(self, upper: float, box_h: float) -> list[Frame]:
        """Two columns `upper` high under the top margin, the frame across the page for the box,
        then two columns down to the bottom margin (their ids "low-col1", "low-col2")."""
        st = self.st
        W, H = st.page_size
        top, gap = H - st.top, self.SPAN_GAP
        span_h = box_h + 2 * gap
        above = column_frames(st.left, top - upper, (self.colw,) * 2, st.gutter, upper)
        pads = dict(leftPadding=0, rightPadding=0, topPadding=gap, bottomPadding=gap)
        across = Frame(
            st.left, top - upper - span_h, W - st.left - st.right, span_h, id="span", **pads
        )
        below_h = top - upper - span_h - st.bottom
        below = column_frames(st.left, st.bottom, (self.colw,) * 2, st.gutter, below_h)
        for f in below:
            f.id = "low-" + f.id
        return above + [across] + below

    def afterFlowable(self, flowable):
        """As RulebookDoc's, but only blocks and headings count for the chapter at a page's top."""
        if getattr(flowable, "gt_key", None):
            super().afterFlowable(flowable)

    def draw_title_rule(self, canv, doc):
        """Before the page's text, first page only: a thick coloured rule under the book title."""
        if doc.page == 1:
            st = self.st
            y = st.page_size[1] - st.top - self.title_h + 4 * mm
            canv.saveState()
            canv.setFillColor(st.box_border)
            canv.rect(st.left, y, st.page_size[0] - st.left - st.right, 1.4 * mm, stroke=0, fill=1)
            canv.restoreState()

    def draw_head_i(self, canv, doc):
        """After the page's text: over a hairline, the chapter on the left and the book's name on
        the right, the page number "p. N" in the outer corner beyond them."""
        st = self.st
        W, H = st.page_size
        num = self.printed(doc.page)
        odd = num % 2 == 1  # right-hand page: the number in the right corner
        chapter, book = self.chapter_at(doc.page), self.book["running_header"]
        mark = f"p. {num}"
        corner = "right" if odd else "left"
        self.page_headers.append(
            dict(page=num, pdf_page_index=doc.page - 1, chapter=chapter, book=book, number=mark,
                 number_corner=corner)
        )  # fmt: skip
        y = H - st.top + 8.5 * mm
        gap = 3.2 * mm
        w_mark = pdfmetrics.stringWidth(mark, st.bold_font, 8.5) + gap
        left, right = (st.left, W - st.right - w_mark) if odd else (st.left + w_mark, W - st.right)
        canv.saveState()
        canv.setFillColor(st.box_border)
        canv.setFont(st.bold_font, 8.5)
        if odd:
            canv.drawRightString(W - st.right, y, mark)
        else:
            canv.drawString(st.left, y, mark)
        canv.setFillColor(colors.Color(0.3, 0.3, 0.32))
        canv.setFont("Helvetica-Oblique", 7.6)
        canv.drawString(left, y, chapter)
        canv.drawRightString(right, y, book)
        canv.setStrokeColor(colors.Color(0.55, 0.6, 0.66))
        canv.setLineWidth(0.35)
        canv.line(st.left, y - 3.2, W - st.right, y - 3.2)
        canv.restoreState()


def _layout_i(book: dict, st: Style, sty, out, span_page: int = 0, upper: float = 0):
    """One layout of a style "i" book into `out` (a file name or a binary file); with `span_page`
    the spanning box goes across that PDF page under columns `upper` high."""
    story, truth_blocks, headings, span, _ = _story_i(book, st, sty, bool(span_page))
    cycle: str | list[str] = "later"
    geometry = None
    if span_page:
        if span_page < 2:
            raise ValueError("style i: the spanning box cannot go on the first page")
        cycle = ["later"] * (span_page - 2) + ["span", "*", "later"]
        box = SlateBox(span, st, sty)
        geometry = (upper, box.wrap(st.page_size[0] - st.left - st.right, 1000)[1])
    doc = TabDoc(out, book, st, span=geometry)
    doc.build(
        [Paragraph(escape(book["title"]), sty["title"]), NextPageTemplate(cycle), FrameBreak()]
        + story
    )
    return doc, truth_blocks, headings


def build_pdf_i(book: dict, out_pdf_path, style: str = "i") -> dict:
    """Style "i" (see STYLES): laid out once without the spanning box to find the page where the
    block before it ends, then with the box across that page, the height of the columns above it
    the least that holds what comes before the box (so they are balanced)."""
    from reportlab.platypus.doctemplate import LayoutError

    st = STYLES[style]
    sty = _styles_i(st)
    out = Path(out_pdf_path)
    _, _, _, span, anchor = _story_i(book, st, sty, False)
    page = upper = 0
    if span:
        doc, _, _ = _layout_i(book, st, sty, io.BytesIO())
        page = max(pg for key, _, pg, _ in doc.placed if key == anchor)

        def fits(h: float) -> bool:  # the box lands across `page` and no text spills into its frame
            try:
                doc, _, _ = _layout_i(book, st, sty, io.BytesIO(), page, h)
            except (LayoutError, ValueError):  # the box was reached on another page
                return False
            across = [(key, pg) for key, _, pg, frame in doc.placed if frame == "span"]
            return across == [(span["key"], page)]

        lo, hi = 2 * st.leading, st.page_size[1] - st.top - st.bottom - 130
        if not fits(hi):
            raise ValueError("style i: the spanning box does not fit under what comes before it")
        while hi - lo > 0.5:  # the least column height above the box
            mid = (lo + hi) / 2
            lo, hi = (lo, mid) if fits(mid) else (mid, hi)
        upper = hi
    doc, truth_blocks, headings = _layout_i(book, st, sty, str(out), page, upper)

    def column(frame: str) -> int:
        return 0 if frame == "span" else int(frame[-1])

    place_truth(doc, headings, truth_blocks, column)
    parts: dict[str, list[str]] = {}  # key -> frames of its parts, in order
    for key, _, _, frame in sorted(doc.placed, key=lambda r: r[:2]):
        parts.setdefault(key, []).append(frame)
    for b in truth_blocks:  # mark where a block (or a part of it) sits under the spanning box
        first, *rest = parts[b["key"]]
        if first.startswith("low-"):
            b["below_span"] = True
        for cont, frame in zip(b["continues"], rest):
            if frame.startswith("low-"):
                cont["below_span"] = True
    truth = truth_head(book, style, doc, headings, truth_blocks)
    truth.update(
        page_size="A5",
        column_width_pt=round(col_width_i(st), 2),
        page_headers=doc.page_headers,
        span_box={"key": span["key"], "page": doc.printed(page), "pdf_page_index": page - 1,
                  "columns_above_pt": round(upper, 2)} if span else None,
    )  # fmt: skip
    return write_truth(out, truth)


# ---------------------------------------------------------------- style "j"
TIP_W, TIP_GAP = 27 * mm, 5 * mm  # style "j": the slim "Tip:" column at the outer edge


def col_width_j(st: Style, tips: bool = False) -> float:
    """Width of each of the two equal columns of style "j" (narrower beside the tip column)."""
    text_w = st.page_size[0] - st.left - st.inner - (TIP_W + TIP_GAP if tips else 0)
    return (text_w - st.gutter) / 2


class RuleAboveHeading(KeyedParagraph):
    """Style "j": a heading under a thin rule as wide as its column, drawn in the space above it."""

    rule_width = 0.5
    rule_color = None

    def wrap(self, availWidth, availHeight):
        self._rule_w = availWidth
        return super().wrap(availWidth, availHeight)

    def draw(self):
        canv = self.canv
        canv.saveState()
        canv.setStrokeColor(self.rule_color)
        canv.setLineWidth(self.rule_width)
        y = self.height + 4.5
        canv.line(0, y, self._rule_w, y)
        canv.restoreState()
        super().draw()


class NeedSpace(Flowable):
    """Style "j": takes no room when at least `need` points are left in the frame, else moves what
    follows on to the next frame (so a heading is not left at a column's foot without its text,
    while the text after it may still run on into the next column)."""

    def __init__(self, need: float):
        super().__init__()
        self.need = need

    def wrap(self, availWidth, availHeight):
        return 0, (0 if availHeight >= self.need else availHeight + 1)

    def split(self, availWidth, availHeight):
        return []

    def draw(self):
        pass


class FootRuleBox(ColumnBox):
    """Style "j": a box as wide as its column on a light fill over a coloured rule at its foot,
    its title in coloured small capitals."""

    def _make(self, width: float) -> Table:
        st = self.st
        title = small_caps(self.block["title"], st.box_title_size, 0.8)
        cell = [Paragraph(title, self.sty["boxtitle"]),
                Paragraph(markup(self.block["text"], st), self.sty["box"])]  # fmt: skip
        t = Table([[cell]], colWidths=[width])
        lp, rp, tp, bp = st.box_padding
        t.setStyle(TableStyle([
            ("BACKGROUND", (0, 0), (-1, -1), st.box_fill),
            ("LINEBELOW", (0, -1), (-1, -1), st.box_border_width * 1.5, st.box_border),
            ("LEFTPADDING", (0, 0), (-1, -1), lp), ("RIGHTPADDING", (0, 0), (-1, -1), rp),
            ("TOPPADDING", (0, 0), (-1, -1), tp), ("BOTTOMPADDING", (0, 0), (-1, -1), bp),
        ]))  # fmt: skip
        return t


def _styles_j(st: Style) -> dict[str, ParagraphStyle]:
    sty = _styles(st)
    hang = dict(leftIndent=13, firstLineIndent=0, spaceAfter=2.5)
    sty.update(
        h1=h1_style("h1_j", st, 1.15, 8),
        h3=ParagraphStyle("h3_j", fontName="VeraBI", fontSize=st.size, leading=st.leading,
                          spaceBefore=6, spaceAfter=2, keepWithNext=1),
        step=ParagraphStyle("step_j", parent=sty["body"], bulletIndent=0, bulletFontName="VeraBd",
                            bulletFontSize=st.size, bulletColor=st.box_border, **hang),
        term=ParagraphStyle("term_j", parent=sty["body"], **dict(hang, firstLineIndent=-13)),
        box=box_text_style("box_j", sty["body"], 8.6, 11.6),
        tip=ParagraphStyle("tip_j", fontName="VeraIt", fontSize=7.6, leading=9.9,
                           textColor=colors.Color(0.22, 0.24, 0.24), spaceAfter=9),
        title=title_style("title_j", st.head_font, st, 1.12, textColor=st.box_border),
    )  # fmt: skip
    sty["h2"].spaceAfter = 5
    for name in ("h1", "h2", "h3"):  # kept with their text by NeedSpace instead
        sty[name].keepWithNext = 0
    return sty


def _story_j(book: dict, st: Style, sty) -> tuple[list, list, list, list]:
    """The flowables of a style "j" book: (story, truth blocks, headings, tips); a tip (a box
    marked `place: margin`) is not in the story but noted with the key of the block before it."""
    story, truth_blocks, headings, tips = [], [], [], []
    path: list[str] = []
    step, after_heading = 0, False  # step: letters of the last lettered step, 0 after all else
    for block in book["blocks"]:
        kind = block["type"]
        if kind == "heading":
            lvl, path, entry = new_heading(block, path, headings)
            head = sty[f"h{lvl}"]
            lines = 3 if lvl == 1 else 2  # body lines kept with the heading
            story.append(NeedSpace(head.spaceBefore + head.leading + lines * st.leading))
            if lvl < 3:
                h = RuleAboveHeading(escape(block["text"]), sty[f"h{lvl}"])
                h.rule_color, h.rule_width = st.box_border, (1.1 if lvl == 1 else 0.45)
                entry["rule_above"] = True
            else:
                h = KeyedParagraph(escape(block["text"]), sty["h3"])
                entry["bold_italic"] = True
            h.gt_key, h.gt_level, h.gt_text = entry["id"], lvl, block["text"]
            story.append(h)
            step, after_heading = 0, True
            continue
        row = truth_row(block, path)
        truth_blocks.append(row)
        if kind == "box" and block.get("place") == "margin":
            if not truth_blocks[:-1]:
                raise ValueError("style j: a tip must follow some other block")
            tips.append(dict(block, anchor=truth_blocks[-2]["key"]))
            row.update(placement="margin", printed_title=f"{block['title']}:")
            continue
        if kind == "box":
            row.update(printed_title=block["title"].upper(), small_caps_title=True)
            story += [Spacer(1, 4), FootRuleBox(block, st, sty), Spacer(1, 8)]
            step, after_heading = 0, False
            continue
        if kind != "paragraph":
            raise ValueError(f"unknown block type {kind!r}")
        text = markup(block["text"], st)
        if block.get("step"):
            step += 1
            mark = f"{chr(96 + step)})"
            row.update(list_item=True, number=mark)
            p = KeyedParagraph(text, sty["step"], mark)
        elif block.get("term"):
            term = block["term"]
            row.update(definition=True, term=term, printed_lead=f"{term} \u2014")
            lead = (
                f'<font name="{st.bold_font}" color="{_hex(st.box_border)}">{escape(term)}</font>'
            )
            p = KeyedParagraph(f"{lead} \u2014 {text}", sty["term"])
        else:
            p = KeyedParagraph(text, sty["body_first" if after_heading else "body"])
        if not block.get("step"):
            step = 0
        p.gt_key = block["key"]
        story.append(p)
        after_heading = False
    return story, truth_blocks, headings, tips


class BookletDoc(TabDoc):
    """Style "j": B5 pages with mirrored margins, the title on the first page, two columns, on some
    pages a slim column of "Tip:" notes at the outer edge (drawn after the text), the chapter in
    the top outer corner and, in the bottom inner corner, the page number beside the running
    header."""

    def __init__(self, filename, book, st: Style, tips=None, sty=None, **kw):
        """`tips`: PDF page (1-based) -> the tip blocks drawn in its outer column."""
        self._setup(filename, book, st, **kw)
        self.tips, self.sty, self.tips_drawn = tips or {}, sty, {}
        self.title_h = 25 * mm
        hooks = {"onPage": self.draw_foot_j, "onPageEnd": self.draw_head_j}
        first = self.printed(1) % 2 == 1
        self.addPageTemplates(
            [PageTemplate("first", self.frames_j(first, False, self.title_h), **hooks)]
            + [
                PageTemplate(
                    f"{kind}-{side}", self.frames_j(side == "odd", kind == "tips"), **hooks
                )
                for kind in ("plain", "tips")
                for side in ("odd", "even")
            ]
        )

    def frames_j(self, odd: bool, tips: bool, title_h: float = 0) -> list[Frame]:
        """Frames of a right-hand (`odd` printed number) or left-hand page: the title frame (first
        page), then two columns, moved off the outer edge when the page has a tip column."""
        st = self.st
        W, H = st.page_size
        lm, rm = (st.inner, st.left) if odd else (st.left, st.inner)
        x0 = lm + (TIP_W + TIP_GAP if tips and not odd else 0)
        top = H - st.top - title_h
        title = [title_frame(lm, top, W - lm - rm, title_h)] if title_h else []
        colw = col_width_j(st, tips)
        return title + column_frames(x0, st.bottom, (colw, colw), st.gutter, top - st.bottom)

    def cycle(self, pages: int) -> list[str]:
        """Template names for PDF pages 2.. (tips where asked), then left and right pages in turn."""
        names = []
        for page in range(2, pages + 3):
            side = "odd" if self.printed(page) % 2 else "even"
            names.append(f"{'tips' if page in self.tips else 'plain'}-{side}")
        return names + ["*"] + names[-2:]

    def draw_foot_j(self, canv, doc):
        """Before the page's text: in the bottom inner corner the page number beside the running
        header, over a short rule."""
        st = self.st
        W = st.page_size[0]
        num = self.printed(doc.page)
        odd = num % 2 == 1  # right-hand page: the inner corner is on the left
        head = self.book["running_header"]
        self.page_footers.append(dict(page=num, pdf_page_index=doc.page - 1, number=str(num),
                                      text=head, corner="left" if odd else "right"))  # fmt: skip
        y = st.bottom - 12 * mm
        gap = 2.6 * mm
        w_num = pdfmetrics.stringWidth(str(num), "Helvetica-Bold", 9)
        w_head = pdfmetrics.stringWidth(head, "VeraIt", 7.4)
        x = st.inner if odd else W - st.inner - w_num - gap - w_head
        x_num, x_head = (x, x + w_num + gap) if odd else (x + w_head + gap, x)
        canv.saveState()
        canv.setStrokeColor(st.box_border)
        canv.setLineWidth(0.6)
        canv.line(x, y + 10, x + w_num + gap + w_head, y + 10)
        grey = colors.Color(0.35, 0.37, 0.37)
        for ink, font, size, at, dy, text in (
            (st.box_border, "Helvetica-Bold", 9, x_num, 0, str(num)),
            (grey, "VeraIt", 7.4, x_head, 0.3, head),
        ):
            canv.setFillColor(ink)
            canv.setFont(font, size)
            canv.drawString(at, y + dy, text)
        canv.restoreState()

    def draw_head_j(self, canv, doc):
        """After the page's text: the chapter in the top outer corner, and the page's tips in the
        slim outer column beside a hairline."""
        st, page = self.st, doc.page
        W, H = st.page_size
        odd, chapter = self.printed(page) % 2 == 1, self.chapter_at(page)
        self.page_headers.append(dict(page=self.printed(page), pdf_page_index=page - 1,
                                      text=chapter, corner="right" if odd else "left"))  # fmt: skip
        canv.saveState()
        canv.setFillColor(st.box_border)
        canv.setFont("Helvetica-Bold", 7.8)
        y = H - st.top + 9 * mm
        if odd:
            canv.drawRightString(W - st.left, y, chapter.upper())
        else:
            canv.drawString(st.left, y, chapter.upper())
        canv.restoreState()
        if page not in self.tips:
            return
        x = W - st.left - TIP_W if odd else st.left
        rule_x = x - TIP_GAP / 2 if odd else x + TIP_W + TIP_GAP / 2
        y = H - st.top
        canv.saveState()
        canv.setStrokeColor(colors.Color(0.6, 0.7, 0.67))
        canv.setLineWidth(0.4)
        canv.line(rule_x, st.bottom, rule_x, y)
        canv.restoreState()
        for block in self.tips[page]:
            lead = f'<font name="VeraBd" color="{_hex(st.box_border)}">{escape(block["title"])}:</font>'
            p = Paragraph(f"{lead} {markup(block['text'], st)}", self.sty["tip"])
            _, h = p.wrap(TIP_W, H)
            y -= h
            p.drawOn(canv, x, y)
            y -= self.sty["tip"].spaceAfter
            self.tips_drawn[block["key"]] = page


def _layout_j(book: dict, st: Style, sty, out, tips: dict[int, list]):
    """One layout of a style "j" book into `out` (a file name or a binary file), the tips drawn on
    the PDF pages given."""
    story, truth_blocks, headings, _ = _story_j(book, st, sty)
    doc = BookletDoc(out, book, st, tips=tips, sty=sty)
    pages = max([len(story) // 4 + 4] + list(tips))
    doc.build([Paragraph(escape(book["title"]), sty["title"]), NextPageTemplate(doc.cycle(pages)),
               FrameBreak()] + story)  # fmt: skip
    return doc, truth_blocks, headings


def build_pdf_j(book: dict, out_pdf_path, style: str = "j") -> dict:
    """Style "j" (see STYLES): laid out until every tip sits on the page where the block before
    it ends (a page with tips has narrower columns, which may move that block on)."""
    _register_vera()
    st = STYLES[style]
    sty = _styles_j(st)
    out = Path(out_pdf_path)
    *_, tips = _story_j(book, st, sty)

    def pages_of(doc) -> dict[int, list]:
        last = {}
        for key, _, pg, _ in doc.placed:
            last[key] = max(pg, last.get(key, 0))
        found: dict[int, list] = {}
        for tip in tips:
            found.setdefault(max(2, last[tip["anchor"]]), []).append(tip)
        return found

    where: dict[int, list] = {}
    for _ in range(5):
        doc, _, _ = _layout_j(book, st, sty, io.BytesIO(), where)
        found = pages_of(doc)
        if found == where:
            break
        where = found
    else:
        raise RuntimeError("style j: the tips do not settle on a page")
    doc, truth_blocks, headings = _layout_j(book, st, sty, str(out), where)
    if pages_of(doc) != where or len(doc.tips_drawn) != len(tips):
        raise RuntimeError("style j: a tip was not drawn beside the block before it")
    for b in truth_blocks:
        if b.get("placement") == "margin":
            page = doc.tips_drawn[b["key"]]
            b.update(page=doc.printed(page), pdf_page_index=page - 1, column=0, continues=[],
                     split=None)  # fmt: skip
    place_truth(doc, headings, truth_blocks)
    truth = truth_head(book, style, doc, headings, truth_blocks)
    truth.update(
        page_size="B5",
        mirrored=True,
        column_width_pt={"plain": round(col_width_j(st), 2), "with_tips": round(col_width_j(st, True), 2)},
        tip_column={"width_pt": round(TIP_W, 2), "side": "outer",
                    "pages": [doc.printed(p) for p in sorted(where)]},
        page_headers=doc.page_headers,
        page_footers=doc.page_footers,
    )  # fmt: skip
    return write_truth(out, truth)


# ---------------------------------------------------------------- style "k"
KEYWORD_RE = re.compile(r"\*([^*]+)\*")  # style "k": a *keyword* in a book's text
NOTE_GAP = 5 * mm  # style "k": room between a column's text and the footnotes at its foot
GREY_K = colors.Color(0.33, 0.31, 0.29)


def col_width_k(st: Style) -> float:
    """Width of each of the two equal columns of style "k"."""
    return (st.page_size[0] - st.left - st.right - st.gutter) / 2


def keyword_markup(text: str, st: Style) -> str:
    """markup() of a style "k" text with its *keywords* bold in the style's colour."""
    font = f'<font name="{st.bold_font}" color="{_hex(st.box_border)}">'
    return KEYWORD_RE.sub(lambda m: f"{font}{m.group(1)}</font>", markup(text, st))


class SplitBox(Flowable):
    """Style "k": a box as wide as its column on a pale fill under a thick coloured rule. Unlike
    the other styles' boxes it splits across columns and pages: the rest goes on in the next
    column under the title "... (continued)"; every part keeps the box's key."""

    def __init__(self, block, st: Style, sty, text: Paragraph | None = None, part: int = 0):
        super().__init__()
        self.block, self.st, self.sty = block, st, sty
        self.gt_key, self.gt_part = block["key"], part
        title = block["title"] + (" (continued)" if part else "")
        self.title = Paragraph(escape(title), sty["boxtitle"])
        self.text = text or Paragraph(keyword_markup(block["text"], st), sty["box"])

    def wrap(self, availWidth, availHeight):
        lp, rp, tp, bp = self.st.box_padding
        inner = availWidth - lp - rp
        self._th = self.title.wrap(inner, availHeight)[1]
        self._bh = self.text.wrap(inner, availHeight)[1]
        self.width = availWidth
        self.height = tp + self._th + self.sty["boxtitle"].spaceAfter + self._bh + bp
        return self.width, self.height

    def split(self, availWidth, availHeight):
        lp, rp, tp, bp = self.st.box_padding
        self.wrap(availWidth, availHeight)
        room = availHeight - tp - bp - self._th - self.sty["boxtitle"].spaceAfter
        if room < 2 * self.sty["box"].leading:
            return []  # not even two lines: the whole box moves on
        parts = self.text.split(availWidth - lp - rp, room)
        if len(parts) < 2:
            return []
        return [SplitBox(self.block, self.st, self.sty, parts[0], self.gt_part),
                SplitBox(self.block, self.st, self.sty, parts[1], self.gt_part + 1)]  # fmt: skip

    def draw(self):
        canv, st = self.canv, self.st
        lp, _, tp, _ = st.box_padding
        canv.saveState()
        canv.setFillColor(st.box_fill)
        canv.rect(0, 0, self.width, self.height, stroke=0, fill=1)
        canv.setStrokeColor(st.box_border)
        canv.setLineWidth(st.box_border_width)
        canv.line(0, self.height, self.width, self.height)
        canv.restoreState()
        y = self.height - tp - self._th
        self.title.drawOn(canv, lp, y)
        self.text.drawOn(canv, lp, y - self.sty["boxtitle"].spaceAfter - self._bh)


def _styles_k(st: Style) -> dict[str, ParagraphStyle]:
    sty = _styles(st)
    sty.update(
        h1=h1_style("h1_k", st, 1.15, 5),
        h3=ParagraphStyle("h3_k", fontName="Times-BoldItalic", fontSize=st.size + 0.6,
                          leading=st.leading, spaceBefore=6, spaceAfter=2, keepWithNext=1),
        flavour=ParagraphStyle("flavour_k", fontName="Times-Italic", fontSize=10.4, leading=13,
                               leftIndent=12, rightIndent=12, spaceAfter=7, textColor=GREY_K,
                               embeddedHyphenation=1, uriWasteReduce=0, keepWithNext=1),
        box=box_text_style("box_k", sty["body"], 9.2, 11.8, fontName="Helvetica"),
        note=ParagraphStyle("note_k", fontName="Times-Roman", fontSize=7.8, leading=9.5,
                            textColor=GREY_K, spaceAfter=2),
        title=title_style("title_k", st.head_font, st, 1.08, textColor=st.box_border),
    )  # fmt: skip
    sty["boxtitle"].leading = st.box_title_size + 2.5
    return sty


def footnote_marks(blocks: list[dict]) -> dict[str, str]:
    """Style "k": the marker ("1", "2", ...) of every footnote (a paragraph marked `place:
    footnote`), under its own key and under the key of the paragraph before it."""
    marks: dict[str, str] = {}
    for prev, block in zip(blocks, blocks[1:]):
        if block.get("place") != "footnote":
            continue
        if block["type"] != "paragraph" or prev.get("type") != "paragraph" or prev.get("place"):
            raise ValueError("style k: a footnote is a paragraph after an ordinary paragraph")
        marks[block["key"]] = marks[prev["key"]] = str(len(marks) // 2 + 1)
    if blocks and blocks[0].get("place") == "footnote":
        raise ValueError("style k: a footnote must follow a paragraph")
    return marks


def _story_k(book: dict, st: Style, sty) -> tuple[list, list, list, list]:
    """The flowables of a style "k" book: (story, truth blocks, headings, footnotes); a footnote is
    not in the story but noted with its marker and the key of the paragraph before it (which ends
    in the superscript marker)."""
    story, truth_blocks, headings, notes = [], [], [], []
    path: list[str] = []
    blocks = book["blocks"]
    marks = footnote_marks(blocks)
    after_heading = False
    for block in blocks:
        kind, key = block["type"], block.get("key")
        if kind == "heading":
            lvl, path, entry = new_heading(block, path, headings)
            h = KeyedParagraph(escape(block["text"]), sty[f"h{lvl}"])
            h.gt_key, h.gt_level, h.gt_text = entry["id"], lvl, block["text"]
            story.append(h)
            after_heading = True
            continue
        words = KEYWORD_RE.findall(block["text"])
        row = truth_row(dict(block, text=KEYWORD_RE.sub(r"\1", block["text"])), path)
        if words:
            row["keywords"] = words
        truth_blocks.append(row)
        if block.get("place") == "footnote":
            notes.append(dict(block, anchor=truth_blocks[-2]["key"], marker=marks[key]))
            row.update(placement="footnote", marker=marks[key], anchor=truth_blocks[-2]["key"])
            continue
        if kind == "box":
            story += [Spacer(1, 3), SplitBox(block, st, sty), Spacer(1, 8)]
            after_heading = False
            continue
        if kind != "paragraph":
            raise ValueError(f"unknown block type {kind!r}")
        text = keyword_markup(block["text"], st)
        if key in marks:
            text += f'<super><font color="{_hex(st.box_border)}">{marks[key]}</font></super>'
            row["footnote_marker"] = marks[key]
        if block.get("flavour"):
            row.update(flavour=True, printed_as=f"\u201c{row['plain_text']}\u201d")
            p = KeyedParagraph(f"\u201c{text}\u201d", sty["flavour"])
        else:
            p = KeyedParagraph(text, sty["body_first" if after_heading else "body"])
            after_heading = False
        p.gt_key = key
        story.append(p)
    return story, truth_blocks, headings, notes


def note_paras(blocks: list[dict], st: Style, sty) -> list[Paragraph]:
    """Style "k": the footnotes given, each led by its superscript marker, in small type."""
    return [
        Paragraph(f"<super>{b['marker']}</super>\u2002{keyword_markup(b['text'], st)}", sty["note"])
        for b in blocks
    ]


def notes_height(paras: list[Paragraph], width: float, sty) -> float:
    """Style "k": the height the footnotes take at a column's foot, the gap above them included."""
    h = sum(p.wrap(width, 1000)[1] + sty["note"].spaceAfter for p in paras)
    return h + NOTE_GAP if paras else 0


class LandscapeDoc(TabDoc):
    """Style "k": landscape pages, the title on the first page, two columns (shortened where
    footnotes sit at their foot), on top the page number in the INNER corner and the running header
    in the outer one, at the foot the chapter centred and "continued overleaf" on pages whose last
    block runs on."""

    def __init__(self, filename, book, st: Style, notes=None, lifts=None, continued=(), sty=None,
                 **kw):  # fmt: skip
        """`notes`: (PDF page, column) -> the footnotes at that column's foot; `lifts`: (PDF page,
        column) -> the height kept free at that column's foot (at least its footnotes' height);
        `continued`: the PDF pages whose last block goes on to the next page."""
        self._setup(filename, book, st, **kw)
        self.notes, self.continued, self.sty = notes or {}, set(continued), sty
        self.lifts = lifts or {}
        self.notes_drawn: dict[str, tuple[int, int]] = {}
        self.colw = col_width_k(st)
        title = Paragraph(escape(book["title"]), sty["title"])  # one or two lines high
        self.title_h = title.wrap(st.page_size[0] - st.left - st.right, 1000)[1] + 8 * mm
        hooks = {"onPage": self.draw_head_k, "onPageEnd": self.draw_foot_k}
        pages = sorted({pg for pg, _ in self.lifts if pg > 1})
        self.addPageTemplates(
            [PageTemplate("first", self.frames_k(1, self.title_h), **hooks),
             PageTemplate("plain", self.frames_k(0), **hooks)]
            + [PageTemplate(f"notes-{pg}", self.frames_k(pg), **hooks) for pg in pages]
        )  # fmt: skip

    def note_paras(self, page: int, col: int) -> list[Paragraph]:
        return note_paras(self.notes.get((page, col), []), self.st, self.sty)

    def frames_k(self, page: int, title_h: float = 0) -> list[Frame]:
        """Frames of PDF page `page` (0: a page without footnotes): the title frame, then two
        columns, each raised above the footnotes at its foot."""
        st = self.st
        W, H = st.page_size
        top = H - st.top - title_h
        frames = [title_frame(st.left, top, W - st.left - st.right, title_h)] if title_h else []
        for col in (1, 2):
            lift = self.lifts.get((page, col), 0)
            x = st.left + (col - 1) * (self.colw + st.gutter)
            frames.append(Frame(x, st.bottom + lift, self.colw, top - st.bottom - lift,
                                id=f"col{col}", **PAD0))  # fmt: skip
        return frames

    def cycle(self, pages: int) -> list[str]:
        """Template names for PDF pages 2..`pages` (footnotes where asked), then plain pages."""
        with_notes = {pg for pg, _ in self.lifts}
        names = [f"notes-{pg}" if pg in with_notes else "plain" for pg in range(2, pages + 1)]
        return names + ["*", "plain"]

    def draw_head_k(self, canv, doc):
        """Before the page's text: over a thin rule across the page, the page number in the top
        INNER corner (left on odd, right-hand pages) and the running header in the outer one (not
        on the first page, which has a thick rule under the book title instead)."""
        st, page = self.st, doc.page
        W, H = st.page_size
        num = self.printed(page)
        odd = num % 2 == 1
        head = self.book["running_header"] if page > 1 else None
        self.page_headers.append(
            dict(
                page=num,
                pdf_page_index=page - 1,
                number=str(num),
                number_corner="left" if odd else "right",
                text=head,
                text_corner=("right" if odd else "left") if head else None,
            )
        )
        y = H - st.top + 7 * mm
        canv.saveState()
        canv.setStrokeColor(st.box_border)
        canv.setLineWidth(0.4)
        canv.line(st.left, y - 3, W - st.right, y - 3)
        if page == 1:
            canv.setLineWidth(1.8)
            canv.line(
                st.left,
                H - st.top - self.title_h + 4 * mm,
                W - st.right,
                H - st.top - self.title_h + 4 * mm,
            )
        canv.setFillColor(st.box_border)
        canv.setFont("Helvetica-Bold", 9.5)
        (canv.drawString if odd else canv.drawRightString)(
            st.left if odd else W - st.right, y, str(num)
        )
        if head:
            canv.setFillColor(GREY_K)
            canv.setFont("Helvetica", 7.8)
            (canv.drawRightString if odd else canv.drawString)(
                W - st.right if odd else st.left, y, head
            )
        canv.restoreState()  # fmt: skip

    def draw_foot_k(self, canv, doc):
        """After the page's text: the footnotes at the foot of their columns under a short rule,
        the chapter in effect at the page's top centred at the foot, and "continued overleaf" under
        the second column when the page's last block goes on to the next page."""
        st, page = self.st, doc.page
        W = st.page_size[0]
        chapter = self.chapter_at(page) or None
        note = "continued overleaf" if page in self.continued else None
        self.page_footers.append(
            dict(
                page=self.printed(page),
                pdf_page_index=page - 1,
                text=chapter,
                position="centre",
                continued_note=note,
            )
        )
        for col in (1, 2):
            self.draw_notes(canv, page, col)
        canv.saveState()
        canv.setFont("Times-Italic", 8.4)
        canv.setFillColor(GREY_K)
        if chapter:
            canv.drawCentredString(W / 2, st.bottom - 10 * mm, chapter)
        if note:
            canv.setFillColor(st.box_border)
            canv.drawRightString(W - st.right, st.bottom - 4.5 * mm, note)
        canv.restoreState()  # fmt: skip

    def draw_notes(self, canv, page: int, col: int) -> None:
        paras = self.note_paras(page, col)
        if not paras:
            return
        st = self.st
        x = st.left + (col - 1) * (self.colw + st.gutter)
        y = st.bottom + notes_height(paras, self.colw, self.sty) - NOTE_GAP
        canv.saveState()
        canv.setStrokeColor(st.box_border)
        canv.setLineWidth(0.5)
        canv.line(x, y + 2.2 * mm, x + 28 * mm, y + 2.2 * mm)
        canv.restoreState()
        for block, p in zip(self.notes[(page, col)], paras):
            _, h = p.wrap(self.colw, 1000)
            y -= h
            p.drawOn(canv, x, y)
            y -= self.sty["note"].spaceAfter
            self.notes_drawn[block["key"]] = (page, col)


def _layout_k(book: dict, st: Style, sty, out, notes: dict, lifts: dict, continued=()):
    """One layout of a style "k" book into `out` (a file name or a binary file), the footnotes at
    the foot of the (PDF page, column) given, the columns' feet kept free as `lifts` says,
    "continued overleaf" on the pages given."""
    story, truth_blocks, headings, _ = _story_k(book, st, sty)
    doc = LandscapeDoc(out, book, st, notes=notes, lifts=lifts, continued=continued, sty=sty)
    pages = max([len(story) // 4 + 4] + [pg for pg, _ in lifts])
    doc.build([Paragraph(escape(book["title"]), sty["title"]), NextPageTemplate(doc.cycle(pages)),
               FrameBreak()] + story)  # fmt: skip
    return doc, truth_blocks, headings


def runs_on(doc) -> list[int]:
    """The PDF pages whose last placed block (or part of one) goes on to the next page."""
    out = []
    for page in range(1, doc.page):
        keys = [key for key, _, pg, _ in doc.placed if pg == page]
        if keys and any(k == keys[-1] and pg == page + 1 for k, _, pg, _ in doc.placed):
            out.append(page)
    return out


def build_pdf_k(book: dict, out_pdf_path, style: str = "k") -> dict:
    """Style "k" (see STYLES): laid out until every footnote sits at the foot of the column where
    the paragraph before it ends (that column is shortened, which may move the paragraph on; a foot
    once kept free stays free, so the layouts settle), then once more with "continued overleaf" on
    the pages whose last block runs on."""
    st = STYLES[style]
    sty = _styles_k(st)
    out = Path(out_pdf_path)
    *_, notes = _story_k(book, st, sty)

    def where_of(doc) -> dict[tuple[int, int], list]:
        last: dict[str, tuple[int, int]] = {}
        for key, _, pg, frame in doc.placed:
            last[key] = max((pg, frame_column(frame)), last.get(key, (0, 0)))
        found: dict[tuple[int, int], list] = {}
        for note in notes:
            found.setdefault(last[note["anchor"]], []).append(note)
        return found

    where: dict[tuple[int, int], list] = {}
    lifts: dict[tuple[int, int], float] = {}
    for _ in range(8):
        doc, _, _ = _layout_k(book, st, sty, io.BytesIO(), where, lifts)
        found = where_of(doc)
        grown = dict(lifts)  # a foot once kept free stays free, so the layout settles
        for spot, blocks in found.items():
            height = notes_height(note_paras(blocks, st, sty), col_width_k(st), sty)
            grown[spot] = max(height, lifts.get(spot, 0))
        if found == where and grown == lifts:
            break
        where, lifts = found, grown
    else:
        raise RuntimeError("style k: the footnotes do not settle in a column")
    continued = runs_on(doc)
    doc, truth_blocks, headings = _layout_k(book, st, sty, str(out), where, lifts, continued)
    if where_of(doc) != where or runs_on(doc) != continued or len(doc.notes_drawn) != len(notes):
        raise RuntimeError("style k: a footnote or a note moved in the last layout")
    for b in truth_blocks:
        if b.get("placement") == "footnote":
            page, col = doc.notes_drawn[b["key"]]
            b.update(page=doc.printed(page), pdf_page_index=page - 1, column=0,
                     foot_of_column=col, continues=[], split=None)  # fmt: skip
    place_truth(doc, headings, truth_blocks)
    for b in truth_blocks:
        if b["kind"] == "box" and b["continues"]:
            b["printed_continued_title"] = f"{b['title']} (continued)"
    truth = truth_head(book, style, doc, headings, truth_blocks)
    truth.update(
        page_size="250x176mm",
        orientation="landscape",
        column_width_pt=round(col_width_k(st), 2),
        footnotes=[{k: b[k] for k in ("key", "marker", "anchor", "page", "pdf_page_index",
                                      "foot_of_column")}
                   for b in truth_blocks if b.get("placement") == "footnote"],
        page_headers=doc.page_headers,
        page_footers=doc.page_footers,
    )  # fmt: skip
    return write_truth(out, truth)


# ---------------------------------------------------------------- style "l"
PAPER_L = colors.Color(0.976, 0.958, 0.914)  # style "l": the tint printed over the whole page
TAB_L = {"w": 8 * mm, "h": 15 * mm, "first": 30 * mm, "step": 19 * mm}  # thumb tabs, outer edge
FIGURE_L = (27 * mm, 22 * mm)  # style "l": the drawn picture a paragraph's first lines wrap around
INSET_L = 5.5 * mm  # style "l": how far an inset sidebar stands in from each side of its column
FAQ_LEADS = {"q": ("Q:", "question"), "a": ("A:", "answer")}


def chapter_numbers(book: dict) -> dict[str, int]:
    """The number of every chapter (level-1 heading) by its text, counted from `first_chapter`."""
    heads = [b["text"] for b in book["blocks"] if b["type"] == "heading" and int(b["level"]) == 1]
    return {text: n for n, text in enumerate(heads, int(book.get("first_chapter", 1)))}


class Picture(DropCap):
    """Style "l": a drawn picture without text (a framed panel with a hex tile and a figure on it)
    set at the right of a paragraph's first lines, which are shortened to run beside it."""

    def __init__(self, st: Style):
        Flowable.__init__(self)
        self.st = st
        self.width, self.height = FIGURE_L

    def draw(self):
        canv, st, (w, h) = self.canv, self.st, FIGURE_L
        canv.saveState()
        canv.setFillColor(colors.Color(0.84, 0.86, 0.9))
        canv.setStrokeColor(st.box_border)
        canv.setLineWidth(0.7)
        canv.rect(0, 0, w, h, stroke=1, fill=1)
        r, cx, cy = h * 0.34, w / 2, h / 2
        path = canv.beginPath()
        corners = [(cx + r * c, cy + r * s) for c, s in
                   ((1, 0), (0.5, 0.866), (-0.5, 0.866), (-1, 0), (-0.5, -0.866), (0.5, -0.866))]  # fmt: skip
        path.moveTo(*corners[-1])
        for x, y in corners:
            path.lineTo(x, y)
        canv.setFillColor(colors.Color(0.93, 0.92, 0.86))
        canv.drawPath(path, stroke=1, fill=1)
        canv.setFillColor(st.box_border)
        canv.circle(cx, cy, r * 0.32, stroke=0, fill=1)
        canv.restoreState()


class FigureParagraph(DropCapParagraph):
    """Style "l": a paragraph whose first lines run beside a picture at the column's right edge;
    keeps its key when it is split across columns."""

    def __init__(self, para: KeyedParagraph, st: Style):
        ImageAndFlowables.__init__(self, Picture(st), [para], imageLeftPadding=3 * mm,
                                   imageBottomPadding=2, imageSide="right")  # fmt: skip
        self.gt_key, self.gt_part = para.gt_key, 0


class PanelBox(ColumnBox):
    """Style "l": a white panel in a thin coloured frame as wide as its column, its title in a
    coloured sans; a box with `rows` adds a two-column table of values under its text."""

    def _make(self, width: float) -> Table:
        st, block = self.st, self.block
        inner = width - st.box_padding[0] - st.box_padding[1]
        extra = [values_table(block, inner, self.sty)] if block.get("rows") else []
        return box_table(block, st, self.sty, width, [
            ("BACKGROUND", (0, 0), (-1, -1), st.box_fill),
            ("BOX", (0, 0), (-1, -1), st.box_border_width, st.box_border),
        ], extra=extra)  # fmt: skip


class InsetBox(ColumnBox):
    """Style "l": a sidebar in a NARROWER measure, standing in from both sides of its column, on
    no fill beside a thick coloured bar on its left, its text in a small sans italic."""

    def _make(self, width: float) -> Table:
        st = self.st
        sty = dict(self.sty, box=self.sty["inset"])
        bar = [("LINEBEFORE", (0, 0), (-1, -1), 2.4, st.box_border)]
        return box_table(self.block, st, sty, width, bar)

    def wrap(self, availWidth, availHeight):
        self._table = self._make(availWidth - 2 * INSET_L)
        _, self.height = self._table.wrap(availWidth - 2 * INSET_L, availHeight)
        self.width = availWidth
        return self.width, self.height

    def draw(self):
        self._table.drawOn(self.canv, INSET_L, 0)


def values_table(block: dict, width: float, sty) -> Table:
    """Style "l": a box's table of values: a header row in coloured bold, then its rows, two
    columns under thin rules."""
    rows = [[Paragraph(escape(c), sty["cell_head"]) for c in block["header"]]]
    rows += [[Paragraph(escape(c), sty["cell"]) for c in row] for row in block["rows"]]
    t = Table(rows, colWidths=[width * 0.58, width * 0.42])
    t.setStyle(TableStyle([
        ("LINEBELOW", (0, 0), (-1, 0), 0.9, sty["cell_head"].textColor),
        ("LINEBELOW", (0, 1), (-1, -1), 0.3, colors.Color(0.6, 0.6, 0.62)),
        ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 4),
        ("TOPPADDING", (0, 0), (-1, -1), 2.5), ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
    ]))  # fmt: skip
    t.spaceBefore = 5
    return t


def _styles_l(st: Style) -> dict[str, ParagraphStyle]:
    sty = _styles(st)
    faq = dict(
        parent=sty["body"],
        leftIndent=15,
        firstLineIndent=0,
        bulletIndent=0,
        bulletFontName="Helvetica-Bold",
        bulletFontSize=st.size,
        bulletColor=st.box_border,
    )
    sty.update(
        h1=h1_style("h1_l", st, 1.15, 8),
        h3=ParagraphStyle("h3_l", fontName="Times-BoldItalic", fontSize=st.size + 0.4,
                          leading=st.leading, spaceBefore=6, spaceAfter=2, keepWithNext=1),
        faq_q=ParagraphStyle("faq_q_l", fontName="Times-Italic", spaceBefore=5, spaceAfter=1.5,
                             **faq),
        faq_a=ParagraphStyle("faq_a_l", spaceBefore=0, spaceAfter=5, **faq),
        box=box_text_style("box_l", sty["body"], 8.8, 11.3, fontName="Helvetica"),
        inset=box_text_style("inset_l", sty["body"], 8.5, 11, fontName="Helvetica-Oblique",
                             alignment=TA_LEFT),
        cell=ParagraphStyle("cell_l", fontName="Helvetica", fontSize=8.3, leading=10),
        cell_head=ParagraphStyle("cell_head_l", fontName="Helvetica-Bold", fontSize=8.3,
                                 leading=10, textColor=st.box_border),
        title=title_style("title_l", "Times-Bold", st, 1.1, textColor=st.box_border),
    )  # fmt: skip
    return sty


def box_flowables_l(block: dict, row: dict, st: Style, sty) -> list:
    """Style "l": the flowables of a box (a panel, or an inset sidebar when `place: inset`), its
    truth row completed (a table's cells read row by row after its text)."""
    if block.get("rows"):
        cells = [c for r in [block["header"], *block["rows"]] for c in r]
        row.update(table={"header": block["header"], "rows": block["rows"]},
                   plain_text=plain_text(" ".join([block["text"], *cells])))  # fmt: skip
    if block.get("place") == "inset":
        row.update(placement="inset", indent_pt=round(INSET_L, 2))
        return [Spacer(1, 4), InsetBox(block, st, sty), Spacer(1, 7)]
    return [Spacer(1, 4), PanelBox(block, st, sty), Spacer(1, 8)]


def paragraph_l(block: dict, row: dict, st: Style, sty, after_heading: bool) -> Flowable:
    """Style "l": a paragraph (a "Q:" or "A:" item when it has `faq`), beside a picture when it
    has `figure: true`; its truth row completed."""
    text = markup(block["text"], st)
    if block.get("faq"):
        lead, role = FAQ_LEADS[block["faq"]]
        row.update(faq=role, printed_lead=lead)
        p = KeyedParagraph(text, sty[f"faq_{block['faq']}"], lead)
    else:
        p = KeyedParagraph(text, sty["body_first" if after_heading else "body"])
    p.gt_key = block["key"]
    if not block.get("figure"):
        return p
    w, h = FIGURE_L
    row["wraps_figure"] = {"side": "right", "width_pt": round(w, 2), "height_pt": round(h, 2)}
    return FigureParagraph(p, st)


def _story_l(book: dict, st: Style, sty) -> tuple[list, list, list]:
    """The flowables of a style "l" book: (story, truth blocks, headings)."""
    story, truth_blocks, headings = [], [], []
    path: list[str] = []
    numbers = chapter_numbers(book)
    after_heading = False
    for block in book["blocks"]:
        kind = block["type"]
        if kind == "heading":
            lvl, path, entry = new_heading(block, path, headings)
            h = (RuledHeading if lvl == 1 else KeyedParagraph)(escape(block["text"]),
                                                               sty[f"h{lvl}"])  # fmt: skip
            if lvl == 1:
                h.rule_color = st.box_border
                entry["tab_number"] = str(numbers[block["text"]])
            h.gt_key, h.gt_level, h.gt_text = entry["id"], lvl, block["text"]
            story.append(h)
            after_heading = True
            continue
        row = truth_row(block, path)
        truth_blocks.append(row)
        if kind == "box":
            story += box_flowables_l(block, row, st, sty)
        elif kind == "paragraph":
            story.append(paragraph_l(block, row, st, sty, after_heading))
        else:
            raise ValueError(f"unknown block type {kind!r}")
        after_heading = False
    return story, truth_blocks, headings


class PaperDoc(TabDoc):
    """Style "l": 8 x 10 inch pages on tinted paper, the title on the first page, two columns, a
    thumb tab with the chapter's number at the outer edge, the running header centred on top and,
    at the foot, the page number in the outer corner and the chapter in the inner one."""

    def __init__(self, filename, book, st: Style, **kw):
        self._setup(filename, book, st, **kw)
        self.numbers = chapter_numbers(book)
        self.page_tabs: list[dict] = []
        colw = col_width_i(st)
        self.title_h = 25 * mm
        hooks = {"onPage": self.draw_paper, "onPageEnd": self.draw_marks_l}
        self.addPageTemplates([
            PageTemplate("first", self.page_frames(1, self.title_h, (colw, colw)), **hooks),
            PageTemplate("later", self.page_frames(2, 0, (colw, colw)), **hooks),
        ])  # fmt: skip

    def draw_paper(self, canv, doc):
        """Before the page's text: the paper tint over the whole page, and on the first page a
        rule under the book title."""
        st = self.st
        W, H = st.page_size
        canv.saveState()
        canv.setFillColor(PAPER_L)
        canv.rect(0, 0, W, H, stroke=0, fill=1)
        if doc.page == 1:
            canv.setStrokeColor(st.box_border)
            canv.setLineWidth(1.2)
            y = H - st.top - self.title_h + 5 * mm
            canv.line(st.left, y, W - st.right, y)
        canv.restoreState()

    def draw_marks_l(self, canv, doc):
        """After the page's text: the running header (not on the first page), the foot and the
        thumb tab of the chapter in effect at the page's top."""
        page = doc.page
        num = self.printed(page)
        odd, chapter = num % 2 == 1, self.chapter_at(page)
        head = self.book["running_header"] if page > 1 else None
        self.page_headers.append(dict(page=num, pdf_page_index=page - 1, text=head,
                                      position="centre" if head else None))  # fmt: skip
        self.page_footers.append(dict(page=num, pdf_page_index=page - 1, number=str(num),
                                      number_corner="right" if odd else "left", chapter=chapter,
                                      chapter_corner="left" if odd else "right"))  # fmt: skip
        canv.saveState()
        self.draw_head_foot_l(canv, head, str(num), chapter, odd)
        if chapter:
            self.draw_tab_l(canv, page, chapter, odd)
        canv.restoreState()

    def draw_head_foot_l(self, canv, head, num: str, chapter: str, odd: bool) -> None:
        st = self.st
        W, H = st.page_size
        grey = colors.Color(0.36, 0.35, 0.38)
        canv.setStrokeColor(colors.Color(0.62, 0.6, 0.66))
        canv.setLineWidth(0.4)
        if head:
            y = H - st.top + 8 * mm
            canv.setFillColor(grey)
            canv.setFont("Helvetica-Oblique", 7.8)
            canv.drawCentredString(W / 2, y, head)
            canv.line(st.left, y - 3, W - st.right, y - 3)
        y = st.bottom - 11 * mm
        canv.line(st.left, y + 10, W - st.right, y + 10)
        right, left = (canv.drawRightString, canv.drawString)
        canv.setFillColor(st.box_border)
        canv.setFont("Helvetica-Bold", 9.5)
        (right if odd else left)(W - st.right if odd else st.left, y, num)
        canv.setFillColor(grey)
        canv.setFont("Times-Italic", 8.6)
        (left if odd else right)(st.left if odd else W - st.right, y, chapter)

    def draw_tab_l(self, canv, page: int, chapter: str, odd: bool) -> None:
        """A coloured tab bleeding off the outer edge, lower for every chapter, its number white."""
        st = self.st
        W, H = st.page_size
        n = self.numbers[chapter]
        index = n - min(self.numbers.values())
        y = H - TAB_L["first"] - index * TAB_L["step"] - TAB_L["h"]
        x = W - TAB_L["w"] if odd else 0
        self.page_tabs.append(dict(page=self.printed(page), pdf_page_index=page - 1, number=str(n),
                                   chapter=chapter, edge="right" if odd else "left",
                                   top_pt=round(H - y - TAB_L["h"], 2)))  # fmt: skip
        canv.setFillColor(st.box_border)
        canv.roundRect(x - (0 if odd else 3 * mm), y, TAB_L["w"] + 3 * mm, TAB_L["h"], 1.6 * mm,
                       stroke=0, fill=1)  # fmt: skip
        canv.setFillColor(colors.white)
        canv.setFont("Helvetica-Bold", 12)
        canv.drawCentredString(x + TAB_L["w"] / 2, y + TAB_L["h"] / 2 - 4.2, str(n))


def build_pdf_l(book: dict, out_pdf_path, style: str = "l") -> dict:
    """Style "l" (see STYLES): laid out once; the truth adds the headers, feet, thumb tabs and
    pictures of every page."""
    st = STYLES[style]
    sty = _styles_l(st)
    out = Path(out_pdf_path)
    story, truth_blocks, headings = _story_l(book, st, sty)
    doc = PaperDoc(str(out), book, st)
    doc.build([Paragraph(escape(book["title"]), sty["title"]), NextPageTemplate("later"),
               FrameBreak()] + story)  # fmt: skip
    place_truth(doc, headings, truth_blocks)
    figures = [
        dict(key=b["key"], page=b["page"], pdf_page_index=b["pdf_page_index"], column=b["column"],
             **b["wraps_figure"])
        for b in truth_blocks if "wraps_figure" in b
    ]  # fmt: skip
    truth = truth_head(book, style, doc, headings, truth_blocks)
    truth.update(
        page_size="8x10in",
        page_tint="#" + PAPER_L.hexval()[2:],
        column_width_pt=round(col_width_i(st), 2),
        page_headers=doc.page_headers,
        page_footers=doc.page_footers,
        page_tabs=doc.page_tabs,
        figures=figures,
    )
    return write_truth(out, truth)


# ---------------------------------------------------------------- style "m"
DEJAVU_DIR = Path("/usr/share/fonts/truetype/dejavu")  # style "m": its body font (fonts-dejavu)
BAND_M = 24 * mm  # style "m": height of the dark chapter band across the page
BAND_FRAME_M = BAND_M + 6 * mm  # the band and the room under it before the columns start
LANE_M = 8.5 * mm  # style "m": the lane at a column's left that holds the rule numbers
QUOTE_M = {"w": 62 * mm, "pad": 2.5 * mm, "gap": 4 * mm, "side": 3 * mm, "size": 13.2,
           "leading": 16.6}  # style "m": the pull quote straddling the gutter  # fmt: skip
INK_M = colors.Color(0.1, 0.18, 0.21)  # style "m": the chapter band, the hexagon, the quote
GLOW_M = colors.Color(0.95, 0.75, 0.47)  # style "m": "CHAPTER 6" on the band
CHAMFER_M = 3.2 * mm  # style "m": the cut corners of a box's frame


def _register_dejavu() -> None:
    """DejaVu Serif Condensed (the system's fonts-dejavu), embedded as TrueType subsets."""
    from reportlab.pdfbase.ttfonts import TTFont

    have = set(pdfmetrics.getRegisteredFontNames())
    fonts = (("DejaVuSerifCond", "DejaVuSerifCondensed.ttf"),
             ("DejaVuSerifCond-Bold", "DejaVuSerifCondensed-Bold.ttf"),
             ("DejaVuSerifCond-Italic", "DejaVuSerifCondensed-Italic.ttf"))  # fmt: skip
    for name, file in fonts:
        if name not in have:
            path = DEJAVU_DIR / file
            if not path.exists():
                raise FileNotFoundError(f"style m needs the DejaVu fonts (fonts-dejavu): {path}")
            pdfmetrics.registerFont(TTFont(name, str(path)))


def hexagon(canv, cx: float, cy: float, r: float, **kw) -> None:
    """A regular hexagon with points left and right, centred on (cx, cy)."""
    path = canv.beginPath()
    corners = [(cx + r * c, cy + r * s) for c, s in
               ((1, 0), (0.5, 0.866), (-0.5, 0.866), (-1, 0), (-0.5, -0.866), (0.5, -0.866))]  # fmt: skip
    path.moveTo(*corners[-1])
    for x, y in corners:
        path.lineTo(x, y)
    canv.drawPath(path, **kw)


class BandHeading(Flowable):
    """Style "m": a chapter heading reversed out in white on a dark band across the whole page,
    bleeding off both edges, with "CHAPTER 6" letter-spaced over the title."""

    def __init__(self, text: str, key: str, label: str, st: Style):
        super().__init__()
        self.text, self.label, self.st = text, label, st
        self.gt_key, self.gt_part, self.gt_level, self.gt_text = key, 0, 1, text

    def wrap(self, availWidth, availHeight):
        if pdfmetrics.stringWidth(self.text, self.st.head_font, self.st.h1) > availWidth - 8 * mm:
            raise ValueError(f"style m: chapter heading too long for the band: {self.text!r}")
        self.width, self.height = availWidth, BAND_FRAME_M
        return self.width, self.height

    def split(self, availWidth, availHeight):
        return []

    def draw(self):
        canv, st = self.canv, self.st
        base = self.height - BAND_M
        canv.saveState()
        canv.setFillColor(INK_M)
        canv.rect(-st.left, base, st.page_size[0], BAND_M, stroke=0, fill=1)
        t = canv.beginText(0, base + BAND_M - 8.2 * mm)
        t.setFont("Helvetica-Bold", 8.4)
        t.setCharSpace(2.2)
        t.setFillColor(GLOW_M)
        t.textOut(self.label)
        t.setCharSpace(0)
        canv.drawText(t)
        canv.setFillColor(colors.white)
        canv.setFont(st.head_font, st.h1)
        canv.drawString(0, base + 5.2 * mm, self.text)
        canv.restoreState()


class CentredHeading(Flowable):
    """Style "m": a section heading centred over its column, a thin rule on each side of it."""

    def __init__(self, text: str, key: str, st: Style):
        super().__init__()
        self.text, self.st = text, st
        self.gt_key, self.gt_part, self.gt_level, self.gt_text = key, 0, 2, text
        self.keepWithNext = 1
        self.spaceBefore, self.spaceAfter = st.h2_space_before, 4.5

    def wrap(self, availWidth, availHeight):
        self.tw = pdfmetrics.stringWidth(self.text, self.st.h2_font, self.st.h2)
        if self.tw + 16 * mm > availWidth:
            raise ValueError(f"style m: section heading too long for a column: {self.text!r}")
        self.width, self.height = availWidth, self.st.h2 * 1.35
        return self.width, self.height

    def split(self, availWidth, availHeight):
        return []

    def draw(self):
        canv, st, w = self.canv, self.st, self.width
        y, gap = self.st.h2 * 0.3, 2.6 * mm
        canv.saveState()
        canv.setFillColor(st.h2_color)
        canv.setFont(st.h2_font, st.h2)
        canv.drawCentredString(w / 2, y, self.text)
        canv.setStrokeColor(st.box_border)
        canv.setLineWidth(0.55)
        mid = y + st.h2 * 0.33
        canv.line(0, mid, (w - self.tw) / 2 - gap, mid)
        canv.line((w + self.tw) / 2 + gap, mid, w, mid)
        canv.restoreState()


class LegendBox(ColumnBox):
    """Style "m": a box in a thin frame with CUT CORNERS on a pale fill, as wide as its column,
    its title set INTO the top edge of the frame (the frame line broken behind it), its text in a
    small sans."""

    TOP = 5.5  # room above the frame's top edge for the upper half of the title

    def _make(self, width: float) -> Table:
        st = replace(self.st, bold_font="Helvetica-Bold")  # lead terms bold in the box's sans
        t = Table([[Paragraph(markup(self.block["text"], st), self.sty["box"])]], colWidths=[width])
        pads = zip(("LEFTPADDING", "RIGHTPADDING", "TOPPADDING", "BOTTOMPADDING"), st.box_padding)
        t.setStyle(TableStyle([(name, (0, 0), (-1, -1), v) for name, v in pads]))
        return t

    def wrap(self, availWidth, availHeight):
        w, h = super().wrap(availWidth, availHeight)
        self.height = h + self.TOP
        return w, self.height

    def draw(self):
        canv, st, w = self.canv, self.st, self.width
        top, c = self.height - self.TOP, CHAMFER_M
        canv.saveState()
        path = canv.beginPath()
        path.moveTo(c, 0)
        for x, y in (
            (w - c, 0),
            (w, c),
            (w, top - c),
            (w - c, top),
            (c, top),
            (0, top - c),
            (0, c),
        ):
            path.lineTo(x, y)
        path.close()
        canv.setFillColor(st.box_fill)
        canv.setStrokeColor(st.box_border)
        canv.setLineWidth(st.box_border_width)
        canv.drawPath(path, stroke=1, fill=1)
        self._table.drawOn(canv, 0, 0)
        title, size = self.block["title"], st.box_title_size
        tw = pdfmetrics.stringWidth(title, st.box_title_font, size)
        if tw + 2 * c + 8 * mm > w:
            raise ValueError(f"style m: box title too long for its frame: {title!r}")
        x = c + 3 * mm
        canv.setFillColor(colors.white)
        canv.rect(x - 2.2 * mm, top - size * 0.6, tw + 4.4 * mm, size * 1.2, stroke=0, fill=1)
        canv.setFillColor(st.box_title_color)
        canv.setFont(st.box_title_font, size)
        canv.drawString(x, top - size * 0.33, title)
        canv.restoreState()


def _styles_m(st: Style) -> dict[str, ParagraphStyle]:
    sty = _styles(st)
    sty.update(
        rule=ParagraphStyle("rule_m", parent=sty["body"], leftIndent=LANE_M, firstLineIndent=0,
                            bulletIndent=0, bulletFontName="Helvetica-Bold", bulletFontSize=7.6,
                            bulletColor=st.box_border),
        h3=ParagraphStyle("h3_m", fontName="Helvetica-Bold", fontSize=st.size, leading=st.leading,
                          textColor=st.box_border, leftIndent=LANE_M, spaceBefore=6,
                          spaceAfter=2, keepWithNext=1),
        box=box_text_style("box_m", sty["body"], 8.4, 11.1, fontName="Helvetica"),
        quote=ParagraphStyle("quote_m", fontName="DejaVuSerifCond-Italic", fontSize=QUOTE_M["size"],
                             leading=QUOTE_M["leading"], alignment=TA_CENTER, textColor=INK_M),
        title=title_style("title_m", "Times-Bold", st, 1.08, textColor=INK_M),
    )  # fmt: skip
    return sty


def rule_numbers_m(book: dict) -> dict[str, str]:
    """Style "m": the rule number of every paragraph ("6.3": chapter, then its paragraphs counted
    through the chapter; boxes are not numbered)."""
    numbers, out, chapter, n = chapter_numbers(book), {}, None, 0
    for b in book["blocks"]:
        if b["type"] == "heading" and int(b["level"]) == 1:
            chapter, n = numbers[b["text"]], 0
        elif b["type"] == "paragraph":
            if chapter is None:
                raise ValueError("style m: a paragraph before the first chapter heading")
            n += 1
            out[b["key"]] = f"{chapter}.{n}"
    return out


def see_also_m(block: dict, rules: dict[str, str], refs: dict[str, int], first: int) -> dict:
    """Style "m": the cross-reference line at the end of a paragraph with `see` (rule number and
    the printed page where the rule starts, from the previous layout)."""
    targets = [dict(key=k, rule_number=rules[k], page=refs.get(k, first)) for k in block["see"]]
    refs_text = " and ".join(f"{t['rule_number']} (p. {t['page']})" for t in targets)
    return {"printed": f"See also {refs_text}.", "targets": targets}


def heading_m(block: dict, entry: dict, lvl: int, numbers: dict, st: Style, sty, first: bool):
    """Style "m": the flowables of a heading; a chapter opens a new page (but the first)."""
    if lvl == 1:
        n = numbers[block["text"]]
        entry.update(number=str(n), band_label=f"CHAPTER {n}", placement="band", reversed=True)
        band = BandHeading(block["text"], entry["id"], entry["band_label"], st)
        opening = [] if first else [NextPageTemplate("opening"), PageBreak()]
        return opening + [band, FrameBreak(), NextPageTemplate("later")]
    if lvl == 2:
        entry.update(centred=True, rules_beside=True)
        return [CentredHeading(block["text"], entry["id"], st)]
    h = KeyedParagraph(escape(block["text"]), sty["h3"])
    h.gt_key, h.gt_level, h.gt_text = entry["id"], lvl, block["text"]
    return [h]


def paragraph_m(block: dict, row: dict, st: Style, sty, rules: dict, refs: dict, first: int):
    """Style "m": a numbered rule paragraph, the number hanging in the lane, a "See also" line
    at its end when it has `see`; its truth row completed."""
    text = markup(block["text"], st)
    row["rule_number"] = rules[block["key"]]
    if block.get("see"):
        row["see_also"] = see = see_also_m(block, rules, refs, first)
        ink = _hex(st.box_border)
        text += f'<br/><font name="DejaVuSerifCond-Italic" color="{ink}">{escape(see["printed"])}</font>'
    p = KeyedParagraph(text, sty["rule"], row["rule_number"])
    p.gt_key = block["key"]
    return p


def _story_m(book: dict, st: Style, sty, refs: dict) -> tuple[list, list, list]:
    """The flowables of a style "m" book: (story, truth blocks, headings)."""
    story, truth_blocks, headings, path = [], [], [], []
    numbers, rules = chapter_numbers(book), rule_numbers_m(book)
    first = True
    for block in book["blocks"]:
        kind = block["type"]
        if kind == "heading":
            lvl, path, entry = new_heading(block, path, headings)
            story += heading_m(block, entry, lvl, numbers, st, sty, first)
            first = first and lvl != 1
            continue
        row = truth_row(block, path)
        truth_blocks.append(row)
        if kind == "box":
            row["title_on_frame"] = True
            story += [Spacer(1, 4), LegendBox(block, st, sty), Spacer(1, 7)]
        elif kind == "paragraph":
            story.append(paragraph_m(block, row, st, sty, rules, refs, book["first_page"]))
        else:
            raise ValueError(f"unknown block type {kind!r}")
    return story, truth_blocks, headings


class BandDoc(TabDoc):
    """Style "m": every chapter opens a new page under a dark band across the page; on one page a
    pull quote straddles the gutter, the columns narrowed beside it; the running header in the
    outer corner and the chapter in the inner one on top (none on a chapter's opening page), the
    page number white in a dark hexagon centred at the foot between two rules."""

    def __init__(self, filename, book, st: Style, quote: dict | None = None, **kw):
        """`quote`: the pull quote (its pdf "page", wrapped "para", "text", "key") or None."""
        self._setup(filename, book, st, **kw)
        self.colw, self.quote, self.pull_quotes = col_width_i(st), quote, []
        self.title_h = 27 * mm
        W, H = st.page_size
        top, full = H - st.top, W - st.left - st.right
        hooks = {"onPageEnd": self.draw_marks_m}
        below = top - self.title_h
        band = Frame(st.left, below - BAND_FRAME_M, full, BAND_FRAME_M, id="band", **PAD0)
        opening = Frame(st.left, top - BAND_FRAME_M, full, BAND_FRAME_M, id="band", **PAD0)
        templates = [
            PageTemplate("first", [title_frame(st.left, below, full, self.title_h), band]
                         + self.cols(below - BAND_FRAME_M), **hooks),
            PageTemplate("opening", [opening] + self.cols(top - BAND_FRAME_M), **hooks),
            PageTemplate("later", self.cols(top), **hooks),
        ]  # fmt: skip
        self.quote_template = PageTemplate("quote", self.quote_frames(), **hooks) if quote else None
        self.addPageTemplates(templates + ([self.quote_template] if quote else []))

    def cols(self, top: float) -> list[Frame]:
        st = self.st
        return column_frames(st.left, st.bottom, (self.colw,) * 2, st.gutter, top - st.bottom)

    def quote_frames(self) -> list[Frame]:
        """Each column in three frames: above the pull quote, beside it (narrowed on the gutter's
        side) and under it; their ids "col1-top", "col1-mid", "col1-low", ..."""
        st, q = self.st, QUOTE_M
        W, H = st.page_size
        top = H - st.top
        zone_h = self.quote["para"].height + 2 * q["gap"]
        low = (top + st.bottom) / 2 - zone_h / 2
        cut = q["w"] / 2 - st.gutter / 2 + q["side"]
        self.quote["zone"] = (st.left + self.colw + st.gutter / 2 - q["w"] / 2, low, q["w"], zone_h)
        frames = []
        for i in (1, 2):
            x = st.left + (i - 1) * (self.colw + st.gutter)
            frames += [
                Frame(x, low + zone_h, self.colw, top - low - zone_h, id=f"col{i}-top", **PAD0),
                Frame(x + (cut if i == 2 else 0), low, self.colw - cut, zone_h, id=f"col{i}-mid",
                      **PAD0),
                Frame(x, st.bottom, self.colw, low - st.bottom, id=f"col{i}-low", **PAD0),
            ]  # fmt: skip
        return frames

    def handle_pageBegin(self):
        """The page of the pull quote takes the quote template; the page after it "later"."""
        if self.quote and self.page + 1 == self.quote["page"]:
            if self.pageTemplate.id != "later":
                raise ValueError("style m: the pull quote's page opens a chapter")
            self.pageTemplate = self.quote_template
        elif self.pageTemplate is self.quote_template:
            self.pageTemplate = next(t for t in self.pageTemplates if t.id == "later")
        super().handle_pageBegin()

    def draw_marks_m(self, canv, doc):
        """After the page's text: header (not on a chapter's opening page), foot, pull quote."""
        page = doc.page
        num = self.printed(page)
        odd = num % 2 == 1
        opening = any(p == page for p, _ in self.chapters)
        head = None if opening else self.book["running_header"]
        chapter = None if opening else self.chapter_at(page)
        outer, inner = ("right", "left") if odd else ("left", "right")
        self.page_headers.append(dict(page=num, pdf_page_index=page - 1, text=head,
                                      corner=outer if head else None, chapter=chapter,
                                      chapter_corner=inner if chapter else None))  # fmt: skip
        self.page_footers.append(dict(page=num, pdf_page_index=page - 1, number=str(num),
                                      position="centre", shape="hexagon"))  # fmt: skip
        canv.saveState()
        if head:
            self.draw_head_m(canv, head, chapter, odd)
        self.draw_foot_m(canv, str(num))
        if self.quote and page == self.quote["page"]:
            self.draw_quote_m(canv, page)
        canv.restoreState()

    def draw_head_m(self, canv, head: str, chapter: str, odd: bool) -> None:
        st = self.st
        W, H = st.page_size
        y = H - st.top + 7.5 * mm
        left, right = st.left, W - st.right
        canv.setFillColor(colors.Color(0.33, 0.35, 0.37))
        canv.setFont("Helvetica-Oblique", 7.8)
        (canv.drawRightString if odd else canv.drawString)(right if odd else left, y, head)
        canv.setFillColor(st.box_border)
        canv.setFont("Helvetica-Bold", 7.8)
        (canv.drawString if odd else canv.drawRightString)(left if odd else right, y, chapter)
        canv.setStrokeColor(colors.Color(0.6, 0.62, 0.64))
        canv.setLineWidth(0.4)
        canv.line(left, y - 3.2, right, y - 3.2)

    def draw_foot_m(self, canv, num: str) -> None:
        st = self.st
        W = st.page_size[0]
        cx, cy, r = W / 2, st.bottom - 11 * mm, 4.4 * mm
        canv.setStrokeColor(st.box_border)
        canv.setLineWidth(0.6)
        canv.line(st.left, cy, cx - r - 2 * mm, cy)
        canv.line(cx + r + 2 * mm, cy, W - st.right, cy)
        canv.setFillColor(INK_M)
        hexagon(canv, cx, cy, r, stroke=0, fill=1)
        canv.setFillColor(colors.white)
        canv.setFont("Helvetica-Bold", 8.6)
        canv.drawCentredString(cx, cy - 3.1, num)

    def draw_quote_m(self, canv, page: int) -> None:
        """The pull quote in large italics between two thick rules, centred on the gutter."""
        st, q, para = self.st, QUOTE_M, self.quote["para"]
        x0, y0, w, h = self.quote["zone"]
        H = st.page_size[1]
        canv.setStrokeColor(st.box_border)
        canv.setLineWidth(1.8)
        for y in (y0 + 1.5, y0 + h - 1.5):
            canv.line(x0, y, x0 + w, y)
        para.drawOn(canv, x0 + q["pad"], y0 + (h - para.height) / 2)
        self.pull_quotes.append(dict(
            text=self.quote["text"], repeats=self.quote["key"], not_a_block=True, page=self.printed(page),
            pdf_page_index=page - 1, straddles="gutter", font="DejaVuSerifCond-Italic",
            size=q["size"], bbox_pt=[round(v, 2) for v in (x0, H - y0 - h, x0 + w, H - y0)],
        ))  # fmt: skip


def column_m(frame: str) -> int:
    """Style "m": the column of a frame ("col2", "col2-mid" -> 2; the chapter band -> 0)."""
    return 0 if frame == "band" else int(frame[3])


def quote_m(book: dict, st: Style, sty, page: int) -> dict | None:
    """Style "m": the pull quote of the block marked `pull_quote` (a sentence of its text), to go
    on PDF page `page`; None when the book has none or no page is known yet."""
    block = next((b for b in book["blocks"] if b.get("pull_quote")), None)
    if block is None or not page:
        return None
    text = block["pull_quote"]
    if text not in plain_text(block["text"]):
        raise ValueError(f"style m: the pull quote is not in block {block['key']!r}")
    para = Paragraph(escape(text), sty["quote"])
    para.wrap(QUOTE_M["w"] - 2 * QUOTE_M["pad"], 1000)
    return dict(page=page, para=para, text=text, key=block["key"])


def _layout_m(book: dict, st: Style, sty, out, refs: dict, quote_page: int):
    """One layout of a style "m" book into `out`, cross-references from `refs` (key -> printed
    page), the pull quote on PDF page `quote_page` (none when 0)."""
    story, truth_blocks, headings = _story_m(book, st, sty, refs)
    doc = BandDoc(out, book, st, quote_m(book, st, sty, quote_page))
    doc.build([Paragraph(escape(book["title"]), sty["title"]), FrameBreak()] + story)
    return doc, truth_blocks, headings


def settle_m(book: dict, doc, page: int) -> tuple[dict, int]:
    """Style "m": from a layout, the printed page of every block's start (for the "See also"
    lines) and the PDF page of the pull quote: the first page, not opening a chapter, that holds
    (a part of) the quoted block, or `page` if it still does."""
    refs = {key: doc.printed(pg) for key, part, pg, _ in doc.placed if part == 0}
    block = next((b for b in book["blocks"] if b.get("pull_quote")), None)
    if block is None:
        return refs, 0
    openings = {p for p, _ in doc.chapters}
    pages = sorted({pg for key, _, pg, _ in doc.placed if key == block["key"]} - openings)
    if not pages:
        raise ValueError("style m: the quoted block lies on chapter-opening pages only")
    return refs, page if page in pages else pages[0]


def merge_subframes_m(doc) -> set[str]:
    """Style "m": parts of a block in consecutive frames of one column on one page (above, beside
    and under the pull quote) count as one. Returns the keys with lines beside the pull quote."""
    beside = {key for key, _, _, frame in doc.placed if frame.endswith("-mid")}
    out, last = [], {}
    for key, part, page, frame in sorted(doc.placed, key=lambda r: r[:2]):
        if last.get(key) != (page, column_m(frame)):
            out.append((key, part, page, frame))
        last[key] = (page, column_m(frame))
    doc.placed = out
    return beside


def build_pdf_m(book: dict, out_pdf_path, style: str = "m") -> dict:
    """Style "m" (see STYLES): laid out again until the "See also" page numbers and the pull
    quote's page settle; the truth adds the headers, feet, chapter openings and the pull quote."""
    _register_dejavu()
    st = STYLES[style]
    sty = _styles_m(st)
    out = Path(out_pdf_path)
    refs, page = {}, 0
    for _ in range(8):
        doc, _, _ = _layout_m(book, st, sty, io.BytesIO(), refs, page)
        settled = settle_m(book, doc, page)
        if settled == (refs, page):
            break
        refs, page = settled
    else:
        raise ValueError("style m: the cross-references and the pull quote do not settle")
    doc, truth_blocks, headings = _layout_m(book, st, sty, str(out), refs, page)
    beside = merge_subframes_m(doc)
    place_truth(doc, headings, truth_blocks, column_m)
    for b in truth_blocks:
        if b["key"] in beside:
            b["beside_pull_quote"] = True
    truth = truth_head(book, style, doc, headings, truth_blocks)
    truth.update(
        page_size="200x265mm",
        body_font={"name": "DejaVuSerifCondensed", "size": st.size, "leading": st.leading},
        column_width_pt=round(col_width_i(st), 2),
        rule_lane_pt=round(LANE_M, 2),
        chapter_openings=[dict(chapter=h["text"], number=h["number"], page=h["page"],
                               pdf_page_index=h["pdf_page_index"])
                          for h in headings if h["level"] == 1],
        page_headers=doc.page_headers,
        page_footers=doc.page_footers,
        pull_quotes=doc.pull_quotes,
    )  # fmt: skip
    return write_truth(out, truth)


# ---------------------------------------------------------------- style "n"
LANE_N = 22 * mm  # style "n": the side-head lane at the left of each column
LANE_GAP_N = 2.8 * mm  # between the lane's text and the measure
EDGE_N = 9 * mm  # style "n": the rotated running header's distance from the outer edge
ORNAMENT_N = "\u2767"  # ZapfDingbats: the small ornament centred between two paragraphs
ORNAMENT_H = 12.0  # the room an ornament takes between two paragraphs
CALLOUT_N = colors.Color(0.78, 0.07, 0.07)  # style "n": the "Important:" line inside a paragraph
GREY_N = colors.Color(0.38, 0.38, 0.36)


def col_width_n(st: Style) -> float:
    """Width of each of the two equal columns of style "n" (lane and measure together)."""
    return (st.page_size[0] - st.left - st.inner - st.gutter) / 2


def halftone(c, share: float = 0.45):
    """A colour screened to `share` of its strength on white (a half-tone tint)."""
    return colors.Color(*(1 - share * (1 - v) for v in (c.red, c.green, c.blue)))


class SideHead(Flowable):
    """Style "n": a section heading hanging in the lane at its column's left, set flush right
    beside the first lines of the paragraph after it; it takes no height, but moves on to the
    next column when fewer than three lines (or its own height) are left."""

    def __init__(self, text: str, key: str, st: Style, sty):
        super().__init__()
        self.para, self.st = Paragraph(escape(text), sty["side"]), st
        self.gt_key, self.gt_part, self.gt_level, self.gt_text = key, 0, 2, text
        self.spaceBefore = st.h2_space_before

    def wrap(self, availWidth, availHeight):
        _, self.hh = self.para.wrap(LANE_N - LANE_GAP_N, 1000)
        need = max(self.hh, 3 * self.st.leading) + 2
        self.width = availWidth
        return availWidth, (0 if availHeight >= need else availHeight + 1)

    def split(self, availWidth, availHeight):
        return []

    def draw(self):  # first baseline level with the body's first baseline under it
        size = self.para.style.fontSize
        self.para.drawOn(self.canv, 0, -self.hh - (self.st.size - size))


class Ornament(Flowable):
    """Style "n": a small ornament centred in the measure between two paragraphs of a section;
    left out (a plain 4 pt gap instead) when a column has too little room left for it and two
    lines."""

    def __init__(self, before: str, after: str, st: Style):
        super().__init__()
        self.keys, self.st, self.shown = (before, after), st, True

    def wrap(self, availWidth, availHeight):
        self.width = availWidth
        self.shown = availHeight >= ORNAMENT_H + 2 * self.st.leading
        return availWidth, ORNAMENT_H if self.shown else min(4.0, availHeight)

    def split(self, availWidth, availHeight):
        return []

    def draw(self):
        if self.shown:
            self.canv.setFillColor(self.st.box_border)
            self.canv.setFont("ZapfDingbats", 7.5)
            self.canv.drawCentredString(LANE_N + (self.width - LANE_N) / 2, 3.2, ORNAMENT_N)


class LaneBox(ColumnBox):
    """Style "n": a box in the measure on a pale fill beside a thick HALF-TONE bar at its left,
    its title not in the box but in the lane beside it, flush right, in a coloured sans."""

    def _make(self, width: float) -> Table:
        st = replace(self.st, bold_font="Helvetica-Bold")
        t = Table([[Paragraph(markup(self.block["text"], st), self.sty["box"])]], colWidths=[width])
        pads = zip(("LEFTPADDING", "RIGHTPADDING", "TOPPADDING", "BOTTOMPADDING"), st.box_padding)
        t.setStyle(TableStyle([
            ("BACKGROUND", (0, 0), (-1, -1), st.box_fill),
            ("LINEBEFORE", (0, 0), (-1, -1), 4.5, halftone(st.box_border)),
            *[(name, (0, 0), (-1, -1), v) for name, v in pads],
        ]))  # fmt: skip
        return t

    def wrap(self, availWidth, availHeight):
        self.title = Paragraph(escape(self.block["title"]), self.sty["lane_title"])
        _, self.th = self.title.wrap(LANE_N - LANE_GAP_N, 1000)
        self._table = self._make(availWidth - LANE_N)
        _, self.bh = self._table.wrap(availWidth - LANE_N, availHeight)
        self.width, self.height = availWidth, max(self.bh, self.th + self.st.box_padding[2])
        return self.width, self.height

    def draw(self):
        self._table.drawOn(self.canv, LANE_N, self.height - self.bh)
        self.title.drawOn(self.canv, 0, self.height - self.st.box_padding[2] - self.th)


def _styles_n(st: Style) -> dict[str, ParagraphStyle]:
    sty = _styles(st)
    side = ParagraphStyle("side_n", fontName="Helvetica-Bold", fontSize=8.6, leading=10.2,
                          alignment=TA_RIGHT, textColor=st.h2_color)  # fmt: skip
    sty.update(
        body=ParagraphStyle("body_n", parent=sty["body"], leftIndent=LANE_N),
        h1=h1_style("h1_n", st, 1.12, 7),
        h3=ParagraphStyle("h3_n", fontName="Times-BoldItalic", fontSize=st.size + 0.4,
                          leading=st.leading, leftIndent=LANE_N, spaceBefore=7, spaceAfter=2),
        side=side,
        lane_title=ParagraphStyle("lane_title_n", parent=side, fontName="Helvetica-BoldOblique",
                                  fontSize=st.box_title_size, leading=st.box_title_size + 1.8,
                                  textColor=st.box_title_color),
        box=box_text_style("box_n", sty["body"], 8.6, 11.2, fontName="Helvetica", leftIndent=0),
        title=title_style("title_n", "Helvetica-Bold", st, 1.1, textColor=st.box_border),
    )  # fmt: skip
    sty["h1"].keepWithNext = 0  # NeedSpace keeps it with its text instead
    return sty


def heading_n(block: dict, entry: dict, lvl: int, st: Style, sty) -> list:
    """Style "n": a chapter heading over a rule across its column, a section heading as a side
    head in the lane, a level-3 heading in bold italics over the measure."""
    text = block["text"]
    if lvl == 2:
        entry.update(placement="side-head", align="right")
        return [SideHead(text, entry["id"], st, sty)]
    if lvl == 1:
        entry["rule_below"] = True
        h = RuledHeading(escape(text), sty["h1"])
        h.rule_color, need = st.box_border, st.h1 * 1.12 + 11 + 4 * st.leading
    else:
        entry["bold_italic"] = True
        h, need = KeyedParagraph(escape(text), sty["h3"]), 9 + 4 * st.leading
    h.gt_key, h.gt_level, h.gt_text = entry["id"], lvl, text
    return [NeedSpace(need), h]


def paragraph_n(block: dict, row: dict, st: Style, sty) -> KeyedParagraph:
    """Style "n": a paragraph in the measure; with `callout: true` its text from "Important:" on
    is printed on a line of its own in bold red (still part of the paragraph)."""
    text = block["text"]
    if block.get("callout"):
        cut = text.find("Important:")
        if cut < 0:
            raise ValueError(f"style n: no 'Important:' in block {block['key']!r}")
        call, red = text[cut:], _hex(CALLOUT_N)
        bold = replace(st, bold_font="Helvetica-Bold")
        body = (markup(text[:cut].rstrip(), st) + f'<br/><font name="Helvetica-Bold" color="{red}">'
                + markup(call, bold, bold_lead=False) + "</font>")  # fmt: skip
        row["callout"] = dict(printed_as=plain_text(call), lead="Important:", own_line=True,
                              font="Helvetica-Bold", colour=red)  # fmt: skip
    else:
        body = markup(text, st)
    p = KeyedParagraph(body, sty["body"])
    p.gt_key = block["key"]
    return p


def _story_n(book: dict, st: Style, sty) -> tuple[list, list, list]:
    """The flowables of a style "n" book: (story, truth blocks, headings)."""
    story, truth_blocks, headings, path = [], [], [], []
    last_para = None  # the paragraph just before, when nothing came between
    for block in book["blocks"]:
        kind = block["type"]
        if kind == "heading":
            lvl, path, entry = new_heading(block, path, headings)
            story += heading_n(block, entry, lvl, st, sty)
            last_para = None
            continue
        row = truth_row(block, path)
        truth_blocks.append(row)
        if kind == "box":
            row.update(title_placement="lane", bar="half-tone")
            story += [Spacer(1, 5), LaneBox(block, st, sty), Spacer(1, 9)]
            last_para = None
        elif kind == "paragraph":
            if last_para:
                story.append(Ornament(last_para, block["key"], st))
            story.append(paragraph_n(block, row, st, sty))
            last_para = block["key"]
        else:
            raise ValueError(f"unknown block type {kind!r}")
    return story, truth_blocks, headings


class EdgeDoc(TabDoc):
    """Style "n": mirrored margins (the outer one wide), the title on the first page, two equal
    columns each with a side-head lane; no header line, but along the OUTER edge, rotated to read
    from bottom to top, the page number, the running header and the chapter (drawn after the
    text)."""

    def __init__(self, filename, book, st: Style, **kw):
        self._setup(filename, book, st, **kw)
        self.colw, self.title_h, self.ornaments = col_width_n(st), 25 * mm, []
        cols = (self.colw,) * 2
        self.add_mirrored_templates(self.page_frames(1, self.title_h, cols),
                                    lambda p: self.page_frames(p, 0, cols),
                                    onPageEnd=self.draw_edge_n)  # fmt: skip

    def afterFlowable(self, flowable):
        if isinstance(flowable, Ornament):
            before, after = flowable.keys
            self.ornaments.append(dict(
                between=[before, after], printed=flowable.shown, page=self.printed(self.page),
                pdf_page_index=self.page - 1, column=frame_column(self.frame.id),
            ))  # fmt: skip
            return
        super().afterFlowable(flowable)

    def draw_edge_n(self, canv, doc):
        """After the page's text: along the outer edge, rotated 90 degrees (reading upwards), the
        page number near the foot, then the running header, the chapter ending at the top margin;
        on the first page a thick rule under the title."""
        st, page = self.st, doc.page
        W, H = st.page_size
        num, chapter, head = self.printed(page), self.chapter_at(page), self.book["running_header"]
        odd = num % 2 == 1
        x = W - EDGE_N if odd else EDGE_N + 7
        self.page_headers.append(dict(
            page=num, pdf_page_index=page - 1, edge="right" if odd else "left", rotation=90,
            reads="bottom-to-top", number=str(num), text=head, chapter=chapter,
        ))  # fmt: skip
        canv.saveState()
        if page == 1:
            lm, rm = self.margins(page)
            canv.setFillColor(st.box_border)
            canv.rect(lm, H - st.top - self.title_h + 4 * mm, W - lm - rm, 1.6, stroke=0, fill=1)
        canv.translate(x, 0)
        canv.rotate(90)
        canv.setFillColor(st.box_border)
        canv.setFont("Helvetica-Bold", 11)
        canv.drawString(st.bottom, 0, str(num))
        x0 = st.bottom + pdfmetrics.stringWidth(str(num), "Helvetica-Bold", 11) + 3 * mm
        canv.setStrokeColor(halftone(st.box_border))
        canv.setLineWidth(0.6)
        canv.line(x0, 3.2, x0 + 10 * mm, 3.2)
        canv.setFillColor(GREY_N)
        canv.setFont("Helvetica-Oblique", 8)
        canv.drawString(x0 + 13 * mm, 0.5, head)
        canv.setFillColor(st.box_border)
        canv.setFont("Helvetica-Bold", 8)
        canv.drawRightString(H - st.top, 0.5, chapter)
        canv.restoreState()


def build_pdf_n(book: dict, out_pdf_path, style: str = "n") -> dict:
    """Style "n" (see STYLES): laid out once; the truth adds the rotated edge headers of every
    page, the ornaments between paragraphs and the measures of the side-head lane."""
    st = STYLES[style]
    sty = _styles_n(st)
    out = Path(out_pdf_path)
    story, truth_blocks, headings = _story_n(book, st, sty)
    doc = EdgeDoc(str(out), book, st)
    doc.build([Paragraph(escape(book["title"]), sty["title"]), NextPageTemplate("later"),
               FrameBreak()] + story)  # fmt: skip
    place_truth(doc, headings, truth_blocks)
    truth = truth_head(book, style, doc, headings, truth_blocks)
    truth.update(
        page_size="225x290mm",
        margins_pt={"inner": round(st.inner, 2), "outer": round(st.left, 2)},
        column_width_pt=round(doc.colw, 2),
        side_head_lane_pt=round(LANE_N, 2),
        measure_pt=round(doc.colw - LANE_N, 2),
        ornament={"char": ORNAMENT_N, "codepoint": f"U+{ord(ORNAMENT_N):04X}",
                  "font": "ZapfDingbats", "not_a_block": True},
        ornaments=doc.ornaments,
        page_headers=doc.page_headers,
        page_footers=[],
    )  # fmt: skip
    return write_truth(out, truth)


# ---------------------------------------------------------------- style "o"
SPAN_O = 17 * mm  # style "o": height of a chapter heading across both columns
SPAN_GAP_O = 5 * mm  # between the balanced columns above a chapter heading and the heading
SPAN_MIN_LINES_O = 5  # lines of text that must fit under a chapter heading on its page
GHOST_SIZE_O = 58  # style "o": the pale chapter numeral printed behind a chapter heading
GHOST_SHARE_O = 0.16  # its colour: the style's colour screened to this share
INK_O = colors.Color(0.11, 0.13, 0.2)  # style "o": section headings, the running footer
SQUARE_O = 5.2  # the coloured square before a section heading
TAB_O = {"h": 11.5, "pad": 6.0, "size": 8.2}  # a box's folder tab (height of one line)
LANE_O = 21.0  # style "o": the lane at a box's left that holds its round badge
BADGE_R_O = 7.0
BADGES_O = {"example": "\u270e", "note": "\u2762"}  # ZapfDingbats: pencil, exclamation mark
KEEP_LINES_O = 3  # a paragraph starts at a column's foot only with this many lines there


def col_widths_o(st: Style, odd: bool) -> tuple[float, float]:
    """Widths of the left and right columns of a style "o" page: the narrow one (a share
    `first_col_share` of the two) on the INSIDE, left on odd (right-hand) pages, right on even."""
    both = st.page_size[0] - st.left - st.inner - st.gutter
    narrow = round(both * st.first_col_share, 2)
    wide = round(both - narrow, 2)
    return (narrow, wide) if odd else (wide, narrow)


def bold_terms_o(text: str, st: Style) -> str:
    """markup() of a style "o" text with its *key terms* in the bold of the body's sans."""
    return KEYWORD_RE.sub(
        lambda m: f'<font name="{st.bold_font}">{m.group(1)}</font>', markup(text, st)
    )


class KeepLinesParagraph(KeyedParagraph):
    """Style "o": a paragraph that starts at a column's foot only when KEEP_LINES_O lines fit
    there (otherwise it moves on whole to the next column); its last line may stand alone."""

    def split(self, availWidth, availHeight):
        if availHeight < KEEP_LINES_O * self.style.leading - 1e-6:
            return []
        return super().split(availWidth, availHeight)


class SquareHeading(Flowable):
    """Style "o": a section heading in a dark bold sans after a coloured square, a hairline
    running from the end of its (last) line to the column's right edge. It is NOT kept with its
    text: at a column's foot it may stand alone, its paragraph starting in the next column."""

    def __init__(self, text: str, key: str, st: Style):
        super().__init__()
        self.text, self.st = text, st
        self.gt_key, self.gt_part, self.gt_level, self.gt_text = key, 0, 2, text
        self.spaceBefore, self.spaceAfter = st.h2_space_before, 3.5
        self.lead = st.h2 * 1.22

    def wrap(self, availWidth, availHeight):
        from reportlab.lib.utils import simpleSplit

        self.indent = SQUARE_O + 4.5
        self.lines = simpleSplit(self.text, self.st.h2_font, self.st.h2,
                                 availWidth - self.indent - 14)  # fmt: skip
        self.width, self.height = availWidth, len(self.lines) * self.lead
        return self.width, self.height

    def split(self, availWidth, availHeight):
        return []

    def draw(self):
        canv, st = self.canv, self.st
        canv.saveState()
        base = self.height
        for i, line in enumerate(self.lines):
            base = self.height - (i + 1) * self.lead + 0.26 * self.lead
            if i == 0:
                canv.setFillColor(st.box_border)
                canv.rect(0, base + 0.3, SQUARE_O, SQUARE_O, stroke=0, fill=1)
            canv.setFillColor(INK_O)
            canv.setFont(st.h2_font, st.h2)
            canv.drawString(self.indent, base, line)
        end = self.indent + pdfmetrics.stringWidth(self.lines[-1], st.h2_font, st.h2) + 5
        canv.setStrokeColor(st.box_border)
        canv.setLineWidth(0.45)
        canv.line(end, base + st.h2 * 0.3, self.width, base + st.h2 * 0.3)
        canv.restoreState()


def badge_o(block: dict) -> tuple[str, str]:
    """The round badge of a style "o" box: (its meaning, its glyph)."""
    kind = "example" if block["title"].startswith("Example") else "note"
    return kind, BADGES_O[kind]


class TabBox(Flowable):
    """Style "o": a box as wide as its column on a pale fill in a thin coloured frame, its title
    in white on a FOLDER TAB standing on the frame's top edge at the left (wrapped onto a second
    line when too long), a round coloured badge with a white glyph in a lane at its left and its
    text, in a smaller sans, beside the lane. Never split: it moves on to the next column whole."""

    def __init__(self, block: dict, st: Style, sty):
        super().__init__()
        self.block, self.st, self.sty = block, st, sty
        self.gt_key, self.gt_part = block["key"], 0
        self.spaceBefore, self.spaceAfter = 7, 9
        self.glyph = badge_o(block)[1]

    def wrap(self, availWidth, availHeight):
        from reportlab.lib.utils import simpleSplit

        st, pad = self.st, TAB_O["pad"]
        self.title_lines = simpleSplit(self.block["title"], st.box_title_font, TAB_O["size"],
                                       availWidth - 2 * pad - 8)  # fmt: skip
        self.tab_w = 2 * pad + max(
            pdfmetrics.stringWidth(t, st.box_title_font, TAB_O["size"]) for t in self.title_lines
        )
        self.tab_h = TAB_O["h"] + (len(self.title_lines) - 1) * (TAB_O["size"] + 2)
        lp, rp, tp, bp = st.box_padding
        self.para = Paragraph(bold_terms_o(self.block["text"], st), self.sty["box"])
        _, ph = self.para.wrap(availWidth - LANE_O - lp - rp, 10000)
        self.body_h = ph + tp + bp
        self.width, self.height = availWidth, self.body_h + self.tab_h
        return self.width, self.height

    def split(self, availWidth, availHeight):
        return []

    def draw(self):
        canv, st = self.canv, self.st
        lp, _, tp, bp = st.box_padding
        canv.saveState()
        canv.setFillColor(st.box_fill)
        canv.setStrokeColor(st.box_border)
        canv.setLineWidth(st.box_border_width)
        canv.rect(0, 0, self.width, self.body_h, stroke=1, fill=1)
        canv.setFillColor(st.box_border)
        canv.roundRect(0, self.body_h - 3, self.tab_w, self.tab_h + 3, 2.6, stroke=0, fill=1)
        canv.rect(0, self.body_h - 3, self.tab_w, 5, stroke=0, fill=1)
        canv.setFillColor(st.box_title_color)
        canv.setFont(st.box_title_font, TAB_O["size"])
        for i, line in enumerate(self.title_lines):
            y = self.body_h + self.tab_h - 8.6 - i * (TAB_O["size"] + 2)
            canv.drawString(TAB_O["pad"], y, line)
        cx, cy = LANE_O / 2 + 2.5, self.body_h - tp - BADGE_R_O
        canv.setFillColor(st.box_border)
        canv.circle(cx, cy, BADGE_R_O, stroke=0, fill=1)
        canv.setFillColor(colors.white)
        canv.setFont("ZapfDingbats", 8.6)
        canv.drawCentredString(cx, cy - 3.1, self.glyph)
        canv.restoreState()
        self.para.drawOn(canv, LANE_O + lp, bp)


def _styles_o(st: Style) -> dict[str, ParagraphStyle]:
    sty = _styles(st)
    sty.update(
        body=ParagraphStyle("body_o", parent=sty["body"], allowOrphans=0),
        box=box_text_style("box_o", sty["body"], 8.8, 11.8, fontName="Helvetica"),
        h3=ParagraphStyle("h3_o", fontName="Helvetica-BoldOblique", fontSize=st.size + 0.5,
                          leading=st.leading, textColor=st.box_border, spaceBefore=7,
                          spaceAfter=1.5),
        title=title_style("title_o", "Helvetica-Bold", st, 1.12, textColor=st.box_border),
    )  # fmt: skip
    sty["body_first"] = ParagraphStyle("body_first_o", parent=sty["body"], firstLineIndent=0)
    return sty


def chapter_numbers_o(book: dict) -> list[int]:
    """The numbers of a style "o" book's chapters, counted from its `first_chapter` (default 1)."""
    first = int(book.get("first_chapter", 1))
    count = sum(1 for b in book["blocks"] if b["type"] == "heading" and int(b["level"]) == 1)
    return list(range(first, first + count))


def _story_o(book: dict, st: Style, sty) -> tuple[list, list, list, dict]:
    """The flowables of a style "o" book by chapter: (chapters, truth blocks, headings, what
    follows each section heading); a chapter is a dict of its heading's text, truth entry,
    number and flowables (its heading is not a flowable: it is drawn across the page)."""
    chapters: list[dict] = []
    truth_blocks: list[dict] = []
    headings: list[dict] = []
    follows: dict[str, str] = {}  # heading id -> key (or id) of what comes next in its column
    path: list[str] = []
    numbers = iter(chapter_numbers_o(book))
    after_heading, pending = False, None
    for block in book["blocks"]:
        kind = block["type"]
        if kind == "heading":
            lvl, path, entry = new_heading(block, path, headings)
            if pending:
                follows[pending] = entry["id"]
            pending = None
            if lvl == 1:
                num = next(numbers)
                entry.update(placement="span", number=str(num), rule_below=True)
                chapters.append(dict(text=block["text"], entry=entry, number=num, story=[]))
            elif not chapters:
                raise ValueError("style o: a book must open with a chapter heading")
            elif lvl == 2:
                entry.update(marker={"shape": "square", "colour": _hex(st.box_border)},
                             leader_rule=True)  # fmt: skip
                chapters[-1]["story"].append(SquareHeading(block["text"], entry["id"], st))
                pending = entry["id"]
            else:
                entry["bold_oblique"] = True
                h = KeyedParagraph(escape(block["text"]), sty["h3"])
                h.gt_key, h.gt_level, h.gt_text = entry["id"], lvl, block["text"]
                chapters[-1]["story"].append(h)
                pending = entry["id"]
            after_heading = True
            continue
        words = KEYWORD_RE.findall(block["text"])
        row = truth_row(dict(block, text=KEYWORD_RE.sub(r"\1", block["text"])), path)
        if words:
            row["keywords"] = words
        truth_blocks.append(row)
        if pending:
            follows[pending] = block["key"]
        pending = None
        story = chapters[-1]["story"]
        if kind == "box":
            meaning, glyph = badge_o(block)
            row.update(tab_title=True, printed_title=block["title"],
                       badge={"char": glyph, "codepoint": f"U+{ord(glyph):04X}",
                              "font": "ZapfDingbats", "meaning": meaning})  # fmt: skip
            story.append(TabBox(block, st, sty))
            after_heading = True  # the paragraph after a box is not indented
            continue
        if kind != "paragraph":
            raise ValueError(f"unknown block type {kind!r}")
        p = KeepLinesParagraph(bold_terms_o(block["text"], st),
                               sty["body_first" if after_heading else "body"])  # fmt: skip
        p.gt_key = block["key"]
        story.append(p)
        after_heading = False
    return chapters, truth_blocks, headings, follows


def fill_frame_o(frame: Frame, items: list, canv, record=None) -> list:
    """Put flowables into `frame` (drawn on `canv`) until it is full, splitting one where it
    allows; `record(flowable)` is told of every part placed. Returns what did not fit."""
    items = list(items)
    while items:
        f = items[0]
        if frame.add(f, canv):
            if record:
                record(f)
            items.pop(0)
            continue
        parts = frame.split(f, canv)
        if len(parts) < 2 or not frame.add(parts[0], canv):
            break
        if record:
            record(parts[0])
        items = parts[1:] + items[1:]
    return items


class SpreadDoc:
    """Style "o": a book laid out page by page on a reportlab canvas. Pages of 190 x 260 mm with
    mirrored margins; two UNEQUAL columns, the narrow one on the inside; on the first page the
    title and a contents panel; every chapter heading drawn ACROSS BOTH COLUMNS where the chapter
    begins (the columns of the chapter before balanced above it when the new chapter fits under
    them, else the chapter begins on a new page), a large pale numeral behind it; at the foot of
    every page, in the OUTER corner, the page number large beside a short vertical rule and the
    two-line running footer (book, then chapter) (drawn after the page's text)."""

    def __init__(self, out, book: dict, st: Style, sty, contents: list[dict]):
        self.book, self.st, self.sty, self.contents = book, st, sty, contents
        W, H = st.page_size
        self.canv = Canvas(out, pagesize=st.page_size, invariant=1)
        self.canv.setTitle(book["title"])
        self.canv.setAuthor("rulings test data")
        self.canv.setSubject(book["game"])
        self.canv.setCreator("make_pdf.py")
        self.dry = Canvas(io.BytesIO(), pagesize=st.page_size, invariant=1)
        self.placed: list[tuple[str, int, int, str]] = []  # key, part, pdf page, frame id
        self.page = 0
        self.top_chapter: dict[int, str] = {}
        self.page_footers: list[dict] = []
        self.page_regions: dict[int, list[dict]] = {}
        self.ghosts: list[dict] = []
        self.spans: list[dict] = []
        self.contents_box: dict | None = None
        self.top = H - st.top

    def printed(self, page: int) -> int:
        return self.book["first_page"] + page - 1

    def margins(self, page: int) -> tuple[float, float]:
        """Left and right margin: the inner one on the left of odd (right-hand) printed pages."""
        st = self.st
        return (st.inner, st.left) if self.printed(page) % 2 else (st.left, st.inner)

    def widths(self) -> tuple[float, float]:
        return col_widths_o(self.st, self.printed(self.page) % 2 == 1)

    # -- pages
    def new_page(self, chapter: str) -> float:
        """Start the next page (ending the one before); returns the top of its free area."""
        if self.page:
            self.draw_foot()
            self.canv.showPage()
        self.page += 1
        self.top_chapter[self.page] = chapter
        self.page_regions[self.page] = []
        st, W = self.st, self.st.page_size[0]
        lm, rm = self.margins(self.page)
        c = self.canv  # before the text: a coloured rule along the top, no text
        c.saveState()
        c.setFillColor(st.box_border)
        c.rect(lm, self.top + 7 * mm, W - lm - rm, 1.1, stroke=0, fill=1)
        c.restoreState()
        return self.top

    def draw_title(self, y: float) -> float:
        """The first page: the book title and the contents panel under it."""
        st, c = self.st, self.canv
        lm, rm = self.margins(1)
        width = st.page_size[0] - lm - rm
        title = Paragraph(escape(self.book["title"]), self.sty["title"])
        _, th = title.wrap(width, 1000)
        title.drawOn(c, lm, y - th)
        y -= th + 5 * mm
        rows = len(self.contents)
        ph = 9 + 11 + rows * 13 + 5
        c.saveState()
        c.setFillColor(halftone(st.box_border, 0.09))
        c.rect(lm, y - ph, width, ph, stroke=0, fill=1)
        c.setFillColor(st.box_border)
        c.rect(lm, y - ph, 2.2, ph, stroke=0, fill=1)
        c.setFont("Helvetica-Bold", 7.6)
        c.drawString(lm + 9, y - 13, "CONTENTS")
        printed = []
        for i, row in enumerate(self.contents):
            base = y - 9 - 11 - (i + 1) * 13 + 3.5
            num, text, page = str(row["number"]), row["text"], str(row["page"])
            c.setFillColor(st.box_border)
            c.setFont("Helvetica-Bold", 9.4)
            c.drawString(lm + 9, base, num)
            c.setFillColor(INK_O)
            c.setFont("Helvetica", 9.4)
            c.drawString(lm + 24, base, text)
            c.drawRightString(lm + width - 9, base, page)
            x0 = lm + 24 + pdfmetrics.stringWidth(text, "Helvetica", 9.4) + 5
            x1 = lm + width - 9 - pdfmetrics.stringWidth(page, "Helvetica", 9.4) - 5
            c.setFillColor(colors.Color(0.55, 0.57, 0.62))
            dots = "." * max(0, int((x1 - x0) / pdfmetrics.stringWidth(". ", "Helvetica", 9.4)))
            c.drawRightString(x1, base, " ".join(dots))
            printed.append(dict(number=num, text=text, page=int(page)))
        c.restoreState()
        self.contents_box = dict(
            not_a_block=True, page=self.printed(1), pdf_page_index=0, entries=printed,
            leaders="dots", bbox_pt=[round(lm, 2), round(st.page_size[1] - y, 2),
                                     round(lm + width, 2), round(st.page_size[1] - y + ph, 2)],
        )  # fmt: skip
        self.page_regions[1] += [dict(kind="title", height_pt=round(th, 2)),
                                 dict(kind="contents", height_pt=round(ph, 2))]  # fmt: skip
        return y - ph - 6 * mm

    def draw_span(self, chapter: dict, y: float, above: float) -> float:
        """A chapter heading across both columns with its top at `y`: the pale numeral first
        (behind), then the title, then a rule under both; returns the top of the text under it."""
        st, c = self.st, self.canv
        lm, rm = self.margins(self.page)
        W = st.page_size[0]
        base = y - SPAN_O + 5.5 * mm
        num = str(chapter["number"])
        c.saveState()
        c.setFillColor(halftone(st.box_border, GHOST_SHARE_O))
        c.setFont("Helvetica-Bold", GHOST_SIZE_O)
        c.drawRightString(W - rm - 2, base - 3.2 * mm, num)
        c.setFillColor(st.box_border)
        c.setFont(st.head_font, st.h1)
        c.drawString(lm, base, chapter["text"])
        c.rect(lm, base - 3.2 * mm, W - lm - rm, 1.7, stroke=0, fill=1)
        c.restoreState()
        self.placed.append((chapter["entry"]["id"], 0, self.page, "span"))
        self.ghosts.append(dict(
            chapter=chapter["text"], number=num, page=self.printed(self.page),
            pdf_page_index=self.page - 1, not_a_block=True, font="Helvetica-Bold",
            size=GHOST_SIZE_O, colour=_hex(halftone(st.box_border, GHOST_SHARE_O)),
            align="right", drawn="before the heading",
        ))  # fmt: skip
        self.spans.append(dict(
            heading=chapter["text"], page=self.printed(self.page), pdf_page_index=self.page - 1,
            top_pt=round(st.page_size[1] - y, 2), columns_above_pt=round(above, 2),
        ))  # fmt: skip
        self.page_regions[self.page].append(
            dict(kind="span-heading", text=chapter["text"], top_pt=round(st.page_size[1] - y, 2))
        )
        return y - SPAN_O

    def columns(self, items: list, top: float, height: float, low: bool, dry: bool) -> list:
        """Fill the two columns of this page from `top` down, `height` high; returns the rest.
        A dry run (a deep copy, drawn on a throwaway canvas) only tells what would be left."""
        st = self.st
        lm, _ = self.margins(self.page)
        x = lm
        if dry:
            items = copy.deepcopy(items)
        for i, w in enumerate(self.widths()):
            fid = f"{'low-' if low else ''}col{i + 1}"
            frame = Frame(x, top - height, w, height, id=fid, **PAD0)

            def record(f, fid=fid):
                key = getattr(f, "gt_key", None)
                if key:
                    self.placed.append((key, getattr(f, "gt_part", 0), self.page, fid))

            items = fill_frame_o(frame, items, self.dry if dry else self.canv,
                                 None if dry else record)  # fmt: skip
            x += w + st.gutter
        if not dry:
            self.page_regions[self.page].append(dict(
                kind="columns", top_pt=round(st.page_size[1] - top, 2),
                height_pt=round(height, 2), widths_pt=list(self.widths()),
                below_span=low,
            ))  # fmt: skip
        return items

    def draw_foot(self):
        """After the page's text, in the OUTER corner: the page number large in the style's
        colour, a short vertical rule beside it, then (towards the inside) the book's running
        header in bold over the chapter in effect at the top of the page in italics."""
        st, c, page = self.st, self.canv, self.page
        W = st.page_size[0]
        lm, rm = self.margins(page)
        num = str(self.printed(page))
        odd = int(num) % 2 == 1
        head, chapter = self.book["running_header"], self.top_chapter[page]
        base = st.bottom - 13 * mm
        nw = pdfmetrics.stringWidth(num, "Helvetica-Bold", 15)
        c.saveState()
        c.setFillColor(st.box_border)
        c.setFont("Helvetica-Bold", 15)
        if odd:
            c.drawRightString(W - rm, base, num)
            rule_x = W - rm - nw - 3.2 * mm
            text_x = rule_x - 3.2 * mm
        else:
            c.drawString(lm, base, num)
            rule_x = lm + nw + 3.2 * mm
            text_x = rule_x + 3.2 * mm
        c.setStrokeColor(st.box_border)
        c.setLineWidth(0.7)
        c.line(rule_x, base - 3, rule_x, base + 13.5)
        c.setFillColor(INK_O)
        c.setFont("Helvetica-Bold", 7.4)
        (c.drawRightString if odd else c.drawString)(text_x, base + 6.4, head)
        c.setFillColor(colors.Color(0.35, 0.37, 0.42))
        c.setFont("Helvetica-Oblique", 7.4)
        (c.drawRightString if odd else c.drawString)(text_x, base - 2.2, chapter)
        c.restoreState()
        self.page_footers.append(dict(
            page=int(num), pdf_page_index=page - 1, corner="right" if odd else "left",
            number=num, number_size=15, vertical_rule=True, lines=[head, chapter],
        ))  # fmt: skip

    def fits(self, items: list, top: float, height: float) -> bool:
        return not self.columns(items, top, height, False, dry=True)

    def balance(self, items: list, top: float, height: float) -> float:
        """The least column height (to half a point) that holds all of `items` in two columns."""
        lo, hi = 0.0, height
        while hi - lo > 0.5:
            mid = (lo + hi) / 2
            lo, hi = (lo, mid) if self.fits(items, top, mid) else (mid, hi)
        return hi

    def build(self, chapters: list[dict]) -> None:
        """Lay the chapters out: each heading across the page where its chapter begins (on a new
        page when it and SPAN_MIN_LINES_O lines do not fit under what comes before), the
        chapter's text in the columns under it, balanced on the page where the chapter ends when
        the next chapter begins on that page too (and on the book's last page)."""
        st = self.st
        need = SPAN_O + SPAN_MIN_LINES_O * st.leading
        y = self.draw_title(self.new_page(chapters[0]["text"]))
        low_page, above, gap_due = 0, 0.0, False
        for n, chapter in enumerate(chapters):
            if gap_due:
                y -= SPAN_GAP_O
            if y - st.bottom < need:
                y, above = self.new_page(chapter["text"]), 0.0
            y = self.draw_span(chapter, y, above)
            low_page = self.page
            items = chapter["story"]
            nxt = n + 1 < len(chapters)
            while items:
                room = y - st.bottom
                low = low_page == self.page
                if self.fits(items, y, room):
                    h = self.balance(items, y, room)
                    if nxt and y - h - SPAN_GAP_O - st.bottom < need:
                        h = room  # the next chapter begins on a new page: no balancing here
                    if self.columns(items, y, h, low, dry=False):
                        raise ValueError("style o: a balanced layout left text over")
                    items, above, y, gap_due = [], h, y - h, True
                else:
                    before = len(self.placed)
                    items = self.columns(items, y, room, low, dry=False)
                    if len(self.placed) == before and y >= self.top - 1:
                        raise ValueError("style o: a block does not fit an empty page")
                    y, above, gap_due = self.new_page(chapter["text"]), 0.0, False
        self.draw_foot()
        self.canv.showPage()
        self.canv.save()


def _layout_o(book: dict, st: Style, sty, out, contents: list[dict]):
    """One layout of a style "o" book into `out` with the given contents rows."""
    chapters, truth_blocks, headings, follows = _story_o(book, st, sty)
    doc = SpreadDoc(out, book, st, sty, contents)
    doc.build(chapters)
    return doc, truth_blocks, headings, follows, chapters


def build_pdf_o(book: dict, out_pdf_path, style: str = "o") -> dict:
    """Style "o" (see STYLES): laid out once with the contents panel's page numbers unknown (the
    panel's height does not depend on them), then again with the pages where the chapters begin;
    the truth adds the chapter headings across the page, the pale numerals behind them, the
    contents panel, the section headings left alone at a column's foot and the two-line foot of
    every page."""
    st = STYLES[style]
    sty = _styles_o(st)
    out = Path(out_pdf_path)
    rows = [dict(number=n, text=t["text"], page=book["first_page"])
            for n, t in zip(chapter_numbers_o(book),
                            (b for b in book["blocks"]
                             if b["type"] == "heading" and int(b["level"]) == 1))]  # fmt: skip
    doc, *_ = _layout_o(book, st, sty, io.BytesIO(), rows)
    first = {s["heading"]: s["page"] for s in doc.spans}
    rows = [dict(r, page=first[r["text"]]) for r in rows]
    doc, truth_blocks, headings, follows, _ = _layout_o(book, st, sty, str(out), rows)
    if {s["heading"]: s["page"] for s in doc.spans} != first:
        raise ValueError("style o: the chapters moved once the contents had their pages")

    def column(frame: str) -> int:
        return 0 if frame == "span" else int(frame[-1])

    starts: dict[str, tuple[int, str]] = {}  # key -> (pdf page, frame) of its first part
    for key, _, page, frame in sorted(doc.placed, key=lambda r: (r[0], r[1])):
        starts.setdefault(key, (page, frame))
    stranded = []
    for h in headings:
        nxt = follows.get(h["id"])
        if h["level"] > 1 and nxt and starts[nxt] != starts[h["id"]]:
            page, frame = starts[nxt]
            h["stranded"] = True
            h["text_starts"] = dict(page=doc.printed(page), pdf_page_index=page - 1,
                                    column=column(frame))  # fmt: skip
            stranded.append(dict(heading=h["text"], next=nxt))
        elif h["level"] > 1:
            h["stranded"] = False
    place_truth(doc, headings, truth_blocks, column)
    for s, h in zip(stranded, [h for h in headings if h.get("stranded")]):
        s.update(page=h["page"], pdf_page_index=h["pdf_page_index"], column=h["column"])
    parts: dict[str, list[str]] = {}  # key -> frames of its parts, in order
    for key, _, _, frame in sorted(doc.placed, key=lambda r: r[:2]):
        parts.setdefault(key, []).append(frame)
    for b in truth_blocks:  # where a block (or a part of it) sits under a chapter heading
        first_frame, *rest = parts[b["key"]]
        if first_frame.startswith("low-"):
            b["below_span"] = True
        for cont, frame in zip(b["continues"], rest):
            if frame.startswith("low-"):
                cont["below_span"] = True
    odd, even = col_widths_o(st, True), col_widths_o(st, False)
    truth = truth_head(book, style, doc, headings, truth_blocks)
    truth.update(
        page_size="190x260mm",
        margins_pt={"inner": round(st.inner, 2), "outer": round(st.left, 2)},
        column_widths_pt={"odd_pages": list(odd), "even_pages": list(even),
                          "narrow_column": "inner", "gutter": round(st.gutter, 2)},
        contents=doc.contents_box,
        chapter_spans=doc.spans,
        ghost_numbers=doc.ghosts,
        stranded_headings=stranded,
        page_regions=[dict(page=doc.printed(p), pdf_page_index=p - 1, regions=r)
                      for p, r in sorted(doc.page_regions.items())],
        page_headers=[],
        page_footers=doc.page_footers,
    )  # fmt: skip
    return write_truth(out, truth)


# ---------------------------------------------------------------- style "p"
NUMERAL_P = {"font": "Helvetica-Bold", "size": 34.0, "gap": 7.0, "stroke": 0.9}  # outlined numeral
DECK_P = {"font": "Times-Italic", "size": 11.8, "leading": 14.6}  # the deck under a chapter heading
TRACK_P = 1.5  # style "p": letter-spacing of section headings (points between letters)
TRACK_HEAD_P = 1.1  # letter-spacing of the section name in the header and the running footer
BAR_P = (10 * mm, 2.4)  # the short thick bar over a section heading: length, thickness
MARK_P = 7.0  # length of each arm of a corner mark round an example box
NOTE_MARK_P = "*"  # the mark that ties an asterisk note to its paragraph
# Two palettes: the ordinary pages and the REVERSED (dark) pages of the chapter marked so.
PALETTES_P = {
    "light": dict(page=None, ink=colors.Color(0.12, 0.13, 0.15),
                  accent=colors.Color(0.72, 0.27, 0.09), muted=colors.Color(0.4, 0.41, 0.44),
                  fill=colors.Color(0.96, 0.945, 0.925), rule=colors.Color(0.62, 0.62, 0.64),
                  head_fill=colors.Color(0.2, 0.22, 0.26), head_ink=colors.white,
                  band=colors.Color(0.93, 0.92, 0.9)),
    "dark": dict(page=colors.Color(0.11, 0.13, 0.17), ink=colors.Color(0.92, 0.91, 0.88),
                 accent=colors.Color(0.97, 0.68, 0.32), muted=colors.Color(0.7, 0.72, 0.75),
                 fill=colors.Color(0.18, 0.21, 0.26), rule=colors.Color(0.45, 0.48, 0.53),
                 head_fill=colors.Color(0.97, 0.68, 0.32), head_ink=colors.Color(0.11, 0.13, 0.17),
                 band=colors.Color(0.16, 0.19, 0.24)),
}  # fmt: skip


def _register_dejavu_sans_cond() -> None:
    """DejaVu Sans Condensed (the system's fonts-dejavu), embedded as TrueType subsets."""
    from reportlab.pdfbase.ttfonts import TTFont

    have = set(pdfmetrics.getRegisteredFontNames())
    fonts = (("DejaVuSansCond", "DejaVuSansCondensed.ttf"),
             ("DejaVuSansCond-Bold", "DejaVuSansCondensed-Bold.ttf"),
             ("DejaVuSansCond-Oblique", "DejaVuSansCondensed-Oblique.ttf"),
             ("DejaVuSansCond-BoldOblique", "DejaVuSansCondensed-BoldOblique.ttf"))  # fmt: skip
    for name, file in fonts:
        if name not in have:
            path = DEJAVU_DIR / file
            if not path.exists():
                raise FileNotFoundError(f"style p needs the DejaVu fonts (fonts-dejavu): {path}")
            pdfmetrics.registerFont(TTFont(name, str(path)))


def col_width_p(st: Style) -> float:
    """Width of each of the two equal columns of style "p"."""
    return (st.page_size[0] - st.left - st.right - st.gutter) / 2


def terms_p(text: str, st: Style) -> str:
    """markup() of a style "p" text with its *key terms* in the body's bold italic."""
    return KEYWORD_RE.sub(
        lambda m: f'<font name="DejaVuSansCond-BoldOblique">{m.group(1)}</font>', markup(text, st)
    )


def tracked_width(text: str, font: str, size: float, track: float) -> float:
    """Width of a line set with `track` points of letter-spacing after every character."""
    return pdfmetrics.stringWidth(text, font, size) + track * len(text)


def tracked_lines(text: str, font: str, size: float, track: float, width: float) -> list[str]:
    """Break `text` into lines no wider than `width` when letter-spaced by `track`."""
    lines, line = [], ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if line and tracked_width(trial, font, size, track) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    return lines + [line]


class NumeralHeading(Flowable):
    """Style "p": a chapter heading led by a large OUTLINED two-digit numeral (stroked, not
    filled), the title in a bold condensed sans beside it, top-aligned with the numeral."""

    def __init__(self, text: str, key: str, number: str, sty, pal: dict):
        super().__init__()
        self.text, self.number, self.pal = text, number, pal
        self.para = Paragraph(escape(text), sty["h1"])
        self.gt_key, self.gt_part, self.gt_level, self.gt_text = key, 0, 1, text
        self.keepWithNext = 1
        self.spaceBefore, self.spaceAfter = sty["h1"].spaceBefore, 5

    def wrap(self, availWidth, availHeight):
        n = NUMERAL_P
        self.nw = pdfmetrics.stringWidth(self.number, n["font"], n["size"])
        _, self.th = self.para.wrap(availWidth - self.nw - n["gap"], 1000)
        self.cap = n["size"] * 0.72
        self.width, self.height = availWidth, max(self.cap, self.th) + 2
        return self.width, self.height

    def split(self, availWidth, availHeight):
        return []

    def draw(self):
        canv, n = self.canv, NUMERAL_P
        canv.saveState()
        t = canv.beginText(0, self.height - self.cap)
        t.setTextRenderMode(1)  # stroke only: an outlined numeral
        t.setFont(n["font"], n["size"])
        canv.setStrokeColor(self.pal["accent"])
        canv.setLineWidth(n["stroke"])
        t.textOut(self.number)
        canv.drawText(t)
        canv.restoreState()
        self.para.drawOn(canv, self.nw + n["gap"], self.height - self.th)


class DeckParagraph(KeyedParagraph):
    """Style "p": the deck of a chapter, a one-sentence summary in a larger serif italic, a short
    thick rule in the accent colour under it."""

    rule_gap = 7.0
    rule_color = None

    def split(self, availWidth, availHeight):
        parts = super().split(availWidth, availHeight)
        for p in parts:
            p.rule_color = self.rule_color
        return parts

    def wrap(self, availWidth, availHeight):
        w, h = super().wrap(availWidth, availHeight)
        self.height = h + self.rule_gap
        return w, self.height

    def draw(self):
        super().draw()
        self.canv.saveState()
        self.canv.setStrokeColor(self.rule_color)
        self.canv.setLineWidth(1.3)
        self.canv.line(0, 1.2, 14 * mm, 1.2)
        self.canv.restoreState()


class TrackedHeading(Flowable):
    """Style "p": a section heading in letter-spaced CAPITALS of the bold condensed sans in the
    accent colour, under a short thick bar (a NeedSpace before it keeps it off a column's foot)."""

    def __init__(self, text: str, key: str, st: Style, pal: dict):
        super().__init__()
        self.text, self.st, self.pal = text, st, pal
        self.gt_key, self.gt_part, self.gt_level, self.gt_text = key, 0, 2, text
        self.spaceBefore, self.spaceAfter = st.h2_space_before, 4.5
        self.lead = st.h2 * 1.3

    def wrap(self, availWidth, availHeight):
        st = self.st
        self.lines = tracked_lines(self.text.upper(), st.h2_font, st.h2, TRACK_P, availWidth)
        self.width, self.height = availWidth, 5.5 + len(self.lines) * self.lead
        return self.width, self.height

    def split(self, availWidth, availHeight):
        return []

    def draw(self):
        canv, st = self.canv, self.st
        canv.saveState()
        canv.setFillColor(self.pal["accent"])
        canv.rect(0, self.height - BAR_P[1], BAR_P[0], BAR_P[1], stroke=0, fill=1)
        for i, line in enumerate(self.lines):
            t = canv.beginText(0, self.height - 5.5 - (i + 1) * self.lead + 0.25 * self.lead)
            t.setFont(st.h2_font, st.h2)
            t.setCharSpace(TRACK_P)
            t.textOut(line)
            canv.drawText(t)
        canv.restoreState()


def cell_table(cells: list, width: float, commands: list, pads=(9, 9, 8, 8)) -> Table:
    """A one-column table of flowables (one row each) `width` wide, padded, with `commands`."""
    t = Table([[c] for c in cells], colWidths=[width])
    lp, rp, tp, bp = pads
    t.setStyle(TableStyle(list(commands) + [
        ("LEFTPADDING", (0, 0), (-1, -1), lp), ("RIGHTPADDING", (0, 0), (-1, -1), rp),
        ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
        ("TOPPADDING", (0, 0), (-1, 0), tp), ("BOTTOMPADDING", (0, -1), (-1, -1), bp),
    ]))  # fmt: skip
    return t


class CornerBox(ColumnBox):
    """Style "p": an example box as wide as its column on a pale fill, framed only by CORNER MARKS
    (an L at each corner, standing off the fill), its title in bold condensed capitals in the
    accent colour, its text in a smaller condensed sans."""

    def __init__(self, block, st: Style, sty, pal: dict):
        super().__init__(block, st, sty)
        self.pal = pal
        self.spaceBefore, self.spaceAfter = 8, 10

    def _make(self, width: float) -> Table:
        cells = [Paragraph(escape(self.block["title"].upper()), self.sty["box_title"]),
                 Paragraph(terms_p(self.block["text"], self.st), self.sty["box"])]  # fmt: skip
        return cell_table(cells, width, [("BACKGROUND", (0, 0), (-1, -1), self.pal["fill"])])

    def draw(self):
        self._table.drawOn(self.canv, 0, 0)
        canv, w, h, m, o = self.canv, self.width, self.height, MARK_P, 2.2
        canv.saveState()
        canv.setStrokeColor(self.pal["accent"])
        canv.setLineWidth(1.1)
        for x, y, dx, dy in ((-o, -o, 1, 1), (w + o, -o, -1, 1), (-o, h + o, 1, -1),
                             (w + o, h + o, -1, -1)):  # fmt: skip
            canv.line(x, y, x + dx * m, y)
            canv.line(x, y, x, y + dy * m)
        canv.restoreState()


class NoteBox(ColumnBox):
    """Style "p": a DESIGNER'S NOTE as wide as its column inside a double frame (two thin
    rectangles), title in a serif bold italic, text in a serif italic and, under it, flush right,
    a signature line led by an em dash."""

    def __init__(self, block, st: Style, sty, pal: dict):
        super().__init__(block, st, sty)
        self.pal = pal
        self.spaceBefore, self.spaceAfter = 8, 10

    def _make(self, width: float) -> Table:
        sty = self.sty
        cells = [
            Paragraph(escape(self.block["title"]), sty["note_title"]),
            Paragraph(markup(self.block["text"], self.st, bold_lead=False), sty["note"]),
            Paragraph(escape("\u2014 " + self.block["signature"]), sty["signature"]),
        ]
        return cell_table(cells, width, [("BOX", (0, 0), (-1, -1), 0.5, self.pal["rule"])],
                          pads=(11, 11, 10, 10))  # fmt: skip

    def draw(self):
        self._table.drawOn(self.canv, 0, 0)
        self.canv.saveState()
        self.canv.setStrokeColor(self.pal["rule"])
        self.canv.setLineWidth(0.5)
        self.canv.rect(2.6, 2.6, self.width - 5.2, self.height - 5.2, stroke=1, fill=0)
        self.canv.restoreState()


class TermTable(Table):
    """Style "p": the table of terms and definitions, free-standing in its column: its caption in
    bold condensed capitals and a line of text over a dark header row, the rows on alternate tints.
    It may run on into the next column, where its HEADER ROW is printed again (not its caption);
    every part keeps the block's key."""

    gt_key: str | None = None
    gt_part: int = 0

    def split(self, availWidth, availHeight):
        parts = super().split(availWidth, availHeight)
        if parts and len(parts[0]._cellvalues) < 5:  # caption, text, header and one row at least
            return []
        for i, p in enumerate(parts):
            p.__class__ = TermTable
            p.gt_key, p.gt_part = self.gt_key, self.gt_part + i
        return parts


def term_table_p(block: dict, width: float, st: Style, sty, pal: dict) -> TermTable:
    """Style "p": the TermTable of a box with `header` and `rows`."""
    left = round(width * 0.31, 2)
    rows = [
        [Paragraph(escape(block["title"].upper()), sty["box_title"]), ""],
        [Paragraph(terms_p(block["text"], st), sty["table_text"]), ""],
        [Paragraph(escape(c), sty["cell_head"]) for c in block["header"]],
    ]
    rows += [
        [Paragraph(escape(a), sty["cell_term"]), Paragraph(escape(b), sty["cell"])]
        for a, b in block["rows"]
    ]
    t = TermTable(rows, colWidths=[left, width - left], repeatRows=(2,))
    t.setStyle(TableStyle([
        ("SPAN", (0, 0), (-1, 0)), ("SPAN", (0, 1), (-1, 1)),
        ("BACKGROUND", (0, 2), (-1, 2), pal["head_fill"]),
        ("ROWBACKGROUNDS", (0, 3), (-1, -1), [pal["band"], None]),
        ("LINEBELOW", (0, -1), (-1, -1), 0.8, pal["accent"]),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), 4), ("RIGHTPADDING", (0, 0), (-1, -1), 4),
        ("TOPPADDING", (0, 0), (-1, -1), 2.6), ("BOTTOMPADDING", (0, 0), (-1, -1), 2.8),
        ("LEFTPADDING", (0, 0), (-1, 1), 0), ("BOTTOMPADDING", (0, 1), (-1, 1), 5),
    ]))  # fmt: skip
    t.gt_key, t.gt_part = block["key"], 0
    t.spaceBefore, t.spaceAfter = 7, 9
    return t


def _styles_p(st: Style, pal: dict) -> dict[str, ParagraphStyle]:
    sty = _styles(st)
    ink, cond = pal["ink"], "DejaVuSansCond"
    body = ParagraphStyle("body_p", parent=sty["body"], textColor=ink, allowOrphans=0)
    sty.update(
        body=body,
        body_first=ParagraphStyle("body_first_p", parent=body, firstLineIndent=0),
        note=ParagraphStyle("note_p", fontName="Times-Italic", fontSize=9.8, leading=12.6,
                            textColor=ink, alignment=TA_JUSTIFY, embeddedHyphenation=1),
        note_title=ParagraphStyle("note_title_p", fontName="Times-BoldItalic", fontSize=11,
                                  leading=13, textColor=pal["accent"], spaceAfter=3),
        signature=ParagraphStyle("signature_p", fontName="Times-Roman", fontSize=8.6, leading=10.6,
                                 textColor=pal["muted"], alignment=TA_RIGHT, spaceBefore=5),
        star=ParagraphStyle("star_p", fontName=f"{cond}-Oblique", fontSize=7.9, leading=9.8,
                            textColor=pal["muted"], alignment=TA_LEFT, leftIndent=7,
                            bulletIndent=0, bulletFontName=f"{cond}-Bold", bulletFontSize=7.9,
                            bulletColor=pal["accent"], spaceBefore=2.5, spaceAfter=5,
                            embeddedHyphenation=1),
        deck=ParagraphStyle("deck_p", fontName=DECK_P["font"], fontSize=DECK_P["size"],
                            leading=DECK_P["leading"], textColor=pal["muted"], spaceAfter=7),
        h1=ParagraphStyle("h1_p", fontName=f"{cond}-Bold", fontSize=st.h1, leading=st.h1 * 1.12,
                          textColor=ink, spaceBefore=st.h1_space_before),
        h3=ParagraphStyle("h3_p", fontName=f"{cond}-BoldOblique", fontSize=st.size + 0.6,
                          leading=st.leading, textColor=ink, spaceBefore=7, spaceAfter=1.5),
        box=ParagraphStyle("box_p", fontName=cond, fontSize=8.6, leading=11.3, textColor=ink,
                           alignment=TA_JUSTIFY, embeddedHyphenation=1),
        box_title=ParagraphStyle("box_title_p", fontName=f"{cond}-Bold", fontSize=8.8,
                                 leading=11, textColor=pal["accent"], spaceAfter=3),
        table_text=ParagraphStyle("table_text_p", fontName=f"{cond}-Oblique", fontSize=8.4,
                                  leading=10.6, textColor=pal["muted"]),
        cell=ParagraphStyle("cell_p", fontName=cond, fontSize=8.3, leading=10.2, textColor=ink),
        cell_term=ParagraphStyle("cell_term_p", fontName=f"{cond}-Bold", fontSize=8.3,
                                 leading=10.2, textColor=ink),
        cell_head=ParagraphStyle("cell_head_p", fontName=f"{cond}-Bold", fontSize=8.3,
                                 leading=10.2, textColor=pal["head_ink"]),
        title=title_style("title_p", f"{cond}-Bold", st, 1.1, textColor=PALETTES_P["light"]["ink"]),
    )  # fmt: skip
    return sty


def _story_p(book: dict, st: Style, styles: dict) -> tuple[list, list, list]:
    """The flowables of a style "p" book: (story, truth blocks, headings). The chapter whose
    heading has `reversed: true` starts a new page of the "dark" template, and the chapter after it
    a new page of the "later" one. A paragraph's first line is indented only right after another
    body paragraph (not after a heading, a deck, a box or an asterisk note)."""
    story, truth_blocks, headings, path = [], [], [], []
    numbers = chapter_numbers(book)
    anchors = {b["note_for"]: b["key"] for b in book["blocks"] if b.get("note_for")}
    tone, prev, prev_key, chapter_entry = "light", None, None, None
    need = None  # the NeedSpace before the last heading(s)
    # Room a heading needs under it at a column's foot: its own (two lines) and three of text; a
    # chapter heading also its deck (five lines). Headings in a row add up in one NeedSpace.
    room = {
        1: st.h1_space_before + 2 * st.h1 * 1.12 + 12 + 5 * DECK_P["leading"] + 14,
        2: st.h2_space_before + 5.5 + 2 * st.h2 * 1.3 + 4.5,
        3: 7 + 2 * st.leading + 1.5,
    }
    for block in book["blocks"]:
        kind = block["type"]
        if kind == "heading":
            lvl, path, entry = new_heading(block, path, headings)
            text = block["text"]
            if lvl == 1:
                want = "dark" if block.get("reversed") else "light"
                if want != tone:
                    story += [NextPageTemplate("dark" if want == "dark" else "later"), PageBreak()]
                    tone = want
            if prev == "heading" and need is not None:
                need.need += room[lvl]
            else:
                need = NeedSpace(room[lvl] + 3 * st.leading)
                story.append(need)
            sty, pal = styles[tone], PALETTES_P[tone]
            if lvl == 1:
                number = f"{numbers[text]:02d}"
                entry.update(number=number, numeral={"outlined": True, "font": NUMERAL_P["font"],
                                                     "size": NUMERAL_P["size"]})  # fmt: skip
                story.append(NumeralHeading(text, entry["id"], number, sty, pal))
            elif lvl == 2:
                entry.update(printed_as=text.upper(), letter_spaced=True, bar_above=True)
                story.append(TrackedHeading(text, entry["id"], st, pal))
            else:
                entry["bold_oblique"] = True
                h = KeyedParagraph(escape(text), sty["h3"])
                h.gt_key, h.gt_level, h.gt_text = entry["id"], lvl, text
                story.append(h)
            if tone == "dark":
                entry["reversed"] = True
            chapter_entry = entry if lvl == 1 else None
            prev, prev_key = "heading", None
            continue
        sty, pal = styles[tone], PALETTES_P[tone]
        words = KEYWORD_RE.findall(block["text"])
        row = truth_row(dict(block, text=KEYWORD_RE.sub(r"\1", block["text"])), path)
        if words:
            row["keywords"] = words
        if tone == "dark":
            row["reversed"] = True
        truth_blocks.append(row)
        if kind == "box" and block.get("rows"):
            cells = [c for r in [block["header"], *block["rows"]] for c in r]
            row.update(placement="table", printed_title=block["title"].upper(),
                       table={"header": block["header"], "rows": block["rows"]},
                       plain_text=plain_text(" ".join([row["text"], *cells])))  # fmt: skip
            story.append(term_table_p(block, col_width_p(st), st, sty, pal))
        elif kind == "box" and block.get("note") == "designer":
            sig = block["signature"]
            row.update(designer_note=True, frame="double", signature=sig,
                       printed_signature="\u2014 " + sig,
                       plain_text=plain_text(f"{row['text']} {sig}"))  # fmt: skip
            story.append(NoteBox(block, st, sty, pal))
        elif kind == "box":
            row.update(frame="corner-marks", printed_title=block["title"].upper())
            story.append(CornerBox(block, st, sty, pal))
        elif kind == "paragraph" and block.get("deck"):
            if chapter_entry is None:
                raise ValueError(f"style p: deck {block['key']!r} must follow a chapter heading")
            row.update(deck=True, deck_of=chapter_entry["text"], font=DECK_P["font"],
                       size=DECK_P["size"])  # fmt: skip
            chapter_entry["deck"] = block["key"]
            p = DeckParagraph(escape(row["text"]), sty["deck"])
            p.rule_color = pal["accent"]
        elif kind == "paragraph" and block.get("note_for"):
            if prev_key != block["note_for"]:
                raise ValueError(f"style p: note {block['key']!r} must follow its paragraph")
            row.update(placement="asterisk-note", marker=NOTE_MARK_P, anchor=block["note_for"])
            p = KeyedParagraph(terms_p(block["text"], st), sty["star"], NOTE_MARK_P)
        elif kind == "paragraph":
            text = terms_p(block["text"], st)
            if block["key"] in anchors:
                row["note_marker"] = NOTE_MARK_P
                text += (f'<font name="{st.bold_font}" color="{_hex(pal["accent"])}">'
                         f"{NOTE_MARK_P}</font>")  # fmt: skip
            p = KeyedParagraph(text, sty["body" if prev == "body" else "body_first"])
        else:
            raise ValueError(f"unknown block type {kind!r}")
        if kind == "paragraph":
            p.gt_key = block["key"]
            story.append(p)
        plain = kind == "paragraph" and not block.get("deck") and not block.get("note_for")
        chapter_entry, prev, prev_key = None, "body" if plain else kind, block["key"]
    return story, truth_blocks, headings


class ReversedDoc(RulebookDoc):
    """Style "p": 165 x 235 mm pages, the title (under a letter-spaced kicker) on the first page,
    two equal columns on every page; the pages of the "dark" template are REVERSED (a dark ground
    drawn before the text, light text); after the text, on top over a hairline, the page number
    large in the OUTER corner beside the section in effect at the top of the page (letter-spaced
    capitals, after a short vertical rule), and at the foot the running header centred in
    letter-spaced capitals between two short rules."""

    KICKER = "Table practice \u00b7 Workshop notes"

    def __init__(self, filename, book, st: Style, **kw):
        self._setup(filename, book, st, **kw)
        self.colw, self.title_h = col_width_p(st), 37 * mm
        self.section: str | None = None  # the section in effect (level-2 heading, else chapter)
        self.top_section: dict[int, str | None] = {}
        self.dark: dict[int, bool] = {}
        cols = (self.colw,) * 2
        hooks = {"onPage": self.draw_ground_p, "onPageEnd": self.draw_marks_p}
        self.addPageTemplates([
            PageTemplate("first", self.page_frames(1, self.title_h, cols), **hooks),
            PageTemplate("later", self.page_frames(2, 0, cols), **hooks),
            PageTemplate("dark", self.page_frames(2, 0, cols), **hooks),
        ])  # fmt: skip

    def afterFlowable(self, flowable):
        """Only blocks and headings count; the first of a page fixes the section at its top (a
        chapter or section heading there names itself)."""
        if not getattr(flowable, "gt_key", None):
            return
        lvl = getattr(flowable, "gt_level", 0)
        if self.page not in self.top_section:
            self.top_section[self.page] = flowable.gt_text if lvl in (1, 2) else self.section
        if lvl in (1, 2):
            self.section = flowable.gt_text
        super().afterFlowable(flowable)

    def draw_ground_p(self, canv, doc):
        """Before the page's text: the dark ground of a reversed page; on the first page the
        letter-spaced kicker over the title and a rule under it."""
        st, page = self.st, doc.page
        W, H = st.page_size
        dark = self.pageTemplate.id == "dark"
        self.dark[page] = dark
        canv.saveState()
        if dark:
            canv.setFillColor(PALETTES_P["dark"]["page"])
            canv.rect(0, 0, W, H, stroke=0, fill=1)
        if page == 1:
            pal = PALETTES_P["light"]
            canv.setFillColor(pal["accent"])
            t = canv.beginText(st.left, H - st.top - 7)
            t.setFont(st.bold_font, 7.4)
            t.setCharSpace(TRACK_HEAD_P + 0.6)
            t.textOut(self.KICKER.upper())
            canv.drawText(t)
            canv.setStrokeColor(pal["ink"])
            canv.setLineWidth(1.1)
            y = H - st.top - self.title_h + 2.5 * mm
            canv.line(st.left, y, W - st.right, y)
        canv.restoreState()

    def draw_marks_p(self, canv, doc):
        """After the page's text: the header (number and section) and the centred foot."""
        st, page = self.st, doc.page
        W, H = st.page_size
        num = self.printed(page)
        odd, dark = num % 2 == 1, self.dark.get(page, False)
        pal = PALETTES_P["dark" if dark else "light"]
        section = None if page == 1 else self.top_section.get(page, self.section)
        corner = "right" if odd else "left"
        head, foot = self.book["running_header"], self.book["running_header"].upper()
        self.page_headers.append(dict(
            page=num, pdf_page_index=page - 1, number=str(num), number_corner=corner,
            section=section, section_printed_as=section.upper() if section else None,
            section_corner=corner if section else None, reversed=dark,
        ))  # fmt: skip
        self.page_footers.append(dict(page=num, pdf_page_index=page - 1, text=head, printed_as=foot,
                                      position="centre", reversed=dark))  # fmt: skip
        canv.saveState()
        y = H - st.top + 8.5 * mm
        size, font = 15.0, st.bold_font
        nw = pdfmetrics.stringWidth(str(num), font, size)
        canv.setFillColor(pal["accent"])
        canv.setFont(font, size)
        if odd:
            canv.drawRightString(W - st.right, y, str(num))
            rule_x = W - st.right - nw - 2.6 * mm
        else:
            canv.drawString(st.left, y, str(num))
            rule_x = st.left + nw + 2.6 * mm
        canv.setStrokeColor(pal["rule"])
        canv.setLineWidth(0.5)
        canv.line(st.left, y - 4.2, W - st.right, y - 4.2)
        if section:
            canv.line(rule_x, y - 1, rule_x, y + 8.5)
            caps = section.upper()
            sw = tracked_width(caps, st.body_font, 6.9, TRACK_HEAD_P)
            x = rule_x - 2.6 * mm - sw if odd else rule_x + 2.6 * mm
            canv.setFillColor(pal["muted"])
            t = canv.beginText(x, y + 0.6)
            t.setFont(st.body_font, 6.9)
            t.setCharSpace(TRACK_HEAD_P)
            t.textOut(caps)
            canv.drawText(t)
        fy = st.bottom - 10 * mm
        fw = tracked_width(foot, st.body_font, 6.8, TRACK_HEAD_P)
        x0 = (W - fw) / 2
        canv.setFillColor(pal["muted"])
        t = canv.beginText(x0, fy)
        t.setFont(st.body_font, 6.8)
        t.setCharSpace(TRACK_HEAD_P)
        t.textOut(foot)
        canv.drawText(t)
        canv.setStrokeColor(pal["accent"])
        canv.setLineWidth(0.7)
        canv.line(x0 - 11 * mm, fy + 2.3, x0 - 3 * mm, fy + 2.3)
        canv.line(x0 + fw + 2 * mm, fy + 2.3, x0 + fw + 10 * mm, fy + 2.3)
        canv.restoreState()


def build_pdf_p(book: dict, out_pdf_path, style: str = "p") -> dict:
    """Style "p" (see STYLES): laid out once; the truth adds the reversed pages, the header and
    foot of every page, the decks, the asterisk notes and the table's repeated header rows."""
    _register_dejavu_sans_cond()
    st = STYLES[style]
    styles = {tone: _styles_p(st, pal) for tone, pal in PALETTES_P.items()}
    out = Path(out_pdf_path)
    story, truth_blocks, headings = _story_p(book, st, styles)
    doc = ReversedDoc(str(out), book, st)
    title = Paragraph(escape(book["title"]), styles["light"]["title"])
    doc.build([Spacer(1, 13), title, NextPageTemplate("later"), FrameBreak()] + story)
    place_truth(doc, headings, truth_blocks)
    for b in truth_blocks:
        if b.get("placement") == "table":  # its header row printed again where it runs on
            b["repeated_header"] = [dict(c, header=b["table"]["header"]) for c in b["continues"]]
    dark = [p for p, d in sorted(doc.dark.items()) if d]
    truth = truth_head(book, style, doc, headings, truth_blocks)
    truth.update(
        page_size="165x235mm",
        column_width_pt=round(doc.colw, 2),
        body_font={"name": "DejaVu Sans Condensed", "size": st.size, "leading": st.leading},
        title_kicker={"text": ReversedDoc.KICKER, "printed_as": ReversedDoc.KICKER.upper(),
                      "not_a_block": True},
        reversed_pages=[dict(page=doc.printed(p), pdf_page_index=p - 1,
                             ground="#" + PALETTES_P["dark"]["page"].hexval()[2:]) for p in dark],
        asterisk_notes=[dict(key=b["key"], anchor=b["anchor"], marker=b["marker"], page=b["page"],
                             pdf_page_index=b["pdf_page_index"], column=b["column"])
                        for b in truth_blocks if b.get("placement") == "asterisk-note"],
        page_headers=doc.page_headers,
        page_footers=doc.page_footers,
    )  # fmt: skip
    return write_truth(out, truth)


# ---------------------------------------------------------------- style "q"
INK_Q = colors.Color(0.11, 0.12, 0.16)
ACCENT_Q = colors.Color(0.17, 0.27, 0.52)  # style "q": heading numbers, rules, the page number
HIGHLIGHT_Q = colors.Color(1.0, 0.9, 0.42)  # the marker-yellow ground behind a key sentence
SHADOW_Q = colors.Color(0.64, 0.66, 0.72)  # the drop shadow of an example box
CHECK_FILL_Q = colors.Color(0.99, 0.96, 0.84)  # the ground of a checklist box
HANG_Q = 9 * mm  # the lane at a heading's left that holds its hanging outline number
SHADOW_OFF_Q = 2.4  # how far an example box's shadow stands off to the right and below
TRACK_MAX_Q = 0.45  # most letter-spacing (points) a justified line may take before word spacing
FLOAT_GAP_Q = 6 * mm  # between a top float and the columns under it
TITLE_H_Q = 36 * mm  # the title across the first page
CHECKBOX_Q = "\u274f"  # ZapfDingbats: the empty check box before a checklist item
RUN_IN_DASH_Q = "\u2014"  # ends a run-in level-3 heading


def col_width_q(st: Style) -> float:
    """Width of each of the two equal columns of style "q"."""
    return (st.page_size[0] - st.left - st.right - st.gutter) / 2


def runs_q(text: str, st: Style, highlight: str | None = None, head=()) -> list[tuple]:
    """The runs (text, font, size, colour, ground) of a style "q" paragraph: the runs `head` first,
    icons in ZapfDingbats, the sentence `highlight` on the marker-yellow ground."""
    pieces = [(text, None)]
    if highlight:
        i = text.find(highlight)
        if i < 0:
            raise ValueError(f"style q: highlight not in its paragraph: {highlight!r}")
        j = i + len(highlight)
        pieces = [(text[:i], None), (text[i:j], HIGHLIGHT_Q), (text[j:], None)]
    runs = list(head)
    for piece, ground in pieces:
        for n, part in enumerate(ICON_RE.split(piece)):
            if n % 2:
                runs.append((ICONS[part], "ZapfDingbats", st.size, INK_Q, ground))
            elif part:
                runs.append((part, st.body_font, st.size, INK_Q, ground))
    return runs


def markup_q(text: str) -> str:
    """Paragraph markup of a style "q" box's text: icons in ZapfDingbats, NO soft hyphens."""
    return "".join(f'<font name="ZapfDingbats">{ICONS[piece]}</font>' if i % 2 else escape(piece)
                   for i, piece in enumerate(ICON_RE.split(text)))  # fmt: skip


def words_q(runs: list[tuple]) -> list[list[tuple]]:
    """The words of a run list, each a list of fragments (text, font, size, colour, ground)."""
    words, cur = [], []
    for text, *fmt in runs:
        for piece in re.split(r"(\s+)", text):
            if piece.isspace():
                if cur:
                    words.append(cur)
                cur = []
            elif piece:
                cur.append((piece, *fmt))
    return words + ([cur] if cur else [])


def frag_width(frag: tuple) -> float:
    return pdfmetrics.stringWidth(frag[0], frag[1], frag[2])


class TrackedParagraph(Flowable):
    """Style "q": a body paragraph set JUSTIFIED BY LETTER-SPACING, without any hyphenation: the
    words are broken into lines at spaces only, and every line but the last is filled out first by
    letter-spacing (PDF character spacing, at most TRACK_MAX_Q points after every glyph) and only
    then by word spacing. Fragments with a ground (a highlighted sentence) are drawn on a coloured
    band. It splits between lines (two lines at least on each side) and keeps its key across
    columns and pages."""

    def __init__(self, words, st: Style, key: str, indent: float = 0, final: bool = True, part=0,
                 marks=None):  # fmt: skip
        super().__init__()
        self.words, self.st, self.indent, self.final = words, st, indent, final
        self.gt_key, self.gt_part = key, part
        self.lead, self.space = st.leading, pdfmetrics.stringWidth(" ", st.body_font, st.size)
        self.marks = marks  # a list that collects (key, pdf page) of every highlighted line drawn
        self.lines: list[list] = []  # the words of every line

    def _break(self, width: float) -> list[list]:
        lines, line, w = [], [], self.indent
        for word in self.words:
            ww = sum(frag_width(f) for f in word)
            if line and w + self.space + ww > width:
                lines.append(line)
                line, w = [word], ww
            else:
                w += (self.space if line else 0) + ww
                line.append(word)
        return lines + [line]

    def wrap(self, availWidth, availHeight):
        self.width = availWidth
        self.lines = self._break(availWidth)
        self.height = len(self.lines) * self.lead
        return self.width, self.height

    def _part(self, lines: list, first: bool, final: bool) -> TrackedParagraph:
        words = [w for line in lines for w in line]
        return TrackedParagraph(words, self.st, self.gt_key, self.indent if first else 0, final,
                                self.gt_part + (0 if first else 1), self.marks)  # fmt: skip

    def split(self, availWidth, availHeight):
        self.wrap(availWidth, availHeight)
        n, k = len(self.lines), int((availHeight + 1e-6) // self.lead)
        if k >= n:
            return [self]
        k = min(k, n - 2)  # two lines at least go on
        if k < 2:
            return []  # two lines at least stay
        return [self._part(self.lines[:k], True, False), self._part(self.lines[k:], False,
                                                                    self.final)]  # fmt: skip

    def draw(self):
        canv, st = self.canv, self.st
        for i, line in enumerate(self.lines):
            last = self.final and i == len(self.lines) - 1
            x0 = self.indent if i == 0 else 0
            y = self.height - i * self.lead - 0.76 * self.lead
            frags = []  # (text, font, size, colour, ground) with the spaces between the words
            for n, word in enumerate(line):
                if n:
                    before, after = line[n - 1][-1][4], word[0][4]
                    frags.append((" ", st.body_font, st.size, INK_Q, before if before == after
                                  else None))  # fmt: skip
                frags.extend(word)
            natural = sum(frag_width(f) for f in frags)
            glyphs = sum(len(f[0]) for f in frags)
            spaces = len(line) - 1
            slack = max(0.0, self.width - x0 - natural)
            cs = ws = 0.0
            if not last and glyphs > 1:
                cs = min(slack / (glyphs - 1), TRACK_MAX_Q)
                ws = (slack - cs * (glyphs - 1)) / spaces if spaces else 0.0
            x, grounds = x0, []
            for f in frags:
                w = frag_width(f) + cs * len(f[0]) + (ws if f[0] == " " else 0)
                if f[4] is not None:
                    grounds.append((x, w, f[4], f[2]))
                x += w
            canv.saveState()
            for gx, gw, ground, size in grounds:
                canv.setFillColor(ground)
                canv.rect(gx - 0.6, y - 0.27 * size, gw + 1.2 - cs, 1.16 * size, stroke=0, fill=1)
            if grounds and self.marks is not None:
                self.marks.append((self.gt_key, canv.getPageNumber()))
            t = canv.beginText(x0, y)
            t.setCharSpace(cs)
            t.setWordSpace(ws)
            runs: list[list] = []  # fragments of one font, size and colour in a row: one string
            for text, *fmt, _ in frags:
                if runs and runs[-1][1:] == fmt:
                    runs[-1][0] += text
                else:
                    runs.append([text, *fmt])
            for text, font, size, colour in runs:
                t.setFont(font, size)
                t.setFillColor(colour)
                t.textOut(text)
            canv.drawText(t)
            canv.restoreState()


class OutlineHeading(Flowable):
    """Style "q": a chapter or section heading NUMBERED IN A DECIMAL OUTLINE ("5.", "5.2"), the
    number hanging in a lane at the column's left edge and the heading's text (and its turn-over
    lines) set beside it; a chapter heading over a thin rule as wide as the column."""

    def __init__(self, number: str, text: str, key: str, lvl: int, sty):
        super().__init__()
        self.lvl, self.gt_key, self.gt_part, self.gt_level, self.gt_text = lvl, key, 0, lvl, text
        self.num = Paragraph(escape(number), sty[f"h{lvl}_num"])
        self.para = Paragraph(escape(text), sty[f"h{lvl}"])
        self.spaceBefore = sty[f"h{lvl}"].spaceBefore
        self.spaceAfter = sty[f"h{lvl}"].spaceAfter
        self.rule = 5.0 if lvl == 1 else 0

    def wrap(self, availWidth, availHeight):
        _, self.th = self.para.wrap(availWidth - HANG_Q, 10000)
        self.num.wrap(HANG_Q, 1000)
        self.width, self.height = availWidth, self.th + self.rule
        return self.width, self.height

    def split(self, availWidth, availHeight):
        return []

    def draw(self):
        canv = self.canv
        self.num.drawOn(canv, 0, self.height - self.num.height)
        self.para.drawOn(canv, HANG_Q, self.height - self.th)
        if self.rule:
            canv.saveState()
            canv.setStrokeColor(ACCENT_Q)
            canv.setLineWidth(0.8)
            canv.line(0, 1.2, self.width, 1.2)
            canv.restoreState()


class ShadowBox(ColumnBox):
    """Style "q": an example box in a thin frame over a DROP SHADOW (a grey copy of the frame
    standing off to the lower right), its title led by the example's number ("Example 5.1:") in the
    accent colour, its text in a small sans set ragged right. Drawn in the columns, or across the
    page as a top float."""

    def __init__(self, block, st: Style, sty, number: str):
        super().__init__(block, st, sty)
        self.number = number
        self.printed_title = f"Example {number}: {block['title']}"
        self.spaceBefore, self.spaceAfter = 7, 10

    def _make(self, width: float) -> Table:
        sty = self.sty
        title = (f'<font color="{_hex(ACCENT_Q)}">Example {escape(self.number)}:</font> '
                 f"{escape(self.block['title'])}")  # fmt: skip
        cells = [Paragraph(title, sty["box_title"]),
                 Paragraph(markup_q(self.block["text"]), sty["box"])]  # fmt: skip
        return cell_table(cells, width, [("BACKGROUND", (0, 0), (-1, -1), colors.white),
                                         ("BOX", (0, 0), (-1, -1), 0.7, INK_Q)], (8, 8, 7, 8))  # fmt: skip

    def wrap(self, availWidth, availHeight):
        self._table = self._make(availWidth - SHADOW_OFF_Q)
        tw, th = self._table.wrap(availWidth - SHADOW_OFF_Q, availHeight)
        self.width, self.height = availWidth, th + SHADOW_OFF_Q
        return self.width, self.height

    def draw(self):
        canv = self.canv
        canv.saveState()
        canv.setFillColor(SHADOW_Q)
        canv.rect(SHADOW_OFF_Q, 0, self.width - SHADOW_OFF_Q, self.height - SHADOW_OFF_Q,
                  stroke=0, fill=1)  # fmt: skip
        canv.restoreState()
        self._table.drawOn(canv, 0, SHADOW_OFF_Q)


class ChecklistBox(ColumnBox):
    """Style "q": a CHECKLIST as wide as its column on a pale yellow ground with a turned-down
    (dog-eared) top right corner: its title in a bold sans, a line of text, then every item behind
    an empty check box (a ZapfDingbats glyph, hanging)."""

    EAR = 9.0

    def __init__(self, block, st: Style, sty):
        super().__init__(block, st, sty)
        self.spaceBefore, self.spaceAfter = 7, 10

    def _make(self, width: float) -> Table:
        sty = self.sty
        cells = [
            Paragraph(escape(self.block["title"]), sty["check_title"]),
            Paragraph(markup_q(self.block["text"]), sty["box"]),
        ]
        cells += [Paragraph(escape(item), sty["check_item"], bulletText=CHECKBOX_Q)
                  for item in self.block["checklist"]]  # fmt: skip
        return cell_table(cells, width, [("BACKGROUND", (0, 0), (-1, -1), CHECK_FILL_Q)],
                          (9, 10, 8, 9))  # fmt: skip

    def draw(self):
        self._table.drawOn(self.canv, 0, 0)
        canv, w, h, e = self.canv, self.width, self.height, self.EAR
        canv.saveState()
        path = canv.beginPath()  # cut the corner away (page colour), then draw the turned-down flap
        path.moveTo(w - e, h)
        path.lineTo(w, h)
        path.lineTo(w, h - e)
        path.close()
        canv.setFillColor(colors.white)
        canv.drawPath(path, stroke=0, fill=1)
        flap = canv.beginPath()
        flap.moveTo(w - e, h)
        flap.lineTo(w - e, h - e)
        flap.lineTo(w, h - e)
        flap.close()
        canv.setFillColor(colors.Color(0.9, 0.85, 0.64))
        canv.drawPath(flap, stroke=0, fill=1)
        canv.restoreState()


def _styles_q(st: Style) -> dict[str, ParagraphStyle]:
    sty = _styles(st)
    sans = "Helvetica"
    sty.update(
        h1=ParagraphStyle("h1_q", fontName=st.head_font, fontSize=st.h1, leading=st.h1 * 1.18,
                          textColor=INK_Q, spaceBefore=st.h1_space_before, spaceAfter=6),
        h1_num=ParagraphStyle("h1_num_q", fontName=st.head_font, fontSize=st.h1,
                              leading=st.h1 * 1.18, textColor=ACCENT_Q),
        h2=ParagraphStyle("h2_q", fontName=st.h2_font, fontSize=st.h2, leading=st.h2 * 1.22,
                          textColor=INK_Q, spaceBefore=st.h2_space_before, spaceAfter=3.5),
        h2_num=ParagraphStyle("h2_num_q", fontName=st.h2_font, fontSize=st.h2,
                              leading=st.h2 * 1.22, textColor=ACCENT_Q),
        box=ParagraphStyle("box_q", fontName=sans, fontSize=8.5, leading=11.2, textColor=INK_Q,
                           alignment=TA_LEFT),
        box_title=ParagraphStyle("box_title_q", fontName=f"{sans}-Bold", fontSize=9, leading=11.5,
                                 textColor=INK_Q, spaceAfter=3),
        check_title=ParagraphStyle("check_title_q", fontName=f"{sans}-Bold", fontSize=9,
                                   leading=11.5, textColor=ACCENT_Q, spaceAfter=2),
        check_item=ParagraphStyle("check_item_q", fontName=sans, fontSize=8.5, leading=11,
                                  textColor=INK_Q, alignment=TA_LEFT, leftIndent=13,
                                  bulletIndent=0, bulletFontName="ZapfDingbats",
                                  bulletFontSize=8.5, bulletColor=ACCENT_Q, spaceBefore=2.5),
        title=title_style("title_q", st.head_font, st, 1.12, textColor=INK_Q),
    )  # fmt: skip
    return sty


def _story_q(book: dict, st: Style, sty, marks: list) -> tuple[list, list, list, list]:
    """The flowables of a style "q" book: (story, truth blocks, headings, top floats). A level-3
    heading runs into the paragraph after it; a box marked `place: top` is left out of the story
    (a top float: key, the key of the block before it, its ShadowBox)."""
    story, truth_blocks, headings, floats, path = [], [], [], [], []
    numbers = chapter_numbers(book)
    outline = [0, 0, 0]  # chapter, section, subsection
    examples = 0  # examples so far in the chapter
    prev, need, run_in, prev_key = None, None, None, None
    room = {1: st.h1_space_before + 2 * st.h1 * 1.18 + 11, 2: st.h2_space_before + 2 * st.h2 * 1.22}
    blocks = book["blocks"]
    for n, block in enumerate(blocks):
        kind = block["type"]
        if kind == "heading":
            lvl, path, entry = new_heading(block, path, headings)
            text = block["text"]
            if lvl == 1:
                outline, examples = [numbers[text], 0, 0], 0
            else:
                outline = outline[: lvl - 1] + [outline[lvl - 1] + 1] + [0] * (3 - lvl)
            number = ".".join(str(x) for x in outline[:lvl]) + ("." if lvl == 1 else "")
            entry["number"] = number
            if lvl == 3:
                nxt = blocks[n + 1] if n + 1 < len(blocks) else {}
                if nxt.get("type") != "paragraph":
                    raise ValueError(f"style q: level-3 heading {text!r} must be followed by a "
                                     "paragraph")  # fmt: skip
                entry.update(run_in=True, printed_as=f"{number} {text} {RUN_IN_DASH_Q}")
                run_in = entry
                prev = "heading"
                continue
            entry.update(printed_as=f"{number} {text}", hanging_number=True)
            if lvl == 1:
                entry["rule_below"] = True
            if prev == "heading" and need is not None:
                need.need += room[lvl]
            else:
                need = NeedSpace(room[lvl] + 3 * st.leading)
                story.append(need)
            story.append(OutlineHeading(number, text, entry["id"], lvl, sty))
            prev, prev_key = "heading", None
            continue
        row = truth_row(block, path)
        truth_blocks.append(row)
        if kind == "paragraph":
            head = ()
            if run_in is not None:
                run_in["id"] = block["key"]  # the heading sits where its paragraph starts
                row["run_in_heading"] = run_in["printed_as"]
                number, title = run_in["number"], f"{run_in['text']} {RUN_IN_DASH_Q} "
                head = [(number + " ", st.h2_font, st.size - 0.6, ACCENT_Q, None),
                        (title, st.h2_font, st.size - 0.6, INK_Q, None)]  # fmt: skip
                run_in = None
            if block.get("highlight"):
                row["highlight"] = {"text": block["highlight"], "ground": _hex(HIGHLIGHT_Q)}
            indent = st.first_indent if prev == "paragraph" else 0
            words = words_q(runs_q(block["text"], st, block.get("highlight"), head))
            story.append(TrackedParagraph(words, st, block["key"], indent, marks=marks))
            prev = "paragraph"
        elif kind == "box" and block.get("checklist"):
            items = block["checklist"]
            row.update(checklist=items, printed_title=block["title"], frame="dog-ear",
                       checkbox={"char": CHECKBOX_Q, "codepoint": f"U+{ord(CHECKBOX_Q):04X}",
                                 "font": "ZapfDingbats"},
                       plain_text=plain_text(" ".join([row["text"], *items])))  # fmt: skip
            story.append(ChecklistBox(block, st, sty))
            prev = "box"
        elif kind == "box":
            examples += 1
            box = ShadowBox(block, st, sty, f"{outline[0]}.{examples}")
            row.update(example_number=box.number, printed_title=box.printed_title,
                       frame="drop-shadow")  # fmt: skip
            if block.get("place") == "top":
                if prev_key is None:
                    raise ValueError(f"style q: top float {block['key']!r} must follow a block")
                row.update(placement="top-float", anchor=prev_key)
                floats.append((block["key"], prev_key, box))
            else:
                story.append(box)
                prev = "box"
        else:
            raise ValueError(f"unknown block type {kind!r}")
        prev_key = block["key"]
    return story, truth_blocks, headings, floats


class OutlineDoc(RulebookDoc):
    """Style "q": 180 x 240 mm pages, the title across the first page, two equal columns with a
    thin rule in the middle of the gutter on every page; a page that carries a TOP FLOAT (an example
    box across both columns, drawn before the text) has its columns shortened under it, the rule
    starting under the float; after the text, running heads that differ on left and right pages
    (the page number in the outer corner beside the book's title on even pages, beside the numbered
    chapter in effect at the top of the page on odd ones, over a hairline), none on the first page,
    which has a drop folio centred at its foot instead."""

    def __init__(self, filename, book, st: Style, floats: dict[int, ShadowBox], **kw):
        self._setup(filename, book, st, **kw)
        self.colw, self.text_w = col_width_q(st), st.page_size[0] - st.left - st.right
        self.numbers = chapter_numbers(book)
        self.floats: dict[int, tuple[ShadowBox, float]] = {}
        for page, box in floats.items():
            _, h = box.wrap(self.text_w, st.page_size[1])
            self.floats[page] = (box, h)
        self.float_drawn: dict[int, dict] = {}
        self.column_rules: list[dict] = []
        hooks = {"onPage": self.draw_ground_q, "onPageEnd": self.draw_heads_q}
        cols = (self.colw,) * 2
        templates = [
            PageTemplate("first", self.page_frames(1, TITLE_H_Q, cols), **hooks),
            PageTemplate("later", self.page_frames(2, 0, cols), **hooks),
        ]
        for page, (_, h) in sorted(self.floats.items()):
            fh = st.page_size[1] - st.top - st.bottom - h - FLOAT_GAP_Q
            frames = column_frames(st.left, st.bottom, cols, st.gutter, fh)
            templates.append(PageTemplate(f"float{page}", frames, **hooks))
        self.addPageTemplates(templates)

    def cycle(self) -> list[str] | str:
        """The templates of PDF pages 2, 3, ...: "later", but "floatN" on the page N of a float."""
        if not self.floats:
            return "later"
        pages = [
            f"float{p}" if p in self.floats else "later" for p in range(2, max(self.floats) + 1)
        ]
        return pages + ["*", "later"]

    def afterFlowable(self, flowable):
        """Only blocks and headings count for the chapter in effect at the top of a page."""
        if getattr(flowable, "gt_key", None):
            super().afterFlowable(flowable)

    def column_top(self, page: int) -> float:
        st = self.st
        top = st.page_size[1] - st.top
        if page == 1:
            return top - TITLE_H_Q
        if page in self.floats:
            return top - self.floats[page][1] - FLOAT_GAP_Q
        return top

    def draw_ground_q(self, canv, doc):
        """Before the page's text: the title rule of the first page, a top float, the column rule."""
        st, page = self.st, doc.page
        W, H = st.page_size
        canv.saveState()
        if page == 1:
            y = H - st.top - TITLE_H_Q + 4 * mm
            canv.setFillColor(ACCENT_Q)
            canv.rect(st.left, y, 24 * mm, 2.6, stroke=0, fill=1)
            canv.setStrokeColor(INK_Q)
            canv.setLineWidth(0.5)
            canv.line(st.left + 24 * mm, y + 1.3, W - st.right, y + 1.3)
        if page in self.floats:
            box, h = self.floats[page]
            box.drawOn(canv, st.left, H - st.top - h)
            self.float_drawn[page] = {
                "height_pt": round(h, 2),
                "bbox_pt": [
                    round(st.left, 2),
                    round(st.top, 2),
                    round(W - st.right, 2),
                    round(st.top + h, 2),
                ],
            }
        x, top = st.left + self.colw + st.gutter / 2, self.column_top(page) - 1
        canv.setStrokeColor(colors.Color(0.6, 0.62, 0.68))
        canv.setLineWidth(0.4)
        canv.line(x, st.bottom, x, top)
        self.column_rules.append(dict(page=self.printed(page), pdf_page_index=page - 1,
                                      x_pt=round(x, 2), top_pt=round(H - top, 2),
                                      bottom_pt=round(H - st.bottom, 2),
                                      below_float=page in self.floats))  # fmt: skip
        canv.restoreState()

    def draw_heads_q(self, canv, doc):
        """After the page's text: the running head (none on the first page: a drop folio there)."""
        st, page = self.st, doc.page
        W, H = st.page_size
        num = self.printed(page)
        canv.saveState()
        if page == 1:
            y = st.bottom - 11 * mm
            canv.setFillColor(INK_Q)
            canv.setFont("Helvetica", 8.5)
            canv.drawCentredString(W / 2, y, str(num))
            self.page_footers.append(dict(page=num, pdf_page_index=0, number=str(num),
                                          position="centre", drop_folio=True))  # fmt: skip
            canv.restoreState()
            return
        y = H - st.top + 8 * mm
        odd = num % 2 == 1
        nw = pdfmetrics.stringWidth(str(num), "Helvetica-Bold", 9.5)
        canv.setFillColor(ACCENT_Q)
        canv.setFont("Helvetica-Bold", 9.5)
        if odd:
            chapter = self.chapter_at(page)
            text = f"{self.numbers[chapter]}. {chapter}" if chapter else ""
            canv.drawRightString(W - st.right, y, str(num))
            canv.setFillColor(INK_Q)
            canv.setFont("Helvetica", 7.8)
            canv.drawRightString(W - st.right - nw - 5 * mm, y + 0.5, text)
            entry = dict(side="recto", number_corner="right", text=chapter, printed_as=text,
                         kind="chapter", text_position="right")  # fmt: skip
        else:
            canv.drawString(st.left, y, str(num))
            canv.setFillColor(INK_Q)
            canv.setFont("Times-Italic", 9)
            canv.drawString(st.left + nw + 5 * mm, y + 0.5, self.book["running_header"])
            entry = dict(side="verso", number_corner="left", text=self.book["running_header"],
                         printed_as=self.book["running_header"], kind="book", text_position="left")  # fmt: skip
        canv.setStrokeColor(colors.Color(0.55, 0.56, 0.6))
        canv.setLineWidth(0.35)
        canv.line(st.left, y - 4, W - st.right, y - 4)
        self.page_headers.append(dict(page=num, pdf_page_index=page - 1, number=str(num), **entry))
        canv.restoreState()


def _layout_q(book: dict, st: Style, sty, out, float_pages: dict[str, int]):
    """One layout of a style "q" book into `out` (a file name or a binary file), with the top
    floats on the PDF pages `float_pages` gives (by key)."""
    marks: list = []
    story, truth_blocks, headings, floats = _story_q(book, st, sty, marks)
    on_page = {float_pages[key]: box for key, _, box in floats if key in float_pages}
    doc = OutlineDoc(out, book, st, on_page)
    title = Paragraph(escape(book["title"]), sty["title"])
    doc.build([Spacer(1, 4), title, NextPageTemplate(doc.cycle()), FrameBreak()] + story)
    return doc, truth_blocks, headings, floats, marks


def build_pdf_q(book: dict, out_pdf_path, style: str = "q") -> dict:
    """Style "q" (see STYLES): laid out until every top float stands at the top of the page after
    the one where the block before it ends (a later float moves one page on if that page is
    taken), then once more into the file; the truth adds the outline numbers, the run-in headings,
    the highlights, the example numbers, the checklists, the floats, the column rules and the
    running heads."""
    st = STYLES[style]
    sty = _styles_q(st)
    out = Path(out_pdf_path)
    float_pages: dict[str, int] = {}
    for _ in range(10):
        doc, _, _, floats, _ = _layout_q(book, st, sty, io.BytesIO(), float_pages)
        want: dict[str, int] = {}
        for key, anchor, _ in floats:
            page = max(pg for k, _, pg, _ in doc.placed if k == anchor) + 1
            while page in want.values():
                page += 1
            want[key] = page
        if want == float_pages:
            break
        float_pages = want
    else:
        raise RuntimeError("style q: the top floats did not settle")
    doc, truth_blocks, headings, floats, marks = _layout_q(book, st, sty, str(out), float_pages)
    if set(doc.float_drawn) != set(float_pages.values()):
        raise ValueError("style q: a top float would stand after the book's last page")
    anchors = {key: anchor for key, anchor, _ in floats}
    for b in truth_blocks:
        if b.get("placement") == "top-float":
            page = float_pages[b["key"]]
            b.update(page=doc.printed(page), pdf_page_index=page - 1, column=0, continues=[],
                     split=None, full_width=True)  # fmt: skip
    place_truth(doc, headings, truth_blocks)
    lit: dict[str, list[int]] = {}
    for key, page in marks:
        if doc.printed(page) not in lit.setdefault(key, []):
            lit[key].append(doc.printed(page))
    top_floats = []
    for key, page in float_pages.items():
        anchor_end = max(pg for k, _, pg, _ in doc.placed if k == anchors[key])
        top_floats.append(dict(key=key, anchor=anchors[key], page=doc.printed(page),
                               pdf_page_index=page - 1, anchor_ends_on=doc.printed(anchor_end),
                               **doc.float_drawn[page]))  # fmt: skip
    truth = truth_head(book, style, doc, headings, truth_blocks)
    truth.update(
        page_size="180x240mm",
        column_width_pt=round(doc.colw, 2),
        body_font={"name": st.body_font, "size": st.size, "leading": st.leading},
        justification={"method": "letter-spacing", "hyphenation": False,
                       "max_char_space_pt": TRACK_MAX_Q, "then": "word-spacing"},
        heading_numbers={"scheme": "decimal outline", "first_chapter": int(book.get(
            "first_chapter", 1)), "hanging_lane_pt": round(HANG_Q, 2), "run_in_level": 3},
        highlights=[dict(key=b["key"], text=b["highlight"]["text"], ground=b["highlight"]["ground"],
                         pages=lit.get(b["key"], [])) for b in truth_blocks if b.get("highlight")],
        top_floats=top_floats,
        column_rules=doc.column_rules,
        page_headers=doc.page_headers,
        page_footers=doc.page_footers,
    )  # fmt: skip
    return write_truth(out, truth)


# ---------------------------------------------------------------- style "r"
ACCENT_R = colors.Color(0.12, 0.33, 0.47)  # style "r": the top strip, the pills, chapter headings
INK_R = colors.Color(0.1, 0.1, 0.12)
RED_R = colors.Color(0.78, 0.1, 0.1)  # the crosses and the frame of a common-mistakes box
PALE_R = colors.Color(0.93, 0.955, 0.97)  # the ground of an example box and a speech bubble
MISTAKE_FILL_R = colors.Color(1.0, 0.955, 0.945)
STRIP_R = 13 * mm  # style "r": height of the coloured strip across the top of every page
TITLE_H_R = 34 * mm  # the title across the first page
OUTDENT_R = 11.0  # the hanging first line: the other lines of a paragraph stand in this far
ICON_R = 3.1 * mm  # radius of the disc of a margin pictogram
TAIL_R = 8.0  # height of a speech bubble's tail
NBSP = "\xa0"
CROSS_R = "\u2718"  # ZapfDingbats: the red cross before a common mistake
# A paragraph's `icon` -> (ZapfDingbats glyph, colour of its disc) of the margin pictogram.
ICONS_R = {
    "tip": ("\u261e", colors.Color(0.12, 0.33, 0.47)),
    "note": ("\u270e", colors.Color(0.2, 0.45, 0.25)),
    "warning": ("\u2762", colors.Color(0.78, 0.1, 0.1)),
    "talk": ("\u275d", colors.Color(0.55, 0.3, 0.55)),
}


def col_width_r(st: Style) -> float:
    """Width of each of the two equal columns of style "r"."""
    return (st.page_size[0] - st.left - st.right - st.gutter) / 2


def french_r(text: str) -> str:
    """Style "r" prints FRENCH-STYLE TYPOGRAPHY: every pair of straight double quotation marks as
    guillemets with a no-break space inside them, and a no-break space before ":", ";", "?", "!"."""
    text = re.sub(r'"([^"]*)"', lambda m: f"\xab{NBSP}{m.group(1).strip()}{NBSP}\xbb", text)
    return re.sub(r"(?<=[^\s\xa0])([:;?!])", NBSP + r"\1", text)


def printed_r(text: str) -> str:
    """A text of style "r" as printed: French typography, *terms* in capitals (small capitals),
    no asterisks, no icon tokens, runs of ordinary white space as one space (no-break spaces kept)."""
    text = KEYWORD_RE.sub(lambda m: m.group(1).upper(), french_r(text))
    return re.sub(r"[ \t\r\n]+", " ", ICON_RE.sub("", text)).strip()


def markup_r(text: str, size: float) -> str:
    """Paragraph markup of a style "r" text: French typography, *terms* in small capitals of the
    given size, icons in ZapfDingbats, soft hyphens."""
    out = []
    for i, piece in enumerate(KEYWORD_RE.split(french_r(text))):
        if i % 2:
            out.append(small_caps(piece, size, 0.8))
            continue
        for n, part in enumerate(ICON_RE.split(piece)):
            if n % 2:
                out.append(f'<font name="ZapfDingbats">{ICONS[part]}</font>')
            else:
                out.append(escape(hyphenate(part)))
    return "".join(out)


def pill(canv, x: float, y: float, w: float, h: float, fill) -> None:
    """A filled rounded rectangle with fully round ends (a pill), lower left corner at (x, y)."""
    canv.saveState()
    canv.setFillColor(fill)
    canv.roundRect(x, y, w, h, h / 2, stroke=0, fill=1)
    canv.restoreState()


class IconParagraph(KeyedParagraph):
    """Style "r": a body paragraph with a HANGING FIRST LINE; with `icon` its first part draws a
    PICTOGRAM (a coloured disc with a white ZapfDingbats glyph) in the page margin beside its first
    line: in the left margin when it stands in the left column, in the right margin otherwise."""

    icon: str | None = None
    doc = None

    def split(self, availWidth, availHeight):
        parts = super().split(availWidth, availHeight)
        for p in parts:
            p.icon, p.doc = self.icon, self.doc
        return parts

    def draw(self):
        if self.icon and self.gt_part == 0:
            doc, st = self.doc, self.doc.st
            column = frame_column(doc.frame.id)
            glyph, fill = ICONS_R[self.icon]
            size = self.style.fontSize
            cx = -st.left / 2 if column == 1 else self.width + st.right / 2
            cy = self.height - size * 0.36
            canv = self.canv
            canv.saveState()
            canv.setFillColor(fill)
            canv.circle(cx, cy, ICON_R, stroke=0, fill=1)
            canv.setFillColor(colors.white)
            canv.setFont("ZapfDingbats", 9.5)
            gw = pdfmetrics.stringWidth(glyph, "ZapfDingbats", 9.5)
            canv.drawString(cx - gw / 2, cy - 3.3, glyph)
            canv.restoreState()
            x0, y0 = canv.absolutePosition(cx, cy)
            H = st.page_size[1]
            doc.icons.append(dict(key=self.gt_key, name=self.icon, page=doc.printed(doc.page),
                                  pdf_page_index=doc.page - 1, column=column,
                                  side="left margin" if column == 1 else "right margin",
                                  char=glyph, codepoint=f"U+{ord(glyph):04X}", font="ZapfDingbats",
                                  disc_colour=_hex(fill),
                                  bbox_pt=[round(x0 - ICON_R, 2), round(H - y0 - ICON_R, 2),
                                           round(x0 + ICON_R, 2), round(H - y0 + ICON_R, 2)]))  # fmt: skip
        super().draw()


class DottedHeading(Flowable):
    """Style "r": a chapter heading in a large coloured sans over a DOTTED rule as wide as the
    column."""

    def __init__(self, text: str, key: str, sty):
        super().__init__()
        self.gt_key, self.gt_part, self.gt_level, self.gt_text = key, 0, 1, text
        self.para = Paragraph(escape(french_r(text)), sty["h1"])
        self.spaceBefore, self.spaceAfter = sty["h1"].spaceBefore, sty["h1"].spaceAfter

    def wrap(self, availWidth, availHeight):
        _, h = self.para.wrap(availWidth, 10000)
        self.width, self.height = availWidth, h + 6
        return self.width, self.height

    def split(self, availWidth, availHeight):
        return []

    def draw(self):
        canv = self.canv
        self.para.drawOn(canv, 0, 6)
        canv.saveState()
        canv.setStrokeColor(ACCENT_R)
        canv.setLineWidth(1.3)
        canv.setLineCap(1)
        canv.setDash(0.1, 3.2)
        canv.line(0.7, 1.5, self.width, 1.5)
        canv.restoreState()


class PillHeading(Flowable):
    """Style "r": a section heading REVERSED OUT in white bold sans on a rounded coloured PILL as
    wide as its text (a long heading turns over inside a pill as wide as the column)."""

    PAD_X, PAD_Y = 7.0, 3.2

    def __init__(self, text: str, key: str, sty):
        super().__init__()
        self.gt_key, self.gt_part, self.gt_level, self.gt_text = key, 0, 2, text
        self.sty = sty["h2"]
        self.printed = french_r(text)
        self.para = Paragraph(escape(self.printed), self.sty)
        self.spaceBefore, self.spaceAfter = self.sty.spaceBefore, self.sty.spaceAfter

    def wrap(self, availWidth, availHeight):
        natural = pdfmetrics.stringWidth(self.printed, self.sty.fontName, self.sty.fontSize)
        inner = min(natural + 0.5, availWidth - 2 * self.PAD_X)
        _, h = self.para.wrap(inner, 10000)
        self.pw, self.ph = inner + 2 * self.PAD_X, h + 2 * self.PAD_Y
        self.width, self.height = availWidth, self.ph
        return self.width, self.height

    def split(self, availWidth, availHeight):
        return []

    def draw(self):
        canv = self.canv
        canv.saveState()
        canv.setFillColor(ACCENT_R)
        canv.roundRect(0, 0, self.pw, self.ph, min(self.ph / 2, 9), stroke=0, fill=1)
        canv.restoreState()
        self.para.drawOn(canv, self.PAD_X, self.PAD_Y - 0.6)


class BoxR(ColumnBox):
    """Style "r": a box as wide as its column. An EXAMPLE box on a pale rounded ground with the
    label "EXAMPLE" white on a pill over its title; a COMMON MISTAKES box in a red rounded frame on a
    pale pink ground, every item behind a red cross; a SPEECH BUBBLE (`bubble: true`) with its tail
    at the lower left, the speaker (its title) in bold over the text in italics."""

    LABEL = "EXAMPLE"

    def __init__(self, block, st: Style, sty):
        super().__init__(block, st, sty)
        self.kind = ("mistakes" if block.get("mistakes") else
                     "speech-bubble" if block.get("bubble") else "example")  # fmt: skip
        self.spaceBefore, self.spaceAfter = 6, 9

    def _cells(self, width: float) -> list:
        sty, block = self.sty, self.block
        if self.kind == "mistakes":
            cells = [Paragraph(escape(french_r(block["title"])), sty["mistake_title"]),
                     Paragraph(markup_r(block["text"], 8.8), sty["box"])]  # fmt: skip
            cells += [Paragraph(markup_r(item, 8.8), sty["mistake_item"], bulletText=CROSS_R)
                      for item in block["mistakes"]]  # fmt: skip
            return cells
        if self.kind == "speech-bubble":
            return [Paragraph(escape(french_r(block["title"])), sty["bubble_title"]),
                    Paragraph(markup_r(block["text"], 9.2), sty["bubble"])]  # fmt: skip
        return [Spacer(1, 13), Paragraph(escape(french_r(block["title"])), sty["box_title"]),
                Paragraph(markup_r(block["text"], 8.8), sty["box"])]  # fmt: skip

    def wrap(self, availWidth, availHeight):
        self._tail = TAIL_R if self.kind == "speech-bubble" else 0
        self._table = cell_table(self._cells(availWidth), availWidth, [], (9, 9, 8, 9))
        _, th = self._table.wrap(availWidth, availHeight)
        self.width, self.height = availWidth, th + self._tail
        return self.width, self.height

    def draw(self):
        canv, w, t = self.canv, self.width, self._tail
        h = self.height - t
        canv.saveState()
        if self.kind == "mistakes":
            canv.setFillColor(MISTAKE_FILL_R)
            canv.setStrokeColor(RED_R)
            canv.setLineWidth(1.1)
            canv.roundRect(0.55, 0.55, w - 1.1, h - 1.1, 6, stroke=1, fill=1)
        elif self.kind == "speech-bubble":
            canv.setFillColor(PALE_R)
            canv.setStrokeColor(ACCENT_R)
            canv.setLineWidth(0.8)
            canv.roundRect(0.4, t + 0.4, w - 0.8, h - 0.8, 9, stroke=1, fill=1)
            tail = canv.beginPath()
            tail.moveTo(16, t + 0.8)
            tail.lineTo(9, 0)
            tail.lineTo(30, t + 0.8)
            canv.drawPath(tail, stroke=0, fill=1)
            canv.line(16, t + 0.4, 9, 0)
            canv.line(9, 0, 30, t + 0.4)
        else:
            canv.setFillColor(PALE_R)
            canv.roundRect(0, 0, w, h, 6, stroke=0, fill=1)
            lw = pdfmetrics.stringWidth(self.LABEL, "Helvetica-Bold", 7) + 12
            pill(canv, 9, h - 8 - 11, lw, 11, ACCENT_R)
            canv.setFillColor(colors.white)
            canv.setFont("Helvetica-Bold", 7)
            canv.drawString(15, h - 8 - 7.8, self.LABEL)
        canv.restoreState()
        self._table.drawOn(canv, 0, t)


def _styles_r(st: Style) -> dict[str, ParagraphStyle]:
    sty = _styles(st)
    sans = "Helvetica"
    body = ParagraphStyle("body_r", parent=sty["body"], textColor=INK_R, firstLineIndent=-OUTDENT_R,
                          leftIndent=OUTDENT_R, spaceAfter=0)  # fmt: skip
    sty.update(
        body=body,
        h1=ParagraphStyle("h1_r", fontName=st.head_font, fontSize=st.h1, leading=st.h1 * 1.15,
                          textColor=ACCENT_R, spaceBefore=st.h1_space_before, spaceAfter=7),
        h2=ParagraphStyle("h2_r", fontName=st.h2_font, fontSize=st.h2, leading=st.h2 * 1.2,
                          textColor=colors.white, spaceBefore=st.h2_space_before, spaceAfter=5),
        h3=ParagraphStyle("h3_r", fontName="Times-BoldItalic", fontSize=10.6, leading=13,
                          textColor=ACCENT_R, spaceBefore=6, spaceAfter=1.5),
        box=ParagraphStyle("box_r", fontName=sans, fontSize=8.8, leading=11.6, textColor=INK_R,
                           alignment=TA_LEFT, embeddedHyphenation=1, uriWasteReduce=0),
        box_title=ParagraphStyle("box_title_r", fontName=f"{sans}-Bold", fontSize=9.4,
                                 leading=12, textColor=ACCENT_R, spaceAfter=3),
        mistake_title=ParagraphStyle("mistake_title_r", fontName=f"{sans}-Bold", fontSize=9.4,
                                     leading=12, textColor=RED_R, spaceAfter=3),
        mistake_item=ParagraphStyle("mistake_item_r", fontName=sans, fontSize=8.8, leading=11.4,
                                    textColor=INK_R, alignment=TA_LEFT, leftIndent=13,
                                    bulletIndent=0, bulletFontName="ZapfDingbats",
                                    bulletFontSize=8.8, bulletColor=RED_R, spaceBefore=3),
        bubble_title=ParagraphStyle("bubble_title_r", fontName=f"{sans}-Bold", fontSize=8.8,
                                    leading=11.5, textColor=ACCENT_R, spaceAfter=2),
        bubble=ParagraphStyle("bubble_r", fontName="Times-Italic", fontSize=9.6, leading=12.4,
                              textColor=INK_R, alignment=TA_LEFT, embeddedHyphenation=1,
                              uriWasteReduce=0),
        title=title_style("title_r", "Times-Bold", st, 1.12, textColor=ACCENT_R),
    )  # fmt: skip
    return sty


def _story_r(book: dict, st: Style, sty, doc) -> tuple[list, list, list]:
    """The flowables of a style "r" book: (story, truth blocks, headings). A heading is not left at
    a column's foot without three lines of text under it."""
    story, truth_blocks, headings, path = [], [], [], []
    need, prev = None, None
    room = {1: st.h1_space_before + 2 * st.h1 * 1.15 + 13, 2: st.h2_space_before + st.h2 * 1.2 + 12,
            3: 6 + 13 + 2}  # fmt: skip
    for block in book["blocks"]:
        kind = block["type"]
        if kind == "heading":
            lvl, path, entry = new_heading(block, path, headings)
            text = block["text"]
            if french_r(text) != text:
                entry["printed_as"] = french_r(text)
            if lvl == 1:
                entry["rule_below"] = "dotted"
                h = DottedHeading(text, entry["id"], sty)
            elif lvl == 2:
                entry.update(pill={"fill": _hex(ACCENT_R), "text_colour": "#ffffff"},
                             reversed=True)  # fmt: skip
                h = PillHeading(text, entry["id"], sty)
            else:
                entry["bold_italic"] = True
                h = KeyedParagraph(escape(french_r(text)), sty["h3"])
                h.gt_key, h.gt_level, h.gt_text = entry["id"], lvl, text
            if prev == "heading" and need is not None:
                need.need += room[lvl]
            else:
                need = NeedSpace(room[lvl] + 3 * st.leading)
                story.append(need)
            story.append(h)
            prev = "heading"
            continue
        words = KEYWORD_RE.findall(block["text"])
        row = truth_row(dict(block, text=KEYWORD_RE.sub(r"\1", block["text"])), path)
        if words:
            row["keywords"] = words
        printed = printed_r(block["text"])
        if printed != row["plain_text"]:
            row["printed_text"] = printed
        truth_blocks.append(row)
        if kind == "paragraph":
            p = IconParagraph(markup_r(block["text"], st.size), sty["body"])
            p.gt_key, p.doc = block["key"], doc
            if block.get("icon"):
                glyph, fill = ICONS_R[block["icon"]]
                p.icon = block["icon"]
                row["margin_icon"] = dict(name=block["icon"], char=glyph,
                                          codepoint=f"U+{ord(glyph):04X}", font="ZapfDingbats",
                                          disc_colour=_hex(fill))  # fmt: skip
            story.append(p)
        elif kind == "box":
            box = BoxR(block, st, sty)
            row["box_kind"] = box.kind
            if box.kind == "mistakes":
                items = block["mistakes"]
                row.update(mistakes=items, printed_title=printed_r(block["title"]),
                           frame="red-rounded",
                           mark={"char": CROSS_R, "codepoint": f"U+{ord(CROSS_R):04X}",
                                 "font": "ZapfDingbats", "colour": _hex(RED_R)},
                           plain_text=plain_text(" ".join([row["text"], *items])))  # fmt: skip
                printed = " ".join([printed, *(printed_r(i) for i in items)])
                if printed != row["plain_text"]:
                    row["printed_text"] = printed
            elif box.kind == "speech-bubble":
                row.update(speaker=block["title"], printed_title=printed_r(block["title"]),
                           frame="speech-bubble", tail="bottom-left")  # fmt: skip
            else:
                row.update(label=BoxR.LABEL, printed_title=printed_r(block["title"]),
                           frame="rounded")  # fmt: skip
            story.append(box)
        else:
            raise ValueError(f"unknown block type {kind!r}")
        prev = kind
    return story, truth_blocks, headings


class StripDoc(RulebookDoc):
    """Style "r": 200 x 250 mm pages, the title across the first page, then two equal columns with
    wide side margins (they hold the margin pictograms); before the text a coloured STRIP across the
    top of every page, bleeding off the top and both sides, with the running header and the chapter
    in effect at the top of the page reversed out in white (the running header on the inside: left
    on odd pages, right on even ones; the chapter on the outside); after the text the page number in
    white on a PILL in the bottom outer corner."""

    def __init__(self, filename, book, st: Style, known: dict[int, str] | None = None, **kw):
        self._setup(filename, book, st, **kw)
        self.colw = col_width_r(st)
        self.known = known or {}  # pdf page -> chapter at its top, from an earlier layout
        self.icons: list[dict] = []
        cols = (self.colw,) * 2
        hooks = {"onPage": self.draw_strip_r, "onPageEnd": self.draw_folio_r}
        self.addPageTemplates([
            PageTemplate("first", self.page_frames(1, TITLE_H_R, cols), **hooks),
            PageTemplate("later", self.page_frames(2, 0, cols), **hooks),
        ])  # fmt: skip

    def afterFlowable(self, flowable):
        """Only blocks and headings count for the chapter in effect at the top of a page."""
        if getattr(flowable, "gt_key", None):
            super().afterFlowable(flowable)

    def draw_strip_r(self, canv, doc):
        st, page = self.st, doc.page
        W, H = st.page_size
        num = self.printed(page)
        chapter = self.known.get(page) or self.chapter_at(page) or ""
        book_side, chapter_side = ("left", "right") if num % 2 else ("right", "left")
        canv.saveState()
        canv.setFillColor(ACCENT_R)
        canv.rect(-2, H - STRIP_R, W + 4, STRIP_R + 2, stroke=0, fill=1)
        canv.setFillColor(colors.white)
        y = H - STRIP_R + 4.6 * mm
        for text, side, font in ((self.book["running_header"], book_side, "Helvetica-Bold"),
                                 (french_r(chapter), chapter_side, "Helvetica-Oblique")):  # fmt: skip
            canv.setFont(font, 8.5)
            if side == "left":
                canv.drawString(st.left, y, text)
            else:
                canv.drawRightString(W - st.right, y, text)
        canv.restoreState()
        self.page_headers.append(dict(page=num, pdf_page_index=page - 1, strip=True,
                                      reversed=True, running_header=self.book["running_header"],
                                      running_header_side=book_side, chapter=chapter,
                                      chapter_printed_as=french_r(chapter),
                                      chapter_side=chapter_side))  # fmt: skip

    def draw_folio_r(self, canv, doc):
        st, page = self.st, doc.page
        W, H = st.page_size
        num = self.printed(page)
        text = str(num)
        tw = pdfmetrics.stringWidth(text, "Helvetica-Bold", 9)
        pw, ph = tw + 14, 14.0
        corner = "right" if num % 2 else "left"
        x = W - st.right - pw if corner == "right" else st.left
        y = st.bottom - 12 * mm
        pill(canv, x, y, pw, ph, ACCENT_R)
        canv.saveState()
        canv.setFillColor(colors.white)
        canv.setFont("Helvetica-Bold", 9)
        canv.drawCentredString(x + pw / 2, y + 4.3, text)
        canv.restoreState()
        self.page_footers.append(dict(page=num, pdf_page_index=page - 1, number=text,
                                      corner=corner, shape="pill"))  # fmt: skip


def build_pdf_r(book: dict, out_pdf_path, style: str = "r") -> dict:
    """Style "r" (see STYLES): one layout; the truth adds the printed forms (French typography,
    small capitals), the pills, the margin pictograms, the boxes' kinds and the page furniture."""
    st = STYLES[style]
    sty = _styles_r(st)
    out = Path(out_pdf_path)
    known: dict[int, str] = {}
    for target in (io.BytesIO(), str(out)):  # the first layout finds the chapter atop each page
        doc = StripDoc(target, book, st, known)
        story, truth_blocks, headings = _story_r(book, st, sty, doc)
        title = Paragraph(escape(french_r(book["title"])), sty["title"])
        doc.build([Spacer(1, 3), title, NextPageTemplate("later"), FrameBreak()] + story)
        known = {page: doc.chapter_at(page) for page in range(1, doc.page + 1)}
    place_truth(doc, headings, truth_blocks)
    truth = truth_head(book, style, doc, headings, truth_blocks)
    truth.update(
        title_printed_as=french_r(book["title"]),
        page_size="200x250mm",
        column_width_pt=round(doc.colw, 2),
        margins_pt={"left": round(st.left, 2), "right": round(st.right, 2)},
        body_font={"name": st.body_font, "size": st.size, "leading": st.leading},
        paragraph_indent={"kind": "hanging-first-line", "outdent_pt": OUTDENT_R, "gap_pt": 0},
        typography={"convention": "french", "quotes": ["\xab", "\xbb"],
                    "space_inside_quotes": "U+00A0", "space_before": [":", ";", "?", "!"],
                    "space_char": "U+00A0",
                    "note": "plain_text keeps the text as written; printed_text is as printed"},
        small_caps_terms={"marked_as": "*term*", "printed": "small capitals",
                          "ratio": 0.8},
        margin_icons=doc.icons,
        page_headers=doc.page_headers,
        page_footers=doc.page_footers,
    )  # fmt: skip
    return write_truth(out, truth)


# ---------------------------------------------------------------- style "s"
ACCENT_S = colors.Color(0.47, 0.2, 0.13)  # style "s": badges, label strips, section heads, folio
INK_S = colors.Color(0.12, 0.11, 0.1)
LEDE_INK_S = colors.Color(0.33, 0.15, 0.1)  # the lede (a chapter's first paragraph)
NIGHT_S = colors.Color(0.14, 0.16, 0.21)  # the dark ground of a reversed house-rule box
AMBER_S = colors.Color(0.94, 0.72, 0.33)  # the label strip and the title of a house-rule box
PALE_S = colors.Color(0.955, 0.935, 0.9)  # the ground of an example box
GREY_S = colors.Color(0.36, 0.35, 0.34)
TITLE_H_S = 27 * mm  # the title across the first page
BADGE_R_S = 10.5  # radius of the hexagonal badge before a chapter heading (pointy top)
BADGE_GAP_S = 6.0  # between the badge and the chapter heading's text
STRIP_S = 13.0  # width of a box's label strip down its left edge
LABEL_S = {"font": "DejaVuSans-Bold", "size": 6.6, "track": 1.3}  # the rotated label in the strip
LABELS_S = {"example": "EXAMPLE", "house-rule": "HOUSE RULE"}
LEDE_S = {"size": 9.9, "leading": 13.6}  # the lede: DejaVu Serif, larger, set ragged right
TERM_INDENT_S = 11.0  # a glossary definition stands in this far under its term
# A chapter heading's `icon` -> the ZapfDingbats glyph printed white in its badge.
ICONS_S = {"star": "\u272a", "hand": "\u261e", "scissors": "\u2702", "heart": "\u2764",
           "pencil": "\u270e"}  # fmt: skip


def _register_dejavu_s() -> None:
    """DejaVu Serif and DejaVu Sans (the system's fonts-dejavu), embedded as TrueType subsets."""
    from reportlab.pdfbase.ttfonts import TTFont

    have = set(pdfmetrics.getRegisteredFontNames())
    fonts = (("DejaVuSerif", "DejaVuSerif.ttf"), ("DejaVuSerif-Bold", "DejaVuSerif-Bold.ttf"),
             ("DejaVuSans", "DejaVuSans.ttf"), ("DejaVuSans-Bold", "DejaVuSans-Bold.ttf"),
             ("DejaVuSans-Oblique", "DejaVuSans-Oblique.ttf"))  # fmt: skip
    for name, file in fonts:
        if name not in have:
            path = DEJAVU_DIR / file
            if not path.exists():
                raise FileNotFoundError(f"style s needs the DejaVu fonts (fonts-dejavu): {path}")
            pdfmetrics.registerFont(TTFont(name, str(path)))


def col_width_s(st: Style) -> float:
    """Width of each of the THREE equal columns of style "s"."""
    return (st.page_size[0] - st.left - st.right - 2 * st.gutter) / 3


def hexagon_pointy(canv, cx: float, cy: float, r: float, **kw) -> None:
    """A regular hexagon with points up and down, centred on (cx, cy)."""
    path = canv.beginPath()
    corners = [(cx + r * c, cy + r * s) for c, s in
               ((0, 1), (-0.866, 0.5), (-0.866, -0.5), (0, -1), (0.866, -0.5), (0.866, 0.5))]  # fmt: skip
    path.moveTo(*corners[-1])
    for x, y in corners:
        path.lineTo(x, y)
    canv.drawPath(path, **kw)


class BadgeHeading(Flowable):
    """Style "s": a chapter heading led by a HEXAGONAL BADGE (the accent colour, a white
    ZapfDingbats glyph in it), the heading's text in a large serif bold beside the badge, a hairline
    under both as wide as the column."""

    def __init__(self, text: str, key: str, glyph: str, sty):
        super().__init__()
        self.gt_key, self.gt_part, self.gt_level, self.gt_text = key, 0, 1, text
        self.glyph = glyph
        self.para = Paragraph(escape(text), sty["h1"])
        self.spaceBefore, self.spaceAfter = sty["h1"].spaceBefore, sty["h1"].spaceAfter

    def wrap(self, availWidth, availHeight):
        lane = 2 * 0.866 * BADGE_R_S + BADGE_GAP_S
        _, self._ph = self.para.wrap(availWidth - lane, 10000)
        self._body = max(self._ph, 2 * BADGE_R_S)
        self.width, self.height = availWidth, self._body + 5
        return self.width, self.height

    def split(self, availWidth, availHeight):
        return []

    def draw(self):
        canv, top = self.canv, self.height
        cx, cy = 0.866 * BADGE_R_S, top - self._body / 2
        canv.saveState()
        canv.setFillColor(ACCENT_S)
        hexagon_pointy(canv, cx, cy, BADGE_R_S, stroke=0, fill=1)
        canv.setFillColor(colors.white)
        canv.setFont("ZapfDingbats", 10.5)
        gw = pdfmetrics.stringWidth(self.glyph, "ZapfDingbats", 10.5)
        canv.drawString(cx - gw / 2, cy - 3.7, self.glyph)
        canv.setStrokeColor(ACCENT_S)
        canv.setLineWidth(0.45)
        canv.line(0, 1, self.width, 1)
        canv.restoreState()
        self.para.drawOn(canv, 2 * cx + BADGE_GAP_S, top - (self._body + self._ph) / 2)


class LabelStripBox(ColumnBox):
    """Style "s": a box as wide as its column with a LABEL STRIP down its left edge, the label
    ("EXAMPLE" or "HOUSE RULE") letter-spaced and ROTATED 90 degrees to read from bottom to top; an
    example on a pale ground (white label on the accent colour), a house rule REVERSED OUT (light
    text on a dark ground, a dark label on an amber strip)."""

    def __init__(self, block, st: Style, sty):
        super().__init__(block, st, sty)
        self.kind = "house-rule" if block.get("house_rule") else "example"
        self.label = LABELS_S[self.kind]
        self.spaceBefore, self.spaceAfter = 5, 8

    def _make(self, width: float) -> Table:
        dark = "_dark" if self.kind == "house-rule" else ""
        cells = [Paragraph(escape(self.block["title"]), self.sty["box_title" + dark]),
                 Paragraph(markup(self.block["text"], self.st, bold_lead=False),
                           self.sty["box" + dark])]  # fmt: skip
        return cell_table(cells, width - STRIP_S, [], (8, 8, 7, 8))

    def wrap(self, availWidth, availHeight):
        self._table = self._make(availWidth)
        _, h = self._table.wrap(availWidth - STRIP_S, availHeight)
        self.width, self.height = availWidth, h
        return self.width, self.height

    def draw(self):
        canv, w, h = self.canv, self.width, self.height
        dark = self.kind == "house-rule"
        canv.saveState()
        canv.setFillColor(NIGHT_S if dark else PALE_S)
        canv.rect(0, 0, w, h, stroke=0, fill=1)
        canv.setFillColor(AMBER_S if dark else ACCENT_S)
        canv.rect(0, 0, STRIP_S, h, stroke=0, fill=1)
        font, size, track = LABEL_S["font"], LABEL_S["size"], LABEL_S["track"]
        lw = tracked_width(self.label, font, size, track)
        canv.translate(STRIP_S / 2 + size * 0.36, (h - lw) / 2)
        canv.rotate(90)  # the label reads from bottom to top
        canv.setFillColor(NIGHT_S if dark else colors.white)
        t = canv.beginText(0, 0)
        t.setFont(font, size)
        t.setCharSpace(track)
        t.textOut(self.label)
        canv.drawText(t)
        canv.restoreState()
        self._table.drawOn(canv, STRIP_S, 0)


def _styles_s(st: Style) -> dict[str, ParagraphStyle]:
    sty = _styles(st)
    body = ParagraphStyle("body_s", parent=sty["body"], textColor=INK_S)
    box = ParagraphStyle("box_s", fontName="DejaVuSans", fontSize=7.7, leading=10.5,
                         textColor=INK_S, alignment=TA_LEFT, embeddedHyphenation=1,
                         uriWasteReduce=0)  # fmt: skip
    box_title = ParagraphStyle("box_title_s", fontName="DejaVuSans-Bold", fontSize=8.4,
                               leading=11, textColor=ACCENT_S, spaceAfter=3)  # fmt: skip
    sty.update(
        body=body,
        body_first=ParagraphStyle("body_first_s", parent=body, firstLineIndent=0),
        lede=ParagraphStyle("lede_s", parent=body, fontSize=LEDE_S["size"],
                            leading=LEDE_S["leading"], textColor=LEDE_INK_S, firstLineIndent=0,
                            alignment=TA_LEFT, spaceAfter=5),
        term=ParagraphStyle("term_s", parent=body, firstLineIndent=-TERM_INDENT_S,
                            leftIndent=TERM_INDENT_S, spaceBefore=4),
        h1=ParagraphStyle("h1_s", fontName=st.head_font, fontSize=st.h1, leading=st.h1 * 1.18,
                          textColor=ACCENT_S, spaceBefore=st.h1_space_before, spaceAfter=7),
        h2=ParagraphStyle("h2_s", fontName=st.h2_font, fontSize=st.h2, leading=st.h2 * 1.25,
                          textColor=ACCENT_S, spaceBefore=st.h2_space_before, spaceAfter=3),
        h3=ParagraphStyle("h3_s", fontName="DejaVuSans-Oblique", fontSize=8.9, leading=11.5,
                          textColor=ACCENT_S, spaceBefore=6, spaceAfter=1.5),
        box=box,
        box_title=box_title,
        box_dark=ParagraphStyle("box_dark_s", parent=box, textColor=colors.white),
        box_title_dark=ParagraphStyle("box_title_dark_s", parent=box_title, textColor=AMBER_S),
        title=title_style("title_s", st.head_font, st, 1.22, textColor=ACCENT_S),
    )  # fmt: skip
    return sty


def _story_s(book: dict, st: Style, sty) -> tuple[list, list, list]:
    """The flowables of a style "s" book: (story, truth blocks, headings). A heading is not left at
    a column's foot without three lines of text under it; a chapter's first paragraph is its lede;
    a paragraph is indented only after another body paragraph. (A chapter without an `icon` gets the
    star; a level-3 heading, which twentieth.yaml does not have, is set in a coloured sans oblique.)"""
    story, truth_blocks, headings, path = [], [], [], []
    need, prev = None, None
    room = {1: st.h1_space_before + 2 * BADGE_R_S + 12, 2: st.h2_space_before + st.h2 * 1.25 + 3,
            3: 6 + 11.5 + 1.5}  # fmt: skip
    for block in book["blocks"]:
        kind = block["type"]
        if kind == "heading":
            lvl, path, entry = new_heading(block, path, headings)
            if lvl == 1:
                icon = block.get("icon", "star")
                glyph = ICONS_S[icon]
                entry.update(badge=dict(shape="hexagon", points="up", icon=icon,
                                        char=glyph, codepoint=f"U+{ord(glyph):04X}",
                                        font="ZapfDingbats", fill=_hex(ACCENT_S),
                                        glyph_colour="#ffffff"),
                             rule_below=True)  # fmt: skip
                h = BadgeHeading(block["text"], entry["id"], glyph, sty)
            else:
                if lvl == 3:
                    entry["oblique"] = True
                h = KeyedParagraph(escape(block["text"]), sty["h2" if lvl == 2 else "h3"])
                h.gt_key, h.gt_level, h.gt_text = entry["id"], lvl, block["text"]
            lines = 3 * (LEDE_S["leading"] if lvl == 1 else st.leading)
            if prev in ("heading", "chapter") and need is not None:
                need.need += room[lvl]
            else:
                need = NeedSpace(room[lvl] + lines)
                story.append(need)
            story.append(h)
            prev = "chapter" if lvl == 1 else "heading"
            continue
        row = truth_row(block, path)
        truth_blocks.append(row)
        if kind == "box":
            box = LabelStripBox(block, st, sty)
            row.update(box_kind=box.kind, label=box.label, label_rotation=90,
                       label_reads="bottom-to-top", reversed=box.kind == "house-rule",
                       printed_title=block["title"])  # fmt: skip
            story.append(box)
        elif kind == "paragraph" and block.get("term"):
            term = block["term"]
            row.update(definition=True, term=term, printed_lead=term, term_on_own_line=True,
                       definition_indent_pt=TERM_INDENT_S)  # fmt: skip
            lead = f'<font name="DejaVuSans-Bold" color="{_hex(ACCENT_S)}">{escape(term)}</font>'
            p = KeyedParagraph(f"{lead}<br/>{markup(block['text'], st)}", sty["term"])
            p.gt_key = block["key"]
            story.append(p)
            kind = "term"
        elif kind == "paragraph":
            if prev == "chapter":
                p = KeyedParagraph(markup(block["text"], st), sty["lede"])
                row.update(lede=True, font=dict(name="DejaVu Serif", size=LEDE_S["size"],
                                                leading=LEDE_S["leading"],
                                                colour=_hex(LEDE_INK_S)))  # fmt: skip
            else:
                p = KeyedParagraph(
                    markup(block["text"], st), sty["body" if prev == "paragraph" else "body_first"]
                )
            p.gt_key = block["key"]
            story.append(p)
        else:
            raise ValueError(f"unknown block type {kind!r}")
        prev = kind
    return story, truth_blocks, headings


class TopFolioDoc(RulebookDoc):
    """Style "s": 200 x 260 mm pages, the title across the first page, then THREE equal columns on
    every page; before the text the page number at the TOP CENTRE inside a broken rule (and, on the
    first page, the rules under the title); after the text, over a hairline, a running FOOTER with
    the book's running header on the inside (left on odd, right-hand pages) and the SECTION in
    effect at the top of the page on the outside."""

    def __init__(self, filename, book, st: Style, **kw):
        self._setup(filename, book, st, **kw)
        self.colw = col_width_s(st)
        self.section: str | None = None  # the section in effect (level-2 heading, else chapter)
        self.top_section: dict[int, str | None] = {}
        cols = (self.colw,) * 3
        hooks = {"onPage": self.draw_folio_s, "onPageEnd": self.draw_foot_s}
        self.addPageTemplates([
            PageTemplate("first", self.page_frames(1, TITLE_H_S, cols), **hooks),
            PageTemplate("later", self.page_frames(2, 0, cols), **hooks),
        ])  # fmt: skip

    def afterFlowable(self, flowable):
        """Only blocks and headings count; the first of a page fixes the section at its top (a
        chapter or section heading there names itself)."""
        if not getattr(flowable, "gt_key", None):
            return
        lvl = getattr(flowable, "gt_level", 0)
        if self.page not in self.top_section:
            self.top_section[self.page] = flowable.gt_text if lvl in (1, 2) else self.section
        if lvl in (1, 2):
            self.section = flowable.gt_text
        super().afterFlowable(flowable)

    def draw_folio_s(self, canv, doc):
        """Before the page's text: the page number centred on top, a rule on either side of it; on
        the first page a thick and a thin rule under the title."""
        st, page = self.st, doc.page
        W, H = st.page_size
        num = str(self.printed(page))
        y = H - st.top + 9 * mm
        size = 10.0
        nw = pdfmetrics.stringWidth(num, "DejaVuSans-Bold", size)
        gap = 3.5 * mm
        canv.saveState()
        canv.setFillColor(ACCENT_S)
        canv.setFont("DejaVuSans-Bold", size)
        canv.drawCentredString(W / 2, y, num)
        canv.setStrokeColor(GREY_S)
        canv.setLineWidth(0.5)
        canv.line(st.left, y + 3.4, W / 2 - nw / 2 - gap, y + 3.4)
        canv.line(W / 2 + nw / 2 + gap, y + 3.4, W - st.right, y + 3.4)
        if page == 1:
            yt = H - st.top - TITLE_H_S + 4.5 * mm
            canv.setFillColor(ACCENT_S)
            canv.rect(st.left, yt, W - st.left - st.right, 1.6 * mm, stroke=0, fill=1)
            canv.setStrokeColor(ACCENT_S)
            canv.setLineWidth(0.4)
            canv.line(st.left, yt - 1.3 * mm, W - st.right, yt - 1.3 * mm)
        canv.restoreState()
        self.page_headers.append(dict(page=int(num), pdf_page_index=page - 1, number=num,
                                      position="top-centre", rule="broken", text=None))  # fmt: skip

    def draw_foot_s(self, canv, doc):
        """After the page's text: over a hairline, the running header on the inside and the section
        in effect at the top of the page on the outside."""
        st, page = self.st, doc.page
        W = st.page_size[0]
        num = self.printed(page)
        odd = num % 2 == 1  # right-hand page: its inside is on the left
        head, section = self.book["running_header"], self.top_section.get(page, self.section)
        head_side, section_side = ("left", "right") if odd else ("right", "left")
        y = st.bottom - 9.5 * mm
        canv.saveState()
        canv.setStrokeColor(GREY_S)
        canv.setLineWidth(0.35)
        canv.line(st.left, y + 9, W - st.right, y + 9)
        for text, side, font, colour in ((head, head_side, "DejaVuSans-Oblique", GREY_S),
                                         (section or "", section_side, "DejaVuSans-Bold",
                                          ACCENT_S)):  # fmt: skip
            canv.setFillColor(colour)
            canv.setFont(font, 7.4)
            if side == "left":
                canv.drawString(st.left, y, text)
            else:
                canv.drawRightString(W - st.right, y, text)
        canv.restoreState()
        self.page_footers.append(dict(page=num, pdf_page_index=page - 1, running_header=head,
                                      running_header_side=head_side, section=section,
                                      section_side=section_side))  # fmt: skip


def build_pdf_s(book: dict, out_pdf_path, style: str = "s") -> dict:
    """Style "s" (see STYLES): laid out once; the truth adds the badges, the ledes, the glossary
    entries, the boxes' rotated labels, the three columns and the page furniture."""
    _register_dejavu_s()
    st = STYLES[style]
    sty = _styles_s(st)
    out = Path(out_pdf_path)
    story, truth_blocks, headings = _story_s(book, st, sty)
    doc = TopFolioDoc(str(out), book, st)
    title = Paragraph(escape(book["title"]), sty["title"])
    doc.build([Spacer(1, 2), title, NextPageTemplate("later"), FrameBreak()] + story)
    place_truth(doc, headings, truth_blocks)
    truth = truth_head(book, style, doc, headings, truth_blocks)
    truth.update(
        page_size="200x260mm",
        columns=3,
        column_width_pt=round(doc.colw, 2),
        gutter_pt=round(st.gutter, 2),
        body_font={"name": "DejaVu Serif", "size": st.size, "leading": st.leading},
        lede_font={"name": "DejaVu Serif", "size": LEDE_S["size"], "leading": LEDE_S["leading"],
                   "colour": _hex(LEDE_INK_S)},
        paragraph_indent={"first_line_pt": st.first_indent, "gap_pt": 0,
                          "not_after": ["heading", "lede", "box", "glossary entry"]},
        box_labels={"labels": LABELS_S, "rotation": 90, "reads": "bottom-to-top",
                    "font": LABEL_S["font"], "size": LABEL_S["size"],
                    "letter_spacing_pt": LABEL_S["track"],
                    "note": "the label is printed in the box's strip, not part of its title or "
                            "plain_text"},
        page_headers=doc.page_headers,
        page_footers=doc.page_footers,
    )  # fmt: skip
    return write_truth(out, truth)


# ---------------------------------------------------------------- public API
def _beside(stem: str):
    """The module `stem`.py beside this file (browser_pdf: the "browser" layout, printed by
    headless Chromium; typst_pdf: the "typst" layout, set by the Typst engine; weasy_pdf: the
    "weasy" layout, laid out by WeasyPrint; office_pdf: the "office" layout, laid out and exported
    by LibreOffice Writer; latex_pdf: the "latex" layout, typeset by pdflatex), imported only when
    a book is laid out in its layout, so that this module imports without playwright, the typst
    package or weasyprint and never starts LibreOffice or pdflatex; loaded from its path, however
    this module itself was imported."""
    import importlib.util

    name = f"rulebooks_{stem}"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, HERE / f"{stem}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # before running it: its dataclasses look themselves up here
        spec.loader.exec_module(module)
    return sys.modules[name]


def build_pdf(book: dict, out_pdf_path, style: str = "a") -> dict:
    """Lay out a book given as a dict (the parsed YAML). Returns the ground truth (also written).
    Style "browser" is not in STYLES (nothing that loops over STYLES starts a browser): it hands
    the book to browser_pdf.build_browser_pdf, which prints it with headless Chromium. Style
    "typst" is not in STYLES either: it hands the book to typst_pdf.build_typst_pdf, which
    typesets it with the Typst engine; nor is style "weasy": it hands the book to
    weasy_pdf.build_weasy_pdf, which lays it out as HTML + CSS paged media with WeasyPrint; nor
    is style "office": it hands the book to office_pdf.build_office_pdf, which has LibreOffice
    Writer lay it out as a two-column Writer document and export the PDF; nor is style "latex":
    it hands the book to latex_pdf.build_latex_pdf, which has pdflatex typeset it as a two-column
    LaTeX article."""
    if style == "browser":
        return _beside("browser_pdf").build_browser_pdf(book, out_pdf_path)
    if style == "typst":
        return _beside("typst_pdf").build_typst_pdf(book, out_pdf_path)
    if style == "weasy":
        return _beside("weasy_pdf").build_weasy_pdf(book, out_pdf_path)
    if style == "office":
        return _beside("office_pdf").build_office_pdf(book, out_pdf_path)
    if style == "latex":
        return _beside("latex_pdf").build_latex_pdf(book, out_pdf_path)
    st = STYLES[style]
    if st.header_layout == "centre-caps-top-circle":
        return build_pdf_f(book, out_pdf_path, style)
    if st.header_layout == "inner-head-centre-foot":
        return build_pdf_g(book, out_pdf_path, style)
    if st.header_layout == "foot-inner-outer":
        return build_pdf_h(book, out_pdf_path, style)
    if st.header_layout == "top-chapter-book-page":
        return build_pdf_i(book, out_pdf_path, style)
    if st.header_layout == "outer-chapter-inner-foot":
        return build_pdf_j(book, out_pdf_path, style)
    if st.header_layout == "top-inner-number-landscape":
        return build_pdf_k(book, out_pdf_path, style)
    if st.header_layout == "paper-tabs-8x10":
        return build_pdf_l(book, out_pdf_path, style)
    if st.header_layout == "bands-hexagon-200x265":
        return build_pdf_m(book, out_pdf_path, style)
    if st.header_layout == "edge-sideheads-225x290":
        return build_pdf_n(book, out_pdf_path, style)
    if st.header_layout == "inside-narrow-190x260":
        return build_pdf_o(book, out_pdf_path, style)
    if st.header_layout == "reversed-decks-165x235":
        return build_pdf_p(book, out_pdf_path, style)
    if st.header_layout == "outline-floats-180x240":
        return build_pdf_q(book, out_pdf_path, style)
    if st.header_layout == "pills-icons-200x250":
        return build_pdf_r(book, out_pdf_path, style)
    if st.header_layout == "three-columns-folio-200x260":
        return build_pdf_s(book, out_pdf_path, style)
    corner_foot = st.header_layout == "corner-chapter-foot-number"
    if corner_foot:
        _register_vera()
    sty = _styles_e(st) if corner_foot else _styles(st)
    out = Path(out_pdf_path)
    doc = (CornerFootDoc if corner_foot else RulebookDoc)(str(out), book, st)
    colw = col_width(st)
    story = [
        Paragraph(escape(book["title"]), sty["title"]),
        NextPageTemplate("later"),
        FrameBreak(),
    ]
    path: list[str] = []
    truth_blocks, headings = [], []
    after_heading = False
    for block in book["blocks"]:
        kind = block["type"]
        if kind == "heading":
            lvl = int(block["level"])
            path = path[: lvl - 1] + [block["text"]]
            caps = lvl == 2 and st.h2_small_caps
            text = small_caps(block["text"], st.h2) if caps else escape(block["text"])
            h = KeyedParagraph(text, sty[f"h{lvl}"])
            h.gt_key = f"#heading{len(headings)}"
            h.gt_level, h.gt_text = lvl, block["text"]
            story.append(h)
            headings.append({"id": h.gt_key, "level": lvl, "text": block["text"]})
            if caps:
                headings[-1]["small_caps"] = True
            after_heading = True
            continue
        first = after_heading and not st.indent_after_heading
        after_heading = False
        if kind == "paragraph":
            p = KeyedParagraph(markup(block["text"], st), sty["body_first" if first else "body"])
            p.gt_key = block["key"]
            story.append(p)
        elif kind == "box" and corner_foot:
            story += [Spacer(1, 4), ColumnBox(block, st, sty), Spacer(1, 7)]
        elif kind == "box":
            story += [Spacer(1, 3), _box(block, st, sty, colw), Spacer(1, 8)]
        else:
            raise ValueError(f"unknown block type {kind!r}")
        truth_blocks.append(truth_row(block, path))
    doc.build(story)

    place_truth(doc, headings, truth_blocks)
    truth = truth_head(book, style, doc, headings, truth_blocks)
    if st.header_layout == "title-chapter":
        truth["page_headers"] = doc.page_headers
    if st.header_layout == "footer-title-number":
        truth["page_footers"] = doc.page_footers
    if corner_foot:
        truth["page_size"] = "letter"
        truth["column_widths_pt"] = list(col_widths_e(st))
        truth["page_headers"] = doc.page_headers
        truth["page_footers"] = doc.page_footers
    return write_truth(out, truth)


def make_pdf(book_yaml_path, out_pdf_path, style: str | None = None) -> dict:
    """Lay out one book YAML as a PDF at out_pdf_path, ground truth beside it (<stem>.truth.json)."""
    book = yaml.safe_load(Path(book_yaml_path).read_text())
    return build_pdf(book, out_pdf_path, style or book.get("layout_style", "a"))


def main(argv: list[str]) -> int:
    if argv[:1] == ["--all"] and len(argv) == 2:
        outdir = Path(argv[1])
        outdir.mkdir(parents=True, exist_ok=True)
        for name in BOOKS:
            t = make_pdf(HERE / name, outdir / name.replace(".yaml", ".pdf"))
            splits = sorted({b["split"] for b in t["blocks"] if b["split"]})
            print(
                f"{name}: style {t['style']}, {t['pages']} pages (printed {t['printed_pages']}), splits: {splits}"
            )
        return 0
    args = [a for a in argv if not a.startswith("--style")]
    style = next((a.split("=", 1)[1] for a in argv if a.startswith("--style=")), None)
    if len(args) != 2:
        print(__doc__)
        return 2
    t = make_pdf(args[0], args[1], style)
    print(f"{args[1]}: style {t['style']}, {t['pages']} pages")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
