"""``EngineApi``: the rulings service inside the API's own process, for the HTTP interactions
endpoint (``service.discord.interactions``): the engine's answers, validated as over HTTP, and
the question log's asks and votes, as ``POST /v1/ask`` and ``POST /v1/feedback`` keep them.

The commands run in worker threads, outside Flask's app context: the engine and the log are
handed over when the request makes the ``EngineApi`` (``get_engine()``, ``get_ask_log()``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from checker import run_check
from indexer.errors import RulingsError
from service.asklog import AskLog, LogUnavailable, UnknownAsk
from service.discord.commands import FAILED, REFUSED, VOTE_GONE, VOTE_OFF, ServiceError
from service.http import models as m
from service.http.votes import FeedbackBody, UnknownRuling, record_vote

log = logging.getLogger(__name__)

#: The question log's channel for the asks answered here.
CHANNEL = "discord-interactions"


class EngineApi:
    """The rulings service in this process (``dc.Api``); `ask_log`: None when the log is off."""

    def __init__(self, engine: Any, ask_log: AskLog | None = None):
        self.engine, self.ask_log = engine, ask_log

    @staticmethod
    def _call(func: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        try:
            return func()
        except RulingsError as exc:
            if exc.status >= 500:
                log.error("%s answering a Discord command: %s", exc.code, exc.message)
                raise ServiceError(FAILED) from None
            raise ServiceError(REFUSED, exc.message) from None

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
        """An answer, logged with its ``ask_id`` (as ``routes._answered`` does) when the log is
        on; `server`: the Discord server's id, which the log keeps only as a keyed hash; `hint`:
        the user's language, the prior for the question's (``Accept-Language`` over HTTP)."""

        def answer() -> dict[str, Any]:
            body = m.validated(
                m.AskBody,
                {
                    "question": question,
                    "k": k,
                    **({"game": game} if game else {}),
                    **({"lang": lang} if lang else {}),
                },
            )
            res = self.engine.ask(
                body.question, game=body.game, lang=body.lang, k=body.k, hint=hint
            )
            if self.ask_log is not None:
                res["ask_id"] = self.ask_log.record(res, CHANNEL, server)
            return res

        return self._call(answer)

    async def rulings_for_card(
        self, card: str, *, lang: str | None = None, limit: int = 10
    ) -> dict[str, Any]:
        def find() -> dict[str, Any]:
            query = m.validated(
                m.RulingsQuery, {"card": card, "limit": limit, **({"lang": lang} if lang else {})}
            )
            return self.engine.find(card=query.card, lang=query.lang or None, limit=query.limit)

        return self._call(find)

    async def cards(self, typed: str = "") -> list[str]:
        return self.engine.suggest_cards(typed[: m.MAX_CARD])

    async def check(self, name: str, payload: dict[str, Any]) -> dict[str, Any]:
        return self._call(lambda: run_check(name, payload))

    async def feedback(
        self, ask_id: str, helpful: bool, *, ruling: str | None = None
    ) -> dict[str, Any]:
        """A vote, recorded as ``POST /v1/feedback`` records it (the same checks and errors)."""
        ask_log = self.ask_log
        if ask_log is None:
            raise ServiceError(VOTE_OFF)

        def vote() -> dict[str, Any]:
            body = m.validated(
                FeedbackBody,
                {"ask_id": ask_id, "helpful": helpful, **({"ruling": ruling} if ruling else {})},
            )
            try:
                record_vote(body, self.engine, ask_log)
            except (UnknownAsk, UnknownRuling):  # e.g. the ruling left the archive since
                raise ServiceError(VOTE_GONE) from None
            except (LogUnavailable, OSError) as exc:
                log.warning("a Discord vote was not recorded: %s", exc)
                raise ServiceError(VOTE_OFF) from None
            return {"ask_id": body.ask_id, "helpful": body.helpful, "ruling": body.ruling}

        return self._call(vote)
