"""The fitted part of search: a reranker over the candidates and the answer-or-decline model.

Both are logistic models over named features, fitted by ``indexer.calibrate`` with k-fold
cross-validation and saved with the project (``indexer/search/calibration.json``): weights are data,
never constants tuned by hand. At serving time they are a dot product in numpy; scikit-learn
is needed only to fit them.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from indexer.errors import Unavailable
from indexer.files import write_atomic
from indexer.paths import CALIBRATION_FILE
from indexer.search.adapter import QuestionAdapter, adapter_path
from indexer.search.results import (
    ANSWERS,
    CARD_LOOKUP,
    CARD_LOOKUP_SHARE,
    CARD_NAMED,
    NOT_CLOSE,
    NOTHING_SHARED,
    OTHER_GAME,
    Candidate,
)

log = logging.getLogger(__name__)

# Every candidate carries more features than these (BM25, card match, word coverage, the
# rival's distinct words, key votes): the bench's ablation measures each on held-out folds,
# and only those that helped there are weighed by the served models.
#: Per candidate rule: what the reranker weighs: the cosines to its texts and to its search
#: keys, whether a computation of the question cites it, whether it is the ruling of the
#: particular case that computation met (`computed_case`: a clarification or edge case it
#: cites, not the rulebook's procedure nor an erratum; shared out when it cites several), the
#: second look at close rulings (`distinct`: the share of the question's words it holds and
#: its nearest rival does not), and whether it is not curated yet (`keyless`, `foreign`) with
#: the signals as they weigh for such a ruling: learnt from test rulebooks imported alone with
#: their questions (indexer.search.fit.books; docs/decisions.md, "Uncurated rulings").
RERANK_FEATURES = (
    "dense_text", "dense_keys", "computed_cites", "computed_case", "distinct",
    "keyless", "foreign", "keyless_dense", "keyless_bm25", "keyless_covered",
    "keyless_distinct", "foreign_dense", "foreign_adapted",
)  # fmt: skip
#: For the best candidate: what the answer model weighs (`p_gap`: the reranker's margin over
#: the runner-up).
ANSWER_FEATURES = (
    "p_top",
    "dense_text",
    "dense_keys",
    "computed_case",
    "keyless",
    "foreign",
    "p_gap",
)
#: The features that tell an uncurated ruling apart: the ablation leaves them all out.
UNCURATED_FEATURES = (
    "keyless", "foreign", "keyless_dense", "keyless_bm25", "keyless_covered",
    "keyless_distinct", "foreign_dense", "foreign_adapted", "p_gap",
)  # fmt: skip


def with_uncurated_signals(feats: dict[str, float]) -> dict[str, float]:
    """A candidate's features with the signals as they weigh for an uncurated rule (each
    product is 0 for a curated one): its cosine, BM25, word coverage and distinct words when
    keyless, its cosine (and the adapted question's) when it has no text in the asker's
    language."""
    keyless, foreign = feats.get("keyless", 0.0), feats.get("foreign", 0.0)
    feats["keyless_dense"] = keyless * feats.get("dense_text", 0.0)
    feats["keyless_bm25"] = keyless * feats.get("bm25_text", 0.0)
    feats["keyless_covered"] = keyless * feats.get("covered", 0.0)
    feats["keyless_distinct"] = keyless * feats.get("distinct", 0.0)
    feats["foreign_dense"] = foreign * feats.get("dense_text", 0.0)
    feats["foreign_adapted"] = foreign * feats.get("adapted", 0.0)
    return feats


class CalibrationError(Unavailable):
    """The calibration file is missing or does not fit this service."""

    code = "calibration_unavailable"


@dataclass(frozen=True)
class LinearModel:
    """A logistic model over standardised features."""

    features: tuple[str, ...]
    weights: tuple[float, ...]
    bias: float
    mean: tuple[float, ...]
    scale: tuple[float, ...]

    def logit(self, x: dict[str, float]) -> float:
        return self.bias + sum(
            w * (x.get(name, 0.0) - m) / s
            for name, w, m, s in zip(self.features, self.weights, self.mean, self.scale)
        )

    def probability(self, x: dict[str, float]) -> float:
        z = self.logit(x)
        return 1.0 / (1.0 + math.exp(-z)) if z > -60 else 0.0

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "LinearModel":
        return cls(
            tuple(data["features"]),
            tuple(data["weights"]),
            float(data["bias"]),
            tuple(data["mean"]),
            tuple(data["scale"]),
        )


@dataclass(frozen=True)
class Calibration:
    """The fitted reranker, answer model and decline threshold, and what they were fitted on."""

    rerank: LinearModel
    answer: LinearModel
    threshold: float  # answer when P(right answer) >= threshold
    model: str = ""  # the embedding model and backend they were fitted for
    backend: str = ""
    fitted_on: dict[str, Any] = field(default_factory=dict)
    # The question adapter the reranker's `foreign_adapted` was fitted with (None: the
    # feature is 0); saved in a file of its own beside the calibration (`save_calibration`).
    adapter: QuestionAdapter | None = field(default=None, compare=False)

    def to_dict(self) -> dict[str, Any]:
        out = asdict(replace(self, adapter=None))
        del out["adapter"]
        return out

    @classmethod
    def neutral(cls) -> "Calibration":
        """Rank by the two cosines, answer everything: what search does before calibration."""
        ones = (1.0, 1.0)
        rank = LinearModel(("dense_text", "dense_keys"), ones, 0.0, (0.0, 0.0), ones)
        answer = LinearModel(("p_top",), (0.0,), 0.0, (0.0,), (1.0,))
        return cls(rank, answer, 0.0, fitted_on={"neutral": True})

    def rank(self, candidates: list[Candidate]) -> list[tuple[str, float]]:
        """The candidates, best first, with the reranker's probability (ties by id)."""
        scored = [(rid, self.rerank.probability(feats)) for rid, feats in candidates]
        return sorted(scored, key=lambda c: (-c[1], c[0]))

    def decide(
        self, candidates: list[Candidate], ranked: list[tuple[str, float]], *, other_game: bool
    ) -> tuple[bool, str, dict[str, float]]:
        """Whether the best of the ranked candidates answers: (declined, reason, its evidence).
        `other_game`: the question is about a game the archive holds nothing for."""
        if other_game:
            return True, OTHER_GAME, {}
        if not ranked:
            return True, NOTHING_SHARED, {}
        feats = dict(next(f for rid, f in candidates if rid == ranked[0][0]))
        feats["p_top"] = ranked[0][1]
        feats["p_gap"] = ranked[0][1] - (ranked[1][1] if len(ranked) > 1 else 0.0)
        if feats["card"] >= CARD_LOOKUP and feats["card_about"] >= CARD_LOOKUP_SHARE:
            # A card lookup ("item 225", "chiling breth"): the ruling about that card answers,
            # as GET /v1/rulings?card= would.
            return False, CARD_NAMED, feats
        p = self.answer.probability(feats)
        feats["p_answer"] = p
        if p < self.threshold:
            return True, NOT_CLOSE, feats
        return False, ANSWERS, feats

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Calibration":
        return cls(
            LinearModel.from_dict(data["rerank"]),
            LinearModel.from_dict(data["answer"]),
            float(data["threshold"]),
            data.get("model", ""),
            data.get("backend", ""),
            data.get("fitted_on", {}),
        )


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def save_calibration(calibration: Calibration, path: Path | None = None) -> None:
    """The calibration as JSON at `path`, its adapter beside it (`adapter.adapter_path`),
    named in the JSON by its checksum: the adapter is written first, so a reader never finds
    a calibration naming an adapter that is not there yet."""
    path = Path(path or CALIBRATION_FILE)
    data = calibration.to_dict()
    if calibration.adapter is not None:
        calibration.adapter.save(adapter_path(path))
        data["adapter_sha256"] = _sha256(adapter_path(path))
    write_atomic(path, json.dumps(data, indent=1) + "\n", mode=0o644)


def load_calibration(path: Path | None = None) -> Calibration:
    """The saved calibration (with its adapter), or CalibrationError saying how to make one."""
    path = Path(path or CALIBRATION_FILE)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        calibration = Calibration.from_dict(data)
    except FileNotFoundError:
        raise CalibrationError(f"no calibration at {path}; run `rulings calibrate`") from None
    except (ValueError, KeyError, TypeError) as exc:
        raise CalibrationError(
            f"calibration at {path} is unreadable ({exc}); run `rulings calibrate`"
        ) from None
    expected = data.get("adapter_sha256")
    if not expected:
        return calibration
    adapter_file = adapter_path(path)
    try:
        if _sha256(adapter_file) != expected:
            raise ValueError("it is not the adapter this calibration was fitted with")
        adapter = QuestionAdapter.load(adapter_file)
    except (OSError, ValueError) as exc:
        raise CalibrationError(
            f"question adapter at {adapter_file} is unusable ({exc}); run `rulings calibrate`"
        ) from None
    return replace(calibration, adapter=adapter)


def saved_or_neutral_calibration() -> Calibration:
    """The saved calibration or, before the first `rulings calibrate` (or with its file
    removed), the neutral one: rank by meaning, answer always, and say so in the log (the
    figures in the bench report come from a fitted one)."""
    try:
        return load_calibration()
    except CalibrationError as exc:
        log.warning("%s; ranking by cosine and never declining", exc.message)
        return Calibration.neutral()
