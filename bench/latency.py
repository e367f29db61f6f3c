"""Latency: in-process ``engine.ask`` beside the bare model, where the time goes, and HTTP
throughput/latency against a real gunicorn server at 1, 8 and 32 concurrent clients."""
from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from bench.common import REPO, load_dev_questions, log, percentiles


def in_process(engine, repetitions: int = 3) -> dict:
    """ask and bare embedding interleaved question by question (same load for both)."""
    from indexer.embedder import encode_queries
    from indexer.search import Signals, fuse

    questions = [q.q for q in load_dev_questions()]
    emb = engine.searcher.embedder
    for q in questions[:5]:  # warm-up (first calls allocate)
        engine.ask(q)
        emb.encode(["query: " + q])
    ask_ms, bare_ms = [], []
    for _ in range(repetitions):
        for q in questions:
            t = time.perf_counter()
            engine.ask(q)
            ask_ms.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            emb.encode(["query: " + q])
            bare_ms.append((time.perf_counter() - t) * 1000)
    ask, bare = percentiles(ask_ms), percentiles(bare_ms)

    # Where the time goes: each named stage of Searcher.search, timed on its own per question.
    s = engine.searcher
    stages: dict[str, list[float]] = {k: [] for k in (
        "analyse", "dense", "lexical", "card_signal", "fuse", "collapse", "decide")}

    def timed(name, fn):
        t = time.perf_counter()
        out = fn()
        stages[name].append((time.perf_counter() - t) * 1000)
        return out

    for q in questions:
        question = timed("analyse", lambda: s.analyse(q))
        allowed = s.allowed(question)
        sig = Signals(dense=timed("dense", lambda: s.dense(question, allowed)),
                      bm25=timed("lexical", lambda: s.lexical(question, allowed)),
                      card=timed("card_signal", lambda: s.card_signal(question, allowed)))
        fused = timed("fuse", lambda: fuse(sig))
        hits = timed("collapse", lambda: s.collapse(fused, sig, question.lang, 3))
        timed("decide", lambda: s.decide(question, sig, fused, hits))
    breakdown = {k: round(float(np.median(v)), 3) for k, v in stages.items()}
    # The dense stage is the question's embedding plus the FAISS search; the rest is not model.
    non_model = round(sum(v for k, v in breakdown.items() if k != "dense"), 3)
    ratio = round(ask["p50"] / bare["p50"], 3) if bare["p50"] else None
    return {"questions": len(questions), "repetitions": repetitions, "ask_ms": ask,
            "bare_embedding_ms": bare, "ratio_p50": ratio, "target_ratio_p50": 1.5,
            "target_met": ratio is not None and ratio <= 1.5,
            "stage_median_ms": breakdown, "non_model_median_ms_sum": non_model}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def _load(url: str, questions: list[str], clients: int, total: int) -> dict:
    import httpx

    latencies: list[float] = []
    errors: list[str] = []
    queue: asyncio.Queue = asyncio.Queue()
    for i in range(total):
        queue.put_nowait(questions[i % len(questions)])
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(base_url=url, timeout=120, limits=limits) as client:
        async def worker():
            while True:
                try:
                    q = queue.get_nowait()
                except asyncio.QueueEmpty:
                    return
                t = time.perf_counter()
                try:
                    r = await client.post("/v1/ask", json={"question": q})
                    if r.status_code != 200 or "matches" not in r.json():
                        errors.append(f"HTTP {r.status_code}")
                except (httpx.HTTPError, ValueError) as exc:
                    errors.append(type(exc).__name__)
                latencies.append((time.perf_counter() - t) * 1000)

        t0 = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(clients)))
        wall = time.perf_counter() - t0
    return {"clients": clients, "requests": total, "wall_s": round(wall, 2),
            "throughput_rps": round(total / wall, 2), "latency_ms": percentiles(latencies),
            "errors": len(errors), "error_kinds": sorted(set(errors))}


def http(index_dir: Path, requests_per_level: int = 144, levels=(1, 8, 32)) -> dict:
    import httpx

    questions = [q.q for q in load_dev_questions()]
    port = _free_port()
    env = dict(os.environ, RULINGS_INDEX_DIR=str(index_dir), PORT=str(port), ACCESS_LOG="/dev/null",
               TOKENIZERS_PARALLELISM="false")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    url = f"http://127.0.0.1:{port}"
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "service.cli", "serve", "--port", str(port)],
                            cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)
    try:
        cold = None
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"server exited: {proc.stderr.read()[-2000:]}")
            try:
                r = httpx.post(f"{url}/v1/ask", json={"question": questions[0]}, timeout=60)
                if r.status_code == 200:
                    cold = time.perf_counter() - t0
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        if cold is None:
            raise RuntimeError("server gave no answer within 300 s")
        log(f"http: cold start to first answer {cold:.1f}s")
        asyncio.run(_load(url, questions, 4, 16))  # warm-up
        results = []
        for clients in levels:
            res = asyncio.run(_load(url, questions, clients, requests_per_level))
            log(f"http {clients} clients: {res['throughput_rps']} rps p50 {res['latency_ms']['p50']} "
                f"p99 {res['latency_ms']['p99']} errors {res['errors']}")
            results.append(res)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
    at8 = next((r for r in results if r["clients"] == 8), None)
    return {"server": "rulings serve (gunicorn gthread, WEB_WORKERS=%s, WEB_THREADS=%s)" % (
                os.environ.get("WEB_WORKERS", 1), os.environ.get("WEB_THREADS", 8)),
            "endpoint": "POST /v1/ask", "cold_start_to_first_answer_s": round(cold, 2),
            "levels": results,
            "target_p99_ms_at_8": 100,
            "target_met": bool(at8 and at8["latency_ms"]["p99"] is not None and at8["latency_ms"]["p99"] < 100),
            "note": "client and server share the machine's cores (loopback)"}
