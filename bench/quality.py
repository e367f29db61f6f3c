"""Retrieval quality on the dev set: the service's search beside naive baselines, and an ablation.

Every variant runs in this one process over the same archive, model and question file:

* ``service``: ``Searcher.search`` as the service runs it (dense + BM25 + card lookup fused by
  RRF over every language version, game filter, edition collapse, decline model).
* ``bm25_baseline``: vanilla bm25s over each record's original title + text (lower-cased
  ``\\w+`` tokens, no stemming, no stop words, no translations), never declines.
* ``dense_baseline``: the same e5 model over each record's original title + text (no
  translations, no fusion), cosine ranking, never declines.
* ``dense_baseline_threshold``: the dense baseline declining below one cosine threshold, the
  threshold chosen on the dev set itself (so optimistic): what a single threshold can do.
* ablation: the service without one signal (dense, BM25, card lookup), and with only the
  original-language passages indexed (no translations).

``accuracy`` is the share of questions handled right end to end: answerable ones answered
(not declined) with a correct top ruling, unanswerable ones declined.
"""
from __future__ import annotations

import re
import time

import numpy as np

from bench.common import CachingEmbedder, load_dev_questions, log
from indexer.embedder import encode_passages, encode_queries
from indexer.evaluate import evaluate
from indexer.index import VectorIndex
from indexer.search import Hit, Searcher, SearchResult

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
        return SearchResult(question, "?", None, False, _collapse(self.archive, ranked, k), "baseline")


class DenseBaseline:
    def __init__(self, archive, embedder):
        self.archive = archive
        self.embedder = embedder
        self.ids = list(archive.records)
        self.vectors = encode_passages(embedder, [Bm25Baseline._text(archive.records[r]) for r in self.ids])
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
            correct = bool(item.expect) and bool(hits) and bool(set(hits[0].group) & set(item.expect))
            rows.append((top, bool(item.expect), correct))
        candidates = sorted({0.0, *(r[0] for r in rows), *(r[0] + 1e-6 for r in rows)})
        best_t, best = 0.0, -1
        for t in candidates:
            good = sum((c and top >= t) if ans else top < t for top, ans, c in rows)
            if good > best:
                best_t, best = t, good
        self.threshold = best_t
        return best_t


class AblatedSearcher(Searcher):
    """The service's search with some signals switched off (their scores emptied)."""

    def __init__(self, *args, drop: tuple[str, ...] = (), **kwargs):
        super().__init__(*args, **kwargs)
        self.drop = drop

    def signals(self, question):
        sig = super().signals(question)
        for name in self.drop:
            setattr(sig, name, {})
        return sig


def originals_only(archive, index: VectorIndex) -> VectorIndex:
    """The index restricted to each record's original-language passage."""
    import faiss

    rows = [i for i, p in enumerate(index.passages) if p.lang == archive.records[p.record].lang]
    vectors = np.ascontiguousarray(index.vectors[rows])
    flat = faiss.IndexFlatIP(vectors.shape[1])
    flat.add(vectors)
    return VectorIndex(index.path, dict(index.manifest, passages=len(rows)),
                       [index.passages[i] for i in rows], vectors, flat)


def run_quality(archive, embedder, index: VectorIndex) -> dict:
    questions = load_dev_questions()
    n = len(questions)
    emb = CachingEmbedder(embedder)
    variants: dict[str, dict] = {}
    by_lang: dict[str, dict] = {}
    failures: dict[str, list] = {}

    def run(name: str, ask, note: str) -> None:
        t = time.perf_counter()
        report = evaluate(questions, ask)
        variants[name] = dict(_figures(report, n), note=note)
        by_lang[name] = report.by_language
        failures[name] = report.failures
        log(f"quality {name}: hit@1={report.overall['hit@1']} mrr={report.overall['mrr@10']} "
            f"({time.perf_counter() - t:.1f}s)")

    service = Searcher(archive, index, emb)
    run("service", lambda q: service.search(q, k=10),
        "dense + BM25 + card lookup, RRF, all 7 language versions, game filter, decline model")
    bm25 = Bm25Baseline(archive)
    run("bm25_baseline", lambda q: bm25.search(q), "vanilla bm25s on original title+text; never declines")
    dense = DenseBaseline(archive, emb)
    run("dense_baseline", lambda q: dense.search(q), "e5 cosine on original title+text; never declines")
    threshold = dense.tune_threshold(questions)
    run("dense_baseline_threshold", lambda q: dense.search(q),
        f"dense baseline declining below cosine {threshold:.4f} (tuned on dev itself: optimistic)")
    dense.threshold = None

    ablation_names = {}
    for drop in ("dense", "bm25", "card"):
        s = AblatedSearcher(archive, index, emb, drop=(drop,))
        name = f"service_without_{drop}"
        run(name, lambda q, s=s: s.search(q, k=10), f"the service with the {drop} signal removed")
        ablation_names[drop] = name
    orig = originals_only(archive, index)
    s = Searcher(archive, orig, emb)
    run("service_without_translations", lambda q: s.search(q, k=10),
        f"the service indexing only original-language passages ({len(orig.passages)} of "
        f"{len(index.passages)}; BM25 and dense alike)")
    return {"questions": n, "answerable": variants["service"]["answerable"],
            "unanswerable": variants["service"]["unanswerable"], "dev_set": "shared/eval/dev.yaml",
            "variants": variants, "by_language": by_lang,
            "service_failures": failures["service"]}
