"""Deciding whether the best hit answers the question at all.

One raw cosine threshold cannot do it: e5's cosines are squeezed into ~0.72-0.92 and
off-topic questions overlap on-topic ones. The decision combines several pieces of evidence:
how similar the best ruling is, how far it stands above the runner-up, whether the lexical
and dense signals agree on it, whether a named card matched, and whether the question names a
game the archive holds nothing for. Thresholds are calibrated on the dev set (``rulings eval``).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from indexer.search import Signals


@dataclass(frozen=True)
class Features:
    dense_top: float        # cosine of the best fused hit (best language version)
    dense_best: float       # best cosine of any ruling
    dense_margin: float     # best cosine minus the best cosine of another ruling group
    bm25_top: float         # BM25 score of the best fused hit
    card: float             # card-lookup score of the best fused hit (0 when none)
    agree: bool             # dense and BM25 rank the same ruling group first
    other_game: bool        # the question names a game the archive holds nothing for

    @classmethod
    def from_signals(cls, sig: "Signals", fused: dict[str, float], groups: list[tuple[str, ...]],
                     other_game: bool) -> "Features":
        if not fused or not groups:
            return cls(0.0, 0.0, 0.0, 0.0, 0.0, False, other_game)
        top = groups[0]
        dense_top = max(sig.dense.get(r, 0.0) for r in top)
        dense_sorted = sorted(sig.dense.items(), key=lambda kv: -kv[1])
        dense_best = dense_sorted[0][1] if dense_sorted else 0.0
        first_group = _group_of(dense_sorted[0][0], groups) if dense_sorted else ()
        runner = next((s for r, s in dense_sorted if r not in first_group), dense_best)
        bm_sorted = sorted(sig.bm25.items(), key=lambda kv: -kv[1])
        agree = bool(dense_sorted and bm_sorted and bm_sorted[0][0] in top and dense_sorted[0][0] in top)
        return cls(dense_top=dense_top, dense_best=dense_best, dense_margin=dense_best - runner,
                   bm25_top=max(sig.bm25.get(r, 0.0) for r in top),
                   card=max(sig.card.get(r, 0.0) for r in top), agree=agree, other_game=other_game)

    def as_dict(self) -> dict:
        return asdict(self)


def _group_of(rid: str, groups: list[tuple[str, ...]]) -> tuple[str, ...]:
    return next((g for g in groups if rid in g), (rid,))


@dataclass(frozen=True)
class DeclineModel:
    """Answer when the evidence is strong enough; each threshold says what it guards against.

    Calibrated on dev.yaml (e5-small, "query: "/"passage: ", every ruling in seven languages):
    off-topic questions reach a cosine of at most ~0.83, answerable ones at least ~0.85; the
    off-topic question that scores higher (a real rules question the archive cannot answer)
    shares no word stem with its best match.
    """

    # Below this cosine nothing answers, whatever else holds.
    floor_cosine: float = 0.835
    # Up to this cosine the best ruling must also share terms with the question (BM25 score).
    lexical_cosine: float = 0.88
    min_bm25: float = 2.0
    # A card, item or monster named in the question (fuzzy score 0-100) is evidence enough.
    card_score: float = 90.0

    @classmethod
    def default(cls) -> "DeclineModel":
        return cls()

    def decide(self, f: Features) -> tuple[bool, str]:
        """(declined, reason)."""
        if f.other_game:
            return True, "the question is about a game the archive holds no rulings for"
        if f.card >= self.card_score:
            return False, "a card, item or monster the question names matched"
        if f.dense_top < self.floor_cosine:
            return True, "no ruling is close enough to the question"
        if f.dense_top < self.lexical_cosine and f.bm25_top < self.min_bm25:
            return True, "the nearest ruling shares no terms with the question"
        return False, "a ruling matches in meaning and in terms"
