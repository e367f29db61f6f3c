"""POST /discord/interactions with a key pair made here: signatures, PING, each command, the
autocomplete, deferred answers and their follow-up, command registration, and the vote buttons
under /rule (a signed click recorded in a question log of the test's own). No network."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import httpx
import pytest
from nacl.signing import SigningKey

from service.discord import interactions as ix

SIGNING = SigningKey.generate()
PUBLIC_KEY = SIGNING.verify_key.encode().hex()
URL = "/discord/interactions"


def make_app(engine, tmp_path, monkeypatch, ask_log: str | None = None):
    """The app with the endpoint on, over `engine`, with a question log of its own (`ask_log`:
    RULINGS_LOG's value; default a file in `tmp_path`); the follow-ups it sends are recorded."""
    from service.http.app import create_app

    monkeypatch.setenv("RULINGS_BOT_DB", str(tmp_path / "bot.sqlite3"))
    monkeypatch.delenv("DISCORD_PUBLIC_KEY", raising=False)
    followups: list[tuple[str, str, dict]] = []
    sent = threading.Event()

    def discord_api(request: httpx.Request) -> httpx.Response:
        followups.append((request.method, str(request.url), json.loads(request.content)))
        sent.set()
        return httpx.Response(200, json={"id": "1"})

    app = create_app(
        {
            "TESTING": True,
            "DISCORD_PUBLIC_KEY": PUBLIC_KEY,
            "PUBLIC_BASE_URL": "https://rulings.example.org",
            "DISCORD_TRANSPORT": httpx.MockTransport(discord_api),
            "ASK_LOG": ask_log or str(tmp_path / "asks.sqlite3"),
        }
    )
    app.extensions["rulings_engine"] = engine
    app.followups, app.followup_sent = followups, sent
    engine.ask("warm up")  # the first question loads the language detector: not what is timed here
    return app


@pytest.fixture()
def discord_app(fake_engine, tmp_path, monkeypatch):
    return make_app(fake_engine, tmp_path, monkeypatch)


def signed(
    body: dict[str, Any] | bytes, *, timestamp: int | None = None, key: SigningKey = SIGNING
) -> tuple[bytes, dict[str, str]]:
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    ts = str(int(time.time()) if timestamp is None else timestamp)
    signature = key.sign(ts.encode() + raw).signature.hex()
    return raw, {
        "X-Signature-Ed25519": signature,
        "X-Signature-Timestamp": ts,
        "Content-Type": "application/json",
    }


def post(client, body, **kwargs):
    raw, headers = signed(body, **kwargs)
    return client.post(URL, data=raw, headers=headers)


def command(
    name: str,
    options: list[dict[str, Any]],
    *,
    locale: str = "en-US",
    guild: str | None = None,
    permissions: str = "0",
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "type": 2,
        "id": "111",
        "application_id": "222",
        "token": "tok-en",
        "locale": locale,
        "data": {"id": "333", "name": name, "type": 1, "options": options},
    }
    if guild:
        data.update(guild_id=guild, member={"permissions": permissions, "user": {"id": "9"}})
    return data


def opt(name: str, value: Any, type_: int = 3) -> dict[str, Any]:
    return {"name": name, "type": type_, "value": value}


# -- fail closed ------------------------------------------------------------------------------


def test_without_a_public_key_the_route_is_404(fast_client, monkeypatch):
    monkeypatch.delenv("DISCORD_PUBLIC_KEY", raising=False)
    raw, headers = signed({"type": 1})
    res = fast_client.post(URL, data=raw, headers=headers)
    assert res.status_code == 404 and res.get_json()["error"]["code"] == "not_found"


def test_the_key_is_read_from_the_environment(fake_engine, monkeypatch):
    from service.http.app import create_app

    monkeypatch.setenv("DISCORD_PUBLIC_KEY", PUBLIC_KEY)
    app = create_app({"TESTING": True})
    app.extensions["rulings_engine"] = fake_engine
    assert post(app.test_client(), {"type": 1}).get_json() == {"type": 1}


def test_a_signed_ping_is_answered(discord_app):
    res = post(discord_app.test_client(), {"type": 1, "id": "1", "application_id": "2"})
    assert res.status_code == 200 and res.get_json() == {"type": 1}


@pytest.mark.parametrize(
    "change, message",
    [
        (
            lambda raw, h: (raw, {k: v for k, v in h.items() if k != "X-Signature-Ed25519"}),
            "missing",
        ),
        (
            lambda raw, h: (raw, {k: v for k, v in h.items() if k != "X-Signature-Timestamp"}),
            "missing",
        ),
        (lambda raw, h: (raw, {**h, "X-Signature-Ed25519": "zz" * 64}), "malformed"),
        (lambda raw, h: (raw, {**h, "X-Signature-Ed25519": "ab" * 10}), "malformed"),
        (lambda raw, h: (raw, {**h, "X-Signature-Timestamp": "soon"}), "malformed"),
        (lambda raw, h: (raw.replace(b'"type": 1', b'"type": 2'), h), "does not match"),  # tampered
        (
            lambda raw, h: (
                raw,
                {**h, "X-Signature-Timestamp": str(int(h["X-Signature-Timestamp"]) + 1)},
            ),
            "does not match",
        ),  # the same body replayed with a new timestamp
    ],
)
def test_unsigned_or_tampered_requests_are_refused(discord_app, change, message):
    raw, headers = change(*signed({"type": 1}))
    res = discord_app.test_client().post(URL, data=raw, headers=headers)
    assert res.status_code == 401 and res.is_json
    assert (
        res.get_json()["error"]["code"] == "unauthorized"
        and message in res.get_json()["error"]["message"]
    )


def test_another_key_is_refused(discord_app):
    res = post(discord_app.test_client(), {"type": 1}, key=SigningKey.generate())
    assert res.status_code == 401


@pytest.mark.parametrize("offset", [-301, 301, -3600])
def test_stale_requests_are_refused(discord_app, offset):
    res = post(discord_app.test_client(), {"type": 1}, timestamp=int(time.time()) + offset)
    assert res.status_code == 401 and "5 minutes" in res.get_json()["error"]["message"]


def test_a_body_over_the_limit_is_413(discord_app):
    res = post(discord_app.test_client(), b'{"type": 1, "pad": "' + b"x" * 70_000 + b'"}')
    assert res.status_code == 413 and res.get_json()["error"]["code"] == "payload_too_large"


@pytest.mark.parametrize(
    "body",
    [
        b"not json",
        b"[1, 2]",
        b'{"type": 9}',
        b'{"type": "1"}',
        b'{"type": 2, "data": {"name": "rule"}}',
        b"\xff\xfe",
    ],
)
def test_a_signed_body_that_is_no_interaction_is_400(discord_app, body):
    res = post(discord_app.test_client(), body)
    assert res.status_code == 400 and res.get_json()["error"]["code"] == "bad_request"


def test_a_malformed_public_key_fails_closed(discord_app):
    discord_app.config["DISCORD_PUBLIC_KEY"] = "not-hex"
    res = post(discord_app.test_client(), {"type": 1})
    assert res.status_code == 503 and res.get_json()["error"]["code"] == "discord_misconfigured"


# -- the commands ------------------------------------------------------------------------------


def test_errata_is_a_message_with_the_gateway_bots_embed(discord_app):
    import asyncio

    from service.discord.commands import errata_reply
    from service.discord.interactions import EngineApi

    res = post(discord_app.test_client(), command("errata", [opt("card", "item 225")], locale="de"))
    assert res.status_code == 200
    body = res.get_json()
    assert body["type"] == 4 and body["data"]["flags"] == 64  # ephemeral
    embed = body["data"]["embeds"][0]
    assert embed["title"] == "Regelentscheidungen zu „item 225“"
    assert "fh-errata-09" in embed["fields"][0]["value"]
    # The very embed the gateway bot sends for the same command.
    with discord_app.app_context():
        same = asyncio.run(
            errata_reply(
                EngineApi(discord_app.extensions["rulings_engine"]),
                "item 225",
                lang="de",
                public_url="https://rulings.example.org",
            )
        )
    assert same.embed == embed
    assert body["data"]["allowed_mentions"] == {"parse": []}


def test_rule_cites_the_two_card_rule_with_its_pages(engine, tmp_path, monkeypatch):
    """Issue 17's example, with the real model: the answer is the rule, cited with its pages."""
    discord_app = make_app(engine, tmp_path, monkeypatch)
    res = post(
        discord_app.test_client(),
        command("rule", [opt("question", "can I do two top actions"), opt("public", True, 5)]),
    )
    body = res.get_json()
    assert body["type"] == 4 and "flags" not in body["data"]  # public
    embed = body["data"]["embeds"][0]
    assert embed["url"].startswith("https://rulings.example.org/r/fh-")
    assert "pp. 18, 20, 34" in embed["title"]
    assert {f["name"]: f["value"] for f in embed["fields"]}["Source"].endswith("pp. 18, 20, 34")


def test_rule_shows_the_computed_answer_first(engine, tmp_path, monkeypatch):
    """A question with numbers: the signed /rule's embed opens with the computed answer."""
    discord_app = make_app(engine, tmp_path, monkeypatch)
    res = post(
        discord_app.test_client(),
        command(
            "rule",
            [opt("question", "Frosthaven: Schild 1, Angriff 5, ich ziehe -1. Wie viel Schaden?")],
            locale="de",
        ),
    )
    first = res.get_json()["data"]["embeds"][0]["fields"][0]
    assert first["name"] == "Aus deiner Frage berechnet (Schaden)"
    assert first["value"].startswith("**Du erleidest 3 Schaden.**")


def test_damage_in_the_users_locale(discord_app):
    res = post(
        discord_app.test_client(),
        command(
            "damage", [opt("attack", 6, 4), opt("shield", 2, 4), opt("ward", True, 5)], locale="fr"
        ),
    )
    embed = res.get_json()["data"]["embeds"][0]
    assert embed["title"] == "Dégâts subis : 2"
    assert any("fh-clar-10" in f["value"] for f in embed["fields"])


def test_bad_options_get_a_message_not_an_error(discord_app):
    res = post(
        discord_app.test_client(),
        command("damage", [opt("attack", 6, 4), opt("modifiers", "+1, banana")]),
    )
    data = res.get_json()["data"]
    assert res.status_code == 200 and "modifiers" in data["content"] and data["flags"] == 64
    unknown = post(discord_app.test_client(), command("teleport", [])).get_json()["data"]
    assert unknown["content"] == "This command is not known here."


def test_settings_game_then_rule_uses_it(discord_app, monkeypatch):
    from service.discord.guild_store import GuildSettings

    client = discord_app.test_client()
    settings = command(
        "settings",
        [{"name": "game", "type": 1, "options": [opt("game", "gloomhaven")]}],
        guild="42",
        permissions=str(1 << 5),
        locale="it",
    )
    res = post(client, settings).get_json()
    assert res["data"]["content"].startswith(
        "Le domande in questo server ora riguardano Gloomhaven"
    )
    assert GuildSettings().get_game(42) == "gloomhaven"
    asked = []
    real_ask = ix.EngineApi.ask

    async def spy(self, question, **kwargs):
        asked.append(kwargs.get("game"))
        return await real_ask(self, question, **kwargs)

    monkeypatch.setattr(ix.EngineApi, "ask", spy)
    post(client, command("rule", [opt("question", "traps?")], guild="42"))
    assert asked == ["gloomhaven"]
    denied = command(
        "settings",
        [{"name": "game", "type": 1, "options": [opt("game", "frosthaven")]}],
        guild="42",
        permissions="0",
    )
    assert "manage" in post(client, denied).get_json()["data"]["content"]
    assert GuildSettings().get_game(42) == "gloomhaven"


def test_autocomplete_answers_with_choices(discord_app):
    body = {
        "type": 4,
        "id": "1",
        "application_id": "2",
        "token": "t",
        "locale": "en-US",
        "data": {
            "name": "errata",
            "type": 1,
            "options": [{"name": "card", "type": 3, "value": "chiling breth", "focused": True}],
        },
    }
    res = post(discord_app.test_client(), body).get_json()
    assert res["type"] == 8
    assert res["data"]["choices"][0] == {
        "name": "Chaos Demon “Chilling Breath”",
        "value": "Chaos Demon “Chilling Breath”",
    }
    assert len(res["data"]["choices"]) <= 25


def test_a_slow_answer_is_deferred_then_sent_to_the_webhook(discord_app, monkeypatch):
    release = threading.Event()
    real_ask = ix.EngineApi.ask

    async def slow(self, question, **kwargs):
        release.wait(10)
        return await real_ask(self, question, **kwargs)

    monkeypatch.setattr(ix.EngineApi, "ask", slow)
    monkeypatch.setattr(ix, "REPLY_WITHIN", 0.05)
    res = post(discord_app.test_client(), command("rule", [opt("question", "Shield before Ward?")]))
    assert res.get_json() == {"type": 5, "data": {"flags": 64}}
    assert not discord_app.followups
    release.set()
    assert discord_app.followup_sent.wait(10)
    method, url, message = discord_app.followups[0]
    assert method == "PATCH"
    assert url == "https://discord.com/api/v10/webhooks/222/tok-en/messages/@original"
    assert "fh-clar-1" in json.dumps(message["embeds"][0]) and "flags" not in message


# -- registration -------------------------------------------------------------------------------


def test_register_dry_run_prints_the_localised_definitions(runner):
    from service.cli import cli

    result = runner.invoke(cli, ["discord", "register", "--dry-run"])
    assert result.exit_code == 0, result.output
    payloads = json.loads(result.output)
    names = [p["name"] for p in payloads]
    assert names == ["rule", "errata", "damage", "settings"]
    assert payloads[0]["name_localizations"]["da"] == "regel"
    game = next(o for o in payloads[0]["options"] if o["name"] == "game")
    assert {"frosthaven", "gloomhaven"} <= {c["value"] for c in game["choices"]}


def test_register_puts_the_same_definitions(monkeypatch):
    import asyncio

    from service.discord import gateway as bot

    seen = []

    def discord_api(request: httpx.Request) -> httpx.Response:
        seen.append(
            (
                request.method,
                request.url.path,
                request.headers["Authorization"],
                json.loads(request.content) if request.content else None,
            )
        )
        if request.url.path.endswith("/@me"):
            return httpx.Response(200, json={"id": "999"})
        return httpx.Response(200, json=json.loads(request.content))

    payloads = asyncio.run(bot.command_payloads([("frosthaven", "Frosthaven")]))
    count = bot.register_over_http("tok", payloads, transport=httpx.MockTransport(discord_api))
    assert count == 4
    assert seen[0][:3] == ("GET", "/api/v10/applications/@me", "Bot tok")
    assert seen[1][:2] == ("PUT", "/api/v10/applications/999/commands") and seen[1][3] == payloads
    bot.register_over_http(
        "tok",
        payloads,
        application_id="5",
        guild_id="7",
        transport=httpx.MockTransport(discord_api),
    )
    assert seen[-1][1] == "/api/v10/applications/5/guilds/7/commands"
    refused = httpx.MockTransport(
        lambda r: httpx.Response(401, json={"message": "401: Unauthorized"})
    )
    with pytest.raises(bot.BotError, match="refused the token"):
        bot.register_over_http("bad", payloads, application_id="5", transport=refused)
    with pytest.raises(bot.BotError, match="DISCORD_TOKEN is not set"):
        bot.register_over_http("", payloads)


def test_register_without_token_is_one_line(runner, monkeypatch):
    from service.cli import cli

    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    result = runner.invoke(cli, ["discord", "register"])
    assert result.exit_code == 1 and result.output.strip().splitlines() == [
        "Error: DISCORD_TOKEN is not set: export the bot token from the Discord developer portal"
    ]


# -- votes: the buttons under /rule and a click on one ----------------------------------------


def rows(app, sql: str) -> list[tuple]:
    """Rows of the app's question log (its queued asks written first)."""
    import sqlite3

    app.extensions["rulings_ask_log"].flush()
    db = sqlite3.connect(app.config["ASK_LOG"])
    try:
        return db.execute(sql).fetchall()
    finally:
        db.close()


@pytest.fixture()
def quick_votes(monkeypatch):
    """Votes answered in the response itself, never deferred, however busy the machine."""
    monkeypatch.setattr(ix, "REPLY_WITHIN", 10)


def click(custom_id: str, *, locale: str = "en-US", **data: Any) -> dict[str, Any]:
    """A click on a button (a MESSAGE_COMPONENT interaction) as Discord signs it."""
    return {
        "type": 3,
        "id": "444",
        "application_id": "222",
        "token": "tok-en",
        "locale": locale,
        "message": {"id": "555", "content": "Did this answer it?"},
        "data": {"custom_id": custom_id, "component_type": 2, **data},
    }


def asked(client, question: str = "Shield before Ward?", **kwargs: Any) -> dict[str, Any]:
    """A signed /rule and the message it answers with."""
    res = post(client, command("rule", [opt("question", question)], **kwargs))
    assert res.status_code == 200 and res.get_json()["type"] == 4
    return res.get_json()["data"]


def test_rule_is_logged_and_carries_the_vote_buttons(discord_app):
    message = asked(discord_app.test_client(), guild="42")
    buttons = message["components"][0]["components"]
    ask_id = buttons[-1]["custom_id"].removeprefix("fb:0:")
    assert len(ask_id) == 32 and message["content"] in (
        "Did this answer it?",
        "Does one of these rulings answer it?",
    )
    assert all(b["custom_id"].startswith(("fb:1:" + ask_id, "fb:0:" + ask_id)) for b in buttons)
    assert all(b["type"] == 2 and 0 < len(b["label"]) <= 80 for b in buttons)
    ((channel, server, question),) = rows(discord_app, "SELECT channel, server, question FROM asks")
    assert channel == "discord-interactions" and question == "Shield before Ward?"
    assert len(server) == 32 and server != "42"  # a keyed hash of the server, not its id
    dm = asked(discord_app.test_client())  # no server in a direct message
    assert dm["components"] and rows(discord_app, "SELECT server FROM asks")[1] == (None,)


def test_no_buttons_when_the_log_is_off(fake_engine, tmp_path, monkeypatch, quick_votes):
    app = make_app(fake_engine, tmp_path, monkeypatch, ask_log="off")
    message = asked(app.test_client())
    assert "components" not in message and "content" not in message and message["embeds"]
    vote = post(app.test_client(), click("fb:1:" + "a" * 32)).get_json()
    assert vote == {
        "type": 4,
        "data": {
            "content": "Votes cannot be recorded right now. Please try again later.",
            "flags": 64,
            "allowed_mentions": {"parse": []},
        },
    }


def test_a_signed_click_records_the_vote_and_updates_the_message(discord_app, quick_votes):
    client = discord_app.test_client()
    message = asked(client)
    no = message["components"][0]["components"][-1]["custom_id"]
    ask_id = no.removeprefix("fb:0:")
    res = post(client, click(no, locale="fr"))
    assert res.status_code == 200
    assert res.get_json() == {
        "type": 7,  # UPDATE_MESSAGE: the prompt replaced, the buttons removed, the embed kept
        "data": {
            "content": "Merci pour votre vote !",
            "components": [],
            "allowed_mentions": {"parse": []},
        },
    }
    post(client, click(f"fb:1:{ask_id}:fh-clar-10"))  # a nearest ruling voted for
    votes = rows(discord_app, "SELECT ask_id, helpful, ruling FROM feedback ORDER BY id")
    assert votes == [(ask_id, 0, None), (ask_id, 1, "fh-clar-10")]


def test_an_unsigned_click_is_refused(discord_app):
    client = discord_app.test_client()
    yes = asked(client)["components"][0]["components"][0]["custom_id"]
    raw, headers = signed(click(yes))
    res = client.post(URL, data=raw, headers={**headers, "X-Signature-Ed25519": "ab" * 64})
    assert res.status_code == 401
    assert post(client, click(yes), key=SigningKey.generate()).status_code == 401
    assert rows(discord_app, "SELECT * FROM feedback") == []


@pytest.mark.parametrize(
    "custom_id, locale, expected",
    [
        ("fb:1:" + "a" * 32, "en-US", "This answer can no longer be voted on."),  # unknown ask
        ("fb:1:" + "a" * 32, "de", "Für diese Antwort kann nicht mehr abgestimmt werden."),
        ("fb:7:nonsense", "en-US", "This button is not known here."),
        ("something-else", "en-US", "This button is not known here."),
    ],
)
def test_a_click_that_cannot_vote_is_one_short_message(
    discord_app, quick_votes, custom_id, locale, expected
):
    res = post(discord_app.test_client(), click(custom_id, locale=locale))
    assert res.status_code == 200
    assert res.get_json() == {
        "type": 4,
        "data": {"content": expected, "flags": 64, "allowed_mentions": {"parse": []}},
    }


def test_a_vote_for_a_ruling_that_left_the_archive_is_refused(discord_app, quick_votes):
    client = discord_app.test_client()
    ask_id = asked(client)["components"][0]["components"][-1]["custom_id"].removeprefix("fb:0:")
    res = post(client, click(f"fb:1:{ask_id}:fh-gone-99")).get_json()
    assert res["type"] == 4 and res["data"]["content"] == "This answer can no longer be voted on."
    assert rows(discord_app, "SELECT * FROM feedback") == []


@pytest.mark.parametrize(
    "body",
    [
        {"type": 3, "application_id": "222", "token": "t", "data": {"component_type": 2}},
        {"type": 3, "application_id": "222", "token": "t", "data": {"custom_id": 5}},
        {"type": 3, "token": "t", "data": {"custom_id": "fb:1:x"}},
    ],
)
def test_a_click_without_its_custom_id_token_or_application_is_400(discord_app, body):
    res = post(discord_app.test_client(), body)
    assert res.status_code == 400 and res.get_json()["error"]["code"] == "bad_request"


def test_a_slow_vote_is_deferred_then_the_message_updated(discord_app, monkeypatch):
    client = discord_app.test_client()
    ask_id = asked(client)["components"][0]["components"][-1]["custom_id"].removeprefix("fb:0:")
    release = threading.Event()
    real_feedback = ix.EngineApi.feedback

    async def slow(self, *args, **kwargs):
        release.wait(10)
        return await real_feedback(self, *args, **kwargs)

    monkeypatch.setattr(ix.EngineApi, "feedback", slow)
    monkeypatch.setattr(ix, "REPLY_WITHIN", 0.05)
    assert post(client, click(f"fb:1:{ask_id}")).get_json() == {"type": 6}  # DEFERRED_UPDATE
    release.set()
    assert discord_app.followup_sent.wait(10)
    method, url, message = discord_app.followups[0]
    assert (method, url) == (
        "PATCH",
        "https://discord.com/api/v10/webhooks/222/tok-en/messages/@original",
    )
    assert message == {
        "content": "Thanks for your vote!",
        "components": [],
        "allowed_mentions": {"parse": []},
    }
    # A slow vote that fails: a new message only the user sees, the answer left as it was.
    discord_app.followup_sent.clear()
    release.clear()
    assert post(client, click("fb:0:" + "b" * 32)).get_json() == {"type": 6}
    release.set()
    assert discord_app.followup_sent.wait(10)
    method, url, message = discord_app.followups[1]
    assert (method, url) == ("POST", "https://discord.com/api/v10/webhooks/222/tok-en")
    assert message["flags"] == 64 and message["content"] == "This answer can no longer be voted on."
