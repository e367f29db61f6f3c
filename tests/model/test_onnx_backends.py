"""The ONNX backends: serving without torch, the backend recorded in the index, the query cache."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from indexer.model.embedder import QueryCache, backend_setting, encode_queries, normalise_question
from indexer.model.settings import BACKENDS, ModelError
from tests.conftest import REPO


class CountingEmbedder:
    """A stand-in model: a deterministic vector per text, and a count of encode calls."""

    name = "counting"
    dimension = 8

    def __init__(self, backend: str = "onnx", cache_size: int = 16):
        self.backend = backend
        self.calls = 0
        self.query_cache = QueryCache(cache_size)

    def encode(self, texts, *, batch_size=32, show_progress=False):
        self.calls += 1
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for i, text in enumerate(texts):
            rng = np.random.default_rng(abs(hash(text)) % 2**32)
            v = rng.normal(size=self.dimension)
            out[i] = v / np.linalg.norm(v)
        return out


# -- the query cache --------------------------------------------------------------------------
def test_cache_returns_the_same_vector_for_the_normalised_question():
    embedder = CountingEmbedder()
    first = encode_queries(embedder, ["How many  cards?"])
    again = encode_queries(embedder, ["  HOW MANY cards?\n"])
    width = encode_queries(embedder, ["ＨＯＷ many cards?"])  # full-width letters: NFKC
    assert embedder.calls == 1
    np.testing.assert_array_equal(first, again)
    np.testing.assert_array_equal(first, width)
    assert embedder.query_cache.hits == 2
    assert normalise_question(" Ｆoo\tBAR ") == "foo bar"


def test_cache_hands_out_copies():
    embedder = CountingEmbedder()
    first = encode_queries(embedder, ["a question"])
    first[:] = 0.0
    assert np.linalg.norm(encode_queries(embedder, ["a question"])) == pytest.approx(1.0)


def test_cache_stays_bounded_and_evicts_the_least_recently_used():
    embedder = CountingEmbedder(cache_size=3)
    for q in ("one", "two", "three"):
        encode_queries(embedder, [q])
    encode_queries(embedder, ["one"])  # "one" is now the most recent
    encode_queries(embedder, ["four"])  # evicts "two"
    assert len(embedder.query_cache) == 3
    calls = embedder.calls
    encode_queries(embedder, ["one"])
    assert embedder.calls == calls  # still cached
    encode_queries(embedder, ["two"])
    assert embedder.calls == calls + 1  # was evicted
    assert len(embedder.query_cache) == 3


def test_cache_is_not_used_for_batches_or_when_disabled():
    embedder = CountingEmbedder(cache_size=0)
    encode_queries(embedder, ["q"])
    encode_queries(embedder, ["q"])
    assert embedder.calls == 2 and len(embedder.query_cache) == 0
    cached = CountingEmbedder()
    encode_queries(cached, ["a", "b"])
    assert len(cached.query_cache) == 0


def test_cache_under_threads_stays_bounded_and_consistent():
    embedder = CountingEmbedder(cache_size=50)
    questions = [f"question {i % 80}" for i in range(2000)]
    expected = {q: embedder.encode(["query: " + q])[0] for q in set(questions)}
    errors = []

    def worker(chunk):
        for q in chunk:
            if not np.array_equal(encode_queries(embedder, [q])[0], expected[q]):
                errors.append(q)

    threads = [threading.Thread(target=worker, args=(questions[i::8],)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(embedder.query_cache) <= 50


def test_backend_setting(monkeypatch):
    monkeypatch.setenv("RULINGS_BACKEND", "ONNX-int8")
    assert backend_setting() == "onnx-int8"
    monkeypatch.setenv("RULINGS_BACKEND", "tensorflow")
    with pytest.raises(ModelError, match="RULINGS_BACKEND='tensorflow' is not a backend"):
        backend_setting()
    monkeypatch.delenv("RULINGS_BACKEND")
    assert backend_setting() in BACKENDS


# -- the backend in the index -----------------------------------------------------------------
@pytest.fixture()
def fake_index(tmp_path, archive):
    from indexer.search.index import build_index

    path = tmp_path / "index"
    build_index(archive, CountingEmbedder("onnx"), path, show_progress=False)
    return path


def test_manifest_records_the_backend_and_a_mismatch_is_refused(fake_index, archive):
    from indexer.search.index import StaleIndexError, load_index

    assert json.loads((fake_index / "manifest.json").read_text())["backend"] == "onnx"
    load_index(fake_index, archive, "counting", backend="onnx")
    load_index(fake_index, archive, "counting")  # backend=None: no check (old call sites)
    with pytest.raises(
        StaleIndexError,
        match="built with backend 'onnx', but the backend is 'onnx-int8'; run `rulings build`",
    ):
        load_index(fake_index, archive, "counting", backend="onnx-int8")


def test_index_without_backend_field_counts_as_torch(fake_index, archive):
    from indexer.search.index import StaleIndexError, load_index

    manifest = json.loads((fake_index / "manifest.json").read_text())
    del manifest["backend"]
    (fake_index / "manifest.json").write_text(json.dumps(manifest))
    load_index(fake_index, archive, backend="torch")
    with pytest.raises(StaleIndexError, match="backend 'torch'"):
        load_index(fake_index, archive, backend="onnx")


def test_vectors_are_reused_only_for_the_same_backend(fake_index, archive):
    from indexer.search.index import build_index

    _, same = build_index(archive, CountingEmbedder("onnx"), fake_index, show_progress=False)
    assert same["embedded_passages"] == 0 and same["reused_passages"] == same["passages"]
    _, other = build_index(archive, CountingEmbedder("torch"), fake_index, show_progress=False)
    assert other["reused_passages"] == 0 and other["embedded_passages"] == other["passages"]


def test_vectors_of_another_export_are_neither_reused_nor_served(tmp_path, archive):
    """A model exported again (other graphs, same backend name) gives other vectors: the index
    records the export, a build re-embeds for another one and a load refuses it."""
    from indexer.search.index import StaleIndexError, build_index, load_index

    first = CountingEmbedder("onnx")
    first.export_id = "export-a"
    path = tmp_path / "index"
    build_index(archive, first, path, show_progress=False)
    assert json.loads((path / "manifest.json").read_text())["export"] == "export-a"
    load_index(path, archive, "counting", backend="onnx", export="export-a")
    with pytest.raises(StaleIndexError, match="another export of the model .*run `rulings build`"):
        load_index(path, archive, "counting", backend="onnx", export="export-b")
    again = CountingEmbedder("onnx")
    again.export_id = "export-b"
    _, stats = build_index(archive, again, path, show_progress=False)
    assert stats["reused_passages"] == 0 and stats["embedded_passages"] == stats["passages"]


@pytest.mark.slow
def test_the_onnx_export_id_differs_between_fp32_and_int8(onnx_export_dir):
    from indexer.model.export_files import export_id

    ids = {export_id(onnx_export_dir, quantised=q) for q in (False, True)}
    assert len(ids) == 2 and all(len(i) == 16 for i in ids)


@pytest.fixture(scope="session")
def onnx_export_dir(embedder):
    from indexer.model.embedder import model_setting

    folder = Path(model_setting())
    if not (folder / "onnx" / "export.json").is_file():
        pytest.skip("no ONNX export (the torch backend's session)")
    return folder


# -- serving without torch (real model) -------------------------------------------------------
SERVE_WITHOUT_TORCH = """
import sys
from service.http.app import create_app
app = create_app({"INDEX_DIR": sys.argv[1], "EAGER_LOAD": True})
engine = app.extensions["rulings_engine"]
assert engine.searcher.embedder.backend == sys.argv[2], engine.searcher.embedder.backend
response = app.test_client().get("/v1/ask", query_string={"q": "How many cards can I hold in my hand?"})
assert response.status_code == 200, response.get_json()
assert response.get_json()["matches"], response.get_json()
loaded = sorted(m for m in ("torch", "sentence_transformers", "transformers", "tokenizers")
                if m in sys.modules)
print("LOADED", loaded)
"""


@pytest.mark.slow
def test_serving_with_onnx_imports_no_torch(archive, embedder, index_dir, tmp_path):
    """A fresh process builds the app with an ONNX backend and answers an ask, never importing
    torch, transformers, sentence-transformers or tokenizers (SentencePiece tokenizes)."""
    from indexer.model.embedder import load_embedder, model_setting
    from indexer.search.index import build_index

    if embedder.backend.startswith("onnx"):
        backend, index = embedder.backend, index_dir  # the session's index is an ONNX one
    else:
        backend, index = "onnx", tmp_path / "index"
        build_index(archive, load_embedder(model_setting(), backend), index, show_progress=False)
    env = dict(os.environ, RULINGS_BACKEND=backend, TOKENIZERS_PARALLELISM="false")
    run = subprocess.run(
        [sys.executable, "-c", SERVE_WITHOUT_TORCH, str(index), backend],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert "LOADED []" in run.stdout, run.stdout


# -- the exported folder: graphs, SentencePiece tokenizer, word-embedding table ---------------
def test_an_export_without_its_table_is_not_complete(tmp_path):
    """The table follows the graphs, export.json comes last: graphs without them (an
    interrupted export, or one from before the table left the graphs, whose graphs took token
    ids) are exported again."""
    from indexer.model.export_files import (
        export_path,
        onnx_complete,
        onnx_path,
        pieces_path,
        table_path,
    )

    for path in (
        onnx_path(tmp_path, quantised=False),
        onnx_path(tmp_path, quantised=True),
        pieces_path(tmp_path),
    ):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"x")
    assert not onnx_complete(tmp_path)
    table_path(tmp_path).write_bytes(b"x")
    assert not onnx_complete(tmp_path)
    export_path(tmp_path).write_text("{}")
    assert onnx_complete(tmp_path)


def test_a_folder_without_its_table_is_refused_in_one_line(tmp_path):
    from indexer.model.embedder import OnnxEmbedder
    from indexer.model.export_files import onnx_path

    onnx_path(tmp_path, quantised=False).parent.mkdir(parents=True)
    onnx_path(tmp_path, quantised=False).write_bytes(b"x")
    with pytest.raises(ModelError, match=r"tokenizer.model does not exist; run `make model`"):
        OnnxEmbedder(str(tmp_path), cache_size=0)


@pytest.mark.slow
def test_the_word_table_is_mapped_read_only_not_loaded(embedder):
    """Workers share the table's pages through the page cache; only the rows read are resident."""
    if not embedder.backend.startswith("onnx"):
        pytest.skip("the torch backend has no table")
    table = embedder._table
    assert isinstance(table, np.memmap) and not table.flags.writeable
    assert table.shape[1] == embedder.dimension
