"""The files of the model's ONNX export, as the serving backends read them: where each lives
and the export's id (its files' checksums)."""

from __future__ import annotations

from pathlib import Path

from indexer.model.tokenizer import SENTENCEPIECE_FILE

ONNX_DIR = "onnx"
FP32_FILE = "model.onnx"
INT8_FILE = "model_int8.onnx"
TABLE_FILE = "word_embeddings.npy"
EXPORT_FILE = "export.json"


def onnx_path(model_dir: Path, *, quantised: bool) -> Path:
    """Where the fp32 or int8 graph of `model_dir` lives."""
    return Path(model_dir) / ONNX_DIR / (INT8_FILE if quantised else FP32_FILE)


def table_path(model_dir: Path) -> Path:
    """Where the word-embedding table the graphs read their inputs from lives."""
    return Path(model_dir) / ONNX_DIR / TABLE_FILE


def pieces_path(model_dir: Path) -> Path:
    """Where the SentencePiece twin of the folder's tokenizer lives (indexer.model.tokenizer)."""
    return Path(model_dir) / ONNX_DIR / SENTENCEPIECE_FILE


def export_path(model_dir: Path) -> Path:
    """Where the export's record lives: the SHA-256 of each file it wrote (``export.json``)."""
    return Path(model_dir) / ONNX_DIR / EXPORT_FILE


def export_id(model_dir: Path, *, quantised: bool) -> str:
    """What identifies the vectors of one backend of this export: a hash of the recorded
    checksums of its graph, tokenizer and table (read from export.json, nothing hashed again).
    An index records it, so vectors of another export are never reused or served."""
    import hashlib
    import json

    files = json.loads(export_path(model_dir).read_text())["files"]
    used = [onnx_path(model_dir, quantised=quantised).name, pieces_path(model_dir).name, TABLE_FILE]
    return hashlib.sha256("|".join(f"{n}:{files[n]}" for n in used).encode()).hexdigest()[:16]


def onnx_complete(model_dir: Path) -> bool:
    """True if both graphs and the table exist. Each is renamed into place only once fully
    written, so a file under its final name is a finished one. (A folder exported before the
    table left the graphs has no table: its graphs take token ids and are exported again.)"""
    return (
        table_path(model_dir).is_file()
        and pieces_path(model_dir).is_file()
        and export_path(model_dir).is_file()
        and all(onnx_path(model_dir, quantised=q).is_file() for q in (False, True))
    )
