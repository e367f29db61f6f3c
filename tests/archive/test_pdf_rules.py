"""The PDF reader's layout rules on pages made by hand (characters placed one by one), each
in a form the test books do not print: the rules must hold for a book not seen yet."""

from __future__ import annotations

import math
import re

import pytest

from indexer.archive.sources.pdf import layout, reading_order
from indexer.archive.sources.pdf.fills import on_strips
from indexer.archive.sources.pdf.furniture import printed_numbers
from indexer.archive.sources.pdf.page import Char, Page, lines_of, merge_fills, turned_lines

WIDTH, HEIGHT = 600.0, 800.0


def _chars(text: str, x: float, baseline: float, size: float = 9.0, **style) -> list[Char]:
    """A line of text set from `x` on `baseline`, each character half its size wide."""
    out, step = [], 0.5 * size
    for c in text:
        if c != " ":
            out.append(
                Char(c, x, x + step, baseline - 0.75 * size, baseline + 0.2 * size,
                     style.get("font") or ("Bold" if style.get("bold") else "Regular"), size,
                     baseline=baseline,
                     bold=bool(style.get("bold")), colour=style.get("colour", 0))
            )  # fmt: skip
        x += step
    return out


def _opening(chapter: str, baseline: float = 40) -> list[Char]:
    """A page's top: the book's title at 22 pt, then a chapter's heading at 16 pt."""
    return _chars("The Book", 40, 10, 22) + _chars(chapter, 40, baseline, 16)


def _page(number: int, chars: list[Char]) -> Page:
    lines, gutters = lines_of(number, WIDTH, chars)
    return Page(WIDTH, HEIGHT, lines, [], number, gutters)


def _column(
    x: float, top: float, words: list[str], size: float = 9.0, leading: float = 12.0
) -> list[Char]:
    return [c for i, w in enumerate(words) for c in _chars(w, x, top + i * leading, size)]


def test_unequal_columns_are_read_left_then_right_below_a_full_width_title():
    # A narrow left column (x 40-230) and a wide right one (x 250-560): the page's middle
    # (300) is inside the right column, so only the gutter between them parts the columns.
    left = _column(40, 100, ["left " + "a" * 34 for _ in range(20)])
    right = _column(250, 100, ["right " + "b" * 62 for _ in range(20)])
    title = _chars("A Title Across Both Columns Of The Page", 40, 60, 18)
    page = _page(0, left + right + title)
    assert len(page.gutters) == 1 and 215 <= page.gutters[0][0] and page.gutters[0][1] <= 250
    order = [ln.text.split()[0] for ln in reading_order(page.lines)]
    assert order == ["A"] + ["left"] * 20 + ["right"] * 20


def test_the_printed_number_is_the_token_that_counts_up_wherever_it_stands():
    # Each page: a running head with a chapter number and a year that do not count, and the
    # page number set each time another way, in another corner; the third page prints none.
    decorations = [("p. 12", 40), ("13 |", 520), None, ("— 15 —", 40)]
    pages = []
    for i, number in enumerate(decorations):
        chars = _chars(f"Chapter {3 + i // 2} Edition 2024", 40, 30, 7)
        chars += _column(40, 80, [f"body {'abcd'[i]} line " + "c" * 40 for _ in range(30)])
        if number:
            chars += _chars(number[0], number[1], 780, 7)
        pages.append(_page(i, chars))
    printed, furniture = printed_numbers(pages)
    assert printed == {0: "12", 1: "13", 2: "14", 3: "15"}
    # The lines that print the numbers are no body text.
    assert all(id(ln) in furniture for page in pages for ln in page.lines if ln.top > 700)


def test_no_number_that_counts_leaves_the_pages_unnumbered_or_to_the_pdf_labels():
    pages = [
        _page(i, _column(40, 80, [f"body {'abc'[i]} " + "d" * 40 for _ in range(30)]))
        for i in range(3)
    ]
    pages[1].lines += lines_of(1, WIDTH, _chars("Scenario 7", 40, 780, 7))[0]
    assert printed_numbers(pages)[0] == {0: "", 1: "", 2: ""}
    assert printed_numbers(pages, ["i", "ii", "iii"])[0] == {0: "i", 1: "ii", 2: "iii"}


def test_a_bold_lead_term_starts_a_paragraph_and_a_bold_line_set_apart_is_a_heading():
    # Lines of one length (60 characters, 270 pt), so none ends short of the column's edge.
    chars = _chars("The Book", 40, 60, 18)
    chars += _chars("Resting Rules", 40, 100, bold=True)
    chars += _chars("A rest takes the whole turn and nothing else happens in it..", 40, 118)
    chars += _chars("everyone else acts first and the rester goes last in order.", 40, 130)
    # Mostly bold, after a gap, no sentence end: still a lead term, for body text follows it.
    chars += _chars("LONG REST AND SHORT REST ALIKE.", 40, 146, bold=True)
    chars += _chars("Each rest heals two points in", 179.5, 146)
    chars += _chars("and loses one card of the discard pile at the end of it.", 40, 158)
    title, blocks = layout([_page(0, chars)])
    assert title == "The Book"
    assert [(b.section, b.text[:10]) for b in blocks] == [
        ("Resting Rules", "A rest tak"),
        ("Resting Rules", "LONG REST "),
    ]


def test_three_columns_are_read_left_to_right_under_a_full_width_title():
    title = _chars("A Title Across The Three Columns Of The Page", 40, 60, 18)
    columns = [_column(x, 100, [f"{name} " + "w" * 30 for _ in range(15)])
               for x, name in ((40, "first"), (230, "second"), (420, "third"))]  # fmt: skip
    page = _page(0, title + [c for column in columns for c in column])
    assert len(page.gutters) == 2
    order = [ln.text.split()[0] for ln in reading_order(page.lines)]
    assert order == ["A"] + ["first"] * 15 + ["second"] * 15 + ["third"] * 15


def test_ragged_right_lines_run_on_unless_the_next_word_would_have_fit():
    # Ragged right: no line reaches the column's edge (x 310), yet a paragraph runs on while
    # the next line's first word is too long for the room left; "Yes" would have fit.
    chars = _chars("Ragged", 40, 60, 18)
    lines = [
        "The first paragraph runs on here, and its line ends before",  # 296.5: 13.5 short
        "overwhelmingly, and this line is the longest: it sets the edge.",  # 321.5
        "A short last line.",
        "Yes, the second paragraph starts with a short word.",
    ]
    for i, text in enumerate(lines):
        chars += _chars(text, 40, 100 + 12 * i)
    _, blocks = layout([_page(0, chars)])
    assert [b.text[:9] for b in blocks] == ["The first", "Yes, the "]


def _spaced(text: str, x: float, baseline: float, size: float = 7.0, tracking: float = 2.0):
    """A line set letter-spaced: every letter `tracking` points apart, words a space more."""
    out = []
    for c in text:
        if c != " ":
            out.append(Char(c, x, x + 0.5 * size, baseline - 0.75 * size, baseline + 0.2 * size,
                            "Regular", size, baseline=baseline))  # fmt: skip
        x += 0.5 * size + tracking
    return out


def test_letter_spaced_words_and_numbers_read_whole():
    lines, _ = lines_of(0, WIDTH, _spaced("FIELD MANUAL", 200, 30) + _spaced("213", 540, 30))
    assert sorted(ln.text for ln in lines) == ["213", "FIELD MANUAL"]


def test_a_lead_term_in_a_colour_of_its_own_is_a_section_run_into_its_paragraph():
    purple = 0x6B295C
    chars = _chars("Chapter", 40, 60, 18)
    chars += _chars("Bless and Curse.", 40, 100, bold=True, colour=purple)
    chars += _chars("A bless card works like the doubling card,", 116, 100)  # to 305
    chars += _chars("and a curse card like the null card does: it ends on this.", 40, 112)
    chars += _chars("Rolling.", 40, 130, bold=True, colour=purple)
    chars += _chars("A rolling card is drawn with the next one too.", 80, 130)
    _, blocks = layout([_page(0, chars)])
    assert [(b.section, b.text[:14]) for b in blocks] == [
        ("Bless and Curse", "Bless and Curs"),
        ("Rolling", "Rolling. A rol"),
    ]


def test_small_print_under_a_bold_title_is_a_box_without_any_fill():
    chars = _chars("Chapter", 40, 60, 18)
    chars += _chars("A paragraph of body text that runs the whole width here.", 40, 100)
    chars += _chars("and ends on its second line.", 40, 112)
    chars += _chars("Example: A Small Box", 40, 134, 7, bold=True)
    chars += _chars("Set in small type, this example is a box of its own.", 40, 144, 7)
    chars += _chars("It ends here.", 40, 153, 7)
    chars += _chars("Body text again, after the box, is another paragraph now.", 40, 172)
    _, blocks = layout([_page(0, chars)])
    assert [(b.kind, b.title or "", b.text[:9]) for b in blocks] == [
        ("paragraph", "", "A paragra"),
        ("box", "Example: A Small Box", "Set in sm"),
        ("paragraph", "", "Body text"),
    ]


def test_a_short_title_over_a_full_width_sidebar_is_read_with_it_after_the_columns():
    left = _column(40, 100, ["left " + "a" * 40 for _ in range(10)])
    right = _column(320, 100, ["right " + "b" * 40 for _ in range(10)])
    sidebar = _chars("Sidebar Title", 40, 240, 7, bold=True)
    sidebar += _chars("across " + "c" * 130, 40, 250, 7)
    page = _page(0, left + right + sidebar)
    order = [ln.text.split()[0] for ln in reading_order(page.lines)]
    assert order == ["left"] * 10 + ["right"] * 10 + ["Sidebar", "across"]


def test_an_introduction_set_large_over_the_columns_is_text_and_the_columns_still_part():
    intro = [_chars("An introduction set large runs across the whole page width, line", 40, 60 + 16 * i, 12)
             for i in range(3)]  # fmt: skip
    intro.append(_chars("after line, and it ends like a sentence.", 40, 108, 12))
    left = _column(40, 140, ["left " + "a" * 50 for _ in range(30)])
    right = _column(320, 140, ["right " + "b" * 50 for _ in range(30)])
    page = _page(0, [c for line in intro for c in line] + left + right)
    assert len(page.gutters) == 1
    _, blocks = layout([page])
    assert blocks[0].text.startswith("An introduction") and blocks[0].text.endswith("sentence.")


def test_a_heading_keeps_only_the_higher_levels_above_it_when_a_level_is_skipped():
    chars = _chars("The Book", 40, 30, 22)
    chars += _chars("Chapter One", 40, 60, 16)
    chars += _chars("A Section", 40, 90, 12)
    chars += _chars("A paragraph of body text in the section, ending here now.", 40, 110)
    chars += _chars("Subsection", 40, 130, bold=True)
    chars += _chars("A paragraph of body text in the subsection, ending here.", 40, 145)
    chars += _chars("Chapter Two", 40, 170, 16)
    chars += _chars("Right Under", 40, 195, bold=True)
    chars += _chars("A paragraph of body text under the chapter two, ending.", 40, 210)
    _, blocks = layout([_page(0, chars)])
    assert [b.section for b in blocks] == [
        "Chapter One > A Section",
        "Chapter One > A Section > Subsection",
        "Chapter Two > Right Under",
    ]


def test_a_box_title_wrapped_onto_two_lines_is_one_title():
    chars = _chars("Chapter", 40, 60, 18)
    for i in range(3):
        chars += _chars(
            "A paragraph of body text that runs the whole width here.", 40, 100 + 12 * i
        )
    chars += _chars("EXAMPLE: A TITLE TOO LONG FOR", 40, 144, 7, bold=True)
    chars += _chars("ONE LINE", 40, 153, 7, bold=True)
    chars += _chars("Set in small type, this example is a box of its own.", 40, 163, 7)
    _, blocks = layout([_page(0, chars)])
    assert [(b.kind, b.title) for b in blocks][1:] == [
        ("box", "EXAMPLE: A TITLE TOO LONG FOR ONE LINE")
    ]


def test_a_space_the_pdf_sets_parts_words_however_narrow_the_gap():
    # An italic "g" whose box reaches into the space after it: the gap is nearly none.
    chars = _chars("Falling", 40, 30, 12)
    for c in _chars("for", chars[-1].x1 + 0.5, 30, 12):
        chars.append(c)
    chars[len("Falling")].space_before = True
    lines, _ = lines_of(0, WIDTH, chars)
    assert [ln.text for ln in lines] == ["Falling for"]


def test_list_items_are_blocks_of_their_own_without_their_bullets_across_a_column_break():
    # Every line 50 characters long (225 pt), so that none ends short of its column's edge.
    body = [f"body text line {i} ".ljust(50, "x") for i in range(40)]
    chars = _chars("Chapter", 40, 30, 18)
    chars += _column(40, 60, body[:30])
    chars += _chars("• A first item whose text runs on to a second line", 40, 420)
    chars += _chars("set where its text starts, after the bullet.", 49, 432)
    chars += _chars("• A second item runs to the foot of the column and", 40, 444)
    # ... and on at the top of the next column, where its text starts there too.
    chars += _chars("on in the next column, set after a bullet's width.", 329, 60)
    chars += _column(320, 80, body[30:])
    _, blocks = layout([_page(0, chars)])
    texts = [b.text for b in blocks]
    assert (
        "A first item whose text runs on to a second line set where its text starts, after the bullet."
        in texts
    )
    assert (
        "A second item runs to the foot of the column and on in the next column, set after a "
        "bullet's width." in texts
    )


def test_a_chapter_number_set_apart_beside_its_heading_is_part_of_it():
    chars = _chars("The Book", 40, 30, 24)
    chars += _chars("5", 40, 70, 14, bold=True)
    chars += _chars("Random Dungeons", 70, 70, 19, bold=True)
    chars += _chars("A paragraph of body text in the chapter, ending here now.", 40, 100)
    _, blocks = layout([_page(0, chars)])
    assert [b.section for b in blocks] == ["5 Random Dungeons"]


def test_a_drop_capital_is_the_first_letter_of_its_paragraph_beside_lines_not_indented():
    chars = _chars("Chapter", 40, 30, 18)
    cap = _chars("P", 40, 104, 30)  # over three lines, its top level with the first one's
    chars += cap
    chars += _chars("ressure plates are overlay tiles that some scenarios", 60, 82)
    chars += _chars("place on the map to hide a trap, a door or a gate,", 60, 94)
    chars += _chars("and what each one does is read from the special rules", 60, 106)
    chars += _chars("of the scenario, for it is never printed on the tile.", 40, 118)
    _, blocks = layout([_page(0, chars)])
    assert [b.text for b in blocks] == [
        "Pressure plates are overlay tiles that some scenarios place on the map to hide a trap, "
        "a door or a gate, and what each one does is read from the special rules of the "
        "scenario, for it is never printed on the tile."
    ]


def test_numbered_steps_after_a_sentence_are_blocks_and_keep_their_numbers():
    chars = _chars("Chapter", 40, 30, 18)
    chars += _chars("Resolve a plate in this order, before anything else happens:", 40, 60)
    chars += _chars("1. Stop the ability at the very moment the character enters", 40, 72)
    chars += _chars("the hex, whatever it had left.", 53.5, 84)
    chars += _chars("2. Read the section for that plate and do what it says.", 40, 96)
    _, blocks = layout([_page(0, chars)])
    assert [b.text for b in blocks][1:] == [
        "1. Stop the ability at the very moment the character enters the hex, whatever it had "
        "left.",
        "2. Read the section for that plate and do what it says.",
    ]


def test_a_running_header_is_found_when_its_parts_start_a_point_apart():
    pages = []
    for i in range(3):
        chars = _chars(f"p. {23 + i} Chapter {'ABC'[i]}", 40, 31.5, 7)
        chars += _chars("Field Notes", 480, 31.2, 7.5)  # another font: its box a point lower
        chars += _column(40, 80, [f"body {'abc'[i]} line " + "c" * 40 for _ in range(30)])
        pages.append(_page(i, chars))
    printed, furniture = printed_numbers(pages)
    assert printed == {0: "23", 1: "24", 2: "25"}
    assert all(id(ln) in furniture for page in pages for ln in page.lines if ln.top < 40)


def test_a_justified_line_with_wide_word_spaces_stays_one_line():
    # Word spaces of 20 pt, over twice the letters' size: no column parts them.
    chars = (
        _chars("prosperity,", 40, 30) + _chars("reputation", 110, 30) + _chars("changes", 175, 30)
    )
    lines, _ = lines_of(0, WIDTH, chars)
    assert [ln.text for ln in lines] == ["prosperity, reputation changes"]


def test_a_bold_lead_term_broken_over_two_lines_stays_in_its_paragraph():
    purple = 0x6B295C
    chars = _chars("Chapter", 40, 30, 18)
    chars += _chars("Paying for Costs.", 40, 60, bold=True, colour=purple)
    chars += _chars("A VERY LONG LEAD TERM THAT RUNS ON", 121, 60, bold=True)  # to 274: full
    chars += _chars("BREAKS. Its paragraph goes on here and ends like this.", 40, 72)
    _, blocks = layout([_page(0, chars)])
    assert [(b.section, b.text[:24]) for b in blocks] == [
        ("Paying for Costs", "Paying for Costs. A VERY")
    ]


def test_in_a_justified_column_a_line_ending_short_ends_its_paragraph_whatever_follows():
    # Justified: every line but a paragraph's last reaches the edge (x 265). The last line of
    # the left column ends 22.5 pt short: the next column's long first word would not have
    # fit there, yet a justified line that short is a paragraph's end.
    left = _column(
        40, 60, [f"left line {i} of the first paragraph ".ljust(50, "a") for i in range(9)]
    )
    left += _chars("and the first paragraph ends right here.", 40, 168)
    right = _column(
        320,
        60,
        ["Overwhelmingly, " + f"the second paragraph {i} ".ljust(34, "b") for i in range(10)],
    )
    _, blocks = layout([_page(0, _chars("Chapter", 40, 30, 18) + left + right)])
    assert [b.text[:14] for b in blocks] == ["left line 0 of", "Overwhelmingly"]


def test_definitions_hang_under_their_bold_terms_and_lettered_steps_are_items():
    # Every first line runs to x 265 (a full line): only the hang tells the items apart.
    window = "— the flap that hides one scenario on".ljust(42, "x")  # from 76
    chain = "— a storyline of one colour, followed".ljust(43, "y")  # from 71.5
    chars = _chars("Chapter", 40, 30, 18)
    chars += _chars("Window", 40, 60, bold=True) + _chars(window, 76, 60)
    chars += _chars("the chart until it is unlocked.", 49, 72)
    chars += _chars("Chain", 40, 84, bold=True) + _chars(chain, 71.5, 84)
    chars += _chars("or not, as the party likes.", 49, 96)
    chars += _chars("Then, in this order:", 40, 114)
    chars += _chars("a) Tear off the window along its".ljust(50, "z"), 40, 126)
    chars += _chars("perforation.", 53.5, 138)
    _, blocks = layout([_page(0, chars)])
    assert [b.text for b in blocks] == [
        f"Window {window} the chart until it is unlocked.",
        f"Chain {chain} or not, as the party likes.",
        "Then, in this order:",
        "a) Tear off the window along its".ljust(50, "z") + " perforation.",
    ]


def test_margin_notes_are_boxes_read_after_the_text_they_stand_beside():
    chars = _chars("Chapter", 40, 30, 18)
    # A column of small print beside the text's two columns: two notes, each under a "Tip:".
    notes = _chars("Tip:", 40, 60, 7, bold=True) + _chars("Tear slowly, from one corner", 60, 60, 7)
    notes += [
        c
        for i in range(5)
        for c in _chars(f"of the window, line {i} of the tip.", 40, 69 + 9 * i, 7)
    ]
    notes += _chars("Tip:", 40, 120, 7, bold=True) + _chars(
        "Keep the map neat and tidy", 60, 120, 7
    )
    notes += [
        c
        for i in range(5)
        for c in _chars(f"for later, line {i} of the second.", 40, 129 + 9 * i, 7)
    ]
    rows = ["the text's own column, line " + f"{i:02d} ".ljust(17, "t") for i in range(25)]
    text = _column(170, 60, rows) + _column(390, 60, [r.replace("t", "u") for r in rows])
    _, blocks = layout([_page(0, chars + notes + text)])
    assert [(b.kind, b.title or "") for b in blocks] == [
        ("paragraph", ""),
        ("box", "Tip:"),
        ("box", "Tip:"),
    ]
    assert blocks[1].text.startswith("Tear slowly, from one corner of the window, line 0")


def test_a_footnote_mark_stays_out_of_the_text_and_its_note_takes_the_section_it_marks():
    # A raised "1" after a sentence (and a raised "nd" after a 2, a word's part); the note in
    # small print at the foot of the left column, led by its raised mark; the paragraph over
    # it runs on into the right column.
    line = "A first paragraph ends on the 2".ljust(50, "a")
    chars = _chars("The Book", 40, 20, 22) + _chars("Chapter", 40, 40, 16)
    chars += _chars("Marked", 40, 60, bold=True)
    chars += _chars(line, 40, 76) + _chars("nd", 265, 72, 6)
    chars += _chars("line with a note.", 40, 88) + _chars("1", 116.5, 84, 6)
    chars += _chars("Beside", 40, 110, bold=True)
    chars += _column(
        40, 126, [f"the second paragraph, its line {i:02d} ".ljust(50, "b") for i in range(20)]
    )
    chars += _chars("1", 40, 372, 5) + _chars("The note, set small at the foot.", 44, 375, 7)
    right = [f"and it goes on in the right column {i:02d} ".ljust(50, "c") for i in range(12)]
    chars += _column(320, 60, [*right, "to its end."])
    _, blocks = layout([_page(0, chars)])
    assert [(b.section, b.text[:20]) for b in blocks] == [
        ("Chapter > Marked", "A first paragraph en"),
        ("Chapter > Marked", "The note, set small "),
        ("Chapter > Beside", "the second paragraph"),
    ]
    assert blocks[0].text == f"{line}nd line with a note."
    assert blocks[1].text == "The note, set small at the foot."
    assert blocks[2].text.endswith(f"{right[-1]} to its end.")


def test_a_quotation_set_in_under_a_heading_in_a_face_of_its_own_is_one_paragraph():
    grey = 0x605850
    quote = ["\u201cThe old handler swears the foxes came", "to him of their own accord, and nobody",
             "argues, because the foxes bite.\u201d"]  # fmt: skip
    chars = _chars("The Book", 40, 30, 22) + _chars("Pets and Stables", 40, 60, 16)
    for i, text in enumerate(quote):
        chars += _chars(text, 60, 80 + 12 * i, font="Italic", colour=grey)
    chars += _column(40, 124, ["Once the party has built the Stables, it may keep pets."] * 3)
    _, blocks = layout([_page(0, chars)])
    assert [(b.section, b.text[:25]) for b in blocks] == [
        ("Pets and Stables", quote[0][:25]),
        ("Pets and Stables", "Once the party has built "),
    ]
    assert blocks[0].text == " ".join(quote)


def test_a_box_titled_continued_goes_on_the_box_of_that_title_before_it():
    # The box ends the first page's right column and goes on at the top of the second's left
    # column under its title and "(continued)"; a body paragraph fills the rest.
    body = [f"body text of the page, its line {i:02d} ".ljust(50, "d") for i in range(24)]
    first = _column(40, 60, body) + _column(320, 60, body[:14])
    first += _chars("Example: A Fox", 330, 240, 7, bold=True)
    first += _chars("The party meets a fox and is attack-", 330, 250, 7)
    second = _chars("Example: A Fox (continued)", 50, 60, 7, bold=True)
    second += _chars("ing her when the round ends.", 50, 70, 7)
    second += _column(40, 100, body[:10]) + _column(320, 60, body)
    pages = []
    for number, (chars, rect) in enumerate(
        [(first, (325.0, 230.0, 590.0, 262.0)), (second, (45.0, 50.0, 310.0, 80.0))]
    ):
        lines, gutters = lines_of(number, WIDTH, chars)
        pages.append(Page(WIDTH, HEIGHT, lines, [rect], number, gutters))
    _, blocks = layout(pages)
    boxes = [(b.title, b.text) for b in blocks if b.kind == "box"]
    assert boxes == [
        ("Example: A Fox", "The party meets a fox and is attacking her when the round ends.")
    ]


def test_a_text_column_that_holds_a_box_of_small_print_is_read_before_the_next():
    # More of the left column is a small-print box than body text: it is still a column of
    # the text, as wide as the right one, not a margin of notes read last.
    left = _chars("Example: Reading One Card", 40, 60, 7, bold=True)
    left += [
        c
        for i in range(16)
        for c in _chars(f"small print {i:02d} ".ljust(70, "e"), 40, 70 + 9 * i, 7)
    ]
    left += _column(40, 230, [f"left body line {i} ".ljust(50, "f") for i in range(6)])
    right = _column(320, 60, [f"right body line {i:02d} ".ljust(50, "g") for i in range(22)])
    page = _page(0, left + right)
    order = [ln.text.split()[0] for ln in reading_order(page.lines)]
    assert order.index("right") > order.index("left")


def test_a_footer_naming_each_page_s_chapter_is_left_out_under_a_continued_note_too():
    # The foot names the chapter in effect (another text on each page) at one height; two
    # pages also print "continued overleaf" just above it, so the foot is not the only line
    # set apart there.
    pages = []
    for i, chapter in enumerate(["Monsters", "Shields", "Summons"]):
        chars = _chars(f"Guide {10 + i}", 40, 30, 7)
        chars += _column(
            40, 80, [f"body {'abc'[i]} line {j:02d} ".ljust(50, "h") for j in range(40)]
        )
        if i < 2:
            chars += _chars("continued overleaf", 200, 591, 7)
        chars += _chars(chapter, 120, 600, 7)
        pages.append(_page(i, chars))
    _, blocks = layout(pages)
    text = " ".join(b.text for b in blocks)
    assert not any(word in text for word in ("Monsters", "Shields", "Summons", "overleaf"))


def test_a_compound_broken_at_one_of_its_hyphens_keeps_it_and_a_word_broken_joins():
    chars = _chars("Chapter", 40, 30, 18)
    chars += _chars("Every character loots at its turn's end: this end-".rjust(54, " "), 40, 60)
    chars += _chars("of-turn looting needs no move, and the loot is car-", 40, 72)
    chars += _chars("ried off.", 40, 84)
    _, blocks = layout([_page(0, chars)])
    assert "this end-of-turn looting" in blocks[0].text
    assert "the loot is carried off." in blocks[0].text


def test_a_thumb_tab_s_number_beside_the_columns_is_no_text_and_no_heading():
    pages = []
    for i, chapter in enumerate(["3", "4"]):
        chars = _opening("Chapter") if i == 0 else []
        chars += _column(
            40, 80, [f"body {'ab'[i]} line {j:02d} ".ljust(50, "k") for j in range(30)]
        )
        chars += _chars(chapter, 592 if i % 2 else 2, 120 + 60 * i, 12, bold=True, colour=0xFFFFFF)
        chars += _chars(str(64 + i), 40, 780, 8)
        pages.append(_page(i, chars))
    _, blocks = layout(pages)
    assert [(b.section, b.page) for b in blocks] == [("Chapter", "64")]
    assert not re.search(r"\b[34]\b", blocks[0].text)


def test_a_box_title_a_little_larger_than_its_small_print_still_opens_the_box():
    chars = _chars("Chapter", 40, 30, 18)
    chars += _column(40, 60, ["A paragraph of body text that runs the whole width here."] * 3)
    chars += _chars("Teaching Tip", 60, 110, 8.6, bold=True, colour=0x403378)
    chars += _chars("Set small, this tip is a box of its own, and it", 60, 121, 7.5)
    chars += _chars("ends on this line.", 60, 130, 7.5)
    chars += _chars("Body text again, after the box, is another paragraph now.", 40, 150)
    _, blocks = layout([_page(0, chars)])
    assert [(b.kind, b.title or "") for b in blocks] == [
        ("paragraph", ""),
        ("box", "Teaching Tip"),
        ("paragraph", ""),
    ]


def test_a_coloured_q_and_a_lead_is_no_run_in_heading():
    purple = 0x6B295C
    chars = _opening("Chapter", 35)
    chars += _chars("Questions", 40, 60, bold=True)
    chars += _chars("Q:", 40, 80, bold=True, colour=purple) + _chars("May we drop it?", 54, 80)
    chars += _chars("A:", 40, 98, bold=True, colour=purple) + _chars("Yes, at any time.", 54, 98)
    _, blocks = layout([_page(0, chars)])
    assert [(b.section, b.text) for b in blocks] == [
        ("Chapter > Questions", "Q: May we drop it?"),
        ("Chapter > Questions", "A: Yes, at any time."),
    ]


def test_lines_set_short_beside_a_picture_run_on_in_their_paragraph():
    # Justified to x 265; the first four lines end together at x 175 (a picture beside them).
    short = [f"short line {i} beside it ".ljust(30, "m") for i in range(4)]
    full = [f"full line {i} of the column ".ljust(50, "n") for i in range(6)]
    chars = _chars("Chapter", 40, 30, 18) + _column(40, 60, short + full)
    chars += _chars("A second paragraph starts here.", 40, 192)
    _, blocks = layout([_page(0, chars)])
    assert [b.text[:12] for b in blocks] == ["short line 0", "A second par"]


def test_a_heading_in_colour_ranks_above_one_in_black_of_about_its_size():
    chars = _chars("The Book", 40, 20, 22) + _chars("Chapter", 40, 45, 16)
    chars += _chars("Section", 40, 70, 10.5, bold=True, colour=0x403378)
    chars += _chars("A paragraph in the section, ending here.", 40, 86)
    chars += _chars("Subsection", 40, 106, 10.6, font="BoldItalic", bold=True)
    chars += _chars("A paragraph in the subsection, ending here.", 40, 122)
    _, blocks = layout([_page(0, chars)])
    assert [b.section for b in blocks] == ["Chapter > Section", "Chapter > Section > Subsection"]


def test_numbered_rules_hang_their_lines_under_the_text_and_keep_a_cross_reference():
    # "6.1" in a lane at x 40, the rule's text from x 62, its later lines there too.
    chars = _opening("Resting", 35)
    chars += _chars("6.1", 40, 60, 7) + _chars(
        "A rest brings discarded cards back".ljust(45, "p"), 62, 60
    )
    chars += _chars("to the hand, and it always costs one".ljust(45, "q"), 62, 72)
    chars += _chars("card.", 62, 84)
    chars += _chars("See also 6.7 (p. 247).", 62, 96, font="Italic", colour=0x8A4B1C)
    chars += _chars("6.2", 40, 110) + _chars(
        "A short rest is taken at the end of".ljust(45, "r"), 62, 110
    )
    chars += _chars("a round.", 62, 122)
    _, blocks = layout([_page(0, chars)])
    assert [b.text[:10] for b in blocks] == ["6.1 A rest", "6.2 A shor"]
    assert blocks[0].text.endswith("card. See also 6.7 (p. 247).")


def test_a_band_s_small_label_is_read_into_the_title_set_large_on_it():
    chars = _chars("The Book", 40, 20, 22)
    band = _chars("CHAPTER 6", 40, 60, 7, colour=0xE0A050) + _chars(
        "Resting", 40, 84, 16, colour=0xFFFFFF
    )
    body = _column(40, 120, ["A paragraph of body text in the chapter, ending here now."] * 3)
    lines, gutters = lines_of(0, WIDTH, chars + band + body)
    page = Page(WIDTH, HEIGHT, lines, [(0.0, 45.0, 600.0, 95.0)], 0, gutters)
    _, blocks = layout([page])
    assert {b.section for b in blocks} == {"CHAPTER 6 Resting"}
    assert not any("CHAPTER" in b.text for b in blocks)


def test_a_box_title_set_on_the_frame_s_top_edge_is_the_box_s_title():
    chars = _chars("The Book", 40, 20, 22) + _chars("Chapter", 40, 45, 16)
    chars += _column(40, 70, ["A paragraph of body text in the chapter, ending here now."] * 3)
    chars += _chars("Example: Paying One Hit Point", 50, 112, bold=True)  # on the edge at 109
    chars += _chars("At the end of round five the character rests.", 50, 126)
    lines, gutters = lines_of(0, WIDTH, chars)
    page = Page(WIDTH, HEIGHT, lines, [(45.0, 109.0, 320.0, 140.0)], 0, gutters)
    _, blocks = layout([page])
    assert [(b.kind, b.title or "") for b in blocks] == [
        ("paragraph", ""),
        ("box", "Example: Paying One Hit Point"),
    ]


def test_a_running_header_printed_on_one_page_only_is_left_out_when_it_names_the_book():
    # Chapters open pages of their own without a header: only the second page prints one,
    # the book's title up to its colon and the chapter's heading.
    first = _chars("Stamina Manual: Resting and", 40, 20, 22) + _chars("Resting", 40, 50, 16)
    first += _column(40, 80, [f"body a line {j:02d} ".ljust(50, "s") for j in range(40)])
    second = _chars("Resting", 40, 20, 7) + _chars("Stamina Manual", 400, 20, 7)
    second += _column(40, 60, [f"body b line {j:02d} ".ljust(50, "t") for j in range(40)])
    third = _chars("Exhaustion", 40, 50, 16)
    third += _column(40, 80, [f"body c line {j:02d} ".ljust(50, "u") for j in range(40)])
    _, blocks = layout([_page(i, chars) for i, chars in enumerate([first, second, third])])
    assert [b.section for b in blocks] == ["Resting", "Exhaustion"]
    assert "Stamina" not in " ".join(b.text for b in blocks)


def test_a_pull_quote_between_the_columns_repeating_the_text_is_no_block():
    quote = "A short rest keeps your pace."
    left = [f"left line {i:02d} of the column ".ljust(50, "v") for i in range(24)]
    left[20] = f"{quote} And so on".ljust(50, "v")
    right = [f"right line {i:02d} of the column ".ljust(50, "w") for i in range(24)]
    chars = _opening("Chapter", 35)
    for i in range(24):
        short = 6 <= i <= 8  # the lines beside the quote stop (left) or start (right) by it
        chars += _chars(left[i][:30] if short else left[i], 40, 60 + 12 * i)
        chars += _chars(right[i][:30] if short else right[i], 420 if short else 320, 60 + 12 * i)
    chars += _chars(quote, 200, 146, 14, font="Italic")
    _, blocks = layout([_page(0, chars)])
    assert [b.text[:10] for b in blocks] == ["left line "]
    assert "A short rest keeps your pace. And so" in blocks[0].text
    assert blocks[0].text.count(quote) == 1


def test_a_header_on_two_pages_only_at_their_edge_is_left_out():
    # Five pages; the three that open chapters print no header, the other two the same one.
    pages = []
    for i in range(5):
        chars = [] if i % 2 == 0 else _chars("STAMINA GUIDE - REFERENCE", 40, 20, 7)
        if i % 2 == 0:
            chars += _chars(f"Chapter {i // 2 + 1}", 40, 50, 16)
        rows = [f"page {i} body line {j:02d} ".ljust(50, "x") for j in range(40)]
        chars += _column(40, 80, rows)
        pages.append(_page(i, chars))
    _, blocks = layout(pages)
    assert "STAMINA" not in " ".join(b.text for b in blocks)


def test_a_numbered_rule_runs_on_in_a_column_that_holds_only_its_last_lines():
    # 6.5 starts at the foot of the left column; the right column holds only its last lines,
    # set where its text starts, with no rule number to measure the lane from.
    chars = _opening("Chapter", 35)
    for i in range(20):
        chars += _chars(f"6.{i + 1}" if i % 4 == 0 else "", 40, 60 + 12 * i, 7)
        end = "." if i % 4 == 3 else "y"  # each rule's last line ends its sentence
        chars += _chars(f"rule text line {i:02d} ".ljust(44, "y") + end, 62, 60 + 12 * i)
    chars += _column(342, 60, [f"its last lines {j} ".ljust(45, "z") for j in range(3)] + ["end."])
    _, blocks = layout([_page(0, chars)])
    assert [b.text[:8] for b in blocks] == [
        "6.1 rule",
        "6.5 rule",
        "6.9 rule",
        "6.13 rul",
        "6.17 rul",
    ]
    assert blocks[-1].text.endswith("end.")


def _turned(text: str, x: float, y: float, size: float = 8.0) -> list[Char]:
    """A line turned a quarter to read from the page's foot up, its letters' origins on `x`,
    from `y` up (a running header along the page's outer edge)."""
    out, step = [], 0.5 * size
    for c in text:
        if c != " ":
            out.append(Char(c, x - 0.75 * size, x + 0.2 * size, y - step, y, "Regular", size,
                            baseline=x, angle=3 * math.pi / 2, along=-y))  # fmt: skip
        y -= step
    return out


def test_a_page_number_and_header_turned_along_the_edge_are_read_as_furniture():
    # No horizontal header or footer: each page prints its number, the book's name and its
    # chapter turned along the outer edge (right on odd pages, left on even ones).
    pages = []
    for i in range(3):
        chars = _chars("The Book", 60, 10, 22) + _chars("Chapter", 60, 40, 16) if i == 0 else []
        chars += _column(
            60, 80, [f"body {'abc'[i]} line {j:02d} ".ljust(50, "m") for j in range(30)]
        )
        edge = 20 if i % 2 else 580
        turned = _turned(str(57 + i), edge, 760) + _turned("Campaign Companion", edge, 600)
        turned += _turned("Chapter", edge, 200)
        lines, gutters = lines_of(i, WIDTH, chars)
        pages.append(Page(WIDTH, HEIGHT, lines, [], i, gutters, turned_lines(i, turned)))
    assert [ln.text for ln in pages[0].turned] == ["57", "Campaign Companion", "Chapter"]
    printed, _ = printed_numbers(pages)
    assert printed == {0: "57", 1: "58", 2: "59"}
    _, blocks = layout(pages)
    assert [(b.section, b.page) for b in blocks] == [("Chapter", "57")]
    assert "Companion" not in blocks[0].text and not re.search(r"\b5[789]\b", blocks[0].text)


def _side_head(words: list[str], right: float, baseline: float, **style) -> list[Char]:
    """A side head set flush right at `right`, smaller than the text, line under line."""
    return [
        c for i, w in enumerate(words)
        for c in _chars(w, right - 3.5 * len(w), baseline + 9 * i, 7, **style)
    ]  # fmt: skip


def test_side_heads_in_a_lane_beside_the_text_are_headings_and_a_box_s_title_there_its_own():
    # Two columns, each with a lane at its left (left column: lane 40-100, text 110-290;
    # right: lane 300-370, text 380-560). Side heads, bold and coloured and smaller than the
    # text, stand flush right in the lane, their first line on the baseline of the first line
    # of the paragraph beside them; the right column's lane starts a gap of 14 pt from the
    # left column's lines, short of half the band between the columns' text.
    head = dict(bold=True, colour=0x446611)
    text = [f"text of the first part {j} ".ljust(40, "p") for j in range(5)]
    chars = _opening("Chapter")
    chars += _column(110, 80, text)
    chars += _chars("and the first part ends.", 110, 140)
    second = [f"text of the second part {j} ".ljust(40, "q") for j in range(6)]
    chars += _side_head(["Who Keeps", "the Board"], 100, 164, **head)
    chars += _column(110, 164, second) + _chars("and the second part ends.", 110, 236)
    third = [f"text of the third part {j} ".ljust(40, "r") for j in range(7)]
    chars += _side_head(["Hidden", "Hands Over", "a Call"], 370, 80, **head)
    chars += _column(380, 80, third) + _chars("and the third part ends.", 380, 164)
    chars += _side_head(["Example:", "One Round"], 370, 190, bold=True, colour=0x446611)
    chars += _chars("Ana plays from afar and the host", 390, 190, 7)
    chars += _chars("reads her cards out aloud to her.", 390, 199, 7)
    lines, gutters = lines_of(0, WIDTH, chars)
    _, blocks = layout([Page(WIDTH, HEIGHT, lines, [(384.0, 182.0, 560.0, 205.0)], 0, gutters)])
    assert [(b.section, b.kind, b.title, b.text[:23]) for b in blocks] == [
        ("Chapter", "paragraph", None, "text of the first part "),
        ("Chapter > Who Keeps the Board", "paragraph", None, "text of the second part"),
        ("Chapter > Hidden Hands Over a Call", "paragraph", None, "text of the third part "),
        (
            "Chapter > Hidden Hands Over a Call",
            "box",
            "Example: One Round",
            "Ana plays from afar and",
        ),
    ]
    assert blocks[1].text.endswith("and the second part ends.") and "Board" not in blocks[1].text


def test_in_a_book_that_parts_paragraphs_with_space_a_callout_on_its_own_line_runs_on():
    # Paragraphs parted by 6 pt of space, none indented; one sets its closing sentence on a
    # line of its own in bold red, right under its short line: still that paragraph (where
    # paragraphs are indented, a short line ends one, as a test above says).
    chars = _opening("Chapter")
    y = 80.0
    for p in range(8):
        chars += _column(40, y, [f"paragraph {p} line {j} ".ljust(50, "s") for j in range(3)])
        chars += _chars(f"and paragraph {p} ends.", 40, y + 36)
        y += 48
        if p == 2:
            chars += _chars(
                "Important: a callout in bold red ends it.", 40, y, bold=True, colour=0xCC1111
            )
            y += 12
        y += 6
    _, blocks = layout([_page(0, chars)])
    assert [b.text[:11] for b in blocks] == [f"paragraph {p}" for p in range(8)]
    assert blocks[2].text.endswith(
        "and paragraph 2 ends. Important: a callout in bold red ends it."
    )


def test_a_two_line_footer_beside_a_page_number_set_large_is_left_out():
    # The book's name over its chapter in small print, beside the page number set large, 20 pt
    # under the text: on six pages, each chapter's name on two of them only.
    pages = []
    for i in range(6):
        chars = _opening("Chapter") if i == 0 else []
        rows = [f"body {'abcdef'[i]} line {j:02d} ".ljust(50, "y") for j in range(40)]
        chars += _column(40, 80, rows)
        chars += _chars(str(31 + i), 40, 583, 15, bold=True)
        chars += _chars("Table Notes", 80, 576, 7, bold=True)
        chars += _chars(["Chapter", "Second Part", "Third Part"][i // 2], 80, 583, 7)
        pages.append(_page(i, chars))
    printed, _ = printed_numbers(pages)
    assert printed == {i: str(31 + i) for i in range(6)}
    _, blocks = layout(pages)
    assert [b.section for b in blocks] == ["Chapter"]
    assert not re.search(r"Table Notes|Chapter|Part", blocks[0].text)


def test_a_chapter_heading_across_the_columns_mid_page_parts_them_and_takes_its_numeral():
    # The columns stop, balanced, above a chapter's heading set across them (it is short: its
    # words stay in the left column's width), and go on below it; a large pale numeral stands
    # at the right, behind the heading's height.
    above = [f"first chapter line {i} ".ljust(50, "a") for i in range(6)]
    below = [f"second chapter line {i} ".ljust(50, "b") for i in range(6)]
    chars = _opening("First")
    chars += _column(40, 70, above[:3]) + _column(320, 70, above[3:])
    chars += _chars("Second", 40, 130, 16) + _chars("6", 530, 136, 48, colour=0xDDE4F0)
    chars += _column(40, 160, below[:3]) + _column(320, 160, below[3:])
    chars += _chars("31", 300, 780, 8)
    _, blocks = layout([_page(0, chars)])
    assert [(b.page, b.section, b.text) for b in blocks] == [
        ("31", "First", " ".join(above)),
        ("31", "6 Second", " ".join(below)),
    ]


def test_a_box_s_title_on_a_folder_tab_above_its_fill_is_its_title():
    chars = _opening("Chapter")
    chars += _column(40, 70, ["A paragraph of body text in the chapter, ending here now."] * 3)
    chars += _chars("Example: A Tab", 50, 118, bold=True, colour=0xFFFFFF)
    chars += _chars("At the end of round five the character rests.", 50, 136)
    lines, gutters = lines_of(0, WIDTH, chars)
    tab, fill = (45.0, 108.0, 130.0, 122.0), (45.0, 121.0, 320.0, 150.0)
    page = Page(WIDTH, HEIGHT, lines, merge_fills([tab, fill], WIDTH * HEIGHT), 0, gutters)
    _, blocks = layout([page])
    assert [(b.kind, b.title or "", b.text[:6]) for b in blocks] == [
        ("paragraph", "", "A para"),
        ("box", "Example: A Tab", "At the"),
    ]


def test_a_table_of_contents_and_its_label_are_no_text():
    chars = _chars("The Book", 40, 10, 22) + _chars("CONTENTS", 40, 40, 7, bold=True)
    for i, (title, page) in enumerate([("Resting", 3), ("Looting and Treasure", 7)]):
        chars += _chars(
            f"{i + 1} {title} " + ". " * (20 - len(title) // 2) + str(page), 40, 52 + 12 * i
        )
    chars += _chars("Resting", 40, 100, 16)
    chars += _column(40, 130, ["A paragraph of body text in the chapter, ending here now."] * 3)
    _, blocks = layout([_page(0, chars)])
    assert [(b.section, b.text[:11]) for b in blocks] == [("Resting", "A paragraph")]


def test_a_page_printed_light_on_dark_reads_as_the_others():
    # The second page's text is light (on a dark ground, a fill over the whole page): its
    # lines, each set apart from the book's dark text by colour alone, are no headings.
    pages = []
    for i, colour in enumerate((0x222222, 0xEEEEEE)):
        chars = _chars("The Book", 40, 10, 22, colour=0x222222) if i == 0 else []
        chars += _chars("Chapter" if i == 0 else "Dark Chapter", 40, 40, 16, colour=colour)
        rows = [f"page {'ab'[i]} line {j:02d} ".ljust(50, "z") for j in range(60)]
        rows[20] = f"What party {'ab'[i]} takes along"  # a paragraph of one line, spaced
        for j, text in enumerate(rows):
            gap = 8 * (20 <= j < 30) + 8 * (21 <= j < 30)
            chars += _chars(text, 40 if j < 30 else 320, 70 + 12 * (j % 30) + gap, colour=colour)
        chars += _chars(str(5 + i), 300, 780, 8, colour=colour)
        pages.append(_page(i, chars))
    _, blocks = layout(pages)
    assert [(b.section, b.text[:11]) for b in blocks] == [
        (section, text)
        for section, page in (("Chapter", "a"), ("Dark Chapter", "b"))
        for text in (f"page {page} line", "What party ", f"page {page} line")
    ]


def test_a_heading_in_capitals_ranks_above_one_a_little_larger_in_lower_case():
    chars = _opening("Chapter")
    chars += _chars("BASES AND FINISH", 40, 70, 9.4, bold=True, colour=0xB84517)
    chars += _column(40, 88, ["A paragraph of body text in the section, ending here."] * 2)
    chars += _chars("Snow on the Base", 40, 124, 9.9, bold=True, font="BoldItalic")
    chars += _column(40, 142, ["A paragraph of body text in the subsection, ending now."] * 2)
    _, blocks = layout([_page(0, chars)])
    assert [b.section for b in blocks] == [
        "Chapter > BASES AND FINISH",
        "Chapter > BASES AND FINISH > Snow on the Base",
    ]


def test_at_one_size_a_bold_heading_ranks_above_one_in_italics():
    # twentysecond (Typst): sections in bold small capitals, subsections in italics, both at
    # the same size, each in a colour of its own.
    chars = _opening("Chapter")
    chars += _chars("Forty-Five Minutes", 40, 70, 10.8, bold=True, colour=0x1F5F66)
    chars += _column(40, 88, ["A paragraph of body text in the section, ending here."] * 2)
    chars += _chars("Where to Stop", 40, 124, 10.8, font="Italic", colour=0xA4502A)
    chars += _column(40, 142, ["A paragraph of body text in the subsection, ending now."] * 2)
    _, blocks = layout([_page(0, chars)])
    assert [b.section for b in blocks] == [
        "Chapter > Forty-Five Minutes",
        "Chapter > Forty-Five Minutes > Where to Stop",
    ]


def test_a_title_over_three_lines_and_a_ragged_summary_in_italics_are_read_so():
    chars = _chars("Workshop Notes: Painted", 40, 20, 22) + _chars("Figures, Homemade", 40, 46, 22)
    chars += _chars("Scenarios and the Club", 40, 72, 22) + _chars("Painting", 40, 110, 16)
    # Set ragged in a column justified at x 265: "spread" would not have fit after line two.
    summary = [
        "A painted figure is far easier to spot on",
        "the crowded map, and the work can be",
        "spread over the whole campaign.",
    ]
    chars += [
        c for j, t in enumerate(summary) for c in _chars(t, 40, 134 + 14 * j, 11, font="Italic")
    ]
    chars += _column(
        40, 180, [f"body line {j:02d} of the chapter ".ljust(50, "q") for j in range(6)]
    )
    title, blocks = layout([_page(0, chars)])
    assert title == "Workshop Notes: Painted Figures, Homemade Scenarios and the Club"
    assert [(b.section, b.text[:18]) for b in blocks] == [
        ("Painting", "A painted figure i"),
        ("Painting", "body line 00 of th"),
    ]
    assert blocks[0].text.endswith("and the work can be spread over the whole campaign.")


def test_a_note_under_its_paragraph_hangs_its_lines_after_its_star():
    chars = _opening("Chapter")
    chars += _column(
        40, 70, [f"body line {j:02d} of the paragraph ".ljust(50, "n") for j in range(4)]
    )
    chars += _chars("and the paragraph ends here.*", 40, 118)
    chars += _chars("* We name no brands or ranges here, and any paint will do as", 40, 132, 7.5)
    chars += _chars("long as it is sold for models, for a first try.", 47.5, 141, 7.5)
    chars += _column(
        40, 160, [f"next line {j:02d} of the chapter ".ljust(50, "o") for j in range(4)]
    )
    _, blocks = layout([_page(0, chars)])
    assert [b.text[:20] for b in blocks] == [
        "body line 00 of the ",
        "We name no brands or",
        "next line 00 of the ",
    ]
    assert blocks[1].text.endswith(
        "any paint will do as long as it is sold for models, for a first try."
    )


@pytest.mark.parametrize("heading, lead, hang, section", [
    # "4.2.1" goes on the number of the heading in effect: a heading run into its paragraph,
    # whose lines go on at the column's edge (no numbered item hanging its lines).
    ("4.2 Sharing the Work", "4.2.1 The Rules Reader —", 0,
     "4.2 Sharing the Work > 4.2.1 The Rules Reader"),
    # Under an unnumbered heading, a rule's number and its bold term: no section (the rule's
    # lines hang under its text, after the number, as numbered rules are set).
    ("A Week in the Outpost", "1.2 PASSAGE OF TIME.", 4, "A Week in the Outpost"),
])  # fmt: skip
def test_a_bold_lead_after_an_outline_number_is_a_section_under_a_numbered_heading(
    heading, lead, hang, section
):
    # Every line 49 characters (4.5 pt each) from x 40, the first one too: none ends short.
    number, term = lead.split(" ", 1)
    chars = _chars("The Book", 40, 10, 22) + _chars(heading, 40, 40, 12, bold=True)
    chars += _chars(number, 40, 64, bold=True, colour=0x2B4585)
    chars += _chars(term, 40 + 4.5 * (len(number) + 1), 64, bold=True)
    rest = "and so the paragraph".ljust(48 - len(lead), "w")
    chars += _chars(rest, 40 + 4.5 * (len(lead) + 1), 64)
    lines = [f"line {j} of the lead's paragraph, ".ljust(49 - hang, "r") for j in range(3)]
    chars += _column(40 + 4.5 * hang, 76, lines) + _chars("and it ends here.", 40 + 4.5 * hang, 112)
    _, blocks = layout([_page(0, chars)])
    assert [(b.section, b.text[: len(lead)]) for b in blocks] == [(section, lead)]
    assert blocks[0].text.endswith("and it ends here.")


def test_a_box_across_both_columns_neither_hides_their_gutter_nor_ends_the_paragraph():
    # Page one ends mid-paragraph at its right column's foot; page two opens with an example
    # set across both columns, then the paragraph goes on in the left column, and the right
    # column is short.
    first = _opening("Chapter")
    rows = [f"first page line {j:02d} of the text ".ljust(50, "f") for j in range(60)]
    for j, text in enumerate(rows):
        first += _chars(text, 40 if j < 30 else 320, 70 + 12 * (j % 30))
    second = _chars("Example: Three Scenarios in a Cabin", 50, 40, 8, bold=True)
    for j in range(5):
        second += _chars(
            f"box line {j} of an example set across both columns ".ljust(120, "b"),
            50,
            50 + 10 * j,
            8,
        )
    left = [f"second page line {j:02d} on the left ".ljust(50, "s") for j in range(30)]
    right = [f"second page line {j:02d} on the right ".ljust(50, "t") for j in range(8)]
    second += _column(40, 120, left) + _column(320, 120, right)
    pages = []
    for number, (chars, rects) in enumerate([(first, []), (second, [(45.0, 30.0, 560.0, 100.0)])]):
        lines, gutters = lines_of(number, WIDTH, chars, rects)
        pages.append(Page(WIDTH, HEIGHT, lines, rects, number, gutters))
    assert len(pages[1].gutters) == 1
    _, blocks = layout(pages)
    # The paragraph read on past the box is read after it, as past a footnote.
    assert [(b.kind, b.text[:16]) for b in blocks] == [
        ("box", "box line 0 of an"),
        ("paragraph", "first page line "),
    ]
    assert "first page line 59" in blocks[1].text
    assert re.search(r"second page line 07 on the right t+$", blocks[1].text)


def test_paragraphs_that_hang_their_first_line_part_where_a_line_stands_out_to_the_left():
    # No gap and no indent: each paragraph's first line starts at the column's edge and the
    # rest stand 11 pt in; the right column holds only the last paragraph's last lines.
    chars = _opening("Chapter")
    y = 70
    for p in range(5):
        chars += _chars(f"paragraph {p} starts out at the edge ".ljust(52, "h"), 40, y)
        for j in range(3):
            chars += _chars(f"and its line {j} stands in ".ljust(50, "i"), 51, y + 12 * (j + 1))
        y += 48
    chars += _column(331, 70, [f"and its line {j} goes on there ".ljust(50, "j") for j in range(4)])
    _, blocks = layout([_page(0, chars)])
    assert [b.text[:11] for b in blocks] == [f"paragraph {p}" for p in range(5)]
    assert blocks[4].text.endswith("and its line 3 goes on there " + "j" * 21)


def test_a_heading_on_a_pill_lower_than_a_box_is_a_heading_whatever_its_size():
    # White on a rounded fill 14 pt high, a little smaller than the text: a section's heading.
    chars = _opening("Chapter")
    chars += _chars("Small Touches", 46, 74, 8.5, bold=True, colour=0xFFFFFF)
    chars += _column(40, 94, ["A paragraph of body text in the section, ending here."] * 2)
    lines, gutters = lines_of(0, WIDTH, chars)
    page = Page(WIDTH, HEIGHT, lines, [], 0, gutters)
    on_strips(page.lines, [(42.0, 65.0, 110.0, 79.0)])
    _, blocks = layout([page])
    assert [b.section for b in blocks] == ["Chapter > Small Touches"]


@pytest.mark.parametrize("spaced", [True, False])
def test_a_table_of_three_cells_is_read_row_by_row_in_its_paragraph(spaced):
    # A paragraph ending in a colon, a table of three cells (the last one wraps; the first two
    # set close enough to read as one line) with or without space between its rows, then after
    # a gap a short line where the first cell starts and the next paragraph.
    chars = _opening("Chapter")
    chars += _column(40, 70, ["The costs of the three kinds of stone are these:"])
    rows = [
        ("Kind", "Cost", ["What it does"]),
        ("Granite", "3", ["Holds a wall for the", "whole campaign"]),
        ("Slate", "2", ["Holds a roof"]),
        ("Chalk", "1", ["Crumbles after one", "winter, then is gone"]),
    ]
    y = 90.0
    for kind, cost, what in rows:
        chars += _chars(kind, 40, y) + _chars(cost, 85, y)
        chars += _column(130, y, what)
        y += 12 * len(what) + (8 if spaced else 0)
    chars += _column(40, y + 10, ["No stone lasts.", "A later paragraph, no part of the table."])
    _, blocks = layout([_page(0, chars)])
    assert [b.text for b in blocks] == [
        "The costs of the three kinds of stone are these: Kind Cost What it does Granite 3 Holds"
        " a wall for the whole campaign Slate 2 Holds a roof Chalk 1 Crumbles after one winter,"
        " then is gone",
        "No stone lasts.",
        "A later paragraph, no part of the table.",
    ]


def test_two_cells_side_by_side_twice_are_no_table():
    # A term beside its first definition line on only two baselines: a list, read as before.
    chars = _opening("Chapter")
    y = 70.0
    for term in ("Granite", "Slate"):
        chars += _chars(term, 40, y) + _column(130, y, ["Holds a wall for the", "whole campaign"])
        y += 32
    _, blocks = layout([_page(0, chars)])
    assert "Granite Holds a wall" not in " ".join(b.text for b in blocks)


def test_text_scaled_by_the_page_is_read_at_its_printed_size_and_hyphens_rejoined(tmp_path):
    # A browser sets its text in pixels and scales the page by 0.75 into points: the font says
    # 13.33, the page prints 10 pt. Its word spaces (a fifth of the printed size) are read as
    # spaces, and U+2010 (how a browser prints a soft hyphen's break) as the hyphen that the
    # blocks' text rejoins at a line end.
    import pypdfium2 as pdfium
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas

    from indexer.archive.sources.pdf.page import read_page
    from tests.archive.rulebooks import SYSTEM_FILES, _install

    _install(SYSTEM_FILES)
    pdfmetrics.registerFont(TTFont("DejaVuSans", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"))
    pdf = tmp_path / "scaled.pdf"
    canvas = Canvas(str(pdf), pagesize=(WIDTH, HEIGHT), invariant=True)
    canvas.scale(0.75, 0.75)
    lines = ["The second screen is where a secret is", "told, by a glance at the enhan\u2010",
             "cement stickers on the friend's cards."]  # fmt: skip
    for i, text in enumerate(lines):
        words = text.split(" ")
        x, y = 60.0, (HEIGHT - 100 - 14 * i) / 0.75
        for word in words:  # no space characters, as a browser prints: the gaps alone
            canvas.setFont("DejaVuSans", 13.33)
            canvas.drawString(x, y, word)
            x += pdfmetrics.stringWidth(word, "DejaVuSans", 13.33) + 0.2 * 13.33
    canvas.save()
    page = read_page(pdfium.PdfDocument(pdf)[0], 0)
    assert [ln.text for ln in page.lines] == [t.replace("\u2010", "-") for t in lines]
    assert [round(ln.size, 1) for ln in page.lines] == [10.0] * 3


def test_an_icon_between_a_headings_lines_parts_none_of_them():
    # A chapter's heading over two lines, an icon set in a badge beside them, between them.
    chars = _chars("The Book", 40, 10, 22)
    chars += _chars("Learning a New", 70, 60, 15, bold=True)
    chars += _chars("\u2726", 42, 68, 10, font="ZapfDingbats")
    chars += _chars("Class", 70, 76, 15, bold=True)
    chars += _column(40, 100, ["A paragraph of body text in the chapter, ending here."] * 2)
    _, blocks = layout([_page(0, chars)])
    assert [b.section for b in blocks] == ["Learning a New Class"]


def test_an_introduction_set_large_reads_on_over_a_page_break_as_text():
    # A chapter's introduction set larger than the text, three lines at a page's foot that end
    # no sentence, two more overleaf: text, not a heading wrapped over three lines.
    first = _opening("Chapter")
    intro = [
        "An introduction set large runs",
        "over three lines at the foot of",
        "the page where it then goes",
    ]
    first += _column(40, 700, intro, 11, 14)
    second = _chars("overleaf for two lines more", 40, 60, 11)
    second += _chars("before it ends here.", 40, 74, 11)
    second += _column(
        40, 100, [f"body line {j} of the text set at the body's size " for j in range(30)]
    )
    _, blocks = layout([_page(0, first), _page(1, second)])
    assert blocks[0].section == "Chapter" and blocks[0].text.startswith("An introduction set")
    assert blocks[0].text.endswith("before it ends here.")


def test_a_glossary_term_on_its_own_line_leads_its_hanging_definition():
    # Bold terms on lines of their own, each definition's lines set in 11 pt under it: each
    # term and its definition one block, in the chapter's section (no term is a heading).
    chars = _opening("Glossary")
    y = 70.0
    for term in ("Loss budget", "Rehearsal"):
        chars += _chars(term, 40, y, bold=True)
        definition = [f"the {term.lower()} definition line {j} ".ljust(58, "d") for j in range(3)]
        chars += _column(51, y + 12, definition)
        y += 60
    _, blocks = layout([_page(0, chars)])
    assert [(b.section, b.text[:16]) for b in blocks] == [
        ("Glossary", "Loss budget the "),
        ("Glossary", "Rehearsal the re"),
    ]


def test_a_ragged_passage_in_a_size_of_its_own_breaks_its_lines_within_its_own_measure():
    # A chapter's introduction set larger, ragged within a measure narrower than the column
    # (its longest line reaches x 249, the column's text 315): "cooperation," would fit in
    # the column, not in the passage's measure. Then the text at the body's size.
    chars = _opening("Chapter")
    intro = [
        "A game is only as good as its",
        "cooperation, and the talk at the",
        "makes it a habit.",
    ]
    chars += _column(40, 70, intro, 11, 14)
    chars += _column(40, 120, ["body line of the text set at the body's size " + "b" * 5] * 5)
    chars += _column(330, 70, ["body line of the right column at the body's size " + "r"] * 5)
    _, blocks = layout([_page(0, chars)])
    assert blocks[0].text == " ".join(intro)


def test_a_compound_broken_at_its_hyphen_before_a_capital_keeps_it():
    from indexer.archive.sources.document import Block
    from indexer.archive.sources.pdf.joins import join_texts, join_title

    block = Block("paragraph", "", "1", "")
    join_texts([(block, ["Bring the Home-", "Made Aids and the enhan-", "cement stickers."])])
    assert block.text == "Bring the Home-Made Aids and the enhancement stickers."
    assert (
        join_title("Second-Hand Boxes, Home-", "Made Aids") == "Second-Hand Boxes, Home-Made Aids"
    )


def test_a_justified_line_of_few_words_spread_with_equal_wide_gaps_is_one_line():
    # A narrow justified column: one line holds three long words spread over its width, with
    # equal gaps of eleven letters; the paragraph reads on through it.
    chars = _opening("Chapter")
    text = [
        "a paragraph of a narrow column set justified to",
        "its edge, which lists the many kinds of the six",
    ]
    chars += _column(40, 70, text)
    y = 70 + 24
    for word, x in (("plants:", 40), ("arrowvine,", 123.25), ("axenut,", 220)):
        chars += _chars(word, x, y)
    chars += _column(40, y + 12, ["corpsecap and the rest of the herbs to the end of it."])
    _, blocks = layout([_page(0, chars)])
    assert [b.text for b in blocks] == [
        " ".join([*text, "plants: arrowvine, axenut,"])
        + " corpsecap and the rest of the herbs to the end of it."
    ]


def test_a_bold_sentence_on_its_own_line_is_no_term_over_the_indented_paragraph_after_it():
    # A short paragraph set in bold, a sentence, then a paragraph whose first line is indented:
    # two paragraphs, not a term and its definition.
    chars = _opening("Chapter")
    chars += _chars("Never leave the box open in the sun.", 40, 70, bold=True)
    chars += _column(51, 82, ["the next paragraph starts here indented and runs on".ljust(56, "n")])
    chars += _column(40, 94, ["to the edge of the column where it ends in a stop."])
    _, blocks = layout([_page(0, chars)])
    assert [b.text[:20] for b in blocks] == ["Never leave the box ", "the next paragraph s"]


def _heading_beside_a_box(beside: float) -> list[str]:
    """A chapter heading at 17 pt mid-page, short enough to stand in the left column; the
    right column above it ends with a box and below it starts with a heading set at `beside`
    points, lower by that heading's top margin than the left column's text: each line's first
    word, in reading order."""
    chars = _column(40, 60, ["above " + "a" * 42 for _ in range(4)], size=10.0)
    chars += _column(320, 60, ["boxed " + "b" * 42 for _ in range(8)], size=8.8)
    chars += _chars("8 The Campaign by Post", 40, 214, 17, bold=True)
    chars += _column(40, 245, ["below " + "c" * 42 for _ in range(10)], size=10.0, leading=13.0)
    chars += _chars("Own Heading", 320, 256, beside, bold=True)
    chars += _column(320, 274, ["after " + "d" * 42 for _ in range(8)], size=10.0, leading=13.0)
    return [ln.text.split()[0] for ln in reading_order(_page(0, chars).lines)]


def test_a_heading_across_the_columns_parts_the_page_though_a_column_goes_on_with_a_heading():
    # twentythird (WeasyPrint, CSS `column-span: all`): the box above the chapter heading is
    # read before it, though the right column goes on lower, under a section heading.
    assert _heading_beside_a_box(11.2) == (
        ["above"] * 4 + ["boxed"] * 8 + ["8"] + ["below"] * 10 + ["Own"] + ["after"] * 8
    )


def test_a_heading_in_a_column_stays_there_when_the_column_beside_goes_on_under_a_larger_one():
    # sealed (style h): a section heading in the left column, and beside it, lower, the right
    # column goes on under a chapter heading set larger than it: no heading across them.
    assert _heading_beside_a_box(19.0) == (
        ["above"] * 4 + ["8"] + ["below"] * 10 + ["boxed"] * 8 + ["Own"] + ["after"] * 8
    )


@pytest.mark.parametrize(
    "second, section",
    [
        ("age", "Chapter > Losing Cards Instead of Damage"),  # a word TeX hyphenated
        ("Break Rules", "Chapter > Losing Cards Instead of Lunch-Break Rules"),  # a compound
    ],
)
def test_a_heading_hyphenated_at_its_line_end_is_rejoined(second, section):
    """TeX hyphenates a heading too long for a narrow column ("Dam-/age"); a compound broken
    at its own hyphen keeps it before a capital."""
    first = "Losing Cards Instead of Dam-" if second == "age" else "Losing Cards Instead of Lunch-"
    chars = _chars("The Book", 40, 10, 22) + _chars("Chapter", 40, 40, 16)
    chars += _chars(first, 40, 70, 12) + _chars(second, 40, 84, 12)
    for i in range(3):
        chars += _chars(
            "A paragraph of body text that runs the whole width here.", 40, 104 + 12 * i
        )
    _, blocks = layout([_page(0, chars)])
    assert [b.section for b in blocks] == [section]


def test_a_heading_of_the_second_column_level_with_the_first_is_that_column_s_own():
    """TeX sets both columns' lines on one grid of baselines: a section heading of the right
    column that stands in a gap of the left one, the text under it level with the left
    column's, is still the right column's own, read after the whole left column (not a
    heading across the columns that parts the page)."""
    words = ["Text runs on down the column", "and on, line after line of it,", "to the end."]
    chars = _opening("Chapter One")
    chars += _column(40, 70, words[:2]) + _column(40, 124, words)
    chars += _column(320, 70, words[:2]) + _chars("Right Section", 320, 104, 12)
    chars += _column(320, 124, words)
    order = [(ln.col, ln.text) for ln in reading_order(_page(0, chars).lines)]
    heading = order.index((1, "Right Section"))
    assert all(col == 1 for col, _ in order[heading:]), order


def _centred(text: str, baseline: float, size: float = 9.0) -> list[Char]:
    return _chars(text, WIDTH / 2 - 0.25 * size * len(text), baseline, size)


def test_a_title_page_s_centred_lines_are_no_text_but_text_under_a_centred_title_is():
    """A title page (the title, a line naming the game, a credit, all centred) gives the
    document its title and no record; on a page where the text starts under the title, the
    text is read as ever."""
    body = ["A paragraph of body text that runs the whole width here."] * 3 + ["It ends."]
    cover = _centred("The Table Guide", 200, 22) + _centred("A players' booklet", 240, 12)
    cover += _centred("Typeset by a volunteer: not an official rules document", 260)
    text = _chars("Chapter One", 40, 40, 16) + _column(40, 70, body)
    title, blocks = layout([_page(0, cover), _page(1, text)])
    assert title == "The Table Guide" and [b.text[:11] for b in blocks] == ["A paragraph"]
    together = _centred("The Table Guide", 30, 22) + _column(40, 70, body)
    title, blocks = layout([_page(0, together)])
    assert title == "The Table Guide" and [b.text[-8:] for b in blocks] == ["It ends."]
