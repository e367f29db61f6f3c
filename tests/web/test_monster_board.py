"""The board editor when the players choose: every option drawn, a list and a stepper to go
through them, and the teleport box (headless Chromium against the real server)."""

from __future__ import annotations

import pytest

from tests.web.conftest import hex_at, pick

pytestmark = pytest.mark.browser


def build(
    page,
    monster: tuple[int, int],
    enemies: list[tuple[int, int, int]],
    walls: tuple[tuple[int, int], ...] = (),
) -> None:
    hex_at(page, *monster).click()  # the palette starts on "monster"
    pick(page, "enemy")
    for n, (c, r, initiative) in enumerate(enemies):
        hex_at(page, c, r).click()
        page.fill(f"#mb-init-{'ABCDEFGH'[n]}", str(initiative))
    pick(page, "wall")
    for c, r in walls:
        hex_at(page, c, r).click()


def test_browser_board_steps_through_options_that_differ_only_in_targets(page, live_server):
    # Frosthaven, two targets, four enemies around the monster: it stays and attacks A plus any
    # one of the others; the three options share their destination and differ in targets.
    page.goto(live_server + "/")
    hex_at(page, 0, 0).wait_for()
    build(page, (3, 3), [(3, 2, 10), (2, 3, 20), (4, 3, 30), (3, 4, 40)])
    page.fill("#mb-move", "0")
    page.fill("#mb-targets", "2")
    page.click("#board-form button[type=submit]")
    result = page.locator("#board-result")
    result.locator(".option-status").wait_for()
    buttons = result.locator("ul.options button.option")
    assert buttons.count() == 3
    assert result.locator("ul.options li").all_inner_texts() == [
        "Option 1: move to hex 3,3, attack hex 2,3 and 3,2",
        "Option 2: move to hex 3,3, attack hex 3,2 and 3,4",
        "Option 3: move to hex 3,3, attack hex 3,2 and 4,3",
    ]
    # Every option is drawn, each in its own colour; the one shown in full is bold.
    lines = page.locator("#mb-board .attack-line")
    assert lines.count() == 6  # a line from the destination to each target, per option
    colours = {lines.nth(i).get_attribute("stroke") for i in range(lines.count())}
    assert len(colours) == 3

    def bold() -> set[str]:
        return {
            lines.nth(i).get_attribute("data-option")
            for i in range(lines.count())
            if lines.nth(i).get_attribute("stroke-width") == "2.5"
        }

    assert bold() == {"1"}
    assert result.locator(".option-status").inner_text() == "Option 1 of 3 is drawn on the board."
    result.get_by_role("button", name="Next option").click()
    assert bold() == {"2"}
    assert buttons.nth(1).get_attribute("aria-pressed") == "true"
    assert buttons.nth(0).get_attribute("aria-pressed") == "false"
    buttons.nth(2).click()
    assert bold() == {"3"}
    assert "Option 3 of 3" in result.locator(".option-status").inner_text()
    result.get_by_role("button", name="Next option").click()  # wraps round
    assert bold() == {"1"}
    assert hex_at(page, 2, 3).locator(".target-shown").count() == 1  # option 1's second target


def test_browser_board_shows_each_destination_it_moves_toward(page, live_server):
    # Two corridors (row 1 is wall from column 1 to 6): the attack hexes [7, 0] and [6, 2] are
    # equally far, so the players choose which one it heads for.
    page.goto(live_server + "/")
    hex_at(page, 0, 0).wait_for()
    page.fill("#mb-width", "9")
    page.fill("#mb-height", "3")
    page.press("#mb-height", "Tab")
    build(page, (0, 1), [(7, 1, 20)], walls=tuple((c, 1) for c in range(1, 7)))
    page.fill("#mb-move", "2")
    page.click("#board-form button[type=submit]")
    result = page.locator("#board-result")
    result.locator(".option-status").wait_for()
    assert result.locator("ul.options li").all_inner_texts() == [
        "Option 1: move to hex 1,2, no attack (toward hex 6,2)",
        "Option 2: move to hex 2,0, no attack (toward hex 7,0)",
    ]
    assert hex_at(page, 6, 2).locator(".toward").count() == 1
    assert "moved toward" in hex_at(page, 6, 2).get_attribute("aria-label")
    result.get_by_role("button", name="Next option").click()
    assert hex_at(page, 6, 2).locator(".toward").count() == 0
    assert hex_at(page, 7, 0).locator(".toward").count() == 1
    assert page.locator("#mb-board .move-line").count() == 1


def test_browser_board_teleport_box(page, live_server):
    page.goto(live_server + "/")
    hex_at(page, 0, 0).wait_for()
    build(page, (1, 2), [(5, 2, 30)], walls=tuple((3, r) for r in range(6)))
    page.fill("#mb-move", "3")
    page.click("#board-form button[type=submit]")
    result = page.locator("#board-result")
    result.locator(".verdict").wait_for()
    assert "cannot attack" in result.locator(".verdict").inner_text()  # walled off
    page.check("#mb-teleport")
    page.click("#board-form button[type=submit]")
    page.locator("#board-result ul.options li").first.wait_for()
    page.wait_for_function(
        "document.querySelector('#board-result .verdict')"
        " && !document.querySelector('#board-result .verdict')"
        ".textContent.includes('cannot attack')"
    )
    assert "attacks it" in result.locator(".verdict").inner_text()
    assert result.locator("ol.steps a[href='/r/fh-clar-04']").count() >= 1
