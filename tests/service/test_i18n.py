"""The interface in seven languages: complete catalogues, language negotiation, the page in each
language, the API's localised labels, and card suggestions from the server."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest

from service import i18n
from service.presentation import DECLINE_REASONS, kind_label, pages_label, translation_label

LANGUAGES = ("en", "nl", "da", "it", "de", "es", "fr")
TRANSLATED = LANGUAGES[1:]
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")


# -- the catalogues -------------------------------------------------------------------------


def test_every_language_has_a_catalogue():
    assert i18n.available() == LANGUAGES
    for lang in TRANSLATED:
        assert i18n.catalogue_path(lang).is_file(), lang


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_extracted_message_is_translated(lang):
    """Every msgid of the templates, the scripts and the Python sources is present, non-empty
    and not fuzzy in the catalogue: a string added to the page without a translation fails."""
    assert i18n.missing(lang) == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_the_placeholders(lang):
    catalogue = i18n.read_catalogue(lang)
    for message in i18n.extract():
        if not message.id:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        found = catalogue.get(message.id, context=message.context)
        strings = [found.string] if isinstance(found.string, str) else list(found.string)
        wanted = {name for text in ids for name in PLACEHOLDER.findall(text)}
        for text in strings:
            assert set(PLACEHOLDER.findall(text)) == wanted, (lang, message.id, text)


def test_the_template_is_current():
    """messages.pot (what a translator starts from) holds exactly what the sources use."""
    from babel.messages.pofile import read_po

    with i18n.TEMPLATE.open("rb") as fh:
        template = read_po(fh)
    ids = {(m.id, m.context) for m in template if m.id}
    assert ids == {(m.id, m.context) for m in i18n.extract() if m.id}


def test_a_missing_message_is_reported(tmp_path, monkeypatch):
    po = i18n.catalogue_path("de").read_text(encoding="utf-8")
    broken = po.replace('msgstr "Grenzfall"', 'msgstr ""')
    assert broken != po
    monkeypatch.setattr(i18n, "CATALOGUES", tmp_path)
    (tmp_path / "de.po").write_text(broken, encoding="utf-8")
    assert i18n.missing("de") == ["de.po: fuzzy or empty: 'Edge case'"]


def test_a_new_catalogue_is_a_new_language(tmp_path, monkeypatch):
    """A translator adds a language with a file and no code: it is offered and used."""
    for lang in TRANSLATED:
        (tmp_path / f"{lang}.po").write_bytes(i18n.catalogue_path(lang).read_bytes())
    (tmp_path / "pt.po").write_text(
        'msgid ""\nmsgstr ""\n"Language: pt\\n"\n"Content-Type: '
        'text/plain; charset=utf-8\\n"\n\nmsgid "Rulebook"\n'
        'msgstr "Livro de regras"\n',
        encoding="utf-8",
    )
    monkeypatch.setattr(i18n, "CATALOGUES", tmp_path)
    i18n.available.cache_clear()
    i18n.translations.cache_clear()
    try:
        assert i18n.available() == (*LANGUAGES, "pt")
        assert kind_label("rulebook", "pt") == "Livro de regras"
        assert i18n.negotiate("pt") == "pt" and i18n.language_name("pt") == "Português"
    finally:
        i18n.available.cache_clear()
        i18n.translations.cache_clear()


def test_labels_in_each_language():
    assert kind_label("edge case") == "Edge case"
    assert kind_label("edge case", "de") == "Grenzfall"
    assert pages_label(["18", "20"]) == "pp. 18, 20"
    assert pages_label(["18", "20"], "it") == "pagg. 18, 20"
    assert pages_label(["19"], "it") == "pag. 19"
    assert pages_label(["29–30"], "da") == "side 29–30"
    assert translation_label(None, "fr") == "traduction non officielle ; l'original fait foi"
    assert i18n.gettext("Rulebook", "xx") == "Rulebook"  # an unknown language: English


def test_every_decline_reason_is_in_the_catalogues():
    """The reasons search gives are the ones presentation translates."""
    from indexer.search.results import REASONS

    assert set(REASONS) == set(DECLINE_REASONS)
    for lang in TRANSLATED:
        for reason in REASONS:
            assert i18n.gettext(reason, lang) != reason, (lang, reason)


@pytest.mark.parametrize(
    "ui, accept, expected",
    [
        (None, None, "en"),
        ("de", None, "de"),
        ("DE", "fr", "de"),
        ("xx", "fr-FR,fr;q=0.9", "fr"),
        (None, "da, en;q=0.8", "da"),
        (None, "de-CH", "de"),
        (None, "ja, es;q=0.5", "es"),
        (None, "ja", "en"),
        ("", "it", "it"),
    ],
)
def test_negotiation(ui, accept, expected):
    from werkzeug.datastructures import LanguageAccept
    from werkzeug.http import parse_accept_header

    header = parse_accept_header(accept, LanguageAccept) if accept else None
    assert i18n.negotiate(ui, header) == expected


# -- the page -------------------------------------------------------------------------------


class _Texts(HTMLParser):
    def __init__(self):
        super().__init__()
        self.html_lang, self.script_json, self._in_json = None, None, False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "html":
            self.html_lang = attrs.get("lang")
        self._in_json = tag == "script" and attrs.get("id") == "ui-messages"

    def handle_data(self, data):
        if self._in_json:
            self.script_json = json.loads(data)
            self._in_json = False


EXPECTED_HEADING = {
    "en": "Ask a rules question",
    "nl": "Stel een regelvraag",
    "da": "Stil et regelspørgsmål",
    "it": "Fai una domanda sulle regole",
    "de": "Stelle eine Regelfrage",
    "es": "Haz una pregunta de reglas",
    "fr": "Posez une question de règles",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_page_in_the_browser_language(fast_client, lang):
    res = fast_client.get("/", headers={"Accept-Language": f"{lang};q=0.9, ja;q=1.0"})
    assert res.status_code == 200 and "Accept-Language" in res.headers["Vary"]
    page = res.get_data(as_text=True)
    parsed = _Texts()
    parsed.feed(page)
    assert parsed.html_lang == lang
    assert f'<h1 id="ask-h">{EXPECTED_HEADING[lang]}</h1>' in page
    messages, labels = parsed.script_json["messages"], parsed.script_json["labels"]
    assert messages["Searching the archive…"] == i18n.gettext("Searching the archive…", lang)
    assert set(messages) == i18n.script_msgids()
    assert labels["kind"]["edge case"] == kind_label("edge case", lang)
    assert set(labels["reason"]) == set(DECLINE_REASONS)
    assert f'hreflang="{lang}" lang="{lang}" data-ui="{lang}" aria-current="true"' in page


def test_ui_parameter_beats_the_browser_and_the_switcher_keeps_parameters(fast_client):
    page = fast_client.get(
        "/?q=Schild+und+Ward&ui=da&game=frosthaven", headers={"Accept-Language": "de"}
    ).get_data(as_text=True)
    assert '<html lang="da">' in page and EXPECTED_HEADING["da"] in page
    assert 'href="/?q=Schild+und+Ward&amp;game=frosthaven&amp;ui=fr"' in page
    assert '<a class="brand" href="/?ui=da">' in page  # the chosen language is kept
    # Game terms as the archive's translations name them.
    assert "Skjold" not in page and "> Shield</label>" not in page
    de = fast_client.get("/?ui=de").get_data(as_text=True)
    assert '<label for="d-shield">Schild</label>' in de and "Eisiges Gelände" in de
    it = fast_client.get("/?ui=it").get_data(as_text=True)
    assert "Protezione" in it and "Terreno ghiacciato" in it


def test_the_permalink_in_the_reader_language(fast_client):
    page = fast_client.get("/r/fh-it-1?lang=en&ui=de").get_data(as_text=True)
    assert '<html lang="de">' in page
    assert 'class="badge kind-rulebook">Regelbuch<' in page
    assert "Original (Italiano)" in page
    assert "Übersetzung (English): unofficial translation; the original is the authority" in page
    # the source named by the importer in English ("... (Italian)") is said in German too
    assert "Auszug aus dem Frosthaven-Regelbuch (Italienisch) · S. 18, 20, 34" in page
    assert '<input type="hidden" name="ui" value="de">' in page
    missing = fast_client.get("/r/nope?ui=es")
    assert missing.status_code == 404 and "Esta regla no existe" in missing.get_data(as_text=True)


def test_every_script_message_is_extracted():
    """A t("...") the extractor misses (nested in another call, say) would never be translated."""
    from tests.web.test_routes import STATIC

    for name in ("app.js", "ruling.js", "calculators.js", "board.js", "board-answer.js"):
        literals = re.findall(r'\bt\("((?:[^"\\]|\\.)*)"', (STATIC / name).read_text())
        assert literals and set(literals) <= i18n.script_msgids(), name


def test_the_page_script_has_no_english_of_its_own():
    """The page's own words come from the catalogue (t()), not string literals."""
    from tests.web.test_routes import STATIC

    script = (STATIC / "app.js").read_text() + (STATIC / "calculators.js").read_text()
    for literal in (
        "No ruling found",
        "Related rulings",
        "Damage suffered",
        "Searching the archive",
        "Not in the question: %(fields)s. Nothing is guessed.",
    ):
        assert script.count(literal) == script.count(f't("{literal}') >= 1, literal


# -- the API's localised labels ---------------------------------------------------------------


def test_api_adds_local_labels_and_keeps_the_english_ones(fast_client):
    r = fast_client.get("/v1/rulings/fh-it-1?lang=de").get_json()
    assert r["kind_label"] == "Rulebook" and r["kind_label_local"] == "Regelbuch"
    assert r["citation"]["label"].endswith("pp. 18, 20, 34")
    assert r["citation"]["label_local"].endswith("S. 18, 20, 34")
    assert r["translation"]["label"] == "unofficial translation; the original is the authority"
    assert (
        r["translation"]["label_local"] == "inoffizielle Übersetzung; maßgeblich ist das Original"
    )
    en = fast_client.get("/v1/rulings/fh-errata-09").get_json()
    assert en["kind_label_local"] == en["kind_label"] == "Erratum"
    assert en["citation"]["label_local"] == en["citation"]["label"]
    situation = fast_client.get("/v1/rulings?kind=edge+case&lang=es&limit=100").get_json()[
        "results"
    ]
    labelled = [x for x in situation if x["context_label"] == "SITUATION"]
    assert labelled and all(x["context_label_local"] == "Situación" for x in labelled)


def test_ask_gives_the_reason_in_the_question_language(fast_client):
    res = fast_client.get("/v1/ask?q=Welche+Pizzeria+ist+in+der+N%C3%A4he%3F&lang=de").get_json()
    assert res["reason"] and res["reason_local"] == i18n.gettext(res["reason"], "de")
    assert res["reason_local"] != res["reason"]


# -- card suggestions -------------------------------------------------------------------------


def test_cards_without_q_is_unchanged(fast_client, fake_engine):
    assert fast_client.get("/v1/cards").get_json() == {"cards": fake_engine.card_names()}
    assert fast_client.get("/v1/cards?q=").get_json() == {"cards": fake_engine.card_names()}


@pytest.mark.parametrize(
    "q, first",
    [
        ("chiling breth", "Chaos Demon “Chilling Breath”"),
        ("item 225", "Item 225"),
        ("225", "Item 225"),
        ("blink", "Blinkblade"),
        ("sav", "Savvas Icestorm"),
    ],
)
def test_cards_with_q_are_ranked_like_errata_by_card(fast_client, q, first):
    cards = fast_client.get("/v1/cards", query_string={"q": q}).get_json()["cards"]
    assert cards[0] == first and len(cards) <= 25


def test_cards_q_matches_the_errata_search(fast_client):
    """The best suggestion is a card the /v1/rulings?card= search finds rulings about."""
    for q in ("chiling breth", "frozen shel", "wind demon"):
        best = fast_client.get("/v1/cards", query_string={"q": q}).get_json()["cards"][0]
        found = fast_client.get("/v1/rulings", query_string={"card": q}).get_json()["results"][0]
        assert best in {c["label"] for c in found["cards"]}, (q, best)


def test_cards_q_errors_and_limits(fast_client):
    assert fast_client.get("/v1/cards?q=zzzzqqq").get_json() == {"cards": []}
    res = fast_client.get("/v1/cards", query_string={"q": "x" * 201})
    assert res.status_code == 422 and res.get_json()["error"]["code"] == "invalid_request"
    assert len(fast_client.get("/v1/cards?q=%22").get_json()["cards"]) <= 25
    doc = fast_client.get("/openapi.json").get_json()
    params = doc["paths"]["/v1/cards"]["get"]["parameters"]
    assert [p["name"] for p in params] == ["q"] and params[0]["schema"]["maxLength"] == 200
