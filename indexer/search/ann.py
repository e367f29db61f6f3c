"""The FAISS index over normalised vectors (inner product = cosine): exact and flat below
``FLAT_LIMIT`` vectors, IVF above (HNSW by name), chosen by measurement (docs/decisions.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import faiss
# Below this many vectors exact search is both exact and fast enough; above it an IVF index,
# which builds in minutes and replaces one record cheaply, where HNSW would rebuild for every
# change (docs/decisions.md, "Flat below 50,000"). HNSW stays available by name.
FLAT_LIMIT = 50_000
IVF_NPROBE = 16


def choose_index_type(n_vectors: int) -> str:
    return "flat" if n_vectors < FLAT_LIMIT else "ivf"


def make_faiss_index(vectors: np.ndarray, index_type: str | None = None):
    """A FAISS inner-product index over normalised vectors (inner product = cosine)."""
    import faiss

    index_type = index_type or choose_index_type(len(vectors))
    dim = vectors.shape[1]
    index: faiss.Index
    if index_type == "flat":
        index = faiss.IndexFlatIP(dim)
    elif index_type == "ivf":
        # About 4 * sqrt(n) lists; the coarse centroids are trained on a sample of 50 per list.
        nlist = max(64, int(4 * np.sqrt(len(vectors))) // 64 * 64)
        index = faiss.IndexIVFFlat(faiss.IndexFlatIP(dim), dim, nlist, faiss.METRIC_INNER_PRODUCT)
        rng = np.random.default_rng(0)
        sample = vectors[
            rng.choice(len(vectors), size=min(len(vectors), nlist * 50), replace=False)
        ]
        index.train(np.ascontiguousarray(sample, dtype=np.float32))
        index.nprobe = IVF_NPROBE
    elif index_type == "hnsw":
        index = faiss.IndexHNSWFlat(dim, 32, faiss.METRIC_INNER_PRODUCT)
        index.hnsw.efConstruction = 80
        index.hnsw.efSearch = 96
    else:
        raise ValueError(f"unknown index type {index_type!r}")
    index.add(np.ascontiguousarray(vectors, dtype=np.float32))
    return index
