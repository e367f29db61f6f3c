"""Shared helpers for the benchmarks: machine and version info, percentiles, memory, a caching
embedder, and a one-line log."""

from __future__ import annotations

import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
DEV_SET = REPO.parent / "shared" / "eval" / "dev.yaml"
_T0 = time.monotonic()


def log(msg: str) -> None:
    print(f"[bench {time.monotonic() - _T0:7.1f}s] {msg}", file=sys.stderr, flush=True)


def percentiles(samples_ms: list[float] | np.ndarray) -> dict:
    a = np.asarray(samples_ms, dtype=np.float64)
    if a.size == 0:
        return {"n": 0, "p50": None, "p95": None, "p99": None, "mean": None}
    return {
        "n": int(a.size),
        "p50": round(float(np.percentile(a, 50)), 3),
        "p95": round(float(np.percentile(a, 95)), 3),
        "p99": round(float(np.percentile(a, 99)), 3),
        "mean": round(float(a.mean()), 3),
    }


def rss_mb() -> float:
    """Resident set size of this process in MiB (from /proc; 0 where unavailable)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return 0.0


def load_average() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def machine() -> dict:
    mem_gib = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                mem_gib = round(int(line.split()[1]) / 1024 / 1024, 1)
    except OSError:
        pass
    cpu = platform.processor() or ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cores": os.cpu_count(),
        "memory_gib": mem_gib,
        "cpu": cpu,
        "platform": platform.platform(),
        "load_average_at_start": load_average(),
    }


def versions() -> dict:
    import faiss
    import sentence_transformers
    import torch

    out = {
        "python": platform.python_version(),
        "torch": torch.__version__,
        "faiss": faiss.__version__,
        "sentence-transformers": sentence_transformers.__version__,
        "numpy": np.__version__,
        "torch_threads": torch.get_num_threads(),
    }
    for name in ("bm25s", "flask", "gunicorn", "httpx"):
        try:
            from importlib.metadata import version

            out[name] = version(name)
        except Exception:  # pragma: no cover - informational only
            pass
    return out


class CachingEmbedder:
    """Wraps an embedder; identical texts are encoded once (quality runs repeat every query)."""

    def __init__(self, inner):
        self.inner = inner
        self.name = inner.name
        self.dimension = inner.dimension
        # What an index records of its embedder (a rebuilt index compares them).
        self.backend = inner.backend
        self.export_id = getattr(inner, "export_id", None)
        self._cache: dict[str, np.ndarray] = {}

    def encode(
        self, texts: list[str], *, batch_size: int = 32, show_progress: bool = False
    ) -> np.ndarray:
        missing = [t for t in dict.fromkeys(texts) if t not in self._cache]
        if missing:
            vecs = self.inner.encode(missing, batch_size=batch_size, show_progress=show_progress)
            self._cache.update(zip(missing, vecs))
        return np.stack([self._cache[t] for t in texts]).astype(np.float32)


def load_dev_questions():
    from indexer.search.evaluate import load_questions

    return load_questions(DEV_SET)
