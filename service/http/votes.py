"""POST /v1/feedback: a player's vote on an answer, recorded in the question log."""

from __future__ import annotations

from typing import Annotated

from flask import Blueprint, jsonify
from pydantic import Field, StrictBool, StrictStr

from indexer.errors import RulingsError
from service.asklog import AskLog, Vote
from service.engine import Engine
from service.http.context import HttpError, get_ask_log, get_engine, json_body
from service.http.metrics import observe_feedback
from service.http.models import ApiModel, Out, shaped, validated

votes = Blueprint("votes", __name__)

MAX_NOTE = 1000
AskId = Annotated[
    StrictStr, Field(pattern=r"^[0-9a-f]{32}$", description="the `ask_id` an ask answered with")
]
RulingId = Annotated[
    StrictStr, Field(min_length=1, max_length=200, description="a ruling's id, e.g. fh-errata-09")
]


class FeedbackBody(ApiModel):
    """POST /v1/feedback: a player's vote on an answer (or on a nearest ruling of a decline)."""

    field_messages = {
        "'ask_id'": "'ask_id' must be the 32-hex-digit `ask_id` of an ask's answer",
        "'helpful'": "'helpful' must be true or false",
        "'note'": f"'note' must be a string of at most {MAX_NOTE} characters",
    }
    ask_id: AskId
    helpful: StrictBool = Field(description="did the answer (or `ruling`) answer the question?")
    ruling: RulingId | None = Field(
        default=None,
        description="the ruling voted on (default: the answer); on a decline, the nearest "
        "ruling that answers it",
    )
    note: Annotated[StrictStr, Field(max_length=MAX_NOTE)] | None = Field(
        default=None, description="a short note for the archive's curator"
    )


class FeedbackOut(Out):
    ask_id: str
    helpful: bool
    ruling: str | None
    recorded: bool = Field(description="true: the vote is in the question log")


class UnknownRuling(RulingsError):
    """A vote on a ruling the archive does not hold (any more)."""

    def __init__(self, ruling: str):
        # A well-formed id the archive does not hold: not found, as an unknown ask.
        super().__init__(f"no ruling with id {ruling!r}", status=404, code="not_found")


def record_vote(vote: FeedbackBody, engine: Engine, ask_log: AskLog) -> None:
    """Record a validated vote (over HTTP and from the Discord buttons): UnknownRuling or
    UnknownAsk (404) for a ruling or an ask unknown here, LogUnavailable (503) when the log
    cannot be reached."""
    if vote.ruling is not None and engine.archive.get(vote.ruling) is None:
        raise UnknownRuling(vote.ruling)
    ask_log.vote(Vote(vote.ask_id, vote.helpful, vote.ruling, vote.note))
    observe_feedback(vote.helpful)


@votes.post("/v1/feedback")
def feedback():
    """A vote on an answer: 404 for an ask (or a ruling) unknown here, 503 when the log is off."""
    vote = validated(FeedbackBody, json_body())
    ask_log = get_ask_log()
    if ask_log is None:
        raise HttpError(503, "log_off", "the question log is off here (RULINGS_LOG=off)")
    record_vote(vote, get_engine(), ask_log)
    return jsonify(
        shaped(
            FeedbackOut,
            {
                "ask_id": vote.ask_id,
                "helpful": vote.helpful,
                "ruling": vote.ruling,
                "recorded": True,
            },
        )
    )
