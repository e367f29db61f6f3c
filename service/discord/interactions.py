"""``POST /discord/interactions``: Discord's slash commands as signed HTTP requests, answered by
the API itself (no gateway process).

Enabled when ``DISCORD_PUBLIC_KEY`` (the application's hex Ed25519 public key) is set; 404
otherwise. Every request is checked before its body is parsed, and refused closed: a body over
the API's limit is a 413; a missing, malformed or wrong signature over timestamp + raw body, or a
timestamp more than five minutes from now, a 401; a signed body that is not an interaction a
400 (all in the API's JSON error shape). Then:

  - PING (type 1) -> ``{"type": 1}``;
  - ``/rule``, ``/errata``, ``/damage``, ``/settings game`` (type 2): the same replies and embeds
    as the gateway bot (``service.discord_commands``), computed in-process by the engine, in
    the user's locale, ephemeral unless ``public``: the message itself (type 4) when it is
    ready within ``REPLY_WITHIN`` seconds, else a deferred response (type 5) and the message
    sent later to the interaction's webhook;
  - a click on a vote button under ``/rule``'s answer (type 3, custom_id ``fb:...``): the vote
    recorded in the question log, then the message updated (type 7: the buttons removed, a
    thank-you for the prompt), or a short message only the user sees when the vote cannot be
    recorded (type 4); deferred (type 6) like a command when it takes longer;
  - the ``/errata`` card autocomplete (type 4) -> choices (type 8).

The asks answered here go to the question log as the channel ``discord-interactions``, their
server as a keyed hash (``service.discord.inprocess``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from functools import lru_cache
from typing import Any

import httpx
from flask import Blueprint, current_app, jsonify, request
from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey
from werkzeug.exceptions import NotFound

from service.discord import commands as dc
from service.discord.commands import FAILED, Reply, ServiceError
from service.discord.guild_store import GuildSettings
from service.discord.inprocess import EngineApi
from service.http.context import MAX_BODY, HttpError, error_response, get_ask_log, get_engine
from service.i18n import _

log = logging.getLogger(__name__)

interactions = Blueprint("interactions", __name__)

MAX_SKEW = 300  # seconds a signed timestamp may be from now
REPLY_WITHIN = 2.0  # seconds before the answer is deferred (Discord waits 3)
DISCORD_API = "https://discord.com/api/v10"
PING, COMMAND, COMPONENT, AUTOCOMPLETE = 1, 2, 3, 4
PONG, MESSAGE, DEFERRED, DEFERRED_UPDATE, UPDATE, CHOICES = 1, 4, 5, 6, 7, 8
EPHEMERAL = 64
MANAGE_GUILD, ADMINISTRATOR = 1 << 5, 1 << 3
_workers = ThreadPoolExecutor(max_workers=4, thread_name_prefix="discord-interaction")


def public_key() -> str | None:
    """The application's public key (``DISCORD_PUBLIC_KEY``); None: the endpoint is off.

    The one place the setting is read: the app's config, from the settings (or a test's)."""
    return current_app.config.get("DISCORD_PUBLIC_KEY") or None


@lru_cache(maxsize=4)
def _verify_key(hex_key: str) -> VerifyKey:
    return VerifyKey(bytes.fromhex(hex_key.strip()))


def _unauthorized(message: str):
    return error_response(401, "unauthorized", message)


def _signature_problem(key: VerifyKey, body: bytes) -> str | None:
    """Why the request is not Discord's (None: it is): signature over timestamp + raw body."""
    signature = request.headers.get("X-Signature-Ed25519", "")
    timestamp = request.headers.get("X-Signature-Timestamp", "")
    if not signature or not timestamp:
        return "missing X-Signature-Ed25519 or X-Signature-Timestamp"
    try:
        sig = bytes.fromhex(signature)
        sent = int(timestamp)
    except ValueError:
        return "malformed signature or timestamp"
    if len(sig) != 64:
        return "malformed signature"
    try:
        key.verify(timestamp.encode() + body, sig)
    except BadSignatureError:
        return "the signature does not match the request"
    # Checked after the signature, so the message never helps forge one.
    if abs(time.time() - sent) > MAX_SKEW:
        return "the request's timestamp is more than 5 minutes from now"
    return None


def _interaction(body: bytes) -> dict[str, Any]:
    """The signed body as an interaction, or a 400."""
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise HttpError(400, "bad_request", "the body is not JSON") from None
    kinds = (PING, COMMAND, COMPONENT, AUTOCOMPLETE)
    if not isinstance(data, dict) or data.get("type") not in kinds:
        raise HttpError(400, "bad_request", "not a Discord interaction of type 1, 2, 3 or 4")
    what = "custom_id" if data["type"] == COMPONENT else "name"  # a button's, or a command's
    if data["type"] != PING and not (
        isinstance(data.get("data"), dict)
        and isinstance(data["data"].get(what), str)
        and isinstance(data.get("token"), str)
        and isinstance(data.get("application_id"), str)
    ):
        raise HttpError(
            400,
            "bad_request",
            "the interaction lacks its command or component, token or application id",
        )
    return data


@interactions.post("/discord/interactions")
def discord_interaction():
    """One interaction from Discord (see the module's docstring)."""
    hex_key = public_key()
    if not hex_key:
        raise NotFound()
    if request.content_length is not None and request.content_length > MAX_BODY:
        raise HttpError(413, "payload_too_large", f"request body is over {MAX_BODY // 1024} KiB")
    body = request.get_data(cache=True)  # over MAX_CONTENT_LENGTH: werkzeug's 413
    try:
        key = _verify_key(hex_key)
    except ValueError:
        log.error("DISCORD_PUBLIC_KEY is not a 64-digit hex key: refusing every interaction")
        return error_response(503, "discord_misconfigured", "the Discord public key is malformed")
    problem = _signature_problem(key, body)
    if problem:
        return _unauthorized(problem)
    # From here on the request is Discord's. The per-client rate limit on the API
    # (service/http/limits.py) must exempt these signed requests: Discord sends every player's commands from a few of
    # its own addresses, so limiting them as one client would throttle whole servers.
    data = _interaction(body)
    if data["type"] == PING:
        return jsonify({"type": PONG})
    if data["type"] == AUTOCOMPLETE:
        return jsonify({"type": CHOICES, "data": {"choices": _choices(data)}})
    if data["type"] == COMPONENT:
        return _component(data)
    return _command(data)


# -- the commands, in-process ---------------------------------------------------------------
def _options(data: dict[str, Any]) -> dict[str, Any]:
    """{name: value} of a command's options (a subcommand's, for /settings game)."""
    options = data.get("options") or []
    if options and isinstance(options[0], dict) and options[0].get("type") == 1:  # a subcommand
        options = options[0].get("options") or []
    return {
        o["name"]: o.get("value")
        for o in options
        if isinstance(o, dict) and isinstance(o.get("name"), str)
    }


def _typed(options: dict[str, Any], name: str, kind: type, default: Any = None) -> Any:
    value = options.get(name)
    if kind is int and isinstance(value, bool):
        return default
    return value if isinstance(value, kind) else default


def _choices(data: dict[str, Any]) -> list[dict[str, str]]:
    """The /errata card suggestions for what the user has typed (the focused option)."""
    options = data["data"].get("options") or []
    typed = next((o.get("value") for o in options if isinstance(o, dict) and o.get("focused")), "")
    names = asyncio.run(
        dc.card_suggestions(EngineApi(get_engine()), typed if isinstance(typed, str) else "")
    )
    return [{"name": n, "value": n} for n in names]


def _user_lang(data: dict[str, Any]) -> str | None:
    return dc.locale_lang(data.get("locale")) or dc.locale_lang(data.get("guild_locale"))


def _guild_id(data: dict[str, Any]) -> int | None:
    gid = data.get("guild_id")
    return int(gid) if isinstance(gid, str) and gid.isdigit() else None


def _may_manage(data: dict[str, Any]) -> bool:
    perms = (data.get("member") or {}).get("permissions")
    return (
        isinstance(perms, str)
        and perms.isdigit()
        and bool(int(perms) & (MANAGE_GUILD | ADMINISTRATOR))
    )


def _reply_job(data: dict[str, Any], api: EngineApi, public_url: str | None) -> Callable[[], Reply]:
    """The work of a command, to run apart from the request (it may take longer than 2 s)."""
    name, options, lang = data["data"]["name"], _options(data["data"]), _user_lang(data)
    ui, public = lang or "en", _typed(options, "public", bool, False)
    engine, store, guild = api.engine, GuildSettings(), _guild_id(data)
    if name == "rule":
        return lambda: asyncio.run(
            dc.rule_reply(
                api,
                _typed(options, "question", str, ""),
                game=_typed(options, "game", str),
                default_game=store.get_game(guild),
                lang=ui,
                public_url=public_url,
                public=public,
                server=str(guild) if guild is not None else None,
                hint=lang,
            )
        )
    if name == "errata":
        return lambda: asyncio.run(
            dc.errata_reply(
                api,
                _typed(options, "card", str, ""),
                lang=lang,
                public_url=public_url,
                public=public,
            )
        )
    if name == "damage":

        def damage() -> Reply:
            payload = dc.damage_payload(
                attack=_typed(options, "attack", int, 0),
                game=_typed(options, "game", str),
                default_game=store.get_game(guild),
                shield=_typed(options, "shield", int, 0),
                ward=_typed(options, "ward", bool, False),
                brittle=_typed(options, "brittle", bool, False),
                modifiers=_typed(options, "modifiers", str),
                hp=_typed(options, "hp", int),
            )
            return asyncio.run(
                dc.damage_reply(api, payload, lang=ui, public_url=public_url, public=public)
            )

        return damage
    if name == "settings":
        if not _may_manage(data):
            return lambda: Reply(
                content=_("Only members who can manage this server can change its settings.", ui)
            )
        games = {g["id"]: g["name"] for g in engine.games()["games"]}
        return lambda: dc.settings_reply(store, guild, _typed(options, "game", str, ""), games, ui)
    return lambda: Reply(content=_("This command is not known here.", ui))


def _command(data: dict[str, Any]):
    """A slash command: the message within REPLY_WITHIN seconds, else deferred and followed up."""
    public_url = current_app.config.get("PUBLIC_BASE_URL")  # RULINGS_PUBLIC_URL, by the settings
    # The engine and the log are taken here, in the app context the worker thread lacks.
    return _respond(data, _reply_job(data, EngineApi(get_engine(), get_ask_log()), public_url))


def _component(data: dict[str, Any]):
    """A click on a vote button (``dc.feedback_reply``): the message updated, or a message."""
    api, lang = EngineApi(get_engine(), get_ask_log()), _user_lang(data) or "en"
    custom_id = data["data"]["custom_id"]
    return _respond(data, lambda: asyncio.run(dc.feedback_reply(api, custom_id, lang)))


def _respond(data: dict[str, Any], job: Callable[[], Reply]):
    """The reply if `job` makes it within REPLY_WITHIN seconds (a message, or the clicked
    message updated); else deferred, and the reply sent later to the interaction's webhook."""
    future: Future[Reply] = _workers.submit(job)
    try:
        reply = future.result(timeout=REPLY_WITHIN)
        return jsonify({"type": UPDATE if reply.update else MESSAGE, "data": reply.as_message()})
    except FutureTimeout:
        pass
    component = data["type"] == COMPONENT
    webhook = (current_app.config.get("DISCORD_API_URL") or DISCORD_API).rstrip(
        "/"
    ) + f"/webhooks/{data['application_id']}/{data['token']}"
    transport = current_app.config.get("DISCORD_TRANSPORT")  # tests: httpx.MockTransport
    future.add_done_callback(lambda done: _follow_up(webhook, done, transport, component))
    if component:  # the clicked message is updated later (or a message sent)
        return jsonify({"type": DEFERRED_UPDATE})
    public = _typed(_options(data["data"]), "public", bool, False)
    return jsonify({"type": DEFERRED, "data": {} if public else {"flags": EPHEMERAL}})


def _follow_up(
    webhook: str, done: Future, transport: httpx.BaseTransport | None, component: bool = False
) -> None:
    """Send a deferred reply: edit the interaction's original message (a command's "thinking"
    message, or the message whose button was clicked), or, for a vote that was not recorded, a
    new message only the user sees (the answer and its buttons stay)."""
    try:
        reply: Reply = done.result()
    except Exception:  # the job itself failed: say so rather than leave "thinking" forever
        log.exception("a deferred Discord interaction failed")
        reply = Reply(content=ServiceError(FAILED).message)
    if component and not reply.update:
        method, url, message = "POST", webhook, reply.as_message()
    else:  # the flags were set by the deferral
        method, url = "PATCH", f"{webhook}/messages/@original"
        message = {k: v for k, v in reply.as_message().items() if k != "flags"}
    try:
        with httpx.Client(timeout=15, transport=transport) as http:
            response = http.request(method, url, json=message)
        if response.status_code >= 400:
            log.warning(
                "Discord refused a follow-up: %s %s", response.status_code, response.text[:200]
            )
    except httpx.HTTPError as exc:
        log.warning("could not send a follow-up to Discord: %s", exc)
