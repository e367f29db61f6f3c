"""The Discord bot: ``/rule``, ``/errata`` and ``/damage``, a thin client of the HTTP API.

Three layers, each testable on its own:
  - the embeds (``service.embeds``: API JSON -> embed dicts within Discord's limits, shared
    with the HTTP interactions endpoint);
  - ``RulingsAPI``: a small async httpx client; every failure becomes ``ApiError`` with a short
    message fit for a player;
  - handlers (``handle_rule`` ...) taking the interaction and the client as arguments: they defer
    first (Discord's 3-second window), call the API, then send one follow-up.
``run_bot`` wires them into a ``discord.Client`` with a command tree; nothing here talks to
Discord until it runs.
"""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any, Protocol

import discord
import httpx
from discord import app_commands

from indexer.text import fold
from service.embeds import (LIMITS, answer_embed, damage_embed, embed_length, errata_embed,
                            fit_embed, ruling_embed, truncate)
from service.presentation import LANGUAGE_NAMES, check_games

log = logging.getLogger(__name__)

DEFAULT_API_URL = "http://127.0.0.1:8000"
CHOICE_MAX = 100  # an autocomplete choice's name and value


@dataclass(frozen=True)
class BotSettings:
    api_url: str = DEFAULT_API_URL
    public_url: str | None = None  # the page's base URL, for permalinks
    timeout: float = 15.0


def to_embed(data: dict[str, Any]) -> discord.Embed:
    return discord.Embed.from_dict(fit_embed(data))


# -- autocomplete ---------------------------------------------------------------------------
def filter_cards(names: list[str], current: str, limit: int = 25) -> list[str]:
    """Card names matching what was typed: prefix matches, then word starts, then substrings."""
    query = fold(current.strip())
    names = [n for n in names if len(n) <= CHOICE_MAX]
    if not query:
        return names[:limit]
    prefix = [n for n in names if fold(n).startswith(query)]
    words = [n for n in names if n not in prefix
             and any(w.strip('"').startswith(query) for w in fold(n).split())]
    inside = [n for n in names if query in fold(n) and n not in prefix and n not in words]
    return (prefix + words + inside)[:limit]


# -- the API client -------------------------------------------------------------------------
class ApiError(Exception):
    """The API could not answer; `message` is short and fit to show a player."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class RulingsAPI:
    """An async client of the HTTP API (one httpx.AsyncClient; card names cached)."""

    def __init__(self, base_url: str = DEFAULT_API_URL, *, timeout: float = 15.0,
                 transport: httpx.AsyncBaseTransport | None = None, cards_ttl: float = 600.0):
        self._http = httpx.AsyncClient(base_url=base_url.rstrip("/"), timeout=timeout, transport=transport,
                                       headers={"Accept": "application/json",
                                                "User-Agent": "rulings-discord-bot"})
        self._cards: tuple[float, list[str]] | None = None
        self._cards_ttl = cards_ttl

    async def _request(self, method: str, path: str, **kwargs: Any) -> dict[str, Any]:
        try:
            response = await self._http.request(method, path, **kwargs)
        except httpx.TimeoutException:
            log.warning("API timeout on %s %s", method, path)
            raise ApiError("The rulings service took too long to answer. Please try again in a moment.") from None
        except httpx.HTTPError as exc:
            log.warning("API unreachable on %s %s: %s", method, path, exc)
            raise ApiError("The rulings service cannot be reached right now. Please try again later.") from None
        try:
            data = response.json()
        except ValueError:
            data = None
        if response.status_code >= 500 or not isinstance(data, dict):
            log.error("API error %s on %s %s", response.status_code, method, path)
            raise ApiError("The rulings service had a problem answering. Please try again later.")
        if response.status_code >= 400:
            message = (data.get("error") or {}).get("message") or f"status {response.status_code}"
            raise ApiError(f"That request was not accepted: {truncate(message, 300)}")
        return data

    async def ask(self, question: str, *, game: str | None = None, lang: str | None = None,
                  k: int = 4) -> dict[str, Any]:
        body = {"question": question, "k": k, **({"game": game} if game else {}), **({"lang": lang} if lang else {})}
        return await self._request("POST", "/v1/ask", json=body)

    async def rulings_for_card(self, card: str, *, lang: str | None = None, limit: int = 10) -> dict[str, Any]:
        params = {"card": card, "limit": limit, **({"lang": lang} if lang else {})}
        return await self._request("GET", "/v1/rulings", params=params)

    async def cards(self) -> list[str]:
        """Card names for autocomplete, fetched at most once per `cards_ttl` seconds."""
        now = time.monotonic()
        if self._cards is None or now - self._cards[0] > self._cards_ttl:
            self._cards = (now, list((await self._request("GET", "/v1/cards"))["cards"]))
        return self._cards[1]

    async def games(self) -> list[tuple[str, str]]:
        return [(g["id"], g["name"]) for g in (await self._request("GET", "/v1/games"))["games"]]

    async def check(self, name: str, payload: dict[str, Any]) -> dict[str, Any]:
        return await self._request("POST", f"/v1/check/{name}", json=payload)

    async def aclose(self) -> None:
        await self._http.aclose()


# -- handlers -------------------------------------------------------------------------------
class Api(Protocol):
    async def ask(self, question: str, *, game: str | None = None, lang: str | None = None,
                  k: int = 4) -> dict[str, Any]: ...
    async def rulings_for_card(self, card: str, *, lang: str | None = None, limit: int = 10) -> dict[str, Any]: ...
    async def cards(self) -> list[str]: ...
    async def check(self, name: str, payload: dict[str, Any]) -> dict[str, Any]: ...


def locale_lang(locale: Any) -> str | None:
    """The archive language for a Discord locale ('es-ES' -> 'es'), if it is one of the 7."""
    code = str(getattr(locale, "value", locale) or "").split("-")[0].lower()
    return code if code in LANGUAGE_NAMES else None


def parse_modifiers(text: str | None) -> list[str]:
    """'+1 rolling, x2' -> ['+1 rolling', 'x2'] (the API validates each)."""
    return [m.strip() for m in (text or "").replace(";", ",").split(",") if m.strip()]


async def _reply(interaction: Any, embed: dict[str, Any], ephemeral: bool) -> None:
    await interaction.followup.send(embed=to_embed(embed), ephemeral=ephemeral)


async def _fail(interaction: Any, exc: ApiError) -> None:
    await interaction.followup.send(exc.message, ephemeral=True)


async def handle_rule(interaction: Any, api: Api, settings: BotSettings, question: str,
                      game: str = "any", public: bool = False) -> None:
    """/rule: answer a question (ephemeral unless public)."""
    await interaction.response.defer(ephemeral=not public, thinking=True)
    try:
        res = await api.ask(question, game=None if game in ("", "any") else game)
    except ApiError as exc:
        await _fail(interaction, exc)
        return
    await _reply(interaction, answer_embed(res, settings.public_url), not public)


async def handle_errata(interaction: Any, api: Api, settings: BotSettings, card: str,
                        public: bool = False) -> None:
    """/errata: the rulings about a card, translated into the user's Discord language."""
    await interaction.response.defer(ephemeral=not public, thinking=True)
    try:
        res = await api.rulings_for_card(card, lang=locale_lang(getattr(interaction, "locale", None)))
    except ApiError as exc:
        await _fail(interaction, exc)
        return
    await _reply(interaction, errata_embed(card, res, settings.public_url), not public)


async def handle_damage(interaction: Any, api: Api, settings: BotSettings, *, attack: int,
                        game: str = "frosthaven", shield: int = 0, ward: bool = False,
                        brittle: bool = False, modifiers: str | None = None, hp: int | None = None,
                        public: bool = False) -> None:
    """/damage: run the damage check and show each step with its rulings."""
    await interaction.response.defer(ephemeral=not public, thinking=True)
    payload: dict[str, Any] = {"game": game, "attack": attack, "shield": shield, "ward": ward,
                               "brittle": brittle, "modifiers": parse_modifiers(modifiers)}
    if hp is not None:
        payload["hp"] = hp
    try:
        res = await api.check("damage", payload)
    except ApiError as exc:
        await _fail(interaction, exc)
        return
    await _reply(interaction, damage_embed(res, settings.public_url), not public)


async def card_choices(api: Api, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for /errata card: never raises (Discord shows nothing on failure)."""
    try:
        names = await api.cards()
    except ApiError:
        return []
    return [app_commands.Choice(name=n, value=n) for n in filter_cards(names, current)]


# -- wiring ---------------------------------------------------------------------------------
def register_commands(tree: app_commands.CommandTree, api: Api, settings: BotSettings,
                      games: list[tuple[str, str]]) -> None:
    """Add /rule, /errata and /damage to `tree`; `games` are (id, name) for the game choice."""
    game_choices = [app_commands.Choice(name="Any game", value="any")] + [
        app_commands.Choice(name=name[:CHOICE_MAX], value=gid) for gid, name in games][:24]
    check_choices = [app_commands.Choice(name=name, value=gid) for gid, name in check_games()]

    @app_commands.command(name="rule", description="Answer a rules question with the ruling that answers it")
    @app_commands.describe(question="Your question, in any of the 7 languages", game="Which game",
                           public="Show the answer to the whole channel")
    @app_commands.choices(game=game_choices)
    async def rule(interaction: discord.Interaction, question: app_commands.Range[str, 1, 500],
                   game: str = "any", public: bool = False) -> None:
        await handle_rule(interaction, api, settings, question, game, public)

    @app_commands.command(name="errata", description="Errata and rulings about a card, item, monster or class")
    @app_commands.describe(card="Card name (suggestions as you type)", public="Show the answer to the whole channel")
    async def errata(interaction: discord.Interaction, card: app_commands.Range[str, 1, 200],
                     public: bool = False) -> None:
        await handle_errata(interaction, api, settings, card, public)

    @errata.autocomplete("card")
    async def errata_card(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await card_choices(api, current)

    @app_commands.command(name="damage", description="Compute the damage of an attack, citing each rule")
    @app_commands.describe(attack="Attack value with all bonuses", shield="Target's Shield",
                           ward="Target has Ward", brittle="Target has Brittle",
                           modifiers="Modifiers drawn, comma-separated: +1, -1, x2, null, '+1 rolling'",
                           hp="Target's remaining hit points", game="Which game",
                           public="Show the answer to the whole channel")
    @app_commands.choices(game=check_choices)
    async def damage(interaction: discord.Interaction, attack: app_commands.Range[int, 0, 999],
                     shield: app_commands.Range[int, 0, 99] = 0, ward: bool = False,
                     brittle: bool = False, modifiers: str | None = None,
                     hp: app_commands.Range[int, 1, 999] | None = None, game: str = "frosthaven",
                     public: bool = False) -> None:
        await handle_damage(interaction, api, settings, attack=attack, game=game, shield=shield,
                            ward=ward, brittle=brittle, modifiers=modifiers, hp=hp, public=public)

    for command in (rule, errata, damage):
        tree.add_command(command)


class RulingsBot(discord.Client):
    """The Discord client: registers and syncs the slash commands on start."""

    def __init__(self, settings: BotSettings, api: RulingsAPI):
        super().__init__(intents=discord.Intents(guilds=True))
        self.settings, self.api = settings, api
        self.tree = app_commands.CommandTree(self)

    async def setup_hook(self) -> None:
        try:
            games = await self.api.games()
        except ApiError as exc:
            log.warning("could not list the games (%s); offering Frosthaven and Gloomhaven", exc.message)
            games = check_games()
        register_commands(self.tree, self.api, self.settings, games)
        synced = await self.tree.sync()
        log.info("synced %d slash commands against %s", len(synced), self.settings.api_url)

    async def close(self) -> None:
        await self.api.aclose()
        await super().close()


class BotError(RuntimeError):
    """The bot cannot start (missing or refused token); the message is one line."""


def run_bot(token: str | None, api_url: str = DEFAULT_API_URL, public_url: str | None = None) -> None:
    """Run the bot until interrupted; BotError for a missing or refused token."""
    if not token or not token.strip():
        raise BotError("DISCORD_TOKEN is not set: export the bot token from the Discord developer portal")
    settings = BotSettings(api_url=api_url.rstrip("/"), public_url=(public_url or "").rstrip("/") or None)
    bot = RulingsBot(settings, RulingsAPI(settings.api_url, timeout=settings.timeout))
    try:
        bot.run(token.strip(), log_handler=None)
    except discord.LoginFailure:
        raise BotError("Discord refused the token in DISCORD_TOKEN (is it the bot's token?)") from None


# The embeds are part of the bot's surface (tests and callers use them through this module).
__all__ = ["LIMITS", "ApiError", "BotError", "BotSettings", "RulingsAPI", "RulingsBot",
           "answer_embed", "card_choices", "damage_embed", "embed_length", "errata_embed",
           "filter_cards", "fit_embed", "handle_damage", "handle_errata", "handle_rule",
           "register_commands", "ruling_embed", "run_bot", "to_embed", "truncate"]
