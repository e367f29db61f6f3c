"""Search results pinned: every question of every set the project holds, answered by the real
model and index, must give exactly what the snapshot holds (ids, scores, decisions, computed
answers). A change meant to keep search as it is proves it here; a change meant to alter it
rewrites the snapshot on purpose and says so:

    RULINGS_WRITE_SNAPSHOT=1 .venv/bin/python -m pytest tests/search/test_snapshot.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.conftest import REPO, SHARED

SNAPSHOT = Path(__file__).with_name("snapshot.json")
QUESTION_SETS = {
    "dev": SHARED / "eval" / "dev.yaml",
    "dev-outside": SHARED / "eval" / "dev-outside.yaml",
    "own": REPO / "bench" / "eval" / "own.yaml",
    "own-outside": REPO / "bench" / "eval" / "own-outside.yaml",
}


def _essentials(answer: dict) -> dict:
    """What search decides for a question: no timings, no labels made from it."""
    computed = answer["computed"]
    return {
        "lang": answer["lang"],
        "game": answer["game"],
        "declined": answer["declined"],
        "reason": answer["reason"],
        "matches": [[m["id"], m["score"]] for m in answer["matches"]],
        "computed": None
        if computed is None
        else {
            "check": computed["check"],
            "input": computed["input"],
            "summary": computed["summary"],
            "missing": computed["missing"],
            "rulings": (computed["result"] or {}).get("rulings"),
        },
    }


def present_sets() -> dict:
    """The question sets there are: the shared ones sit beside the repository, not in it."""
    return {name: path for name, path in QUESTION_SETS.items() if path.exists()}


def snapshot_of(engine) -> str:
    from indexer.search.evaluate import load_questions

    out = {}
    for name, path in present_sets().items():
        out[name] = [
            dict(q=item.q, **_essentials(engine.ask(item.q, k=5))) for item in load_questions(path)
        ]
    return json.dumps(out, indent=1, ensure_ascii=False, sort_keys=True) + "\n"


def test_search_results_equal_the_snapshot(engine):
    current = snapshot_of(engine)
    if os.environ.get("RULINGS_WRITE_SNAPSHOT") == "1":
        missing = sorted(set(QUESTION_SETS) - set(present_sets()))
        assert not missing, f"the snapshot needs every question set; missing: {missing}"
        SNAPSHOT.write_text(current, encoding="utf-8")
        pytest.skip("snapshot written")
    then = {
        name: answers
        for name, answers in json.loads(SNAPSHOT.read_text(encoding="utf-8")).items()
        if name in present_sets()
    }
    assert then, "no question set of the snapshot is present"
    now = json.loads(current)
    if now != then:
        changed = [
            f"{name}: {a['q']!r}" for name in then for a, b in zip(now[name], then[name]) if a != b
        ]
        pytest.fail(
            f"{len(changed)} question(s) answered differently from the snapshot, e.g. "
            + "; ".join(changed[:5])
        )
