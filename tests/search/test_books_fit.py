"""What the fit learns from imported rulebooks (indexer/search/fit/books.py): the books read as an
import leaves them, every held-out figure measured with a fit that saw neither the question nor
its book, and a real book imported alone found by its own questions."""

from __future__ import annotations

import re

import numpy as np
import pytest

from indexer.paths import DEFAULT_BOOKS
from tests.conftest import REPO


def test_every_test_book_reads_with_its_sections_and_its_questions_name_its_blocks():
    from indexer.search.fit.books import read_books

    books = read_books(DEFAULT_BOOKS)
    assert len(books) >= 20
    for book in books:
        keys = {k for k in book.keys if k}
        assert len(book.keys) == len(book.document.blocks)
        # Under their headings (an introduction before the first may stand under none).
        blocks = book.document.blocks
        assert sum(not b.section for b in blocks) <= 1 and blocks[-1].section, book.name
        assert not any(re.search(r"\{[a-z]+\}", b.text) for b in book.document.blocks)
        for question in book.questions:
            assert set(question.expect) <= keys, (book.name, question.q)
        assert {q.lang for q in book.questions} == {"en", "de", "fr", "it", "es", "nl", "da"}


def _rows(source: str, n: int, seed: int, lang_of=lambda i: "en") -> list:
    """Synthetic rows: the right candidate usually scores higher; some candidates uncurated."""
    from indexer.search.evaluate import LabelledQuestion
    from indexer.search.fit.models import Row

    rng = np.random.default_rng(seed)
    rows = []
    for i in range(n):
        right = {"dense_text": rng.normal(0.8, 0.1), "dense_keys": rng.random(), "keyless": 1.0}
        other = {"dense_text": rng.normal(0.6, 0.1), "dense_keys": rng.random()}
        candidates = (("r1", ("r1",), right), ("r2", ("r2",), other))
        expect = ("r1",) if i % 4 else ("r2",) if i % 8 else ()  # some lost, some outside
        question = LabelledQuestion(f"{source} q{i}", lang_of(i), None, expect)
        rows.append(Row(question, source, candidates, declined_by_rule=False))
    return rows


def test_each_held_out_figure_comes_from_a_fit_that_saw_neither_its_question_nor_its_book(
    monkeypatch,
):
    from indexer.search.fit import books as fit_books
    from indexer.search.fit.books import BookRows, cross_validate_with_books

    curated = _rows("dev", 40, 1)
    books = [
        BookRows(
            f"book{b}",
            _rows(f"book{b}", 6, 10 + b, lambda i: "en" if i % 2 else "de"),
            _rows("dev", 40, 1),
        )  # fmt: skip
        for b in range(9)
    ]
    seen: dict[int, tuple[set[str], set[str]]] = {}  # fit -> (questions, books) it learnt from
    real_fit = fit_books.fit_with_books

    def spy(rows, books_, curated_with=None):
        calib = real_fit(rows, books_, curated_with)
        learnt = {r.question.q for r in [*rows, *(curated_with or [])]}
        seen[id(calib)] = (learnt, {b.name for b in books_})
        return calib

    measured: list = []
    real_measure = fit_books.measure

    def measure_spy(pairs):
        pairs = list(pairs)
        measured.extend(pairs)
        return real_measure(pairs)

    monkeypatch.setattr(fit_books, "fit_with_books", spy)
    monkeypatch.setattr(fit_books, "measure", measure_spy)
    figures = cross_validate_with_books(curated, books, k=4)
    assert measured
    for row, calib in measured:
        questions, book_names = seen[id(calib)]
        assert row.question.q not in questions, row.question.q
        if row.source.startswith("book"):
            assert row.source not in book_names
    answerable = lambda rows: sum(bool(r.question.expect) for r in rows)  # noqa: E731
    english = [r for b in books for r in b.questions if r.question.lang == "en"]
    others = [r for b in books for r in b.questions if r.question.lang != "en"]
    assert figures["books"]["english"]["answerable"] == answerable(english)
    assert figures["books"]["other six together"]["answerable"] == answerable(others)
    assert figures["curated_with_a_book"]["answerable"] == 9 * answerable(curated)
    assert figures["overall"]["answerable"] == answerable(curated)


def test_the_shipped_fit_weighs_what_tells_an_uncurated_ruling_apart():
    from indexer.search.calibration import UNCURATED_FEATURES, load_calibration

    calib = load_calibration()
    learnt = dict(zip(calib.rerank.features, calib.rerank.weights))
    assert {f for f in UNCURATED_FEATURES if f != "p_gap"} <= set(learnt)
    assert any(abs(learnt[f]) > 0.05 for f in UNCURATED_FEATURES if f in learnt)
    assert calib.fitted_on["books"] and calib.fitted_on["held_out_books"]["english"]


@pytest.mark.slow
def test_a_book_imported_alone_is_found_by_its_own_questions(engine, tmp_path):
    """A real book, imported alone with the real model, asked its English questions through
    the real searcher with the shipped question adapter (which saw this book: plumbing, not a
    held-out figure): its paragraphs are uncurated candidates scored with the adapted question,
    the curated ones without, and most questions rank their own paragraph first."""
    from indexer.search.fit.books import collect_books, read_books

    book = next(b for b in read_books(DEFAULT_BOOKS) if b.name == "twentysecond")
    book = type(book)(book.name, book.game, book.document, book.keys,
                      tuple(q for q in book.questions if q.lang == "en"))  # fmt: skip
    adapter = engine.searcher.calibration.adapter
    assert adapter is not None  # the shipped fit weighs `foreign_adapted`
    (rows,) = collect_books(
        engine.searcher, [book], [], {}, tmp_path / "index", {book.name: adapter}
    )
    assert len(rows.questions) == len(book.questions) and rows.curated == []
    first = 0
    for row in rows.questions:
        assert row.question.expect
        # The book's paragraphs come in uncurated: no keys, English only.
        assert all(
            f["keyless"] == 1.0 for rid, _, f in row.candidates if rid in row.question.expect
        )
        for _, _, f in row.candidates:
            assert (f["adapted"] != 0.0) == (f["keyless"] == 1.0), f
        order = engine.searcher.calibration.rank([(rid, f) for rid, _, f in row.candidates])
        first += order[0][0] in row.question.expect
    assert first >= 0.6 * len(rows.questions), first


def test_calibrate_refuses_a_books_folder_it_cannot_read_in_one_line(runner, tmp_path):
    from service.cli import cli

    # A question set of the project's own: the shared ones may not stand beside a clone.
    own = str(REPO / "bench" / "eval" / "own.yaml")
    result = runner.invoke(cli, ["calibrate", own, "--books", str(tmp_path / "none")])
    assert result.exit_code == 1
    assert result.output.startswith("Error: ") and "cannot read the rulebooks" in result.output
    assert len(result.output.strip().splitlines()) == 1
