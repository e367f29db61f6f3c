"""`rulings import`, `lint`, `build`, `eval` and `calibrate`: the archive, its index and search's fit."""

from __future__ import annotations

import json
from pathlib import Path

import click

from indexer.archive.load import check_archive
from indexer.language import LANGUAGES
from service.cli.common import Failure, emit, one_line_errors, open_engine


@click.command("import")
@click.argument(
    "files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
@click.option(
    "--lang",
    type=click.Choice(LANGUAGES),
    help="The language of a rulebook file (detected when absent).",
)
@click.option(
    "--link",
    is_flag=True,
    help="Link each new record to the same rule in other editions (loads the model).",
)
@click.option("--game", help="The game of a PDF or Markdown document (id, name or alias).")
@click.option("--title", help="The document's title in citations [default: its own title].")
@click.option("--pages", help="Only these PDF pages, e.g. 3-40 (as the PDF counts them).")
@click.option("--dry-run", is_flag=True, help="Parse (and link) and report, write nothing.")
@click.option(
    "--force",
    is_flag=True,
    help="Write a PDF's records even when it looks read line by line, not in paragraphs.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
@one_line_errors
def import_(ctx, files, lang, link, game, title, pages, dry_run, force, as_json):
    """Turn source files into archive records: a rulebook PDF or a Markdown page (--game; its
    extracted text is kept in sources/), or rulebook-excerpt files and FAQ pages (kept in
    sources/ as they are)."""
    from indexer.archive.load import load_archive
    from indexer.archive.sources.documents import is_document
    from indexer.archive.sources.importer import import_files

    documents = [f for f in files if is_document(f)]
    if documents:
        if len(documents) != len(files) or link:
            raise Failure("import PDF or Markdown documents on their own (without --link)")
        from service.cli.documents import import_documents

        import_documents(
            ctx,
            list(files),
            game=game,
            lang=lang,
            title=title,
            pages=pages,
            dry_run=dry_run,
            as_json=as_json,
            force=force,
        )
        return
    if game or title or pages or force:
        raise Failure("--game, --title, --pages and --force are for PDF and Markdown documents")

    archive = load_archive(ctx.obj["archive"])
    embedder = None
    if link:
        from indexer.model.embedder import load_embedder, model_setting

        embedder = load_embedder(ctx.obj["model"] or model_setting())
    report = import_files(
        list(files), archive, lang=lang, dry_run=dry_run, link=link, embedder=embedder
    )
    linking = report.linking
    data = {
        "written": report.written,
        "unchanged": report.unchanged,
        "updated": report.updated,
        "skipped": report.skipped,
        "sources": report.sources,
        "copied": report.copied,
        "links": [m.as_dict() for m in linking.links] if linking else [],
        "possible": [m.as_dict() for m in linking.possible] if linking else [],
        "link_notes": linking.notes if linking else [],
        "dry_run": dry_run,
    }
    emit(data, as_json, lambda d: _import_text(d, report, dry_run))


def _import_text(d: dict, report, dry_run: bool) -> str:
    """The import report for the terminal."""
    verb = "would write" if dry_run else "wrote"
    out = [
        f"{verb} {len(d['written'])} record(s), {len(d['unchanged'])} already in the archive, "
        f"{len(d['skipped'])} note(s)"
    ]
    out += [f"  + {rid}" for rid in d["written"]]
    out += [f"  ! {line}" for line in d["skipped"]]
    for path, name in d["sources"].items():
        kept = (
            ("would copy to" if dry_run else "copied to") if name in d["copied"] else "already in"
        )
        out.append(f"  source {path}: {kept} rulings/sources/{name}")
    if report.linking:
        out.append(
            f"links ({len(d['links'])}; written both ways):"
            if not dry_run
            else f"links ({len(d['links'])}; would be written both ways):"
        )
        out += [f"  {m.line()}" for m in report.linking.links]
        if report.linking.possible:
            out.append(f"possible, not linked ({len(d['possible'])}; check by hand):")
            out += [f"  {m.line()}" for m in report.linking.possible]
        out += [f"  - {note}" for note in report.linking.notes]
        if d["updated"]:
            out.append(
                f"{'would update' if dry_run else 'updated'} {len(d['updated'])} existing "
                f"record(s): {', '.join(d['updated'])}"
            )
    return "\n".join(out)


@click.command()
@click.option(
    "--strict",
    is_flag=True,
    help="Treat warnings (missing translations or search keys) as problems.",
)
@click.pass_context
def lint(ctx, strict):
    """Validate the whole archive: one line per problem, non-zero exit if any."""
    archive, problems, warnings = check_archive(ctx.obj["archive"])
    for line in warnings:
        click.echo(f"warning: {line}", err=True)
    for line in problems:
        click.echo(line, err=True)
    if archive is not None and strict and warnings:
        # Typically newly imported rulings: served with the original (and linked editions)
        # and a "no translation yet" marker until someone translates them.
        untranslated = [
            rid for rid, rec in archive.records.items() if len(rec.languages()) < len(LANGUAGES)
        ]
        if untranslated:
            click.echo(
                f"{len(untranslated)} ruling(s) without a text in every language: {', '.join(untranslated)}",
                err=True,
            )
    if problems or (strict and warnings):
        raise SystemExit(1)
    click.echo(
        f"ok: {len(archive)} rulings, {sum(len(r.translations) for r in archive.records.values())} translations"
    )


@click.command()
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.pass_context
@one_line_errors
def build(ctx, quiet):
    """Build or update the search index (re-embeds only changed records)."""
    from indexer.archive.load import load_archive
    from indexer.archive.record_cache import archive_cache_path
    from indexer.model.embedder import load_embedder, model_setting
    from indexer.search.index import build_index

    # Fills the parsed-archive cache too: the service's start after this build parses nothing.
    archive = load_archive(ctx.obj["archive"], cache=archive_cache_path(ctx.obj["index"]))
    from service.evidence import build_sentence_cache, sentence_cache_path

    embedder = load_embedder(ctx.obj["model"] or model_setting())
    # The sentences first: a service reloading the new index then finds them too.
    sentences = build_sentence_cache(archive, embedder, sentence_cache_path(ctx.obj["index"]))
    _, stats = build_index(archive, embedder, ctx.obj["index"], show_progress=not quiet)
    click.echo(
        f"index {ctx.obj['index']}: {stats['records']} rulings, {stats['passages']} passages; "
        f"embedded {stats['embedded_passages']}, reused {stats['reused_passages']}; "
        f"{sentences['sentences']} sentences for the deciding sentence "
        f"({sentences['embedded']} embedded)"
    )


@click.command("eval")
@click.argument("questions", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--out", type=click.Path(dir_okay=False, path_type=Path), help="Write the figures as JSON here."
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--failures", is_flag=True, help="List the questions answered wrongly.")
@click.pass_context
@one_line_errors
def eval_(ctx, questions, out, as_json, failures):
    """Measure hit@1, hit@3, MRR@10 and declines on a question file (dev.yaml format)."""
    from indexer.files import write_atomic
    from indexer.search.evaluate import evaluate, load_questions

    engine = open_engine(ctx)
    items = load_questions(questions)
    report = evaluate(items, lambda q: engine.search(q, k=10))
    data = report.as_dict()
    if out:
        write_atomic(out, json.dumps(data, indent=2, ensure_ascii=False))

    def human(d: dict) -> str:
        cols = ["hit@1", "hit@3", "mrr@10", "wrongly_declined", "declined_unanswerable"]
        fmt = lambda v: "   -  " if v is None else f"{v:6.3f}"
        rows = [f"{'lang':8}{'n':>4} " + " ".join(f"{c:>10}" for c in cols)]
        for name, fig in [*d["by_language"].items(), ("overall", d["overall"])]:
            rows.append(
                f"{name:8}{fig['answerable'] + fig['unanswerable']:>4} "
                + " ".join(f"{fmt(fig[c]):>10}" for c in cols)
            )
        if failures:
            rows += [
                f"  ✗ {f['q'][:70]} expect={f['expect']} got={f['got']} declined={f['declined']}"
                for f in d["failures"]
            ]
        return "\n".join(rows)

    emit(data, as_json, human)


@click.command()
@click.argument("questions", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--folds", type=click.IntRange(2, 20), default=5, show_default=True)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Where to save the calibration [default: indexer/search/calibration.json].",
)
@click.option(
    "--report",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("build/calibration-report.json"),
    show_default=True,
)
@click.option(
    "--books",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Rulebooks (YAML) with a questions.yaml, imported one at a time and fitted on "
    "[default: tests/data/rulebooks]; --no-books leaves them out.",
)
@click.option("--no-books", is_flag=True, help="Fit on the question sets alone.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_context
@one_line_errors
def calibrate(ctx, questions, folds, out, report, books, no_books, as_json):
    """Fit the reranker and the decline model on question sets (k-fold CV figures reported).

    QUESTIONS default to the shared dev sets, the project's own (bench/eval/) and the archive's
    questions from real use (questions/*.yaml, written by `rulings review`), each of those
    reported apart.
    """
    from indexer.files import write_atomic
    from indexer.paths import CALIBRATION_FILE, DEFAULT_BOOKS, DEFAULT_QUESTION_SETS, REPO_ROOT
    from indexer.search.calibration import save_calibration
    from indexer.search.evaluate import load_questions
    from indexer.search.fit.calibrate import calibrate_all
    from service.computed import cited_by_questions

    paths = list(questions) or [REPO_ROOT / p for p in DEFAULT_QUESTION_SETS]
    sets = {Path(p).stem: load_questions(p) for p in paths}
    real = {} if questions else real_use_sets(ctx.obj["archive"])
    sets.update(real)
    rulebooks = [] if no_books else _read_books(books or DEFAULT_BOOKS, explicit=books is not None)
    searcher = open_engine(ctx).searcher
    texts = [item.q for items in sets.values() for item in items]
    cited = cited_by_questions(searcher, texts + [q.q for b in rulebooks for q in b.questions])
    fitted, figures = calibrate_all(searcher, sets, rulebooks, cited=cited, k=folds)
    figures["real_use"] = real_use_note(real, figures)
    save_calibration(fitted, out or CALIBRATION_FILE)
    write_atomic(report, json.dumps(figures, indent=1, ensure_ascii=False) + "\n")

    def human(d: dict) -> str:
        cols = ["hit@1", "hit@3", "wrongly_declined", "wrong_ruling_shown", "declined_unanswerable"]
        fmt = lambda v: "   -  " if v is None else f"{v:6.3f}"  # noqa: E731
        rows = [f"{'':34}" + " ".join(f"{c:>12}" for c in cols)]
        for name, fig in [
            ("held-out folds", d["held_out"]["overall"]),
            ("held-out, withheld rulings", d["held_out"].get("withheld") or {}),
            *[
                (f"held-out by book: {label}", (d["held_out"].get("books") or {}).get(lang) or {})
                for label, lang in (
                    ("English", "english"),
                    ("the six others", "other six together"),
                )
                if d["held_out"].get("books")
            ],
            *[(f"held-out, real use: {n}{'*' * k}"[:34], f) for n, f, k in real_use_rows(d)],
            ("in-sample (the saved fit)", d["in_sample"]["overall"]),
            *[(f"  ablation: {k}"[:34], v) for k, v in d["ablation"].items()],
        ]:
            rows.append(f"{name:34}" + " ".join(f"{fmt(fig.get(c)):>12}" for c in cols))
        rows.append(
            "held-out hit@1 by language: "
            + ", ".join(f"{lang} {f['hit@1']}" for lang, f in d["held_out"]["by_language"].items())
        )
        if any(keyed for _, _, keyed in real_use_rows(d)):
            rows.append(f"* {d['real_use']['note']}")
        return "\n".join(rows)

    emit(figures, as_json, human)


def _read_books(folder: Path, *, explicit: bool) -> list:
    """The rulebooks to fit on: none where the default folder is missing (an installed copy
    without the tests); a folder given and missing, or unreadable, is an error."""
    import yaml

    from indexer.search.fit.books import read_books

    if not folder.is_dir() and not explicit:
        return []
    try:
        return read_books(folder)
    except (OSError, ValueError, KeyError, TypeError, yaml.YAMLError) as exc:
        raise Failure(f"{folder}: cannot read the rulebooks: {exc}") from None


# -- the archive's questions from real use (`rulings review`) ---------------------------------
#: Where calibrate's report names a real-use set: apart from the curated sets' names.
REAL_USE = "questions/"


def real_use_sets(root: Path) -> dict:
    """The archive's real-use question sets that hold questions, by their report name."""
    from service.asklog.curate import load_question_set, question_sets

    loaded = {f"{REAL_USE}{path.stem}": load_question_set(path) for path in question_sets(root)}
    return {name: items for name, items in loaded.items() if items}


def real_use_note(real: dict, figures: dict) -> dict:
    """What the report says of the real-use sets: which, which leak, and why."""
    from service.asklog.curate import KEYED_SETS

    keyed = [n for n in real if f"{n.removeprefix(REAL_USE)}.yaml" in KEYED_SETS]
    return {
        "sets": sorted(real),
        "keyed": keyed,
        "held_out": {n: figures["held_out"]["by_set"].get(n) for n in sorted(real)},
        "note": "held-out, but not independent: a promoted question is also a search key of "
        "the ruling it expects (rulings review promote), so search meets it word for word",
    }


def real_use_rows(d: dict) -> list[tuple[str, dict, bool]]:
    """(name and size, held-out figures, keyed) of each real-use set in a calibrate report."""
    real = d.get("real_use") or {}
    return [
        (f"{n.removeprefix(REAL_USE)} ({d['sets'].get(n, 0)})", f or {}, n in real.get("keyed", ()))
        for n, f in (real.get("held_out") or {}).items()
    ]
