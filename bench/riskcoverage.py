"""Risk-coverage of the answer-or-decline decision, on held-out folds, per question set.

Every question is run once through search's stages (``fit.models.collect``); the folds are the
quality section's (``fit.models.folds``, same k and seed) and each fold's questions are judged
by a reranker and answer model fitted on the other folds only (of the curated sets alone: the
quality section and the shipped fit learn from the test rulebooks too, indexer/search/fit). A
question's confidence is that held-out probability that its top ruling is right; a card lookup
(answered whatever the probability) is +inf, a question declined by rule (another game, no
candidate) -inf. Its answer is correct when the top ruling is a right one: never for an outside question.

The curve answers questions most confident first (``indexer.riskcoverage``); the
shipped threshold (indexer/search/calibration.json) is marked on it, and beside it the
operating point the folds' own thresholds give (what cross-validation measures as declining).
"""

from __future__ import annotations

import io
import math
import time
from pathlib import Path
from typing import Any, cast

from bench.common import CachingEmbedder, log
from indexer.files import write_atomic
from indexer.model.embedder import Embedder
from indexer.riskcoverage import RISKS, RiskCoverage, risk_coverage, summarise

FIGURE = "risk-coverage.png"
FOLDS = 5
RESAMPLES = 1000
POOLED = "all sets (pooled)"


def _confidence(row, calib) -> tuple[float, bool, bool]:
    """(held-out confidence, top ruling right, answered) of one row under its fold's fit."""
    from indexer.search.fit.models import answer_features, decide
    from indexer.search.results import CARD_LOOKUP, CARD_LOOKUP_SHARE

    order, declined = decide(row, calib)
    right = bool(order) and row.correct(order[0][1])  # an outside question expects nothing
    if row.declined_by_rule or not order:
        return -math.inf, right, False
    feats = answer_features(row, order)
    if feats.get("card", 0.0) >= CARD_LOOKUP and feats.get("card_about", 0.0) >= CARD_LOOKUP_SHARE:
        return math.inf, right, True  # as `decide`: a card lookup answers whatever p is
    return calib.answer.probability(feats), right, not declined


def held_out(rows: list, k: int = FOLDS) -> list[tuple[float, bool, bool]]:
    """Per row (confidence, correct, answered), each from the fit on the other folds: the
    quality section's cross-validation (its folds, no withheld rows in training)."""
    from indexer.search.fit.models import SEED, fit, folds

    fold_of = folds(rows, k, SEED)
    out: list[tuple[float, bool, bool]] = [(0.0, False, False)] * len(rows)
    for f in range(k):
        calib = fit([r for r, g in zip(rows, fold_of) if g != f])
        for i, g in enumerate(fold_of):
            if g == f:
                out[i] = _confidence(rows[i], calib)
    return out


def _figures(judged: list[tuple[float, bool, bool]], threshold: float) -> dict:
    conf, ok, answered = (list(x) for x in zip(*judged))
    out = summarise(conf, ok, threshold=threshold, n=RESAMPLES, seed=0)
    shown = [c for c, a in zip(ok, answered) if a]
    out["fold_thresholds"] = {
        "coverage": round(len(shown) / len(ok), 4),
        "risk": round(1 - sum(shown) / len(shown), 4) if shown else 0.0,
    }
    return out


def run_riskcoverage(archive, embedder, index, out_dir: Path) -> dict:
    """Held-out risk-coverage figures per question set and pooled; draws out_dir/FIGURE."""
    from indexer.paths import DEFAULT_QUESTION_SETS, REPO_ROOT
    from indexer.search.evaluate import load_questions
    from indexer.search.fit.models import collect, fit
    from indexer.search.searcher import Searcher
    from service.computed import cited_by_questions

    t = time.perf_counter()
    sets = {
        p.split("/")[-1].removesuffix(".yaml"): load_questions(REPO_ROOT / p)
        for p in DEFAULT_QUESTION_SETS
        if (REPO_ROOT / p).exists()
    }
    # Each question is analysed twice (its computation's citations, then its candidates).
    searcher = Searcher(archive, index, cast(Embedder, CachingEmbedder(embedder)))
    cited = cited_by_questions(searcher, [item.q for items in sets.values() for item in items])
    rows = [row for name, items in sets.items() for row in collect(searcher, items, name, cited)]
    judged = held_out(rows)
    threshold = searcher.calibration.threshold
    groups = {name: [j for j, r in zip(judged, rows) if r.source == name] for name in sets}
    groups[POOLED] = judged
    report: dict[str, Any] = {
        "folds": FOLDS,
        "resamples": RESAMPLES,
        "threshold": round(threshold, 4),
        "threshold_refit": round(fit(rows).threshold, 4),
        "sets": {name: _figures(g, threshold) for name, g in groups.items() if g},
        "figure": FIGURE,
    }
    curves = {
        name: risk_coverage([c for c, _, _ in g], [ok for _, ok, _ in g])
        for name, g in groups.items()
        if g
    }
    draw(curves, threshold, out_dir / FIGURE)
    pooled = report["sets"][POOLED]
    log(
        f"risk-coverage: pooled AURC {pooled['aurc']['value']}, coverage at 5% risk "
        f"{pooled['coverage@0.05']['value']} ({time.perf_counter() - t:.1f}s)"
    )
    return report


def draw(curves: dict[str, RiskCoverage], threshold: float, path: Path) -> None:
    """One line per set, the shipped threshold's point marked: the whole curve on the left,
    the low-risk band where the 2 % and 5 % targets sit on the right. Written atomically."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(12, 5), constrained_layout=True)
    colours = plt.get_cmap("tab10")
    for ax, top in zip(axes, (1.05, 0.15)):
        for i, (name, rc) in enumerate(curves.items()):
            pooled = name == POOLED
            colour = "black" if pooled else colours(i)
            # From its first step, not the origin: an outside set's first answer is already wrong.
            ax.plot(rc.coverage, rc.risk, color=colour, linewidth=2.2 if pooled else 1.4,
                    label=f"{name} (AURC {rc.aurc:.3f})")  # fmt: skip
            cov, risk = rc.at_threshold(threshold)
            ax.plot(cov, risk, marker="o", markersize=8, color=colour, markeredgecolor="white")
        for r in RISKS:
            ax.axhline(r, color="grey", linestyle=":", linewidth=1)
            if top < 1:  # labelled where the two lines stand apart
                ax.annotate(f"{r:.0%} risk", (0.01, r), textcoords="offset points",
                            xytext=(0, 2), fontsize=8, color="grey")  # fmt: skip
        ax.set_xlim(0, 1.0)
        ax.set_ylim(0, top)
        ax.set_xlabel("coverage (share of questions answered)")
        ax.set_ylabel("risk (wrong rulings among those answered)")
        ax.grid(alpha=0.3)
    axes[0].set_title("Whole curve (outside sets: every answer is wrong)")
    axes[1].set_title("Low-risk band (risk <= 15%)")
    axes[1].plot([], [], "o", color="grey", label=f"shipped threshold ({threshold:.3f})")
    axes[1].legend(loc="upper left", fontsize=8)
    fig.suptitle("Risk-coverage of answer-or-decline, held-out folds (most confident first)")
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    plt.close(fig)
    write_atomic(path, buf.getvalue(), mode=0o644)  # read beside report.md, not private


def _ci(f: dict) -> str:
    return f"{f['value']:.3f} [{f['low']:.3f}, {f['high']:.3f}]"


def render(r: dict) -> list[str]:
    """The report.md section: the table and the picture."""
    out = [
        "## Trust: risk-coverage of answer-or-decline (held-out folds)",
        "",
        f"Questions answered most confident first, the confidence being each question's held-out "
        f"probability that its top ruling is right ({r['folds']} folds, the quality section's: "
        "never the in-sample fit). Risk: wrong rulings among the answered, where any answer to "
        "an outside question is wrong; coverage: the share answered. AURC: the mean risk over "
        "the coverage points (Geifman & El-Yaniv; lower is better). Intervals: 95% percentile "
        f"bootstrap over questions ({r['resamples']} resamples, seed 0). Operating points: the "
        f"shipped threshold ({r['threshold']}; a refit on every question today gives "
        f"{r['threshold_refit']}) applied to the held-out probabilities, and the folds' own "
        "thresholds (the decisions cross-validation measures).",
        "",
        "| set | questions | AURC | coverage @2% risk | coverage @5% risk | shipped threshold: "
        "coverage / risk | folds' thresholds: coverage / risk |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, f in r["sets"].items():
        op, folds = f["operating_point"], f["fold_thresholds"]
        out.append(
            f"| {name} | {f['questions']} | {_ci(f['aurc'])} | {_ci(f['coverage@0.02'])} | "
            f"{_ci(f['coverage@0.05'])} | {op['coverage']:.3f} / {op['risk']:.3f} | "
            f"{folds['coverage']:.3f} / {folds['risk']:.3f} |"
        )
    out += ["", f"![Risk-coverage curves, held-out folds]({r['figure']})", ""]
    return out
