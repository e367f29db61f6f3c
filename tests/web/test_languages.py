"""The page in the reader's language, in headless Chromium, for each of its seven languages: no
English left on it (the page, an answer, a decline, each calculator and the monster board), and
an answer read in the asker's language first: the sentence that decides the question, the whole
ruling one tap away with that sentence marked, the original (the authority) under it, the
computed steps in that language too.

"English left" is a visible string (a text node, an option, a placeholder, an aria-label or a
title) that is an English msgid of the catalogues (service/translations) while the page's
language says it otherwise. Texts in another language are marked so (lang=: a ruling's
original, an English ruling's text) and are not the page's own strings. A page string whose
translation is the English word itself must be one the language really uses (ALLOWED_SAME).
Run with ``--basetemp DIR`` to keep the screenshots (desktop and a 390px phone) in DIR.
"""

from __future__ import annotations

import re
from functools import lru_cache

import pytest

from indexer.language import detect_language
from service import i18n
from service.presentation import translation_label
from tests.web.conftest import hex_at, pick

LANGUAGES = ("en", "nl", "da", "it", "de", "es", "fr")
#: A question each, about exhaustion (answered by fh-it-2 or fh-nl-2, computed by the checker).
EXHAUSTION = {
    "en": "When am I exhausted if I have 1 card in hand and 0 in my discard pile?",
    "da": "Hvornår er jeg udmattet hvis jeg har 1 kort på hånden og 0 i discard?",
    "de": "Wann bin ich erschöpft, wenn ich 1 Karte auf der Hand und 0 im Ablagestapel habe?",
    "fr": "Quand suis-je épuisé si j'ai 1 carte en main et 0 dans ma défausse ?",
    "it": "Quando sono esausto se ho 1 carta in mano e 0 negli scarti?",
    "es": "¿Cuándo estoy agotado si tengo 1 carta en la mano y 0 en el descarte?",
    "nl": "Wanneer ben ik uitgeput als ik 1 kaart in mijn hand heb en 0 op mijn aflegstapel?",
}
#: A question each that no ruling answers.
DECLINED = {
    "en": "any good pizza places near me?",
    "da": "Hvor finder jeg en god pizzeria i nærheden?",
    "de": "Wo gibt es hier in der Nähe eine gute Pizzeria?",
    "fr": "Où trouver une bonne pizzeria près de chez moi ?",
    "it": "Dove trovo una buona pizzeria qui vicino?",
    "es": "¿Dónde hay una buena pizzería cerca de aquí?",
    "nl": "Waar vind ik een goede pizzeria in de buurt?",
}
#: The page's strings a language says as English does: its editions' game terms kept in English
#: (Ward, Brittle, Jump...), and words that are the same (Initiative, Monster, Original...).
#: A string not listed whose translation is the English msgid is English left on the page.
ALLOWED_SAME = {
    "nl": {
        "Monster",
        "Summon",
        "monster",
        "focus",
        "API",
        "Ward",
        "Brittle",
        "(0 = melee)",
        "Jump",
        "Teleport",
        "Muddled",
        "Permalink:",
    },
    "da": {
        "Original (%(language)s)",
        "Type",
        "Monster",
        "Summon",
        "monster",
        "destination %(n)s",
        "hex %(hex)s: %(what)s",
        "API",
        "Find",
        "Shield",
        "Ward",
        "Brittle",
        "Hit points",
        "Teleport",
        "Muddled",
        "Permalink:",
        "Send",
    },
    "it": {"focus", "API", "Brittle", "Jump", "Muddled", "Permalink:", "No"},
    "de": {
        "Initiative",
        "Original (%(language)s)",
        "Name",
        "Monster",
        "API",
        "(optional)",
        "Ward",
        "Brittle",
        "Teleport",
        "Muddled",
        "Permalink:",
    },
    "es": {"Original (%(language)s)", "API", "Ward", "Brittle", "Jump", "Muddled", "No"},
    "fr": {
        "Initiative",
        "Original (%(language)s)",
        "Type",
        "obstacle",
        "focus",
        "destination %(n)s",
        "API",
        "Ward",
        "Brittle",
        "Obstacle",
        "Muddled",
    },
}
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")

pytestmark = pytest.mark.browser


# -- the catalogues: English msgids and what each language says for them ----------------------


def page_msgids() -> set[str]:
    """The msgids of the page's own strings: its scripts' and its templates' (plurals aside)."""
    ids = set(i18n.script_msgids())
    for path in sorted(i18n.SERVICE.glob(i18n.TEMPLATE_SOURCES)):
        ids |= {m for m, _c, _w in i18n._template_messages(path) if isinstance(m, str)}
    return ids


def _pattern(text: str) -> re.Pattern[str] | None:
    """A msgid as a regular expression (its placeholders: anything); None for a msgid that is
    mostly placeholders (it would match any string)."""
    literal = PLACEHOLDER.sub("", text)
    if len(re.sub(r"[^\w]", "", literal)) < 3:
        return None
    parts = PLACEHOLDER.split(text)
    return re.compile("".join(re.escape(p) if i % 2 == 0 else ".+?" for i, p in enumerate(parts)))


@lru_cache(maxsize=8)
def catalogue(lang: str) -> tuple[dict[str, str], list[tuple[re.Pattern, str, re.Pattern]], set]:
    """Every English msgid (templates, scripts, Python sources, the checker's sentences) with
    what `lang` says for it: the plain ones by text, those with placeholders as patterns; and
    every string `lang` says (a visible string that is one is that language's word)."""
    tr = i18n.translations(lang)
    plain: dict[str, str] = {}
    patterns = []
    for message in i18n.extract():
        if not message.id:
            continue
        if isinstance(message.id, str):
            ids = [
                (
                    message.id,
                    tr.pgettext(message.context, message.id)
                    if message.context
                    else tr.gettext(message.id),
                )
            ]
        else:
            ids = [
                (message.id[0], tr.ngettext(*message.id, 1)),
                (message.id[1], tr.ngettext(*message.id, 2)),
            ]
        for msgid, said in ids:
            if PLACEHOLDER.search(msgid):
                english, local = _pattern(msgid), _pattern(said)
                if english is not None and local is not None:
                    patterns.append((english, said, local))
            else:
                plain[msgid.strip()] = said.strip()
    words = {said for said in plain.values()}
    return plain, patterns, words


def english_left(strings: list[dict], lang: str) -> list[str]:
    """The visible strings that are English msgids `lang` says otherwise."""
    if lang == "en":
        return []
    plain, patterns, words = catalogue(lang)
    found = []
    for item in strings:
        text = re.sub(r"\s+", " ", item["text"]).strip()
        for part in {text, *re.split(r"\s*·\s*", text)}:
            if not part or part in words:
                continue
            said = plain.get(part)
            if said is not None and said != part:
                found.append(f"{item['kind']} {part!r} at {item['where']} (says {said!r})")
                continue
            for english, local_text, local in patterns:
                if english.fullmatch(part) and not local.fullmatch(part):
                    found.append(f"{item['kind']} {part!r} at {item['where']} ({local_text!r})")
                    break
    return found


# -- what the page shows ----------------------------------------------------------------------

#: Every visible string of the page's own language: text nodes, options, placeholders,
#: aria-labels, titles; a text marked as another language's (lang=) is left out.
VISIBLE = """([pageLang, root]) => {
  const own = (node) => (node.closest("[lang]")?.lang || pageLang).split("-")[0] === pageLang;
  const shown = (node) => node.checkVisibility({ visibilityProperty: true });
  const where = (node) => {
    const parts = [];
    for (let n = node; n && n !== document.body && parts.length < 3; n = n.parentElement) {
      parts.unshift(n.id ? `#${n.id}` : n.tagName.toLowerCase() + (n.classList[0] ? `.${n.classList[0]}` : ""));
    }
    return parts.join(" > ");
  };
  const out = [];
  const top = document.querySelector(root || "body");
  const walker = document.createTreeWalker(top, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const parent = n.parentElement;
    const text = n.textContent.trim();
    if (!text || parent.closest("script, style, noscript, template, option")) continue;
    if (shown(parent) && own(parent)) out.push({ kind: "text", text, where: where(parent) });
  }
  for (const node of top.querySelectorAll("[placeholder], [aria-label], [title], [alt]")) {
    if (!shown(node) || !own(node)) continue;
    for (const name of ["placeholder", "aria-label", "title", "alt"]) {
      if (node.hasAttribute(name)) out.push({ kind: name, text: node.getAttribute(name), where: where(node) });
    }
  }
  for (const option of top.querySelectorAll("select option")) {
    if (!shown(option.parentElement) || !own(option)) continue;
    out.push({ kind: "option", text: option.text, where: where(option.parentElement) });
  }
  return out;
}"""


def visible_strings(page, lang: str) -> list[dict]:
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    return page.evaluate(VISIBLE, [lang, "body"])


def ask(page, question: str) -> dict:
    page.fill("#q", question)
    with page.expect_response(lambda r: "/v1/ask?" in r.url) as info:
        page.press("#q", "Enter")
    page.wait_for_selector("#answer[aria-busy=false] > :not(.loading)")
    assert info.value.request.headers.get("accept-language") == page.evaluate(
        "document.documentElement.lang"
    )  # the page's language: the API's prior for the question's
    return info.value.json()


def open_page(page, live_server: str, lang: str, path: str = "/") -> None:
    page.goto(f"{live_server}{path}{'&' if '?' in path else '?'}ui={lang}")
    page.wait_for_selector("#figures .figure")  # calculators.js
    hex_at(page, 0, 0).wait_for()  # board.js
    page.wait_for_function("document.querySelector('#card-names option') !== null")


def run_each_calculator(page) -> None:
    page.click("#damage-form button[type=submit]")
    page.locator("#damage-result .verdict").wait_for()
    page.click("#initiative-form button[type=submit]")
    page.locator("#initiative-result .verdict").wait_for()
    page.click("#exhaustion-form button[type=submit]")
    page.locator("#exhaustion-result .verdict").wait_for()
    page.click("#advantage-form button[type=submit]")
    page.locator("#advantage-result .verdict").wait_for()
    page.select_option("#mb-game", "gloomhaven")
    hex_at(page, 1, 2).click()  # the monster
    pick(page, "enemy")
    hex_at(page, 5, 2).click()
    pick(page, "obstacle")
    hex_at(page, 3, 3).click()
    page.fill("#mb-init-A", "30")
    page.click("#board-form button[type=submit]")
    page.locator("#board-result .verdict").wait_for()


def test_untranslated_page_strings_are_deliberate():
    """A page string a language says as English does is a word that language uses (the
    Danish page's calculator said "Attack": the Danish editions say "angreb")."""
    ids = page_msgids()
    for lang, allowed in ALLOWED_SAME.items():
        tr = i18n.translations(lang)
        same = {
            m for m in ids if not PLACEHOLDER.fullmatch(m) and tr.gettext(m) == m and len(m) > 1
        }
        assert same <= allowed, (lang, sorted(same - allowed))


def test_the_check_finds_english_left():
    strings = [
        {"kind": "text", "text": "Attack", "where": "label"},
        {"kind": "text", "text": "Original (Italiano)", "where": "summary"},
        {"kind": "text", "text": "Translation (Deutsch): inoffizielle Übersetzung", "where": "p"},
        {"kind": "aria-label", "text": "Board, 10 columns by 7 rows", "where": "svg"},
        {"kind": "text", "text": " · Ward removed", "where": "p.verdict"},
        {"kind": "text", "text": "Angriff", "where": "label"},
        {"kind": "text", "text": "Ward", "where": "label"},
        {"kind": "text", "text": "Frosthaven", "where": "span.game"},
    ]
    found = english_left(strings, "de")
    assert [f.split(" at ")[0] for f in found] == [
        "text 'Attack'",
        "text 'Translation (Deutsch): inoffizielle Übersetzung'",
        "aria-label 'Board, 10 columns by 7 rows'",
        "text 'Ward removed'",
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_english_left_on_the_page(page, live_server, lang):
    """The page, an answer, a decline, each calculator's result and the monster board's: no
    string of the page's own is left in English."""
    open_page(page, live_server, lang)
    problems = english_left(visible_strings(page, lang), lang)
    ask(page, EXHAUSTION[lang])
    page.locator("#answer article.ruling").wait_for()
    problems += english_left(visible_strings(page, lang), lang)
    page.locator("#answer .feedback button").last.click()  # "No": the note's form
    problems += english_left(visible_strings(page, lang), lang)
    ask(page, DECLINED[lang])
    page.locator("#answer .declined").wait_for()
    problems += english_left(visible_strings(page, lang), lang)
    run_each_calculator(page)
    problems += english_left(visible_strings(page, lang), lang)
    page.goto(f"{live_server}/r/fh-it-1?lang={lang}&ui={lang}")  # a permalink
    problems += english_left(visible_strings(page, lang), lang)
    assert not problems, "\n".join(dict.fromkeys(problems))


# -- an answer in the asker's language first ------------------------------------------------


def english_sentences(page, lang: str) -> list[str]:
    """Visible sentences of the answer (in the page's language by their markup) that read as
    English; a citation (source, author and site names) is names, not a sentence."""
    strings = page.evaluate(VISIBLE, [lang, "#answer"])
    return [
        s["text"]
        for s in strings
        if s["kind"] == "text"
        and "citation" not in s["where"]
        and "span.muted" not in s["where"]  # a related ruling's id and source
        and len(s["text"].split()) >= 5
        and detect_language(s["text"], None, hint=lang) == "en"
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_answer_reads_in_the_askers_language_first(page, live_server, lang, tmp_path):
    open_page(page, live_server, lang)
    res = ask(page, EXHAUSTION[lang])
    assert res["lang"] == lang and not res["declined"]
    answer, ev = res["answer"], res["answer"]["evidence"]
    tr = answer["translation"]
    card = page.locator("#answer article.ruling").first
    assert card.get_attribute("data-id") == answer["id"]
    # The text in the asker's language first: the translation when the original is in another.
    first = card.locator("section.first")
    assert (tr["lang"] if tr else answer["lang"]) == lang == ev["lang"]
    assert ev["shown"] == ("translation" if tr else "text")
    label = first.locator(".label").inner_text()
    if tr:  # labelled as before: an unofficial translation, or another official edition
        assert label == i18n.gettext(
            "Translation (%(language)s): %(label)s",
            lang,
            language=tr["language_name"],
            label=translation_label(tr["edition_of"], lang),
        )
    else:
        assert label == i18n.gettext(
            "Original (%(language)s)", lang, language=answer["language_name"]
        )
    # The deciding sentence first, prominent and marked; the whole text marks its spans.
    lead = first.locator(".lead")
    assert lead.get_attribute("lang") == lang
    shown_text = tr["text"] if tr else answer["text"]
    marked = [shown_text[s["start"] : s["end"]] for s in ev["spans"]]
    # the sentence(s), or all the text with them marked when the rest is a page reference
    assert lead.locator("mark").all_inner_texts() in ([ev["text"].strip()], marked)
    full = first.locator(".full")
    if full.count():  # the whole ruling one tap away, unless the sentence is all of it
        summary = first.locator("details.whole > summary")
        assert summary.inner_text() == i18n.gettext("Show the whole ruling", lang)
        assert full.is_hidden()
        summary.click()  # one tap
        assert full.is_visible()
        assert full.locator("mark").all_inner_texts() == marked
        assert full.inner_text() == shown_text.strip()
    else:
        assert lead.inner_text() == shown_text.strip()
    # The original, the authority, directly under it, its language named; open on a desktop.
    if tr:
        original = card.locator("details.original")
        assert original.evaluate("(d) => d.open")
        assert original.evaluate("(d) => d.previousElementSibling.matches('section.first')")
        summary = original.locator("summary").inner_text()
        assert summary == i18n.gettext(
            "Original (%(language)s)", lang, language=answer["language_name"]
        )
        assert original.locator(f"p[lang={answer['lang']}]").last.inner_text() == answer["text"]
    else:
        assert card.locator("details.original").count() == 0
    # The title and the source in the asker's language (not "... rulebook excerpt (Italian)").
    title = card.locator(".title").inner_text()
    assert title == answer["display_title_local"]
    citation = card.locator(".citation").inner_text()
    assert citation.endswith(answer["citation"]["line_local"])
    if lang != "en":
        assert "rulebook excerpt" not in title + citation
    # The computed steps in the asker's language.
    steps = res["computed"]["result"]["steps"]
    shown_steps = page.locator("#answer .computed ol.steps li .action").all_inner_texts()
    assert shown_steps == [s.get("action_local") or s["action"] for s in steps]
    assert not english_sentences(page, lang) or lang == "en", english_sentences(page, lang)
    if lang in ("da", "de", "it"):
        page.locator("#answer").screenshot(path=str(tmp_path / f"answer-{lang}-desktop.png"))


@pytest.mark.parametrize("lang", ["da", "de", "it"])
def test_the_original_is_collapsed_on_a_phone(page, live_server, lang, tmp_path):
    page.set_viewport_size({"width": 390, "height": 844})
    open_page(page, live_server, lang)
    res = ask(page, EXHAUSTION[lang])
    card = page.locator("#answer article.ruling").first
    if res["answer"]["translation"]:
        original = card.locator("details.original")
        assert not original.evaluate("(d) => d.open")
        assert original.locator("p").last.is_hidden()
        original.locator("summary").click()  # one tap
        assert original.locator("p").last.is_visible()
        original.locator("summary").click()
    whole = card.locator("details.whole")
    if whole.count():
        assert not whole.evaluate("(d) => d.open")
    assert card.locator(".lead").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.locator("#answer").screenshot(path=str(tmp_path / f"answer-{lang}-phone.png"))
