"""Evaluation on a question file in the dev.yaml format.

Answerable questions (non-empty ``expect``): hit@1 (top answer in expect, declined or not),
hit@3, MRR@10, and the share wrongly declined. Unanswerable ones (``expect: []``): the share
declined. Each per language and overall.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from indexer.errors import InvalidRequest
from indexer.search.results import SearchResult


class EvalFileError(InvalidRequest):
    """A question file cannot be read or has the wrong shape."""


@dataclass(frozen=True)
class LabelledQuestion:
    q: str
    lang: str | None
    game: str | None
    expect: tuple[str, ...]


@dataclass
class Tally:
    """Counts for one slice of questions (overall, a language, a question set)."""

    answerable: int = 0
    hit1: int = 0
    hit3: int = 0
    rr: float = 0.0
    wrongly_declined: int = 0
    wrong_shown: int = 0
    unanswerable: int = 0
    declined: int = 0

    def add(
        self, expect: tuple[str, ...], groups: list[tuple[str, ...]], declined: bool, k: int = 10
    ) -> int | None:
        """Count one question (its ranked edition groups); returns the rank of the first right
        group (None when none is in the top k). A hit counts when any record of the group is
        expected."""
        if not expect:
            self.unanswerable += 1
            self.declined += declined
            return None
        rank = next((i + 1 for i, g in enumerate(groups[:k]) if set(g) & set(expect)), None)
        self.answerable += 1
        self.hit1 += rank == 1
        self.hit3 += rank is not None and rank <= 3
        self.rr += 1.0 / rank if rank else 0.0
        self.wrongly_declined += declined
        self.wrong_shown += (not declined) and rank != 1
        return rank

    def figures(self) -> dict:
        a, u = self.answerable, self.unanswerable
        share = lambda n, d: round(n / d, 4) if d else None  # noqa: E731
        return {
            "answerable": a,
            "unanswerable": u,
            "hit@1": share(self.hit1, a),
            "hit@3": share(self.hit3, a),
            "mrr@10": share(self.rr, a),
            "wrongly_declined": share(self.wrongly_declined, a),
            "wrong_ruling_shown": share(self.wrong_shown, a),
            "declined_unanswerable": share(self.declined, u),
        }


@dataclass
class EvalReport:
    overall: dict
    by_language: dict[str, dict]
    failures: list[dict] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"overall": self.overall, "by_language": self.by_language, "failures": self.failures}


def load_questions(path: Path) -> list[LabelledQuestion]:
    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise EvalFileError(f"{path}: cannot read questions: {str(exc).splitlines()[0]}") from None
    if not isinstance(data, list):
        raise EvalFileError(f"{path}: expected a list of questions")
    out = []
    for i, item in enumerate(data):
        if (
            not isinstance(item, dict)
            or not isinstance(item.get("q"), str)
            or not isinstance(item.get("expect", None), list)
        ):
            raise EvalFileError(
                f"{path}: item {i + 1}: needs 'q' (text) and 'expect' (list of ids)"
            )
        out.append(
            LabelledQuestion(item["q"], item.get("lang"), item.get("game"), tuple(item["expect"]))
        )
    return out


def evaluate(
    questions: list[LabelledQuestion], ask: Callable[[str], SearchResult], k: int = 10
) -> EvalReport:
    """Run every question through `ask` (question -> SearchResult with >= k hits if possible)."""
    total = Tally()
    per_lang: dict[str, Tally] = {}
    failures = []
    for item in questions:
        result = ask(item.q)
        ids = [h.record_id for h in result.hits][:k]
        groups = [h.group for h in result.hits][:k]
        for t in (total, per_lang.setdefault(item.lang or "?", Tally())):
            rank = t.add(item.expect, groups, result.declined, k)
        if (item.expect and (rank != 1 or result.declined)) or (
            not item.expect and not result.declined
        ):
            failures.append(
                {
                    "q": item.q,
                    "expect": list(item.expect),
                    "got": ids[:3],
                    "declined": result.declined,
                    "reason": result.reason,
                }
            )
    return EvalReport(
        total.figures(), {lang: t.figures() for lang, t in sorted(per_lang.items())}, failures
    )
