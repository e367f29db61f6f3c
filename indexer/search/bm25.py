"""The BM25 models (bm25s) of the passages of one kind, built in memory or saved with the index."""

from __future__ import annotations

import logging
from pathlib import Path

from indexer.archive.schema import Archive
from indexer.search.passages import Passage, bm25_rows, passage_content
from indexer.text import tokenize

# The BM25 models, one per passage kind with any passages (bm25s cannot index nothing).
BM25_KINDS = ("text", "ask")
# bm25s' file parameters (save / load) and their names, prefixed by kind in the flat folder.
BM25_FILES = {
    "data_name": "data.csc.index.npy",
    "indices_name": "indices.csc.index.npy",
    "indptr_name": "indptr.csc.index.npy",
    "vocab_name": "vocab.index.json",
    "params_name": "params.index.json",
}


def build_bm25(archive: Archive, passages: list[Passage], kind: str):
    """The BM25 model (bm25s) over the passages of one kind, each tokenized in its language."""
    import bm25s

    logging.getLogger("bm25s").setLevel(logging.WARNING)  # it logs each build at DEBUG
    corpus = [
        tokenize(passage_content(archive, passages[i]), passages[i].lang)
        for i in bm25_rows(passages, kind)
    ]
    bm25 = bm25s.BM25()
    if corpus:
        bm25.index(corpus, show_progress=False)
    return bm25


def bm25_files(kinds) -> list[str]:
    """The files of the saved BM25 models, as named in the manifest's checksums."""
    return [f"bm25-{kind}.{name}" for kind in kinds for name in BM25_FILES.values()]


def _bm25_names(kind: str) -> dict[str, str]:
    return {param: f"bm25-{kind}.{name}" for param, name in BM25_FILES.items()}


def _load_bm25(path: Path, kinds) -> dict:
    import bm25s

    logging.getLogger("bm25s").setLevel(logging.WARNING)
    return {
        kind: bm25s.BM25.load(str(path), show_progress=False, **_bm25_names(kind)) for kind in kinds
    }
