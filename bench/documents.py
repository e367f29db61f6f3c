"""Imported rulebooks, measured: structure of the test PDFs and retrieval on their questions.

The test rulebooks (tests/data/rulebooks/: our words, test data) are laid out as PDFs, imported
into a copy of the archive with no search keys and no translations, indexed with the real
model, and asked their questions in seven languages. Reported per language: the right
paragraph first and answered (hit@1), wrongly declined, a wrong ruling shown; beside them the
curated archive's question sets on the same grown archive, against the shipped snapshot of the
archive alone (tests/search/snapshot.json). The fit is the shipped one (in-sample for the
curated sets, out-of-sample for the books' questions, which it never saw).

    python -m bench.documents [--out build/documents.json]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import yaml

from bench.common import REPO
from indexer.archive.load import load_archive
from indexer.archive.sources.documents import import_document
from indexer.archive.sources.pdf import read_pdf
from indexer.files import write_atomic
from indexer.model.embedder import load_embedder
from indexer.search.evaluate import load_questions
from indexer.search.index import build_index
from service.engine import Engine, EngineConfig
from tests.archive.rulebooks import BOOKS, make_book, score

SNAPSHOT = REPO / "tests" / "search" / "snapshot.json"
SETS = {
    "dev": REPO.parent / "shared" / "eval" / "dev.yaml",
    "own": REPO / "bench" / "eval" / "own.yaml",
}


def _books() -> list[str]:
    return sorted(p.stem for p in BOOKS.glob("*.yaml") if p.stem != "questions")


def run_documents() -> dict:
    """Structure and retrieval figures of the imported test rulebooks."""
    work = Path(tempfile.mkdtemp(prefix="rulings-documents-"))
    try:
        root = work / "rulings"
        shutil.copytree(REPO / "rulings", root)
        structure, key_to_id = {}, {}
        started = time.perf_counter()
        for name in _books():
            pdf, truth = make_book(name, work)
            structure[name] = score(read_pdf(pdf), truth)
            result = import_document(pdf, load_archive(root), game=truth["game"])
            by_text = {rec.text: rec.id for rec in result.records}
            key_to_id.update({b["key"]: by_text.get(b["plain_text"]) for b in truth["blocks"]})
        imported_s = time.perf_counter() - started
        archive = load_archive(root)
        started = time.perf_counter()
        build_index(archive, load_embedder(), work / "index", show_progress=False)
        build_s = time.perf_counter() - started
        engine = Engine(EngineConfig(archive_dir=root, index_dir=work / "index"))
        return {
            "books": structure,
            "import_s": round(imported_s, 2),
            "build_s": round(build_s, 1),
            "records": len(archive),
            "questions": _ask_books(engine, key_to_id),
            "curated_sets": _curated(engine),
        }
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _tally(rows: list[tuple[bool, bool, bool]]) -> dict:
    n = len(rows)
    return {
        "n": n,
        "hit@1": round(sum(h for h, _, _ in rows) / n, 3) if n else None,
        "wrongly_declined": round(sum(d for _, d, _ in rows) / n, 3) if n else None,
        "wrong_ruling_shown": round(sum(w for _, _, w in rows) / n, 3) if n else None,
    }


def _ask_books(engine: Engine, key_to_id: dict) -> dict:
    """The books' questions per language: (answered right, declined, wrong shown)."""
    items = yaml.safe_load((BOOKS / "questions.yaml").read_text(encoding="utf-8"))
    per_lang: dict[str, list] = defaultdict(list)
    for item in items:
        expected = {key_to_id.get(k) for k in item["expect"]} - {None}
        answer = engine.ask(item["q"], k=3)
        top = answer["matches"][0]["id"] if answer["matches"] else None
        right = top in expected
        per_lang[item["lang"]].append(
            (
                right and not answer["declined"],
                answer["declined"],
                not answer["declined"] and not right,
            )
        )
    out = {lang: _tally(rows) for lang, rows in sorted(per_lang.items())}
    others = [r for lang, rows in per_lang.items() if lang != "en" for r in rows]
    out["other six together"] = _tally(others)
    return out


def _curated(engine: Engine) -> dict:
    """The curated archive's answerable questions: on the grown archive, and in the snapshot of
    the archive alone (same fit, same model)."""
    snapshot = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    out = {}
    for name, path in SETS.items():
        if not path.exists():
            continue
        items = [q for q in load_questions(path) if q.expect]
        before = {a["q"]: a for a in snapshot[name]}
        now, then = [], []
        for item in items:
            for rows, answer in ((now, engine.ask(item.q, k=5)), (then, before[item.q])):
                ids = [m["id"] if isinstance(m, dict) else m[0] for m in answer["matches"]]
                right = bool(ids) and bool(_group(engine, ids[0]) & set(item.expect))
                rows.append((right and not answer["declined"], answer["declined"],
                             not answer["declined"] and not right))  # fmt: skip
        out[name] = {"grown archive": _tally(now), "archive alone (snapshot)": _tally(then)}
    return out


def _group(engine: Engine, record_id: str) -> set[str]:
    return set(engine.archive.edition_group(record_id))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "build" / "documents.json")
    args = parser.parse_args(argv)
    figures = run_documents()
    write_atomic(args.out, json.dumps(figures, indent=1, ensure_ascii=False) + "\n")
    print(json.dumps(figures, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
