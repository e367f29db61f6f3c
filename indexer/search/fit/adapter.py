"""Fitting the question adapter (``indexer.search.adapter``) on the books and the curated keys.

Two kinds of pairs teach it, each a softmax over its candidates (InfoNCE):
- a book's table question and the paragraph it expects, against the same book's other
  paragraphs and the curated rulings' texts (the neighbours a question confuses);
- a curated search key (a question in one of seven languages) and its ruling's original
  text, against the other rulings' texts: the archive's own parallel questions, which keep
  the map from bending the curated rulings' part of the space.
The map starts at zero (the question unmoved) and is held near it (an L2 penalty): a few
hundred full-batch steps of Adam, seeded, on the CPU. torch is the build extra's, as
scikit-learn is for the rest of the fit.

Measured held out by book (e5's cosine alone, ranking each book's own paragraphs, 24 books,
7 folds): right paragraph first 0.730 -> 0.762 in English, 0.597 -> 0.676 in the six other
languages (docs/decisions.md, "The question adapter").
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Iterable
from dataclasses import dataclass

import numpy as np

from indexer.archive.schema import Archive
from indexer.model.embedder import Embedder, encode_passages, encode_queries
from indexer.search.adapter import QuestionAdapter
from indexer.search.fit.books import Book, book_folds

log = logging.getLogger(__name__)

TEMPERATURE = 0.02  # e5's cosines of one question with its candidates differ by hundredths
PENALTY = 1e-2  # on the squared weights: the map stays near the identity
STEPS = 300
LEARNING_RATE = 1e-3
SEED = 0


@dataclass(frozen=True)
class AdapterData:
    """Everything the adapter is fitted on, embedded once (vectors L2-normalised)."""

    questions: np.ndarray  # the books' questions
    question_book: tuple[str, ...]
    question_target: np.ndarray  # each question's paragraph (a row of `paragraphs`)
    paragraphs: np.ndarray  # the books' blocks
    paragraph_book: tuple[str, ...]
    keys: np.ndarray  # the curated search keys
    key_ruling: np.ndarray  # each key's ruling (a row of `rulings`)
    rulings: np.ndarray  # the curated rulings' original texts
    ruling_ids: tuple[str, ...]


def embed_adapter_data(embedder: Embedder, books: Iterable[Book], archive: Archive) -> AdapterData:
    """The books' questions and blocks and the archive's curated keys and texts, embedded as
    search embeds them (questions as queries, texts as passages)."""
    questions: list[str] = []
    question_book: list[str] = []
    target: list[int] = []
    paragraphs: list[str] = []
    paragraph_book: list[str] = []
    for book in books:
        row_of: dict[str, int] = {}
        for key, block in zip(book.keys, book.document.blocks):
            if key:
                row_of[key] = len(paragraphs)
            paragraphs.append(block.text)
            paragraph_book.append(book.name)
        for asked in book.questions:
            rows = [row_of[k] for k in asked.expect if k in row_of]
            if rows:  # a question may expect several blocks: the first teaches
                questions.append(asked.q)
                question_book.append(book.name)
                target.append(rows[0])
    curated = [rec for rec in archive.records.values() if rec.curated]
    keys: list[str] = []
    key_ruling: list[int] = []
    for i, rec in enumerate(curated):
        for asks in rec.asks.values():
            keys += asks
            key_ruling += [i] * len(asks)
    log.info(
        "adapter: embedding %d questions, %d paragraphs, %d keys, %d rulings",
        len(questions), len(paragraphs), len(keys), len(curated),
    )  # fmt: skip
    return AdapterData(
        encode_queries(embedder, questions),
        tuple(question_book),
        np.array(target, dtype=np.int64),
        encode_passages(embedder, paragraphs),
        tuple(paragraph_book),
        encode_queries(embedder, keys),
        np.array(key_ruling, dtype=np.int64),
        encode_passages(embedder, [rec.text for rec in curated]),
        tuple(rec.id for rec in curated),
    )


def fit_adapter(
    data: AdapterData,
    books: Collection[str] | None = None,
    *,
    without_rulings: Collection[str] = (),
) -> QuestionAdapter:
    """The adapter fitted on the questions of `books` (all when None) and on the keys of the
    rulings not in `without_rulings` (a fold's held-out books and rulings stay unseen)."""
    import torch

    torch.manual_seed(SEED)
    asked = [i for i, b in enumerate(data.question_book) if books is None or b in books]
    dim = data.questions.shape[1]
    matrix = torch.zeros(dim, dim, requires_grad=True)
    optimiser = torch.optim.Adam([matrix], lr=LEARNING_RATE)
    q = torch.tensor(data.questions[asked], dtype=torch.float32)
    rulings = torch.tensor(data.rulings, dtype=torch.float32)
    candidates = torch.cat([torch.tensor(data.paragraphs, dtype=torch.float32), rulings])
    # A question's candidates: its own book's paragraphs and every curated ruling.
    book_of = np.array(data.paragraph_book)
    own = np.array([data.question_book[i] for i in asked])
    other_book = np.concatenate(
        [book_of[None, :] != own[:, None], np.zeros((len(asked), len(rulings)), dtype=bool)], 1
    )
    other_book_t = torch.tensor(other_book)
    target = torch.tensor(data.question_target[asked])
    dropped = set(without_rulings)
    kept = [i for i, r in enumerate(data.key_ruling) if data.ruling_ids[r] not in dropped]
    keys = torch.tensor(data.keys[kept], dtype=torch.float32)
    key_target = torch.tensor(data.key_ruling[kept])

    def moved(x):
        y = x + x @ matrix
        return y / y.norm(dim=1, keepdim=True)

    cross_entropy = torch.nn.functional.cross_entropy
    for _ in range(STEPS):
        loss = PENALTY * (matrix**2).sum()
        if asked:
            logits = (moved(q) @ candidates.T / TEMPERATURE).masked_fill(other_book_t, -1e9)
            loss = loss + cross_entropy(logits, target)
        if kept:
            loss = loss + cross_entropy(moved(keys) @ rulings.T / TEMPERATURE, key_target)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
    return QuestionAdapter(matrix.detach().numpy().astype(np.float32))


def fold_adapters(
    embedder: Embedder, books: list[Book], archive: Archive
) -> tuple[AdapterData, dict[str, QuestionAdapter], QuestionAdapter]:
    """The fit's adapters: one per book fold, fitted without that fold's books (book name ->
    its fold's, for the rows the reranker learns from and the held-out figures), and one on
    every book (shipped); with the data they were fitted on."""
    data = embed_adapter_data(embedder, books, archive)
    fold_of = book_folds(books)
    by_fold = {
        f: fit_adapter(data, [b.name for b in books if fold_of[b.name] != f])
        for f in sorted(set(fold_of.values()))
    }
    return data, {name: by_fold[f] for name, f in fold_of.items()}, fit_adapter(data)
