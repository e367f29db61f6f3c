"""What the fit learns from imported rulebooks: books with questions, each imported alone.

A ruling imported from a community's rulebook has no search keys and no text in most of the
seven languages, so its scores are not a curated ruling's: its text cosine crosses a language
gap, its key score is its text score moved by a gap (`rulescores.RowLanguages`), its words
cannot be weighed against keys it lacks. The curated question sets cannot teach what those
scores mean, for the curated archive holds no such ruling. So `rulings calibrate` also imports
books written for the purpose (tests/data/rulebooks: our own words about rules, with table
questions in every language), each alone into the archive as a community imports its own, and
fits on two kinds of rows from each: the book's questions (an uncurated paragraph is the right
answer) and the curated sets' answerable questions asked of the same archive (a curated ruling
is, and the book's paragraphs compete).

The figures are measured held out twice over (`cross_validate_with_books`): the curated
questions in folds as before, the books in folds of their own, and every row measured with a
fit that saw neither its question nor its book.
"""

from __future__ import annotations

import logging
import re
import shutil
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

import yaml

from indexer.archive.schema import Archive
from indexer.archive.sources.document import SECTION_SEPARATOR, Block, Document
from indexer.archive.sources.documents import document_records
from indexer.search.adapter import QuestionAdapter
from indexer.search.calibration import Calibration
from indexer.search.evaluate import LabelledQuestion
from indexer.search.fit.models import SEED, Row, Withheld, collect, fit, folds, measure
from indexer.search.index import build_index
from indexer.search.searcher import Searcher

log = logging.getLogger(__name__)

#: The books fall into this many folds (by name, in turn): each fold's books are measured
#: with a fit that saw none of them.
BOOK_FOLDS = 7
QUESTIONS_FILE = "questions.yaml"
_ICON = re.compile(r"\{[a-z]+\}")  # an icon token ("{fire}"): printed as a glyph, not text
_TERM = re.compile(r"\*([^*]+)\*")  # a *key term*: printed in another face


@dataclass(frozen=True)
class Book:
    """A book as its import would leave it, and its questions (expecting its blocks' keys)."""

    name: str
    game: str
    document: Document
    keys: tuple[str | None, ...]  # each block's key
    questions: tuple[LabelledQuestion, ...]


@dataclass(frozen=True)
class BookRows:
    """One book's rows: its own questions and the curated sets' answerable ones, each asked of
    the archive holding the book."""

    name: str
    questions: list[Row]
    curated: list[Row]


def _plain(text: str) -> str:
    return re.sub(r"\s+", " ", _TERM.sub(r"\1", _ICON.sub("", text))).strip()


def read_book(path: Path, questions: list[dict]) -> Book:
    """A book YAML (headings, paragraphs and boxes with their keys) as the blocks an import of
    it makes: each block's text as written, under its heading path."""
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    heads: list[str] = []
    blocks, keys = [], []
    for item in data["blocks"]:
        if item["type"] == "heading":
            level = int(item.get("level", 1))
            heads = heads[: level - 1] + [_plain(item["text"])]
            continue
        title = _plain(item["title"]) if item.get("title") else None
        blocks.append(
            Block(item["type"], _plain(item["text"]), None, SECTION_SEPARATOR.join(heads), title)
        )
        keys.append(item.get("key"))
    name = Path(path).stem
    document = Document(data.get("title"), blocks, "0" * 64, f"{name}.md")
    asked = tuple(
        LabelledQuestion(q["q"], q.get("lang"), None, tuple(q.get("expect") or ()))
        for q in questions
        if q.get("book") == name
    )
    return Book(name, data["game"], document, tuple(keys), asked)


def read_books(folder: Path) -> list[Book]:
    """Every book of a folder that has questions in its `questions.yaml`, by name."""
    folder = Path(folder)
    questions = yaml.safe_load((folder / QUESTIONS_FILE).read_text(encoding="utf-8")) or []
    books = [
        read_book(path, questions)
        for path in sorted(folder.glob("*.yaml"))
        if path.name != QUESTIONS_FILE
    ]
    return [book for book in books if book.questions]


def with_book(
    searcher: Searcher, book: Book, folder: Path, calibration: Calibration | None = None
) -> tuple[Searcher, dict[str, str]]:
    """A searcher over the archive with `book` imported (uncurated, in English), its index
    built in `folder` from a copy of the searcher's (only the book's rulings are embedded),
    with `calibration` (the searcher's by default); and each block key -> its record's id."""
    archive = searcher.archive
    records = document_records(
        book.document, archive, game=book.game, lang="en", title=None, source=f"{book.name}.txt"
    )
    taken = set(archive.records)
    ids: dict[str, str] = {}
    for i, rec in enumerate(records):
        rid, n = rec.id, 1
        while rid in taken:  # a section slug the curated archive uses already
            n += 1
            rid = f"{rec.id}x{n}"
        taken.add(rid)
        records[i] = rec.model_copy(update={"id": rid})
        key = book.keys[i]
        if key:
            ids[key] = rid
    grown = Archive(
        archive.root,
        {**archive.records, **{r.id: r for r in records}},
        archive.games,
        archive.other_games,
    )
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(searcher.index.path, folder)
    index, _ = build_index(grown, searcher.embedder, folder, show_progress=False)
    return Searcher(grown, index, searcher.embedder, calibration or searcher.calibration), ids


def collect_books(
    searcher: Searcher,
    books: list[Book],
    curated: list[LabelledQuestion],
    cited: Mapping[str, frozenset[str]],
    folder: Path,
    adapters: Mapping[str, QuestionAdapter] | None = None,
) -> list[BookRows]:
    """Each book imported alone, and its rows (see `BookRows`). `adapters`: book name -> the
    question adapter its rows are scored with (one fitted without the book's fold: the
    reranker learns the `foreign_adapted` of books the adapter never saw)."""
    answerable = [q for q in curated if q.expect]
    out = []
    for book in books:
        # Never the saved fit's adapter: it has seen every book.
        adapter = adapters[book.name] if adapters is not None else None
        calibration = replace(searcher.calibration, adapter=adapter)
        grown, ids = with_book(searcher, book, folder, calibration)
        asked = [
            LabelledQuestion(
                q.q, q.lang, q.game, tuple(sorted({ids[k] for k in q.expect if k in ids}))
            )
            for q in book.questions
        ]
        out.append(
            BookRows(
                book.name,
                collect(grown, asked, book.name, cited),
                collect(grown, answerable, f"curated with {book.name}", cited),
            )
        )
        log.info("book %s: %d questions", book.name, len(asked))
    return out


def fit_with_books(
    rows: list[Row], books: list[BookRows], curated_with: list[Row] | None = None
) -> Calibration:
    """The calibration fitted on the curated rows and the books' rows (`curated_with`: the
    curated questions asked with a book to fit on; every book's `curated` by default). The
    decline threshold is the curated sets' own (`models.fit_answer`)."""
    if curated_with is None:
        curated_with = [r for b in books for r in b.curated]
    return fit(rows, extra=[r for b in books for r in b.questions] + curated_with)


def book_folds(books: list[BookRows] | list[Book], k: int = BOOK_FOLDS) -> dict[str, int]:
    """A fold per book: in turn, by name."""
    return {name: i % k for i, name in enumerate(sorted(b.name for b in books))}


def cross_validate_with_books(
    rows: list[Row],
    books: list[BookRows],
    k: int = 5,
    *,
    withheld: Withheld | None = None,
    seed: int = SEED,
) -> dict:
    """Held-out figures, every row measured with a fit that saw neither its question (the
    curated folds) nor its book (the book folds): the curated sets on the archive alone (as
    `models.cross_validate` reports them, with `withheld`'s questions apart), the books'
    questions ("books": English and the six others together), and the curated sets' answerable
    questions asked with one book imported ("curated_with_a_book")."""
    fold_of = dict(zip((r.question.q for r in rows), folds(rows, k, seed)))
    book_fold = book_folds(books)
    n_book_folds = max(book_fold.values(), default=0) + 1
    plain, extra, own, with_book_ = [], [], [], []
    for f in range(k):
        for g in range(n_book_folds):
            train = [r for r in rows if fold_of[r.question.q] != f]
            seen = [b for b in books if book_fold[b.name] != g]
            calib = fit_with_books(
                train, seen, [r for b in seen for r in b.curated if fold_of.get(r.question.q) != f]
            )
            unseen = [b for b in books if book_fold[b.name] == g]
            if g == 0:  # the curated questions need no book held out: measured once
                plain += [(r, calib) for r in rows if fold_of[r.question.q] == f]
                if withheld is not None:
                    extra += [(r, calib) for r in withheld.rows
                              if fold_of.get(r.question.q) == f and withheld.touches(r)]  # fmt: skip
            if f == 0:  # the books' questions need no curated fold held out: measured once
                own += [(r, calib) for b in unseen for r in b.questions]
            with_book_ += [
                (r, calib) for b in unseen for r in b.curated if fold_of.get(r.question.q) == f
            ]
    out = measure(plain)
    if withheld is not None:
        out["withheld"] = measure(extra)["overall"]
    by_lang = measure(own)["by_language"]
    out["books"] = {
        "english": by_lang.get("en"),
        "other six together": measure(
            [(r, c) for r, c in own if (r.question.lang or "en") != "en"]
        )["overall"],
        "by_language": by_lang,
        "books": len(books),
        "book_folds": n_book_folds,
    }
    out["curated_with_a_book"] = measure(with_book_)["overall"]
    return out
