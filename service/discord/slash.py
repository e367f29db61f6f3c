"""The slash commands of the gateway bot: their definitions (names and descriptions translated
for Discord from the gettext catalogues) and their handlers, which take the interaction and
the API client as arguments: they defer first (Discord's 3-second window), compute the reply
with ``service.discord.commands``, then send one follow-up. ``command_payloads`` gives the
same definitions for ``rulings discord register``."""

from __future__ import annotations

import asyncio
import logging
import re
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from service.discord import commands as dc
from service.discord.buttons import feedback_view
from service.discord.commands import UNREACHABLE, Reply, ServiceError, locale_lang
from service.discord.embeds import fit_embed
from service.discord.guild_store import GuildSettings
from service.i18n import DISCORD_NAME_CONTEXT, N_, discord_name, gettext, pgettext
from service.presentation import check_games
from service.settings import DEFAULT_API_URL

log = logging.getLogger(__name__)

CHOICE_MAX = dc.CHOICE_MAX
#: What Discord accepts as a command or option name (lowercase where the script has case).
NAME_PATTERN = re.compile(r"^[-_'\w]{1,32}$")
NAME_LOCATIONS = {
    app_commands.TranslationContextLocation.command_name,
    app_commands.TranslationContextLocation.group_name,
    app_commands.TranslationContextLocation.parameter_name,
}


@dataclass(frozen=True)
class BotSettings:
    api_url: str = DEFAULT_API_URL
    public_url: str | None = None  # the page's base URL, for permalinks
    timeout: float = 15.0
    sync: bool = False  # sync the slash commands with Discord at this start


def to_embed(data: dict[str, Any]) -> discord.Embed:
    return discord.Embed.from_dict(fit_embed(data))


# -- the user's language --------------------------------------------------------------------
class CatalogueTranslator(app_commands.Translator):
    """Command names, descriptions and choices in each Discord locale, from the catalogues."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
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
        # The vote buttons, when the answer has them (view=None is not "no view" to discord.py).
        extra = {"view": feedback_view(reply.components)} if reply.components else {}
        await interaction.followup.send(
            reply.content, embed=to_embed(reply.embed), ephemeral=reply.ephemeral, **extra
        )
    else:
        await interaction.followup.send(reply.content, ephemeral=True)


def _default_game(store: GuildSettings | None, interaction: Any) -> str | None:
    return store.get_game(getattr(interaction, "guild_id", None)) if store else None


async def handle_rule(
    interaction: Any,
    api: dc.Api,
    settings: BotSettings,
    question: str,
    game: str | None = None,
    public: bool = False,
    store: GuildSettings | None = None,
) -> None:
    """/rule: answer a question (ephemeral unless public), about the server's default game
    unless another is chosen; the vote buttons under it when the API logs the ask."""
    await interaction.response.defer(ephemeral=not public, thinking=True)
    default = await asyncio.to_thread(_default_game, store, interaction)
    guild, lang = getattr(interaction, "guild_id", None), interaction_lang(interaction)
    await _send(
        interaction,
        await dc.rule_reply(
            api,
            question,
            game=game,
            default_game=default,
            lang=lang or "en",
            public_url=settings.public_url,
            public=public,
            server=str(guild) if guild else None,
            hint=lang,
        ),
    )


async def handle_errata(
    interaction: Any, api: dc.Api, settings: BotSettings, card: str, public: bool = False
) -> None:
    """/errata: the rulings about a card, translated into the user's Discord language."""
    await interaction.response.defer(ephemeral=not public, thinking=True)
    await _send(
        interaction,
        await dc.errata_reply(
            api,
            card,
            lang=interaction_lang(interaction),
            public_url=settings.public_url,
            public=public,
        ),
    )


async def handle_damage(
    interaction: Any,
    api: dc.Api,
    settings: BotSettings,
    *,
    attack: int,
    game: str | None = None,
    shield: int = 0,
    ward: bool = False,
    brittle: bool = False,
    modifiers: str | None = None,
    hp: int | None = None,
    public: bool = False,
    store: GuildSettings | None = None,
) -> None:
    """/damage: run the damage check and show each step with its rulings."""
    await interaction.response.defer(ephemeral=not public, thinking=True)
    default = await asyncio.to_thread(_default_game, store, interaction)
    payload = dc.damage_payload(
        attack=attack,
        game=game,
        default_game=default,
        shield=shield,
        ward=ward,
        brittle=brittle,
        modifiers=modifiers,
        hp=hp,
    )
    await _send(
        interaction,
        await dc.damage_reply(
            api,
            payload,
            lang=interaction_lang(interaction) or "en",
            public_url=settings.public_url,
            public=public,
        ),
    )


async def handle_settings_game(
    interaction: Any, store: GuildSettings, game: str, games: dict[str, str]
) -> None:
    """/settings game: the server's default game (``any``: none)."""
    reply = await asyncio.to_thread(
        dc.settings_reply,
        store,
        getattr(interaction, "guild_id", None),
        game,
        games,
        interaction_lang(interaction) or "en",
    )
    await interaction.response.send_message(reply.content, ephemeral=True)


async def card_choices(api: dc.Api, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for /errata card: the server's ranking; never raises."""
    return [app_commands.Choice(name=n, value=n) for n in await dc.card_suggestions(api, current)]


# -- the commands: one definition for the gateway and for `rulings discord register` -------
PUBLIC_TEXT = N_("Show the answer to the whole channel")
GAME_TEXT = N_("Which game")


def register_commands(
    tree: app_commands.CommandTree,
    api: dc.Api,
    settings: BotSettings,
    games: list[tuple[str, str]],
    store: GuildSettings | None = None,
) -> None:
    """Add /rule, /errata, /damage and /settings game to `tree`; `games` are (id, name)."""
    game_choices = [app_commands.Choice(name=N_("Any game"), value=dc.ANY_GAME)] + [
        app_commands.Choice(name=name[:CHOICE_MAX], value=gid) for gid, name in games
    ][:24]
    check_choices = [app_commands.Choice(name=name, value=gid) for gid, name in check_games()]
    commands: tuple[app_commands.Command[Any, ..., Any] | app_commands.Group, ...] = (
        _rule_command(api, settings, store, game_choices),
        _errata_command(api, settings),
        _damage_command(api, settings, store, check_choices),
        _settings_group(store, game_choices, dict(games)),
    )
    for command in commands:
        tree.add_command(command)


Choices = list[app_commands.Choice[str]]


def _rule_command(
    api: dc.Api, settings: BotSettings, store: GuildSettings | None, game_choices: Choices
) -> app_commands.Command[Any, ..., Any]:
    @app_commands.command(
        name=discord_name("rule"),
        description=N_("Answer a rules question with the ruling that answers it"),
    )
    @app_commands.rename(
        question=discord_name("question"), game=discord_name("game"), public=discord_name("public")
    )
    @app_commands.describe(
        question=N_("Your question, in any of the 7 languages"), game=GAME_TEXT, public=PUBLIC_TEXT
    )
    @app_commands.choices(game=game_choices)
    async def rule(
        interaction: discord.Interaction,
        question: app_commands.Range[str, 1, 500],
        game: str | None = None,
        public: bool = False,
    ) -> None:
        await handle_rule(interaction, api, settings, question, game, public, store)

    return rule


def _errata_command(api: dc.Api, settings: BotSettings) -> app_commands.Command[Any, ..., Any]:
    @app_commands.command(
        name=discord_name("errata"),
        description=N_("Errata and rulings about a card, item, monster or class"),
    )
    @app_commands.rename(card=discord_name("card"), public=discord_name("public"))
    @app_commands.describe(card=N_("Card name (suggestions as you type)"), public=PUBLIC_TEXT)
    async def errata(
        interaction: discord.Interaction,
        card: app_commands.Range[str, 1, 200],
        public: bool = False,
    ) -> None:
        await handle_errata(interaction, api, settings, card, public)

    @errata.autocomplete("card")
    async def errata_card(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await card_choices(api, current)

    return errata


def _damage_command(
    api: dc.Api, settings: BotSettings, store: GuildSettings | None, check_choices: Choices
) -> app_commands.Command[Any, ..., Any]:
    @app_commands.command(
        name=discord_name("damage"),
        description=N_("Compute the damage of an attack, citing each rule"),
    )
    @app_commands.rename(
        attack=discord_name("attack"),
        shield=discord_name("shield"),
        ward=discord_name("ward"),
        brittle=discord_name("brittle"),
        modifiers=discord_name("modifiers"),
        hp=discord_name("hp"),
        game=discord_name("game"),
        public=discord_name("public"),
    )
    @app_commands.describe(
        attack=N_("Attack value with all bonuses"),
        shield=N_("Target's Shield"),
        ward=N_("Target has Ward"),
        brittle=N_("Target has Brittle"),
        modifiers=N_("Modifiers drawn, comma-separated: +1, -1, x2, null, '+1 rolling'"),
        hp=N_("Target's remaining hit points"),
        game=GAME_TEXT,
        public=PUBLIC_TEXT,
    )
    @app_commands.choices(game=check_choices)
    async def damage(
        interaction: discord.Interaction,
        attack: app_commands.Range[int, 0, 999],
        shield: app_commands.Range[int, 0, 99] = 0,
        ward: bool = False,
        brittle: bool = False,
        modifiers: str | None = None,
        hp: app_commands.Range[int, 1, 999] | None = None,
        game: str | None = None,
        public: bool = False,
    ) -> None:
        await handle_damage(
            interaction,
            api,
            settings,
            attack=attack,
            game=game,
            shield=shield,
            ward=ward,
            brittle=brittle,
            modifiers=modifiers,
            hp=hp,
            public=public,
            store=store,
        )

    return damage


def _settings_group(
    store: GuildSettings | None, game_choices: Choices, game_names: dict[str, str]
) -> app_commands.Group:
    server = app_commands.Group(
        name=discord_name("settings"),
        description=N_("This server's settings"),
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    @server.command(
        name=discord_name("game"),
        description=N_("The game questions in this server are about, unless they name one"),
    )
    @app_commands.rename(game=discord_name("game"))
    @app_commands.describe(game=GAME_TEXT)
    @app_commands.choices(game=game_choices)
    async def settings_game(interaction: discord.Interaction, game: str) -> None:
        await handle_settings_game(interaction, store or GuildSettings(), game, game_names)

    return server


async def command_payloads(games: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """The commands as Discord's API takes them, names and descriptions localised: what
    ``tree.sync()`` sends, for ``rulings discord register`` (no connection to Discord)."""
    client = discord.Client(intents=discord.Intents(guilds=True))
    tree = app_commands.CommandTree(client)
    register_commands(tree, _NoApi(), BotSettings(), games)
    translator = CatalogueTranslator()
    return [
        await command.get_translated_payload(tree, translator) for command in tree.get_commands()
    ]


class _NoApi:
    """The API of a tree that is only described, never run."""

    async def ask(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        raise ServiceError(UNREACHABLE)

    async def rulings_for_card(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        raise ServiceError(UNREACHABLE)

    async def cards(self, typed: str = "") -> list[str]:
        return []

    async def check(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        raise ServiceError(UNREACHABLE)

    async def feedback(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        raise ServiceError(UNREACHABLE)
