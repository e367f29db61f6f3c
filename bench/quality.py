"""Retrieval quality: the service's search measured on held-out folds, beside naive baselines.

* ``service``: k-fold cross-validation over the shared dev sets and the project's own
  (bench/eval/): the reranker and the answer model are fitted on k-1 folds and measured on
  the held-out one (``indexer.calibrate``), with the ablation of each piece; the in-sample
  figures of the fit the service ships (indexer/search/calibration.json) are reported apart.
* ``bm25_baseline``: vanilla bm25s over each record's original title + text (lower-cased
  ``\\w+`` tokens, no stemming, no stop words, no translations), never declines.
* ``dense_baseline``: the same e5 model over each record's original title + text (no
  translations, no fusion), cosine ranking, never declines; ``dense_baseline_threshold``
  declines below one cosine threshold chosen on dev itself (optimistic).
Baselines are measured on dev.yaml (they have nothing to fit but that threshold).
"""

from __future__ import annotations

import re
import time

import numpy as np

from bench.common import CachingEmbedder, load_dev_questions, log
from indexer.model.embedder import encode_passages, encode_queries
from indexer.search.evaluate import evaluate
from indexer.search.results import Hit, SearchResult

TOKEN = re.compile(r"\w+", re.UNICODE)


def _figures(report, n: int) -> dict:
    out = dict(report.overall)
    out["accuracy"] = round(1 - len(report.failures) / n, 4) if n else None
    return out


def _collapse(archive, ranked: list[tuple[str, float]], k: int) -> list[Hit]:
    """One hit per edition group, as the service and evaluate() count them."""
    hits, seen = [], set()
    for rid, score in ranked:
        group = archive.edition_group(rid)
        if group in seen:
            continue
        seen.add(group)
        hits.append(Hit(rid, float(score), float(score), group))
        if len(hits) >= k:
            break
    return hits


class Bm25Baseline:
    def __init__(self, archive):
        import bm25s

        self.archive = archive
        self.ids = list(archive.records)
        corpus = [TOKEN.findall(self._text(archive.records[r]).lower()) for r in self.ids]
        self.bm25 = bm25s.BM25()
        self.bm25.index(corpus, show_progress=False)

    @staticmethod
    def _text(rec) -> str:
        return "\n".join(p for p in (rec.title, rec.text) if p)

    def search(self, question: str, k: int = 10) -> SearchResult:
        tokens = TOKEN.findall(question.lower())
        scores = self.bm25.get_scores(tokens) if tokens else np.zeros(len(self.ids))
        order = np.argsort(-scores, kind="stable")
        ranked = [(self.ids[i], scores[i]) for i in order if scores[i] > 0]
        return SearchResult(
            question, "?", None, False, _collapse(self.archive, ranked, k), "baseline"
        )


class DenseBaseline:
    def __init__(self, archive, embedder):
        self.archive = archive
        self.embedder = embedder
        self.ids = list(archive.records)
        self.vectors = encode_passages(
            embedder, [Bm25Baseline._text(archive.records[r]) for r in self.ids]
        )
        self.threshold: float | None = None

    def search(self, question: str, k: int = 10) -> SearchResult:
        q = encode_queries(self.embedder, [question])[0]
        scores = self.vectors @ q
        order = np.argsort(-scores, kind="stable")
        hits = _collapse(self.archive, [(self.ids[i], scores[i]) for i in order], k)
        declined = self.threshold is not None and (not hits or hits[0].score < self.threshold)
        return SearchResult(question, "?", None, declined, hits, "baseline")

    def tune_threshold(self, questions) -> float:
        """The single top-cosine threshold that handles the most dev questions right."""
        rows = []
        for item in questions:
            hits = self.search(item.q).hits
            top = hits[0].score if hits else 0.0
            correct = (
                bool(item.expect) and bool(hits) and bool(set(hits[0].group) & set(item.expect))
            )
            rows.append((top, bool(item.expect), correct))
        candidates = sorted({0.0, *(r[0] for r in rows), *(r[0] + 1e-6 for r in rows)})
        best_t, best = 0.0, -1
        for t in candidates:
            good = sum((c and top >= t) if ans else top < t for top, ans, c in rows)
            if good > best:
                best_t, best = t, good
        self.threshold = best_t
        return best_t


def run_quality(archive, embedder, index) -> dict:
    """Held-out figures of the service with its ablation, and the baselines on dev."""
    from indexer.paths import DEFAULT_BOOKS, DEFAULT_QUESTION_SETS, REPO_ROOT
    from indexer.search.evaluate import load_questions
    from indexer.search.fit.books import read_books
    from indexer.search.fit.calibrate import calibrate_all
    from indexer.search.searcher import Searcher
    from service.computed import cited_by_questions

    emb = CachingEmbedder(embedder)
    t = time.perf_counter()
    sets = {
        p.split("/")[-1].removesuffix(".yaml"): load_questions(REPO_ROOT / p)
        for p in DEFAULT_QUESTION_SETS
        if (REPO_ROOT / p).exists()
    }
    searcher = Searcher(archive, index, emb)
    # As `rulings calibrate` fits the shipped calibration: the books too (indexer/search/fit).
    books = read_books(DEFAULT_BOOKS) if DEFAULT_BOOKS.is_dir() else []
    texts = [item.q for items in sets.values() for item in items]
    cited = cited_by_questions(searcher, texts + [q.q for b in books for q in b.questions])
    _, service = calibrate_all(searcher, sets, books, cited=cited, k=5)
    log(
        f"quality: held-out hit@1 {service['held_out']['overall']['hit@1']} ({time.perf_counter() - t:.1f}s)"
    )
    questions = load_dev_questions()
    n = len(questions)
    baselines: dict[str, dict] = {}
    bm25 = Bm25Baseline(archive)
    baselines["bm25_baseline"] = dict(
        _figures(evaluate(questions, bm25.search), n),
        note="vanilla bm25s on original title+text; never declines",
    )
    dense = DenseBaseline(archive, emb)
    baselines["dense_baseline"] = dict(
        _figures(evaluate(questions, dense.search), n),
        note="e5 cosine on original title+text; never declines",
    )
    threshold = dense.tune_threshold(questions)
    baselines["dense_baseline_threshold"] = dict(
        _figures(evaluate(questions, dense.search), n),
        note=f"dense baseline declining below cosine {threshold:.4f} (tuned on dev itself)",
    )
    return {"service": service, "baselines": baselines, "dev_questions": n}
