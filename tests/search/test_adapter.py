"""The question adapter: applied, saved beside its calibration, refused when it does not fit,
and fitted so that a held-out fold's books stay unseen."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from indexer.search.adapter import QuestionAdapter, adapter_path
from indexer.search.calibration import (
    Calibration,
    CalibrationError,
    load_calibration,
    save_calibration,
)


def _unit(rows: np.ndarray) -> np.ndarray:
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def test_a_zero_adapter_leaves_the_question_where_it_is_and_any_adapter_normalises():
    v = _unit(np.array([[3.0, 4.0, 0.0]]))[0]
    assert np.allclose(QuestionAdapter(np.zeros((3, 3), np.float32)).apply(v), v)
    moved = QuestionAdapter(np.eye(3, dtype=np.float32)[[1, 0, 2]]).apply(v)
    assert np.isclose(np.linalg.norm(moved), 1.0) and moved[0] > v[0]


def test_a_calibration_is_saved_with_its_adapter_and_loaded_back(tmp_path):
    path = tmp_path / "calibration.json"
    matrix = np.arange(16, dtype=np.float32).reshape(4, 4) / 100
    save_calibration(Calibration.neutral(), path)
    assert load_calibration(path).adapter is None
    assert "adapter_sha256" not in json.loads(path.read_text())
    save_calibration(replace(Calibration.neutral(), adapter=QuestionAdapter(matrix)), path)
    assert adapter_path(path).name == "calibration.adapter.npy"
    loaded = load_calibration(path)
    assert loaded.adapter is not None and np.array_equal(loaded.adapter.matrix, matrix)


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        (lambda f: f.unlink(), "No such file"),
        (lambda f: np.save(f, np.zeros((4, 4), np.float32)), "not the adapter this calibration"),
        (lambda f: f.write_bytes(b"junk"), "not the adapter this calibration"),
    ],
)
def test_a_calibration_whose_adapter_is_missing_or_not_its_own_is_refused(tmp_path, spoil, message):
    path = tmp_path / "calibration.json"
    adapter = QuestionAdapter(np.eye(4, dtype=np.float32))
    save_calibration(replace(Calibration.neutral(), adapter=adapter), path)
    spoil(adapter_path(path))
    with pytest.raises(CalibrationError) as caught:
        load_calibration(path)
    assert message in caught.value.message and "run `rulings calibrate`" in caught.value.message


def test_an_adapter_file_that_is_no_square_matrix_is_refused(tmp_path):
    path = tmp_path / "a.npy"
    np.save(path, np.zeros((3, 4), np.float32))
    with pytest.raises(ValueError, match="square"):
        QuestionAdapter.load(path)


def _data(question_book: tuple[str, ...]):
    """Two books of two paragraphs each; every question points at its book's first paragraph
    but sits nearer the second, so only a fitted map ranks the first first."""
    from indexer.search.fit.adapter import AdapterData

    paragraphs = _unit(np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1.0]]))
    near_second = {"a": [0.45, 0.55, 0, 0], "b": [0, 0, 0.45, 0.55]}
    first = {"a": 0, "b": 2}
    return AdapterData(
        questions=_unit(np.array([near_second[b] for b in question_book], dtype=np.float64)),
        question_book=question_book,
        question_target=np.array([first[b] for b in question_book], dtype=np.int64),
        paragraphs=paragraphs,
        paragraph_book=("a", "a", "b", "b"),
        keys=np.zeros((0, 4), np.float32),
        key_ruling=np.zeros(0, np.int64),
        rulings=np.zeros((0, 4), np.float32),
        ruling_ids=(),
    )


def test_the_fitted_adapter_moves_a_question_to_the_paragraph_it_expects():
    pytest.importorskip("torch")
    from indexer.search.fit.adapter import fit_adapter

    data = _data(("a", "a", "b", "b"))
    adapter = fit_adapter(data)
    for q, target in zip(data.questions, data.question_target):
        assert int(np.argmax(data.paragraphs @ q)) != target  # unmoved: the wrong one first
        assert int(np.argmax(data.paragraphs @ adapter.apply(q))) == target


def test_an_adapter_fitted_without_a_book_never_saw_its_questions():
    pytest.importorskip("torch")
    from indexer.search.fit.adapter import fit_adapter

    data = _data(("a", "a", "b", "b"))
    # Nothing to learn from: the map stays at zero, the questions unmoved.
    assert not fit_adapter(data, books=[]).matrix.any()
    # Book a's questions alone move only book a's part of the space.
    only_a = fit_adapter(data, books=["a"]).matrix
    assert only_a[:2].any() and not only_a[2:].any()


def test_uncurated_rows_give_each_rule_its_best_moved_cosine_even_below_zero():
    from indexer.search.adapter import UncuratedRows

    vectors = _unit(np.array([[1, 0, 0], [-1, 0.1, 0], [-1, -0.1, 0], [0, 1, 0.0]]))
    rules, number = ["curated", "imported"], {"curated": 0, "imported": 1}
    row_rule = np.array([0, 1, 1, 0])
    chosen = row_rule == 1
    both = np.array([True, True])
    rows = UncuratedRows(QuestionAdapter(np.zeros((3, 3), np.float32)), vectors, chosen,
                         row_rule, rules, number)  # fmt: skip
    best = dict(rows.best(np.array([1, 0, 0], np.float32), both))
    assert list(best) == ["imported"] and np.isclose(best["imported"], vectors[1, 0])  # < 0
    assert dict(rows.best(np.array([1, 0, 0], np.float32), np.array([True, False]))) == {}
    # An adapter fitted for vectors of another size moves nothing here: no rows at all.
    other = UncuratedRows(QuestionAdapter(np.zeros((4, 4), np.float32)), vectors, chosen,
                          row_rule, rules, number)  # fmt: skip
    assert (
        len(other) == 0 and len(UncuratedRows(None, vectors, chosen, row_rule, rules, number)) == 0
    )


def test_each_book_is_scored_with_an_adapter_fitted_without_its_fold(
    monkeypatch, fake_embedder, archive
):
    """A spy on the fit: the adapter a book's rows are scored with (`fold_adapters`) was
    fitted on the other folds' books only, and the shipped one on every book."""
    from indexer.paths import DEFAULT_BOOKS
    from indexer.search.fit import adapter as fit_module
    from indexer.search.fit.books import BOOK_FOLDS, book_folds, read_books

    seen: dict[int, object] = {}

    def spy(data, books=None, **_):
        made = QuestionAdapter(np.zeros((2, 2), np.float32))
        seen[id(made)] = None if books is None else frozenset(books)
        return made

    monkeypatch.setattr(fit_module, "fit_adapter", spy)
    books = read_books(DEFAULT_BOOKS)
    _, adapters, shipped = fit_module.fold_adapters(fake_embedder, books, archive)
    fold_of = book_folds(books)
    assert seen[id(shipped)] is None and len(seen) == BOOK_FOLDS + 1
    for name, adapter in adapters.items():
        fitted_on = seen[id(adapter)]
        assert fitted_on and name not in fitted_on
        assert fitted_on == {b.name for b in books if fold_of[b.name] != fold_of[name]}


def test_one_ask_embeds_the_question_once_with_the_cache_off(fake_engine, tmp_path):
    """`dense` and `adapted` share the question's one vector: with no query cache (a setting
    can turn it off) a second embedding would double the model's time per ask."""
    from indexer.paths import DEFAULT_BOOKS
    from indexer.search.fit.books import read_books, with_book

    searcher = fake_engine.searcher
    dim = searcher.embedder.dimension
    calibration = replace(
        searcher.calibration, adapter=QuestionAdapter(np.zeros((dim, dim), np.float32))
    )
    grown, _ = with_book(searcher, read_books(DEFAULT_BOOKS)[0], tmp_path / "index", calibration)
    calls: list[int] = []

    class Counting:
        name, dimension, backend = searcher.embedder.name, dim, searcher.embedder.backend

        def encode(self, texts, **kw):
            calls.append(len(texts))
            return searcher.embedder.encode(texts, **kw)

    grown.embedder = Counting()
    signals = grown.signals(grown.analyse("What happens when a monster is poisoned?"))
    assert signals.adapted, "the grown archive's imported rulings are scored by the adapter"
    assert calls == [1]
