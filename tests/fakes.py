"""A fake embedder for fast plumbing tests: hashed bags of folded words, no model.

It is deterministic and keeps the embedder interface (name, dimension, encode), so the real
index, search, engine and app run over it; only the quality of the vectors is fake. Tests of
retrieval quality use the real model instead.
"""

from __future__ import annotations

import hashlib

import numpy as np

from indexer.text import WORD, fold

DIMENSION = 64


class FakeEmbedder:
    name = "fake-hashed-words"
    dimension = DIMENSION
    backend = "fake"

    def encode(
        self, texts: list[str], *, batch_size: int = 32, show_progress: bool = False
    ) -> np.ndarray:
        out = np.zeros((len(texts), DIMENSION), dtype=np.float32)
        for i, text in enumerate(texts):
            for word in WORD.findall(fold(text)):
                digest = hashlib.blake2b(word.encode(), digest_size=4).digest()
                out[i, int.from_bytes(digest, "little") % DIMENSION] += 1.0
            norm = np.linalg.norm(out[i])
            out[i] = out[i] / norm if norm else out[i]
        return out
