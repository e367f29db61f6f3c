"""Imported rulebooks, measured: structure of the test PDFs and retrieval on their questions.

The test rulebooks (tests/data/rulebooks/: our words, test data) are laid out as PDFs, imported
into a copy of the archive with no search keys and no translations, indexed with the real
model, and asked their questions in seven languages. Reported per language: the right
paragraph first and answered (hit@1), wrongly declined, a wrong ruling shown; beside them the
curated archive's question sets on the same grown archive, against the shipped snapshot of the
archive alone (tests/search/snapshot.json). The shipped fit learnt from these books' questions
(indexer/search/fit/books.py), so its figures are in-sample; the held-out ones refit without each
question's book and curated fold (`questions_held_out`).

`run_large` times a 300-page rulebook (the test books repeated in parts): its import, the
build that embeds it, importing it again, and a new printing with one paragraph changed.

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
from dataclasses import replace
from functools import cache
from pathlib import Path

import yaml

from bench.common import REPO
from indexer.archive.load import load_archive
from indexer.archive.sources.documents import import_document
from indexer.archive.sources.pdf import read_pdf
from indexer.files import write_atomic
from indexer.model.embedder import Embedder, load_embedder
from indexer.paths import DEFAULT_BOOKS, DEFAULT_QUESTION_SETS
from indexer.search.evaluate import LabelledQuestion, load_questions
from indexer.search.fit.adapter import fold_adapters
from indexer.search.fit.books import BookRows, cross_validate_with_books, read_books
from indexer.search.fit.models import collect
from indexer.search.index import build_index
from indexer.search.searcher import Searcher
from service.computed import cited_by_questions
from service.engine import Engine, EngineConfig
from service.evidence import build_sentence_cache, sentence_cache_path
from tests.archive.rulebooks import (
    BOOKS,
    MENDED,
    book_names,
    make_book,
    make_large_book,
    matched_blocks,
    score,
)

SNAPSHOT = REPO / "tests" / "search" / "snapshot.json"
SETS = {
    "dev": REPO.parent / "shared" / "eval" / "dev.yaml",
    "own": REPO / "bench" / "eval" / "own.yaml",
}


def run_documents() -> dict:
    """Structure and retrieval figures of the imported test rulebooks."""
    work = Path(tempfile.mkdtemp(prefix="rulings-documents-"))
    try:
        embedder = load_embedder()
        root = work / "rulings"
        shutil.copytree(REPO / "rulings", root)
        structure, key_to_id = {}, {}
        started = time.perf_counter()
        for name in book_names():
            document, book_keys = _import_book(name, root, work)
            structure[name] = document
            key_to_id.update({(name, key): rid for key, rid in book_keys.items()})
        imported_s = time.perf_counter() - started
        archive = load_archive(root)
        started = time.perf_counter()
        build_index(archive, embedder, work / "index", show_progress=False)
        build_s = time.perf_counter() - started
        engine = Engine(EngineConfig(archive_dir=root, index_dir=work / "index"))
        alone, held_out = _ask_each_book_alone(embedder, work / "alone")
        return {
            "books": structure,
            "layouts": run_layouts(work / "layouts"),
            "import_s": round(imported_s, 2),
            "build_s": round(build_s, 1),
            "records": len(archive),
            "questions_each_book_alone": alone,
            "questions_held_out": held_out,
            "questions": _per_language(_ask_books(engine, key_to_id)),
            "curated_sets": _curated(engine),
        }
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _import_book(name: str, root: Path, work: Path) -> tuple[dict, dict[str, str | None]]:
    """One test book laid out, read and imported into the archive at `root`: its structure
    score, and each of its blocks' key -> the id of the record the reader made of it."""
    pdf, truth = make_book(name, work)
    document = read_pdf(pdf)
    result = import_document(pdf, load_archive(root), game=truth["game"])
    by_text = {rec.text: rec.id for rec in result.records}
    # A question's paragraph is the record of the block the scorer matched to it (its text as
    # written or as printed), not only a record of the text as written.
    matched = zip(truth["blocks"], matched_blocks(document, truth))
    keys = {b["key"]: by_text.get(document.blocks[i].text) for b, i in matched if i is not None}
    return score(document, truth), keys


def _ask_each_book_alone(embedder: Embedder, work: Path) -> tuple[dict, dict]:
    """Each book imported alone into a copy of the archive, as a community imports its own
    rulebook, and asked its own questions (the books are rewrites of neighbouring rules: all
    together, one book's paragraph answers another's question): the shipped fit's figures,
    and the held-out ones (`_held_out`) from the same imports."""
    rows: dict[str, list] = defaultdict(list)
    root, index = work / "rulings", work / "index"
    shutil.copytree(REPO / "rulings", root)
    # One index folder for every book: the archive's vectors are embedded once.
    build_index(load_archive(root), embedder, index, show_progress=False)
    plain = Engine(EngineConfig(archive_dir=root, index_dir=index)).searcher
    sets = {
        Path(p).stem: load_questions(REPO / p) for p in DEFAULT_QUESTION_SETS if (REPO / p).exists()
    }
    curated = [item for items in sets.values() for item in items]
    texts = [item.q for item in curated] + [q["q"] for q in _book_questions()]
    cited = cited_by_questions(plain, texts)  # the checker cites curated rulings alone
    curated_rows = [r for name, items in sets.items() for r in collect(plain, items, name, cited)]
    answerable = [q for q in curated if q.expect]
    # The held-out rows are scored with a question adapter that never saw their book (the
    # shipped one saw every book), fitted on the books' own text as `rulings calibrate` does.
    _, adapters, _ = fold_adapters(embedder, read_books(DEFAULT_BOOKS), plain.archive)
    book_rows = []
    for name in book_names():
        shutil.rmtree(root, ignore_errors=True)
        shutil.copytree(REPO / "rulings", root)
        _, keys = _import_book(name, root, work)
        build_index(load_archive(root), embedder, index, show_progress=False)
        engine = Engine(EngineConfig(archive_dir=root, index_dir=index))
        asked = _ask_books(engine, {(name, key): rid for key, rid in keys.items()}, book=name)
        shipped = engine.searcher
        unseen = replace(shipped.calibration, adapter=adapters[name])
        held_out = Searcher(shipped.archive, shipped.index, shipped.embedder, unseen)
        for lang, got in asked.items():
            rows[lang] += got
        questions = [
            LabelledQuestion(q["q"], q["lang"], None,
                             tuple(sorted({rid for k in q["expect"] if (rid := keys.get(k))})))
            for q in _book_questions() if q["book"] == name
        ]  # fmt: skip
        book_rows.append(
            BookRows(
                name,
                collect(held_out, questions, name, cited),
                collect(held_out, answerable, f"curated with {name}", cited),
            )
        )
    return _per_language(rows), _held_out(curated_rows, book_rows)


def _held_out(curated_rows: list, book_rows: list) -> dict:
    """The books' questions with a fit made without their book's fold and without their
    question's fold (`cross_validate_with_books`), beside the curated sets held out alike."""
    figures = cross_validate_with_books(curated_rows, book_rows)

    def row(t: dict) -> dict:
        answered = 1 - t["wrongly_declined"] - t["wrong_ruling_shown"]
        return {
            "n": t["answerable"],
            "first": round(t["hit@1"], 3),
            "hit@1": round(answered, 3),
            "wrongly_declined": round(t["wrongly_declined"], 3),
            "wrong_ruling_shown": round(t["wrong_ruling_shown"], 3),
        }

    books = figures["books"]
    return {
        "en": row(books["english"]),
        "other six together": row(books["other six together"]),
        "curated sets, the archive alone": row(figures["overall"]),
        "curated sets, one book imported": row(figures["curated_with_a_book"]),
        "book_folds": books["book_folds"],
    }


def run_layouts(folder: Path) -> dict:
    """Every test book laid out in every layout style and read: per style, the blocks found
    whole, with the right page and section, and extra, over the books the style can lay out
    (most pairs of a book and a style were never read before)."""
    from tests.archive.rulebooks import _maker

    folder.mkdir(parents=True, exist_ok=True)
    out: dict = {}
    # The LaTeX layout (latex_pdf.py, beside make_pdf.py) lays out any book too: its pairs
    # were first read all at once, unseen (docs/decisions.md).
    for style in (*_maker().STYLES, "latex"):
        row = {"books": 0, "not_laid_out": 0, "perfect": 0, "blocks": 0, "whole": 0,
               "right_page_and_section": 0, "extra": 0}  # fmt: skip
        for name in book_names():
            try:
                pdf, truth = make_book(name, folder, style=style)
            except Exception:  # noqa: BLE001 (the generator's own limits: a box too tall)
                row["not_laid_out"] += 1
                continue
            got = score(read_pdf(pdf), truth)
            row["books"] += 1
            for key in ("blocks", "whole", "right_page_and_section", "extra"):
                row[key] += got[key]
            row["perfect"] += not got["missed"] and not got["extra"]
        out[style] = row
    return out


def run_large(embedder: Embedder | None = None, pages: int = 300) -> dict:
    """A `pages`-page rulebook into a copy of the archive: import, build, import again, and a
    new printing with one paragraph changed (seconds, and what each import wrote)."""
    embedder = embedder or load_embedder()
    work = Path(tempfile.mkdtemp(prefix="rulings-large-"))
    try:
        root = work / "rulings"
        shutil.copytree(REPO / "rulings", root)
        pdf, truth = make_large_book(work, pages)
        out: dict = {"pages": truth["pages"], "blocks": len(truth["blocks"])}
        index_dir = work / "index"
        archive = load_archive(root)  # the archive alone, built first: its vectors are reused
        build_index(archive, embedder, index_dir, show_progress=False)
        build_sentence_cache(archive, embedder, sentence_cache_path(index_dir))
        for step in ("import", "again", "new printing"):
            if step == "new printing":
                # The printing's one change: a paragraph reworded (the PDF laid out again).
                _reword_first_paragraph(pdf)
            started = time.perf_counter()
            result = import_document(pdf, load_archive(root), game=truth["game"])
            imported_s = time.perf_counter() - started
            started = time.perf_counter()
            archive = load_archive(root)
            _, stats = build_index(archive, embedder, index_dir, show_progress=False)
            built_s = time.perf_counter() - started
            # `rulings build` also embeds the sentences the deciding sentence is picked among.
            started = time.perf_counter()
            build_sentence_cache(archive, embedder, sentence_cache_path(index_dir))
            out[step] = {
                "import_s": round(imported_s, 1),
                "build_s": round(built_s, 1),
                "sentences_s": round(time.perf_counter() - started, 1),
                "written": len(result.written),
                "updated": len(result.updated),
                "unchanged": len(result.unchanged),
                "removed": len(result.removed),
                "embedded_passages": stats["embedded_passages"],
            }
        return out
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _reword_first_paragraph(pdf: Path) -> None:
    from tests.archive.rulebooks import _maker

    book = json.loads(pdf.with_suffix(".book.json").read_text(encoding="utf-8"))
    first = next(b for b in book["blocks"] if b["type"] == "paragraph")
    first["text"] = first["text"].replace(" (Part 1.)", " (Part 1, second printing.)")
    _maker().build_pdf(book, pdf, "a")


def _tally(rows: list[tuple[bool, bool, bool]]) -> dict:
    n = len(rows)
    return {
        "n": n,
        "hit@1": round(sum(h for h, _, _ in rows) / n, 3) if n else None,
        "wrongly_declined": round(sum(d for _, d, _ in rows) / n, 3) if n else None,
        "wrong_ruling_shown": round(sum(w for _, _, w in rows) / n, 3) if n else None,
    }


def _ask_books(engine: Engine, key_to_id: dict, book: str | None = None) -> dict[str, list]:
    """The books' questions (or one book's) per language: (answered right, declined, wrong
    shown) for each."""
    per_lang: dict[str, list] = defaultdict(list)
    for item in _book_questions():
        if book is not None and item["book"] != book:
            continue
        expected = {key_to_id.get((item["book"], k)) for k in item["expect"]} - {None}
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
    return per_lang


@cache
def _book_questions() -> list[dict]:
    """The books' questions, read once for every archive that asks them."""
    return yaml.safe_load((BOOKS / "questions.yaml").read_text(encoding="utf-8"))


def _per_language(per_lang: dict[str, list]) -> dict:
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


def render(figures: dict) -> list[str]:
    """The bench report's section on imported rulebooks (markdown lines)."""
    f = lambda v: "–" if v is None else (f"{v:.3f}" if isinstance(v, float) else str(v))  # noqa: E731
    tally = lambda t: " | ".join(  # noqa: E731
        f(t[c]) for c in ("n", "hit@1", "wrongly_declined", "wrong_ruling_shown")
    )
    untuned = [name for name in figures["books"] if name not in MENDED]
    out = [
        "## Imported rulebooks",
        "",
        "The test rulebooks (tests/data/rulebooks: our words about rules the archive does not "
        "hold, laid out as PDFs, each in its book's layout style) read by the PDF reader "
        "and scored against their ground truth: each paragraph and boxed example found whole "
        "(its text exactly once), then its printed page and section path compared. The reader "
        "was developed on frosthaven-extra and gloomhaven-extra; each later book was read "
        "unseen once (its figures then are in tests/archive/rulebooks.py), then the reader was "
        "mended on it. "
        + (
            f"Not tuned on: {', '.join(f'`{n}`' for n in untuned)}."
            if untuned
            else "Every book has been tuned on."
        ),
        "",
        "| book | blocks | whole | right page and section | kind right | extra blocks |",
        "|---|---|---|---|---|---|",
    ]
    for name, b in figures["books"].items():
        out.append(
            f"| {name} | {b['blocks']} | {b['whole']} | {b['right_page_and_section']} | "
            f"{b['kind']} | {b['extra']} |"
        )
    if figures.get("layouts"):
        out += [
            "",
            "Every book laid out in every layout style and read (the reader saw most of these "
            "pairs of a text and a layout for the first time here; a style's generator cannot "
            "lay out every book):",
            "",
            "| style | books | perfect | blocks | whole | right page and section | extra blocks |",
            "|---|---|---|---|---|---|---|",
        ]
        for style, r in figures["layouts"].items():
            missing = f" (+{r['not_laid_out']} not laid out)" if r["not_laid_out"] else ""
            out.append(
                f"| {style} | {r['books']}{missing} | {r['perfect']} | {r['blocks']} | "
                f"{r['whole']} | {r['right_page_and_section']} | {r['extra']} |"
            )
    held = figures.get("questions_held_out")
    if held:
        out += [
            "",
            "Imported with no search keys and no translations, and asked the books' questions. "
            "The fit learns what an uncurated paragraph's scores mean from these books "
            "(`rulings calibrate`, indexer/search/fit/books.py), so the shipped fit is in-sample "
            "for them; these figures are held out: each book imported alone into a copy of "
            "the archive, and every question measured with a fit refitted without its book "
            f"(the books in {held['book_folds']} folds) and without its question (the curated "
            "sets in 5 folds). Targets: the right paragraph first for >= 0.85 in English and "
            ">= 0.60 in the six others together, a wrong ruling shown no more often than on "
            "the curated archive. *First*: the right paragraph ranked first; *answered*: "
            "ranked first and not declined.",
            "",
            "| questions (held out) | n | first | answered | wrongly declined | "
            "wrong ruling shown |",
            "|---|---|---|---|---|---|",
        ]
        out += [
            f"| {name} | {t['n']} | {f(t['first'])} | {f(t['hit@1'])} | "
            f"{f(t['wrongly_declined'])} | {f(t['wrong_ruling_shown'])} |"
            for name, t in held.items()
            if isinstance(t, dict)
        ]
    out += [
        "",
        "The shipped fit (in-sample for the books' questions), through the engine: a question "
        "is right (hit@1) when its book's paragraph comes first and is answered. Each book "
        "alone: imported into a copy of the archive by itself, as a community imports its "
        "own rulebook. All together: every book in one "
        f"archive ({figures['records']} records, imported in {figures['import_s']} s, indexed "
        f"in {figures['build_s']} s), where the books, rewrites of neighbouring rules, answer "
        "each other's questions.",
        "",
        "| questions | n | each book alone: hit@1 | wrongly declined | wrong ruling shown | "
        "all together: hit@1 | wrongly declined | wrong ruling shown |",
        "|---|---|---|---|---|---|---|---|",
    ]
    alone = figures.get("questions_each_book_alone", {})
    for lang, t in figures["questions"].items():
        a = alone.get(lang)
        left = tally(a) if a else f"{t['n']} | – | – | –"
        out.append(f"| {lang} | {left} | {tally(t).split(' | ', 1)[1]} |")
    out += [
        "",
        "The curated archive's answerable questions on the grown archive, beside the archive "
        "alone (tests/search/snapshot.json; same fit, in-sample for these sets):",
        "",
        "| set | archive | n | hit@1 | wrongly declined | wrong ruling shown |",
        "|---|---|---|---|---|---|",
    ]
    out += [
        f"| {name} | {which} | {tally(t)} |"
        for name, both in figures["curated_sets"].items()
        for which, t in both.items()
    ]
    large = figures.get("large")
    if large:
        out += [
            "",
            f"A {large['pages']}-page rulebook ({large['blocks']} paragraphs and boxes: the "
            "test books repeated in parts) into a copy of the archive: `rulings import`, then "
            "`rulings build` (the index, then the sentences of the deciding sentence); then the "
            "same file again, then a new printing with one paragraph reworded.",
            "",
            "| step | import s | index s | sentences s | written | updated | unchanged | "
            "removed | passages embedded |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for step in ("import", "again", "new printing"):
            t = large[step]
            out.append(
                f"| {step} | {t['import_s']} | {t['build_s']} | {t['sentences_s']} | "
                f"{t['written']} | {t['updated']} | {t['unchanged']} | {t['removed']} | "
                f"{t['embedded_passages']} |"
            )
    return [*out, ""]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "build" / "documents.json")
    args = parser.parse_args(argv)
    figures = run_documents()
    figures["large"] = run_large()
    write_atomic(args.out, json.dumps(figures, indent=1, ensure_ascii=False) + "\n")
    print(json.dumps(figures, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
