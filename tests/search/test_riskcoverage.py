"""The risk-coverage curve of the answer-or-decline decision, on cases worked out by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from indexer.riskcoverage import bootstrap, risk_coverage, risk_coverage_from_votes, summarise


def test_distinct_confidences_by_hand():
    # Most confident first: right, wrong, right, wrong (given out of order).
    rc = risk_coverage([0.7, 0.9, 0.6, 0.8], [True, True, False, False])
    assert rc.coverage.tolist() == [0.25, 0.5, 0.75, 1.0]
    assert rc.risk.tolist() == pytest.approx([0.0, 0.5, 1 / 3, 0.5])
    assert rc.aurc == pytest.approx((0 + 0.5 + 1 / 3 + 0.5) / 4)
    assert rc.coverage_at(0.02) == 0.25
    assert rc.coverage_at(0.4) == 0.75
    assert rc.coverage_at(0.5) == 1.0
    assert rc.at_threshold(0.75) == (0.5, 0.5)  # answers 0.9 and 0.8
    assert rc.at_threshold(0.8) == (0.5, 0.5)  # >= : the service answers at the threshold
    assert rc.at_threshold(0.95) == (0.0, 0.0)
    assert rc.at_threshold(0.0) == (1.0, 0.5)


def test_ties_are_answered_together():
    # The right and the wrong answer at 0.9 cannot be told apart: one step of two.
    rc = risk_coverage([0.5, 0.9, 0.9], [True, True, False])
    assert rc.coverage.tolist() == pytest.approx([2 / 3, 1.0])
    assert rc.risk.tolist() == pytest.approx([0.5, 1 / 3])
    assert rc.thresholds.tolist() == [0.9, 0.5]
    assert rc.aurc == pytest.approx(0.5 * 2 / 3 + (1 / 3) * (1 / 3))
    assert rc.coverage_at(0.2) == 0.0  # answering the right one alone is no threshold's choice
    assert rc.coverage_at(0.4) == 1.0  # the risk falls again as the right 0.5 joins


def test_aurc_is_the_mean_risk_over_the_coverage_points_without_ties():
    rng = np.random.default_rng(3)
    conf, ok = rng.random(50), rng.random(50) < 0.7
    order = np.argsort(-conf)
    per_k = np.cumsum(~ok[order]) / np.arange(1, 51)
    assert risk_coverage(conf, ok).aurc == pytest.approx(per_k.mean())


def test_all_correct_and_all_wrong():
    right = risk_coverage([0.3, 0.2, 0.9], [True] * 3)
    assert right.aurc == 0.0 and right.coverage_at(0.02) == 1.0
    wrong = risk_coverage([0.3, 0.2, 0.9], [False] * 3)
    assert wrong.aurc == 1.0
    assert wrong.coverage_at(0.05) == 0.0 and wrong.at_threshold(0.25) == (2 / 3, 1.0)


def test_infinite_confidences_and_a_total():
    # +inf: always answered (a card lookup); -inf: never (declined by rule) until all are.
    rc = risk_coverage([math.inf, 0.3, -math.inf], [True, False, False])
    assert rc.at_threshold(0.5) == (1 / 3, 0.0)
    assert rc.at_threshold(0.3) == (2 / 3, 0.5)
    # Two more questions asked but never candidates: coverage is a share of four.
    rc = risk_coverage([0.9, 0.1], [True, False], total=4)
    assert rc.coverage.tolist() == [0.25, 0.5]
    assert rc.aurc == pytest.approx(0.5 * 0.25)


@pytest.mark.parametrize(
    "confidence, correct, message",
    [([], [], "no questions"), ([0.1, 0.2], [True], "one length"), ([float("nan")], [True], "NaN")],
)
def test_bad_input_is_a_clear_error(confidence, correct, message):
    with pytest.raises(ValueError, match=message):
        risk_coverage(confidence, correct)
    with pytest.raises(ValueError, match=message):
        bootstrap(confidence, correct, n=5)


def test_total_below_the_questions_is_refused():
    with pytest.raises(ValueError, match="total"):
        risk_coverage([0.1, 0.2], [True, True], total=1)


def test_bootstrap_intervals_hold_the_point_and_repeat():
    rng = np.random.default_rng(0)
    conf = rng.random(200)
    ok = rng.random(200) < conf * 0.3 + 0.7  # more confident, more often right
    out = bootstrap(conf, ok, n=300, seed=1)
    rc = risk_coverage(conf, ok)
    assert out["aurc"]["value"] == round(rc.aurc, 4)
    assert out["coverage@0.05"]["value"] == round(rc.coverage_at(0.05), 4)
    for key in ("aurc", "coverage@0.02", "coverage@0.05"):
        assert out[key]["low"] <= out[key]["value"] <= out[key]["high"], key
    assert bootstrap(conf, ok, n=300, seed=1) == out  # a fixed seed, the same intervals
    assert out["resamples"] == 300 and out["seed"] == 1


def test_summarise_gives_the_operating_point():
    out = summarise([0.7, 0.9, 0.6, 0.8], [True, True, False, False], threshold=0.75, n=50)
    assert out["questions"] == 4
    assert out["operating_point"] == {"threshold": 0.75, "coverage": 0.5, "risk": 0.5}
    assert "operating_point" not in summarise([0.1], [True], n=5)


def test_from_votes():
    rows = [
        {"declined": False, "score": 0.9, "helpful": True},
        {"declined": False, "score": 0.8, "helpful": True},
        {"declined": False, "score": 0.4, "helpful": False},
        {"declined": False, "score": 0.7, "helpful": None},  # answered, nobody voted
        {"declined": True, "score": 0.2, "helpful": None},
        {"declined": True, "score": 0.1, "helpful": True},  # judges the decline, not an answer
    ]
    out = risk_coverage_from_votes(rows, n=100)
    assert (out["asks"], out["answered"], out["voted"]) == (6, 4, 3)
    # The three voted answers stand for the four answered of six asks: coverage k / 4.5.
    assert out["coverage@0.02"]["value"] == round(2 / 4.5, 4)
    assert out["aurc"]["value"] == round((1 / 3) * (1 / 4.5), 4)
    assert out["operating_point"] == {"coverage": round(4 / 6, 4), "risk": round(1 / 3, 4)}


def test_from_votes_without_a_vote_on_an_answer():
    with pytest.raises(ValueError, match="no answered ask"):
        risk_coverage_from_votes([{"declined": True, "score": 0.1, "helpful": False}])


# -- the bench's section: its held-out folds are the quality section's --------------------
def _rows(n: int = 60) -> list:
    """Synthetic rows: answerable ones whose right ruling usually wins, outside ones, a card
    lookup and a question declined by rule."""
    from indexer.search.evaluate import LabelledQuestion
    from indexer.search.fit.models import Row

    rng = np.random.default_rng(7)
    rows = []
    for i in range(n):
        expect = ("r1",) if i % 3 else ()
        feats = [
            {"dense_text": rng.normal(0.8 if expect else 0.5, 0.1), "dense_keys": rng.random()},
            {"dense_text": rng.normal(0.6, 0.1), "dense_keys": rng.random()},
        ]
        if i == 4:
            feats[1].update(card=1.0, card_about=1.0)
        candidates = ((f"r{j + 1}", (f"r{j + 1}",), f) for j, f in enumerate(feats))
        question = LabelledQuestion(f"q{i}", "en", None, expect)
        rows.append(Row(question, "set", tuple(candidates), declined_by_rule=i == 5))
    return rows


def test_the_bench_judges_each_question_as_cross_validation_does():
    from bench.riskcoverage import held_out
    from indexer.search.fit.models import cross_validate

    rows = _rows()
    judged = held_out(rows, k=3)
    figures = cross_validate(rows, 3)["overall"]
    answerable = [j for j, r in zip(judged, rows) if r.question.expect]
    outside = [j for j, r in zip(judged, rows) if not r.question.expect]
    declined = sum(not answered for _, _, answered in outside) / len(outside)
    shown_wrong = sum(answered and not ok for _, ok, answered in answerable) / len(answerable)
    assert figures["declined_unanswerable"] == round(declined, 4)
    assert figures["wrong_ruling_shown"] == round(shown_wrong, 4)
    assert judged[5][0] == -math.inf and not judged[5][2]  # declined by rule: never answered
    assert all(not ok for _, ok, _ in outside)  # every answer to an outside question is wrong


def test_the_bench_draws_and_reports(tmp_path):
    from bench.riskcoverage import POOLED, draw, render

    curves = {"dev": risk_coverage([0.9, 0.5], [True, False]), POOLED: risk_coverage([1], [True])}
    draw(curves, 0.4, tmp_path / "rc.png")
    assert (tmp_path / "rc.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    figures = summarise([0.9, 0.5], [True, False], threshold=0.4, n=20)
    figures["fold_thresholds"] = {"coverage": 1.0, "risk": 0.5}
    report = {"folds": 5, "resamples": 20, "threshold": 0.4, "threshold_refit": 0.4,
              "sets": {"dev": figures}, "figure": "rc.png"}  # fmt: skip
    text = "\n".join(render(report))
    assert "| dev | 2 | 0.250 [" in text and "](rc.png)" in text
