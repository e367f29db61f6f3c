"""The Discord bot: ``/rule``, ``/errata``, ``/damage`` and ``/settings game``, a thin client of
the HTTP API, in each user's language.

Layers, each testable on its own:
  - what a command answers (``service.discord_commands``: shared with the HTTP interactions
    endpoint) and the embeds (``service.embeds``);
  - ``RulingsAPI``: a small async httpx client; every failure becomes ``ServiceError`` with a short
    message fit for a player;
  - handlers (``handle_rule`` ...) taking the interaction and the client as arguments: they defer
    first (Discord's 3-second window), compute the reply, then send one follow-up;
  - the command definitions (``register_commands``), with names and descriptions translated for
    Discord from the gettext catalogues (``CatalogueTranslator``): one source for the gateway
    bot's sync and for ``rulings discord register`` (``command_payloads``).
``run_bot`` wires them into a sharded ``discord.AutoShardedClient``; nothing here talks to
Discord until it runs, and the commands are synced only when asked (``--sync``).
"""
from __future__ import annotations

import asyncio
import logging
import re
from dataclasses import dataclass
from typing import Any

import discord
import httpx
from discord import app_commands

from service.discord import commands as dc
from service.discord.commands import (
    FAILED,
    REFUSED,
    TOO_SLOW,
    UNREACHABLE,
    Reply,
    ServiceError,
    locale_lang,
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
from service.i18n import DISCORD_NAME_CONTEXT, N_, discord_name, gettext, pgettext
from service.presentation import check_games
from service.settings import DEFAULT_API_URL, Settings

log = logging.getLogger(__name__)

DISCORD_API = "https://discord.com/api/v10"
CHOICE_MAX = dc.CHOICE_MAX
#: What Discord accepts as a command or option name (lowercase where the script has case).
NAME_PATTERN = re.compile(r"^[-_'\w]{1,32}$")
NAME_LOCATIONS = {app_commands.TranslationContextLocation.command_name,
                  app_commands.TranslationContextLocation.group_name,
                  app_commands.TranslationContextLocation.parameter_name}

@dataclass(frozen=True)
class BotSettings:
    api_url: str = DEFAULT_API_URL
    public_url: str | None = None  # the page's base URL, for permalinks
    timeout: float = 15.0
    sync: bool = False             # sync the slash commands with Discord at this start

def to_embed(data: dict[str, Any]) -> discord.Embed:
    return discord.Embed.from_dict(fit_embed(data))

# -- the API client -------------------------------------------------------------------------
class RulingsAPI:
    """An async client of the HTTP API (one httpx.AsyncClient)."""

    def __init__(self, base_url: str = DEFAULT_API_URL, *, timeout: float = 15.0,
                 transport: httpx.AsyncBaseTransport | None = None, api_key: str | None = None):
        headers = {"Accept": "application/json", "User-Agent": "rulings-discord-bot"}
        if api_key:  # RULINGS_API_KEY: the bot speaks for many players, so it is not rate-limited
            headers["X-API-Key"] = api_key
        self._http = httpx.AsyncClient(base_url=base_url.rstrip("/"), timeout=timeout, transport=transport,
                                       headers=headers)

    async def _request(self, method: str, path: str, **kwargs: Any) -> dict[str, Any]:
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
        if response.status_code >= 500 or not isinstance(data, dict):
            log.error("API error %s on %s %s", response.status_code, method, path)
            raise ServiceError(FAILED)
        if response.status_code >= 400:
            message = (data.get("error") or {}).get("message") or f"status {response.status_code}"
            raise ServiceError(REFUSED, truncate(message, 300))
        return data

    async def ask(self, question: str, *, game: str | None = None, lang: str | None = None,
                  k: int = 4) -> dict[str, Any]:
        body = {"question": question, "k": k, **({"game": game} if game else {}), **({"lang": lang} if lang else {})}
        return await self._request("POST", "/v1/ask", json=body)

    async def rulings_for_card(self, card: str, *, lang: str | None = None, limit: int = 10) -> dict[str, Any]:
        params = {"card": card, "limit": limit, **({"lang": lang} if lang else {})}
        return await self._request("GET", "/v1/rulings", params=params)

    async def cards(self, typed: str = "") -> list[str]:
        """Card names for what was typed, ranked by the server (every name when nothing is)."""
        return list((await self._request("GET", "/v1/cards", params={"q": typed} if typed else None))["cards"])

    async def games(self) -> list[tuple[str, str]]:
        return [(g["id"], g["name"]) for g in (await self._request("GET", "/v1/games"))["games"]]

    async def check(self, name: str, payload: dict[str, Any]) -> dict[str, Any]:
        return await self._request("POST", f"/v1/check/{name}", json=payload)

    async def aclose(self) -> None:
        await self._http.aclose()

# -- the user's language --------------------------------------------------------------------
class CatalogueTranslator(app_commands.Translator):
    """Command names, descriptions and choices in each Discord locale, from the catalogues."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        lang = locale_lang(locale)
        if lang is None or lang == "en":
            return None
        if context.location in NAME_LOCATIONS:
            text = pgettext(DISCORD_NAME_CONTEXT, string.message, lang)
            if not NAME_PATTERN.match(text) or text != text.lower():
                log.warning("catalogue %s: %r is no valid command name", lang, text)
                return None
        else:
            text = gettext(string.message, lang)
        return text if text != string.message else None

def interaction_lang(interaction: Any) -> str | None:
    """The user's language if the archive has it (else None: English labels)."""
    return locale_lang(getattr(interaction, "locale", None))

# -- handlers -------------------------------------------------------------------------------
async def _send(interaction: Any, reply: Reply) -> None:
    if reply.embed is not None:
        await interaction.followup.send(embed=to_embed(reply.embed), ephemeral=reply.ephemeral)
    else:
        await interaction.followup.send(reply.content, ephemeral=True)

def _default_game(store: GuildSettings | None, interaction: Any) -> str | None:
    return store.get_game(getattr(interaction, "guild_id", None)) if store else None

async def handle_rule(interaction: Any, api: dc.Api, settings: BotSettings, question: str,
                      game: str | None = None, public: bool = False,
                      store: GuildSettings | None = None) -> None:
    """/rule: answer a question (ephemeral unless public), about the server's default game
    unless another is chosen."""
    await interaction.response.defer(ephemeral=not public, thinking=True)
    default = await asyncio.to_thread(_default_game, store, interaction)
    await _send(interaction, await dc.rule_reply(
        api, question, game=game, default_game=default, lang=interaction_lang(interaction) or "en",
        public_url=settings.public_url, public=public))

async def handle_errata(interaction: Any, api: dc.Api, settings: BotSettings, card: str,
                        public: bool = False) -> None:
    """/errata: the rulings about a card, translated into the user's Discord language."""
    await interaction.response.defer(ephemeral=not public, thinking=True)
    await _send(interaction, await dc.errata_reply(
        api, card, lang=interaction_lang(interaction), public_url=settings.public_url, public=public))

async def handle_damage(interaction: Any, api: dc.Api, settings: BotSettings, *, attack: int,
                        game: str | None = None, shield: int = 0, ward: bool = False,
                        brittle: bool = False, modifiers: str | None = None, hp: int | None = None,
                        public: bool = False, store: GuildSettings | None = None) -> None:
    """/damage: run the damage check and show each step with its rulings."""
    await interaction.response.defer(ephemeral=not public, thinking=True)
    default = await asyncio.to_thread(_default_game, store, interaction)
    payload = dc.damage_payload(attack=attack, game=game, default_game=default, shield=shield,
                                ward=ward, brittle=brittle, modifiers=modifiers, hp=hp)
    await _send(interaction, await dc.damage_reply(
        api, payload, lang=interaction_lang(interaction) or "en", public_url=settings.public_url,
        public=public))

async def handle_settings_game(interaction: Any, store: GuildSettings, game: str,
                               games: dict[str, str]) -> None:
    """/settings game: the server's default game (``any``: none)."""
    reply = await asyncio.to_thread(dc.settings_reply, store, getattr(interaction, "guild_id", None),
                                    game, games, interaction_lang(interaction) or "en")
    await interaction.response.send_message(reply.content, ephemeral=True)

async def card_choices(api: dc.Api, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for /errata card: the server's ranking; never raises."""
    return [app_commands.Choice(name=n, value=n) for n in await dc.card_suggestions(api, current)]

# -- the commands: one definition for the gateway and for `rulings discord register` -------
PUBLIC_TEXT = N_("Show the answer to the whole channel")
GAME_TEXT = N_("Which game")

def register_commands(tree: app_commands.CommandTree, api: dc.Api, settings: BotSettings,
                      games: list[tuple[str, str]], store: GuildSettings | None = None) -> None:
    """Add /rule, /errata, /damage and /settings game to `tree`; `games` are (id, name)."""
    game_choices = [app_commands.Choice(name=N_("Any game"), value=dc.ANY_GAME)] + [
        app_commands.Choice(name=name[:CHOICE_MAX], value=gid) for gid, name in games][:24]
    check_choices = [app_commands.Choice(name=name, value=gid) for gid, name in check_games()]
    game_names = dict(games)

    @app_commands.command(name=discord_name("rule"),
                          description=N_("Answer a rules question with the ruling that answers it"))
    @app_commands.rename(question=discord_name("question"), game=discord_name("game"),
                         public=discord_name("public"))
    @app_commands.describe(question=N_("Your question, in any of the 7 languages"), game=GAME_TEXT,
                           public=PUBLIC_TEXT)
    @app_commands.choices(game=game_choices)
    async def rule(interaction: discord.Interaction, question: app_commands.Range[str, 1, 500],
                   game: str | None = None, public: bool = False) -> None:
        await handle_rule(interaction, api, settings, question, game, public, store)

    @app_commands.command(name=discord_name("errata"),
                          description=N_("Errata and rulings about a card, item, monster or class"))
    @app_commands.rename(card=discord_name("card"), public=discord_name("public"))
    @app_commands.describe(card=N_("Card name (suggestions as you type)"), public=PUBLIC_TEXT)
    async def errata(interaction: discord.Interaction, card: app_commands.Range[str, 1, 200],
                     public: bool = False) -> None:
        await handle_errata(interaction, api, settings, card, public)

    @errata.autocomplete("card")
    async def errata_card(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await card_choices(api, current)

    @app_commands.command(name=discord_name("damage"),
                          description=N_("Compute the damage of an attack, citing each rule"))
    @app_commands.rename(attack=discord_name("attack"), shield=discord_name("shield"),
                         ward=discord_name("ward"), brittle=discord_name("brittle"),
                         modifiers=discord_name("modifiers"), hp=discord_name("hp"),
                         game=discord_name("game"), public=discord_name("public"))
    @app_commands.describe(attack=N_("Attack value with all bonuses"), shield=N_("Target's Shield"),
                           ward=N_("Target has Ward"), brittle=N_("Target has Brittle"),
                           modifiers=N_("Modifiers drawn, comma-separated: +1, -1, x2, null, '+1 rolling'"),
                           hp=N_("Target's remaining hit points"), game=GAME_TEXT, public=PUBLIC_TEXT)
    @app_commands.choices(game=check_choices)
    async def damage(interaction: discord.Interaction, attack: app_commands.Range[int, 0, 999],
                     shield: app_commands.Range[int, 0, 99] = 0, ward: bool = False,
                     brittle: bool = False, modifiers: str | None = None,
                     hp: app_commands.Range[int, 1, 999] | None = None, game: str | None = None,
                     public: bool = False) -> None:
        await handle_damage(interaction, api, settings, attack=attack, game=game, shield=shield,
                            ward=ward, brittle=brittle, modifiers=modifiers, hp=hp, public=public,
                            store=store)

    server = app_commands.Group(name=discord_name("settings"), description=N_("This server's settings"),
                                guild_only=True, default_permissions=discord.Permissions(manage_guild=True))

    @server.command(name=discord_name("game"),
                    description=N_("The game questions in this server are about, unless they name one"))
    @app_commands.rename(game=discord_name("game"))
    @app_commands.describe(game=GAME_TEXT)
    @app_commands.choices(game=game_choices)
    async def settings_game(interaction: discord.Interaction, game: str) -> None:
        await handle_settings_game(interaction, store or GuildSettings(), game, game_names)

    for command in (rule, errata, damage, server):
        tree.add_command(command)

async def command_payloads(games: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """The commands as Discord's API takes them, names and descriptions localised: what
    ``tree.sync()`` sends, for ``rulings discord register`` (no connection to Discord)."""
    client = discord.Client(intents=discord.Intents(guilds=True))
    tree = app_commands.CommandTree(client)
    register_commands(tree, _NoApi(), BotSettings(), games)
    translator = CatalogueTranslator()
    return [await command.get_translated_payload(tree, translator) for command in tree.get_commands()]

class _NoApi:
    """The API of a tree that is only described, never run."""

    async def ask(self, *args: Any, **kwargs: Any) -> dict[str, Any]: raise ServiceError(UNREACHABLE)
    async def rulings_for_card(self, *args: Any, **kwargs: Any) -> dict[str, Any]: raise ServiceError(UNREACHABLE)
    async def cards(self, typed: str = "") -> list[str]: return []
    async def check(self, *args: Any, **kwargs: Any) -> dict[str, Any]: raise ServiceError(UNREACHABLE)

class BotError(RuntimeError):
    """The bot cannot start or register (missing or refused token); the message is one line."""

def register_over_http(token: str | None, payloads: list[dict[str, Any]], *,
                       application_id: str | None = None, guild_id: str | None = None,
                       transport: httpx.BaseTransport | None = None) -> int:
    """PUT the command definitions to Discord (all of them at once, replacing the old ones);
    the number of commands Discord now has. BotError for a missing or refused token."""
    if not token or not token.strip():
        raise BotError("DISCORD_TOKEN is not set: export the bot token from the Discord developer portal")
    headers = {"Authorization": f"Bot {token.strip()}", "User-Agent": "rulings-discord-bot"}
    with httpx.Client(base_url=DISCORD_API, headers=headers, timeout=30, transport=transport) as http:
        try:
            if not application_id:
                application_id = _checked(http.get("/applications/@me"))["id"]
            path = (f"/applications/{application_id}/guilds/{guild_id}/commands" if guild_id
                    else f"/applications/{application_id}/commands")
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
            log.warning("could not list the games (%s); offering Frosthaven and Gloomhaven", exc.message)
            games = check_games()
        register_commands(self.tree, self.api, self.settings, games, self.store)
        await self.tree.set_translator(CatalogueTranslator())
        if self.settings.sync:
            synced = await self.tree.sync()
            log.info("synced %d slash commands", len(synced))
        else:
            log.info("commands not synced (run with --sync after changing them)")

    async def close(self) -> None:
        await self.api.aclose()
        await super().close()

def run_bot(token: str | None, api_url: str = DEFAULT_API_URL, public_url: str | None = None,
            sync: bool = False, api_key: str | None = None) -> None:
    """Run the bot until interrupted; BotError for a missing or refused token. `api_key`
    (default: RULINGS_API_KEY) is sent as X-API-Key: the API exempts it from its rate limit."""
    if api_key is None:
        api_key = Settings.load().secret("api_key")
    if not token or not token.strip():
        raise BotError("DISCORD_TOKEN is not set: export the bot token from the Discord developer portal")
    settings = BotSettings(api_url=api_url.rstrip("/"), public_url=(public_url or "").rstrip("/") or None,
                           sync=sync)
    bot = RulingsBot(settings, RulingsAPI(settings.api_url, timeout=settings.timeout, api_key=api_key))
    try:
        bot.run(token.strip(), log_handler=None)
    except discord.LoginFailure:
        raise BotError("Discord refused the token in DISCORD_TOKEN (is it the bot's token?)") from None

# The embeds are part of the bot's surface (tests and callers use them through this module).
__all__ = ["LIMITS", "ServiceError", "BotError", "BotSettings", "CatalogueTranslator", "RulingsAPI",
           "RulingsBot", "answer_embed", "card_choices", "command_payloads", "damage_embed",
           "embed_length", "errata_embed", "fit_embed", "handle_damage", "handle_errata",
           "handle_rule", "handle_settings_game", "parse_modifiers", "register_commands",
           "register_over_http", "ruling_embed", "run_bot", "to_embed", "truncate"]
