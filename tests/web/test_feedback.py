"""Votes on the page's answers in headless Chromium: "Did this answer it?" under an answer, "This
one answers it" beside a decline's nearest rulings, each reaching the question log.

The server (`live_server`) inherits the test session's log, the SQLite file named by
``RULINGS_LOG`` (tests/conftest.py), which these tests read back. Run with ``--basetemp DIR``
to keep the screenshots (desktop and a 390px phone) in DIR.
"""

from __future__ import annotations

import json
import os
import sqlite3

import pytest

from service.i18n import gettext

pytestmark = pytest.mark.browser

QUESTION = "can I do two top actions?"
DECLINED = "any good pizza places near me?"


def log_rows(sql: str, *params: object) -> list[tuple]:
    with sqlite3.connect(os.environ["RULINGS_LOG"]) as db:
        return db.execute(sql, params).fetchall()


def ask(page, live_server: str, question: str, path: str = "/") -> dict:
    """Ask on the page; the /v1/ask response's JSON (its request checked for the client mark)."""
    page.goto(live_server + path)
    page.fill("#q", question)
    with page.expect_response(lambda r: "/v1/ask?" in r.url) as info:
        page.press("#q", "Enter")
    response = info.value
    assert response.request.headers.get("x-rulings-client") == "page"
    page.wait_for_selector("#answer[aria-busy=false] > :not(.loading)")
    return response.json()


def test_yes_reaches_the_log(page, live_server, tmp_path):
    res = ask(page, live_server, QUESTION)
    ask_id = res["ask_id"]
    assert ask_id and len(ask_id) == 32
    bar = page.locator("#answer .feedback")
    assert bar.get_attribute("role") == "group"
    assert page.get_by_role("group", name="Did this answer it?").count() == 1
    assert bar.get_by_role("button").all_inner_texts() == ["Yes", "No"]
    page.screenshot(path=str(tmp_path / "feedback-desktop.png"), full_page=True)
    with page.expect_request("**/v1/feedback") as request:
        bar.get_by_role("button", name="Yes").click()
    assert request.value.post_data_json == {"ask_id": ask_id, "helpful": True}
    assert request.value.headers.get("x-rulings-client") == "page"
    page.wait_for_selector("#answer .feedback .thanks")
    assert bar.inner_text() == "Thanks!"
    assert bar.locator("button").count() == 0
    assert log_rows("SELECT helpful, ruling, note FROM feedback WHERE ask_id = ?", ask_id) == [
        (1, None, None)
    ]
    assert log_rows("SELECT channel, question, declined FROM asks WHERE id = ?", ask_id) == [
        ("page", QUESTION, 0)
    ]


def test_no_sends_the_optional_note(page, live_server):
    ask_id = ask(page, live_server, QUESTION)["ask_id"]
    page.click("#answer .feedback button:text-is('No')")
    note = page.get_by_label("What was missing? (optional)")
    assert note.evaluate("el => el === document.activeElement")
    note.fill("  the rule for summons  ")
    with page.expect_request("**/v1/feedback") as request:
        note.press("Enter")
    assert request.value.post_data_json == {
        "ask_id": ask_id,
        "helpful": False,
        "note": "the rule for summons",
    }
    page.wait_for_selector("#answer .feedback .thanks")
    assert log_rows("SELECT helpful, note FROM feedback WHERE ask_id = ?", ask_id) == [
        (0, "the rule for summons")
    ]


def test_no_without_a_note(page, live_server):
    ask_id = ask(page, live_server, QUESTION)["ask_id"]
    page.click("#answer .feedback button:text-is('No')")
    with page.expect_request("**/v1/feedback") as request:
        page.click("#answer .feedback button:text-is('Send')")
    assert request.value.post_data_json == {"ask_id": ask_id, "helpful": False}
    page.wait_for_selector("#answer .feedback .thanks")
    assert log_rows("SELECT helpful, note FROM feedback WHERE ask_id = ?", ask_id) == [(0, None)]


def test_a_declines_nearest_ruling_answers_it(page, live_server, tmp_path):
    res = ask(page, live_server, DECLINED)
    assert res["declined"] and res["matches"]
    ask_id = res["ask_id"]
    declined = page.locator("#answer .declined")
    assert declined.locator(".feedback").count() == 0  # a decline is voted on by its rulings
    items = declined.locator("ul.related li")
    assert items.count() == len(res["matches"])
    assert items.locator("button:text-is('This one answers it')").count() == items.count()
    second = items.nth(1) if items.count() > 1 else items.first
    ruling = second.locator("a").get_attribute("href").removeprefix("/r/")
    button = second.get_by_role("button", name="This one answers it")
    # Each button is described by its ruling's title: the same label, told apart.
    described = button.get_attribute("aria-describedby")
    assert page.locator(f"#{described}").inner_text() == second.locator("a").inner_text()
    with page.expect_request("**/v1/feedback") as request:
        button.click()
    assert request.value.post_data_json == {"ask_id": ask_id, "helpful": True, "ruling": ruling}
    second.locator(".thanks").wait_for()
    assert second.locator(".thanks").inner_text() == "Thanks!"
    assert log_rows("SELECT helpful, ruling FROM feedback WHERE ask_id = ?", ask_id) == [
        (1, ruling)
    ]
    assert log_rows("SELECT channel, declined FROM asks WHERE id = ?", ask_id) == [("page", 1)]
    page.locator("#answer").screenshot(path=str(tmp_path / "feedback-decline-desktop.png"))


def test_a_failed_vote_says_so_and_can_be_tried_again(page, live_server):
    ask(page, live_server, QUESTION, path="/?ui=de")
    bar = page.locator("#answer .feedback")
    de = {
        m: gettext(m, "de")
        for m in ("Did this answer it?", "Yes", "Not sent. Try again.", "Thanks!")
    }
    assert bar.locator(".fb-q").inner_text() == de["Did this answer it?"] != "Did this answer it?"
    page.route(
        "**/v1/feedback",
        lambda route: route.fulfill(
            status=503,
            content_type="application/json",
            body=json.dumps({"error": {"code": "log_off", "message": "RULINGS_LOG=off"}}),
        ),
    )
    bar.get_by_role("button", name=de["Yes"]).click()
    error = bar.locator(".fb-error[role=alert]")
    error.wait_for()
    assert error.inner_text() == de["Not sent. Try again."] != "Not sent. Try again."
    assert "RULINGS_LOG" not in bar.inner_text()  # never the raw error
    assert bar.get_by_role("button", name=de["Yes"]).is_enabled()
    page.unroute("**/v1/feedback")
    bar.get_by_role("button", name=de["Yes"]).click()
    bar.locator(".thanks").wait_for()
    assert bar.inner_text() == de["Thanks!"]


def test_no_votes_when_the_log_is_off(page, live_server):
    def without_ask_id(route):
        response = route.fetch()
        route.fulfill(response=response, json={**response.json(), "ask_id": None})

    page.route("**/v1/ask?*", without_ask_id)
    page.goto(live_server + "/?q=" + QUESTION.replace(" ", "+"))
    page.wait_for_selector("#answer article.ruling")
    assert page.locator("#answer .feedback, #answer button:text-is('Yes')").count() == 0
    page.fill("#q", DECLINED)
    page.press("#q", "Enter")
    page.wait_for_selector("#answer .declined")
    assert page.locator("#answer .declined ul.related li a").count() >= 1
    assert page.locator("#answer .declined button").count() == 0


def test_votes_by_keyboard(page, live_server):
    ask_id = ask(page, live_server, QUESTION)["ask_id"]
    page.focus("#answer article.ruling .citation")  # not focusable: Tab starts from here
    for _ in range(10):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.textContent") == "Yes":
            break
    assert page.evaluate("document.activeElement.closest('.feedback') !== null")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "No"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.tagName") == "INPUT"
    page.keyboard.type("nothing about summons")
    page.keyboard.press("Enter")
    page.wait_for_selector("#answer .feedback .thanks")
    assert page.evaluate("document.activeElement.className") == "thanks"  # focus is kept there
    assert log_rows("SELECT helpful, note FROM feedback WHERE ask_id = ?", ask_id) == [
        (0, "nothing about summons")
    ]


def test_votes_fit_a_phone(page, live_server, tmp_path):
    page.set_viewport_size({"width": 390, "height": 844})
    ask(page, live_server, QUESTION)
    bar = page.locator("#answer .feedback")
    for button in bar.locator("button").all():
        box = button.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
        assert box["height"] >= 40  # a finger's target
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    bar.scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / "feedback-phone.png"))
    page.click("#answer .feedback button:text-is('No')")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.locator("#answer").screenshot(path=str(tmp_path / "feedback-phone-note.png"))
    ask(page, live_server, DECLINED)
    buttons = page.locator("#answer .declined ul.related button")
    assert buttons.count() >= 1
    for button in buttons.all():
        box = button.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.locator("#answer").screenshot(path=str(tmp_path / "feedback-decline-phone.png"))
