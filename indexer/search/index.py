"""The vector index: every language version of every ruling, embedded, in a FAISS index folder.

Each ruling is indexed as one text passage per language and one "ask" passage per search key
(its curated questions, ``asks:``): keys are embedded as queries, since they are questions.

The folder holds ``index.faiss``, ``vectors.npy`` (kept so an update re-embeds only changed
records), ``passages.json`` (which record, language and kind each row is) and ``manifest.json``
(model, backend, dimension, counts, build time, index type, a content hash per record and for
the archive, and a checksum of every file), and the BM25 models of the texts and of the search
keys (``bm25-text.*``, ``bm25-ask.*``, bm25s' own files) and each record's stemmed words per
language (``words.json``, ``words.npz``, for the coverage features), so a start loads them
instead of tokenizing the whole archive again. A build writes a temporary sibling folder and
renames it into place, so an interrupted build leaves the previous index intact.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import tempfile
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from indexer.archive.schema import Archive
from indexer.errors import Unavailable
from indexer.files import sha256_file
from indexer.model.embedder import PASSAGE_PREFIX, QUERY_PREFIX, Embedder
from indexer.paths import DEFAULT_INDEX
from indexer.search.bm25 import BM25_KINDS, _bm25_names, _load_bm25, bm25_files, build_bm25
from indexer.search.coverage import RecordWords
from indexer.search.passages import (
    Passage,
    archive_hash,
    bm25_rows,
    passage_prefix,
    record_hash,
    record_passages,
)

if TYPE_CHECKING:
    import faiss
from indexer.search.ann import choose_index_type, make_faiss_index

log = logging.getLogger(__name__)

FORMAT_VERSION = 3  # 2: search keys indexed as passages of kind "ask"; 3: BM25 models and
#                      the records' words (indexer.evidence.RecordWords) saved
FILES = ("index.faiss", "vectors.npy", "passages.json", "words.json", "words.npz")
# Formats whose vectors a build reuses: format 3 only added the BM25 models.
VECTOR_FORMATS = (2, 3)
# Indexes written before the manifest named its backend were all built with torch.
LEGACY_BACKEND = "torch"


class IndexUnavailable(Unavailable):
    """Base of the index problems the service reports in one clear line."""

    code = "index_unavailable"


class MissingIndexError(IndexUnavailable):
    pass


class CorruptIndexError(IndexUnavailable):
    pass


class StaleIndexError(IndexUnavailable):
    pass


@dataclass
class VectorIndex:
    """A loaded index folder."""

    path: Path
    manifest: dict
    passages: list[Passage]
    vectors: np.ndarray
    faiss_index: faiss.Index
    # Passage kind -> its BM25 model, as built or loaded with the folder; a kind missing here
    # is built by the searcher.
    bm25: dict = field(default_factory=dict)
    # The records' words (indexer.evidence.RecordWords), or None: the searcher tokenizes.
    record_words: RecordWords | None = None

    def search(self, query_vectors: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        k = min(k, len(self.passages))
        queries = np.ascontiguousarray(query_vectors, dtype=np.float32)
        if len(queries) != 1:
            return self.faiss_index.search(queries, k)
        # One question, on one OpenMP thread: FAISS's split of many rows across threads is slower
        # on a few shared cores, and its last bits differ with the machine's cores
        # (docs/decisions.md). The setting is this thread's own, restored for what it runs next.
        import faiss

        threads = faiss.omp_get_max_threads()
        faiss.omp_set_num_threads(1)
        try:
            return self.faiss_index.search(queries, k)
        finally:
            faiss.omp_set_num_threads(threads)

    def all_scores(self, query_vector: np.ndarray) -> np.ndarray:
        """One question vector's cosine with every row of a flat index, in row order: FAISS's
        own kernel over its own vectors, the same bits `search` returns, without the heap it
        keeps of every row when asked for all (docs/decisions.md)."""
        import faiss

        # A flat index (the searcher asks no other): get_xb is its vectors; a wrong-sized query
        # is refused.
        index = cast("faiss.IndexFlat", self.faiss_index)
        query = np.ascontiguousarray(query_vector, dtype=np.float32).reshape(index.d)
        out = np.empty(index.ntotal, dtype=np.float32)
        kernels: Any = faiss  # faiss's stubs lack its SWIG kernel fvec_inner_products_ny
        kernels.fvec_inner_products_ny(
            faiss.swig_ptr(out), faiss.swig_ptr(query), index.get_xb(), index.d, index.ntotal
        )
        return out


def build_index(
    archive: Archive,
    embedder: Embedder,
    out_dir: Path = DEFAULT_INDEX,
    *,
    show_progress: bool = True,
    after_embed: Callable[[], None] | None = None,
) -> tuple[VectorIndex, dict]:
    """Build (or update) the index folder for `archive`; returns (index, build stats).

    Records whose content hash is unchanged since the previous build reuse their vectors.
    `after_embed` is a test hook called between embedding and the final rename.
    """
    if not archive.records:
        raise IndexUnavailable("the archive holds no records; nothing to index")
    out_dir = Path(out_dir)
    previous = _previous_vectors(out_dir, embedder)
    hashes = {rid: record_hash(rec) for rid, rec in archive.records.items()}
    passages: list[Passage] = []
    texts: list[str] = []
    reuse: dict[int, np.ndarray] = {}
    changed: set[str] = set()
    for rid, rec in archive.records.items():
        for passage, text in record_passages(rec):
            row = len(passages)
            passages.append(passage)
            texts.append(text)
            old = previous.get((rid, passage.lang, passage.kind, passage.n, hashes[rid]))
            if old is not None:
                reuse[row] = old
            else:
                changed.add(rid)
    todo = [i for i in range(len(passages)) if i not in reuse]
    log.info(
        "%d passages of %d records; %d records changed, embedding %d passages",
        len(passages),
        len(hashes),
        len(changed),
        len(todo),
    )
    vectors = np.zeros((len(passages), embedder.dimension), dtype=np.float32)
    for row, vec in reuse.items():
        vectors[row] = vec
    texts_todo = [passage_prefix(passages[i]) + texts[i] for i in todo]
    if todo:
        vectors[todo] = embedder.encode(texts_todo, show_progress=show_progress)
    if after_embed:
        after_embed()
    index_type = choose_index_type(len(vectors))
    faiss_index = make_faiss_index(vectors, index_type)
    bm25 = {
        kind: build_bm25(archive, passages, kind)
        for kind in BM25_KINDS
        if bm25_rows(passages, kind)
    }
    record_words = RecordWords.from_archive(archive)
    manifest = _manifest(embedder, hashes, len(passages), index_type, sorted(bm25))
    _write_folder(out_dir, manifest, passages, vectors, faiss_index, bm25, record_words)
    stats = {
        "records": len(hashes),
        "passages": len(passages),
        "changed_records": len(changed),
        "embedded_passages": len(todo),
        "reused_passages": len(reuse),
    }
    return VectorIndex(out_dir, manifest, passages, vectors, faiss_index, bm25, record_words), stats


def _manifest(
    embedder: Embedder, hashes: dict[str, str], passages: int, index_type: str, bm25: list[str]
) -> dict:
    """What the folder says of itself (its files' checksums are added as they are written)."""
    return {
        "format": FORMAT_VERSION,
        "model": embedder.name,
        "backend": embedder.backend,
        # The model export's id (ONNX: its files' checksums); None for torch and stand-ins.
        "export": getattr(embedder, "export_id", None),
        "dimension": int(embedder.dimension),
        "passage_prefix": PASSAGE_PREFIX,
        "key_prefix": QUERY_PREFIX,
        "records": len(hashes),
        "passages": passages,
        "index_type": index_type,
        "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "archive_hash": archive_hash(hashes),
        "record_hashes": hashes,
        "bm25": bm25,
    }


def _previous_vectors(out_dir: Path, embedder: Embedder) -> dict[tuple, np.ndarray]:
    """Vectors of the previous build, keyed by (record, lang, kind, n, record hash); {} if
    unusable."""
    try:
        manifest = json.loads((out_dir / "manifest.json").read_text())
        # Backends agree closely but not exactly (int8 least): vectors of another backend
        # would mix two embeddings in one index.
        # Nor are another export's (a model exported again, e.g. int8 once the table left the
        # graph, gives other vectors under the same backend name).
        if (
            manifest.get("model") != embedder.name
            or manifest.get("dimension") != embedder.dimension
            or manifest.get("backend", LEGACY_BACKEND) != embedder.backend
            or manifest.get("export") != getattr(embedder, "export_id", None)
        ):
            return {}
        rows = json.loads((out_dir / "passages.json").read_text())
        vectors = np.load(out_dir / "vectors.npy")
        hashes = manifest["record_hashes"]
        if len(rows) != len(vectors):
            return {}
        if manifest.get("format") not in VECTOR_FORMATS:
            return {}
        return {
            (
                r["record"],
                r["lang"],
                r.get("kind", "text"),
                r.get("n", 0),
                hashes[r["record"]],
            ): vectors[i]
            for i, r in enumerate(rows)
        }
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def _write_folder(
    out_dir: Path,
    manifest: dict,
    passages: list[Passage],
    vectors: np.ndarray,
    faiss_index,
    bm25: dict,
    record_words,
) -> None:
    import faiss

    out_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.building-", dir=out_dir.parent))
    try:
        faiss.write_index(faiss_index, str(tmp / "index.faiss"))
        np.save(tmp / "vectors.npy", vectors)
        (tmp / "passages.json").write_text(
            json.dumps(
                [{"record": p.record, "lang": p.lang, "kind": p.kind, "n": p.n} for p in passages],
                ensure_ascii=False,
            )
        )
        record_words.save(tmp, "words")
        for kind, model in bm25.items():
            model.save(str(tmp), show_progress=False, **_bm25_names(kind))
        manifest = dict(
            manifest, files={name: sha256_file(tmp / name) for name in (*FILES, *bm25_files(bm25))}
        )
        (tmp / "manifest.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False))
        # Swap: the old folder is moved aside first, so at every instant one complete index
        # exists under out_dir or its backup name.
        backup = out_dir.with_name(f".{out_dir.name}.old")
        if backup.exists():
            shutil.rmtree(backup)
        if out_dir.exists():
            os.replace(out_dir, backup)
        os.replace(tmp, out_dir)
        shutil.rmtree(backup, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def load_index(
    path: Path = DEFAULT_INDEX,
    archive: Archive | None = None,
    model_name: str | None = None,
    *,
    backend: str | None = None,
    export: str | None = None,
) -> VectorIndex:
    """Load an index folder, refusing a missing, corrupt or stale one with a clear message.

    A `model_name`, `backend` or model `export` (OnnxEmbedder.export_id) other than the one
    that built the index is refused like a stale archive; None skips that check.
    """
    import faiss

    path = Path(path)
    backup = path.with_name(f".{path.name}.old")
    if not path.exists() and backup.exists():
        # A build died between its two renames: the previous index is intact under the backup name.
        os.replace(backup, path)
    if not (path / "manifest.json").exists():
        raise MissingIndexError(f"no index at {path}; run `rulings build`")
    try:
        manifest = json.loads((path / "manifest.json").read_text())
        _check_files(path, manifest)
        rows = json.loads((path / "passages.json").read_text())
        passages = [
            Passage(r["record"], r["lang"], r.get("kind", "text"), r.get("n", 0)) for r in rows
        ]
        # Mapped, not read: FAISS holds its own copy for searching, and these are read only by
        # an update (a second copy of every vector in memory otherwise: 0.6 GB at 100k rulings).
        vectors = np.load(path / "vectors.npy", mmap_mode="r")
        faiss_index = faiss.read_index(str(path / "index.faiss"))
        bm25 = _load_bm25(path, manifest.get("bm25", ()))
        record_words = RecordWords.load(path, "words")
    except IndexUnavailable:
        raise
    except (OSError, ValueError, KeyError, TypeError, RuntimeError, zipfile.BadZipFile) as exc:
        raise CorruptIndexError(
            f"index at {path} is corrupt ({type(exc).__name__}: "
            f"{str(exc).splitlines()[0] if str(exc) else ''}); run `rulings build`"
        ) from None
    if (
        not (faiss_index.ntotal == len(passages) == len(vectors) == manifest["passages"])
        or faiss_index.d != manifest["dimension"]
    ):
        raise CorruptIndexError(
            f"index at {path} is corrupt: {faiss_index.ntotal} vectors of "
            f"dimension {faiss_index.d} for {len(passages)} passages; run `rulings build`"
        )
    _check_built_with(path, manifest, archive, model_name, backend, export)
    if any(bm25[kind].scores["num_docs"] != len(bm25_rows(passages, kind)) for kind in bm25):
        raise CorruptIndexError(
            f"index at {path} is corrupt: a BM25 model does not hold its passages; run `rulings build`"
        )
    if len(record_words.records) != manifest["records"]:
        raise CorruptIndexError(
            f"index at {path} is corrupt: words.json holds {len(record_words.records)} "
            f"records, not {manifest['records']}; run `rulings build`"
        )
    return VectorIndex(path, manifest, passages, vectors, faiss_index, bm25, record_words)


def _check_files(path: Path, manifest: dict) -> None:
    """The folder's format and every file against its checksum, or CorruptIndexError."""
    if manifest.get("format") != FORMAT_VERSION:
        raise CorruptIndexError(
            f"index at {path} has format {manifest.get('format')!r}, expected {FORMAT_VERSION}; run `rulings build`"
        )
    for name in (*FILES, *bm25_files(manifest.get("bm25", ()))):
        file = path / name
        if not file.exists():
            raise CorruptIndexError(
                f"index at {path} is corrupt: {name} is missing; run `rulings build`"
            )
        if sha256_file(file) != manifest["files"][name]:
            raise CorruptIndexError(
                f"index at {path} is corrupt: {name} does not match its "
                f"checksum in manifest.json; run `rulings build`"
            )


def _check_built_with(
    path: Path,
    manifest: dict,
    archive: Archive | None,
    model_name: str | None,
    backend: str | None,
    export: str | None,
) -> None:
    """StaleIndexError when the index was built with another model, backend or export, or
    from another state of the archive (None: not checked)."""
    if model_name is not None and manifest["model"] != model_name:
        raise StaleIndexError(
            f"index at {path} was built with model {manifest['model']!r}, "
            f"but the model is {model_name!r}; run `rulings build`"
        )
    built_with = manifest.get("backend", LEGACY_BACKEND)
    if backend is not None and built_with != backend:
        raise StaleIndexError(
            f"index at {path} was built with backend {built_with!r}, "
            f"but the backend is {backend!r}; run `rulings build`"
        )
    if export is not None and manifest.get("export") != export:
        raise StaleIndexError(
            f"index at {path} was built with another export of the model "
            f"(`make model` wrote new graphs since); run `rulings build`"
        )
    if archive is not None:
        current = archive_hash({rid: record_hash(rec) for rid, rec in archive.records.items()})
        if current != manifest["archive_hash"]:
            raise StaleIndexError(
                f"index at {path} is stale: the archive changed since it was built "
                f"({manifest['built_at']}); run `rulings build`"
            )
