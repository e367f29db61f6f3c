"""The question adapter: a question vector moved towards the paragraphs that answer it.

e5-small's vectors of a question in one language and of the uncurated paragraph in another
that answers it sit apart by more than its cosine says, and a book's neighbouring paragraphs
sit close together. A linear map fitted on table questions and the paragraphs they expect (the
test rulebooks, held out by book) and on the curated search keys and their rulings
(``indexer.search.fit.adapter``) moves the question: ``q + q A``, normalised. Search weighs
the moved question's best cosine with an uncurated ruling's texts as one more feature when
the ruling has no text in the asker's language (`foreign_adapted`); the curated rulings, with
keys and translations, and an uncurated one asked in its own language are scored as before.
At serving time it is one product of a 384-vector by a 384 x 384 matrix in numpy.

Saved beside the calibration it was fitted with (``calibration.adapter.npy``): the reranker's
weight for the feature means nothing without the same matrix.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from indexer.files import write_atomic
from indexer.search.rulescores import per_rule


def adapter_path(calibration_path: Path) -> Path:
    """Where the adapter of the calibration at `calibration_path` is saved."""
    return calibration_path.with_name(calibration_path.stem + ".adapter.npy")


@dataclass(frozen=True, eq=False)
class QuestionAdapter:
    """``q + q A``, normalised, for a question vector `q` (A: dimension x dimension)."""

    matrix: np.ndarray

    def apply(self, vector: np.ndarray) -> np.ndarray:
        moved = vector + vector @ self.matrix
        norm = float(np.linalg.norm(moved))
        return (moved / norm if norm > 0 else vector).astype(np.float32)

    @property
    def dimension(self) -> int:
        return int(self.matrix.shape[0])

    def save(self, path: Path) -> None:
        buffer = io.BytesIO()
        np.save(buffer, self.matrix.astype(np.float32), allow_pickle=False)
        write_atomic(path, buffer.getvalue(), mode=0o644)

    @classmethod
    def load(cls, path: Path) -> QuestionAdapter:
        """The saved adapter; ValueError when the file is not a square float matrix."""
        matrix = np.load(path, allow_pickle=False)
        if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1] or matrix.dtype.kind != "f":
            raise ValueError(f"not a square matrix of floats: shape {matrix.shape}")
        return cls(matrix.astype(np.float32))


class UncuratedRows:
    """The index's text rows of the rules with no search keys (uncurated), whose cosines with
    the adapted question search weighs (`foreign_adapted`)."""

    def __init__(
        self,
        adapter: QuestionAdapter | None,
        vectors: np.ndarray,
        chosen: np.ndarray,
        row_rule: np.ndarray,
        rules: list[str],
        rule_number: dict[str, int],
    ):
        """`chosen`: a mask over the index's rows; `row_rule`: each row's rule number. An
        adapter fitted for another model's vectors (another size) is not used: no rows."""
        if adapter is None or adapter.dimension != vectors.shape[1]:
            chosen = np.zeros(len(row_rule), dtype=bool)
        self.adapter = adapter
        self.rows = np.flatnonzero(chosen)
        self.vectors = vectors[self.rows]  # a copy of a few rows: imported books are small
        self.rule = row_rule[self.rows]
        self._rules, self._rule_number = rules, rule_number

    def __len__(self) -> int:
        return len(self.rows)

    def best(self, question: np.ndarray, allowed_rules: np.ndarray) -> Mapping[str, float]:
        """Per allowed rule (a mask over the rule numbers): its texts' best cosine with the
        question's vector as the adapter moves it."""
        assert self.adapter is not None  # rows are kept only with an adapter
        keep = allowed_rules[self.rule]
        scores = self.vectors[keep] @ self.adapter.apply(question)
        # Best first, so each rule's first row is its best (a moved cosine may be negative).
        order = np.argsort(-scores, kind="stable")
        rule = self.rule[keep][order]
        return per_rule(self._rules, self._rule_number, rule, scores[order], first=True)
