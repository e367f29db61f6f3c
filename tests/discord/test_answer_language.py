"""/rule answers the asker first, in their language, on both transports: the deciding sentence
on top, the translation (labelled) before the original, the titles, sources and computed steps
in the user's language, the Discord locale sent as the prior for the question's language, and
the deciding sentence kept when a long ruling is cut to Discord's limits. No network, no model
(the fake engine over the real archive)."""

from __future__ import annotations

import asyncio
import copy
import re
from typing import Any

import discord
import httpx
import pytest

from service.discord import gateway as bot
from service.discord.markdown import escape, highlighted
from tests.discord.test_bot import PUBLIC, FakeApi, FakeInteraction, assert_within_limits
from tests.discord.test_interactions import command, make_app, opt, post

#: (Discord locale, question, the deciding sentence, the title): the fake engine answers each
#: in the locale's language; "Item 225" says nothing of its language, the locale decides it.
ANSWERED = [
    (
        "da",
        "Kan et angreb have både Push og Pull?",
        "Et angreb kan have både Push og Pull.",
        "Afklaring: Push og Pull kombineret i ét angreb",
    ),
    (
        "da",
        "Item 225",
        "Item 225 optager en 1-hånds-plads, ikke en brystplads.",
        "Erratum: Item 225 er et enhånds-item",
    ),
    (
        "de",
        "Item 225",
        "Gegenstand 225 belegt einen 1-Hand-Platz, keinen Körper-Platz.",
        "Erratum: Gegenstand 225 ist ein Einhand-Gegenstand",
    ),
    (
        "it",
        "Item 225",
        "L'oggetto 225 occupa uno spazio a 1 mano, non lo spazio del torso.",
        "Errata: L'oggetto 225 è un oggetto a una mano",
    ),
]
#: The labels of an English answer: none may show in another language's.
ENGLISH_LABELS = (
    "Source",
    "Related rulings",
    "Nearest rulings",
    "About",
    "Translation (",
    "original in",
    "unofficial translation",
    "rulebook excerpt",
    "Computed from your question",
    "no ruling in the archive",
    "English",
)
#: A damage question in each language: the computed steps in that language.
DAMAGE = {
    "da": (
        "Hvor meget skade tager en fjende med Shield 1 fra et angreb på 3?",
        "Beregnet ud fra dit spørgsmål (Skade)",
        "angrebsværdi 3",
    ),
    "de": (
        "Wie viel Schaden erleidet ein Gegner mit Schild 1 bei Angriff 3?",
        "Aus deiner Frage berechnet (Schaden)",
        "Angriffswert 3",
    ),
    "it": (
        "Quanti danni subisce un nemico con Scudo 1 da un attacco 3?",
        "Calcolato dalla tua domanda (Danno)",
        "valore d'attacco 3",
    ),
}
LOCALES = {"da": discord.Locale.danish, "de": discord.Locale.german, "it": discord.Locale.italian}


def english_labels(embed: dict[str, Any]) -> list[str]:
    """The English labels an embed shows (its title, field names, description and footer)."""
    shown = [
        embed.get("title", ""),
        embed.get("footer", {}).get("text", ""),
        *(f["name"] for f in embed.get("fields", [])),
        # the description's labels (in italics), not the rulings' own words
        *re.findall(r"\*\[?([^*\]\n]+)", embed.get("description", "")),
    ]
    return [label for label in ENGLISH_LABELS for text in shown if label in text]


def assert_asker_first(embed: dict[str, Any], sentence: str, original: str) -> None:
    """The deciding sentence opens the embed; the translation, labelled, comes before the
    original, which is there (linked); everything within Discord's limits."""
    description = embed["description"]
    assert description.startswith(f"**{escape(sentence)}**\n\n")
    assert description.index(escape(sentence)) < description.index(escape(original)[:40])
    assert re.search(r"\*\[[^\]]+\]\(https://rulings\.example\.org/r/[\w-]+\)\*\n>>> ", description)
    assert_within_limits(embed)


# -- the gateway bot, over HTTP ----------------------------------------------------------------


def gateway_rule(
    app, question: str, locale: Any, seen: list[httpx.Request] | None = None
) -> dict[str, Any]:
    """/rule through the gateway's handler and its API client, the API being `app`."""
    seen = seen if seen is not None else []
    client = app.test_client()

    def forward(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        keep = ("Content-Type", "Accept-Language", "X-Rulings-Client", "X-Rulings-Server")
        res = client.open(
            request.url.raw_path.decode(),
            method=request.method,
            data=request.content,
            headers={k: request.headers[k] for k in keep if k in request.headers},
        )
        return httpx.Response(
            res.status_code, content=res.data, headers={"Content-Type": res.mimetype}
        )

    interaction = FakeInteraction(locale)
    api = bot.RulingsAPI("http://api.test", transport=httpx.MockTransport(forward))
    asyncio.run(bot.handle_rule(interaction, api, bot.BotSettings(public_url=PUBLIC), question))
    (sent,) = [e[1] for e in interaction.events if e[0] == "send"]
    return sent["embed"].to_dict()


@pytest.mark.parametrize("lang, question, sentence, title", ANSWERED)
def test_the_gateways_answer_opens_with_the_deciding_sentence_in_the_users_language(
    fast_app, fake_engine, lang, question, sentence, title
):
    seen: list[httpx.Request] = []
    embed = gateway_rule(fast_app, question, LOCALES[lang], seen)
    assert seen[0].headers["Accept-Language"] == lang  # the locale: the question's prior
    assert embed["title"] == title
    answer = fake_engine.ask(question, hint=lang)["answer"]
    assert_asker_first(embed, sentence, answer["text"])
    assert english_labels(embed) == []


@pytest.mark.parametrize("lang", list(DAMAGE))
def test_the_gateways_computed_steps_are_in_the_users_language(fast_app, lang):
    question, name, step = DAMAGE[lang]
    embed = gateway_rule(fast_app, question, LOCALES[lang])
    first = embed["fields"][0]
    assert first["name"] == name and f"1. {step}" in first["value"]
    assert "attack value" not in first["value"]
    assert english_labels(embed) == []


def test_no_language_prior_for_a_locale_the_archive_lacks(fast_app):
    seen: list[httpx.Request] = []
    gateway_rule(fast_app, "Item 225", discord.Locale.japanese, seen)
    assert "Accept-Language" not in seen[0].headers


# -- the interactions endpoint, in-process -----------------------------------------------------


@pytest.fixture()
def signed_app(fake_engine, tmp_path, monkeypatch):
    app = make_app(fake_engine, tmp_path, monkeypatch)
    hints: list[str | None] = []
    ask = fake_engine.ask

    def spied(*args: Any, **kwargs: Any) -> dict[str, Any]:
        hints.append(kwargs.get("hint"))
        return ask(*args, **kwargs)

    monkeypatch.setattr(fake_engine, "ask", spied)
    app.hints = hints
    return app


def signed_rule(app, question: str, locale: str) -> dict[str, Any]:
    res = post(app.test_client(), command("rule", [opt("question", question)], locale=locale))
    assert res.status_code == 200 and res.get_json()["type"] == 4
    return res.get_json()["data"]["embeds"][0]


@pytest.mark.parametrize("lang, question, sentence, title", ANSWERED)
def test_the_endpoints_answer_opens_with_the_deciding_sentence_in_the_users_language(
    signed_app, fake_engine, lang, question, sentence, title
):
    embed = signed_rule(signed_app, question, {"da": "da", "de": "de", "it": "it"}[lang])
    assert signed_app.hints == [lang]  # the locale, passed to the engine as the prior
    assert embed["title"] == title
    answer = fake_engine.ask(question, hint=lang)["answer"]
    assert_asker_first(embed, sentence, answer["text"])
    assert english_labels(embed) == []


@pytest.mark.parametrize("lang", list(DAMAGE))
def test_the_endpoints_computed_steps_are_in_the_users_language(signed_app, lang):
    question, name, step = DAMAGE[lang]
    first = signed_rule(signed_app, question, lang)["fields"][0]
    assert first["name"] == name and f"1. {step}" in first["value"]


def test_the_guilds_locale_is_the_prior_when_the_users_is_not_one_of_the_seven(signed_app):
    data = command("rule", [opt("question", "Item 225")], locale="ja")
    post(signed_app.test_client(), dict(data, guild_locale="it"))
    assert signed_app.hints == ["it"]


# -- rulings the fake engine does not pick: titles, sources, the original's own language -------


def answer_of(client, record_id: str, lang: str, evidence: dict[str, Any]) -> dict[str, Any]:
    """An ask's response answering with `record_id` in `lang`, as the API shapes one."""
    ruling = client.get(f"/v1/rulings/{record_id}?lang={lang}").get_json()
    match = dict(ruling, score=0.9, evidence=evidence)
    return {
        "question": "?",
        "lang": lang,
        "game": None,
        "declined": False,
        "answer": match,
        "matches": [match],
        "reason": "a ruling answers it closely enough",
        "reason_local": "",
        "computed": None,
        "took_ms": 1.0,
    }


def evidence_for(text: str, sentence: str, shown: str, lang: str) -> dict[str, Any]:
    start = text.index(sentence)
    span = {"start": start, "end": start + len(sentence)}
    return {"shown": shown, "lang": lang, "text": sentence, "spans": [span], "score": 0.8}


def rule_with(answer: dict[str, Any], locale: Any) -> dict[str, Any]:
    """/rule through the gateway's handler, the API answering `answer`."""
    interaction = FakeInteraction(locale)
    api = FakeApi(interaction.events)
    api.answers["?"] = answer
    asyncio.run(bot.handle_rule(interaction, api, bot.BotSettings(public_url=PUBLIC), "?"))
    return interaction.events[-1][1]["embed"].to_dict()


def test_an_italian_rulebook_passage_is_titled_and_cited_in_danish(fast_client):
    ruling = fast_client.get("/v1/rulings/fh-it-3?lang=da").get_json()
    text = ruling["translation"]["text"]
    sentence = text[: text.index(";")]
    embed = rule_with(
        answer_of(fast_client, "fh-it-3", "da", evidence_for(text, sentence, "translation", "da")),
        discord.Locale.danish,
    )
    assert embed["title"] == "Regelbog: Uddrag af Frosthaven-regelbogen (italiensk), side 25-27"
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields["Kilde"] == "Uddrag af Frosthaven-regelbogen (italiensk) · side 25-27"
    assert (
        "*Oversættelse (dansk): uofficiel oversættelse; originalen er gældende*"
        in (embed["description"])
    )
    assert f"*[Original (italiensk)]({PUBLIC}/r/fh-it-3)*" in embed["description"]
    assert embed["footer"]["text"] == "fh-it-3 · frosthaven · original på italiensk"
    assert_asker_first(embed, sentence, ruling["text"])
    assert english_labels(embed) == []


def test_a_ruling_in_the_askers_own_language_is_highlighted_in_place(fast_client):
    ruling = fast_client.get("/v1/rulings/gh-da-1?lang=da").get_json()
    assert ruling["translation"] is None
    sentence = ruling["text"][ruling["text"].index("Når man") :].removesuffix(" (side 28).")
    embed = rule_with(
        answer_of(
            fast_client, "gh-da-1", "da", evidence_for(ruling["text"], sentence, "text", "da")
        ),
        discord.Locale.danish,
    )
    description = embed["description"]
    assert description.startswith(f"**{sentence}**\n\nEn karakter bliver udmattet")
    assert f"(de har et eller nul kort i deres discard). **{sentence}**" in description
    assert ">>>" not in description  # no translation: the original is the text
    assert embed["title"] == "Regelbog: Uddrag af Gloomhaven-regelbogen (dansk), side 28"
    assert english_labels(embed) == []


def test_a_deciding_sentence_that_is_nearly_all_the_text_is_shown_once(fast_client):
    ruling = fast_client.get("/v1/rulings/fh-it-1?lang=it").get_json()
    text = ruling["text"]
    sentence = text[: text.index(" (pp.")]
    embed = rule_with(
        answer_of(fast_client, "fh-it-1", "it", evidence_for(text, sentence, "text", "it")),
        discord.Locale.italian,
    )
    assert embed["description"] == f"**{sentence}** (pp. 18, 20, 34)"
    assert (
        embed["title"]
        == "Regolamento: Estratto dal regolamento di Frosthaven (italiano), pagg. 18, 20, 34"
    )
    assert english_labels(embed) == []


# -- cut to Discord's limits, the deciding sentence stays ------------------------------------


@pytest.mark.parametrize("where", ["start", "middle", "end"])
def test_a_very_long_ruling_keeps_its_deciding_sentence(fast_client, where):
    ruling = fast_client.get("/v1/rulings/fh-it-3?lang=de").get_json()
    sentence = "Der entscheidende Satz steht genau hier und bleibt in jedem Fall ganz."
    filler = "Ein langer Satz über etwas anderes, der nur Platz einnimmt. " * 120
    text = {
        "start": f"{sentence} {filler}{filler}",
        "middle": f"{filler}{sentence} {filler}",
        "end": f"{filler}{filler}{sentence}",
    }[where]
    long = copy.deepcopy(ruling)
    long["translation"]["text"] = text
    long["text"] = "Un testo originale molto lungo. " * 300
    answer = answer_of(
        fast_client, "fh-it-3", "de", evidence_for(text, sentence, "translation", "de")
    )
    answer["answer"] = answer["matches"][0] = dict(answer["answer"], **long)
    embed = rule_with(answer, discord.Locale.german)
    description = embed["description"]
    assert_within_limits(embed)
    assert description.startswith(f"**{sentence}**")  # on top ...
    assert description.count(f"**{sentence}**") == 2  # ... and in the text, both whole
    assert "…" in description  # the rest was shortened around it
    assert f"*[Original (Italienisch)]({PUBLIC}/r/fh-it-3)*\n>>> Un testo originale" in description
    assert {f["name"] for f in embed["fields"]} >= {"Quelle"}


def test_highlighting_cuts_around_the_sentence():
    text = "aaaa " * 100 + "The answer. " + "bbbb " * 100
    start = text.index("The answer.")
    spans = [(start, start + len("The answer."))]
    assert highlighted(text, spans, 10_000) == text[:start] + "**The answer.**" + text[start + 11 :]
    cut = highlighted(text, spans, 80)
    assert len(cut) <= 80 and "**The answer.**" in cut
    assert cut.startswith("…aaaa") and cut.endswith("bbbb…")
    # A sentence longer than the room keeps its start.
    assert highlighted(text, spans, 12) == "…**The…**"
    # What a ruling says is never read as markdown: only the highlight is bold.
    assert highlighted("Use *one* card_x.", [(0, 3)], 100) == "**Use** \\*one\\* card\\_x."
