"""`rulings calibrate`: the reranker and the answer model fitted on every question set (the
saved calibration) and measured honestly: held-out folds (with imported books, held out book
by book too: `books`), in-sample apart, and the ablations.

    rulings calibrate [QUESTIONS.yaml ...] [--folds 5] [--out indexer/search/calibration.json]
"""

from __future__ import annotations

import logging
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from indexer.archive.schema import Archive
from indexer.search.calibration import (
    ANSWER_FEATURES,
    RERANK_FEATURES,
    UNCURATED_FEATURES,
    Calibration,
)
from indexer.search.evaluate import LabelledQuestion
from indexer.search.fit.adapter import AdapterData, fit_adapter, fold_adapters
from indexer.search.fit.books import (
    Book,
    BookRows,
    collect_books,
    cross_validate_with_books,
    fit_with_books,
)
from indexer.search.fit.models import (
    MAX_WRONGLY_DECLINED,
    SEED,
    Withheld,
    collect,
    cross_validate,
    measure,
)
from indexer.search.index import build_index
from indexer.search.searcher import Searcher

log = logging.getLogger(__name__)

#: Every how many rulings of no linked edition one is withheld (`withheld_archive`).
WITHHELD_EVERY = 3


def withheld_archive(
    archive: Archive, every: int = WITHHELD_EVERY
) -> tuple[Archive, frozenset[str]]:
    """The archive with every `every`-th ruling of no linked edition (by id) as an import of
    it would be: its original text alone, no search keys, translations or cards, uncurated.
    Its questions measure how the fit treats such rulings (`cross_validate`'s "withheld")."""
    chosen = [rid for rid in sorted(archive.records) if not archive.records[rid].related][::every]
    records = dict(archive.records)
    for rid in chosen:
        records[rid] = records[rid].model_copy(
            update={"asks": {}, "translations": {}, "cards": [], "curated": False}
        )
    return Archive(archive.root, records, archive.games, archive.other_games), frozenset(chosen)


def withheld_searcher(
    searcher: Searcher, folder: Path, adapt: AdapterData | None = None
) -> tuple[Searcher, frozenset[str]]:
    """A searcher over `withheld_archive`, its index built in `folder` from a copy of the
    searcher's (only the withheld rulings are embedded again); with `adapt`, its question
    adapter fitted without the withheld rulings' keys."""
    archive, chosen = withheld_archive(searcher.archive)
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(searcher.index.path, folder)
    index, _ = build_index(archive, searcher.embedder, folder, show_progress=False)
    # Never the saved fit's adapter: it was fitted on the withheld rulings' keys.
    adapter = fit_adapter(adapt, without_rulings=chosen) if adapt is not None else None
    calibration = replace(searcher.calibration, adapter=adapter)
    return Searcher(archive, index, searcher.embedder, calibration), chosen


def _without(features: tuple[str, ...], *names: str) -> tuple[str, ...]:
    return tuple(f for f in features if f not in names)


ABLATIONS: dict[str, dict[str, tuple[str, ...]]] = {
    "without the computation's citations": {
        "rerank": _without(RERANK_FEATURES, "computed_cites", "computed_case"),
        "answer": _without(ANSWER_FEATURES, "computed_case"),
    },
    "without the computation's particular case (computed_case)": {
        "rerank": _without(RERANK_FEATURES, "computed_case"),
        "answer": _without(ANSWER_FEATURES, "computed_case"),
    },
    "without the second look (the rival's distinct words)": {
        "rerank": _without(RERANK_FEATURES, "distinct"),
        "answer": ANSWER_FEATURES,
    },
    "+ word coverage (covered; and covered, distinct, unknown in the answer model)": {
        "rerank": RERANK_FEATURES + ("covered",),
        "answer": ANSWER_FEATURES + ("covered", "distinct", "unknown"),
    },
    "without what tells an uncurated ruling apart (its marks, their signals, p_gap)": {
        "rerank": _without(RERANK_FEATURES, *UNCURATED_FEATURES),
        "answer": _without(ANSWER_FEATURES, *UNCURATED_FEATURES),
    },
    "+ BM25, card match, key votes": {
        "rerank": RERANK_FEATURES + ("bm25_text", "bm25_keys", "card", "key_votes"),
        "answer": ANSWER_FEATURES + ("card", "key_votes"),
    },
    "+ the card's aboutness in both models": {
        "rerank": RERANK_FEATURES + ("card_about",),
        "answer": ANSWER_FEATURES + ("card_about",),
    },
    "+ everything (all features in both models)": {
        "rerank": RERANK_FEATURES
        + (
            "covered",
            "bm25_text",
            "bm25_keys",
            "card",
            "key_votes",
            "dense_text_gap",
            "dense_keys_gap",
            "game_named",
        ),
        "answer": ANSWER_FEATURES + ("covered", "distinct", "unknown", "card", "key_votes"),
    },
}


def calibrate(
    searcher,
    question_sets: dict[str, list[LabelledQuestion]],
    *,
    cited: Mapping[str, frozenset[str]],
    k: int = 5,
    keyless_searcher=None,
    withheld: tuple[Searcher, frozenset[str]] | None = None,
    books: list[BookRows] | None = None,
) -> tuple[Calibration, dict]:
    """Fit on every question (the saved calibration) and measure: held-out folds, in-sample,
    and the ablations (each its own cross-validation, of the curated rows alone). `cited`: see
    `collect`; `withheld`: a searcher over `withheld_archive` and the rulings withheld, whose
    questions are measured apart; `books`: `books.BookRows` of imported books, fitted on too
    and measured held out book by book (`books.cross_validate_with_books`)."""
    rows = [
        r for name, items in question_sets.items() for r in collect(searcher, items, name, cited)
    ]
    extra = None
    if withheld is not None:
        extra = Withheld(
            [row for name, items in question_sets.items()
             for row in collect(withheld[0], items, f"{name} (withheld)", cited)],
            withheld[1],
        )  # fmt: skip
    books = books or []
    final = fit_with_books(rows, books)
    report: dict[str, Any]
    report = {
        "questions": len(rows),
        "folds": k,
        "seed": SEED,
        "max_wrongly_declined": MAX_WRONGLY_DECLINED,
        "sets": {n: len(v) for n, v in question_sets.items()},
        "books": sorted(b.name for b in books),
        "held_out": cross_validate_with_books(rows, books, k, withheld=extra)
        if books
        else cross_validate(rows, k, withheld=extra),
        "withheld_rulings": sorted(extra.rulings) if extra else [],
        "in_sample": measure((r, final) for r in rows),
        "threshold": final.threshold,
        "ablation": {},
        "ablation_withheld": {},
    }
    for name, feats in ABLATIONS.items():
        measured = cross_validate(
            rows,
            k,
            rerank_features=feats["rerank"],
            answer_features_=feats["answer"],
            withheld=extra,
        )
        report["ablation"][name] = measured["overall"]
        if extra is not None:
            report["ablation_withheld"][name] = measured["withheld"]
    if keyless_searcher is not None:
        keyless = [
            row
            for name, items in question_sets.items()
            for row in collect(keyless_searcher, items, name, cited)
        ]
        report["ablation"]["without search keys (asks)"] = cross_validate(keyless, k)["overall"]
    manifest = searcher.index.manifest
    final = Calibration(
        final.rerank,
        final.answer,
        final.threshold,
        manifest.get("model", ""),
        manifest.get("backend", ""),
        fitted_on={
            "sets": report["sets"],
            "books": report["books"],
            "folds": k,
            "held_out": report["held_out"]["overall"],
            "held_out_withheld": report["held_out"].get("withheld"),
            "held_out_books": report["held_out"].get("books"),
        },
    )
    return final, report


def calibrate_all(
    searcher: Searcher,
    question_sets: dict[str, list[LabelledQuestion]],
    books: list[Book],
    *,
    cited: Mapping[str, frozenset[str]],
    k: int = 5,
) -> tuple[Calibration, dict]:
    """What `rulings calibrate` fits and reports: `calibrate` with the archive read without
    its search keys (an ablation), some rulings withheld as an import leaves them (their
    questions measured apart) and `books` imported one at a time, in a temporary folder.
    `cited`: every question's computation's citations, the books' questions' too."""
    keyless = Searcher(searcher.archive, searcher.index, searcher.embedder, use_keys=False)
    curated = [item for items in question_sets.values() for item in items]
    adapt, adapters, adapter = None, None, None
    if books:
        # The question adapter: one per book fold, fitted without that fold's books, for the
        # rows the reranker learns from (`collect_books`); one on every book, shipped.
        adapt, adapters, adapter = fold_adapters(searcher.embedder, books, searcher.archive)
    with tempfile.TemporaryDirectory(prefix="rulings-calibrate-") as folder:
        withheld = withheld_searcher(searcher, Path(folder) / "index", adapt)
        book_rows = collect_books(searcher, books, curated, cited, Path(folder) / "books", adapters)
        final, report = calibrate(
            searcher,
            question_sets,
            cited=cited,
            k=k,
            keyless_searcher=keyless,
            withheld=withheld,
            books=book_rows,
        )
    # Saved with the fit: the reranker weighs `foreign_adapted` as this adapter moves questions.
    return replace(final, adapter=adapter), report
