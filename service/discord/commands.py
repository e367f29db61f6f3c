"""What the Discord commands answer, apart from how they reach Discord.

The gateway bot (``service.discord.gateway``, over a websocket, calling the HTTP API) and the
HTTP interactions endpoint (``service.discord.interactions``, calling the engine in-process)
answer ``/rule``, ``/errata``, ``/damage`` and ``/settings game`` with these functions: each
takes an ``Api`` (anything with ``ask``, ``rulings_for_card``, ``cards``, ``check`` and
``feedback``), the options, the user's language and the server's default game, and returns a
``Reply`` (an embed within Discord's limits, or a short message). ``/rule``'s answer carries
the vote buttons (``feedback_components``) and ``feedback_reply`` answers a click on one, for
both transports alike. No Discord library is imported here.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any, Protocol

from checker.base import GAMES
from service.discord.embeds import (
    answer_embed,
    damage_embed,
    errata_embed,
    fit_embed,
    match_title,
    truncate,
)
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
# ... and those of a vote that could not be recorded.
VOTE_GONE = N_("This answer can no longer be voted on.")
VOTE_OFF = N_("Votes cannot be recorded right now. Please try again later.")


class Api(Protocol):
    """What the commands need from the rulings service (over HTTP or in-process)."""

    async def ask(
        self,
        question: str,
        *,
        game: str | None = None,
        lang: str | None = None,
        k: int = 4,
        server: str | None = None,
        hint: str | None = None,
    ) -> dict[str, Any]: ...
    async def rulings_for_card(
        self, card: str, *, lang: str | None = None, limit: int = 10
    ) -> dict[str, Any]: ...
    async def cards(self, typed: str = "") -> list[str]: ...
    async def check(self, name: str, payload: dict[str, Any]) -> dict[str, Any]: ...
    async def feedback(
        self, ask_id: str, helpful: bool, *, ruling: str | None = None
    ) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Reply:
    """One answer: an embed (already fitted to Discord's limits) or a message.

    `components`: Discord's action rows (the vote buttons; ``[]`` removes them); `update`: the
    reply replaces the message whose button was clicked (its embed kept) instead of being a
    new message."""

    embed: dict[str, Any] | None = None
    content: str | None = None
    ephemeral: bool = True
    components: list[dict[str, Any]] | None = None
    update: bool = False

    def as_message(self) -> dict[str, Any]:
        """The message as Discord's API takes it (flag 64: only the user sees it)."""
        data: dict[str, Any] = {"allowed_mentions": {"parse": []}}
        if self.embed is not None:
            data["embeds"] = [self.embed]
        if self.content is not None:
            data["content"] = self.content
        if self.components is not None:
            data["components"] = self.components
        if self.ephemeral and not self.update:  # an updated message keeps its own flags
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
    server: str | None = None,
    hint: str | None = None,
) -> Reply:
    """/rule: the ruling that answers the question (labels in `lang`), or the nearest ones,
    with the vote buttons when the ask is logged. `server`: the Discord server's id, if any;
    `hint`: the user's language (their Discord locale, if one of the archive's), which the
    service takes as a prior for the question's language (a short question cannot show it)."""
    try:
        res = await api.ask(
            question, game=chosen_game(game, default_game), server=server, hint=hint
        )
    except ServiceError as exc:
        return Reply(content=exc.text(lang))
    embed = _embed(answer_embed(res, public_url, lang), lang)
    components = feedback_components(res, lang)
    if components is None:
        return Reply(embed=embed, ephemeral=not public)
    return Reply(
        embed=embed,
        content=_(ASKED_NEAREST if _declined(res) else ASKED_ANSWER, lang),
        components=components,
        ephemeral=not public,
    )


# -- votes: the buttons under /rule's answer and what a click on one answers ----------------
#: A vote button's custom_id: fb:<1 yes | 0 no>:<ask_id>[:<the nearest ruling voted for>].
FEEDBACK_ID = re.compile(
    r"fb:(?P<helpful>[01]):(?P<ask_id>[0-9a-f]{32})" r"(?::(?P<ruling>[^\s:]+))?"
)
CUSTOM_ID_MAX, LABEL_MAX = 100, 80  # Discord's limits for a button
NEAREST_VOTES = 3  # "this one answers it" buttons under a decline, one per nearest ruling
ACTION_ROW, BUTTON, SECONDARY = 1, 2, 2
ASKED_ANSWER = N_("Did this answer it?")
ASKED_NEAREST = N_("Does one of these rulings answer it?")
THANKS = N_("Thanks for your vote!")
UNKNOWN_BUTTON = N_("This button is not known here.")


@dataclass(frozen=True)
class FeedbackVote:
    """What a vote button says: the ask, yes or no, and the nearest ruling voted for."""

    ask_id: str
    helpful: bool
    ruling: str | None = None

    @property
    def custom_id(self) -> str:
        return f"fb:{int(self.helpful)}:{self.ask_id}" + (f":{self.ruling}" if self.ruling else "")

    @classmethod
    def parse(cls, custom_id: str) -> FeedbackVote | None:
        """The vote a custom_id carries (None: it is no vote button of ours)."""
        found = FEEDBACK_ID.fullmatch(custom_id or "")
        if found is None or len(custom_id) > CUSTOM_ID_MAX:
            return None
        return cls(found["ask_id"], found["helpful"] == "1", found["ruling"])


def _declined(res: dict[str, Any]) -> bool:
    return bool(res.get("declined")) or not res.get("answer")


def _button(vote: FeedbackVote, label: str, emoji: str) -> dict[str, Any]:
    return {
        "type": BUTTON,
        "style": SECONDARY,
        "label": truncate(label, LABEL_MAX),
        "emoji": {"name": emoji},
        "custom_id": vote.custom_id,
    }


def feedback_components(res: dict[str, Any], lang: str = "en") -> list[dict[str, Any]] | None:
    """The vote buttons for an answer (one action row), or None when the ask is not logged.

    An answer: yes / no. A decline: one yes per nearest ruling shown (up to 3, labelled with
    its title), then "none of them"; no buttons when no ruling is shown."""
    ask_id = res.get("ask_id")
    if not isinstance(ask_id, str) or not re.fullmatch(r"[0-9a-f]{32}", ask_id):
        return None
    if not _declined(res):
        buttons = [
            _button(FeedbackVote(ask_id, True), _("Yes, it answers it", lang), "👍"),
            _button(FeedbackVote(ask_id, False), _("No, it does not", lang), "👎"),
        ]
    else:
        buttons = []
        for m in res.get("matches") or []:
            vote = FeedbackVote(ask_id, True, m["id"])
            # An id too long for a custom_id gets no button (the archive's are far shorter).
            if len(buttons) < NEAREST_VOTES and FeedbackVote.parse(vote.custom_id) == vote:
                buttons.append(_button(vote, match_title(m, LABEL_MAX), "👍"))
        if not buttons:
            return None
        buttons.append(_button(FeedbackVote(ask_id, False), _("None of them", lang), "👎"))
    return [{"type": ACTION_ROW, "components": buttons}]


async def feedback_reply(api: Api, custom_id: str, lang: str = "en") -> Reply:
    """A click on a vote button: the vote recorded, then the message updated (the buttons
    gone, a thank-you for the prompt); a short message only the user sees when it fails."""
    vote = FeedbackVote.parse(custom_id)
    if vote is None:
        return Reply(content=_(UNKNOWN_BUTTON, lang))
    try:
        await api.feedback(vote.ask_id, vote.helpful, ruling=vote.ruling)
    except ServiceError as exc:
        return Reply(content=exc.text(lang))
    return Reply(content=_(THANKS, lang), components=[], update=True)


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
