"""The Discord bot: ``/rule``, ``/errata``, ``/damage`` and ``/settings game``, a thin client of
the HTTP API, in each user's language.

Layers, each testable on its own:
  - what a command answers (``service.discord_commands``: shared with the HTTP interactions
    endpoint) and the embeds (``service.embeds``);
  - ``RulingsAPI``: a small async httpx client; every failure becomes ``ServiceError`` with a short
    message fit for a player; it names itself to the API (``X-Rulings-Client: discord-gateway``)
    and each question's server (``X-Rulings-Server``), which the question log keeps hashed;
  - handlers (``handle_rule`` ...) taking the interaction and the client as arguments: they defer
    first (Discord's 3-second window), compute the reply, then send one follow-up; a click on a
    vote button under /rule's answer reaches ``handle_feedback`` (``FeedbackButton``, a dynamic
    item: it works for every message the bot ever sent, across restarts);
  - the command definitions (``register_commands``), with names and descriptions translated for
    Discord from the gettext catalogues (``CatalogueTranslator``): one source for the gateway
    bot's sync and for ``rulings discord register`` (``command_payloads``).
``run_bot`` wires them into a sharded ``discord.AutoShardedClient``; nothing here talks to
Discord until it runs, and the commands are synced only when asked (``--sync``).
"""

from __future__ import annotations

import logging
from typing import Any

import discord
import httpx
from discord import app_commands

from service.discord.buttons import FeedbackButton, handle_feedback
from service.discord.commands import (
    FAILED,
    REFUSED,
    TOO_SLOW,
    UNREACHABLE,
    VOTE_GONE,
    VOTE_OFF,
    ServiceError,
    parse_modifiers,
)
from service.discord.embeds import (
    LIMITS,
    answer_embed,
    damage_embed,
    embed_length,
    errata_embed,
    fit_embed,
    ruling_embed,
    truncate,
)
from service.discord.guild_store import GuildSettings
from service.discord.slash import (
    BotSettings,
    CatalogueTranslator,
    card_choices,
    command_payloads,
    handle_damage,
    handle_errata,
    handle_rule,
    handle_settings_game,
    register_commands,
    to_embed,
)
from service.presentation import check_games
from service.settings import DEFAULT_API_URL, Settings

log = logging.getLogger(__name__)

DISCORD_API = "https://discord.com/api/v10"


# -- the API client -------------------------------------------------------------------------
class RulingsAPI:
    """An async client of the HTTP API (one httpx.AsyncClient)."""

    def __init__(
        self,
        base_url: str = DEFAULT_API_URL,
        *,
        timeout: float = 15.0,
        transport: httpx.AsyncBaseTransport | None = None,
        api_key: str | None = None,
    ):
        headers = {
            "Accept": "application/json",
            "User-Agent": "rulings-discord-bot",
            "X-Rulings-Client": "discord-gateway",  # the question log's channel
        }
        if api_key:  # RULINGS_API_KEY: the bot speaks for many players, so it is not rate-limited
            headers["X-API-Key"] = api_key
        self._http = httpx.AsyncClient(
            base_url=base_url.rstrip("/"), timeout=timeout, transport=transport, headers=headers
        )

    async def _request(
        self, method: str, path: str, *, errors: dict[int, str] | None = None, **kwargs: Any
    ) -> dict[str, Any]:
        """The JSON object answered; `errors`: the message (a msgid) for a status."""
        try:
            response = await self._http.request(method, path, **kwargs)
        except httpx.TimeoutException:
            log.warning("API timeout on %s %s", method, path)
            raise ServiceError(TOO_SLOW) from None
        except httpx.HTTPError as exc:
            log.warning("API unreachable on %s %s: %s", method, path, exc)
            raise ServiceError(UNREACHABLE) from None
        try:
            data = response.json()
        except ValueError:
            data = None
        if errors and response.status_code in errors:
            raise ServiceError(errors[response.status_code])
        if response.status_code >= 500 or not isinstance(data, dict):
            log.error("API error %s on %s %s", response.status_code, method, path)
            raise ServiceError(FAILED)
        if response.status_code >= 400:
            message = (data.get("error") or {}).get("message") or f"status {response.status_code}"
            raise ServiceError(REFUSED, truncate(message, 300))
        return data

    async def ask(
        self,
        question: str,
        *,
        game: str | None = None,
        lang: str | None = None,
        k: int = 4,
        server: str | None = None,
        hint: str | None = None,
    ) -> dict[str, Any]:
        """An answer; `server`: the Discord server asked in (the log keeps only its hash);
        `hint`: the user's language, sent as ``Accept-Language`` (the API's prior for the
        question's language)."""
        body = {
            "question": question,
            "k": k,
            **({"game": game} if game else {}),
            **({"lang": lang} if lang else {}),
        }
        headers = {
            **({"X-Rulings-Server": server} if server else {}),
            **({"Accept-Language": hint} if hint else {}),
        }
        return await self._request("POST", "/v1/ask", json=body, headers=headers or None)

    async def feedback(
        self, ask_id: str, helpful: bool, *, ruling: str | None = None
    ) -> dict[str, Any]:
        """A vote on an answer (POST /v1/feedback). A gone ask or ruling (404, 422) and a log
        that is off or unreachable (503) each have their own message."""
        body = {"ask_id": ask_id, "helpful": helpful, **({"ruling": ruling} if ruling else {})}
        return await self._request(
            "POST",
            "/v1/feedback",
            json=body,
            errors={404: VOTE_GONE, 422: VOTE_GONE, 503: VOTE_OFF},
        )

    async def rulings_for_card(
        self, card: str, *, lang: str | None = None, limit: int = 10
    ) -> dict[str, Any]:
        params = {"card": card, "limit": limit, **({"lang": lang} if lang else {})}
        return await self._request("GET", "/v1/rulings", params=params)

    async def cards(self, typed: str = "") -> list[str]:
        """Card names for what was typed, ranked by the server (every name when nothing is)."""
        return list(
            (await self._request("GET", "/v1/cards", params={"q": typed} if typed else None))[
                "cards"
            ]
        )

    async def games(self) -> list[tuple[str, str]]:
        return [(g["id"], g["name"]) for g in (await self._request("GET", "/v1/games"))["games"]]

    async def check(self, name: str, payload: dict[str, Any]) -> dict[str, Any]:
        return await self._request("POST", f"/v1/check/{name}", json=payload)

    async def aclose(self) -> None:
        await self._http.aclose()


class BotError(RuntimeError):
    """The bot cannot start or register (missing or refused token); the message is one line."""


def register_over_http(
    token: str | None,
    payloads: list[dict[str, Any]],
    *,
    application_id: str | None = None,
    guild_id: str | None = None,
    transport: httpx.BaseTransport | None = None,
) -> int:
    """PUT the command definitions to Discord (all of them at once, replacing the old ones);
    the number of commands Discord now has. BotError for a missing or refused token."""
    if not token or not token.strip():
        raise BotError(
            "DISCORD_TOKEN is not set: export the bot token from the Discord developer portal"
        )
    headers = {"Authorization": f"Bot {token.strip()}", "User-Agent": "rulings-discord-bot"}
    with httpx.Client(
        base_url=DISCORD_API, headers=headers, timeout=30, transport=transport
    ) as http:
        try:
            if not application_id:
                application_id = _checked(http.get("/applications/@me"))["id"]
            path = (
                f"/applications/{application_id}/guilds/{guild_id}/commands"
                if guild_id
                else f"/applications/{application_id}/commands"
            )
            return len(_checked(http.put(path, json=payloads)))
        except httpx.HTTPError as exc:
            raise BotError(f"Discord cannot be reached: {exc}") from None


def _checked(response: httpx.Response) -> Any:
    if response.status_code == 401:
        raise BotError("Discord refused the token in DISCORD_TOKEN (is it the bot's token?)")
    if response.status_code >= 400:
        raise BotError(f"Discord answered {response.status_code}: {truncate(response.text, 300)}")
    return response.json()


# -- the client -----------------------------------------------------------------------------
class RulingsBot(discord.AutoShardedClient):
    """The Discord client (sharded as Discord asks): registers the slash commands on start and
    syncs them with Discord only when told (``settings.sync``): syncing is rate-limited."""

    def __init__(self, settings: BotSettings, api: RulingsAPI, store: GuildSettings | None = None):
        super().__init__(intents=discord.Intents(guilds=True))
        self.settings, self.api, self.store = settings, api, store or GuildSettings()
        self.tree = app_commands.CommandTree(self)

    async def setup_hook(self) -> None:
        try:
            games = await self.api.games()
        except ServiceError as exc:
            log.warning(
                "could not list the games (%s); offering Frosthaven and Gloomhaven", exc.message
            )
            games = check_games()
        register_commands(self.tree, self.api, self.settings, games, self.store)
        self.add_dynamic_items(FeedbackButton)  # the vote buttons of every /rule answer
        await self.tree.set_translator(CatalogueTranslator())
        if self.settings.sync:
            synced = await self.tree.sync()
            log.info("synced %d slash commands", len(synced))
        else:
            log.info("commands not synced (run with --sync after changing them)")

    async def close(self) -> None:
        await self.api.aclose()
        await super().close()


def run_bot(
    token: str | None,
    api_url: str = DEFAULT_API_URL,
    public_url: str | None = None,
    sync: bool = False,
    api_key: str | None = None,
) -> None:
    """Run the bot until interrupted; BotError for a missing or refused token. `api_key`
    (default: RULINGS_API_KEY) is sent as X-API-Key: the API exempts it from its rate limit."""
    if api_key is None:
        api_key = Settings.load().secret("api_key")
    if not token or not token.strip():
        raise BotError(
            "DISCORD_TOKEN is not set: export the bot token from the Discord developer portal"
        )
    settings = BotSettings(
        api_url=api_url.rstrip("/"), public_url=(public_url or "").rstrip("/") or None, sync=sync
    )
    bot = RulingsBot(
        settings, RulingsAPI(settings.api_url, timeout=settings.timeout, api_key=api_key)
    )
    try:
        bot.run(token.strip(), log_handler=None)
    except discord.LoginFailure:
        raise BotError(
            "Discord refused the token in DISCORD_TOKEN (is it the bot's token?)"
        ) from None


# The embeds are part of the bot's surface (tests and callers use them through this module).
__all__ = [
    "LIMITS",
    "ServiceError",
    "BotError",
    "BotSettings",
    "CatalogueTranslator",
    "FeedbackButton",
    "RulingsAPI",
    "RulingsBot",
    "answer_embed",
    "card_choices",
    "command_payloads",
    "damage_embed",
    "embed_length",
    "errata_embed",
    "fit_embed",
    "handle_damage",
    "handle_errata",
    "handle_feedback",
    "handle_rule",
    "handle_settings_game",
    "parse_modifiers",
    "register_commands",
    "register_over_http",
    "ruling_embed",
    "run_bot",
    "to_embed",
    "truncate",
]
