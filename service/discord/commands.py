"""What the Discord commands answer, apart from how they reach Discord.

The gateway bot (``service.discord_bot``, over a websocket, calling the HTTP API) and the HTTP
interactions endpoint (``service.interactions``, calling the engine in-process) answer
``/rule``, ``/errata``, ``/damage`` and ``/settings game`` with these functions: each takes an
``Api`` (anything with ``ask``, ``rulings_for_card``, ``cards`` and ``check``), the options, the
user's language and the server's default game, and returns a ``Reply`` (an embed within
Discord's limits, or a short message). No Discord library is imported here.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Protocol

from checker.base import GAMES
from service.discord.embeds import answer_embed, damage_embed, errata_embed, fit_embed, truncate
from service.i18n import N_, _
from service.presentation import LANGUAGE_NAMES

log = logging.getLogger(__name__)

CHOICE_MAX = 100  # an autocomplete choice's name and value
MAX_CHOICES = 25  # autocomplete choices Discord shows
ANY_GAME = "any"


class ServiceError(Exception):
    """The rulings service could not answer; `message` is short and fit to show a player.

    `message` is English (a catalogue msgid, with ``%(detail)s`` filled); ``text(lang)`` is the
    same in the player's language."""

    def __init__(self, message: str, detail: str | None = None):
        self.template, self.detail = message, detail
        self.message = message % {"detail": detail} if detail is not None else message
        super().__init__(self.message)

    def text(self, lang: str | None) -> str:
        if self.detail is None:
            return _(self.template, lang)
        return _(self.template, lang, detail=self.detail)


# The messages an ServiceError carries (marked here so that the catalogues have them).
TOO_SLOW = N_("The rulings service took too long to answer. Please try again in a moment.")
UNREACHABLE = N_("The rulings service cannot be reached right now. Please try again later.")
FAILED = N_("The rulings service had a problem answering. Please try again later.")
REFUSED = N_("That request was not accepted: %(detail)s")


class Api(Protocol):
    """What the commands need from the rulings service (over HTTP or in-process)."""

    async def ask(
        self, question: str, *, game: str | None = None, lang: str | None = None, k: int = 4
    ) -> dict[str, Any]: ...
    async def rulings_for_card(
        self, card: str, *, lang: str | None = None, limit: int = 10
    ) -> dict[str, Any]: ...
    async def cards(self, typed: str = "") -> list[str]: ...
    async def check(self, name: str, payload: dict[str, Any]) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Reply:
    """One answer: an embed (already fitted to Discord's limits) or a message."""

    embed: dict[str, Any] | None = None
    content: str | None = None
    ephemeral: bool = True

    def as_message(self) -> dict[str, Any]:
        """The message as Discord's API takes it (flag 64: only the user sees it)."""
        data: dict[str, Any] = {"allowed_mentions": {"parse": []}}
        if self.embed is not None:
            data["embeds"] = [self.embed]
        if self.content is not None:
            data["content"] = self.content
        if self.ephemeral:
            data["flags"] = 64
        return data


def locale_lang(locale: Any) -> str | None:
    """The archive language for a Discord locale ('es-ES' -> 'es'), if it is one of the 7."""
    code = str(getattr(locale, "value", locale) or "").split("-")[0].lower()
    return code if code in LANGUAGE_NAMES else None


def parse_modifiers(text: str | None) -> list[str]:
    """'+1 rolling, x2' -> ['+1 rolling', 'x2'] (the API validates each)."""
    return [m.strip() for m in (text or "").replace(";", ",").split(",") if m.strip()]


def chosen_game(game: str | None, default: str | None) -> str | None:
    """The game a question is about: the option, else the server's default; 'any' is none."""
    game = game or default
    return None if game in (None, "", ANY_GAME) else game


def _embed(embed: dict[str, Any], lang: str) -> dict[str, Any]:
    return fit_embed(embed, lang)


async def rule_reply(
    api: Api,
    question: str,
    *,
    game: str | None = None,
    default_game: str | None = None,
    lang: str = "en",
    public_url: str | None = None,
    public: bool = False,
) -> Reply:
    """/rule: the ruling that answers the question (labels in `lang`), or the nearest ones."""
    try:
        res = await api.ask(question, game=chosen_game(game, default_game))
    except ServiceError as exc:
        return Reply(content=exc.text(lang))
    return Reply(embed=_embed(answer_embed(res, public_url, lang), lang), ephemeral=not public)


async def errata_reply(
    api: Api,
    card: str,
    *,
    lang: str | None = None,
    public_url: str | None = None,
    public: bool = False,
) -> Reply:
    """/errata: the rulings about a card, translated into the user's language (`lang`: one of
    the archive's, else None: no translation, English labels)."""
    ui = lang or "en"
    try:
        res = await api.rulings_for_card(card, lang=lang)
    except ServiceError as exc:
        return Reply(content=exc.text(ui))
    return Reply(embed=_embed(errata_embed(card, res, public_url, ui), ui), ephemeral=not public)


def damage_payload(
    *,
    attack: int,
    game: str | None = None,
    default_game: str | None = None,
    shield: int = 0,
    ward: bool = False,
    brittle: bool = False,
    modifiers: str | None = None,
    hp: int | None = None,
) -> dict[str, Any]:
    """The damage check's request from the command's options."""
    chosen = game or (default_game if default_game in GAMES else None) or GAMES[0]
    payload: dict[str, Any] = {
        "game": chosen,
        "attack": attack,
        "shield": shield,
        "ward": ward,
        "brittle": brittle,
        "modifiers": parse_modifiers(modifiers),
    }
    if hp is not None:
        payload["hp"] = hp
    return payload


async def damage_reply(
    api: Api,
    payload: dict[str, Any],
    *,
    lang: str = "en",
    public_url: str | None = None,
    public: bool = False,
) -> Reply:
    """/damage: run the damage check and show each step with its rulings."""
    try:
        res = await api.check("damage", payload)
    except ServiceError as exc:
        return Reply(content=exc.text(lang))
    return Reply(embed=_embed(damage_embed(res, public_url, lang), lang), ephemeral=not public)


async def card_suggestions(api: Api, typed: str) -> list[str]:
    """Autocomplete for /errata card, ranked by the server; never raises (Discord shows
    nothing on failure)."""
    try:
        names = await api.cards(typed.strip())
    except ServiceError:
        return []
    return [n for n in names if len(n) <= CHOICE_MAX][:MAX_CHOICES]


def settings_reply(
    store: Any, guild_id: int | None, game: str, games: dict[str, str], lang: str = "en"
) -> Reply:
    """/settings game: keep the server's default game (`store`: a ``GuildSettings``)."""
    if guild_id is None:
        return Reply(content=_("Server settings can only be changed in a server.", lang))
    if game != ANY_GAME and game not in games:
        return Reply(content=_("Unknown game: %(game)s", lang, game=truncate(game, 100)))
    store.set_game(guild_id, None if game == ANY_GAME else game)
    if game == ANY_GAME:
        return Reply(
            content=_(
                "This server has no default game now: questions are matched against every game.",
                lang,
            )
        )
    return Reply(
        content=_(
            "Questions asked in this server are now about %(game)s unless they name another game.",
            lang,
            game=games[game],
        )
    )
