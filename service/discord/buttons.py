"""The vote buttons under /rule's answer, on the gateway bot.

``feedback_view`` turns the buttons ``commands.feedback_components`` describes (the same ones
the HTTP interactions endpoint sends) into a discord.py view; ``FeedbackButton`` is a dynamic
item, registered once on the client, so a click reaches ``handle_feedback`` whatever message
it is on and however long ago the bot sent it (no view is kept per message); the vote goes to
the API (``Api.feedback``) and the message is updated like the endpoint's type 7.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from service.discord import commands as dc
from service.discord.commands import UNREACHABLE, Reply, ServiceError, locale_lang

log = logging.getLogger(__name__)


class FeedbackButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"fb:.{0,97}"):
    """A vote button; the template takes every ``fb:`` custom_id, so that a malformed one is
    told so (``feedback_reply``) rather than left without an answer."""

    def __init__(self, custom_id: str, label: str | None = None, emoji: str | None = None):
        super().__init__(
            discord.ui.Button(
                style=discord.ButtonStyle.secondary, label=label, emoji=emoji, custom_id=custom_id
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> FeedbackButton:
        return cls(match.string, getattr(item, "label", None))

    async def callback(self, interaction: discord.Interaction) -> None:
        # The client is the RulingsBot, whose API client records the vote.
        await handle_feedback(interaction, getattr(interaction.client, "api", None), self.custom_id)


def feedback_view(components: list[dict[str, Any]]) -> discord.ui.View:
    """The buttons of `components` (Discord's action rows, as ``Reply.components``) as a view;
    no timeout: the buttons stay usable (their clicks go to ``FeedbackButton``)."""
    view = discord.ui.View(timeout=None)
    for row in components:
        for button in row.get("components", []):
            emoji = (button.get("emoji") or {}).get("name")
            view.add_item(FeedbackButton(button["custom_id"], button.get("label"), emoji))
    return view


async def handle_feedback(interaction: Any, api: dc.Api | None, custom_id: str) -> None:
    """A click on a vote button: record the vote, then replace the prompt with a thank-you and
    remove the buttons; on failure, one short message only the user sees."""
    lang = locale_lang(getattr(interaction, "locale", None)) or "en"
    # The API writes the vote before it answers: acknowledge first (Discord waits 3 seconds),
    # as an update of the message, then edit it.
    await interaction.response.defer()
    if api is None:
        reply = Reply(content=ServiceError(UNREACHABLE).text(lang))
    else:
        reply = await dc.feedback_reply(api, custom_id, lang)
    if reply.update:
        await interaction.edit_original_response(content=reply.content, view=None)
    else:
        await interaction.followup.send(reply.content, ephemeral=True)
