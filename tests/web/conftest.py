"""The browser fixtures: a fresh headless Chromium profile per test module and a page in it that
fails its test on any JavaScript error (Debian's Chromium via `chromium_path`, tests/conftest.py);
and the monster board editor's two helpers (a hex of the board, a piece of the palette)."""

from __future__ import annotations

import pytest

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TIMEOUT_MS = 30_000


@pytest.fixture(scope="module")
def browser_context(chromium_path, tmp_path_factory):
    """A fresh Chromium profile (persistent context in a temp dir), closed after the module."""
    sync_api = pytest.importorskip("playwright.sync_api")
    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_api.sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(profile),
            executable_path=chromium_path,
            args=CHROMIUM_ARGS,
            headless=True,
            viewport={"width": 1100, "height": 900},
        )
        context.set_default_timeout(TIMEOUT_MS)
        yield context
        context.close()


@pytest.fixture()
def page(browser_context):
    page = browser_context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    page.close()
    assert not errors, f"JavaScript errors: {errors}"


# -- the monster board editor's helpers (test_browser.py, test_monster_board.py) ------------


def hex_at(page, c: int, r: int):
    return page.locator(f"#mb-board [data-hex='{c},{r}']")


def pick(page, piece: str) -> None:
    page.check(f"#board-form input[name=piece][value={piece}]")
