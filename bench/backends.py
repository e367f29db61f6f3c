"""Which embedding backend should serve: torch (sentence-transformers, the reference), ONNX
Runtime fp32 and dynamic int8, measured side by side in one run.

For each backend: the archive index built with it, then `rulings eval`'s figures on dev.yaml
and dev-outside.yaml (Searcher.search over that index, today's decline thresholds); the median
time to embed one question (in alternating rounds, so load from elsewhere falls on all
alike); and the cosine of its vectors to torch's on a fixed multilingual
set (the dev questions and every language version of every ruling).

    python -m bench.backends [--out build/backends.json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from bench.common import DEV_SET, REPO, log, percentiles
from indexer.files import write_atomic

OUTSIDE_SET = DEV_SET.with_name("dev-outside.yaml")
BACKENDS = ("torch", "onnx", "onnx-int8")


class TorchThreads:
    """The torch embedder run with `threads` intra-op threads. On a machine busy with other
    work, torch's OpenMP threads, one per core, wait on each other at every barrier: measured
    here 740 ms a question with 2 threads against 68 ms with 1, so both are reported."""

    def __init__(self, inner, threads: int):
        self.inner, self.threads = inner, threads

    def encode(self, texts: list[str], **kwargs):
        import torch

        before = torch.get_num_threads()
        torch.set_num_threads(self.threads)
        try:
            return self.inner.encode(texts, **kwargs)
        finally:
            torch.set_num_threads(before)


def timed_variants(served: dict[str, object], model: str) -> dict[str, object]:
    """The embedders to time: each backend as served (its default threads), plus the ONNX ones
    on every core, torch's own setting, for a like-for-like single-process comparison."""
    import torch

    from indexer.model.embedder import OnnxEmbedder

    cores = os.cpu_count() or 1
    out = {
        f"torch ({n} threads)": TorchThreads(served["torch"], n)
        for n in sorted({torch.get_num_threads(), 1}, reverse=True)
    }
    for backend in ("onnx", "onnx-int8"):
        embedder = served[backend]
        out[f"{backend} ({embedder.threads} threads, as served)"] = embedder
        if embedder.threads != cores:
            out[f"{backend} ({cores} threads)"] = OnnxEmbedder(
                model, quantised=backend == "onnx-int8", threads=cores, cache_size=0
            )
    return out


def question_latency(
    embedders: dict[str, object], questions: list[str], rounds: int = 3
) -> dict[str, dict]:
    """Median (and tail) ms to embed one question. Each backend runs a block of questions on
    its own (interleaving single calls made the thread pools of torch and ONNX Runtime, which
    spin while they wait for work, starve each other: torch measured 1 s a question), in
    rounds whose order alternates, so load from elsewhere falls on all alike."""
    for e in embedders.values():  # warm-up: first calls allocate
        for q in questions[:5]:
            e.encode(["query: " + q])
    samples: dict[str, list[float]] = {name: [] for name in embedders}
    names = list(embedders)
    for round_ in range(rounds):
        chunk = questions[round_::rounds]
        for name in names if round_ % 2 == 0 else names[::-1]:
            time.sleep(0.5)  # the previous backend's spinning threads go to sleep
            for q in chunk:
                t = time.perf_counter()
                embedders[name].encode(["query: " + q])
                samples[name].append((time.perf_counter() - t) * 1000)
    return {name: percentiles(s) for name, s in samples.items()}


def cosines_to_torch(
    embedders: dict[str, object], questions: list[str], passages: list[str]
) -> dict[str, dict]:
    from indexer.model.embedder import encode_passages

    reference = np.vstack(
        [
            embedders["torch"].encode(["query: " + q for q in questions]),
            encode_passages(embedders["torch"], passages),
        ]
    )
    out = {}
    for backend in ("onnx", "onnx-int8"):
        e = embedders[backend]
        vectors = np.vstack(
            [e.encode(["query: " + q for q in questions]), encode_passages(e, passages)]
        )
        cos = (vectors * reference).sum(axis=1)
        out[backend] = {
            "texts": len(cos),
            "min": round(float(cos.min()), 5),
            "p05": round(float(np.percentile(cos, 5)), 5),
            "mean": round(float(cos.mean()), 5),
            "max": round(float(cos.max()), 5),
        }
    return out


def retrieval(archive, embedder, folder: Path) -> dict:
    """The index built with `embedder`, then eval figures on both question files."""
    from indexer.search.evaluate import evaluate, load_questions
    from indexer.search.index import build_index
    from indexer.search.searcher import Searcher

    t = time.perf_counter()
    index, _ = build_index(archive, embedder, folder, show_progress=False)
    build_s = time.perf_counter() - t
    searcher = Searcher(archive, index, embedder)
    out = {"index_build_s": round(build_s, 1)}
    for name, path in (("dev", DEV_SET), ("dev-outside", OUTSIDE_SET)):
        report = evaluate(load_questions(path), lambda q: searcher.search(q, k=10))
        out[name] = dict(report.overall, failures=len(report.failures))
    return out


def run_backends(archive=None, model: str | None = None) -> dict:
    """Every figure of the choice, measured in this run."""
    from indexer.archive.load import load_archive
    from indexer.model.embedder import model_setting
    from indexer.search.evaluate import load_questions
    from indexer.search.passages import passage_text

    archive = archive or load_archive()
    model = model or model_setting()
    from indexer.model.embedder import load_embedder

    embedders = {b: load_embedder(model, b) for b in BACKENDS}
    questions = [q.q for q in load_questions(DEV_SET)]
    passages = [
        passage_text(rec, lang) for rec in archive.records.values() for lang in rec.languages()
    ]
    # The model as the report names it: a folder inside the repository by its relative path (a
    # report is committed; this machine's absolute paths do not belong in it).
    shown = Path(model)
    shown = (
        str(shown.resolve().relative_to(REPO))
        if shown.is_absolute() and shown.resolve().is_relative_to(REPO)
        else str(model)
    )
    result: dict = {
        "model": shown,
        "cores": os.cpu_count(),
        "load_average_at_start": os.getloadavg()[0],
    }
    result["question_ms"] = question_latency(timed_variants(embedders, model), questions)
    log(
        "backends: " + ", ".join(f"{n} p50 {p['p50']} ms" for n, p in result["question_ms"].items())
    )
    result["cosine_to_torch"] = cosines_to_torch(embedders, questions, passages)
    log(f"backends: cosine to torch {result['cosine_to_torch']}")
    result["retrieval"] = {}
    with tempfile.TemporaryDirectory(prefix="rulings-backends-") as tmp:
        for backend in BACKENDS:
            result["retrieval"][backend] = retrieval(
                archive, embedders[backend], Path(tmp) / backend
            )
            log(f"backends: {backend} {result['retrieval'][backend]}")
    result["load_average_at_end"] = os.getloadavg()[0]
    return result


def render(r: dict) -> list[str]:
    """The figures as Markdown lines (for bench/report.md)."""
    cols = ("hit@1", "hit@3", "mrr@10", "wrongly_declined", "declined_unanswerable")
    out = [
        f"Backends on {r['cores']} cores (load average {r['load_average_at_start']:.1f} at the "
        f"start, {r['load_average_at_end']:.1f} at the end).",
        "",
        "| backend | one question p50 ms | p95 ms |",
        "|---|---|---|",
    ]
    out += [f"| {n} | {p['p50']} | {p['p95']} |" for n, p in r["question_ms"].items()]
    out += ["", "| backend | cosine to torch: min | 5th pct | mean |", "|---|---|---|---|"]
    out += [
        f"| {b} | {c['min']} | {c['p05']} | {c['mean']} |" for b, c in r["cosine_to_torch"].items()
    ]
    out += ["", "| backend | file | " + " | ".join(cols) + " |", "|---|---|" + "---|" * len(cols)]
    for backend, fig in r["retrieval"].items():
        for name in ("dev", "dev-outside"):
            out.append(
                f"| {backend} | {name} | "
                + " | ".join("–" if fig[name][c] is None else str(fig[name][c]) for c in cols)
                + " |"
            )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out", type=Path, default=None, help="also write the figures as JSON here"
    )
    args = parser.parse_args(argv)
    result = run_backends()
    if args.out:
        write_atomic(args.out, json.dumps(result, indent=1, ensure_ascii=False) + "\n")
    print("\n".join(render(result)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
