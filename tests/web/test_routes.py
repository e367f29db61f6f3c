"""The page's HTML routes through the Flask client (no model, no browser): the index page, the
server-rendered permalinks, the HTML 404, the static assets and what they may not contain."""

from __future__ import annotations

import re

import pytest

from tests.conftest import REPO

STATIC = REPO / "service" / "web" / "static"
TEMPLATES = REPO / "service" / "web" / "templates"


def test_index_page(fast_client):
    res = fast_client.get("/")
    assert res.status_code == 200
    assert res.mimetype == "text/html"
    page = res.get_data(as_text=True)
    for needle in (
        'id="ask-form"',
        '<label for="q">',
        'aria-live="polite"',
        'id="errata-form"',
        'list="card-names"',
        'id="damage-form"',
        'id="initiative-form"',
        '<option value="frosthaven">Frosthaven</option>',
        "Detect from the question",
        '<option value="nl">Nederlands</option>',
        'name="viewport"',
    ):
        assert needle in page, needle
    assert re.search(r'<script type="module" src="/assets/app\.js\?v=\w+">', page)
    # ruling.js (a ruling's card) is loaded by app.js from its content-hashed URL
    assert re.search(r'id="answer"[^>]* data-script="/assets/ruling\.js\?v=\w+"', page)
    assert "script-src 'self'" in res.headers["Content-Security-Policy"]


def test_ruling_permalink_is_server_rendered(fast_client):
    res = fast_client.get("/r/fh-errata-09")
    assert res.status_code == 200 and res.mimetype == "text/html"
    page = res.get_data(as_text=True)
    assert '<h1 class="title">Item 225 is a one-hand item</h1>' in page
    assert 'class="badge kind-erratum">Erratum<' in page
    assert "Item 225 occupies a 1-hand slot, not a chest slot." in page
    assert '<span class="chip">Item 225</span>' in page
    assert "Frosthaven FAQ · dwarf74" in page and "boardgamegeek.com · 2026-07-14" in page
    assert "<script" not in page  # the permalink needs no JS


def test_ruling_permalink_with_translation_and_related(fast_client):
    page = fast_client.get("/r/fh-it-1?lang=en").get_data(as_text=True)
    assert 'class="badge kind-rulebook">Rulebook<' in page
    assert "Original (Italiano)" in page
    assert "Translation (English): unofficial translation; the original is the authority" in page
    assert "Frosthaven rulebook excerpt (Italian) · pp. 18, 20, 34" in page
    assert '<a href="/r/fh-nl-1">' in page  # the same rule in the Dutch edition


def test_ruling_permalink_ignores_an_unknown_language(fast_client):
    res = fast_client.get("/r/fh-it-1?lang=xx")
    assert res.status_code == 200
    assert "Translation (" not in res.get_data(as_text=True)


def test_unknown_ruling_is_an_html_404_with_the_id_escaped(fast_client):
    res = fast_client.get("/r/<script>alert(1)</script>")
    assert res.status_code == 404 and res.mimetype == "text/html"
    page = res.get_data(as_text=True)
    assert "No such ruling" in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>alert" not in page


def test_api_stays_json(fast_client):
    res = fast_client.get("/v1/nope")
    assert res.status_code == 404 and res.is_json
    assert fast_client.get("/v1/rulings/nope").get_json()["error"]["code"] == "not_found"


@pytest.mark.parametrize(
    "name, mimetype",
    [
        ("app.js", "text/javascript"),
        ("ruling.js", "text/javascript"),
        ("board.js", "text/javascript"),
        ("calculators.js", "text/javascript"),
        ("style.css", "text/css"),
        ("favicon.svg", "image/svg+xml"),
    ],
)
def test_static_assets_are_served(fast_client, name, mimetype):
    res = fast_client.get(f"/assets/{name}")
    assert res.status_code == 200
    assert res.mimetype == mimetype
    assert res.data == (STATIC / name).read_bytes()


def test_no_external_assets_and_no_inner_html():
    files = [*STATIC.iterdir(), *TEMPLATES.iterdir()]
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"(src|href)=[\"']?(https?:)?//", text), path.name
        assert "@import" not in text, path.name
        assert not re.search(
            r"\.(innerHTML|outerHTML)\s*=|insertAdjacentHTML|document\.write", text
        ), path.name
    assert len((STATIC / "app.js").read_text().splitlines()) < 420
    assert len((STATIC / "board.js").read_text().splitlines()) < 300
    assert len((STATIC / "calculators.js").read_text().splitlines()) < 300
    assert len((STATIC / "ruling.js").read_text().splitlines()) < 200


def test_index_page_has_the_monster_board(fast_client):
    page = fast_client.get("/").get_data(as_text=True)
    assert 'id="monster-board"' in page and "Where does the monster go?" in page
    assert re.search(
        r'data-script="/assets/board\.js\?v=\w+"', page
    )  # loaded by app.js, content-hashed
    for piece in (
        "monster",
        "enemy",
        "ally",
        "wall",
        "obstacle",
        "trap",
        "hazardous",
        "difficult",
        "icy",
        "erase",
    ):
        assert f'name="piece" value="{piece}"' in page, piece
    for needle in (
        'id="mb-board"',
        'id="mb-width" name="width" type="number" min="2" max="16" value="10"',
        'id="mb-height" name="height" type="number" min="2" max="10" value="7"',
        'id="mb-move"',
        'id="mb-range"',
        'id="mb-targets"',
        'id="mb-jump"',
        'id="mb-flying"',
        'id="mb-muddled"',
        'id="mb-attack"',
        'id="mb-game"',
        'id="mb-enemies"',
        'id="board-result" class="results" aria-live="polite"',
    ):
        assert needle in page, needle


def test_ruling_permalink_reads_the_readers_language_first(fast_client):
    """The translation into the reader's language first, the original (named) under it; the
    title and the source in the reader's language, not the importer's English."""
    page = fast_client.get("/r/fh-it-1?lang=da&ui=da").get_data(as_text=True)
    assert "rulebook excerpt" not in page
    assert (
        '<h1 class="title">Uddrag af Frosthaven-regelbogen (italiensk), side 18, 20, 34</h1>'
        in page
    )
    assert "Kilde:</span> Uddrag af Frosthaven-regelbogen (italiensk) · side 18, 20, 34" in page
    assert page.index('class="translation" lang="da"') < page.index('class="original" lang="it"')
    assert "Original (Italiano)" in page
