"""The page end to end in headless Chromium: asking, languages, permalinks, the calculators, the
computed answers, the keyboard, a phone's width, and the monster board editor built by clicks.

Browser tests drive Debian's Chromium through Python playwright against the real server
(`live_server`; the fixtures are in tests/web/conftest.py). Set UPDATE_SCREENSHOT=1 to refresh
docs/screenshot.png from them. The HTML routes through the Flask client: tests/web/test_routes.py.
"""

from __future__ import annotations

import os

import pytest

from tests.conftest import REPO
from tests.web.conftest import hex_at, pick

# -- headless Chromium ----------------------------------------------------------------------


def ask(page, live_server: str, question: str) -> None:
    page.goto(live_server + "/")
    page.fill("#q", question)
    page.press("#q", "Enter")
    page.wait_for_selector("#answer[aria-busy=false] > :not(.loading)")


@pytest.mark.browser
def test_browser_answers_a_question(page, live_server, tmp_path):
    ask(page, live_server, "can I do two top actions?")
    card = page.locator("#answer article.ruling").first
    assert card.get_attribute("data-id") in {"fh-nl-1", "fh-it-1"}
    assert card.locator(".badge").inner_text().lower() == "rulebook"
    assert "pp. 18, 20, 34" in card.locator(".citation").inner_text()
    assert "Translation (English)" in card.locator(".translation .label").inner_text()
    assert "two top or two bottom" in card.locator(".translation").inner_text()
    assert page.locator("#answer .more li a").count() >= 1  # related rulings, as permalinks
    assert "q=can+I+do+two+top+actions%3F" in page.url
    shot = tmp_path / "screenshot.png"
    page.screenshot(path=str(shot))
    if os.environ.get("UPDATE_SCREENSHOT"):
        (REPO / "docs").mkdir(exist_ok=True)
        (REPO / "docs" / "screenshot.png").write_bytes(shot.read_bytes())


@pytest.mark.browser
def test_browser_switches_language_and_asks(page, live_server):
    page.goto(live_server + "/?card=item+225")
    page.wait_for_selector("#errata article.ruling")
    page.click("nav.languages a[data-ui=de]")
    page.wait_for_url("**/?card=item+225&ui=de")
    assert page.evaluate("document.documentElement.lang") == "de"
    assert page.locator("#ask-h").inner_text() == "Stelle eine Regelfrage"
    page.wait_for_selector("#errata article.ruling")  # the card search is kept, now in German
    errata = page.locator("#errata article.ruling").first
    assert errata.locator(".badge").inner_text().lower() == "erratum"
    assert "Übersetzung (Deutsch)" in errata.locator(".translation .label").inner_text()
    page.fill("#q", "kann ich zwei obere Aktionen ausführen?")
    page.press("#q", "Enter")
    page.wait_for_selector("#answer[aria-busy=false] > :not(.loading)")
    card = page.locator("#answer article.ruling").first
    assert card.get_attribute("data-id") in {"fh-nl-1", "fh-it-1"}
    assert card.locator(".badge").inner_text().lower() == "regelbuch"
    assert card.locator(".citation .label").inner_text() == "Quelle:"
    assert "S. 18, 20, 34" in card.locator(".citation").inner_text()
    assert (
        "Übersetzung (Deutsch): inoffizielle Übersetzung"
        in card.locator(".translation .label").inner_text()
    )
    assert page.locator("#answer .status").inner_text().startswith("Beste Regelentscheidung für")
    assert "ui=de" in page.url and "q=kann+ich" in page.url  # the address keeps the language
    french = page.locator("nav.languages a[data-ui=fr]").get_attribute("href")
    assert "ui=fr" in french and "q=kann+ich" in french  # and the switcher the question
    page.click("#damage-form button[type=submit]")
    page.locator("#damage-result .verdict").wait_for()
    assert page.locator("#damage-result .verdict").inner_text().startswith("Erlittener Schaden:")


@pytest.mark.browser
def test_browser_runs_the_question_in_the_url(page, live_server):
    page.goto(live_server + "/?q=mag+ik+twee+bovenste+acties+doen%3F")
    page.wait_for_selector("#answer article.ruling")
    assert page.locator("#answer article.ruling").first.get_attribute("data-id") == "fh-nl-1"
    assert page.input_value("#q") == "mag ik twee bovenste acties doen?"


@pytest.mark.browser
def test_browser_shows_the_no_ruling_state(page, live_server):
    ask(page, live_server, "any good pizza places near me?")
    declined = page.locator("#answer .declined")
    assert declined.locator("h2").inner_text() == "No ruling found"
    assert declined.locator("ul.related li a").count() >= 1  # still offers the nearest ones
    assert page.locator("#answer article.ruling").count() == 0


@pytest.mark.browser
def test_browser_escapes_api_text(page, live_server):
    ask(
        page,
        live_server,
        "<img src=x onerror=window.pwned=1> can I use two top actions in one turn?",
    )
    assert page.locator("#answer img").count() == 0
    assert "<img src=x" in page.locator("#answer").inner_text()
    assert page.evaluate("window.pwned") is None


@pytest.mark.browser
def test_browser_opens_a_permalink(page, live_server):
    page.goto(live_server + "/r/fh-errata-09")
    assert page.locator("h1").inner_text() == "Item 225 is a one-hand item"
    assert page.locator(".badge").inner_text().lower() == "erratum"
    assert "404" not in page.title()
    page.goto(live_server + "/r/no-such-ruling")
    assert page.locator("h1").inner_text() == "No such ruling"


@pytest.mark.browser
def test_browser_damage_calculator(page, live_server):
    page.goto(live_server + "/")
    page.select_option("#d-game", "frosthaven")
    page.fill("#d-attack", "6")
    page.fill("#d-shield", "2")
    page.check("#d-ward")
    page.click("#damage-form button[type=submit]")
    result = page.locator("#damage-result")
    result.locator(".damage").wait_for()
    assert result.locator(".damage").inner_text() == "2"
    assert result.locator("a[href='/r/fh-clar-10']").count() >= 1
    assert result.locator(".noruling").count() >= 1  # the +0 step has no ruling
    result.locator("a[href='/r/fh-clar-10']").first.click()
    page.wait_for_url("**/r/fh-clar-10")
    assert page.locator("article.ruling").get_attribute("data-id") == "fh-clar-10"


@pytest.mark.browser
def test_browser_damage_error_is_shown(page, live_server):
    page.goto(live_server + "/")
    page.fill("#d-mods", "+1, banana")
    page.click("#damage-form button[type=submit]")
    assert "modifiers" in page.locator("#damage-result .error").inner_text()


@pytest.mark.browser
def test_browser_initiative_editor(page, live_server):
    page.goto(live_server + "/")
    page.click("#add-figure")
    row = page.locator("#figures .figure").last
    assert row.locator("input[name=name]").evaluate("el => el === document.activeElement")
    row.locator("input[name=name]").fill("Night Demon")
    row.locator("select[name=type]").select_option("monster")
    assert row.locator(".f-second").is_hidden()
    row.locator("input[name=initiative]").fill("10")
    page.click("#initiative-form button[type=submit]")
    order = page.locator("#initiative-result ol.order li")
    order.first.wait_for()
    assert order.all_inner_texts() == [
        "Night Demon",
        "Banner",
        "Banner Spear",
        "Drifter",
        "Algox Archers",
    ]
    assert page.locator("#initiative-result a[href='/r/fh-nl-5']").count() == 1
    assert page.locator("#initiative-result .noruling").count() >= 1


@pytest.mark.browser
def test_browser_errata_search_with_autocomplete(page, live_server):
    page.goto(live_server + "/")
    page.wait_for_function("document.querySelectorAll('#card-names option').length > 0")
    assert page.locator("#card-names option[value='Item 225']").count() == 1
    page.fill("#card", "item 225")
    page.press("#card", "Enter")
    page.wait_for_selector("#errata article.ruling")
    assert page.locator("#errata article.ruling").first.get_attribute("data-id") == "fh-errata-09"
    assert "card=item+225" in page.url


@pytest.mark.browser
def test_browser_keyboard_only(page, live_server):
    page.goto(live_server + "/")
    for _ in range(6):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "q":
            break
    assert page.evaluate("document.activeElement.id") == "q"
    page.keyboard.type("can I do two top actions?")
    page.keyboard.press("Enter")
    page.wait_for_selector("#answer article.ruling")
    outline = page.evaluate("""() => { const a = document.querySelector('#answer a');
        a.focus(); return getComputedStyle(a).outlineStyle; }""")
    assert outline != "none"


@pytest.mark.browser
def test_browser_phone_width(page, live_server, tmp_path):
    page.set_viewport_size({"width": 360, "height": 740})
    ask(page, live_server, "Item 225 hand slot?")
    assert page.locator("#answer article.ruling, #answer .declined").count() >= 1
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"horizontal scrolling on a phone: {width}px"
    page.screenshot(path=str(tmp_path / "phone.png"), full_page=True)


# -- the monster board editor ---------------------------------------------------------------


@pytest.mark.browser
def test_browser_monster_board_solves_a_click_built_room(page, live_server):
    page.goto(live_server + "/")
    hex_at(page, 9, 6).wait_for()  # the default 10 x 7 board
    assert page.locator("#mb-board [data-hex]").count() == 70
    page.select_option("#mb-game", "gloomhaven")
    hex_at(page, 1, 2).click()  # the palette starts on "monster"
    pick(page, "enemy")
    hex_at(page, 5, 2).click()
    pick(page, "wall")
    hex_at(page, 3, 2).click()
    assert hex_at(page, 1, 2).get_attribute("aria-label") == "hex 1,2: monster"
    assert hex_at(page, 5, 2).get_attribute("aria-label") == "hex 5,2: enemy A"
    assert hex_at(page, 3, 2).get_attribute("aria-label") == "hex 3,2: wall"
    page.fill("#mb-init-A", "30")
    page.click("#board-form button[type=submit]")
    result = page.locator("#board-result")
    result.locator(".verdict").wait_for()
    # The API's answer for this room: focus A, two equal destinations next to it.
    assert "A is the focus" in result.locator(".verdict").inner_text()
    assert "focus" in hex_at(page, 5, 2).get_attribute("class").split()
    assert hex_at(page, 5, 2).locator(".target").count() == 1  # the attacked hex, outlined
    for n, (c, r) in enumerate([(4, 2), (4, 3)], start=1):
        assert hex_at(page, c, r).locator(".dest").count() == 1
        assert hex_at(page, c, r).locator(".dest-label").text_content() == str(n)
        assert f"destination {n}" in hex_at(page, c, r).get_attribute("aria-label")
    assert page.locator("#mb-board .dest").count() == 2
    assert result.locator("ul.options li").all_inner_texts() == [
        "Option 1: move to hex 4,2, attack hex 5,2",
        "Option 2: move to hex 4,3, attack hex 5,2",
    ]
    link = result.locator("ol.steps a[href='/r/gh-da-4']")
    assert link.count() >= 1
    # Editing the board clears the stale answer.
    pick(page, "trap")
    hex_at(page, 2, 2).click()
    assert page.locator("#mb-board .dest").count() == 0
    assert result.inner_text() == ""
    assert hex_at(page, 2, 2).get_attribute("aria-label") == "hex 2,2: trap"


@pytest.mark.browser
def test_browser_monster_board_in_another_language(page, live_server):
    page.goto(live_server + "/?ui=it")
    hex_at(page, 0, 0).wait_for()
    assert (
        page.locator("#mb-board svg").get_attribute("aria-label")
        == "Tabellone, 10 colonne per 7 righe"
    )
    hex_at(page, 1, 2).click()
    assert hex_at(page, 1, 2).get_attribute("aria-label") == "esagono 1,2: mostro"
    assert page.locator("#mb-status").inner_text() == "Collocato sull'esagono 1,2: mostro."
    pick(page, "icy")
    hex_at(page, 2, 2).click()
    assert hex_at(page, 2, 2).get_attribute("aria-label") == "esagono 2,2: terreno ghiacciato"
    page.click("#mb-clear")
    page.click("#board-form button[type=submit]")
    assert (
        page.locator("#board-result .error").inner_text()
        == "Prima colloca il mostro sul tabellone."
    )


@pytest.mark.browser
def test_browser_monster_board_shows_errors(page, live_server):
    page.goto(live_server + "/")
    hex_at(page, 0, 0).wait_for()
    page.click("#board-form button[type=submit]")  # no monster yet: said before asking the API
    assert (
        page.locator("#board-result .error").inner_text() == "Place the monster on the board first."
    )
    page.select_option("#mb-game", "gloomhaven")
    hex_at(page, 2, 2).click()
    pick(page, "icy")
    hex_at(page, 4, 4).click()
    page.click("#board-form button[type=submit]")  # the API refuses icy terrain in Gloomhaven: 422
    error = page.locator("#board-result .error[role=alert]")
    error.wait_for()
    assert "icy terrain is a Frosthaven terrain" in error.inner_text()
    assert page.locator("#mb-board .dest").count() == 0


@pytest.mark.browser
def test_browser_monster_board_resizes(page, live_server):
    page.goto(live_server + "/")
    hex_at(page, 9, 6).click()  # the monster, in the corner
    page.fill("#mb-width", "40")  # clamped to 16
    page.fill("#mb-height", "4")
    page.press("#mb-height", "Tab")
    assert page.input_value("#mb-width") == "16"
    assert page.locator("#mb-board [data-hex]").count() == 16 * 4
    assert hex_at(page, 9, 6).count() == 0  # the monster went with the rows that were removed
    page.click("#board-form button[type=submit]")
    assert (
        page.locator("#board-result .error").inner_text() == "Place the monster on the board first."
    )


@pytest.mark.browser
def test_browser_monster_board_keyboard(page, live_server):
    page.goto(live_server + "/")
    hex_at(page, 0, 0).wait_for()
    page.focus("#board-form input[name=piece][value=erase]")
    page.keyboard.press("Tab")  # the board is one Tab stop: the arrow keys move inside it
    assert page.evaluate("document.activeElement.dataset.hex") == "0,0"
    assert hex_at(page, 0, 0).get_attribute("role") == "button"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.dataset.hex") == "1,2"
    page.keyboard.press("Enter")  # places the selected piece: the monster
    assert hex_at(page, 1, 2).get_attribute("aria-label") == "hex 1,2: monster"
    assert page.evaluate("document.activeElement.dataset.hex") == "1,2"  # focus kept on redraw
    assert "Placed monster on hex 1,2." in page.locator("#mb-status").inner_text()
    stroke = page.evaluate(
        "getComputedStyle(document.activeElement.querySelector('.cell')).strokeWidth"
    )
    assert stroke == "4px"  # the focused hex is visible
    page.check("#board-form input[name=piece][value=enemy]")
    page.focus("#mb-board [data-hex='1,2']")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    page.keyboard.press(" ")
    assert hex_at(page, 4, 2).get_attribute("aria-label") == "hex 4,2: enemy A"
    assert page.locator("#mb-init-A").count() == 1


@pytest.mark.browser
def test_browser_monster_board_phone_width(page, live_server, tmp_path):
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(live_server + "/")
    hex_at(page, 0, 0).wait_for()
    page.fill("#mb-width", "16")
    page.fill("#mb-height", "10")
    page.press("#mb-height", "Tab")
    assert page.locator("#mb-board [data-hex]").count() == 160
    svg_width = page.evaluate(
        "document.querySelector('#mb-board svg').getBoundingClientRect().width"
    )
    assert 250 < svg_width <= 360
    hex_at(page, 15, 9).click()  # the far corner is on screen and can be tapped
    assert hex_at(page, 15, 9).get_attribute("aria-label") == "hex 15,9: monster"
    pick(page, "enemy")
    hex_at(page, 2, 1).click()
    page.fill("#mb-init-A", "45")
    page.click("#board-form button[type=submit]")
    page.locator("#board-result ol.steps").wait_for()  # long step values must wrap, not overflow
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"horizontal scrolling on a phone: {width}px"
    page.locator("#monster-board").screenshot(path=str(tmp_path / "board-phone.png"))


# -- computed answers on the page (issue 14) ------------------------------------------------
@pytest.mark.browser
def test_page_shows_the_computed_answer_first(page, live_server) -> None:
    ask(
        page,
        live_server,
        "Shield 1 and Ward, a monster attacks me for 7, how much damage do I take?",
    )
    answer = page.locator("#answer")
    first = answer.locator("> div > :first-child")
    assert first.get_attribute("class") == "computed"
    assert answer.locator(".computed .summary").inner_text() == "You suffer 3 damage."
    assert answer.locator(".computed ol.steps li").count() >= 3
    assert answer.locator(".computed ol.steps a[href='/r/fh-clar-10']").count() >= 1
    assert answer.locator("article.ruling").count() == 1  # the ruling stays beside it


@pytest.mark.browser
def test_page_prefills_the_calculator_when_something_is_missing(page, live_server) -> None:
    ask(page, live_server, "Shield 2 against an attack, how much do I take?")
    computed = page.locator("#answer .computed")
    # the missing field named by its calculator's label, in the page's language
    assert "Attack" in computed.locator(".missing").inner_text()
    computed.locator("button").click()
    assert page.input_value("#d-shield") == "2"
    assert page.input_value("#d-attack") == ""
    assert page.evaluate("document.activeElement.id") == "d-attack"
    page.fill("#d-attack", "5")
    page.click("#damage-form button[type=submit]")
    page.locator("#damage-result .damage").wait_for()
    assert page.locator("#damage-result .damage").inner_text() == "3"


@pytest.mark.browser
def test_page_computes_in_the_page_language(page, live_server) -> None:
    page.goto(
        live_server
        + "/?ui=de&q="
        + "Frosthaven: Schild 1, Angriff 5, ich ziehe -1. Wie viel Schaden?"
    )
    page.wait_for_selector("#answer .computed")
    computed = page.locator("#answer .computed")
    assert computed.locator(".label").inner_text() == "Aus deiner Frage berechnet (Schaden)"
    assert computed.locator(".summary").inner_text() == "Du erleidest 3 Schaden."
    assert computed.locator("button").inner_text() == "Im Rechner öffnen"


@pytest.mark.browser
def test_page_exhaustion_and_advantage_calculators(page, live_server) -> None:
    page.goto(live_server + "/")
    page.fill("#e-hand", "1")
    page.fill("#e-discard", "1")
    page.click("#exhaustion-form button[type=submit]")
    page.locator("#exhaustion-result .verdict").wait_for()
    assert page.locator("#exhaustion-result .verdict").inner_text().startswith("Exhausted.")
    page.fill("#a-card1", "+1")
    page.fill("#a-card2", "+0")
    page.click("#advantage-form button[type=submit]")
    page.locator("#advantage-result .verdict").wait_for()
    assert page.locator("#advantage-result .verdict").inner_text() == "Card 1 is used."
    assert page.locator("#advantage-result ol.steps li").count() >= 1
