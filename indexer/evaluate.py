"""Evaluation on a question file in the dev.yaml format.

Answerable questions (non-empty ``expect``): hit@1 (top answer in expect, declined or not),
hit@3, MRR@10, and the share wrongly declined. Unanswerable ones (``expect: []``): the share
declined. Each per language and overall.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import yaml

from indexer.errors import InvalidRequest

from indexer.search import SearchResult


class EvalFileError(InvalidRequest):
    """A question file cannot be read or has the wrong shape."""


@dataclass(frozen=True)
class Question:
    q: str
    lang: str | None
    game: str | None
    expect: tuple[str, ...]


@dataclass
class Tally:
    answerable: int = 0
    hit1: int = 0
    hit3: int = 0
    rr: float = 0.0
    wrongly_declined: int = 0
    unanswerable: int = 0
    declined: int = 0

    def figures(self) -> dict:
        a, u = self.answerable, self.unanswerable
        return {
            "answerable": a, "unanswerable": u,
            "hit@1": round(self.hit1 / a, 4) if a else None,
            "hit@3": round(self.hit3 / a, 4) if a else None,
            "mrr@10": round(self.rr / a, 4) if a else None,
            "wrongly_declined": round(self.wrongly_declined / a, 4) if a else None,
            "declined_unanswerable": round(self.declined / u, 4) if u else None,
        }


@dataclass
class EvalReport:
    overall: dict
    by_language: dict[str, dict]
    failures: list[dict] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"overall": self.overall, "by_language": self.by_language, "failures": self.failures}


def load_questions(path: Path) -> list[Question]:
    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise EvalFileError(f"{path}: cannot read questions: {str(exc).splitlines()[0]}") from None
    if not isinstance(data, list):
        raise EvalFileError(f"{path}: expected a list of questions")
    out = []
    for i, item in enumerate(data):
        if not isinstance(item, dict) or not isinstance(item.get("q"), str) \
                or not isinstance(item.get("expect", None), list):
            raise EvalFileError(f"{path}: item {i + 1}: needs 'q' (text) and 'expect' (list of ids)")
        out.append(Question(item["q"], item.get("lang"), item.get("game"), tuple(item["expect"])))
    return out


def evaluate(questions: list[Question], ask: Callable[[str], SearchResult],
             k: int = 10) -> EvalReport:
    """Run every question through `ask` (question -> SearchResult with >= k hits if possible)."""
    total = Tally()
    per_lang: dict[str, Tally] = {}
    failures = []
    for item in questions:
        result = ask(item.q)
        tallies = [total, per_lang.setdefault(item.lang or "?", Tally())]
        ids = [h.record_id for h in result.hits][:k]
        # A hit counts when any record of its edition group is expected.
        groups = [h.group for h in result.hits][:k]
        if item.expect:
            rank = next((i + 1 for i, g in enumerate(groups) if set(g) & set(item.expect)), None)
            for t in tallies:
                t.answerable += 1
                t.hit1 += rank == 1
                t.hit3 += rank is not None and rank <= 3
                t.rr += 1.0 / rank if rank else 0.0
                t.wrongly_declined += result.declined
            if rank != 1 or result.declined:
                failures.append({"q": item.q, "expect": list(item.expect), "got": ids[:3],
                                 "declined": result.declined, "reason": result.reason})
        else:
            for t in tallies:
                t.unanswerable += 1
                t.declined += result.declined
            if not result.declined:
                failures.append({"q": item.q, "expect": [], "got": ids[:3], "declined": False,
                                 "reason": result.reason})
    return EvalReport(total.figures(), {lang: t.figures() for lang, t in sorted(per_lang.items())},
                      failures)
