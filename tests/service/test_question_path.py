"""One reading of each question: the engine analyses it once, reads its computation once, runs
the check once per game it may be about, and search and the answer share what they found."""

from __future__ import annotations

import pytest

SHIELD_AND_WARD = (
    "Frosthaven: Shield 1 and Ward, a monster attacks me for 7, how much damage do I take?"
)
NO_GAME = "I have 0 cards in hand and 1 in my discard, am I exhausted?"


def _count(monkeypatch, module, name: str) -> list:
    calls: list = []
    real = getattr(module, name)

    def counting(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counting)
    return calls


@pytest.mark.parametrize("question, runs", [(SHIELD_AND_WARD, 1), (NO_GAME, 2)])
def test_an_ask_reads_the_question_once_and_runs_its_check_once_per_game(
    fake_engine, monkeypatch, question, runs
):
    import service.computed as computed_module
    from indexer.search.question import QuestionAnalyser

    analysed = _count(monkeypatch, QuestionAnalyser, "analyse")
    read = _count(monkeypatch, computed_module, "read_question")
    checked = _count(monkeypatch, computed_module, "run_check")
    answer = fake_engine.ask(question)
    assert len(analysed) == 1 and len(read) == 1
    # A game named: one run; none: one per checker game (search weighs what each cites), and
    # the answer reuses the run of the game it is given.
    assert len(checked) == runs
    assert answer["computed"]["result"] is not None


def test_the_reading_is_of_the_question_without_its_game_label(fake_engine, monkeypatch):
    import service.computed as computed_module

    read = _count(monkeypatch, computed_module, "read_question")
    fake_engine.ask(SHIELD_AND_WARD)
    text, lang, game = read[0]
    assert text == SHIELD_AND_WARD.removeprefix("Frosthaven: ") and game == "frosthaven"


def test_the_fast_engine_ranks_with_the_computations_features(fake_engine):
    """The fake-embedder engine of `make test-fast` searches as production does: the ruling a
    computation cites carries `computed_cites` (no callback to wire, nothing to forget)."""
    from service.computed import Computation

    searcher = fake_engine.searcher
    q = searcher.analyse(SHIELD_AND_WARD)
    cited = Computation.of(q).cited
    assert "fh-clar-10" in cited
    features = dict(searcher.candidates(q, searcher.signals(q), cited))
    cited_candidates = [rid for rid, f in features.items() if f["computed_cites"] == 1.0]
    assert cited_candidates, "no candidate carries the computation's citation"
    uncited = dict(searcher.candidates(q, searcher.signals(q)))
    assert all(f["computed_cites"] == 0.0 for f in uncited.values())
