"""Scale: search cost, recall, memory, build time and re-index cost on synthetic archives.

Vectors are 384-d unit vectors of two kinds:
* ``clustered``: a Gaussian mixture (2,000 centres, small spread), closer to real embeddings,
  where near neighbours really are nearer;
* ``random``: uniform on the sphere, the worst case for any ANN index (the 10th neighbour is
  barely further than the 1st), reported for honesty.

For each size the index type ``choose_index_type`` picks is built with ``make_faiss_index`` and
compared with exact search (``IndexFlatIP``, the baseline and the ground truth for recall@10).
An IVF index (``IndexIVFFlat``) is measured too at 100k+ as the alternative to HNSW. Sizes whose
build would not fit the time budget are skipped with a line saying so (and an extrapolation).
"""

from __future__ import annotations

import time

import numpy as np

from bench.common import log, percentiles, rss_mb
from indexer.search.ann import choose_index_type, make_faiss_index

DIM = 384
N_QUERIES = 100
K = 10


def _unit(x: np.ndarray) -> np.ndarray:
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    return x


def synthetic(
    n: int, kind: str, seed: int, n_queries: int = N_QUERIES
) -> tuple[np.ndarray, np.ndarray]:
    """(database vectors, query vectors) of one kind, generated in chunks to bound memory."""
    rng = np.random.default_rng(seed)
    centres = (
        _unit(rng.standard_normal((2000, DIM), dtype=np.float32)) if kind == "clustered" else None
    )

    def draw(m: int) -> np.ndarray:
        noise = rng.standard_normal((m, DIM), dtype=np.float32)
        if centres is None:
            return _unit(noise)
        # spread 0.05 per dimension: cosine to the centre ~0.7, like real e5 neighbourhoods
        return _unit(centres[rng.integers(0, len(centres), m)] + 0.05 * noise)

    xb = np.empty((n, DIM), dtype=np.float32)
    for start in range(0, n, 100_000):
        stop = min(n, start + 100_000)
        xb[start:stop] = draw(stop - start)
    return xb, draw(n_queries)


def _single_query_ms(index, queries: np.ndarray, **kw) -> tuple[list[float], np.ndarray]:
    times, found = [], []
    for i in range(len(queries)):
        t = time.perf_counter()
        _, ids = index.search(queries[i : i + 1], K, **kw)
        times.append((time.perf_counter() - t) * 1000)
        found.append(ids[0])
    return times, np.array(found)


def _recall(found: np.ndarray, truth: np.ndarray) -> float:
    return round(float(np.mean([len(set(f) & set(t)) / K for f, t in zip(found, truth)])), 4)


def _index_bytes(index) -> int:
    import faiss

    return int(faiss.serialize_index(index).nbytes)


def measure_size(n: int, kind: str, budget_left: float, hnsw_rate: dict) -> dict:
    """All figures for one size and kind; `hnsw_rate` carries the measured HNSW build speed."""
    import faiss

    row: dict = {"n": n, "kind": kind, "chosen_type": choose_index_type(n)}
    t = time.perf_counter()
    xb, xq = synthetic(n, kind, seed=n + (0 if kind == "clustered" else 7))
    row["generate_s"] = round(time.perf_counter() - t, 2)
    rss0 = rss_mb()

    # Baseline and ground truth: exact search.
    t = time.perf_counter()
    flat = make_faiss_index(xb, "flat")
    flat_build = time.perf_counter() - t
    _, truth = flat.search(xq, K)
    ft, _ = _single_query_ms(flat, xq[:50] if n >= 1_000_000 else xq)
    row["flat"] = {
        "build_s": round(flat_build, 3),
        "search_ms": percentiles(ft),
        "recall@10": 1.0,
        "index_mb": round(n * DIM * 4 / 2**20, 1),
    }
    # Re-index one changed record, flat: replace the row in place vs. rebuild.
    xb_ptr = faiss.rev_swig_ptr(flat.get_xb(), n * DIM).reshape(n, DIM)
    new = xq[:1]
    t = time.perf_counter()
    xb_ptr[n // 2] = new[0]
    row["flat"]["reindex_one_inplace_ms"] = round((time.perf_counter() - t) * 1000, 4)
    row["flat"]["reindex_one_rebuild_s"] = round(flat_build, 3)
    xb_ptr[n // 2] = xb[n // 2]

    if n >= 100_000:  # HNSW: the alternative, measured where its build fits the budget
        projected = hnsw_rate.get("s_per_vec", 0) * n * (1.15 if n > 100_000 else 1.0)
        if projected and projected > budget_left * 0.6:
            row["hnsw"] = {
                "skipped": f"HNSW build projected at {projected:.0f} s from the measured "
                f"rate ({hnsw_rate['s_per_vec'] * 1e6:.0f} us/vector), over the "
                f"time left ({budget_left:.0f} s)",
                "projected_build_s": round(projected),
            }
            log(f"scale {kind} {n}: HNSW skipped (projected {projected:.0f} s)")
        else:
            t = time.perf_counter()
            hnsw = make_faiss_index(xb, "hnsw")
            build = time.perf_counter() - t
            hnsw_rate["s_per_vec"] = build / n
            ht, found = _single_query_ms(hnsw, xq)
            t = time.perf_counter()
            hnsw.add(new)  # the changed record's new vector; the old row is masked at search
            add_ms = (time.perf_counter() - t) * 1000
            sel = faiss.IDSelectorNot(faiss.IDSelectorBatch(np.array([n // 2], dtype=np.int64)))
            params = faiss.SearchParametersHNSW(sel=sel, efSearch=hnsw.hnsw.efSearch)
            st, _ = _single_query_ms(hnsw, xq[:50], params=params)
            row["hnsw"] = {
                "M": hnsw.hnsw.nb_neighbors(1),
                "efConstruction": hnsw.hnsw.efConstruction,
                "efSearch": hnsw.hnsw.efSearch,
                "build_s": round(build, 2),
                "search_ms": percentiles(ht),
                "recall@10": _recall(found, truth),
                "index_mb": round(_index_bytes(hnsw) / 2**20, 1),
                "reindex_one_rebuild_s": round(build, 2),
                "reindex_one_add_and_mask_ms": round(add_ms, 3),
                "search_with_mask_ms": percentiles(st),
            }
            recalls = {}
            for efs in (32, 64, 128, 256):
                hnsw.hnsw.efSearch = efs
                et, ef_found = _single_query_ms(hnsw, xq[:50])
                recalls[efs] = {
                    "p50_ms": percentiles(et)["p50"],
                    "recall@10": _recall(ef_found, truth[:50]),
                }
            row["hnsw"]["efSearch_sweep"] = recalls
            del hnsw
            log(f"scale {kind} {n}: hnsw build {build:.1f}s recall {row['hnsw']['recall@10']}")
    if n >= 100_000 and budget_left > 60:  # IVF: the service's choice at this size
        t = time.perf_counter()
        ivf = make_faiss_index(xb, "ivf")
        build = time.perf_counter() - t
        nlist = ivf.nlist
        sweep = {}
        for nprobe in (8, 16, 32, 64):
            ivf.nprobe = nprobe
            it, found = _single_query_ms(ivf, xq)
            sweep[nprobe] = {"search_ms": percentiles(it), "recall@10": _recall(found, truth)}
        t = time.perf_counter()
        ivf.remove_ids(np.array([n // 2], dtype=np.int64))
        ivf.add_with_ids(new, np.array([n // 2], dtype=np.int64))
        upd = (time.perf_counter() - t) * 1000
        row["ivf"] = {
            "nlist": nlist,
            "build_s": round(build, 2),
            "nprobe_sweep": sweep,
            "index_mb": round(_index_bytes(ivf) / 2**20, 1),
            "reindex_one_remove_add_ms": round(upd, 3),
        }
        del ivf
        log(f"scale {kind} {n}: ivf build {build:.1f}s")
    row["rss_mb_after"] = rss_mb()
    row["rss_mb_before_indexes"] = rss0
    del xb, flat
    return row


def build_throughput(embedder, n_records: int) -> dict:
    """The real build path (build_index) on a synthetic archive of generated rulings (no
    translations: one passage each), then a rebuild after changing one record."""
    import random
    import tempfile
    from pathlib import Path

    from indexer.archive.load import load_archive
    from indexer.archive.schema import Archive, Citation, Ruling
    from indexer.search.index import build_index

    real = load_archive()
    words = sorted({w for r in real.records.values() for w in r.text.split() if w.isalpha()})
    rnd = random.Random(0)
    records = {}
    for i in range(n_records):
        rid = f"fh-synth-{i:06d}"
        text = " ".join(rnd.choice(words) for _ in range(rnd.randint(30, 70))) + "."
        records[rid] = Ruling(
            id=rid,
            game="frosthaven",
            kind="clarification",
            lang="en",
            title=" ".join(rnd.choice(words) for _ in range(5)),
            text=text,
            citation=Citation(source="synthetic"),
        )
    archive = Archive(real.root, records, real.games, real.other_games)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "index"
        t = time.perf_counter()
        _, stats = build_index(archive, embedder, out, show_progress=False)
        full = time.perf_counter() - t
        first = next(iter(records))
        records[first] = records[first].model_copy(
            update={"text": records[first].text + " Changed."}
        )
        t = time.perf_counter()
        _, stats2 = build_index(archive, embedder, out, show_progress=False)
        one = time.perf_counter() - t
    return {
        "records": n_records,
        "passages": stats["passages"],
        "build_s": round(full, 2),
        "passages_per_s": round(stats["passages"] / full, 1),
        "rebuild_after_one_change_s": round(one, 3),
        "rebuild_embedded_passages": stats2["embedded_passages"],
    }


def run_scale(
    embedder,
    budget_s: float,
    sizes=(10_000, 100_000, 1_000_000),
    kinds=("clustered", "random"),
    build_records: int = 1000,
) -> dict:
    started = time.monotonic()
    left = lambda: budget_s - (time.monotonic() - started)
    out: dict = {"dim": DIM, "queries": N_QUERIES, "k": K, "rows": [], "skipped": []}
    hnsw_rate: dict = {}
    for kind in kinds:
        for n in sizes:
            if left() < 30:
                out["skipped"].append(f"{kind} {n:,}: no time left in the scale budget")
                log(f"scale {kind} {n}: skipped (budget)")
                continue
            if kind == "random" and n >= 1_000_000 and left() < 240:
                out["skipped"].append(
                    f"random {n:,}: skipped, under 4 min left in the scale budget"
                )
                continue
            t = time.perf_counter()
            out["rows"].append(measure_size(n, kind, left(), hnsw_rate))
            log(f"scale {kind} {n}: done in {time.perf_counter() - t:.1f}s")
    if left() > 120:
        out["build_throughput"] = build_throughput(embedder, build_records)
        out["build_throughput"]["note"] = (
            f"{build_records} generated records through build_index (not 10k: time budget); extrapolate linearly"
        )
    else:
        out["skipped"].append("build throughput with real embeddings: no time left")
    return out
