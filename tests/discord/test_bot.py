"""The Discord bot without Discord: embeds, limits, handlers, autocomplete, API client, CLI,
the user's language, the per-server default game, the on-demand sync and the vote buttons.

Handlers run with a fake interaction and a fake API client; the real API client is tested
against httpx.MockTransport (errors) and against the real server (`live_server`).
"""

from __future__ import annotations

import asyncio
import copy
from typing import Any

import discord
import httpx
import pytest

from service import i18n
from service.discord import commands as dc
from service.discord import gateway as bot
from service.discord import slash
from service.discord.embeds import LIMITS
from service.discord.gateway import BotSettings, ServiceError

PUBLIC = "https://rulings.example.org"
GAMES = [("frosthaven", "Frosthaven"), ("gloomhaven", "Gloomhaven")]

IT_1: dict[str, Any] = {
    "id": "fh-it-1",
    "game": "frosthaven",
    "kind": "rulebook",
    "lang": "it",
    "title": None,
    "context_label": None,
    "context": None,
    "text": "Scegli segretamente due carte abilità; durante il tuo turno esegui l’azione superiore di "
    "una carta e l’azione inferiore dell’altra. (pp. 18, 20, 34)",
    "citation": {
        "source": "Frosthaven rulebook excerpt (Italian)",
        "pages": ["18", "20", "34"],
        "page_ref": "(pp. 18, 20, 34)",
    },
    "cards": [],
    "amends": [],
    "translation": {
        "lang": "en",
        "text": "You secretly choose two ability cards; you cannot perform "
        "two top or two bottom actions. (pp. 18, 20, 34)",
        "title": None,
        "context": None,
        "edition_of": None,
        "label": "unofficial translation; the original is the authority",
    },
    "related": ["fh-nl-1"],
    "score": 0.0295,
}
ERRATA_09: dict[str, Any] = {
    "id": "fh-errata-09",
    "game": "frosthaven",
    "kind": "erratum",
    "lang": "en",
    "title": "Item 225 is a one-hand item",
    "context_label": None,
    "context": None,
    "text": "Item 225 occupies a 1-hand slot, not a chest slot.",
    "citation": {
        "source": "Frosthaven FAQ",
        "pages": [],
        "author": "dwarf74",
        "site": "boardgamegeek.com",
        "date": "2026-07-14",
    },
    "cards": [{"type": "item", "name": "225", "of": None, "label": "Item 225"}],
    "amends": [],
    "translation": None,
    "related": [],
}
ANSWER = {
    "question": "can I do two top actions?",
    "lang": "en",
    "game": None,
    "declined": False,
    "answer": IT_1,
    "matches": [IT_1, dict(ERRATA_09, score=0.02)],
    "reason": None,
    "took_ms": 12.0,
}
DECLINED = {
    "question": "any good pizza places near me?",
    "lang": "en",
    "game": None,
    "declined": True,
    "answer": None,
    "matches": [dict(ERRATA_09, score=0.02)],
    "reason": "no ruling answers it closely enough",
    "took_ms": 9.0,
}
DAMAGE = {
    "game": "frosthaven",
    "damage": 2,
    "would_suffer": 2,
    "ward_removed": True,
    "brittle_removed": False,
    "negated": False,
    "steps": [
        {
            "action": "Shield 2: 6 - 2 (not below 0)",
            "value": 4,
            "rulings": ["fh-clar-10"],
            "note": None,
        },
        {
            "action": "no attack modifier given: +0",
            "value": 6,
            "rulings": [],
            "note": "No modifiers in the request: counted as +0 (no draw).",
        },
        {
            "action": "Ward halves the damage: 4 / 2",
            "value": 2,
            "rulings": ["fh-clar-10"],
            "note": None,
        },
    ],
    "rulings": ["fh-clar-10"],
}
CARDS = [
    "Blinkblade",
    "Blinkblade “Make It Count”",
    "Boneshaper",
    "Item 049",
    "Item 225",
    "Savvas Icestorm “Frozen Shell”",
    "Town Guard",
    "Wind Demon",
]


def assert_within_limits(embed: dict[str, Any]) -> None:
    assert len(embed.get("title", "")) <= LIMITS["title"]
    assert len(embed.get("description", "")) <= LIMITS["description"]
    assert len(embed.get("footer", {}).get("text", "")) <= LIMITS["footer"]
    assert len(embed.get("fields", [])) <= LIMITS["fields"]
    for f in embed.get("fields", []):
        assert (
            0 < len(f["name"]) <= LIMITS["field_name"]
            and 0 < len(f["value"]) <= LIMITS["field_value"]
        )
    assert bot.embed_length(embed) <= LIMITS["total"]
    assert len(discord.Embed.from_dict(embed)) <= LIMITS["total"]  # discord.py's own count agrees


# -- embeds ---------------------------------------------------------------------------------


def test_answer_embed_shows_translation_then_original_citation_and_permalink():
    embed = bot.fit_embed(bot.answer_embed(ANSWER, PUBLIC))
    assert embed["title"] == "Rulebook: Frosthaven rulebook excerpt (Italian), pp. 18, 20, 34"
    # The asker's language first (labelled), the original (the authority, linked) under it.
    assert embed["description"] == (
        "*Translation (English): unofficial translation; the original is the authority*\n\n"
        + IT_1["translation"]["text"]
        + f"\n\n*[Original (Italian)]({PUBLIC}/r/fh-it-1)*\n>>> "
        + IT_1["text"]
    )
    assert embed["url"] == f"{PUBLIC}/r/fh-it-1?lang=en"
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert list(fields) == ["Source", "Related rulings"]
    assert fields["Source"] == "Frosthaven rulebook excerpt (Italian) · pp. 18, 20, 34"
    assert (
        fields["Related rulings"]
        == f"• Erratum: [Item 225 is a one-hand item]({PUBLIC}/r/fh-errata-09)"
    )
    assert embed["footer"]["text"] == "fh-it-1 · frosthaven · original in Italian"
    assert_within_limits(embed)


def test_answer_embed_without_public_url_has_no_links():
    embed = bot.fit_embed(bot.answer_embed(ANSWER))
    assert "url" not in embed
    assert "](" not in str(embed)
    related = next(f for f in embed["fields"] if f["name"] == "Related rulings")
    assert related["value"] == "• Erratum: Item 225 is a one-hand item (`fh-errata-09`)"


def test_erratum_embed_cites_author_site_date_and_cards():
    embed = bot.fit_embed(bot.ruling_embed(ERRATA_09, PUBLIC))
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields["Source"] == "Frosthaven FAQ · dwarf74 · boardgamegeek.com · 2026-07-14"
    assert fields["About"] == "Item 225"
    assert embed["url"] == f"{PUBLIC}/r/fh-errata-09"
    assert not any(name.startswith("Translation") for name in fields)


def test_declined_embed_says_so_and_lists_the_nearest():
    embed = bot.fit_embed(bot.answer_embed(DECLINED, PUBLIC))
    assert embed["title"] == "No ruling answers this question"
    assert "any good pizza places near me?" in embed["description"]
    assert "no ruling answers it closely enough" in embed["description"]
    assert embed["fields"][0]["name"] == "Nearest rulings"
    assert f"{PUBLIC}/r/fh-errata-09" in embed["fields"][0]["value"]


def test_an_over_long_ruling_respects_every_limit():
    huge = copy.deepcopy(IT_1)
    huge.update(
        title="T" * 1000,
        text="word " * 3000,
        context="c" * 2000,
        context_label="SITUATION",
        cards=[{"type": "card", "name": f"c{i}", "of": None, "label": "L" * 80} for i in range(40)],
    )
    huge["citation"].update(source="S" * 3000, author="A" * 500)
    huge["translation"].update(text="x" * 5000, title="y" * 400, label="z" * 400)
    matches = [dict(huge, id=f"fh-edge-{i:02}") for i in range(30)]
    res = dict(ANSWER, answer=huge, matches=[huge, *matches])
    for embed in (
        bot.fit_embed(bot.answer_embed(res, PUBLIC)),
        bot.fit_embed(bot.errata_embed("c" * 300, {"results": matches, "total": 30}, PUBLIC)),
        bot.fit_embed(bot.answer_embed(dict(DECLINED, question="q" * 5000, matches=matches))),
    ):
        assert_within_limits(embed)
    embed = bot.fit_embed(bot.answer_embed(res, PUBLIC))
    assert embed["title"].endswith("…") and embed["description"].endswith("…")
    assert embed["description"].startswith("*Translation (English): zzz")
    assert "*Situation: ccc" in embed["description"]


def test_fit_embed_drops_fields_past_25_and_says_so():
    embed = {
        "title": "t",
        "description": "d",
        "fields": [{"name": f"n{i}", "value": "v"} for i in range(40)],
        "footer": {"text": "foot"},
    }
    fitted = bot.fit_embed(embed)
    assert len(fitted["fields"]) == 25
    assert fitted["footer"]["text"] == "foot · 15 more not shown"
    assert len(embed["fields"]) == 40  # the input is not changed
    assert_within_limits(fitted)


def test_fit_embed_keeps_the_total_under_6000():
    embed = {
        "title": "t" * 300,
        "description": "d" * 5000,
        "fields": [{"name": "n" * 300, "value": "v" * 2000} for _ in range(10)],
    }
    fitted = bot.fit_embed(embed)
    assert_within_limits(fitted)
    assert len(fitted["description"]) == LIMITS["description"]  # the text is kept, fields go first
    assert fitted["footer"]["text"].endswith("more not shown")


def test_truncate():
    assert bot.truncate("abc", 3) == "abc"
    assert bot.truncate("abcdef", 4) == "abc…"
    assert bot.truncate(None, 5) == ""


def test_errata_embed():
    embed = bot.fit_embed(
        bot.errata_embed("item 225", {"results": [ERRATA_09], "total": 1}, PUBLIC)
    )
    assert embed["title"] == "Rulings about “item 225”" and embed["description"] == "1 ruling"
    field = embed["fields"][0]
    assert field["name"] == "Erratum: Item 225 is a one-hand item"
    assert "1-hand slot" in field["value"] and f"({PUBLIC}/r/fh-errata-09)" in field["value"]
    empty = bot.fit_embed(bot.errata_embed("zzz", {"results": [], "total": 0}))
    assert empty["description"] == "No ruling is about that card." and "fields" not in empty


def test_damage_embed_links_rulings_and_marks_uncited_steps():
    embed = bot.fit_embed(bot.damage_embed(DAMAGE, PUBLIC))
    assert embed["title"] == "Damage suffered: 2"
    assert "Ward removed" in embed["description"]
    assert embed["fields"][0]["name"] == "1. Shield 2: 6 - 2 (not below 0)"
    assert f"[fh-clar-10]({PUBLIC}/r/fh-clar-10)" in embed["fields"][0]["value"]
    assert "*no ruling in the archive*" in embed["fields"][1]["value"]
    assert "counted as +0" in embed["fields"][1]["value"]
    assert "`fh-clar-10`" in bot.damage_embed(DAMAGE)["fields"][0]["value"]


# -- autocomplete ---------------------------------------------------------------------------


def test_card_choices_come_from_the_server_and_survive_errors():
    api = FakeApi()
    choices = asyncio.run(bot.card_choices(api, "  item 2 "))
    assert [(c.name, c.value) for c in choices] == [("Item 225", "Item 225")]
    assert api.events[-1] == ("api", "cards", {"typed": "item 2"})  # ranked by the server
    api.names = ["Å" * 101, *(f"Card {i}" for i in range(40))]
    names = [c.name for c in asyncio.run(bot.card_choices(api, "card"))]
    assert names == [f"Card {i}" for i in range(25)]  # over-long names dropped, 25 at most
    api.fail = ServiceError("down")
    assert asyncio.run(bot.card_choices(api, "item")) == []


def test_card_suggestions_against_the_app(fast_client):
    """The bot's client asks GET /v1/cards?q= and shows the server's ranking."""

    def handler(request: httpx.Request) -> httpx.Response:
        res = fast_client.get(request.url.raw_path.decode())
        return httpx.Response(
            res.status_code, content=res.data, headers={"Content-Type": res.mimetype}
        )

    api = client_with(handler)
    choices = asyncio.run(bot.card_choices(api, "chiling breth"))
    assert choices[0].value == "Chaos Demon “Chilling Breath”"


# -- handlers -------------------------------------------------------------------------------


class FakeResponse:
    def __init__(self, events: list):
        self.events = events

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> None:
        self.events.append(("defer", {"ephemeral": ephemeral, "thinking": thinking}))


class FakeFollowup:
    def __init__(self, events: list):
        self.events = events

    async def send(
        self,
        content: str | None = None,
        *,
        embed: discord.Embed | None = None,
        ephemeral: bool = False,
        **extra: Any,
    ) -> None:
        sent = {"content": content, "embed": embed, "ephemeral": ephemeral}
        self.events.append(("send", {**sent, **extra}))  # `view` only when one is sent


class FakeInteraction:
    def __init__(self, locale: Any = discord.Locale.american_english, guild_id: int | None = None):
        self.events: list = []
        self.response, self.followup, self.locale = (
            FakeResponse(self.events),
            FakeFollowup(self.events),
            locale,
        )
        self.guild_id = guild_id

    async def edit_original_response(self, **changes: Any) -> None:
        self.events.append(("edit", changes))


class FakeApi:
    def __init__(self, events: list | None = None, ask_id: str | None = None):
        self.events = events if events is not None else []
        self.fail: ServiceError | None = None
        self.names: list[str] | None = None
        self.ask_id = ask_id  # what the API's question log gives an ask (None: the log is off)
        self.answers: dict[str, dict[str, Any]] = {}  # an answer of its own for a question

    async def _call(self, method: str, result: Any, **kwargs: Any) -> Any:
        self.events.append(("api", method, kwargs))
        if self.fail:
            raise self.fail
        return result

    async def ask(self, question, *, game=None, lang=None, k=4, server=None, hint=None):
        answer = dict(self.answers.get(question) or (DECLINED if "pizza" in question else ANSWER))
        answer["ask_id"] = self.ask_id
        return await self._call(
            "ask", answer, question=question, game=game, server=server, hint=hint
        )

    async def rulings_for_card(self, card, *, lang=None, limit=10):
        return await self._call(
            "rulings", {"results": [ERRATA_09], "total": 1}, card=card, lang=lang
        )

    async def cards(self, typed=""):
        ranked = (
            self.names
            if self.names is not None
            else [n for n in CARDS if n.lower().startswith(typed)]
        )
        return await self._call("cards", ranked, typed=typed)

    async def check(self, name, payload):
        return await self._call("check", DAMAGE, name=name, payload=payload)

    async def feedback(self, ask_id, helpful, *, ruling=None):
        vote = {"ask_id": ask_id, "helpful": helpful, "ruling": ruling}
        return await self._call("feedback", {**vote, "recorded": True}, **vote)


def run_handler(
    handler,
    *args,
    locale=discord.Locale.american_english,
    fail=None,
    guild_id=None,
    ask_id=None,
    **kwargs,
):
    interaction = FakeInteraction(locale, guild_id)
    api = FakeApi(interaction.events, ask_id)
    api.fail = fail
    asyncio.run(handler(interaction, api, BotSettings(public_url=PUBLIC), *args, **kwargs))
    return interaction.events


def test_rule_defers_first_then_follows_up_ephemeral():
    events = run_handler(bot.handle_rule, "can I do two top actions?")
    assert [e[0] for e in events] == ["defer", "api", "send"]
    assert events[0][1] == {"ephemeral": True, "thinking": True}
    assert events[1][2] == {
        "question": "can I do two top actions?",
        "game": None,
        "server": None,
        "hint": "en",  # the user's Discord language, the prior for the question's
    }
    sent = events[2][1]
    assert sent["ephemeral"] is True and isinstance(sent["embed"], discord.Embed)
    assert sent["embed"].url == f"{PUBLIC}/r/fh-it-1?lang=en"


def test_rule_public_and_game():
    events = run_handler(bot.handle_rule, "two top actions?", "frosthaven", True)
    assert events[0][1]["ephemeral"] is False and events[2][1]["ephemeral"] is False
    assert events[1][2]["game"] == "frosthaven"


def test_rule_declined():
    events = run_handler(bot.handle_rule, "any good pizza places near me?")
    assert events[-1][1]["embed"].title == "No ruling answers this question"


def test_api_errors_become_a_short_friendly_message():
    events = run_handler(
        bot.handle_rule, "x", fail=ServiceError("The rulings service cannot be reached right now.")
    )
    assert [e[0] for e in events] == ["defer", "api", "send"]
    assert events[-1][1] == {
        "content": "The rulings service cannot be reached right now.",
        "embed": None,
        "ephemeral": True,
    }


def test_errata_uses_the_user_locale_for_translations():
    events = run_handler(bot.handle_errata, "Item 225", locale=discord.Locale.spain_spanish)
    assert events[1][2] == {"card": "Item 225", "lang": "es"}
    assert events[-1][1]["embed"].title == "Reglas sobre “Item 225”"  # labelled in Spanish
    events = run_handler(bot.handle_errata, "Item 225", locale=discord.Locale.japanese)
    assert events[1][2]["lang"] is None
    assert events[-1][1]["embed"].title == "Rulings about “Item 225”"  # not one of the 7: English


def test_damage_handler_builds_the_request():
    events = run_handler(
        bot.handle_damage, attack=6, shield=2, ward=True, modifiers="+1 rolling; x2", hp=5
    )
    assert events[1][2] == {
        "name": "damage",
        "payload": {
            "game": "frosthaven",
            "attack": 6,
            "shield": 2,
            "ward": True,
            "brittle": False,
            "modifiers": ["+1 rolling", "x2"],
            "hp": 5,
        },
    }
    assert events[-1][1]["embed"].title == "Damage suffered: 2"


def test_commands_register_on_a_tree():
    client = discord.Client(intents=discord.Intents.none())
    tree = discord.app_commands.CommandTree(client)
    bot.register_commands(
        tree, FakeApi(), BotSettings(), [("frosthaven", "Frosthaven"), ("gloomhaven", "Gloomhaven")]
    )
    commands = {c.name: c for c in tree.get_commands()}
    assert set(commands) == {"rule", "errata", "damage", "settings"}
    game = next(p for p in commands["rule"].parameters if p.name == "game")
    assert [c.value for c in game.choices] == ["any", "frosthaven", "gloomhaven"]
    assert next(p for p in commands["errata"].parameters if p.name == "card").autocomplete
    assert {p.name for p in commands["damage"].parameters} >= {
        "attack",
        "shield",
        "ward",
        "brittle",
        "modifiers",
        "hp",
        "game",
    }


# -- the user's language ---------------------------------------------------------------------


def test_replies_are_labelled_in_the_interaction_locale():
    events = run_handler(
        bot.handle_rule, "kann ich zwei obere Aktionen ausführen?", locale=discord.Locale.german
    )
    embed = events[-1][1]["embed"].to_dict()
    # Titles and sources in German too (the importer's English source name said in German).
    assert (
        embed["title"]
        == "Regelbuch: Auszug aus dem Frosthaven-Regelbuch (Italienisch), S. 18, 20, 34"
    )
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields["Quelle"] == "Auszug aus dem Frosthaven-Regelbuch (Italienisch) · S. 18, 20, 34"
    assert embed["description"].startswith(
        "*Übersetzung (Englisch): inoffizielle Übersetzung; maßgeblich ist das Original*"
    )
    assert (
        "*[Original (Italienisch)](https://rulings.example.org/r/fh-it-1)*" in embed["description"]
    )
    assert fields["Verwandte Regelentscheidungen"].startswith("• Erratum: ")
    assert embed["footer"]["text"] == "fh-it-1 · frosthaven · Original auf Italienisch"
    declined = run_handler(bot.handle_rule, "pizza?", locale=discord.Locale.french)[-1][1]["embed"]
    assert declined.title == "Aucune règle ne répond à cette question"
    assert "(aucune règle ne répond d'assez près à la question)" in declined.description
    damage = run_handler(bot.handle_damage, attack=6, locale=discord.Locale.italian)[-1][1]["embed"]
    assert damage.title == "Danno subito: 2" and "Protezione rimossa" in damage.description
    failed = run_handler(
        bot.handle_rule, "x", locale=discord.Locale.dutch, fail=ServiceError(dc.UNREACHABLE)
    )
    assert (
        failed[-1][1]["content"]
        == "De uitsprakendienst is nu niet bereikbaar. Probeer het later opnieuw."
    )


def test_embed_limits_hold_in_every_language():
    huge = copy.deepcopy(IT_1)
    huge.update(
        text="word " * 3000,
        cards=[{"type": "card", "name": "c", "of": None, "label": "L" * 80}] * 40,
    )
    matches = [dict(huge, id=f"fh-edge-{i:02}") for i in range(30)]
    for lang in ("en", "nl", "da", "it", "de", "es", "fr"):
        assert_within_limits(
            bot.fit_embed(
                bot.answer_embed(dict(ANSWER, answer=huge, matches=[huge, *matches]), PUBLIC, lang),
                lang,
            )
        )
        fitted = bot.fit_embed({"title": "t", "fields": [{"name": "n", "value": "v"}] * 30}, lang)
        assert fitted["footer"]["text"] == i18n.ngettext(
            "%(n)d more not shown", "%(n)d more not shown", 5, lang
        )


def test_the_translator_localises_names_descriptions_and_choices():
    from discord.app_commands import TranslationContext, locale_str
    from discord.app_commands import TranslationContextLocation as Where

    translator = bot.CatalogueTranslator()

    def tr(text, locale, where):
        return asyncio.run(
            translator.translate(locale_str(text), locale, TranslationContext(where, None))
        )

    assert tr("rule", discord.Locale.german, Where.command_name) == "regel"
    assert tr("question", discord.Locale.danish, Where.parameter_name) == "spørgsmål"
    assert tr("Any game", discord.Locale.spain_spanish, Where.choice_name) == "Cualquier juego"
    assert (
        tr("Which game", discord.Locale.latin_american_spanish, Where.parameter_description)
        == "Qué juego"
    )
    assert tr("rule", discord.Locale.american_english, Where.command_name) is None  # the source
    assert tr("rule", discord.Locale.japanese, Where.command_name) is None  # not one of the 7
    assert tr("Frosthaven", discord.Locale.french, Where.choice_name) is None  # names stay


def test_command_payloads_carry_valid_localisations():
    payloads = {p["name"]: p for p in asyncio.run(bot.command_payloads(GAMES))}
    assert set(payloads) == {"rule", "errata", "damage", "settings"}
    rule = payloads["rule"]
    assert (
        rule["name_localizations"]["de"] == "regel" and rule["name_localizations"]["it"] == "regola"
    )
    assert (
        rule["description_localizations"]["fr"]
        == "Répondre à une question de règles avec la règle qui y répond"
    )
    names = []
    for payload in payloads.values():
        for option in [
            payload,
            *payload.get("options", []),
            *(o for p in payload.get("options", []) for o in p.get("options", [])),
        ]:
            names += list((option.get("name_localizations") or {}).values()) + [option["name"]]
            for value in (option.get("description_localizations") or {}).values():
                assert 1 <= len(value) <= 100
    assert all(slash.NAME_PATTERN.match(n) and n == n.lower() for n in names), names
    for payload in payloads.values():  # option names stay unique within a command in every locale
        for locale in ("de", "nl", "da", "it", "es-ES", "fr"):
            local = [
                o.get("name_localizations", {}).get(locale, o["name"])
                for o in payload.get("options", [])
            ]
            assert len(local) == len(set(local)), (payload["name"], locale)
    settings = payloads["settings"]
    assert settings["default_member_permissions"] == discord.Permissions(manage_guild=True).value
    game = settings["options"][0]
    assert game["name"] == "game" and game["type"] == 1  # /settings game


# -- the per-server default game --------------------------------------------------------------


def test_store_is_created_on_first_write_and_keeps_one_game_per_server(tmp_path):
    from service.discord.guild_store import GuildSettings

    path = tmp_path / "nested" / "bot.sqlite3"
    store = GuildSettings(path)
    assert store.get_game(1) is None and not path.exists()  # reading creates nothing
    store.set_game(1, "gloomhaven")
    store.set_game(2, "frosthaven")
    store.set_game(1, "frosthaven")
    assert path.exists()
    assert (store.get_game(1), store.get_game(2), store.get_game(3), store.get_game(None)) == (
        "frosthaven",
        "frosthaven",
        None,
        None,
    )
    store.set_game(2, None)
    assert GuildSettings(path).get_game(2) is None  # kept on disk, not in memory


def test_store_path_setting(monkeypatch, tmp_path):
    from service.discord.guild_store import DEFAULT_PATH, GuildSettings

    monkeypatch.delenv("RULINGS_BOT_DB", raising=False)
    assert GuildSettings().path == DEFAULT_PATH
    monkeypatch.setenv("RULINGS_BOT_DB", str(tmp_path / "x.sqlite3"))
    assert GuildSettings().path == tmp_path / "x.sqlite3"


def test_a_failed_write_leaves_the_previous_game(tmp_path, monkeypatch):
    import sqlite3

    from service.discord import guild_store

    store = guild_store.GuildSettings(tmp_path / "bot.sqlite3")
    store.set_game(7, "gloomhaven")
    monkeypatch.setattr(
        guild_store, "SCHEMA", "CREATE TABLE broken ("
    )  # fails inside the transaction
    with pytest.raises(sqlite3.Error):
        store.set_game(7, "frosthaven")
    assert store.get_game(7) == "gloomhaven"


def test_settings_game_and_rule_use_the_server_default(tmp_path):
    from service.discord.guild_store import GuildSettings

    store = GuildSettings(tmp_path / "bot.sqlite3")
    interaction = FakeInteraction(discord.Locale.danish, guild_id=42)
    interaction.response.send_message = lambda content, ephemeral: (
        interaction.events.append(("message", content, ephemeral)) or asyncio.sleep(0)
    )
    asyncio.run(bot.handle_settings_game(interaction, store, "gloomhaven", dict(GAMES)))
    assert interaction.events[-1] == (
        "message",
        "Spørgsmål på denne server handler nu om Gloomhaven, medmindre de nævner et andet spil.",
        True,
    )
    assert store.get_game(42) == "gloomhaven"
    events = run_handler(bot.handle_rule, "traps?", guild_id=42, store=store)
    assert events[1][2]["game"] == "gloomhaven"  # sent as `game` with the question
    events = run_handler(bot.handle_rule, "traps?", "frosthaven", guild_id=42, store=store)
    assert events[1][2]["game"] == "frosthaven"  # a game chosen in the command wins
    events = run_handler(bot.handle_rule, "traps?", "any", guild_id=42, store=store)
    assert events[1][2]["game"] is None  # "any game" asks about every game
    events = run_handler(bot.handle_damage, attack=3, guild_id=42, store=store)
    assert events[1][2]["payload"]["game"] == "gloomhaven"
    assert run_handler(bot.handle_rule, "traps?", guild_id=7, store=store)[1][2]["game"] is None
    asyncio.run(bot.handle_settings_game(interaction, store, "any", dict(GAMES)))
    assert store.get_game(42) is None
    dm = FakeInteraction(discord.Locale.german)
    dm.response.send_message = interaction.response.send_message
    asyncio.run(bot.handle_settings_game(dm, store, "gloomhaven", dict(GAMES)))
    assert (
        interaction.events[-1][1] == "Servereinstellungen lassen sich nur auf einem Server ändern."
    )


# -- syncing on demand, sharded ----------------------------------------------------------------


@pytest.mark.parametrize("sync", [False, True])
def test_commands_are_synced_only_when_asked(sync, tmp_path):
    from service.discord.guild_store import GuildSettings

    assert issubclass(bot.RulingsBot, discord.AutoShardedClient)
    client = bot.RulingsBot(BotSettings(sync=sync), FakeGamesApi(), GuildSettings(tmp_path / "db"))
    synced = []

    async def fake_sync(*args, **kwargs):
        synced.append(
            await asyncio.gather(
                *(
                    c.get_translated_payload(client.tree, client.tree.translator)
                    for c in client.tree.get_commands()
                )
            )
        )
        return []

    client.tree.sync = fake_sync
    asyncio.run(client.setup_hook())
    assert {c.name for c in client.tree.get_commands()} == {"rule", "errata", "damage", "settings"}
    assert isinstance(client.tree.translator, bot.CatalogueTranslator)
    assert len(synced) == (1 if sync else 0)
    if sync:
        rule = next(p for p in synced[0] if p["name"] == "rule")
        assert rule["name_localizations"]["nl"] == "regel"  # synced with the translations


class FakeGamesApi(FakeApi):
    async def games(self):
        return GAMES

    async def aclose(self):
        pass


def test_cli_sync_flag_reaches_the_bot(runner, monkeypatch):
    from service import cli as cli_module

    seen = {}
    monkeypatch.setattr(
        bot,
        "run_bot",
        lambda token, api_url, public_url, sync=False: seen.update(token=token, sync=sync),
    )
    monkeypatch.setenv("DISCORD_TOKEN", "t0ken")
    assert runner.invoke(cli_module.cli, ["discord"]).exit_code == 0 and seen == {
        "token": "t0ken",
        "sync": False,
    }
    assert (
        runner.invoke(cli_module.cli, ["discord", "--sync"]).exit_code == 0 and seen["sync"] is True
    )


# -- the API client -------------------------------------------------------------------------


def client_with(handler) -> bot.RulingsAPI:
    return bot.RulingsAPI("http://api.test", transport=httpx.MockTransport(handler))


@pytest.mark.parametrize(
    "handler, expected",
    [
        (
            lambda r: httpx.Response(
                422, json={"error": {"code": "invalid_request", "message": "'k' is bad"}}
            ),
            "That request was not accepted: 'k' is bad",
        ),
        (
            lambda r: httpx.Response(
                500, json={"error": {"code": "internal_error", "message": "boom"}}
            ),
            "The rulings service had a problem answering. Please try again later.",
        ),
        (
            lambda r: httpx.Response(502, text="<html>bad gateway</html>"),
            "The rulings service had a problem answering. Please try again later.",
        ),
    ],
)
def test_api_client_error_messages(handler, expected):
    with pytest.raises(ServiceError) as caught:
        asyncio.run(client_with(handler).ask("q"))
    assert caught.value.message == expected


@pytest.mark.parametrize(
    "exc, expected",
    [
        (httpx.ReadTimeout("slow"), "took too long"),
        (httpx.ConnectError("refused"), "cannot be reached"),
    ],
)
def test_api_client_network_errors(exc, expected):
    def handler(request):
        raise exc

    with pytest.raises(ServiceError) as caught:
        asyncio.run(client_with(handler).ask("q"))
    assert expected in caught.value.message


def test_api_client_asks_the_server_for_card_names():
    calls = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(str(request.url))
        return httpx.Response(200, json={"cards": CARDS})

    async def twice():
        api = client_with(handler)
        first, second = await api.cards(), await api.cards("item 2")
        await api.aclose()
        return first, second

    assert asyncio.run(twice()) == (CARDS, CARDS)
    assert calls == ["http://api.test/v1/cards", "http://api.test/v1/cards?q=item+2"]


@pytest.mark.slow
def test_api_client_against_the_real_server(live_server):
    async def scenario():
        api = bot.RulingsAPI(live_server)
        try:
            return (
                await api.ask("can I do two top actions?"),
                await api.rulings_for_card("item 225", lang="de"),
                await api.cards("item 22"),
                await api.games(),
                await api.check(
                    "damage", {"game": "frosthaven", "attack": 6, "shield": 2, "ward": True}
                ),
            )
        finally:
            await api.aclose()

    answer, errata, cards, games, damage = asyncio.run(scenario())
    assert answer["answer"]["id"] in {"fh-it-1", "fh-nl-1"}
    assert errata["results"][0]["id"] == "fh-errata-09"
    assert "Item 225" in cards and ("frosthaven", "Frosthaven") in games
    assert damage["damage"] == 2
    for embed in (
        bot.fit_embed(bot.answer_embed(answer, PUBLIC)),
        bot.fit_embed(bot.damage_embed(damage)),
        bot.fit_embed(bot.errata_embed("item 225", errata)),
    ):
        assert_within_limits(embed)


# -- the CLI --------------------------------------------------------------------------------


def test_cli_without_token_is_one_line(runner, monkeypatch):
    from service.cli import cli

    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    result = runner.invoke(cli, ["discord"])
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        "Error: DISCORD_TOKEN is not set: export the bot token from the Discord developer portal"
    ]
    assert "Traceback" not in result.output


def test_run_bot_refuses_a_blank_token():
    with pytest.raises(bot.BotError):
        bot.run_bot("   ")


# -- the bot's key --------------------------------------------------------------------------


def test_the_bot_sends_the_api_key_when_it_is_set(monkeypatch):
    import asyncio

    from service.discord import gateway as bot

    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"games": []})

    async def games(api: bot.RulingsAPI) -> None:
        await api.games()
        await api.aclose()

    asyncio.run(
        games(
            bot.RulingsAPI("http://api.test", transport=httpx.MockTransport(handler), api_key="k3y")
        )
    )
    asyncio.run(games(bot.RulingsAPI("http://api.test", transport=httpx.MockTransport(handler))))
    assert seen[0].headers["X-API-Key"] == "k3y" and "X-API-Key" not in seen[1].headers
    # run_bot reads RULINGS_API_KEY when not given it, and hands it to its API client.
    made = {}
    monkeypatch.setenv("RULINGS_API_KEY", "from-env")
    monkeypatch.setattr(bot, "RulingsAPI", lambda url, timeout, api_key: made.update(key=api_key))
    monkeypatch.setattr(
        bot, "RulingsBot", lambda settings, api: type("B", (), {"run": lambda *a, **k: None})()
    )
    bot.run_bot("t0ken", "http://api.test")
    assert made == {"key": "from-env"}


# -- votes on /rule's answer ------------------------------------------------------------------

ASK_ID = "0123456789abcdef0123456789abcdef"


def buttons_of(view: discord.ui.View) -> list[tuple[str, str | None, str]]:
    """(custom_id, label, emoji) of each button of a sent view."""
    return [(b.custom_id, b.item.label, str(b.item.emoji)) for b in view.children]


def test_rule_answer_carries_the_vote_buttons():
    events = run_handler(bot.handle_rule, "can I do two top actions?", ask_id=ASK_ID)
    sent = events[-1][1]
    assert sent["content"] == "Did this answer it?" and sent["embed"].title.startswith("Rulebook")
    assert all(isinstance(b, bot.FeedbackButton) for b in sent["view"].children)
    assert buttons_of(sent["view"]) == [
        (f"fb:1:{ASK_ID}", "Yes, it answers it", "👍"),
        (f"fb:0:{ASK_ID}", "No, it does not", "👎"),
    ]
    assert sent["view"].timeout is None  # the buttons outlive any view the bot keeps


def test_a_decline_offers_a_vote_for_each_nearest_ruling():
    events = run_handler(bot.handle_rule, "pizza?", ask_id=ASK_ID, locale=discord.Locale.german)
    sent = events[-1][1]
    assert sent["content"] == "Beantwortet eine dieser Regelentscheidungen die Frage?"
    assert buttons_of(sent["view"]) == [
        (f"fb:1:{ASK_ID}:fh-errata-09", "Item 225 is a one-hand item", "👍"),
        (f"fb:0:{ASK_ID}", "Keine davon", "👎"),
    ]


def test_no_buttons_when_the_log_is_off():
    for question in ("two top actions?", "pizza?"):
        sent = run_handler(bot.handle_rule, question)[-1][1]  # ask_id: null
        assert "view" not in sent and sent["content"] is None
    res = dict(ANSWER, ask_id=None)
    assert dc.feedback_components(res) is None
    assert dc.feedback_components(dict(res, ask_id="not-an-id")) is None
    assert (
        dc.feedback_components(dict(DECLINED, matches=[], ask_id=ASK_ID)) is None
    )  # nothing shown


def test_vote_buttons_stay_within_discords_limits():
    long_title = dict(ERRATA_09, title="T" * 300)
    nearest = [dict(long_title, id=f"fh-edge-{i:02}") for i in range(6)]
    too_long_id = dict(ERRATA_09, id="x" * 63)  # over what a custom_id can carry: no button
    res = dict(DECLINED, matches=[too_long_id, *nearest], ask_id=ASK_ID)
    row = dc.feedback_components(res, "fr")
    assert row is not None and row[0]["type"] == 1
    buttons = row[0]["components"]
    assert [b["custom_id"] for b in buttons] == [
        f"fb:1:{ASK_ID}:fh-edge-00",
        f"fb:1:{ASK_ID}:fh-edge-01",
        f"fb:1:{ASK_ID}:fh-edge-02",
        f"fb:0:{ASK_ID}",
    ]  # three nearest at most, then "none of them"
    assert all(len(b["label"]) <= 80 and len(b["custom_id"]) <= 100 for b in buttons)
    assert buttons[0]["label"].endswith("…") and buttons[-1]["label"] == "Aucune"
    for b in buttons:
        vote = dc.FeedbackVote.parse(b["custom_id"])
        assert vote is not None and vote.custom_id == b["custom_id"]


@pytest.mark.parametrize(
    "custom_id, vote",
    [
        (f"fb:1:{ASK_ID}", dc.FeedbackVote(ASK_ID, True)),
        (f"fb:0:{ASK_ID}", dc.FeedbackVote(ASK_ID, False)),
        (f"fb:1:{ASK_ID}:fh-clar-10", dc.FeedbackVote(ASK_ID, True, "fh-clar-10")),
        (f"fb:2:{ASK_ID}", None),
        (f"fb:1:{ASK_ID.upper()}", None),
        (f"fb:1:{ASK_ID}:", None),
        (f"fb:1:{ASK_ID}:a:b", None),
        ("fb:1:abc", None),
        ("rule:1", None),
        ("", None),
    ],
)
def test_vote_custom_ids(custom_id, vote):
    assert dc.FeedbackVote.parse(custom_id) == vote


def click(custom_id: str, *, fail=None, locale=discord.Locale.american_english):
    interaction = FakeInteraction(locale)
    api = FakeApi(interaction.events)
    api.fail = fail
    asyncio.run(bot.handle_feedback(interaction, api, custom_id))
    return interaction.events


def test_a_click_records_the_vote_and_updates_the_message():
    events = click(f"fb:0:{ASK_ID}")
    assert events == [
        ("defer", {"ephemeral": False, "thinking": False}),  # a component's: type 6
        ("api", "feedback", {"ask_id": ASK_ID, "helpful": False, "ruling": None}),
        ("edit", {"content": "Thanks for your vote!", "view": None}),  # the buttons removed
    ]
    events = click(f"fb:1:{ASK_ID}:fh-errata-09", locale=discord.Locale.italian)
    assert events[1][2] == {"ask_id": ASK_ID, "helpful": True, "ruling": "fh-errata-09"}
    assert events[2][1]["view"] is None and events[2][1]["content"] != "Thanks for your vote!"


@pytest.mark.parametrize(
    "fail, expected",
    [
        (ServiceError(dc.VOTE_GONE), "This answer can no longer be voted on."),
        (ServiceError(dc.VOTE_OFF), "Votes cannot be recorded right now. Please try again later."),
        (ServiceError(dc.UNREACHABLE), dc.UNREACHABLE),
    ],
)
def test_a_vote_that_fails_is_one_short_message(fail, expected):
    events = click(f"fb:1:{ASK_ID}", fail=fail)
    assert events[-1] == (
        "send",
        {"content": expected, "embed": None, "ephemeral": True},
    )  # only the user sees it; the answer and its buttons stay
    assert not any(e[0] == "edit" for e in events)
    dutch = click(f"fb:1:{ASK_ID}", fail=fail, locale=discord.Locale.dutch)[-1][1]["content"]
    assert dutch != expected  # in the user's language


def test_a_malformed_vote_button_is_told_so_without_asking_the_api():
    events = click("fb:9:nope")
    assert [e[0] for e in events] == ["defer", "send"]
    assert events[-1][1]["content"] == "This button is not known here."


def test_a_click_reaches_the_dynamic_button_and_the_bots_api():
    """discord.py swaps the clicked button for a FeedbackButton, then calls its callback."""
    import re

    interaction = FakeInteraction()
    interaction.client = type("Bot", (), {"api": FakeApi(interaction.events)})()
    template = bot.FeedbackButton.__discord_ui_compiled_template__
    custom_id = f"fb:1:{ASK_ID}"
    match = template.fullmatch(custom_id)
    assert match and template.fullmatch("fb:" + "x" * 98) is None and not re.match(template, "x")
    base = discord.ui.Button(label="Yes, it answers it", custom_id=custom_id)
    item = asyncio.run(bot.FeedbackButton.from_custom_id(interaction, base, match))
    asyncio.run(item.callback(interaction))
    assert interaction.events[1] == (
        "api",
        "feedback",
        {"ask_id": ASK_ID, "helpful": True, "ruling": None},
    )
    lost = FakeInteraction()
    lost.client = object()  # not the RulingsBot: no API to vote through
    asyncio.run(item.callback(lost))
    assert lost.events[-1][1]["content"] == dc.UNREACHABLE


def test_the_bot_listens_for_vote_buttons(tmp_path):
    from service.discord.guild_store import GuildSettings

    client = bot.RulingsBot(BotSettings(), FakeGamesApi(), GuildSettings(tmp_path / "db"))
    registered = []
    client.add_dynamic_items = lambda *items: registered.extend(items)
    asyncio.run(client.setup_hook())
    assert registered == [bot.FeedbackButton]


def test_the_gateways_asks_name_the_client_and_the_server():
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json=dict(ANSWER, ask_id=ASK_ID))

    async def asks():
        api = client_with(handler)
        await api.ask("q", server="123456789012345678")
        await api.ask("q")
        await api.aclose()

    asyncio.run(asks())
    assert [r.headers["X-Rulings-Client"] for r in seen] == ["discord-gateway"] * 2
    assert seen[0].headers["X-Rulings-Server"] == "123456789012345678"
    assert "X-Rulings-Server" not in seen[1].headers
    # handle_rule hands the server's id to the API, and nothing in a direct message.
    assert run_handler(bot.handle_rule, "q?", guild_id=42)[1][2]["server"] == "42"
    assert run_handler(bot.handle_rule, "q?")[1][2]["server"] is None


@pytest.mark.parametrize(
    "status, expected",
    [(404, dc.VOTE_GONE), (422, dc.VOTE_GONE), (503, dc.VOTE_OFF), (500, dc.FAILED)],
)
def test_api_client_feedback_errors(status, expected):
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(status, json={"error": {"code": "x", "message": "no"}})

    with pytest.raises(ServiceError) as caught:
        asyncio.run(client_with(handler).feedback(ASK_ID, True))
    assert caught.value.message == expected


def test_a_vote_through_the_api_client_is_logged(fake_engine, tmp_path):
    """The gateway's path end to end: ask with its headers, then vote, against the app."""
    import sqlite3

    from service.http.app import create_app

    app = create_app({"TESTING": True, "ASK_LOG": str(tmp_path / "asks.sqlite3")})
    app.extensions["rulings_engine"] = fake_engine
    flask_client = app.test_client()

    def handler(request: httpx.Request) -> httpx.Response:
        res = flask_client.open(
            request.url.raw_path.decode(),
            method=request.method,
            data=request.content,
            headers=dict(request.headers),
        )
        return httpx.Response(
            res.status_code, content=res.data, headers={"Content-Type": res.mimetype}
        )

    async def scenario():
        api = client_with(handler)
        try:
            answer = await api.ask("Shield before Ward?", server="424242")
            voted = await api.feedback(answer["ask_id"], False, ruling="fh-clar-10")
            with pytest.raises(ServiceError) as unknown:
                await api.feedback("f" * 32, True)
            return answer, voted, unknown.value.message
        finally:
            await api.aclose()

    answer, voted, unknown = asyncio.run(scenario())
    assert voted == {
        "ask_id": answer["ask_id"],
        "helpful": False,
        "ruling": "fh-clar-10",
        "recorded": True,
    }
    assert unknown == dc.VOTE_GONE
    app.extensions["rulings_ask_log"].flush()
    db = sqlite3.connect(tmp_path / "asks.sqlite3")
    try:
        ask = db.execute("SELECT channel, server FROM asks WHERE id = ?", (answer["ask_id"],))
        channel, server = ask.fetchone()
        votes = db.execute("SELECT ask_id, helpful, ruling FROM feedback").fetchall()
    finally:
        db.close()
    assert channel == "discord-gateway" and len(server) == 32 and "424242" not in server
    assert votes == [(answer["ask_id"], 0, "fh-clar-10")]
