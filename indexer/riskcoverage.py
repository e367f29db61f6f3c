"""Trust as users meet it: the risk-coverage curve of the answer-or-decline decision.

Questions are answered most confident first. At each cut-off, *coverage* is the share of the
questions answered and *risk* the share of wrong rulings among those answered. A wrong ruling
counts as wrong, and so does any answer to a question the archive cannot answer (an "outside"
question): declining it is the only right outcome. The curve, its area (AURC) and the largest
coverage kept under a risk (2 %, 5 %) say how much the service can answer at a given trust,
whatever threshold it ships; the shipped threshold is one point on it.

Pure numpy: the bench feeds it held-out probabilities, ``rulings review --stats`` the log's
votes (`risk_coverage_from_votes`). It knows nothing of search (confidences and right or
wrong), so it sits in ``indexer`` rather than ``indexer/search``, which holds its twelve.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

#: What the functions take: lists, or numpy arrays (the bootstrap's resamples).
Floats = Sequence[float] | np.ndarray
Bools = Sequence[bool] | np.ndarray
#: The risks the coverage is reported at (the issue's 2 % and 5 %).
RISKS = (0.02, 0.05)
#: Risks are shares of small counts: compared with this slack so 1/50 counts as 2 %.
_EPS = 1e-12


@dataclass(frozen=True, eq=False)
class RiskCoverage:
    """A risk-coverage curve: one point per distinct confidence, most confident first.

    `thresholds[i]` is the confidence of step i: answering every question whose confidence is
    at least it gives `coverage[i]` and `risk[i]`. Equal confidences are one step (a threshold
    cannot answer one of them and not the other).

    `aurc` is the area under the curve as Geifman & El-Yaniv define it: the mean of the risk
    over the coverage points k/n (k = 1..n, answering one more question each time). Within a
    tie group every k takes the group's risk, so it equals the step integral
    sum(risk[i] * (coverage[i] - coverage[i-1])). Lower is better; a service that declines
    nothing and ranks at random sits at its overall error rate.
    """

    coverage: np.ndarray
    risk: np.ndarray
    thresholds: np.ndarray
    aurc: float

    def coverage_at(self, max_risk: float) -> float:
        """The largest coverage whose risk is at most `max_risk`; 0.0 if no step keeps to it."""
        kept = self.coverage[self.risk <= max_risk + _EPS]
        return float(kept.max()) if kept.size else 0.0

    def at_threshold(self, threshold: float) -> tuple[float, float]:
        """(coverage, risk) when answering the questions whose confidence is >= `threshold`
        (as the service does: it declines below it). (0.0, 0.0) when none is answered."""
        steps = np.flatnonzero(self.thresholds >= threshold)
        if not steps.size:
            return 0.0, 0.0
        last = steps[-1]
        return float(self.coverage[last]), float(self.risk[last])


def _arrays(confidence: Floats, correct: Bools) -> tuple[np.ndarray, np.ndarray]:
    conf = np.asarray(confidence, dtype=np.float64)
    ok = np.asarray(correct, dtype=bool)
    if conf.ndim != 1 or conf.shape != ok.shape:
        raise ValueError(
            f"confidence and correct must be two flat lists of one length ({conf.shape} and "
            f"{ok.shape})"
        )
    if conf.size == 0:
        raise ValueError("no questions: a risk-coverage curve needs at least one")
    if np.isnan(conf).any():
        raise ValueError("a confidence is NaN: every question needs a comparable confidence")
    return conf, ok


def risk_coverage(
    confidence: Floats, correct: Bools, *, total: float | None = None
) -> RiskCoverage:
    """The risk-coverage curve of answering the questions most confident first.

    `correct[i]`: whether answering question i is right (False for a wrong ruling and for any
    answer to a question the archive cannot answer). Confidences may be +-inf (always / never
    answered). `total`: how many questions the coverage is a share of, when some asked were
    never candidates to answer (declined before any confidence); default len(confidence).
    """
    conf, ok = _arrays(confidence, correct)
    n = float(conf.size if total is None else total)
    if n < conf.size:
        raise ValueError(f"total ({n}) is below the number of questions given ({conf.size})")
    order = np.argsort(-conf, kind="stable")
    ranked = conf[order]
    wrong = np.cumsum(~ok[order])
    answered = np.arange(1, conf.size + 1)
    # The last question of each tie group: a threshold answers the whole group or none of it.
    ends = np.flatnonzero(np.append(ranked[1:] != ranked[:-1], True))
    coverage = answered[ends] / n
    risk = wrong[ends] / answered[ends]
    aurc = float(np.sum(risk * np.diff(coverage, prepend=0.0)))
    return RiskCoverage(coverage, risk, ranked[ends], aurc)


def _interval(point: float, samples: np.ndarray, level: float) -> dict[str, float]:
    tail = (1 - level) / 2 * 100
    low, high = np.percentile(samples, [tail, 100 - tail])
    return {"value": round(point, 4), "low": round(float(low), 4), "high": round(float(high), 4)}


def bootstrap(
    confidence: Floats,
    correct: Bools,
    *,
    n: int = 1000,
    seed: int = 0,
    total: float | None = None,
    level: float = 0.95,
) -> dict[str, Any]:
    """Percentile intervals (95 % by default) of the AURC and of the coverage at 2 % and 5 %
    risk: the questions resampled with replacement `n` times with a fixed seed.

    Returns {"aurc": {"value", "low", "high"}, "coverage@0.02": ..., "coverage@0.05": ...,
    "resamples", "seed"}. With `total`, each resample keeps the share of the total that the
    given questions make (the questions declined before any confidence are not resampled).
    """
    conf, ok = _arrays(confidence, correct)
    point = risk_coverage(conf, ok, total=total)
    rng = np.random.default_rng(seed)
    samples = np.empty((n, 1 + len(RISKS)))
    for i in range(n):
        pick = rng.integers(0, conf.size, conf.size)
        rc = risk_coverage(conf[pick], ok[pick], total=total)
        samples[i] = [rc.aurc, *(rc.coverage_at(r) for r in RISKS)]
    out: dict[str, Any] = {"aurc": _interval(point.aurc, samples[:, 0], level)}
    for j, r in enumerate(RISKS, start=1):
        out[f"coverage@{r}"] = _interval(point.coverage_at(r), samples[:, j], level)
    out.update(resamples=n, seed=seed)
    return out


def summarise(
    confidence: Floats,
    correct: Bools,
    *,
    threshold: float | None = None,
    total: float | None = None,
    n: int = 1000,
    seed: int = 0,
) -> dict[str, Any]:
    """The figures a report shows: the bootstrap's (AURC, coverage at 2 % and 5 % risk, each
    with its interval), the number of questions, and with `threshold` its operating point
    ({"threshold", "coverage", "risk"})."""
    out = {
        "questions": len(confidence),
        **bootstrap(confidence, correct, n=n, seed=seed, total=total),
    }
    if threshold is not None:
        cov, risk = risk_coverage(confidence, correct, total=total).at_threshold(threshold)
        out["operating_point"] = {
            "threshold": round(threshold, 4),
            "coverage": round(cov, 4),
            "risk": round(risk, 4),
        }
    return out


def risk_coverage_from_votes(
    rows: Iterable[Mapping[str, Any]], *, n: int = 1000, seed: int = 0
) -> dict[str, Any]:
    """The same figures from the question log's votes (for ``rulings review --stats``).

    Each row is one logged ask: `declined` (bool), `score` (the answer's top score: its
    confidence) and `helpful` (its vote: True, False, or None when nobody voted; one per ask,
    the caller picks which when there are several). Answered asks with a vote make the curve,
    correct = helpful. Declined asks count as not answered (a vote on a decline judges the
    decline, not an answer). Answered asks without a vote are left out, their correctness
    unknown: the voted ones stand for them, so the coverage is the voted answers' share scaled
    to the share of all asks answered, and the curve ends at that share, not at 1.
    Raises ValueError when no answered ask has a vote.
    """
    asks = list(rows)
    answered = [r for r in asks if not r["declined"]]
    voted = [r for r in answered if r.get("helpful") is not None]
    if not voted:
        raise ValueError("no answered ask in the log has a vote yet: no risk-coverage curve")
    total = len(voted) * len(asks) / len(answered)
    # An answer logged without a score is placed last: nothing says it was trusted.
    scores = [-np.inf if r.get("score") is None else float(r["score"]) for r in voted]
    helpful = [bool(r["helpful"]) for r in voted]
    out = summarise(scores, helpful, total=total, n=n, seed=seed)
    # What users met: the share of asks answered, and the unhelpful share of the voted answers.
    out["operating_point"] = {
        "coverage": round(len(answered) / len(asks), 4),
        "risk": round(1 - sum(helpful) / len(voted), 4),
    }
    out.update(asks=len(asks), answered=len(answered), voted=len(voted))
    return out
