"""What search answers: the hits, the decision and its reason, and the per-rule signals and
candidates the stages pass along (``indexer.search.searcher``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, get_args

# Why a question is answered or declined: fixed sentences, so the service can say them in
# the asker's language (service/presentation.py lists them for the catalogues).
OTHER_GAME = "the question is about a game the archive holds no rulings for"
CARD_NAMED = "the question names a card this ruling is about"
NOT_CLOSE = "no ruling answers it closely enough"
NOTHING_SHARED = "no ruling shares anything with the question"
ANSWERS = "a ruling answers it closely enough"
REASONS = (OTHER_GAME, CARD_NAMED, NOT_CLOSE, NOTHING_SHARED, ANSWERS)
#: Each reason's machine-readable code (the API's `reason_code`, beside the prose `reason`),
#: in the order of REASONS.
ReasonCode = Literal["other_game", "card_named", "not_close_enough", "nothing_shared", "answers"]
REASON_CODES: dict[str, ReasonCode] = dict(zip(REASONS, get_args(ReasonCode), strict=True))
# A card lookup: the card matched (fuzzy score 0.9 of 1) and its name is most of the question.
# These say what a lookup is, they are not fitted: questions that only name a card are left
# to the fitted models.
CARD_LOOKUP, CARD_LOOKUP_SHARE = 0.9, 0.5


@dataclass(frozen=True)
class Hit:
    """One ruling in the results: the record shown (asker's edition preferred) and its score."""

    record_id: str
    score: float
    dense: float
    group: tuple[str, ...]


@dataclass(frozen=True)
class SearchResult:
    question: str
    lang: str
    game: str | None
    declined: bool
    hits: list[Hit]
    reason: str
    features: dict[str, float] | None = None


@dataclass
class Signals:
    """Per-rule raw scores from each signal (rules = canonical record of an edition group)."""

    dense: Mapping[str, float] = field(default_factory=dict)  # over the rulings' texts
    dense_keys: Mapping[str, float] = field(default_factory=dict)  # over their search keys
    bm25: Mapping[str, float] = field(default_factory=dict)
    bm25_keys: Mapping[str, float] = field(default_factory=dict)
    card: dict[str, float] = field(default_factory=dict)
    key_votes: dict[str, float] = field(default_factory=dict)
    # Each uncurated (keyless) rule's best cosine with the adapted question (search.adapter).
    adapted: Mapping[str, float] = field(default_factory=dict)

    def all(self) -> tuple[Mapping[str, float], ...]:
        return (self.dense, self.dense_keys, self.bm25, self.bm25_keys, self.card)


Candidate = tuple[str, dict[str, float]]


#: The kinds of ruling that settle a particular case (see the `computed_case` feature).
CASE_KINDS = frozenset({"clarification", "edge case"})
